//! Lookups as the front ends ask them: `reader lookup G ... --json`,
//! `reader serve`, the Python package, the WebAssembly module and any other
//! program that speaks in arguments and JSON. (Apps that call the game
//! views of `dice-tables-reader` directly do not need this crate.)
//!
//! A [`Query`] is one game's lookup with its arguments parsed; its
//! [`answer`](Query::answer) is the JSON the command line prints, as a
//! [`Json`] tree. [`Query::from_args`] builds a query from named arguments
//! (the command line's flags without their dashes), refusing bad ones with
//! a [`LookupError`] that holds what was given and what is accepted, so
//! every front end accepts and refuses the same things, each naming the
//! arguments in its own [`Terms`].
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use dice_tables_lookup::{Arg, Query};
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let query = Query::from_args("yazy", &[("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 4, 5, 6])), ("rerolls", Arg::Int(2))])?;
//! let answer = query.answer(&tables)?;
//! assert_eq!(answer.get("best").unwrap().to_string(), r#"{"keep":"245"}"#);
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

mod answer;
mod json;
pub mod parse;

use std::fmt;

use dice_tables_reader::sheet::{Joker, SheetGame};
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Mask;
use dice_tables_reader::{ArgumentError, ArgumentErrorKind, Dice, TableError, TableErrorKind};

pub use answer::maxi_rules_name;
pub use json::Json;

/// A yazy lookup: the turn-start value of a mask, or a roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YazyQuery {
    /// The open categories.
    pub mask: Mask,
    /// The five dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left (default: all of the table's); only with `dice`.
    pub rerolls: Option<u8>,
    /// Play to score at least this many more points (the `yazy-target`
    /// table): the answer is the best chance of it, `"p"`, not the expected score.
    pub need: Option<i64>,
    /// Play against an opponent with these categories open (the
    /// `yazy-duel` table): the answer is the chance of winning, ties half,
    /// `"p"`. Needs `me` and `opp`.
    pub opp_mask: Option<Mask>,
    /// The total so far of the player to move, in a two-player lookup;
    /// only `me - opp` matters.
    pub me: Option<u32>,
    /// The opponent's total so far, in a two-player lookup.
    pub opp: Option<u32>,
    /// In a two-player lookup, the opponent-aware advisor's answer (the
    /// `yazy-target` table: an estimate) instead of the two-player table's
    /// (exact).
    pub advisor: bool,
}

impl YazyQuery {
    /// Your lead in a two-player lookup: `me - opp` (0 when they are left out).
    pub fn lead(&self) -> i64 {
        i64::from(self.me.unwrap_or(0)) - i64::from(self.opp.unwrap_or(0))
    }
}

/// A combo lookup: the game-start value, or a roll's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComboQuery {
    /// The five dice showing; `None` for the value before the first roll.
    pub dice: Option<Dice>,
    /// Rerolls left (default: all of the table's); only with `dice`.
    pub rerolls: Option<u8>,
}

/// A threes lookup: a state's chance of success (or expected total), or a
/// throw's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreesQuery {
    /// The 1-5 dice just thrown; one of `dice` and `remaining` is given.
    pub dice: Option<Dice>,
    /// Dice still to throw, 0 to 5.
    pub remaining: Option<u8>,
    /// Points kept so far.
    pub points: u8,
    /// The lowest total of the players before (`None`: the first player).
    pub record: Option<u8>,
    /// Players still to play after this one (default 0).
    pub after: Option<u8>,
    /// How ties count (default: win).
    pub ties: Option<Ties>,
    /// How the later players play (default: sequential).
    pub model: Option<Model>,
    /// Minimise the expected total instead of maximising the chance of success.
    pub expected: bool,
}

/// A 10000 lookup: before a throw, or a throw's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TenkQuery {
    /// The 1-6 dice just thrown; one of `dice` and `remaining` is given.
    pub dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    pub remaining: Option<u8>,
    /// The turn score so far.
    pub score: u32,
    /// Not yet on the board: the chance of reaching 1000 this turn.
    pub opening: bool,
}

/// A yatzy or yahtzee lookup: a state's turn-start value, or a roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SheetQuery {
    /// Open categories, bit i for category i.
    pub mask: u32,
    /// Points in ones to sixes so far; `None` is 0, which is the only
    /// total while they are all open (see [`SheetQuery::upper_total`]).
    pub upper: Option<u32>,
    /// Yahtzee only: the yahtzee box holds 50.
    pub yahtzee_bonus: bool,
    /// The five dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left (default 2); only with `dice`.
    pub rerolls: Option<u8>,
    /// Play to score at least this many more points (the `yatzy-target` or
    /// `yahtzee-target` table): the answer is the best chance of it, `"p"`.
    pub need: Option<i64>,
    /// Yahtzee only: the joker reading, which picks the table (`None`:
    /// forced, `yahtzee.dtab`; free: `yahtzee-free.dtab`).
    pub joker: Option<Joker>,
    /// Play against an opponent whose sheet has these categories open: the
    /// answer is the opponent-aware advisor's estimate of the chance of
    /// winning, ties half, `"p"` (the target table). Needs `me` and `opp`.
    pub opp_mask: Option<u32>,
    /// The opponent's points in ones to sixes so far (as `upper`).
    pub opp_upper: Option<u32>,
    /// Yahtzee only: the opponent's yahtzee box holds 50.
    pub opp_yahtzee_bonus: bool,
    /// Your total so far (Yahtzee bonuses included, the upper bonus not:
    /// it counts at the game's end), in a two-player lookup; only `me -
    /// opp` matters.
    pub me: Option<u32>,
    /// The opponent's total so far, counted as `me`.
    pub opp: Option<u32>,
}

impl SheetQuery {
    /// The upper total asked (0 when left out: [`Query::check`] refuses to
    /// leave it out once an upper box is filled).
    pub fn upper_total(&self) -> u32 {
        self.upper.unwrap_or(0)
    }

    /// The opponent's upper total asked (0 when left out, as `upper`).
    pub fn opp_upper_total(&self) -> u32 {
        self.opp_upper.unwrap_or(0)
    }

    /// Whether the answer is a chance from the target table: played for a
    /// need, or against an opponent.
    pub fn played_to_win(&self) -> bool {
        self.need.is_some() || self.opp_mask.is_some()
    }

    /// Your lead: `me - opp` (0 when they are left out).
    pub fn lead(&self) -> i64 {
        i64::from(self.me.unwrap_or(0)) - i64::from(self.opp.unwrap_or(0))
    }
}

/// The rules preset of a Maxi Yatzy lookup: which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxiRules {
    /// Bonus 50 at 75, no saved rolls: `maxi-yatzy.dtab`.
    Finnish,
    /// Bonus 100 at 84, unused rerolls saved: `maxi-yatzy-swedish.dtab`.
    Swedish,
}

/// A Maxi Yatzy lookup: a state's turn-start value, or a six-dice roll's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxiQuery {
    /// Open boxes, bit i for box i.
    pub mask: u32,
    /// Points in ones to sixes so far; `None` is 0 (needed once an upper box is filled).
    pub upper: Option<u32>,
    /// Rerolls saved from earlier turns (swedish rules); `None` is 0.
    pub saved: Option<u32>,
    /// The six dice showing; `None` for the turn-start value.
    pub dice: Option<Dice>,
    /// Rerolls left in this turn, its two and any saved (default: all of them); only with `dice`.
    pub rerolls: Option<u8>,
    /// Which table.
    pub rules: MaxiRules,
}

/// The rules preset of a two-player 10000 lookup: which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelRules {
    /// The seed's scoring, entry 1000: `duel.dtab`.
    Seed,
    /// The cardgames scoring, no entry: `duel-cardgames.dtab`.
    Cardgames,
}

/// A two-player 10000 lookup: the chance of winning at a turn's start,
/// before a throw, or of a throw's keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelQuery {
    /// The banked total of the player to move.
    pub me: u32,
    /// The opponent's banked total.
    pub opp: u32,
    /// The 1-6 dice just thrown; at most one of `dice` and `remaining`.
    pub dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    pub remaining: Option<u8>,
    /// The turn score so far.
    pub score: u32,
    /// Which table.
    pub rules: DuelRules,
}

/// One game's lookup, its arguments parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    /// yazy.
    Yazy(YazyQuery),
    /// combo.
    Combo(ComboQuery),
    /// threes.
    Threes(ThreesQuery),
    /// 10000.
    Tenk(TenkQuery),
    /// yatzy.
    Yatzy(SheetQuery),
    /// yahtzee.
    Yahtzee(SheetQuery),
    /// two-player 10000.
    Duel(DuelQuery),
    /// Maxi Yatzy.
    Maxi(MaxiQuery),
}

/// The games a query names, with their other names and their arguments
/// (the command line's flags without dashes; the first ones are required).
pub const LOOKUPS: &[LookupInfo] = &[
    LookupInfo {
        game: "yazy",
        aliases: &[],
        required: &["mask"],
        optional: &["dice", "rerolls", "need", "opp-mask", "me", "opp", "advisor"],
    },
    LookupInfo { game: "combo", aliases: &[], required: &[], optional: &["dice", "rerolls"] },
    LookupInfo {
        game: "threes",
        aliases: &[],
        required: &[],
        optional: &["dice", "remaining", "points", "record", "after", "ties", "model", "objective"],
    },
    LookupInfo {
        game: "tenk",
        aliases: &["10000"],
        required: &[],
        optional: &["dice", "remaining", "score", "opening"],
    },
    LookupInfo {
        game: "yatzy",
        aliases: &[],
        required: &["mask"],
        optional: &["upper", "dice", "rerolls", "need", "opp-mask", "opp-upper", "me", "opp"],
    },
    LookupInfo {
        game: "yahtzee",
        aliases: &[],
        required: &["mask"],
        optional: &[
            "upper",
            "yahtzee-bonus",
            "dice",
            "rerolls",
            "need",
            "joker",
            "opp-mask",
            "opp-upper",
            "opp-yahtzee-bonus",
            "me",
            "opp",
        ],
    },
    LookupInfo {
        game: "duel",
        aliases: &["10000-duel", "tenk2", CARDGAMES_DUEL],
        required: &["me", "opp"],
        optional: &["dice", "remaining", "score", "rules"],
    },
    LookupInfo {
        game: "maxi-yatzy",
        aliases: &["maxi", "maxiyatzy", SWEDISH_MAXI],
        required: &["mask"],
        optional: &["upper", "saved", "dice", "rerolls", "rules"],
    },
];

/// The name under which a Maxi Yatzy lookup reads the swedish table:
/// `maxi-yatzy` with `rules` swedish.
const SWEDISH_MAXI: &str = "maxi-yatzy-swedish";

/// The name under which a duel lookup reads the cardgames table: `duel`
/// with `rules` cardgames.
const CARDGAMES_DUEL: &str = "duel-cardgames";

/// A game's lookup: its name, other names and arguments.
#[derive(Clone, Copy, Debug)]
pub struct LookupInfo {
    /// The game, as `reader lookup` names it.
    pub game: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The arguments every lookup of it needs.
    pub required: &'static [&'static str],
    /// The arguments it may have.
    pub optional: &'static [&'static str],
}

impl LookupInfo {
    /// The game named `name` (its id or another name).
    pub fn find(name: &str) -> Option<&'static LookupInfo> {
        LOOKUPS.iter().find(|l| l.game == name || l.aliases.contains(&name))
    }

    fn has(&self, arg: &str) -> bool {
        self.required.contains(&arg) || self.optional.contains(&arg)
    }

    /// Its arguments, the required first.
    fn arguments(&self) -> Vec<&'static str> {
        self.required.iter().chain(self.optional).copied().collect()
    }
}

/// An argument's value as a front end has it. Text is parsed exactly as
/// the command line parses it; the other forms are what programs hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// Text, as on the command line (`"12456"`, `"all"`, `"2"`).
    Text(&'a str),
    /// A whole number.
    Int(i64),
    /// Dice as their faces (`[1, 2, 4, 5, 6]`), or a mask as the numbers
    /// of its open categories (bit positions: `[0, 10]` is ones and yazy).
    Ints(&'a [i64]),
    /// A mask as category names (`["ones", "yazy"]`).
    Names(&'a [&'a str]),
    /// A flag that takes no value, set or not (`opening`, `yahtzee-bonus`).
    Flag(bool),
}

/// The games with a score curve (a target table): yazy, yatzy, yahtzee.
pub const CURVE_GAMES: [&str; 3] = ["yazy", "yatzy", "yahtzee"];

/// A whole game's score curve, as `reader curve GAME --json` prints it:
/// `{"game", "rows": [{"score", "p_best", "p_ev", "p_ev_exact"}, ...]}`, one
/// row per total from 0 to the game's most (see
/// [`score_curve`](dice_tables_reader::target::score_curve)), from the game's target
/// table. `game` is one of [`CURVE_GAMES`] (or another name of one).
pub fn curve(tables: &dice_tables_reader::Tables, game: &str) -> Result<Json, LookupError> {
    Ok(curve_json(game, &curve_rows(tables, game)?))
}

/// The JSON of [`curve`] from rows already read.
pub fn curve_json(game: &str, rows: &[dice_tables_reader::target::CurveRow]) -> Json {
    let row = |r: &dice_tables_reader::target::CurveRow| {
        Json::object(vec![
            ("score", Json::Int(r.score.into())),
            ("p_best", Json::Num(r.p_best)),
            ("p_ev", Json::Num(r.p_ev)),
            ("p_ev_exact", Json::Num(r.p_ev_exact)),
        ])
    };
    let name = LookupInfo::find(game).map_or(game, |l| l.game);
    Json::object(vec![("game", Json::Str(name.into())), ("rows", Json::List(rows.iter().map(row).collect()))])
}

/// A whole game's score curve as rows: see [`curve`].
pub fn curve_rows(
    tables: &dice_tables_reader::Tables,
    game: &str,
) -> Result<Vec<dice_tables_reader::target::CurveRow>, LookupError> {
    use dice_tables_reader::sheet::{SheetTarget, YahtzeeGame, YatzyGame};
    fn sheet<G: SheetGame>(
        tables: &dice_tables_reader::Tables,
    ) -> Result<Vec<dice_tables_reader::target::CurveRow>, dice_tables_reader::Error> {
        let table = tables.get::<SheetTarget<G>>()?;
        let all = (1u32 << G::CATEGORIES.len()) - 1;
        let start = table.curve(table.state(all, 0, false)?)?;
        Ok(dice_tables_reader::target::score_curve(&start, &table.ev_distribution()?))
    }
    let rows = match LookupInfo::find(game).map(|l| l.game) {
        Some("yazy") => {
            let table = tables.get::<dice_tables_reader::yazy::target::YazyTarget>()?;
            dice_tables_reader::target::score_curve(&table.curve(Mask::ALL)?, &table.ev_distribution()?)
        }
        Some("yatzy") => sheet::<YatzyGame>(tables)?,
        Some("yahtzee") => sheet::<YahtzeeGame>(tables)?,
        _ => {
            return Err(LookupError::NoCurve { given: game.to_string(), known: &CURVE_GAMES });
        }
    };
    Ok(rows)
}

/// Why a lookup has no answer: what was given and what is accepted. Each
/// front end words it with [`message`](LookupError::message) in its own
/// terms for the arguments; `Display` is the command line's.
#[derive(Debug)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant's doc says what its fields are
pub enum LookupError {
    /// No game of that name: `known` lists the games.
    UnknownGame { given: String, known: Vec<&'static str> },
    /// No score curve of that game: `known` lists the games with target tables.
    NoCurve { given: String, known: &'static [&'static str] },
    /// An argument `game` does not take: `accepted` lists those it does.
    UnknownArgument { game: &'static str, given: String, accepted: Vec<&'static str> },
    /// A required argument not given.
    MissingArgument { game: &'static str, argument: &'static str, accepted: Vec<&'static str> },
    /// An argument given more than once.
    Repeated { argument: String },
    /// An argument that takes a value, given as a flag (true or false).
    NeedsValue { argument: &'static str },
    /// A flag given a value other than true or false.
    TakesNoValue { argument: &'static str },
    /// A die given as a number that is not a face.
    NotAFace { argument: &'static str, given: i64 },
    /// A mask's category number that is not one of the game's.
    CategoryNumber { given: i64, categories: Vec<&'static str> },
    /// An argument's text that does not parse: `why` is the parser's one line.
    BadValue { argument: &'static str, given: String, why: String },
    /// Arguments the game's view refuses (out of range, impossible).
    Refused(ArgumentError),
    /// No upper total, where an upper box is filled.
    UpperNeeded { game: &'static str, argument: &'static str },
    /// `rerolls` without the dice they count from.
    RerollsWithoutDice { rerolls: u8, dice: &'static str },
    /// Both a throw and the dice about to be thrown, or (`both` false) neither.
    ThrowOrRemaining { both: bool },
    /// An argument about other players with the lowest expected total.
    NotWithExpected { argument: &'static str },
    /// A turn score without a throw or the dice about to be thrown.
    ScoreWithoutThrow { score: u32 },
    /// `duel-cardgames` asked with the seed's rules.
    SeedRulesForCardgames,
    /// `maxi-yatzy-swedish` asked with the finnish rules.
    FinnishRulesForSwedish,
    /// A two-player yazy lookup without `missing` (`opp-mask`, `me`,
    /// `opp`), or `need` beside them (`missing` is then `need`).
    TwoPlayer { missing: &'static str },
    /// A lookup this build of the reader leaves out (`what`).
    NotInBuild { what: &'static str },
    /// A threes throw with no choice (a library bug, said in words).
    NoChoice { throw: String },
    /// An answer without a value (a library bug, said in words).
    NoValue { game: &'static str, answer: String },
    /// A query string longer than `max` bytes.
    QueryTooLong { len: usize, max: usize },
    /// A query string with more than `max` parameters.
    TooManyParameters { max: usize },
    /// Query text that is not percent-encoded UTF-8.
    NotPercentEncoded { given: String },
    /// The game's table is missing or damaged.
    Table(TableError),
    /// Another of the reader's errors.
    Other(dice_tables_reader::Error),
}

impl fmt::Display for LookupError {
    /// One line, naming arguments as command-line flags; a table's error
    /// says what to do about it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, Terms::CommandLine)
    }
}

impl std::error::Error for LookupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LookupError::Refused(e) => Some(e),
            LookupError::Table(e) => Some(e),
            _ => None,
        }
    }
}

impl LookupError {
    /// The message in a front end's own terms: arguments named as it names
    /// them (`--rerolls=1` on the command line, `rerolls=1` in Python and
    /// over HTTP).
    pub fn message(&self, terms: Terms) -> String {
        struct In<'a>(&'a LookupError, Terms);
        impl fmt::Display for In<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, self.1)
            }
        }
        In(self, terms).to_string()
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, terms: Terms) -> fmt::Result {
        use LookupError as E;
        let arg = |name: &str| terms.argument(name);
        let args = |names: &[&str]| names.iter().map(|n| terms.argument(n)).collect::<Vec<_>>().join(", ");
        let shown = |given: &str| given.chars().take(40).collect::<String>();
        let throw_or_remaining =
            || format!("give the throw ({}) or the dice about to be thrown ({})", arg("dice"), arg("remaining"));
        match self {
            E::UnknownGame { given, known } => write!(f, "no game {:?}: the games are {}", shown(given), known.join(", ")),
            E::NoCurve { given, known } => {
                write!(f, "no curve of {:?}: the games with target tables are {}", shown(given), known.join(", "))
            }
            E::UnknownArgument { game, given, accepted } => {
                write!(f, "{game} has no argument {:?}: its arguments are {}", shown(given), args(accepted))
            }
            E::MissingArgument { game, argument, accepted } => {
                write!(f, "{game} lookups need {} (the arguments are {})", arg(argument), args(accepted))
            }
            E::Repeated { argument } => write!(f, "{} is given more than once: give it once", arg(argument)),
            E::NeedsValue { argument } => write!(f, "{} takes a value, not true or false", arg(argument)),
            E::TakesNoValue { argument } => {
                write!(f, "{} takes no value: it is set (true) or not (false)", arg(argument))
            }
            E::NotAFace { argument, given } => write!(f, "{}: die {given} is not a face 1 to 6", arg(argument)),
            E::CategoryNumber { given, categories } => write!(
                f,
                "mask category number {given} is not 0 to {}: the categories are {}",
                categories.len() - 1,
                categories.join(",")
            ),
            E::BadValue { why, .. } => f.write_str(why),
            E::Refused(e) => match e.kind() {
                ArgumentErrorKind::BonusWhileOpen => write!(
                    f,
                    "the yahtzee box cannot hold 50 while it is open: drop {} or close yahtzee in the mask",
                    arg("yahtzee-bonus")
                ),
                ArgumentErrorKind::TurnOrder { mover, opponent } => write!(
                    f,
                    "{} has {mover} {} open and {} {opponent}: the player to move has as many open as the \
                     opponent (moving first) or one more (moving second)",
                    arg("mask"),
                    if *mover == 1 { "category" } else { "categories" },
                    arg("opp-mask")
                ),
                ArgumentErrorKind::ReducedTable { .. } => {
                    write!(f, "{e}; build the whole table with `make target-tables`")
                }
                _ => write!(f, "{e}"),
            },
            E::UpperNeeded { game, argument: "opp-upper" } => write!(
                f,
                "{game} lookups need {} once an upper box on the opponent's sheet is filled: give the points the opponent's ones to sixes hold so far (left out, it is 0)",
                arg("opp-upper")
            ),
            E::UpperNeeded { game, .. } => write!(
                f,
                "{game} lookups need {} once an upper box is filled: give the points ones to sixes hold so far (left out, it is 0)",
                arg("upper")
            ),
            E::RerollsWithoutDice { rerolls, dice } => write!(
                f,
                "{}={rerolls} needs {}: give the {dice} dice showing (without dice the answer is the value before the roll)",
                arg("rerolls"),
                arg("dice")
            ),
            E::ThrowOrRemaining { both: true } => write!(
                f,
                "{} and {} cannot both be given: {}",
                arg("dice"),
                arg("remaining"),
                throw_or_remaining()
            ),
            E::ThrowOrRemaining { both: false } => f.write_str(&throw_or_remaining()),
            E::NotWithExpected { argument } => write!(
                f,
                "{} has no meaning with {}=expected (the lowest expected total ignores other players); drop it or use {}=win",
                arg(argument),
                arg("objective"),
                arg("objective")
            ),
            E::ScoreWithoutThrow { score } => write!(
                f,
                "{}={score} without {} or {}: {}",
                arg("score"),
                arg("dice"),
                arg("remaining"),
                throw_or_remaining()
            ),
            E::FinnishRulesForSwedish => write!(
                f,
                "maxi-yatzy-swedish is maxi-yatzy with {}=swedish: drop {}=finnish, or ask maxi-yatzy",
                arg("rules"),
                arg("rules")
            ),
            E::SeedRulesForCardgames => write!(
                f,
                "duel-cardgames is duel with {}=cardgames: drop {}=seed, or ask duel",
                arg("rules"),
                arg("rules")
            ),
            E::TwoPlayer { missing: "opp-mask" } => write!(
                f,
                "{} and {} are the two players' totals: add {}, the opponent's open categories",
                arg("me"),
                arg("opp"),
                arg("opp-mask")
            ),
            E::TwoPlayer { missing: "need" } => write!(
                f,
                "{} plays alone to reach a score and {} against an opponent: drop one of them",
                arg("need"),
                arg("opp-mask")
            ),
            E::TwoPlayer { missing: "advisor" } => write!(
                f,
                "{} answers against an opponent: add {}, the opponent's open categories, with {} and {}",
                arg("advisor"),
                arg("opp-mask"),
                arg("me"),
                arg("opp")
            ),
            E::TwoPlayer { .. } => write!(
                f,
                "two-player lookups need {} and {}: both totals so far (only their difference matters), like {} 0 {} 0",
                arg("me"),
                arg("opp"),
                arg("me"),
                arg("opp")
            ),
            E::NotInBuild { what } => {
                write!(f, "{what} is not in this build of the reader: the npm package, reader lookup, Python and HTTP have it")
            }
            E::NoChoice { throw } => write!(f, "threes has no choice for the throw {throw}"),
            E::NoValue { game, answer } => write!(f, "{game} answered without a value: {answer}"),
            E::QueryTooLong { len, max } => write!(f, "the query string is {len} bytes: at most {max} are read"),
            E::TooManyParameters { max } => write!(f, "the query string has more than {max} parameters"),
            E::NotPercentEncoded { given } => {
                write!(f, "{} is not percent-encoded UTF-8", dice_tables_reader::quoted(given))
            }
            E::Other(e) => write!(f, "{e}"),
            E::Table(e) => {
                let missing = e
                    .path()
                    .and_then(|p| p.file_name())
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".dtab"))
                    .filter(|_| matches!(e.kind(), TableErrorKind::NotFound));
                if let Some(id) = missing.filter(|n| n.starts_with("yahtzee-free")) {
                    return write!(f, "{e}: the free joker reading's tables are not part of `make tables`: build it with `make {id}` (or `generator --games {id}`)");
                }
                if let Some(id) = missing.filter(|n| *n == "maxi-yatzy-swedish") {
                    return write!(f, "{e}: the swedish Maxi Yatzy table is not part of `make tables`: build it with `make maxi-swedish` (or `generator --games {id}`), or every optional table with `make optional-tables`");
                }
                if let Some(id) = missing.filter(|n| *n == "yazy-duel") {
                    return write!(f, "{e}: the two-player table is not part of `make tables`: build it with `make {id}` (or `generator --games {id}`), or every optional table with `make optional-tables`");
                }
                if let Some(id) = missing.filter(|n| n.ends_with("-target")) {
                    return write!(f, "{e}: the target tables are not part of `make tables`: build them with `make target-tables` (or `generator --games {id}`)");
                }
                let hint = match e.kind() {
                    TableErrorKind::NotFound => ": run `make tables` (or `generator --out DIR`) to write it",
                    TableErrorKind::Io(_) | TableErrorKind::NotRegularFile | TableErrorKind::NoTablesDirectory { .. } => "",
                    _ => "; regenerate it with `make tables`",
                };
                write!(f, "{e}{hint}")
            }
        }
    }
}

/// Whose words a message uses for the lookups' arguments: each front end
/// names them its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terms {
    /// Flags: `--yahtzee-bonus`, `--rerolls=1`.
    CommandLine,
    /// Keyword arguments: `yahtzee_bonus`, `rerolls=1`.
    Python,
    /// Query parameters: `yahtzee-bonus`, `rerolls=1`.
    Http,
}

impl Terms {
    /// Argument `name` (as in [`LOOKUPS`]) as this front end writes it.
    pub fn argument(self, name: &str) -> String {
        match self {
            Terms::CommandLine => format!("--{name}"),
            Terms::Python => name.replace('-', "_"),
            Terms::Http => name.to_string(),
        }
    }
}

impl From<TableError> for LookupError {
    fn from(e: TableError) -> LookupError {
        LookupError::Table(e)
    }
}

impl From<ArgumentError> for LookupError {
    fn from(e: ArgumentError) -> LookupError {
        LookupError::Refused(e)
    }
}

impl From<dice_tables_reader::Error> for LookupError {
    fn from(e: dice_tables_reader::Error) -> LookupError {
        match e {
            dice_tables_reader::Error::Table(e) => LookupError::Table(e),
            dice_tables_reader::Error::Argument(e) => LookupError::Refused(e),
            e => LookupError::Other(e),
        }
    }
}

/// Every game a lookup can ask.
fn games() -> Vec<&'static str> {
    LOOKUPS.iter().map(|l| l.game).collect()
}

/// The registry's entry of the table `id` (what a table's bytes are opened
/// as), or [`LookupError::UnknownGame`] naming every table this build reads.
pub fn table_named(id: &str) -> Result<&'static dice_tables_reader::GameInfo, LookupError> {
    dice_tables_reader::game_named(id).ok_or_else(|| LookupError::UnknownGame {
        given: id.to_string(),
        known: dice_tables_reader::GAMES.iter().map(|g| g.id).collect(),
    })
}

/// Why a tables directory cannot be opened, in one line: `dir` came from
/// `source` (`--tables`, `$DICE_TABLES`, ...), and `how` says how to give
/// another (`pass --tables DIR`).
pub fn directory_error(dir: &std::path::Path, source: &str, how: &str) -> String {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Ok(m) if m.is_file() => format!(
            "table directory {shown} (from {source}) is a file: give the directory that holds the tables, not one table"
        ),
        Ok(m) if !m.is_dir() => {
            format!("table directory {shown} (from {source}) is not a directory: give the directory that holds the tables")
        }
        Ok(_) => format!("table directory {shown} (from {source}) cannot be read: check its permissions"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!(
            "table directory {shown} (from {source}) does not exist: {how} or set DICE_TABLES to the directory `make tables` wrote"
        ),
        Err(e) => format!("table directory {shown} (from {source}) cannot be opened ({e}): {how}"),
    }
}

/// A parser of an argument's text.
type Parser<T> = fn(&str) -> Result<T, String>;

/// Named arguments being taken by a game's query: each once, none unknown.
struct Args<'a> {
    info: &'static LookupInfo,
    given: Vec<(String, Arg<'a>)>,
}

impl<'a> Args<'a> {
    fn new(info: &'static LookupInfo, args: &[(&str, Arg<'a>)]) -> Result<Args<'a>, LookupError> {
        let mut given: Vec<(String, Arg<'a>)> = Vec::with_capacity(args.len());
        for (given_name, value) in args {
            // Python's keywords spell the flags' dashes as underscores.
            let name = given_name.replace('_', "-");
            if !info.has(&name) {
                let (game, given, accepted) = (info.game, given_name.to_string(), info.arguments());
                return Err(LookupError::UnknownArgument { game, given, accepted });
            }
            if given.iter().any(|(n, _)| *n == name) {
                return Err(LookupError::Repeated { argument: name });
            }
            given.push((name, *value));
        }
        let args = Args { info, given };
        match info.required.iter().find(|r| args.arg(r).is_none()) {
            Some(missing) => Err(args.missing(missing)),
            None => Ok(args),
        }
    }

    fn arg(&self, name: &str) -> Option<Arg<'a>> {
        self.given.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// The value of `name` parsed from its text form by `parse`.
    fn value<T>(&self, name: &'static str, parse: Parser<T>) -> Result<Option<T>, LookupError> {
        self.value_with(name, &[], parse)
    }

    /// As [`value`](Args::value), with `categories` naming a mask's
    /// category numbers.
    fn value_with<T>(
        &self,
        name: &'static str,
        categories: &[&'static str],
        parse: Parser<T>,
    ) -> Result<Option<T>, LookupError> {
        let Some(arg) = self.arg(name) else { return Ok(None) };
        let text = match arg {
            Arg::Text(s) => s.to_string(),
            Arg::Int(i) => i.to_string(),
            Arg::Names(names) => names.join(","),
            Arg::Ints(ints) if categories.is_empty() => dice_text(name, ints)?,
            Arg::Ints(ints) => mask_text(ints, categories)?,
            Arg::Flag(_) => return Err(LookupError::NeedsValue { argument: name }),
        };
        parse(&text).map(Some).map_err(|why| LookupError::BadValue { argument: name, given: text, why })
    }

    /// A required argument's value (its presence was checked by [`Args::new`]).
    fn required_with<T>(
        &self,
        name: &'static str,
        categories: &[&'static str],
        parse: Parser<T>,
    ) -> Result<T, LookupError> {
        self.value_with(name, categories, parse)?.ok_or_else(|| self.missing(name))
    }

    fn missing(&self, argument: &'static str) -> LookupError {
        LookupError::MissingArgument { game: self.info.game, argument, accepted: self.info.arguments() }
    }

    /// A flag that takes no value.
    fn flag(&self, name: &'static str) -> Result<bool, LookupError> {
        match self.arg(name) {
            None => Ok(false),
            Some(Arg::Flag(b)) => Ok(b),
            Some(Arg::Text("" | "true" | "1")) | Some(Arg::Int(1)) => Ok(true),
            Some(Arg::Text("false" | "0")) | Some(Arg::Int(0)) => Ok(false),
            Some(_) => Err(LookupError::TakesNoValue { argument: name }),
        }
    }
}

/// Dice given as faces, as the text the parsers read: each a digit.
fn dice_text(name: &'static str, faces: &[i64]) -> Result<String, LookupError> {
    faces
        .iter()
        .map(|&f| match u32::try_from(f).ok().and_then(|f| char::from_digit(f, 10)) {
            Some(c) => Ok(c),
            None => Err(LookupError::NotAFace { argument: name, given: f }),
        })
        .collect()
}

/// A mask given as category numbers, as the text the parsers read: names.
fn mask_text(numbers: &[i64], categories: &[&'static str]) -> Result<String, LookupError> {
    if numbers.is_empty() {
        return Ok("none".to_string());
    }
    let names = numbers.iter().map(|&i| match usize::try_from(i).ok().and_then(|i| categories.get(i)) {
        Some(name) => Ok(*name),
        None => Err(LookupError::CategoryNumber { given: i, categories: categories.to_vec() }),
    });
    Ok(names.collect::<Result<Vec<&str>, LookupError>>()?.join(","))
}

/// The longest query string [`Query::from_query_string`] reads.
pub const MAX_QUERY_BYTES: usize = 2048;
/// The most parameters a query string may have.
pub const MAX_QUERY_PARAMS: usize = 16;

/// A URL query string (`mask=all&dice=12456&rerolls=2`) as named arguments:
/// names and values percent-decoded (`+` is a space), a name alone
/// (`opening`) a flag. At most [`MAX_QUERY_BYTES`] bytes and
/// [`MAX_QUERY_PARAMS`] parameters, checked before anything is decoded.
pub fn parse_query_string(qs: &str) -> Result<Vec<(String, Option<String>)>, LookupError> {
    if qs.len() > MAX_QUERY_BYTES {
        return Err(LookupError::QueryTooLong { len: qs.len(), max: MAX_QUERY_BYTES });
    }
    let params = qs.split('&').filter(|p| !p.is_empty());
    if params.clone().count() > MAX_QUERY_PARAMS {
        return Err(LookupError::TooManyParameters { max: MAX_QUERY_PARAMS });
    }
    params
        .map(|p| match p.split_once('=') {
            Some((name, value)) => Ok((percent_decode(name)?, Some(percent_decode(value)?))),
            None => Ok((percent_decode(p)?, None)),
        })
        .collect()
}

/// `%XX` and `+` decoded (the percent-encoding crate decodes); an error for
/// a bad escape (a `%` without two hex digits) or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Result<String, LookupError> {
    let bad = || LookupError::NotPercentEncoded { given: s.to_string() };
    let bytes = s.as_bytes();
    let escapes_whole = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'%')
        .all(|(i, _)| bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    if !escapes_whole {
        return Err(bad());
    }
    let spaced = s.replace('+', " ");
    let decoded = percent_encoding::percent_decode_str(&spaced).decode_utf8().map_err(|_| bad())?;
    Ok(decoded.into_owned())
}

impl Query {
    /// The lookup of game `game` with a URL query string's arguments
    /// ([`parse_query_string`]; a name alone is a flag).
    pub fn from_query_string(game: &str, qs: &str) -> Result<Query, LookupError> {
        let pairs = parse_query_string(qs)?;
        let args: Vec<(&str, Arg<'_>)> =
            pairs.iter().map(|(n, v)| (n.as_str(), v.as_deref().map_or(Arg::Flag(true), Arg::Text))).collect();
        Query::from_args(game, &args)
    }

    /// The lookup of game `game` (its id, as `reader lookup` names it, or
    /// another name) with `args`: the command line's flags without their
    /// dashes (underscores also accepted), each once. Errors name what was
    /// wrong and the accepted form.
    pub fn from_args(game: &str, args: &[(&str, Arg<'_>)]) -> Result<Query, LookupError> {
        let Some(info) = LookupInfo::find(game) else {
            return Err(LookupError::UnknownGame { given: game.to_string(), known: games() });
        };
        let a = Args::new(info, args)?;
        use parse::*;
        Ok(match info.game {
            "yazy" => Query::Yazy(YazyQuery {
                mask: a.required_with("mask", &dice_tables_reader::yazy::CATEGORIES, parse_mask)?,
                dice: a.value("dice", parse_five_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
                need: a.value("need", parse_need)?,
                opp_mask: a.value("opp-mask", parse_mask)?,
                me: a.value("me", parse_yazy_total)?,
                opp: a.value("opp", parse_yazy_total)?,
                advisor: a.flag("advisor")?,
            }),
            "combo" => Query::Combo(ComboQuery {
                dice: a.value("dice", parse_five_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
            }),
            "threes" => Query::Threes(ThreesQuery {
                dice: a.value("dice", parse_throw)?,
                remaining: a.value("remaining", parse_remaining)?,
                points: a.value("points", parse_points)?.unwrap_or(0),
                record: a.value("record", parse_record)?,
                after: a.value("after", parse_after)?,
                ties: a.value("ties", parse_ties)?,
                model: a.value("model", parse_model)?,
                expected: a.value("objective", parse_objective)?.unwrap_or(false),
            }),
            "tenk" => Query::Tenk(TenkQuery {
                dice: a.value("dice", parse_tenk_throw)?,
                remaining: a.value("remaining", parse_tenk_remaining)?,
                score: a.value("score", parse_score)?.unwrap_or(0),
                opening: a.flag("opening")?,
            }),
            "yatzy" | "yahtzee" => {
                let (categories, parse_sheet_mask, parse_sheet_total): (&[&str], Parser<u32>, Parser<u32>) =
                    if info.game == "yatzy" {
                        (
                            <dice_tables_reader::sheet::YatzyGame as SheetGame>::CATEGORIES,
                            parse_yatzy_mask,
                            parse_yatzy_total,
                        )
                    } else {
                        let categories = <dice_tables_reader::sheet::YahtzeeGame as SheetGame>::CATEGORIES;
                        (categories, parse_yahtzee_mask, parse_yahtzee_total)
                    };
                let q = SheetQuery {
                    mask: a.required_with("mask", categories, parse_sheet_mask)?,
                    upper: a.value("upper", parse_upper)?,
                    yahtzee_bonus: a.flag("yahtzee-bonus")?,
                    dice: a.value("dice", parse_five_dice)?,
                    rerolls: a.value("rerolls", parse_rerolls)?,
                    need: a.value("need", parse_need)?,
                    joker: a.value("joker", parse_joker)?,
                    opp_mask: a.value("opp-mask", parse_sheet_mask)?,
                    opp_upper: a.value("opp-upper", parse_upper)?,
                    opp_yahtzee_bonus: a.flag("opp-yahtzee-bonus")?,
                    me: a.value("me", parse_sheet_total)?,
                    opp: a.value("opp", parse_sheet_total)?,
                };
                if info.game == "yatzy" {
                    Query::Yatzy(q)
                } else {
                    Query::Yahtzee(q)
                }
            }
            "duel" => Query::Duel(DuelQuery {
                me: a.required_with("me", &[], parse_total)?,
                opp: a.required_with("opp", &[], parse_total)?,
                dice: a.value("dice", parse_tenk_throw)?,
                remaining: a.value("remaining", parse_tenk_remaining)?,
                score: a.value("score", parse_score)?.unwrap_or(0),
                rules: match (game, a.value("rules", parse_duel_rules)?) {
                    (CARDGAMES_DUEL, Some(DuelRules::Seed)) => return Err(LookupError::SeedRulesForCardgames),
                    (CARDGAMES_DUEL, _) => DuelRules::Cardgames,
                    (_, rules) => rules.unwrap_or(DuelRules::Seed),
                },
            }),
            "maxi-yatzy" => Query::Maxi(MaxiQuery {
                mask: a.required_with("mask", &dice_tables_reader::maxi::BOXES, parse_maxi_mask)?,
                upper: a.value("upper", parse_upper)?,
                saved: a.value("saved", parse_saved)?,
                dice: a.value("dice", parse_six_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
                rules: match (game, a.value("rules", parse_maxi_rules)?) {
                    (SWEDISH_MAXI, Some(MaxiRules::Finnish)) => return Err(LookupError::FinnishRulesForSwedish),
                    (SWEDISH_MAXI, _) => MaxiRules::Swedish,
                    (_, rules) => rules.unwrap_or(MaxiRules::Finnish),
                },
            }),
            other => return Err(LookupError::UnknownGame { given: other.to_string(), known: games() }),
        })
    }

    /// The game, as `reader lookup` names it.
    pub fn game(&self) -> &'static str {
        match self {
            Query::Yazy(_) => "yazy",
            Query::Combo(_) => "combo",
            Query::Threes(_) => "threes",
            Query::Tenk(_) => "tenk",
            Query::Yatzy(_) => "yatzy",
            Query::Yahtzee(_) => "yahtzee",
            Query::Duel(_) => "duel",
            Query::Maxi(_) => "maxi-yatzy",
        }
    }

    /// The id of the table the answer reads (`duel-cardgames` for a duel
    /// lookup under the cardgames rules; else the game's own).
    pub fn table(&self) -> &'static str {
        match self {
            Query::Maxi(MaxiQuery { rules: MaxiRules::Swedish, .. }) => {
                <dice_tables_reader::maxi::MaxiYatzySwedish as dice_tables_reader::Game>::ID
            }
            Query::Duel(DuelQuery { rules: DuelRules::Cardgames, .. }) => {
                <dice_tables_reader::duel::CardgamesDuel as dice_tables_reader::Game>::ID
            }
            Query::Yazy(YazyQuery { opp_mask: Some(_), advisor: false, .. }) => {
                <dice_tables_reader::yazy::duel::YazyDuel as dice_tables_reader::Game>::ID
            }
            Query::Yazy(YazyQuery { need: Some(_), .. } | YazyQuery { advisor: true, .. }) => {
                <dice_tables_reader::yazy::target::YazyTarget as dice_tables_reader::Game>::ID
            }
            Query::Yatzy(q) if q.played_to_win() => <dice_tables_reader::sheet::YatzyGame as SheetGame>::TARGET_ID,
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), .. }) if q.played_to_win() => {
                <dice_tables_reader::sheet::YahtzeeFreeGame as SheetGame>::TARGET_ID
            }
            Query::Yahtzee(SheetQuery { joker: Some(Joker::Free), .. }) => {
                <dice_tables_reader::sheet::YahtzeeFreeGame as SheetGame>::ID
            }
            Query::Yahtzee(q) if q.played_to_win() => <dice_tables_reader::sheet::YahtzeeGame as SheetGame>::TARGET_ID,
            _ => self.game(),
        }
    }

    /// Whether the arguments go together (`--rerolls` needs `--dice`, a
    /// throw is `--dice` or `--remaining`, ...): what can be said without
    /// the tables. [`answer`](Query::answer) checks it first.
    pub fn check(&self) -> Result<(), LookupError> {
        match self {
            Query::Yazy(q) => {
                answer::check_rerolls(q.dice, q.rerolls)?;
                answer::check_yazy_opponent(q)
            }
            Query::Combo(q) => answer::check_rerolls(q.dice, q.rerolls),
            Query::Yatzy(q) | Query::Yahtzee(q) => {
                answer::check_rerolls(q.dice, q.rerolls)?;
                answer::check_upper(self.game(), q)?;
                answer::check_sheet_opponent(q)
            }
            Query::Threes(q) => answer::check_threes(q),
            Query::Tenk(q) => answer::check_throw(q.dice, q.remaining, false),
            Query::Duel(q) => answer::check_duel(q),
            Query::Maxi(q) => {
                answer::check_maxi_rerolls(q)?;
                answer::check_maxi_upper(q)
            }
        }
    }

    /// The answer's value (its `ev` or `p`) without the rest: where the
    /// value is stored (yazy, combo) no options are built.
    pub fn value(&self, tables: &dice_tables_reader::Tables) -> Result<f64, LookupError> {
        self.check()?;
        match self {
            Query::Yazy(q) if q.need.is_none() && q.opp_mask.is_none() => answer::yazy_value(tables, q),
            Query::Combo(q) => answer::combo_value(tables, q),
            _ => {
                let answer = self.answer(tables)?;
                match answer.get("ev").or_else(|| answer.get("p")) {
                    Some(Json::Num(v)) => Ok(*v),
                    _ => Err(LookupError::NoValue { game: self.game(), answer: answer.to_string() }),
                }
            }
        }
    }

    /// The answer from `tables`: exactly what `reader lookup ... --json`
    /// prints (see README.md for each game's fields), or why there is none.
    pub fn answer(&self, tables: &dice_tables_reader::Tables) -> Result<Json, LookupError> {
        self.check()?;
        match self {
            Query::Yazy(q) if q.advisor => answer::yazy_advisor(tables, q),
            Query::Yazy(q) if q.opp_mask.is_some() => answer::yazy_duel(tables, q),
            Query::Yazy(q) if q.need.is_some() => answer::yazy_target(tables, q),
            Query::Yazy(q) => answer::yazy(tables, q),
            Query::Combo(q) => answer::combo(tables, q),
            Query::Threes(q) => answer::threes(tables, q),
            Query::Tenk(q) => answer::tenk(tables, q),
            Query::Yatzy(q) if q.opp_mask.is_some() => {
                answer::sheet_versus::<dice_tables_reader::sheet::YatzyGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), opp_mask: Some(_), .. }) => {
                answer::sheet_versus::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q) if q.opp_mask.is_some() => {
                answer::sheet_versus::<dice_tables_reader::sheet::YahtzeeGame>(tables, q)
            }
            Query::Yatzy(q) if q.need.is_some() => {
                answer::sheet_target::<dice_tables_reader::sheet::YatzyGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), need: Some(_), .. }) => {
                answer::sheet_target::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), .. }) => {
                answer::sheet::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q) if q.need.is_some() => {
                answer::sheet_target::<dice_tables_reader::sheet::YahtzeeGame>(tables, q)
            }
            Query::Yatzy(q) => answer::sheet::<dice_tables_reader::sheet::YatzyGame>(tables, q),
            Query::Yahtzee(q) => answer::sheet::<dice_tables_reader::sheet::YahtzeeGame>(tables, q),
            Query::Duel(q) => answer::duel(tables, q),
            Query::Maxi(q) => answer::maxi(tables, q),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_in_every_form_parse_alike() {
        let text = Query::from_args("yazy", &[("mask", Arg::Text("ones,yazy")), ("dice", Arg::Text("12456"))]).unwrap();
        let ints = Query::from_args("yazy", &[("mask", Arg::Ints(&[0, 10])), ("dice", Arg::Ints(&[1, 2, 4, 5, 6]))]);
        let names = Query::from_args("yazy", &[("mask", Arg::Names(&["ones", "yazy"])), ("dice", Arg::Text("12456"))]);
        let number = Query::from_args("yazy", &[("mask", Arg::Int(1025)), ("dice", Arg::Text("12456"))]);
        assert_eq!(ints.unwrap(), text);
        assert_eq!(names.unwrap(), text);
        assert_eq!(number.unwrap(), text);
        let bonus = |v| {
            Query::from_args("yahtzee", &[("mask", Arg::Text("all")), ("upper", Arg::Int(0)), ("yahtzee_bonus", v)])
        };
        for (v, set) in
            [(Arg::Flag(true), true), (Arg::Text(""), true), (Arg::Text("false"), false), (Arg::Flag(false), false)]
        {
            let Query::Yahtzee(q) = bonus(v).unwrap() else { panic!("yahtzee") };
            assert_eq!(q.yahtzee_bonus, set);
        }
        assert!(matches!(Query::from_args("10000", &[]).unwrap(), Query::Tenk(_)));
        assert!(matches!(
            Query::from_args("tenk2", &[("me", Arg::Int(0)), ("opp", Arg::Int(0))]).unwrap(),
            Query::Duel(_)
        ));
    }

    #[test]
    fn query_strings_decode_and_are_bounded() {
        let pairs = parse_query_string("mask=ones%2Cyazy&dice=12456&opening&x=a+b&&").unwrap();
        let want = [("mask", Some("ones,yazy")), ("dice", Some("12456")), ("opening", None), ("x", Some("a b"))];
        let got: Vec<(&str, Option<&str>)> = pairs.iter().map(|(n, v)| (n.as_str(), v.as_deref())).collect();
        assert_eq!(got, want);
        assert_eq!(
            Query::from_query_string("yazy", "mask=all&dice=12456&rerolls=2").unwrap(),
            Query::from_args(
                "yazy",
                &[("mask", Arg::Text("all")), ("dice", Arg::Text("12456")), ("rerolls", Arg::Int(2))]
            )
            .unwrap()
        );
        for bad in ["mask=%", "mask=%4", "mask=%zz", "mask=%ff", &"a=1&".repeat(17), &"x".repeat(MAX_QUERY_BYTES + 1)] {
            let msg = parse_query_string(bad).unwrap_err().to_string();
            assert!(!msg.contains('\n') && msg.len() < 200, "{bad:?}: {msg}");
        }
        // Any bytes: an answer or one line, never a panic.
        let mut x = 0x9e3779b97f4a7c15u64;
        for _ in 0..20_000 {
            let len = (x % 40) as usize;
            let s: String = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let alphabet = b"%&=+abcdemaskiruols0123456789,xZ\xff";
                    alphabet[(x % alphabet.len() as u64) as usize] as char
                })
                .collect();
            for game in ["yazy", "duel", "threes"] {
                if let Err(e) = Query::from_query_string(game, &s).and_then(|q| q.check()) {
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }
    }

    #[test]
    fn bad_arguments_get_one_line_that_says_why() {
        type Case<'a> = (&'a str, Vec<(&'a str, Arg<'a>)>, &'a str);
        let cases: Vec<Case> = vec![
            ("chess", vec![], "no game \"chess\": the games are yazy, combo"),
            ("yazy", vec![], "yazy lookups need --mask"),
            ("yazy", vec![("mask", Arg::Text("all")), ("colour", Arg::Int(1))], "yazy has no argument \"colour\""),
            ("yazy", vec![("mask", Arg::Ints(&[11]))], "mask category number 11 is not 0 to 10"),
            ("yazy", vec![("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 3, 4, 17]))], "die 17 is not a face"),
            ("yazy", vec![("mask", Arg::Text("all")), ("dice", Arg::Ints(&[1, 2, 3, 4, 7]))], "7"),
            ("yazy", vec![("mask", Arg::Flag(true))], "--mask takes a value"),
            ("tenk", vec![("opening", Arg::Text("maybe"))], "--opening takes no value"),
            ("tenk", vec![("score", Arg::Int(3)), ("score", Arg::Int(3))], "--score is given more than once"),
            (
                "duel",
                vec![("me", Arg::Int(0)), ("opp", Arg::Int(0)), ("rules", Arg::Text("house"))],
                "rules \"house\" is not seed or cardgames",
            ),
            ("threes", vec![("objective", Arg::Text("lose"))], "objective \"lose\" is not win or expected"),
        ];
        for (game, args, want) in cases {
            let msg = Query::from_args(game, &args).unwrap_err().to_string();
            assert!(msg.contains(want) && !msg.contains('\n'), "{game} {args:?}: {msg}");
        }
    }
}
