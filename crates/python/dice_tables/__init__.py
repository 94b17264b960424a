"""Exact optimal-strategy tables for dice games, looked up from Python.

The tables are the files `make tables` writes (yazy.dtab, yatzy.dtab, ...);
this package wraps the Rust reader, so every answer is the reader's own:
``t.yazy.lookup(...)`` returns exactly the JSON of ``reader lookup yazy ...
--json`` as a dict.

>>> import dice_tables
>>> t = dice_tables.open_dir("tables")
>>> round(t.yazy.value(mask="all"), 4)
165.7573
>>> t.yazy.best(mask="all", dice="12456", rerolls=2)
{'keep': '245'}

Every game (``t.yazy``, ``t.combo``, ``t.threes``, ``t.tenk``, ``t.yatzy``,
``t.yahtzee``, ``t.duel``, ``t.maxi_yatzy``) has ``lookup``, ``value``, ``options``, ``best``
(keyword arguments: the flags of ``reader lookup GAME`` without their dashes)
and, but for Maxi Yatzy, ``values()`` (the table as a read-only numpy array). Bad arguments raise
``ValueError`` (``TypeError`` for a wrong or missing name) with the command
line's one-line message; a missing or damaged table raises ``TableError``.
"""

from ._native import (
    Combo,
    Duel,
    Game,
    MaxiYatzy,
    TableError,
    Tables,
    Tenk,
    Threes,
    Values,
    Yahtzee,
    Yatzy,
    Yazy,
    categories,
    games,
    rolls,
)

__all__ = [
    "open_dir",
    "Tables",
    "Game",
    "Yazy",
    "Combo",
    "Threes",
    "Tenk",
    "Yatzy",
    "Yahtzee",
    "Duel",
    "MaxiYatzy",
    "Values",
    "TableError",
    "categories",
    "games",
    "rolls",
]


def open_dir(dir=None, *, mmap=False):
    """The tables in ``dir`` (default: ``$DICE_TABLES``, else ``./tables``).

    No table is read until a lookup asks for it; each is then read into
    memory and verified once, so that a file copied over, truncated or
    changed in place later changes no answer (about 7 MB for every table).
    ``mmap=True`` maps the files instead (no copy, pages shared between
    processes): then a file must never change in place while open (replace
    it by renaming a new file over it; a truncated mapped file kills the
    interpreter). Raises ``TableError`` if ``dir`` is not a directory.
    """
    return Tables(dir, mmap=mmap)
