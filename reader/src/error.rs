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

/// A lookup argument out of range or malformed. The message is one line
/// naming the argument and the accepted form.
///
/// One pointer wide, so that a lookup's `Result<f64, ArgumentError>` comes
/// back in registers. `{:?}` is the message; `{:#?}` the structure.
pub struct ArgumentError(Box<ArgumentErrorInner>);

impl fmt::Debug for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.alternate() {
            true => f.debug_tuple("ArgumentError").field(&self.0).finish(),
            false => write!(f, "{self}"),
        }
    }
}

#[derive(Debug)]
struct ArgumentErrorInner {
    message: String,
    source: Option<ParseDiceError>,
}

impl ArgumentError {
    /// An error with this one-line message. Cold: lookups check their
    /// arguments on every call, and the check should cost only its compare.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(message: String) -> ArgumentError {
        ArgumentError(Box::new(ArgumentErrorInner { message, source: None }))
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for ArgumentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source.as_ref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<ParseDiceError> for ArgumentError {
    fn from(e: ParseDiceError) -> ArgumentError {
        ArgumentError(Box::new(ArgumentErrorInner { message: e.to_string(), source: Some(e) }))
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
    /// Not a dice-tables file.
    BadMagic,
    /// A dice-tables file of a format version this reader does not read.
    UnsupportedVersion(u32),
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
    UnknownGame(String),
    /// The file holds another game than the one asked for.
    WrongGame { found: String, expected: &'static str },
    /// The rules parameters in the header are not ones this reader can serve.
    BadParam { name: &'static str, why: String },
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
            TableErrorKind::NotRegularFile => write!(f, "not a regular file: a table is a file the generator wrote"),
            TableErrorKind::BadMagic => {
                write!(f, "not a dice-tables file (the first 8 bytes are not \"DICETBL\\0\")")
            }
            TableErrorKind::UnsupportedVersion(v) => {
                write!(f, "format version {v} is not supported: this reader reads version {}", crate::format::VERSION)
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
            TableErrorKind::UnknownGame(g) => {
                let known: Vec<&str> = crate::GAMES.iter().map(|g| g.id).collect();
                write!(f, "unknown game id {g:?} in the header: this reader knows {}", known.join(", "))
            }
            TableErrorKind::WrongGame { found, expected } => {
                write!(f, "holds a {found} table, not a {expected} table")
            }
            TableErrorKind::BadParam { name, why } => write!(f, "rules parameter {name:?} {why}"),
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
