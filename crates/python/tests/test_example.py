"""examples/play_yazy.py: 10,000 games from the table, whose mean must lie
within 4 standard errors of the table's value at the start, 165.7573."""

import json
import pathlib
import subprocess
import sys

from conftest import tables_dir

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "play_yazy.py"


def test_play_yazy_agrees_with_the_table():
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "10000", "--json", "--tables", str(tables_dir())],
        capture_output=True,
        text=True,
        check=True,
    )
    r = json.loads(out.stdout)
    assert r["games"] == 10000
    assert abs(r["table"] - 165.7573187) < 1e-6
    assert abs(r["mean"] - 165.7573187) < 4 * r["se"], r
    assert 0.3 < r["se"] < 0.7, r  # sd of a yazy score is about 40


def test_play_yazy_prints_mean_and_standard_error():
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "200", "--seed", "7", "--tables", str(tables_dir())],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "200 games from the table: mean" in out.stdout and "standard error" in out.stdout


def test_play_yazy_without_tables_says_so(tmp_path):
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "10", "--tables", str(tmp_path)], capture_output=True, text=True
    )
    assert out.returncode == 1 and "make tables" in out.stderr and out.stderr.count("\n") == 1
