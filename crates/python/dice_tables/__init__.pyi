"""Exact optimal-strategy tables for dice games, looked up from Python.

Every lookup takes the arguments of ``reader lookup GAME`` as keywords (the
flags without their dashes, ``_`` for ``-``); ``None`` means not given.
Dice are a string of digits ("12456") or a sequence of faces ([1, 2, 4, 5,
6]); a mask is ``"all"``, a comma list of category names, a number (bit i
for category i), or a sequence of category numbers or names. ``lookup``
returns exactly the JSON of ``reader lookup GAME ... --json`` as a dict;
``value``, ``options`` and ``best`` return its ``ev``/``p``, ``options`` and
``best`` fields.

Errors: ``ValueError`` (a bad value or combination: the reader's one-line
message), ``TypeError`` (an argument the game does not take, or a required
one missing), ``TableError`` (a table missing or damaged).
"""

from os import PathLike
from typing import Any, Literal, Optional, Sequence, TypedDict, Union

from typing_extensions import Required, Unpack

import numpy

Dice = Union[str, Sequence[int]]
"""Dice: digits 1-6 as a string, or a sequence of faces."""
Mask = Union[str, int, Sequence[int], Sequence[str]]
"""Open categories: "all", "none", names "ones,yazy", a number (bit i = category i), category numbers or names."""
Number = Union[int, str]
Answer = dict[str, Any]
"""A lookup's answer: the JSON of `reader lookup ... --json` as a dict."""

class TableError(OSError):
    """A table is missing or damaged. The message names the file and what to do (`make tables` writes the tables)."""

def open_dir(dir: Union[str, PathLike[str], None] = None, *, mmap: bool = False) -> Tables:
    """The tables in ``dir`` (default: ``$DICE_TABLES``, else ``./tables``), each read into memory on first use (``mmap=True``: memory-mapped); raises TableError if not a directory."""

def categories(game: str) -> list[str]:
    """The categories of a score-sheet game (yazy, yatzy, yahtzee) in mask-bit order."""

def games() -> list[dict[str, Any]]:
    """The games and their lookup arguments: a dict per game with its name, aliases, required and optional arguments."""

def rolls(n: int = 5) -> list[str]:
    """The rolls of ``n`` dice (0 to 6) in the tables' rank order: the ``roll`` axis of combo's values."""

class Tables:
    """A directory of tables, each opened (read into memory, or memory-mapped with ``mmap=True``, and verified) the first time a lookup asks for it."""

    def __init__(self, dir: Union[str, PathLike[str], None] = None, *, mmap: bool = False) -> None: ...
    @property
    def mmap(self) -> bool:
        """Whether the files are memory-mapped (else read into memory)."""
    @property
    def dir(self) -> PathLike[str]:
        """The directory."""
    def lookup(self, game: str, **query: Any) -> Answer:
        """The answer of ``game`` (as ``reader lookup`` names it, or an alias) to the keyword arguments; any other name is a rule set's table in the directory (``NAME.dtab``, from ``make tables`` or ``generator --rules FILE``), asked with ``mask``, ``upper``, ``held``, ``dice`` and ``rerolls``; against an opponent with ``opp_mask``, ``opp_upper``, ``opp_held``, ``me``, ``opp`` (and ``to_move``), exactly from ``NAME-duel.dtab`` where the directory has one."""
    def review(self, name: str, text: str, *, target: int | None = None) -> dict[str, Any]:
        """The game ``text`` of rule set ``name`` (one decision a line, ``DICE keep KEPT`` or ``DICE score BOX``, as the page writes it; a game of 10000, ``duel`` or ``10000``, one throw a line, ``DICE keep KEPT throw``; a turn of threes, ``DICE keep KEPT``) reviewed against its table: exactly the JSON of ``reader review NAME FILE --json`` (``start``, ``score`` or ``open`` and ``now``, ``luck``, ``loss``, ``accuracy``, ``rating``, ``decisions``, ``largest_mistakes``); ``target``: played for a final score of at least that many points, reviewed in the chance of reaching it (``reader review --target``, or a header line ``target: N``); ``ValueError`` naming a line that breaks the rules."""
    def __getitem__(self, game: str) -> Game:
        """The lookups of any game by its name or an alias (``KeyError`` naming the games for another)."""
    @property
    def yazy(self) -> Yazy:
        """The yazy lookups."""
    @property
    def combo(self) -> Combo:
        """The combo lookups."""
    @property
    def threes(self) -> Threes:
        """The threes lookups."""
    @property
    def tenk(self) -> Tenk:
        """The 10000 lookups."""
    @property
    def yatzy(self) -> Yatzy:
        """The yatzy lookups."""
    @property
    def yahtzee(self) -> Yahtzee:
        """The yahtzee lookups."""
    @property
    def duel(self) -> Duel:
        """The two-player 10000 lookups."""
    @property
    def maxi_yatzy(self) -> MaxiYatzy:
        """The Maxi Yatzy lookups."""

class Values:
    """A table's values, read-only: ``numpy.asarray`` reads them in place
    (``__array_interface__``); ``tobytes()`` copies them."""

    @property
    def axes(self) -> tuple[str, ...]:
        """The names of the axes, in order."""
    @property
    def shape(self) -> tuple[int, ...]:
        """The length of each axis."""
    @property
    def dtype(self) -> Literal["float64", "float32"]:
        """The values' type ("float64"; "float32" is reserved for a table that stores them so)."""
    @property
    def __array_interface__(self) -> dict[str, object]:
        """numpy's array interface: the values' address, shape and type, read-only."""
    def tobytes(self) -> bytes:
        """The values' bytes, copied: little-endian, C order (``memoryview(b).cast("d", shape)`` reads them)."""

class Game:
    """One game's lookups.

    ``values()``, by game (axes in order):

    - yazy: the turn-start value of each mask, ``[mask]`` (2048), in place in the table.
    - yatzy: ``[mask, upper]`` (32768 x 64), yahtzee: ``[mask, yahtzee_bonus, upper]`` (8192 x 2 x 64):
      turn-start values, upper total 63 meaning 63 or more; totals the filled upper boxes
      cannot make repeat the reachable value below them. Decoded into a new array.
    - duel: the chance that the player to move wins at a turn's start, ``[me // 50, opp // 50]``, in place.
    - tenk: the expected banked points of throwing ``dice`` dice at turn score ``score``,
      ``[dice - 1, score // 50]`` (score 0 to 30000), in place.
    - combo: the expected final score of each roll with ``rerolls`` left, ``[rerolls, roll]``,
      rolls in the order of ``rolls()``, in place.
    - threes: the chance of success, ``[model, after, record, ties, points, remaining]``
      (model 0 independent / 1 sequential, record 31 = none, ties 0 win / 1 lose),
      decoded from the stored float32 into a new array.
    """

    @property
    def name(self) -> str:
        """The game, as ``reader lookup`` names it."""
    def lookup(self, **query: Any) -> Answer:
        """The whole answer, exactly the JSON of ``reader lookup GAME ... --json``, as a dict."""
    def value(self, **query: Any) -> float:
        """The answer's value: its ``ev`` (expected score or total) or ``p`` (chance)."""
    def options(self, **query: Any) -> list[dict[str, Any]]:
        """The answer's options, best first, each a dict as in the JSON: for a roll or throw (``dice=``)."""
    def best(self, **query: Any) -> Any:
        """The answer's best action, as in the JSON (``None`` when a score-sheet game is over)."""
    def curve(self) -> dict[str, numpy.ndarray]:
        """The whole game's score curve from its target table (yazy, yatzy, yahtzee): ``{"score", "p_best", "p_ev", "p_ev_exact"}``, one entry per total from 0 to the game's most, as ``reader curve GAME``."""
    def values(self, rules: Optional[str] = None) -> numpy.ndarray:
        """The table's values for analysis as a read-only numpy array (see the class docstring for the axes)."""
    def values_buffer(self, rules: Optional[str] = None) -> Values:
        """The table's values for analysis as a read-only buffer (``tobytes()`` reads it without numpy)."""
    def verify(self, rules: Optional[str] = None) -> None:
        """Checks every checksum and stored value of the game's table file; raises TableError if any fails."""

class YazyQuery(TypedDict, total=False):
    """The keywords of yazy lookups (the flags of ``reader lookup`` without dashes)."""

    mask: Required[Mask]
    dice: Optional[Dice]
    rerolls: Optional[Number]
    need: Optional[Number]
    opp_mask: Optional[Mask]
    me: Optional[Number]
    opp: Optional[Number]
    to_move: Optional[Literal["me", "opp"]]
    advisor: Optional[bool]

class Yazy(Game):
    """yazy: 11 boxes, a roll and two rerolls a turn."""

    def lookup(self, **query: Unpack[YazyQuery]) -> Answer:
        """``{"game","ev","best","options"}`` for a roll; ``{"game","ev"}`` (the turn-start value) without dice.
        With ``need=N`` (the yazy-target table): ``"need"`` and ``"p"``, the best chance of scoring at least N more, in place of ``"ev"``.
        With ``opp_mask=O, me=S, opp=T`` (the yazy-duel table): ``"lead"`` (S - T), ``"to_move"``, ``"p"``, your chance of winning against a perfect opponent, ties half, and ``"exact": True``; ``to_move="opp"`` asks it on the opponent's turn (their dice and options).
        Adding ``advisor=True`` (the yazy-target table): the opponent-aware advisor's play and its estimate of that chance, ``"exact": False``, as yatzy and yahtzee answer."""
    def value(self, **query: Unpack[YazyQuery]) -> float:
        """The expected score still to come (with ``need``: the best chance of scoring it; with ``opp_mask``: the chance of winning)."""
    def options(self, **query: Unpack[YazyQuery]) -> list[dict[str, Any]]:
        """``[{"action": {"keep": "245"} or {"category": "yazy", "points": 50}, "ev": ...}, ...]``, best first."""
    def best(self, **query: Unpack[YazyQuery]) -> Optional[dict[str, Any]]:
        """``{"keep": "245"}`` or ``{"category": "yazy", "points": 50}``; None when no box is open."""

class ComboQuery(TypedDict, total=False):
    """The keywords of combo lookups (the flags of ``reader lookup`` without dashes)."""

    dice: Optional[Dice]
    rerolls: Optional[Number]

class Combo(Game):
    """combo: one roll and (by default) five rerolls, scored once."""

    def lookup(self, **query: Unpack[ComboQuery]) -> Answer:
        """``{"game","ev","best","options"}`` for a roll; ``{"game","ev"}`` (the game-start value) without dice."""
    def value(self, **query: Unpack[ComboQuery]) -> float:
        """The expected final score."""
    def options(self, **query: Unpack[ComboQuery]) -> list[dict[str, Any]]:
        """``[{"action": {"keep": "26"}, "ev": ...}, ...]``, best first."""
    def best(self, **query: Unpack[ComboQuery]) -> dict[str, Any]:
        """``{"keep": "26"}``."""

class ThreesQuery(TypedDict, total=False):
    """The keywords of threes lookups (the flags of ``reader lookup`` without dashes)."""

    dice: Optional[Dice]
    remaining: Optional[Number]
    points: Optional[Number]
    record: Optional[Number]
    after: Optional[Number]
    ties: Optional[Literal["win", "lose"]]
    model: Optional[Literal["sequential", "independent"]]
    objective: Optional[Literal["win", "expected"]]

class Threes(Game):
    """threes: the lowest total wins, 3s count 0; the chance of success against a record and players after."""

    def lookup(self, **query: Unpack[ThreesQuery]) -> Answer:
        """``{"game","p" or "ev"}`` with ``remaining=``; ``{"game","p" or "ev","best","options"}`` with ``dice=``."""
    def value(self, **query: Unpack[ThreesQuery]) -> float:
        """The chance of success (``objective="expected"``: the lowest expected total)."""
    def options(self, **query: Unpack[ThreesQuery]) -> list[dict[str, Any]]:
        """``[{"keep": "3", "p": ...}, ...]``: every choice of the throw, in the table's order."""
    def best(self, **query: Unpack[ThreesQuery]) -> dict[str, Any]:
        """``{"keep": "33"}``."""

class TenkQuery(TypedDict, total=False):
    """The keywords of tenk lookups (the flags of ``reader lookup`` without dashes)."""

    dice: Optional[Dice]
    remaining: Optional[Number]
    score: Optional[Number]
    opening: Optional[bool]

class Tenk(Game):
    """10000: expected banked points on the board, or the chance of reaching 1000 (``opening=True``)."""

    def lookup(self, **query: Unpack[TenkQuery]) -> Answer:
        """Before a throw (``remaining=``): ``{"game","ev" or "p","throw","bank"}``; a throw (``dice=``): ``{"game","ev" or "p","best","options"}``, or ``"bust": True`` and no options."""
    def value(self, **query: Unpack[TenkQuery]) -> float:
        """Expected banked points (opening: the chance of reaching 1000)."""
    def options(self, **query: Unpack[TenkQuery]) -> list[dict[str, Any]]:
        """``[{"keep","points","dice_left","then","ev" or "p"}, ...]``, best first."""
    def best(self, **query: Unpack[TenkQuery]) -> dict[str, Any]:
        """``{"keep","points","dice_left","then"}``."""

class YatzyQuery(TypedDict, total=False):
    """The keywords of yatzy lookups (the flags of ``reader lookup`` without dashes)."""

    mask: Required[Mask]
    upper: Optional[Number]
    dice: Optional[Dice]
    rerolls: Optional[Number]
    need: Optional[Number]
    opp_mask: Optional[Mask]
    opp_upper: Optional[Number]
    me: Optional[Number]
    opp: Optional[Number]

class Yatzy(Game):
    """yatzy (Scandinavian): 15 boxes, bonus 50 at 63."""

    def lookup(self, **query: Unpack[YatzyQuery]) -> Answer:
        """As yazy's, for a state of the sheet (``upper``: points in ones to sixes so far, needed once one of them is filled; left out, 0).
        With ``need=N`` (the yatzy-target table, ``make target-tables``): ``"need"`` and ``"p"``, the best chance of scoring at least N more, in place of ``"ev"``.
        With ``opp_mask=O, opp_upper=U, me=S, opp=T`` (the same table): ``"lead"`` (S - T), ``"p"``, the opponent-aware advisor's estimate of the chance of winning, ties half, and ``"exact": False``."""
    def value(self, **query: Unpack[YatzyQuery]) -> float:
        """The expected score still to come (with ``need``: the best chance of scoring it; with ``opp_mask``: the estimated chance of winning)."""
    def options(self, **query: Unpack[YatzyQuery]) -> list[dict[str, Any]]:
        """Every option of the roll, best first."""
    def best(self, **query: Unpack[YatzyQuery]) -> Optional[dict[str, Any]]:
        """The best action; None when no box is open."""

class YahtzeeQuery(TypedDict, total=False):
    """The keywords of yahtzee lookups (the flags of ``reader lookup`` without dashes)."""

    mask: Required[Mask]
    upper: Optional[Number]
    yahtzee_bonus: Optional[bool]
    dice: Optional[Dice]
    rerolls: Optional[Number]
    need: Optional[Number]
    joker: Optional[str]
    opp_mask: Optional[Mask]
    opp_upper: Optional[Number]
    opp_yahtzee_bonus: Optional[bool]
    me: Optional[Number]
    opp: Optional[Number]

class Yahtzee(Game):
    """yahtzee (United States): 13 boxes, bonus 35 at 63, Yahtzee bonuses and jokers."""

    def lookup(self, **query: Unpack[YahtzeeQuery]) -> Answer:
        """As yazy's, for a state of the sheet (``yahtzee_bonus``: the yahtzee box holds 50;
        ``joker="free"``: the free joker reading's tables, ``make yahtzee-free``; the answer says ``"joker": "free"``).
        With ``need=N`` (the yahtzee-target table, ``make target-tables``): ``"need"`` and ``"p"``, the best chance of scoring at least N more, in place of ``"ev"``.
        With ``opp_mask=O, opp_upper=U, opp_yahtzee_bonus=B, me=S, opp=T`` (the same table): ``"lead"`` (S - T), ``"p"``, the opponent-aware advisor's estimate of the chance of winning, ties half, and ``"exact": False``."""
    def value(self, **query: Unpack[YahtzeeQuery]) -> float:
        """The expected score still to come (with ``need``: the best chance of scoring it; with ``opp_mask``: the estimated chance of winning)."""
    def options(self, **query: Unpack[YahtzeeQuery]) -> list[dict[str, Any]]:
        """Every option of the roll, best first."""
    def best(self, **query: Unpack[YahtzeeQuery]) -> Optional[dict[str, Any]]:
        """The best action; None when no box is open."""

class DuelQuery(TypedDict, total=False):
    """The keywords of duel lookups (the flags of ``reader lookup`` without dashes)."""

    me: Required[Number]
    opp: Required[Number]
    to_move: Optional[Literal["me", "opp"]]
    dice: Optional[Dice]
    remaining: Optional[Number]
    score: Optional[Number]
    rules: Optional[Literal["seed", "cardgames"]]

class Duel(Game):
    """Two-player 10000: the chance of winning (``rules="seed"`` or ``"cardgames"``)."""

    def lookup(self, **query: Unpack[DuelQuery]) -> Answer:
        """A turn's start ``{"game","rules","to_move","p"}``; before a throw ``{..,"p","throw","bank","best"}``; a throw ``{..,"p","best","options"}``. ``to_move="opp"``: on the opponent's turn (their throw and keeps), still your chance."""
    def value(self, **query: Unpack[DuelQuery]) -> float:
        """Your chance of winning (on your turn, or with ``to_move="opp"`` the opponent's)."""
    def options(self, **query: Unpack[DuelQuery]) -> list[dict[str, Any]]:
        """``[{"keep","points","dice_left","then","p"}, ...]``, best first."""
    def best(self, **query: Unpack[DuelQuery]) -> Any:
        """A throw's best keep ``{"keep","points","dice_left","then"}``; before a throw ``"throw"`` or ``"bank"``."""

class MaxiYatzyQuery(TypedDict, total=False):
    """The keywords of Maxi Yatzy lookups (the flags of ``reader lookup maxi-yatzy`` without dashes)."""

    mask: Required[Mask]
    upper: Optional[Number]
    saved: Optional[Number]
    dice: Optional[Dice]
    rerolls: Optional[Number]
    rules: Optional[Literal["finnish", "swedish"]]

class MaxiYatzy(Game):
    """Maxi Yatzy: six dice, 20 boxes (``rules="finnish"``: bonus 50 at 75; ``"swedish"``: 100 at 84, unused rerolls saved)."""

    def lookup(self, **query: Unpack[MaxiYatzyQuery]) -> Answer:
        """A turn's start ``{"game","rules","ev"}``; a roll of six dice ``{..,"ev","best","options"}`` (``saved``: rerolls saved from
        earlier turns, swedish rules; ``rerolls``: left in this turn, its two and the saved, default all)."""
    def value(self, **query: Unpack[MaxiYatzyQuery]) -> float:
        """The expected score still to come."""
    def options(self, **query: Unpack[MaxiYatzyQuery]) -> list[dict[str, Any]]:
        """Every option of the roll (every open box, every partial keep), best first."""
    def best(self, **query: Unpack[MaxiYatzyQuery]) -> Optional[dict[str, Any]]:
        """The best action; None when no box is open."""
