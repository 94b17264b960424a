//! What every game's text rendering shares: percentages, plurals, and the
//! failures a lookup can end in. (JSON answers are the library's:
//! `dice_tables_lookup`.)

use dice_tables_lookup::LookupError;
use dice_tables_reader::{ArgumentError, Error, TableError};

/// What went wrong, with the exit status it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Bad usage: exit 2.
    Usage(String),
    /// A bad or missing table: exit 1.
    Table(String),
}

impl From<LookupError> for Failure {
    /// The lookup's one-line message; a table's says what to do about it.
    fn from(e: LookupError) -> Failure {
        match e {
            LookupError::Table(_) => Failure::Table(e.to_string()),
            _ => Failure::Usage(e.to_string()),
        }
    }
}

impl From<ArgumentError> for Failure {
    fn from(e: ArgumentError) -> Failure {
        LookupError::from(e).into()
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        LookupError::from(e).into()
    }
}

impl From<TableError> for Failure {
    fn from(e: TableError) -> Failure {
        LookupError::from(e).into()
    }
}

/// A chance as a percentage for people.
pub fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct < 1e-4 {
        format!("{pct:.3e} %")
    } else {
        format!("{pct:.6} %")
    }
}

/// Scoring a box, for people: `score ones for 1 point`, `score yazy for 50 points`.
pub fn score_text(category: impl std::fmt::Display, points: u8) -> String {
    format!("score {category} for {points} point{}", plural(points))
}

/// "s" unless there is one.
pub fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// "1 die left", "3 dice left".
pub fn dice_left_text(n: u8) -> String {
    format!("{n} {} left", if n == 1 { "die" } else { "dice" })
}
