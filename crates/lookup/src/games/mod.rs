//! Each game's lookup in a file of its own: its names and arguments
//! ([`LookupInfo`]), how they are parsed into its query, which combinations
//! it refuses, which table answers it and its answer (written as JSON and
//! as text from the same values). A new game is
//! a file here and one line in [`LOOKUPS`]; nothing else in the front ends
//! names it.

pub(crate) mod arguments;
mod combo;
mod duel;
mod maxi;
#[cfg(feature = "example-game")]
mod one_die;
#[cfg(not(feature = "solitaire-only"))]
pub mod rule_sheet;
mod sheet;
mod tenk;
mod threes;
mod yazy;

use crate::args::Args;
use crate::error::LookupError;
use crate::queries::Query;
use crate::reply::Replied;
use crate::values::{ReadValues, StoredValues};
use dice_tables_reader::target::CurveRow;
use dice_tables_reader::Tables;

pub use arguments::Argument;
pub use maxi::maxi_rules_name;
pub(crate) use sheet::{Yahtzee, Yatzy};

/// Every game a query can name, with its other names and arguments: the
/// registry the command line, HTTP, Python, npm and the C library read.
pub const LOOKUPS: &[LookupInfo] = &[
    yazy::LOOKUP,
    combo::LOOKUP,
    threes::LOOKUP,
    tenk::LOOKUP,
    sheet::YATZY,
    sheet::YAHTZEE,
    duel::LOOKUP,
    maxi::LOOKUP,
    #[cfg(feature = "example-game")]
    one_die::LOOKUP,
];

/// A game's lookup: its name, other names and arguments, and how a query of
/// it is built from them.
#[derive(Clone, Copy, Debug)]
pub struct LookupInfo {
    /// The game, as `reader lookup` names it.
    pub game: &'static str,
    /// Other names accepted for it: the reader's for the game
    /// ([`GameInfo::aliases`](dice_tables_reader::GameInfo::aliases)), then
    /// the ids of its other tables, each of which names its rules
    /// (`duel-cardgames` is `duel` with `rules` cardgames).
    pub aliases: &'static [&'static str],
    /// What a lookup of it answers, in a line (the command line's help;
    /// empty in builds without the feature `text`).
    pub about: &'static str,
    /// Its arguments, in the order the help lists them.
    pub arguments: &'static [Argument],
    /// Its tables as whole-table calls pick them, the default first.
    pub tables: &'static [GameTable],
    /// Its score sheet's boxes in mask-bit order (the names a mask
    /// accepts); empty for a game without a sheet.
    pub categories: &'static [&'static str],
    /// Its query from its arguments, given the name it was asked by.
    pub(crate) parse: fn(&str, &Args<'_>) -> Result<Query, LookupError>,
    /// Its whole game's score curve, for a game with a target table.
    pub(crate) curve: Option<CurveRows>,
    /// What a review of its games reads, for a game whose games `reader
    /// review` takes (a build without reviews reads none).
    #[cfg_attr(feature = "solitaire-only", allow(dead_code))]
    pub(crate) review: Option<ReviewTables>,
}

impl LookupInfo {
    /// The game named `name` (its id or another name).
    pub fn find(name: &str) -> Option<&'static LookupInfo> {
        LOOKUPS.iter().find(|l| l.game == name || l.aliases.contains(&name))
    }

    /// The arguments every lookup of it needs.
    pub fn required(&self) -> Vec<&'static str> {
        self.arguments.iter().filter(|a| a.required).map(|a| a.name).collect()
    }

    /// The arguments it may have.
    pub fn optional(&self) -> Vec<&'static str> {
        self.arguments.iter().filter(|a| !a.required).map(|a| a.name).collect()
    }

    /// An argument's help, its mask forms written out for this game's boxes.
    pub fn help(&self, argument: &Argument) -> String {
        argument.help.replace("{mask}", &arguments::mask_forms(self.categories))
    }

    /// The table `rules` picks (`None`: the default, the first), or why none does.
    pub fn table(&self, rules: Option<&str>) -> Result<&'static GameTable, LookupError> {
        let Some(rules) = rules else { return self.tables.first().ok_or(LookupError::NoTable { game: self.game }) };
        self.tables.iter().find(|t| t.rules == Some(rules)).ok_or_else(|| LookupError::UnknownRules {
            game: self.game,
            given: rules.to_string(),
            known: self.tables.iter().filter_map(|t| t.rules).collect(),
        })
    }

    /// Whether it has a score curve (a target table): `reader curve`.
    pub fn has_curve(&self) -> bool {
        self.curve.is_some()
    }
}

/// One table of a game as whole-table calls (values, verify) pick it: by
/// the game's `rules` where it has several.
#[derive(Clone, Copy, Debug)]
pub struct GameTable {
    /// The table's id (its file is `<id>.dtab`).
    pub id: &'static str,
    /// The value of the game's `rules` argument that picks it; `None` for
    /// a game with one table.
    pub rules: Option<&'static str>,
    /// How its values are read, where it has values to give.
    pub(crate) values: Option<ReadValues>,
}

impl GameTable {
    /// The table's values, or why there are none.
    pub fn values<'a>(&self, tables: &'a Tables) -> Result<StoredValues<'a>, LookupError> {
        match self.values {
            Some(read) => read(tables),
            None => Err(LookupError::NoValues { table: self.id, known: tables_with_values() }),
        }
    }
}

/// The tables whose values can be read whole.
pub fn tables_with_values() -> Vec<&'static str> {
    LOOKUPS.iter().flat_map(|l| l.tables).filter(|t| t.values.is_some()).map(|t| t.id).collect()
}

/// A game's score curve read from its target table.
pub(crate) type CurveRows = fn(&Tables) -> Result<Vec<CurveRow>, LookupError>;

/// The tables a review of a game reads, given the name it was asked by
/// (`yahtzee-free` picks the free joker reading's); `None` for a name
/// that is not the game's.
#[cfg(not(feature = "solitaire-only"))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum ReviewTables {
    /// A score sheet's game: its sheet and the tables beside it.
    Sheet(for<'a> fn(&'a Tables, &str) -> Option<Result<crate::review::ReviewSource<'a>, LookupError>>),
    /// A game of 10000: the table that values its turns.
    Tenk(for<'a> fn(&'a Tables, &str) -> Option<Result<OpenTenk<'a>, LookupError>>),
    /// A turn of threes: its table.
    Threes(for<'a> fn(&'a Tables, &str) -> Option<Result<&'a dice_tables_reader::threes::Threes, LookupError>>),
}
/// A build without reviews reviews no game.
#[cfg(feature = "solitaire-only")]
pub(crate) type ReviewTables = std::convert::Infallible;

/// A 10000 table as a review of its games reads it.
#[cfg(not(feature = "solitaire-only"))]
pub(crate) type OpenTenk<'a> = Box<dyn crate::review::tenk::TenkValues + 'a>;

/// Every game a lookup can ask.
pub(crate) fn games() -> Vec<&'static str> {
    LOOKUPS.iter().map(|l| l.game).collect()
}

/// A game's parsed query, as [`Query`](crate::Query)'s methods answer it.
pub(crate) trait GameQuery {
    /// The game's entry in [`LOOKUPS`].
    fn lookup(&self) -> &'static LookupInfo;
    /// The id of the table the answer reads.
    fn table(&self) -> std::borrow::Cow<'static, str>;
    /// Whether the arguments go together: what can be said without the tables.
    fn check(&self) -> Result<(), LookupError>;
    /// The answer's values, read from the tables, to be written as JSON
    /// or as text (checked first by [`Query::answer`](crate::Query::answer)).
    fn reply(&self, tables: &Tables) -> Replied;
    /// The value alone, where the table stores it and no options need be
    /// built; `None` to take it from the answer.
    fn stored_value(&self, _tables: &Tables) -> Option<Result<f64, LookupError>> {
        None
    }
}

/// The registry's entry of the table `id` (what a table's bytes are opened
/// as), or [`LookupError::UnknownGame`] naming every table this build reads.
pub fn table_named(id: &str) -> Result<&'static dice_tables_reader::GameInfo, LookupError> {
    dice_tables_reader::game_named(id).ok_or_else(|| LookupError::UnknownGame {
        given: id.to_string(),
        known: dice_tables_reader::GAMES.iter().map(|g| g.id).collect(),
    })
}

/// `a` then `b`, as an array of `N` names (`N` their lengths' sum: else the
/// build fails): a game's aliases are the reader's, then its other tables'.
pub(crate) const fn joined<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N, "joined: N is not the names' count");
    let mut out = [""; N];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - a.len()];
        i += 1;
    }
    out
}
