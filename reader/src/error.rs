use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong opening a table or looking something up.
///
/// Every message is one line that says what was wrong and, where there is
/// one, what to do about it.
#[derive(Debug)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant's doc says what its fields are
pub enum Error {
    /// The file could not be read.
    Io { path: PathBuf, source: std::io::Error },
    /// No table file where one was looked for.
    NotFound { path: PathBuf },
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
    /// The header does not decode or is inconsistent.
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
    /// A lookup argument is out of range; the message gives the accepted form.
    InvalidArgument(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Error::NotFound { path } => write!(
                f,
                "no table at {}: run `make tables` (or `generator --out DIR`) to write it",
                path.display()
            ),
            Error::BadMagic => write!(f, "not a dice-tables file (the first 8 bytes are not \"DICETBL\\0\")"),
            Error::UnsupportedVersion(v) => write!(
                f,
                "format version {v} is not supported: this reader reads version {}; regenerate the table or upgrade the reader",
                crate::format::VERSION
            ),
            Error::Truncated { len, needed } => {
                write!(f, "file is truncated: {len} bytes, but its header needs {needed}; regenerate it")
            }
            Error::TrailingBytes { len, expected } => write!(
                f,
                "file has {} unexpected bytes after its last section ({len} bytes, expected {expected}); regenerate it",
                len - expected
            ),
            Error::Limit { what, value, max } => {
                write!(f, "corrupt header: {what} {value} is over the limit of {max}; regenerate the table")
            }
            Error::HeaderChecksum => write!(f, "corrupt header: its blake3 checksum does not match; regenerate the table"),
            Error::BadHeader(why) => write!(f, "corrupt header: {why}; regenerate the table"),
            Error::BadSection { name, why } => write!(f, "section {name:?} {why}; regenerate the table"),
            Error::SectionChecksum { name } => {
                write!(f, "section {name:?} is corrupt: its blake3 checksum does not match; regenerate the table")
            }
            Error::UnknownGame(g) => write!(f, "unknown game id {g:?} in the header: this reader knows {}", crate::GAMES.join(", ")),
            Error::WrongGame { found, expected } => write!(f, "this is a {found:?} table, not a {expected} table"),
            Error::BadParam { name, why } => write!(f, "rules parameter {name:?} {why}"),
            Error::InvalidArgument(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Error {
    /// True for errors in the table file itself (as opposed to the arguments of a lookup).
    pub fn is_table_error(&self) -> bool {
        !matches!(self, Error::InvalidArgument(_))
    }
}
