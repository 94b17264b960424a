//! The failures a command can end in, with their exit statuses. (The
//! answers, as JSON and as text, are the library's: `dice_tables_lookup`.)

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
            LookupError::Table(_) | LookupError::NoParts { .. } => Failure::Table(e.to_string()),
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
