//! The two kinds of failure: a table that cannot be used ([`TableError`]) and
//! a lookup argument that is out of range ([`ArgumentError`]), with [`Error`]
//! holding either so that `?` works across opening, parsing and looking up.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::dice::ParseDiceError;

/// Either kind of failure. Match on it to tell a bad table (regenerate or
/// replace the file) from a bad argument (ask again).
///
/// ```
/// use dice_tables_reader::{Dice, Error};
/// fn parse(s: &str) -> Result<Dice, Error> {
///     Ok(s.parse::<Dice>()?)
/// }
/// assert!(matches!(parse("1237"), Err(Error::Argument(_))));
/// ```
#[non_exhaustive]
pub enum Error {
    /// A table could not be opened or is not a valid table.
    Table(TableError),
    /// A lookup argument is out of range or malformed.
    Argument(ArgumentError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Table(e) => e.fmt(f),
            Error::Argument(e) => e.fmt(f),
        }
    }
}

/// `{:?}` is the message, so that `fn main() -> Result<(), Error>` prints
/// `Error: <message>` (as `anyhow` does); `{:#?}` shows the structure.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, f.alternate()) {
            (Error::Table(e), true) => f.debug_tuple("Table").field(e).finish(),
            (Error::Argument(e), true) => f.debug_tuple("Argument").field(e).finish(),
            (Error::Table(e), false) => fmt::Debug::fmt(e, f),
            (Error::Argument(e), false) => fmt::Debug::fmt(e, f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Table(e) => Some(e),
            Error::Argument(e) => Some(e),
        }
    }
}

impl From<TableError> for Error {
    fn from(e: TableError) -> Error {
        Error::Table(e)
    }
}

impl From<ArgumentError> for Error {
    fn from(e: ArgumentError) -> Error {
        Error::Argument(e)
    }
}

impl From<ParseDiceError> for Error {
    fn from(e: ParseDiceError) -> Error {
        Error::Argument(e.into())
    }
}

/// A lookup argument out of range or malformed: what was given and what is
/// accepted ([`kind`](ArgumentError::kind)). The message is one line naming
/// the argument and the accepted form.
///
/// One pointer wide, so that a lookup's `Result<f64, ArgumentError>` comes
/// back in registers. `{:?}` is the message; `{:#?}` the structure.
pub struct ArgumentError(Box<ArgumentErrorKind>);

/// What is wrong with a lookup's argument: what was given, with what the
/// game accepts. Front ends that word messages their own way match on this.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant's doc says what its fields are
pub enum ArgumentErrorKind {
    /// Dice that do not parse ([`ParseDiceError`]).
    Dice(ParseDiceError),
    /// A roll of `given` dice where `game` rolls exactly five.
    NotFiveDice { game: String, given: usize },
    /// More rerolls than the table of `game` was solved for (0 to `max`).
    RerollsOverTable { game: String, given: u8, max: u8 },
    /// More rerolls than the rules of `game` allow (0 to `max`).
    RerollsOverRules { game: String, given: u8, max: u8 },
    /// A mask number above `max` (`game` when the message names it).
    MaskOutOfRange { given: String, max: u32, game: Option<String> },
    /// A mask that is neither a number 0 to `max` nor a list of categories.
    MaskNotNumber { given: String, max: u32 },
    /// A name after `all` without the minus that marks a filled category.
    OpenAfterAll { given: String },
    /// A filled category (`-name`) in a list of open ones.
    FilledInOpenList { given: String },
    /// A category name the game does not have.
    UnknownCategory { given: String, categories: Vec<String> },
    /// An upper total the filled upper boxes cannot make: `filled` names
    /// them; `capped` whether they reach 63, `up_to` the highest total
    /// accepted (the most they make, or the most an upper section makes).
    UpperTotal { given: u32, filled: Vec<String>, up_to: u32, capped: bool },
    /// The Yahtzee bonus asked of a game without one.
    NoYahtzeeBonus { game: String },
    /// The Yahtzee bonus asked while the yahtzee box is open.
    BonusWhileOpen,
    /// A state with `open` categories open in a target table reduced to
    /// states with at most `max_open`.
    ReducedTable { table: String, open: usize, max_open: usize },
    /// A two-player state whose sheets fit no turn order: the player to move
    /// has `mover` categories open, the opponent `opponent`.
    TurnOrder { mover: u32, opponent: u32 },
    /// A mask with categories outside those of a reduced game's table.
    OutsideUniverse { table: String, given: String, universe: String },
    /// A throw of `given` dice, where a throw is of 1 to `max`.
    ThrowDice { given: usize, max: usize },
    /// A threes throw of `given` dice, where one is of 1 to 5.
    ThreesThrowDice { given: usize },
    /// `what` (`score`, `turn score`, `your total`, ...) is not a multiple of 50.
    NotMultipleOf50 { what: String, given: u32 },
    /// A turn score above the table's `max`.
    ScoreAboveTable { given: u32, max: u32 },
    /// A turn score of 1000 or more while opening.
    ScoreWhileOpening { given: u32 },
    /// A banked total at or above the goal.
    TotalWon { whose: String, given: u32, goal: u32, step: u32 },
    /// Fewer than six dice at turn score 0.
    FewerDiceAtStart { given: usize },
    /// A turn score below the one a solved turn starts from.
    BelowSolvedTurn { given: u32, lowest: u32 },
    /// A word that is not one of `accepted` (`ties`, `model`).
    NotOneOf { what: &'static str, given: String, accepted: &'static [&'static str] },
    /// A threes value out of the table's range: `what` (`points`,
    /// `players after`, `record`, `dice left`) and what the table holds.
    ThreesOutOfRange { what: &'static str, given: u8, accepted: &'static str },
    /// Points kept that `kept` dice cannot make (`when` says when).
    KeptPoints { given: u8, kept: usize, when: String },
    /// A roll of `given` dice where Maxi Yatzy rolls exactly six.
    NotSixDice { given: usize },
    /// A Maxi Yatzy upper total the filled upper boxes (`filled`) cannot
    /// make: `bonus_at` and above are one state when they reach it
    /// (`capped`), `up_to` the highest total accepted.
    MaxiUpperTotal { given: u32, filled: Vec<String>, bonus_at: u8, up_to: u32, capped: bool },
    /// Saved rerolls the state cannot hold: at most `max`, two for each
    /// turn played (`played`), none when the rules save no rolls.
    SavedRerolls { given: u32, max: u32, played: u32, saving: bool },
    #[cfg(not(feature = "solitaire-only"))]
    /// A roll of `given` dice where `game` rolls `dice`.
    DiceCount { game: String, given: usize, dice: u8 },
    #[cfg(not(feature = "solitaire-only"))]
    /// A mask of a game filled in sheet order that is not the boxes from
    /// one on: `next` is the first open box given.
    NotInSheetOrder { given: String, next: String },
    #[cfg(not(feature = "solitaire-only"))]
    /// A box said to hold points while it is open.
    HeldWhileOpen { name: String },
    #[cfg(not(feature = "solitaire-only"))]
    /// A box given as holding points that is none of the `boxes` of `game`
    /// whose points matter later.
    NotHeldBox { given: String, game: String, boxes: Vec<String> },
    #[cfg(not(feature = "solitaire-only"))]
    /// An upper total above the `most` the upper boxes of `game` make.
    UpperOverRules { given: u32, most: u32, game: String },
    /// Rerolls saved over what `game`'s turns played could save (`most`),
    /// or any where its rules save none (`saves` false).
    SavedOverRules { given: u32, most: u32, game: String, saves: bool },
    /// A choice (`given`, as the lookups write it) that is not an option of
    /// the roll `dice` with `rerolls` left.
    NotAnOption { given: String, dice: String, rerolls: u8 },
}

impl ArgumentError {
    /// What is wrong.
    pub fn kind(&self) -> &ArgumentErrorKind {
        &self.0
    }
}

impl From<ArgumentErrorKind> for ArgumentError {
    /// Cold: lookups check their arguments on every call, and the check
    /// should cost only its compare.
    #[cold]
    #[inline(never)]
    fn from(kind: ArgumentErrorKind) -> ArgumentError {
        ArgumentError(Box::new(kind))
    }
}

impl fmt::Debug for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.alternate() {
            true => f.debug_tuple("ArgumentError").field(&self.0).finish(),
            false => write!(f, "{self}"),
        }
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The forms a mask takes, for the messages that refuse one.
const MASK_FORMS: &str = "(bit i set when category i is open) or a comma list of categories";

impl fmt::Display for ArgumentErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ArgumentErrorKind as K;
        match self {
            K::Dice(e) => e.fmt(f),
            K::NotFiveDice { game, given } => {
                write!(f, "{given} dice given: {game} needs exactly five digits 1-6, like 12456")
            }
            K::RerollsOverTable { game, given, max } => write!(f, "rerolls {given} is out of range: this {game} table allows 0 to {max}"),
            K::RerollsOverRules { game, given, max } => write!(f, "rerolls {given} is out of range: {game} allows 0 to {max}"),
            K::MaskOutOfRange { given, max, game } => {
                let game = game.as_ref().map_or(String::new(), |g| format!("{g} "));
                write!(f, "mask {given} is out of range: a {game}mask is 0 to {max} {MASK_FORMS}")
            }
            K::MaskNotNumber { given, max } => write!(
                f,
                "mask {} is not a number 0 to {max} (decimal, 0x.. or 0b..) or a comma list of categories",
                quoted(given)
            ),
            K::OpenAfterAll { given } => write!(
                f,
                "{} after all: name each filled category after a minus, like all,-ones,-chance",
                quoted(given)
            ),
            K::FilledInOpenList { given } => write!(
                f,
                "-{} names a filled category: start the list with all (like all,-ones,-chance) or list the open ones",
                quoted(given)
            ),
            K::UnknownCategory { given, categories } => {
                write!(f, "unknown category {}: categories are {}", quoted(given), categories.join(", "))
            }
            K::UpperTotal { given, filled, up_to, capped } => write_unmade_total(f, *given, filled, 5, 63, *up_to, *capped),
            K::NoYahtzeeBonus { game } => write!(f, "{game} has no Yahtzee bonus"),
            K::BonusWhileOpen => {
                write!(f, "the yahtzee box cannot hold 50 while it is open: drop the Yahtzee bonus or close yahtzee in the mask")
            }
            K::ReducedTable { table, open, max_open } => write!(
                f,
                "this {table} table is reduced: it holds states with at most {max_open} open categories, not {open}"
            ),
            K::TurnOrder { mover, opponent } => write!(
                f,
                "the player to move has {mover} {} open and the opponent {opponent}: the player to move has \
                 as many open as the opponent (moving first) or one more (moving second)",
                if *mover == 1 { "category" } else { "categories" }
            ),
            K::OutsideUniverse { table, given, universe } => write!(
                f,
                "mask {given} opens categories outside this reduced {table} table's game ({universe}); \
                 `make yazy-duel` builds the whole game"
            ),
            K::ThrowDice { given, max } => write!(f, "{given} dice: a throw is of 1 to {max} dice"),
            K::ThreesThrowDice { given } => {
                write!(f, "{given} dice given: threes throws 1 to 5 dice, digits 1-6 like 31324")
            }
            K::NotMultipleOf50 { what, given } => write!(f, "{what} {given} is not a multiple of 50"),
            K::ScoreAboveTable { given, max } => write!(
                f,
                "score {given} is above the table's {max} (banking is best for every number of dice long before)"
            ),
            K::ScoreWhileOpening { given } => write!(
                f,
                "score {given} while opening: opening scores are 0 to 950; at 1000 the player may bank and is on the board"
            ),
            K::TotalWon { whose, given, goal, step } => write!(
                f,
                "{whose} total {given} has already won: totals are 0 to {} (the goal is {goal})",
                goal - step
            ),
            K::FewerDiceAtStart { given } => write!(
                f,
                "{given} dice at turn score 0: a turn starts with six dice, and fewer are left only after keeping points"
            ),
            K::BelowSolvedTurn { given, lowest } => {
                write!(f, "turn score {given} is below the {lowest} this turn was solved from")
            }
            K::NotOneOf { what, given, accepted } => {
                write!(f, "{what} {} is not one of: {}", quoted(given), accepted.join(", "))
            }
            K::ThreesOutOfRange { what: "dice left", given, accepted } => {
                write!(f, "{given} dice left is out of range: {accepted}")
            }
            K::ThreesOutOfRange { what, given, accepted } => write!(f, "{what} {given} is out of range: {accepted}"),
            K::NotSixDice { given } => {
                write!(f, "{given} dice given: maxi-yatzy needs exactly six digits 1-6, like 123456")
            }
            K::MaxiUpperTotal { given, filled, bonus_at, up_to, capped } => {
                write_unmade_total(f, *given, filled, 6, *bonus_at, *up_to, *capped)
            }
            K::SavedRerolls { given, max, played, saving } => {
                write!(f, "saved rerolls {given} is out of range: ")?;
                match saving {
                    false => write!(f, "these rules save no rerolls (give 0, or the swedish rules)"),
                    true => write!(f, "after {played} turns played at most {max} can be saved (two a turn)"),
                }
            }
            K::KeptPoints { given, kept, when } => write_kept_points(f, *given, *kept, when),
            #[cfg(not(feature = "solitaire-only"))]
            K::DiceCount { game, given, dice } => {
                let example = &"124566"[..usize::from(*dice).min(6)];
                write!(f, "{given} dice: {game} rolls {dice} dice (give the {dice} faces, as {example})")
            }
            #[cfg(not(feature = "solitaire-only"))]
            K::NotHeldBox { given, game, boxes } if boxes.is_empty() => {
                write!(f, "held {given}: no box's points matter later in {game} (leave held out)")
            }
            #[cfg(not(feature = "solitaire-only"))]
            K::NotHeldBox { given, game, boxes } => write!(
                f,
                "held {given}: only the points of {} matter later in {game} (held names those that hold points)",
                boxes.join(", ")
            ),
            #[cfg(not(feature = "solitaire-only"))]
            K::NotInSheetOrder { given, next } => write!(
                f,
                "mask {given:?} is not a sheet filled in order: with {next} open, every box after it is open too (give the boxes from {next} on, or all)"
            ),
            #[cfg(not(feature = "solitaire-only"))]
            K::HeldWhileOpen { name } => {
                write!(f, "held {name}: an open box holds no points (name filled boxes that scored)")
            }
            #[cfg(not(feature = "solitaire-only"))]
            K::UpperOverRules { given, most, game } => {
                write!(f, "upper total {given} is out of range: {game}'s upper boxes make 0 to {most}")
            }
            K::SavedOverRules { given, most, game, saves } => match (saves, most) {
                (false, _) => write!(f, "saved rerolls {given} is out of range: {game}'s rules save none (give 0)"),
                (true, 0) => write!(f, "saved rerolls {given} is out of range: no turn is played yet (give 0)"),
                (true, _) => write!(f, "saved rerolls {given} is out of range: {game}'s turns played save 0 to {most}"),
            },
            K::NotAnOption { given, dice, rerolls } => write!(
                f,
                "{given} is not an option of {dice} with {rerolls} rerolls left: score an open box, or with a reroll left keep fewer of its dice"
            ),
        }
    }
}

/// Points a throw's kept dice cannot have scored: `kept` dice kept before
/// are worth at most six each, and one die is never worth 3 (a three is 0).
fn write_kept_points(f: &mut fmt::Formatter<'_>, given: u8, kept: usize, when: &str) -> fmt::Result {
    write!(f, "points {given} {when} cannot happen: ")?;
    match (kept, given) {
        (1, 3) => write!(f, "one kept die is worth 0 (a three), 1, 2, 4, 5 or 6, never 3"),
        _ => write!(f, "the {kept} dice kept before are worth at most {}", 6 * kept),
    }
}

/// An upper total the filled boxes cannot make: each holds 0 to
/// `most_per_face` times its face, and totals from `bonus_at` up count
/// alike where `capped`.
fn write_unmade_total(
    f: &mut fmt::Formatter<'_>,
    given: impl fmt::Display,
    filled: &[String],
    most_per_face: u8,
    bonus_at: impl fmt::Display,
    up_to: impl fmt::Display,
    capped: bool,
) -> fmt::Result {
    let filled = if filled.is_empty() { "none".to_string() } else { filled.join(",") };
    write!(f, "upper total {given} cannot be made with the upper boxes filled ({filled}): each filled box holds 0 to {most_per_face} times its face; give ")?;
    match capped {
        true => write!(
            f,
            "the totals they can make below {bonus_at}, or any of {bonus_at} to {up_to} for {bonus_at} and above"
        ),
        false => write!(f, "only totals they can make, at most {up_to}"),
    }
}

impl std::error::Error for ArgumentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            ArgumentErrorKind::Dice(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseDiceError> for ArgumentError {
    fn from(e: ParseDiceError) -> ArgumentError {
        ArgumentErrorKind::Dice(e).into()
    }
}

/// A table that cannot be used: the file is missing, unreadable, damaged, of
/// another game, or not what its header says. Carries the file's path when
/// the table was opened from one. One pointer wide, so that lookups'
/// results come back in registers. `{:?}` is the message (what `main`
/// returning it prints); `{:#?}` the structure, with the I/O error.
pub struct TableError(Box<TableErrorInner>);

impl fmt::Debug for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.alternate() {
            true => f.debug_tuple("TableError").field(&self.0).finish(),
            false => write!(f, "{self}"),
        }
    }
}

#[derive(Debug)]
struct TableErrorInner {
    path: Option<PathBuf>,
    kind: TableErrorKind,
}

/// What is wrong with a table.
#[derive(Debug)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant's doc says what its fields are
pub enum TableErrorKind {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not a regular file (a directory, a FIFO, a device): refused before
    /// it is opened, so that opening never blocks or reads without end.
    NotRegularFile,
    /// No table file where one was looked for.
    NotFound,
    /// No tables directory where the tables were looked for (the error's
    /// path): `from` says who named it; `variable` is the environment
    /// variable that names one.
    NoTablesDirectory { from: TablesFrom, variable: &'static str },
    /// Not a dice-tables file.
    BadMagic,
    /// A dice-tables file of a format version this reader does not read.
    UnsupportedVersion { found: u32, supported: u32 },
    /// The file ends before what its header declares.
    Truncated { len: u64, needed: u64 },
    /// The file goes on after its last section.
    TrailingBytes { len: u64, expected: u64 },
    /// A length or count in the file is over a hard limit.
    Limit { what: &'static str, value: u64, max: u64 },
    /// The header's blake3 does not match.
    HeaderChecksum,
    /// The header's bytes do not decode.
    HeaderDecode(bincode::error::DecodeError),
    /// The header decodes but is inconsistent.
    BadHeader(String),
    /// A section is malformed, misplaced, or not what the game expects.
    BadSection { name: String, why: String },
    /// A section's blake3 does not match its decoded bytes.
    SectionChecksum { name: String },
    /// The file holds a game this reader does not know.
    UnknownGame { found: String, known: Vec<&'static str> },
    /// The file holds another game than the one asked for.
    WrongGame { found: String, expected: &'static str },
    /// The rules parameters in the header are not ones this reader can serve.
    BadParam { name: &'static str, why: String },
    /// The table of game `game` (or the name its [`Pieces`](crate::Pieces)
    /// were given), read in pieces, needs bytes `offset..offset + len` of its file: a chunk not yet supplied.
    Needed { game: String, offset: u64, len: u64 },
}

impl TableError {
    /// What is wrong.
    pub fn kind(&self) -> &TableErrorKind {
        &self.0.kind
    }

    /// The file, when the table was opened from one.
    pub fn path(&self) -> Option<&Path> {
        self.0.path.as_deref()
    }

    /// The same error naming only the file's name, not its directory: for
    /// messages shown to people who need not know where the file lives
    /// (`reader serve`'s answers).
    pub fn with_file_name_only(mut self) -> TableError {
        if let Some(name) = self.0.path.as_deref().and_then(Path::file_name) {
            self.0.path = Some(PathBuf::from(name));
        }
        self
    }

    /// The same error, naming the file it came from (unless it names one
    /// already).
    pub fn in_file(mut self, path: &Path) -> TableError {
        self.0.path.get_or_insert_with(|| path.to_path_buf());
        self
    }

    /// A section that is not what it must be.
    #[cold]
    pub(crate) fn section(name: &str, why: impl Into<String>) -> TableError {
        TableErrorKind::BadSection { name: name.to_string(), why: why.into() }.into()
    }
}

impl From<TableErrorKind> for TableError {
    #[cold]
    fn from(kind: TableErrorKind) -> TableError {
        TableError(Box::new(TableErrorInner { path: None, kind }))
    }
}

/// Who named a tables directory, for the message when there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TablesFrom {
    /// The program named it.
    Given,
    /// The environment variable [`TABLES_ENV`](crate::TABLES_ENV) named it.
    Environment,
    /// Nothing did: the default `./tables`.
    Default,
}

/// An I/O error reading a table: [`NotFound`](TableErrorKind::NotFound) for
/// a missing file, [`Io`](TableErrorKind::Io) for any other.
impl From<std::io::Error> for TableErrorKind {
    fn from(source: std::io::Error) -> TableErrorKind {
        if source.kind() == std::io::ErrorKind::NotFound {
            TableErrorKind::NotFound
        } else {
            TableErrorKind::Io(source)
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.path {
            Some(path) if matches!(self.0.kind, TableErrorKind::NotFound) => {
                return write!(f, "no table at {}", path.display())
            }
            Some(path) => write!(f, "{}: ", path.display())?,
            None => {}
        }
        self.0.kind.fmt(f)
    }
}

impl fmt::Display for TableErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableErrorKind::Io(source) => write!(f, "cannot read: {source}"),
            TableErrorKind::NotFound => write!(f, "no table there"),
            TableErrorKind::NoTablesDirectory { from, variable } => {
                match from {
                    TablesFrom::Given => write!(f, "no tables directory here (the directory given)")?,
                    TablesFrom::Environment => write!(f, "no tables directory here (named by ${variable})")?,
                    TablesFrom::Default => write!(
                        f,
                        "no tables directory here (the default ./tables: no directory was given, and ${variable} is not set)"
                    )?,
                }
                write!(f, ": give the directory the generator wrote the tables into, or set {variable} to it")
            }
            TableErrorKind::NotRegularFile => write!(f, "not a regular file: a table is a file the generator wrote"),
            TableErrorKind::BadMagic => {
                write!(f, "not a dice-tables file (the first 8 bytes are not \"DICETBL\\0\")")
            }
            TableErrorKind::UnsupportedVersion { found, supported } => {
                write!(f, "format version {found} is not supported: this reader reads version {supported}")
            }
            TableErrorKind::Truncated { len, needed } => {
                write!(f, "file is truncated: {len} bytes, but its header needs {needed}")
            }
            TableErrorKind::TrailingBytes { len, expected } => write!(
                f,
                "file has {} unexpected bytes after its last section ({len} bytes, expected {expected})",
                len - expected
            ),
            TableErrorKind::Limit { what, value, max } => {
                write!(f, "corrupt header: {what} {value} is over the limit of {max}")
            }
            TableErrorKind::HeaderChecksum => write!(f, "corrupt header: its blake3 checksum does not match"),
            TableErrorKind::HeaderDecode(e) => write!(f, "corrupt header: {e}"),
            TableErrorKind::BadHeader(why) => write!(f, "corrupt header: {why}"),
            TableErrorKind::BadSection { name, why } => write!(f, "section {name:?} {why}"),
            TableErrorKind::SectionChecksum { name } => {
                write!(f, "section {name:?} is corrupt: its blake3 checksum does not match")
            }
            TableErrorKind::UnknownGame { found, known } => {
                write!(f, "unknown game id {found:?} in the header: this reader knows {}", known.join(", "))
            }
            TableErrorKind::WrongGame { found, expected } => {
                write!(f, "holds a {found} table, not a {expected} table")
            }
            TableErrorKind::BadParam { name, why } => write!(f, "rules parameter {name:?} {why}"),
            TableErrorKind::Needed { game, offset, len } => {
                write!(f, "the {game} table needs bytes {offset} to {} of its file, not fetched yet", offset + len - 1)
            }
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            TableErrorKind::Io(source) => Some(source),
            TableErrorKind::HeaderDecode(source) => Some(source),
            _ => None,
        }
    }
}

/// `s` quoted and escaped for a one-line message: its first 40 characters,
/// then `...`, so that a hostile argument cannot flood the message.
pub fn quoted(s: &str) -> String {
    const SHOWN: usize = 40;
    let mut q = format!("{:?}", s.chars().take(SHOWN).collect::<String>());
    if s.chars().nth(SHOWN).is_some() {
        q.insert_str(q.len() - 1, "...");
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_tables_directory_says_who_named_it() {
        let said = |from| {
            let kind = TableErrorKind::NoTablesDirectory { from, variable: "DICE_TABLES" };
            TableError::from(kind).in_file(Path::new("tables")).to_string()
        };
        let how = ": give the directory the generator wrote the tables into, or set DICE_TABLES to it";
        assert_eq!(said(TablesFrom::Given), format!("tables: no tables directory here (the directory given){how}"));
        assert_eq!(
            said(TablesFrom::Environment),
            format!("tables: no tables directory here (named by $DICE_TABLES){how}")
        );
        assert_eq!(
            said(TablesFrom::Default),
            format!("tables: no tables directory here (the default ./tables: no directory was given, and $DICE_TABLES is not set){how}")
        );
    }
}
