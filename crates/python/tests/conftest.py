"""Shared fixtures: the tables `make tables` wrote, and the reader binary.

Nothing here skips: without the tables (or the reader binary) every test
fails with the reason, since `make test` always writes them first.
"""

import os
import pathlib

import pytest

import dice_tables

REPO = pathlib.Path(__file__).resolve().parents[3]
GOLDEN = REPO / "tests" / "golden"
GAMES = ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "maxi-yatzy"]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "builds_from_source: needs the Rust toolchain (make wheel-test, which has none, leaves it out)"
    )


def attribute(game):
    """The Tables attribute of a game: its name with `_` for `-`."""
    return game.replace("-", "_")


def python_terms(message):
    """A lookup-layer message (written with command-line flags) in Python's
    terms, by the rule tests/golden/README.md documents: each `--NAME` that
    is a lookup argument becomes its keyword (dashes as underscores)."""
    import re

    arguments = {a.replace("_", "-") for g in dice_tables.games() for a in g["required"] + g["optional"]}
    return re.sub(
        r"--([a-z][a-z-]*[a-z])",
        lambda m: m.group(1).replace("-", "_") if m.group(1) in arguments else m.group(0),
        message,
    )


def tables_dir():
    """$DICE_TABLES (make test sets it), else the repository's tables/."""
    return pathlib.Path(os.environ.get("DICE_TABLES") or REPO / "tables")


@pytest.fixture(scope="session")
def tables():
    d = tables_dir()
    assert (d / "yazy.dtab").is_file(), f"no tables in {d}: run `make tables` first"
    return dice_tables.open_dir(d)


@pytest.fixture(scope="session")
def target_tables():
    """yatzy, yahtzee and their target tables, where tests/golden/target.json
    is asked, the reduced two-player yazy table (yazy-duel.json) and the
    whole two-player forced Yatzy table (rule-set-duel.json):
    $DICE_TARGET_TABLES (make test: the reduced tables `make
    reduced-target-tables` writes), else target/reduced-tables."""
    d = pathlib.Path(os.environ.get("DICE_TARGET_TABLES") or REPO / "target" / "reduced-tables")
    assert (d / "yatzy-target.dtab").is_file(), f"no target tables in {d}: run `make reduced-target-tables` first"
    return dice_tables.open_dir(d)


@pytest.fixture(scope="session")
def reader():
    """The reader binary `make tables` built."""
    path = REPO / "target" / "release" / "reader"
    assert path.is_file(), f"no reader binary at {path}: run `make build` first"
    return path
