"""values(): each table's values as a read-only numpy array, agreeing with
the lookups, over the table's own memory where the layout allows."""

import struct
import sys

import numpy as np
import pytest

import dice_tables
from conftest import attribute


def read_only(a):
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[(0,) * a.ndim] = 1.0


def zero_copy(g, **kw):
    """Two calls give arrays over the same bytes: nothing was copied."""
    a, b = g.values(**kw), g.values(**kw)
    return a.__array_interface__["data"][0] == b.__array_interface__["data"][0]


def test_yazy_turn_start_values(tables):
    v = tables.yazy.values()
    assert v.shape == (2048,) and v.dtype == np.float64
    read_only(v)
    assert zero_copy(tables.yazy)
    assert v[2047] == tables.yazy.value(mask="all")
    assert abs(v[2047] - 165.7573187) < 1e-6
    assert v[0] == 0.0
    for mask in range(0, 2048, 97):
        assert v[mask] == tables.yazy.value(mask=mask)
    b = tables.yazy.values_buffer()
    assert b.axes == ("mask",) and b.shape == (2048,) and b.dtype == "float64"
    # Without numpy: the bytes, copied, little-endian.
    m = memoryview(b.tobytes()).cast("d")
    assert sys.byteorder != "little" or (len(m) == 2048 and m[1024] == v[1024])
    assert struct.unpack_from("<d", b.tobytes(), 8 * 1024)[0] == v[1024]
    # numpy's array over the buffer keeps it (and the table) alive.
    a = np.asarray(b)
    assert a.base is b and not a.flags.writeable and a[2047] == v[2047]


def test_duel_win_chances(tables):
    for rules in ("seed", "cardgames"):
        v = tables.duel.values(rules=rules)
        assert v.shape == (200, 200)
        read_only(v)
        assert zero_copy(tables.duel, rules=rules)
        assert tables.duel.values_buffer(rules=rules).axes == ("me", "opp")
        for me, opp in [(0, 0), (9950, 0), (5000, 7500), (50, 9900)]:
            assert v[me // 50, opp // 50] == tables.duel.value(me=me, opp=opp, rules=rules)
    assert abs(tables.duel.values()[0, 0] - 0.5297636) < 1e-7


def test_tenk_values_before_a_throw(tables):
    v = tables.tenk.values()
    assert v.shape == (6, 601) and tables.tenk.values_buffer().axes == ("dice", "score")
    read_only(v)
    assert zero_copy(tables.tenk)
    for dice in range(1, 7):
        for score in (0, 300, 1000, 5000):
            assert v[dice - 1, score // 50] == tables.tenk.lookup(remaining=dice, score=score)["throw"]


def test_combo_roll_values(tables):
    v = tables.combo.values()
    rolls = dice_tables.rolls()
    assert len(rolls) == 252 and v.shape == (6, 252)
    read_only(v)
    assert zero_copy(tables.combo)
    for r in range(6):
        for i in range(0, 252, 17):
            assert v[r, i] == tables.combo.value(dice=rolls[i], rerolls=r)


def test_threes_chances(tables):
    b = tables.threes.values_buffer()
    v = tables.threes.values()
    assert b.axes == ("model", "after", "record", "ties", "points", "remaining")
    assert v.shape == (2, 16, 32, 2, 31, 6) and v.dtype == np.float64
    read_only(v)
    # The lookups give chances to 10 significant digits.
    for model_i, model in enumerate(["independent", "sequential"]):
        for ties_i, ties in enumerate(["win", "lose"]):
            for after, record, points, remaining in [(3, 31, 0, 5), (0, 10, 4, 2), (15, 0, 0, 5), (1, 31, 30, 0)]:
                kw = dict(remaining=remaining, after=after, model=model, ties=ties, points=points)
                if record != 31:
                    kw["record"] = record
                p = tables.threes.value(**kw)
                assert abs(v[model_i, after, record, ties_i, points, remaining] - p) <= 1e-9 * max(p, 1e-300), kw
    assert v.min() >= 0.0 and v.max() <= 1.0


@pytest.mark.parametrize("game,shape", [("yatzy", (32768, 64)), ("yahtzee", (8192, 2, 64))])
def test_score_sheet_turn_start_values(tables, game, shape):
    g = getattr(tables, attribute(game))
    v = g.values()
    assert v.shape == shape
    read_only(v)
    names = dice_tables.categories(game)
    full = (1 << len(names)) - 1
    start = v[full, 0] if game == "yatzy" else v[full, 0, 0]
    assert start == g.value(mask="all", upper=0)
    for mask, upper in [(full, 0), (1, 0), (full & ~1, 3), (full & ~63, 63), (full & ~63, 40)]:
        at = v[mask, upper] if game == "yatzy" else v[mask, 0, upper]
        assert at == g.value(mask=mask, upper=upper)
    if game == "yahtzee":
        mask = full & ~(1 << names.index("yahtzee"))
        assert v[mask, 1, 0] == g.value(mask=mask, upper=0, yahtzee_bonus=True)


def test_rules_pick_one_of_the_games_tables(tables):
    """A game's tables and the rules that pick them are its registry entry's."""
    with pytest.raises(ValueError, match="yazy has one table: rules chooses"):
        tables.yazy.values(rules="seed")
    with pytest.raises(ValueError, match='rules "chess" is not seed or cardgames'):
        tables.duel.values(rules="chess")
    with pytest.raises(ValueError, match="the maxi-yatzy table's values are not given whole: those of yazy, "):
        tables.maxi_yatzy.values()
    assert tables.duel.values(rules="seed").shape == tables.duel.values().shape
