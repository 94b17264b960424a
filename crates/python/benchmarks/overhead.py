"""The Python package's cost over the Rust reader, measured with timeit.

For each lookup: the Rust lookup alone (the same parse and answer, timed in
a Rust loop inside the extension), the Python call (timeit, best of 7
repeats), and the difference: what crossing into Python adds (converting
the keyword arguments, building the result objects). Then opening the
tables and answering one lookup, from Python and from Rust.

    DICE_TABLES=tables python crates/python/benchmarks/overhead.py
"""

import os
import sys
import timeit

import dice_tables
from dice_tables import _native

CASES = [
    ("yazy", "value", dict(mask="all")),
    ("yazy", "value", dict(mask="all", dice="12456", rerolls=2)),
    ("yazy", "best", dict(mask=[0, 5, 10], dice=[3, 3, 3, 2, 2], rerolls=0)),
    ("tenk", "value", dict(remaining=6, score=300)),
    ("tenk", "options", dict(dice="155", score=300)),
    ("yatzy", "value", dict(mask="all", upper=0)),
    ("threes", "value", dict(remaining=5, after=3)),
    ("duel", "value", dict(me=2500, opp=4000)),
    ("yazy", "lookup", dict(mask="all", dice="12456", rerolls=2)),
]


def per_call(stmt, number):
    """Seconds per call: the best of 7 timeit repeats."""
    return min(timeit.repeat(stmt, number=number, repeat=7)) / number


def main():
    d = os.environ.get("DICE_TABLES", "tables")
    t = dice_tables.open_dir(d)
    print(f"{'lookup':<62} {'rust':>9} {'python':>9} {'overhead':>9}")
    worst = 0.0
    for game, method, kw in CASES:
        call = getattr(getattr(t, game), method)
        call(**kw)  # open the table, decode what the lookup reads
        n = 20_000
        value_only = method == "value"
        rust = min(_native._time_rust_lookup(t, game, n, value_only, **kw) for _ in range(7)) / 1e9
        python = per_call(lambda: call(**kw), n)
        over = python - rust
        worst = max(worst, over)
        args = ", ".join(f"{k}={v!r}" for k, v in kw.items())
        print(f"{game}.{method}({args}):"[:62].ljust(62), f"{rust * 1e6:8.2f}u {python * 1e6:8.2f}u {over * 1e6:8.2f}u")
    print(f"largest Python call overhead: {worst * 1e6:.2f} us per lookup")

    # Opening: a fresh Tables and the first lookup of yazy (maps and checks the file).
    n = 200
    rust = min(_native._time_rust_open(d, "yazy", n, mask="all") for _ in range(7)) / 1e9
    python = per_call(lambda: dice_tables.open_dir(d).yazy.value(mask="all"), n)
    print(f"open the tables + first yazy lookup: rust {rust * 1e3:.3f} ms, python {python * 1e3:.3f} ms, "
          f"difference {(python - rust) * 1e3:+.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
