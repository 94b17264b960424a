"""The score curve of a target table as numpy arrays: the same numbers as
the lookups (and `reader curve`) give."""

import numpy
import pytest

import dice_tables


def test_yazy_curve_is_the_target_table_s(tables):
    c = tables.yazy.curve()
    assert sorted(c) == ["p_best", "p_ev", "p_ev_exact", "score"]
    assert all(isinstance(v, numpy.ndarray) and v.shape == (281,) for v in c.values())
    assert list(c["score"]) == list(range(281))
    for t in (0, 150, 200, 250, 280):
        assert c["p_best"][t] == tables.yazy.value(mask="all", need=t)
    assert abs(c["p_ev"][200] - 0.1821690) < 1e-7
    assert abs(c["p_ev_exact"].sum() - 1.0) < 1e-12
    assert numpy.all(c["p_best"] >= c["p_ev"] - 1e-7)
    assert numpy.all(numpy.diff(c["p_best"]) <= 0)


def test_games_without_a_target_table_have_no_curve(tables, tmp_path):
    with pytest.raises(ValueError, match="the games with target tables are yazy, yatzy, yahtzee"):
        tables.combo.curve()
    # A directory without the target table names the make target that builds it.
    with pytest.raises(dice_tables.TableError, match="make target-tables"):
        dice_tables.open_dir(tmp_path).yatzy.curve()
