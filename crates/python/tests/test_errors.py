"""Bad input: the exception Python programs expect, with the reader's
one-line message, and never a Rust panic (pyo3's PanicException derives
from BaseException, so it would escape every check below and fail)."""

import json
import os
import shutil
import subprocess

import pytest

import dice_tables
from conftest import GAMES, attribute, GOLDEN, python_terms, tables_dir


def test_every_refused_golden_lookup_raises_its_message(tables):
    with open(GOLDEN / "refused.json") as f:
        refused = json.load(f)["refused"]
    assert len(refused) >= 50
    for entry in refused:
        q = {k.replace("-", "_"): v for k, v in entry["query"].items()}
        game = getattr(tables, attribute(entry["game"]))
        for call in (game.lookup, game.value):
            with pytest.raises(ValueError) as e:
                call(**q)
            assert str(e.value) == python_terms(entry["error"]), (entry["game"], q)


def test_the_cli_refuses_with_the_same_message(tables, reader):
    """A few refusals asked of both: the CLI's line holds Python's message."""
    cases = [
        ("yazy", ["--mask", "3", "--dice", "1245"], dict(mask="3", dice="1245")),
        ("tenk", ["--remaining", "6", "--score", "75"], dict(remaining=6, score=75)),
        ("duel", ["--me", "0", "--opp", "0", "--score", "300"], dict(me=0, opp=0, score=300)),
        ("yahtzee", ["--mask", "all", "--upper", "0", "--yahtzee-bonus"], dict(mask="all", upper=0, yahtzee_bonus=True)),
    ]
    for game, flags, kwargs in cases:
        out = subprocess.run(
            [str(reader), "lookup", game, *flags, "--tables", str(tables_dir())], capture_output=True, text=True
        )
        assert out.returncode == 2
        with pytest.raises(ValueError) as e:
            getattr(tables, attribute(game)).lookup(**kwargs)
        assert str(e.value) in python_terms(out.stderr) and "\n" not in str(e.value), (out.stderr, str(e.value))


def test_messages_speak_in_keywords(tables):
    """Python's messages name keywords, not command-line flags."""
    cases = [
        (lambda: tables.yahtzee.best(mask="all", upper=0, rerolls=1), ValueError, "rerolls=1 needs dice: give"),
        (
            lambda: tables.yahtzee.lookup(),
            TypeError,
            "yahtzee lookups need mask (the arguments are mask, upper, yahtzee_bonus, dice, rerolls, need, joker, "
            "opp_mask, opp_upper, opp_yahtzee_bonus, me, opp)",
        ),
        (
            lambda: tables.yahtzee.lookup(mask="all,-ones"),
            ValueError,
            "yahtzee lookups need upper once an upper box is filled: give the points ones to sixes hold so far (left out, it is 0)",
        ),
        (lambda: tables.yahtzee.lookup(mask="all", upper=5.0), TypeError, "upper: expected an int"),
        (lambda: tables.yazy.lookup(mask="all", dice=[10**30, 2, 3, 4, 5]), ValueError, "dice: " + "1" + "0" * 30 + " is not a face 1 to 6"),
        (lambda: tables.tenk.lookup(dice="155", remaining=3), ValueError, "dice and remaining cannot both be given"),
        (lambda: tables.yazy.lookup(mask="all", colour=1), TypeError, "its arguments are mask, dice, rerolls"),
        (lambda: tables.yahtzee.lookup(mask="all", upper=0, yahtzee_bonus=True), ValueError, "drop yahtzee_bonus"),
    ]
    for call, kind, text in cases:
        with pytest.raises(kind) as e:
            call()
        assert text in str(e.value) and "--" not in str(e.value), str(e.value)
    yahtzee = next(g for g in dice_tables.games() if g["name"] == "yahtzee")
    assert yahtzee["optional"] == [
        "upper",
        "yahtzee_bonus",
        "dice",
        "rerolls",
        "need",
        "joker",
        "opp_mask",
        "opp_upper",
        "opp_yahtzee_bonus",
        "me",
        "opp",
    ]


def test_the_game_s_own_forms_are_accepted(tables):
    """Dice with spaces or commas, names as people write them, the filled
    boxes after all, duel-cardgames as a name, and Yahtzee bonuses apart."""
    y = tables.yahtzee
    plain = y.lookup(mask="twos,threes,fours,fives,sixes,three-kind,chance", upper=0, dice="33356", rerolls=1)
    assert y.lookup(mask="all,-ones,-four-kind,-Full House,-small_straight,-large straight,-yahtzee", upper=0, dice="3 3 3 5 6", rerolls=1) == plain
    assert y.lookup(mask="Twos,THREES,fours,fives,sixes,3-kind,chance", upper=0, dice="3,3,3,5,6", rerolls=1) == plain
    assert tables.lookup("duel-cardgames", me=0, opp=0) == tables.duel.lookup(me=0, opp=0, rules="cardgames")
    best = y.best(mask="sixes,chance", upper=0, yahtzee_bonus=True, dice="66666", rerolls=0)
    assert best == {"category": "sixes", "points": 30, "bonus": 100}


HOSTILE_VALUES = [
    "",
    " ",
    "\n",
    "\x00",
    "1\x002345",
    "é",
    "🎲🎲🎲🎲🎲",
    "-" * 10_000,
    "9" * 100_000,
    "0x" + "f" * 64,
    "all," * 1000,
    -1,
    -(2**63),
    2**63 - 1,
    2**64,
    10**100,
    -(10**100),
    0,
    [],
    [0] * 100_000,
    [-1],
    [7],
    [1, 2, 3, 4, 5, 6, 1],
    [2**70],
    ["ones"] * 1000,
    ["nope"],
    [""],
    (1, 2, 3, 4, 5),
    True,
    False,
]

BAD_TYPES = [1.5, float("nan"), object(), {"a": 1}, [1.5], [None], b"12345", bytearray(b"1"), [[1]], print]


@pytest.mark.parametrize("game", GAMES)
def test_hostile_values_raise_value_or_type_errors(tables, game):
    g = getattr(tables, attribute(game))
    info = next(i for i in dice_tables.games() if i["name"] == game)
    base = {"yazy": dict(mask="all"), "yatzy": dict(mask="all", upper=0), "yahtzee": dict(mask="all", upper=0), "duel": dict(me=0, opp=0), "maxi-yatzy": dict(mask="all", upper=0)}.get(game, {})
    names = [n.replace("-", "_") for n in info["required"] + info["optional"]]
    for name in names:
        for value in HOSTILE_VALUES + BAD_TYPES:
            q = {**base, name: value}
            try:
                g.lookup(**q)
            except (ValueError, TypeError) as e:
                msg = str(e)
                assert msg and "\n" not in msg and len(msg) < 600, (game, name, repr(value)[:60], msg[:200])
            except dice_tables.TableError as e:
                # A valid need= reads a target table the test tables leave out.
                assert name == "need" and "make target-tables" in str(e), (game, repr(value)[:60], str(e))
            # An answer is fine too (a hostile-looking value may be valid).


def test_wrong_and_missing_names_are_type_errors(tables):
    with pytest.raises(TypeError, match='yazy has no argument "colour"'):
        tables.yazy.value(mask="all", colour="red")
    with pytest.raises(TypeError, match="yazy lookups need mask"):
        tables.yazy.value()
    with pytest.raises(TypeError, match="duel lookups need opp"):
        tables.duel.value(me=0)
    with pytest.raises(ValueError, match='no game "Chess!": the games are yazy'):
        tables.lookup("Chess!")
    # A name a rule set may have is looked for as its table.
    with pytest.raises(ValueError, match=r'no game "chess" \(the games are yazy.*nor a rule set'):
        tables.lookup("chess")
    with pytest.raises(TypeError):
        tables.yazy.value("all")  # keywords only
    with pytest.raises(ValueError, match="mask takes a value"):
        tables.yazy.value(mask=True)
    with pytest.raises(ValueError, match="opening takes no value"):
        tables.tenk.value(remaining=6, opening="maybe")
    with pytest.raises(ValueError, match="has no options"):
        tables.yazy.options(mask="all")


def test_none_means_not_given(tables):
    assert tables.yazy.value(mask="all", dice=None, rerolls=None) == tables.yazy.value(mask="all")


def test_missing_directory_and_missing_table(tmp_path):
    with pytest.raises(dice_tables.TableError, match="does not exist: pass open_dir"):
        dice_tables.open_dir(tmp_path / "nope")
    assert issubclass(dice_tables.TableError, OSError)
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(dice_tables.TableError, match="is a file"):
        dice_tables.open_dir(f)
    empty = dice_tables.open_dir(tmp_path)
    with pytest.raises(dice_tables.TableError, match="make tables"):
        empty.yazy.value(mask="all")
    with pytest.raises(dice_tables.TableError):
        empty.duel.values()
    with pytest.raises(dice_tables.TableError, match=r"yahtzee-free\.dtab: .*build it with `make yahtzee-free`"):
        empty.yahtzee.value(mask="all", joker="free")
    with pytest.raises(ValueError, match='joker reading "wild" is not forced or free'):
        empty.yahtzee.value(mask="all", joker="wild")


def damaged_copy(tmp_path, game, damage):
    src = tables_dir() / f"{game}.dtab"
    dst = tmp_path / f"{game}.dtab"
    data = bytearray(src.read_bytes())
    damage(data)
    dst.write_bytes(bytes(data))
    return dice_tables.open_dir(tmp_path)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.__setitem__(slice(0, 8), b"NOTATABL"),
        lambda d: d.__setitem__(20, d[20] ^ 0xFF),
        lambda d: d.__delitem__(slice(len(d) // 2, None)),
        lambda d: d.__setitem__(len(d) - 100, d[len(d) - 100] ^ 0x01),
        lambda d: d.__setitem__(2000, d[2000] ^ 0x10),
        lambda d: d.clear(),
    ],
)
def test_damaged_tables_raise_table_error(tmp_path, damage):
    t = damaged_copy(tmp_path, "yazy", damage)
    with pytest.raises(dice_tables.TableError) as e:
        t.yazy.verify()
    assert "\n" not in str(e.value)
    # Lookups raise too, when they read the damage (or the header is bad).
    try:
        t.yazy.values_buffer()
        for mask in range(1, 2048, 7):
            t.yazy.lookup(mask=mask, dice="12345", rerolls=2)
    except dice_tables.TableError as e:
        assert "\n" not in str(e)


def test_undamaged_tables_verify(tables):
    for game in ("yazy", "combo", "tenk", "duel"):
        assert getattr(tables, attribute(game)).verify() is None
    assert tables.duel.verify(rules="cardgames") is None


def test_a_table_replaced_under_an_open_reader_keeps_answering(tmp_path):
    shutil.copy(tables_dir() / "yazy.dtab", tmp_path / "yazy.dtab")
    t = dice_tables.open_dir(tmp_path)
    before = t.yazy.value(mask="all")
    fresh = tmp_path / "yazy.dtab.new"
    shutil.copy(tables_dir() / "yazy.dtab", fresh)
    os.replace(fresh, tmp_path / "yazy.dtab")
    assert t.yazy.value(mask="all") == before


IN_PLACE = {
    # What operators type: cp, rsync --inplace and install write into the
    # same file; a truncation first, then the new bytes.
    "truncated": lambda path, other: os.truncate(path, 100),
    "overwritten": lambda path, other: path.write_bytes(other.read_bytes()),
    "flipped": lambda path, other: flip_every_kilobyte(path),
}


def flip_every_kilobyte(path):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        for i in range(0, len(data), 1024):
            data[i] ^= 0xFF
        f.seek(0)
        f.write(data)


@pytest.mark.parametrize("change", sorted(IN_PLACE))
def test_a_table_changed_in_place_changes_no_answer(tmp_path, change):
    """Tables are read into memory by default: a file truncated, copied
    over or changed byte by byte while open changes no answer, no array
    and crashes nothing (a memory map would take SIGBUS on truncation)."""
    for game in ("yatzy", "duel", "threes"):
        shutil.copy(tables_dir() / f"{game}.dtab", tmp_path / f"{game}.dtab")
    t = dice_tables.open_dir(tmp_path)
    assert not t.mmap
    asks = [
        ("yatzy", dict(mask="all", upper=0, dice="33356", rerolls=1)),
        ("yatzy", dict(mask="chance,yatzy", upper=63, dice="66666", rerolls=0)),
        ("duel", dict(me=0, opp=0, dice="155236", score=0)),
        ("duel", dict(me=9500, opp=4000)),
        ("threes", dict(dice="33162", points=0)),
    ]
    before = [t.lookup(game, **q) for game, q in asks]
    arrays = {game: getattr(t, game).values().copy() for game in ("yatzy", "duel")}
    kept = {game: getattr(t, game).values() for game in ("yatzy", "duel")}
    for game, other in (("yatzy", "combo"), ("duel", "tenk"), ("threes", "yazy")):
        IN_PLACE[change](tmp_path / f"{game}.dtab", tables_dir() / f"{other}.dtab")
    assert [t.lookup(game, **q) for game, q in asks] == before
    for game in ("yatzy", "duel"):
        assert (getattr(t, game).values() == arrays[game]).all()
        assert (kept[game] == arrays[game]).all()
    # The file itself is now refused, with one line.
    with pytest.raises(dice_tables.TableError) as e:
        t.yatzy.verify()
    assert "\n" not in str(e.value)


def test_mmap_mode_reads_the_same_answers(tables):
    mapped = dice_tables.open_dir(tables.dir, mmap=True)
    assert mapped.mmap and repr(mapped).endswith("mmap=True)")
    assert mapped.yatzy.lookup(mask="all", upper=0, dice="33356", rerolls=1) == tables.yatzy.lookup(
        mask="all", upper=0, dice="33356", rerolls=1
    )


VALID_LOOKING = {
    "mask": ["all", "none", "ones,yazy", 1025, [0, 1], ["ones"], 2047, 8191, 32767, "0x7ff"],
    "dice": ["12456", "155", "1", "", "666666", [1, 5, 5], [3, 3, 3, 2, 2], "1234567"],
    "rerolls": [0, 1, 2, 5, 6, "2"],
    "remaining": [0, 1, 3, 5, 6, 7],
    "points": [0, 4, 12, 30, 31],
    "record": [0, 8, 30, 31],
    "after": [0, 3, 15, 16],
    "ties": ["win", "lose", "tie"],
    "model": ["sequential", "independent", "x"],
    "objective": ["win", "expected", "lose"],
    "score": [0, 50, 300, 950, 1000, 9950, 29950, 30000, 75],
    "opening": [True, False],
    "upper": [0, 3, 40, 63, 64, 200],
    "yahtzee_bonus": [True, False],
    "me": [0, 50, 9950, 10000, 19950, 120, 281],
    "opp": [0, 4000, 9950, 10000, 95, 280],
    "opp_mask": ["all", "all,-yazy", "yazy", 0, 2048, "none"],
    "opp_upper": [0, 3, 40, 63, 64, 200],
    "opp_yahtzee_bonus": [True, False],
    "advisor": [True, False],
    "to_move": ["me", "opp", "them"],
    "rules": ["seed", "cardgames", "house", "finnish", "swedish"],
    "saved": [0, 1, 2, 40, "x"],
    "need": [-5, 0, 1, 50, 150, 300, 100001, "x"],
    "joker": ["forced", "free", "wild"],
}


@pytest.mark.parametrize("game", GAMES)
def test_random_combinations_answer_or_raise_cleanly(tables, game):
    """Random combinations of plausible and implausible values: an answer
    or a ValueError/TypeError, never anything else (a panic would be a
    PanicException, which derives from BaseException and fails the test)."""
    import random

    rng = random.Random(game)
    g = getattr(tables, attribute(game))
    info = next(i for i in dice_tables.games() if i["name"] == game)
    names = [n.replace("-", "_") for n in info["required"] + info["optional"]]
    answered = 0
    # The opponent's arguments mean something together: a query has them
    # all or none, most of the time.
    opponent = {"opp_mask", "opp_upper", "opp_yahtzee_bonus", "me", "opp", "to_move", "advisor"}
    for _ in range(1500):
        against = rng.random() < 0.3

        def wanted(n):
            if n in info["required"]:
                return True
            if n in opponent:
                return rng.random() < (0.8 if against else 0.05)
            return rng.random() < 0.4

        q = {n: rng.choice(VALID_LOOKING[n]) for n in names if wanted(n)}
        try:
            answer = g.lookup(**q)
            answered += 1
            assert answer["game"] == game
            assert g.value(**q) == answer.get("ev", answer.get("p"))
        except (ValueError, TypeError) as e:
            assert str(e) and "\n" not in str(e), (q, str(e))
        except dice_tables.TableError as e:
            # The test tables leave out the yatzy and yahtzee target tables,
            # the free joker reading's and two-player yazy's.
            if game == "maxi-yatzy":
                made = "make maxi-swedish"
            elif "opp_mask" in q and game == "yazy" and not q.get("advisor"):
                made = "make yazy-duel"
            else:
                made = "make yahtzee-free" if q.get("joker") == "free" else "make target-tables"
            wanted = "need" in q or "opp_mask" in q or q.get("joker") == "free" or q.get("rules") == "swedish"
            assert wanted and made in str(e) and "\n" not in str(e), (q, str(e))
    assert answered > 20, answered
