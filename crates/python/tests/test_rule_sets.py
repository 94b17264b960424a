"""A rule set only this test writes: solved by `generator --rules FILE`,
then answered by the package exactly as `reader lookup --table` answers it,
with the box names the file gives and no code for the rule set anywhere."""

import json
import os
import pathlib
import subprocess

import pytest

import dice_tables
from conftest import REPO, tables_dir

RULES = """name = "porch-dice"
dice = 3
rerolls = 2

[upper-bonus]
boxes = ["fives", "sixes"]
at = 20
points = 15

[[box]]
name = "fives"
kind = "face"
face = 5

[[box]]
name = "sixes"
kind = "face"
face = 6

[[box]]
name = "pair"
kind = "alike"
count = 2
score = "dice"

[[box]]
name = "trips"
kind = "alike"
count = 3
score = 30
first-roll = 10

[[box]]
name = "eleven"
kind = "total"
total = 11
score = 11

[[box]]
name = "chance"
kind = "chance"
"""

QUERIES = [
    {},
    {"mask": "all", "dice": "665"},
    {"mask": "all,-fives", "upper": "10", "dice": "555", "rerolls": "2"},
    {"mask": "sixes,trips,eleven", "upper": "15", "dice": "146", "rerolls": "1"},
    {"mask": "pair,chance", "dice": "236", "rerolls": "0"},
    # Played to reach a target: the rule set's target table.
    {"need": "80"},
    {"mask": "all", "dice": "665", "need": "90"},
    {"mask": "sixes,trips,eleven", "upper": "15", "dice": "146", "rerolls": "1", "need": "30"},
]


@pytest.fixture(scope="module")
def porch(tmp_path_factory):
    """The rule file solved into a directory of its own, with its target table."""
    d = tmp_path_factory.mktemp("porch")
    (d / "porch.toml").write_text(RULES)
    generator = REPO / "target" / "release" / "generator"
    done = subprocess.run(
        [generator, "--rules", d / "porch.toml", "--with-target", "--out", d / "tables"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return d / "tables"


@pytest.mark.builds_from_source
def test_a_rule_set_only_this_test_writes_answers_as_the_command_line_does(porch, reader):
    tables = dice_tables.open_dir(porch)
    for query in QUERIES:
        args = [a for name, value in query.items() for a in (f"--{name}", value)]
        cli = subprocess.run(
            [reader, "lookup", "--table", porch / "porch-dice.dtab", *args, "--json"], capture_output=True, text=True
        )
        assert cli.returncode == 0, cli.stderr
        assert tables.lookup("porch-dice", **query) == json.loads(cli.stdout), query
    answer = tables.lookup("porch-dice", mask="trips", dice="444", rerolls="2")
    assert answer["best"] == {"category": "trips", "points": 30, "first_roll": 10}
    assert tables.lookup("porch-dice", mask="trips", dice="444", rerolls="0")["best"] == {"category": "trips", "points": 30}
    # Three sixes on the first roll, needing 40 from trips and chance: the
    # trips' 30 and its first-roll bonus of 10 reach it for certain.
    reach = tables.lookup("porch-dice", mask="trips,chance", dice="666", rerolls="2", need="40")
    assert reach["best"] == {"category": "trips", "points": 30, "first_roll": 10} and reach["p"] == 1.0


@pytest.mark.builds_from_source
def test_a_rule_set_s_refusals_name_its_boxes(porch):
    tables = dice_tables.open_dir(porch)
    with pytest.raises(ValueError, match="yatzy"):
        tables.lookup("porch-dice", mask="yatzy")
    with pytest.raises(ValueError, match="rolls 3 dice"):
        tables.lookup("porch-dice", dice="12345")
    with pytest.raises(ValueError, match="nor a rule set's table"):
        tables.lookup("garden-dice", dice="123")


@pytest.mark.builds_from_source
def test_a_rule_set_that_saves_rerolls_answers_as_the_command_line_does(tmp_path, reader):
    """The rules above saving the rerolls a turn leaves (no first-roll bonus
    beside saving): the rerolls saved are asked as `saved`."""
    rules = RULES.replace('name = "porch-dice"', 'name = "porch-saver"').replace(
        "rerolls = 2\n", "rerolls = 2\nsaved-rerolls = true\n", 1
    ).replace("first-roll = 10\n", "")
    (tmp_path / "saver.toml").write_text(rules)
    generator = REPO / "target" / "release" / "generator"
    done = subprocess.run([generator, "--rules", tmp_path / "saver.toml", "--out", tmp_path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    tables = dice_tables.open_dir(tmp_path)
    for query in [{"mask": "pair,chance", "saved": "4"}, {"mask": "pair,chance", "saved": "4", "dice": "236"}]:
        args = [a for name, value in query.items() for a in (f"--{name}", value)]
        cli = subprocess.run(
            [reader, "lookup", "--table", tmp_path / "porch-saver.dtab", *args, "--json"], capture_output=True, text=True
        )
        assert cli.returncode == 0, cli.stderr
        assert tables.lookup("porch-saver", **query) == json.loads(cli.stdout), query
    with pytest.raises(ValueError, match="saved rerolls 11 is out of range"):
        tables.lookup("porch-saver", mask="chance", saved="11")


def test_a_rule_set_s_game_is_reviewed_as_the_command_line_reviews_it(tables, reader, tmp_path):
    game = "466 keep 66\n566 score sixes\n123 keep 3\n356 score thirteen\n"
    path = tmp_path / "crag.txt"
    path.write_text(game)
    cli = subprocess.run(
        [reader, "review", "crag", path, "--json", "--tables", tables.dir],
        check=True, capture_output=True, text=True,
    )
    review = tables.review("crag", game)
    assert review == json.loads(cli.stdout)
    assert review["largest_mistakes"] == [4, 3]
    assert 0 < review["accuracy"] < 100 and review["rating"] > 0
    # Each mistake says why, box by box, from crag's parts table; the parts add up to the loss.
    why = review["decisions"][3]["reason"]
    assert why["text"] == "thirteen +20.48, low-straight -1.36, threes -1.13"
    assert abs(sum(why["parts"].values()) - review["decisions"][3]["loss"]) < 1e-9
    assert "reason" not in review["decisions"][0]
    with pytest.raises(ValueError, match=r"^line 2 \(123 score sixes\): the dice do not hold the 66 kept$"):
        tables.review("crag", "466 keep 66\n123 score sixes\n")


def test_a_yatzy_game_is_reviewed_on_yatzy_s_own_table(tables, reader, tmp_path):
    # The built-in game's table read as its preset's, beside yatzy-parts.dtab (the reasons).
    game = "game: yatzy\n12345 keep 1\n11234 keep 11\n11156 score ones\n"
    path = tmp_path / "yatzy.txt"
    path.write_text(game)
    cli = subprocess.run([reader, "review", path, "--json", "--tables", tables.dir], check=True, capture_output=True, text=True)
    review = tables.review("yatzy", game)
    assert review == json.loads(cli.stdout)
    assert review["game"] == "yatzy" and review["largest_mistakes"] == [2]
    assert review["rating"] > 0
    why = review["decisions"][0]["reason"]
    assert why["text"] == "small-straight +11.56, large-straight -1.46, upper bonus chance -1.3 % (-0.63)"
    assert abs(sum(why["parts"].values()) - review["decisions"][0]["loss"]) < 1e-9
    with pytest.raises(ValueError, match=r"combo is a built-in game whose games are not reviewed here"):
        tables.review("combo", "12345 keep 1\n")


def test_games_of_10000_and_threes_are_reviewed_as_the_command_line_reviews_them(tables, reader, tmp_path):
    # Two-player 10000, in each player's chance of winning, from the duel table.
    path = REPO / "tests" / "golden" / "duel-two-mistakes.txt"
    game = path.read_text()
    cli = subprocess.run([reader, "review", "duel", path, "--json", "--tables", tables.dir], check=True, capture_output=True, text=True)
    review = tables.review("duel", game)
    assert review == json.loads(cli.stdout)
    assert review["largest_mistakes"] == [34, 65] and review["outcome"] == 1
    first, second = review["players"]
    assert abs(review["outcome"] - first["start"] - (first["luck"] - second["luck"] - first["loss"] + second["loss"])) < 1e-9
    # 10000 alone, in expected banked points.
    alone = tables.review("10000", "112346 keep 1 throw\n23556 keep 55 bank\n")
    assert alone["game"] == "tenk" and alone["score"] == 200 and alone["turns"] == 1
    assert abs(alone["score"] - alone["start"] - (alone["luck"] - alone["loss"])) < 1e-9
    with pytest.raises(ValueError, match=r"^line 1 \(1123 keep 1 throw\): 1123 is 4 dice: 6 are thrown \(six open each turn\)$"):
        tables.review("10000", "1123 keep 1 throw\n")
    # A turn of threes, in the chance of success against the record.
    turn = "game: threes\nrecord: 8\nafter: 1\n33456 keep 6\n1245 keep 1\n245 keep 245\n"
    path = tmp_path / "threes.txt"
    path.write_text(turn)
    cli = subprocess.run([reader, "review", path, "--json", "--tables", tables.dir], check=True, capture_output=True, text=True)
    assert tables.review("threes", turn) == json.loads(cli.stdout)
    assert tables.review("threes", turn)["largest_mistakes"][0] == 4


def test_a_game_played_for_a_target_is_reviewed_in_its_chance(tables, reader, tmp_path):
    game = "466 keep 6\n566 score sixes\n"
    path = tmp_path / "crag.txt"
    path.write_text(game)
    cli = subprocess.run(
        [reader, "review", "crag", path, "--json", "--target", "150", "--tables", tables.dir],
        check=True, capture_output=True, text=True,
    )
    review = tables.review("crag", game, target=150)
    assert review == json.loads(cli.stdout)
    # The header says the same.
    assert tables.review("crag", "target: 150\n" + game)["start"] == review["start"]
    assert review["target"] == 150 and review["largest_mistakes"] == [1]
    assert 0 < review["start"] < 1 and abs(review["now"] - review["start"] - (review["luck"] - review["loss"])) < 1e-9
    with pytest.raises(ValueError, match=r"a target is a whole number of points, 1 or more"):
        tables.review("crag", game, target=0)


def test_a_game_against_someone_is_reviewed_in_each_player_s_chance(tables, reader, tmp_path):
    # Forced Yatzy's tables beside its two-player table (make tables leaves
    # it out; make reduced-target-tables writes it whole).
    duel_dir = pathlib.Path(os.environ.get("DICE_TARGET_TABLES") or REPO / "target" / "reduced-tables")
    both = tmp_path / "tables"
    both.mkdir()
    for d, f in [(tables_dir(), "forced-yatzy"), (tables_dir(), "forced-yatzy-parts"), (duel_dir, "forced-yatzy-duel")]:
        (both / f"{f}.dtab").symlink_to((d / f"{f}.dtab").resolve())
    game = "game: forced-yatzy\nplayers: 2\n11236 keep 11\n11456 keep 11\n11145 score ones\n22345 keep 2\n"
    path = tmp_path / "forced-yatzy.txt"
    path.write_text(game)
    cli = subprocess.run(
        [reader, "review", "forced-yatzy", path, "--json", "--tables", both],
        check=True, capture_output=True, text=True,
    )
    against = dice_tables.open_dir(both)
    review = against.review("forced-yatzy", game)
    assert review == json.loads(cli.stdout)
    assert [d["player"] for d in review["decisions"]] == [1, 1, 1, 2]
    first, second = review["players"]
    assert abs(first["start"] + second["start"] - 1) < 1e-12
    luck, loss = first["luck"] - second["luck"], first["loss"] - second["loss"]
    assert abs(review["now"] - review["start"] - (luck - loss)) < 1e-9
    with pytest.raises(ValueError, match=r"name no target"):
        against.review("forced-yatzy", game, target=100)
    with pytest.raises(ValueError, match=r"a rule set's two-player table answers a game against someone"):
        tables.review("forced-yatzy", game)
