//! [`LookupError`]: why a lookup has no answer, worded in each front
//! end's [`Terms`].

use std::fmt;

use dice_tables_reader::{ArgumentError, ArgumentErrorKind, TableError, TableErrorKind};

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
    NoCurve { given: String, known: Vec<&'static str> },
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
    /// A two-player lookup missing what `missing` names (`opp-mask` for the
    /// totals, `opp-mask for to-move`, `me`, `opp`), or given with what does
    /// not go with it (`need`; `advisor` without the opponent's sheet;
    /// `to-move`: the opponent's turn asked of the advisor).
    TwoPlayer { missing: &'static str },
    /// Two sheets whose open counts (`mine`, `theirs`) no turn of one game
    /// has with `to_move` to play (`None`: the advisor, which answers only
    /// for the sheet given as yours).
    TurnOrder { mine: u32, theirs: u32, to_move: Option<crate::ToMove> },
    /// A lookup this build of the reader leaves out (`what`).
    NotInBuild { what: &'static str },
    /// A threes throw with no choice (a library bug, said in words).
    NoChoice { throw: String },
    /// An answer without a value (a library bug, said in words).
    NoValue { game: &'static str, answer: String },
    /// A `rules` value that picks none of the game's tables (`known`: those
    /// that do; empty for a game with one table).
    UnknownRules { game: &'static str, given: String, known: Vec<&'static str> },
    /// A game in the registry with no table (a library bug, said in words).
    NoTable { game: &'static str },
    /// A table whose values are not given whole (`known`: those that are).
    NoValues { table: &'static str, known: Vec<&'static str> },
    /// A query string longer than `max` bytes.
    QueryTooLong { len: usize, max: usize },
    /// A query string with more than `max` parameters.
    TooManyParameters { max: usize },
    /// Query text that is not percent-encoded UTF-8.
    NotPercentEncoded { given: String },
    /// No game of that name (`known` lists the games), nor a rule set's
    /// table (`missing`: the file looked for).
    #[cfg(not(feature = "solitaire-only"))]
    NoRuleSet { given: String, known: Vec<&'static str>, missing: TableError },
    /// A rule set's target table is missing (a lookup with a need).
    #[cfg(not(feature = "solitaire-only"))]
    NoRuleTarget { name: String, missing: TableError },
    /// A rule set's two-player table is missing (a review of a game
    /// against someone).
    #[cfg(not(feature = "solitaire-only"))]
    NoRuleDuel { name: String, missing: TableError },
    /// A built-in game's parts table that `make tables` leaves out is
    /// missing (a review of `game`'s games reads it): `make` writes it.
    #[cfg(not(feature = "solitaire-only"))]
    NoParts { game: &'static str, missing: TableError, make: &'static str },
    /// The game's table is missing or damaged.
    Table(TableError),
    /// A line of a game's text that cannot be replayed: its number (from
    /// 1; 0 for the text as a whole), the line, and why.
    #[cfg(not(feature = "solitaire-only"))]
    GameText { line: usize, given: String, why: String },
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
            E::Refused(e) => write_refused(f, e, terms),
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
            E::FinnishRulesForSwedish => write_preset(f, ("maxi-yatzy", "swedish"), "finnish", terms),
            E::SeedRulesForCardgames => write_preset(f, ("duel", "cardgames"), "seed", terms),
            E::TwoPlayer { missing } => write_two_player(f, missing, terms),
            E::TurnOrder { mine, theirs, to_move } => write_turn_order(f, (*mine, *theirs), *to_move, terms),
            E::NotInBuild { what } => {
                write!(f, "{what} is not in this build of the reader: the npm package, reader lookup, Python and HTTP have it")
            }
            E::NoChoice { throw } => write!(f, "threes has no choice for the throw {throw}"),
            E::NoValue { game, answer } => write!(f, "{game} answered without a value: {answer}"),
            E::UnknownRules { game, known, .. } if known.is_empty() => {
                write!(f, "{game} has one table: {} chooses among the tables of a game that has several", arg("rules"))
            }
            E::UnknownRules { given, known, .. } => {
                write!(f, "rules {} is not {}", dice_tables_reader::quoted(given), known.join(" or "))
            }
            E::NoTable { game } => write!(f, "{game} has no table in the lookup registry"),
            E::NoValues { table, known } => {
                write!(f, "the {table} table's values are not given whole: those of {} are", known.join(", "))
            }
            E::QueryTooLong { len, max } => write!(f, "the query string is {len} bytes: at most {max} are read"),
            E::TooManyParameters { max } => write!(f, "the query string has more than {max} parameters"),
            E::NotPercentEncoded { given } => {
                write!(f, "{} is not percent-encoded UTF-8", dice_tables_reader::quoted(given))
            }
            E::Other(e) => write!(f, "{e}"),
            E::Table(e) => write_table_error(f, e),
            #[cfg(not(feature = "solitaire-only"))]
            E::NoRuleSet { given, known, missing } => write!(
                f,
                "no game {:?} (the games are {}), nor a rule set's table: {missing}: `make rule-tables` writes the presets', \
                 `generator --rules FILE.toml` your own",
                shown(given),
                known.join(", ")
            ),
            #[cfg(not(feature = "solitaire-only"))]
            E::GameText { line: 0, why, .. } => write!(f, "the game's text: {why}"),
            #[cfg(not(feature = "solitaire-only"))]
            E::GameText { line, given, why } => write!(f, "line {line} ({}): {why}", shown(given)),
            #[cfg(not(feature = "solitaire-only"))]
            E::NoRuleTarget { name, missing } => write!(
                f,
                "{missing}: a rule set's target table answers a need: `generator --games {name}-target` writes a \
                 preset's (`make tables` the smaller ones', `make rule-target-tables` every preset's), `generator \
                 --rules FILE.toml --with-target` your own's"
            ),
            #[cfg(not(feature = "solitaire-only"))]
            E::NoParts { game, missing, make } => write!(
                f,
                "{missing}: a review of {game}'s games reads it for the rules and the reasons, and `make tables` \
                 leaves it out: build it with `make {make}` (or `generator --games {game}-parts`)"
            ),
            #[cfg(not(feature = "solitaire-only"))]
            E::NoRuleDuel { name, missing } => write!(
                f,
                "{missing}: a rule set's two-player table answers a game against someone: `generator --games \
                 {name}-duel` writes a preset's (`make rule-duel-tables` every preset's), `generator --rules \
                 FILE.toml --with-duel` your own's"
            ),
        }
    }
}

/// Another rules value asked of a table that names its rules
/// (`duel-cardgames` is `duel` with rules `cardgames`).
fn write_preset(f: &mut fmt::Formatter<'_>, (game, rules): (&str, &str), asked: &str, terms: Terms) -> fmt::Result {
    let arg = terms.argument("rules");
    write!(f, "{game}-{rules} is {game} with {arg}={rules}: drop {arg}={asked}, or ask {game}")
}

/// An argument the reader refused, in `terms`.
fn write_refused(f: &mut fmt::Formatter<'_>, e: &ArgumentError, terms: Terms) -> fmt::Result {
    let arg = |name: &str| terms.argument(name);
    match e.kind() {
        ArgumentErrorKind::BonusWhileOpen => write!(
            f,
            "the yahtzee box cannot hold 50 while it is open: drop {} or close yahtzee in the mask",
            arg("yahtzee-bonus")
        ),
        ArgumentErrorKind::ReducedTable { table, .. } => {
            // The table's own make target, the cheapest (its game says which).
            let built_by = dice_tables_reader::game_named(table).and_then(|g| g.built_by.first());
            write!(f, "{e}; build the whole table with `make {}`", built_by.unwrap_or(&"target-tables"))
        }
        _ => write!(f, "{e}"),
    }
}

/// Sheets no turn of one game has (see [`LookupError::TurnOrder`]), in `terms`.
fn write_turn_order(
    f: &mut fmt::Formatter<'_>,
    (mine, theirs): (u32, u32),
    to_move: Option<crate::ToMove>,
    terms: Terms,
) -> fmt::Result {
    let arg = |name: &str| terms.argument(name);
    let boxes = if mine == 1 { "category" } else { "categories" };
    let open = format!("{} has {mine} {boxes} open and {} {theirs}", arg("mask"), arg("opp-mask"));
    let rule = "the player to move has as many open as the other (moving first) or one more (moving second)";
    match to_move {
        _ if mine.abs_diff(theirs) > 1 => {
            write!(f, "{open}: in one game the sheets are at most a category apart, as {rule}")
        }
        Some(who) => write!(f, "{open}, so {} {} cannot be: {rule}", arg("to-move"), who.name()),
        None => write!(f, "{open}: the advisor answers for the player to move, given as {}; {rule}", arg("mask")),
    }
}

/// A two-player lookup missing `missing` (or given with it), in `terms`.
fn write_two_player(f: &mut fmt::Formatter<'_>, missing: &str, terms: Terms) -> fmt::Result {
    let arg = |name: &str| terms.argument(name);
    match missing {
        "opp-mask" => write!(
            f,
            "{} and {} are the two players' totals: add {}, the opponent's open categories",
            arg("me"),
            arg("opp"),
            arg("opp-mask")
        ),
        "opp-mask for to-move" => write!(
            f,
            "{} says whose turn it is against an opponent: add {}, the opponent's open categories",
            arg("to-move"),
            arg("opp-mask")
        ),
        "need" => write!(
            f,
            "{} plays alone to reach a score and {} against an opponent: drop one of them",
            arg("need"),
            arg("opp-mask")
        ),
        "to-move" => write!(
            f,
            "{} answers for the player to move: drop {}, or drop {} for the exact table's answer, which takes either player",
            arg("advisor"),
            arg("to-move"),
            arg("advisor")
        ),
        "advisor" => write!(
            f,
            "{} answers against an opponent: add {}, the opponent's open categories, with {} and {}",
            arg("advisor"),
            arg("opp-mask"),
            arg("me"),
            arg("opp")
        ),
        _ => write!(
            f,
            "two-player lookups need {} and {} once a category is filled: both totals so far (only their difference matters), like {} 0 {} 0",
            arg("me"),
            arg("opp"),
            arg("me"),
            arg("opp")
        ),
    }
}

/// A table that could not be read, with the one command that builds or
/// mends it.
fn write_table_error(f: &mut fmt::Formatter<'_>, e: &TableError) -> fmt::Result {
    let missing = e
        .path()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".dtab"))
        .filter(|_| matches!(e.kind(), TableErrorKind::NotFound));
    // A known table: `make tables`, or its own make target where `make
    // tables` leaves it out (its game says which), and the generator run
    // that writes it alone.
    if let Some(game) = missing.and_then(dice_tables_reader::game_named) {
        let id = game.id;
        let [alone, with_others @ ..] = game.built_by else {
            return write!(f, "{e}: run `make tables` (or `generator --games {id}`) to write it");
        };
        write!(f, "{e}: `make tables` leaves it out: build it with `make {alone}` (or `generator --games {id}`")?;
        for target in with_others {
            write!(f, "; `make {target}` builds it with others")?;
        }
        return f.write_str(")");
    }
    let hint = match e.kind() {
        TableErrorKind::NotFound => ": run `make tables` to write it",
        TableErrorKind::Io(_) | TableErrorKind::NotRegularFile | TableErrorKind::NoTablesDirectory { .. } => "",
        _ => "; regenerate it with `make tables`",
    };
    write!(f, "{e}{hint}")
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
    /// Argument `name` (as in [`LOOKUPS`](crate::LOOKUPS)) as this front end writes it.
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
