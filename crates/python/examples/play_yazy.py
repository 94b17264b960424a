"""Play games of yazy from the table and print the mean score.

Every decision is the table's best action: keep what it says to keep, or
score the category it names (with rerolls left or none). The mean of many games
should agree with the table's value at the game's start, 165.7573, within
a few standard errors.

    python examples/play_yazy.py [--games 10000] [--seed 1] [--tables DIR] [--json]
"""

import argparse
import json
import math
import random
import sys

import dice_tables


def play(yazy, categories, rng):
    """One game: the total of the eleven scored boxes."""
    open_boxes = list(categories)
    total = 0
    while open_boxes:
        dice = [rng.randint(1, 6) for _ in range(5)]
        for rerolls in (2, 1, 0):
            best = yazy.best(mask=open_boxes, dice=dice, rerolls=rerolls)
            if "category" in best:
                total += best["points"]
                open_boxes.remove(best["category"])
                break
            kept = [int(c) for c in best["keep"]]
            dice = kept + [rng.randint(1, 6) for _ in range(5 - len(kept))]
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--tables", default=None, help="the tables directory (default $DICE_TABLES, else ./tables)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (a standard error needs two games)")

    try:
        yazy = dice_tables.open_dir(args.tables).yazy
        expected = yazy.value(mask="all")
    except dice_tables.TableError as e:
        print(f"play_yazy: {e}", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    categories = dice_tables.categories("yazy")
    scores = [play(yazy, categories, rng) for _ in range(args.games)]

    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    se = sd / math.sqrt(n)
    z = (mean - expected) / se
    if args.json:
        print(json.dumps({"games": n, "mean": mean, "sd": sd, "se": se, "table": expected, "z": z}))
    else:
        print(f"yazy, {n} games from the table: mean {mean:.4f}, standard error {se:.4f} (sd {sd:.4f})")
        print(f"the table's value at the start: {expected:.4f}; the mean is {z:+.2f} standard errors from it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
