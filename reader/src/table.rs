//! The container: an opened, verified table file of any game. It knows no
//! game; a game's view ([`crate::Game`]) checks the sections it needs.

use std::fmt;
use std::fs::File;
use std::path::Path;

use crate::error::{TableError, TableErrorKind};
use crate::format::{self, Header, SectionEntry};
use crate::game::SectionSpec;

/// A check of the header by whoever opens the table (a game's dimensions),
/// run before any section is decoded.
pub(crate) type Expect<'a> = &'a dyn Fn(&Header) -> Result<(), TableError>;

/// Where the file's bytes live.
enum Bytes {
    Mapped(memmap2::Mmap),
    Static(&'static [u8]),
    Owned(Box<[u8]>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Static(s) => s,
            Bytes::Owned(b) => b,
        }
    }
}

/// A verified table file of any game: preamble and header checked against
/// the format's hard limits, every section inside the file and aligned,
/// every checksum verified, zstd sections decompressed once. What the
/// sections mean is the business of the game's view ([`crate::Game`]).
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// use dice_tables_reader::{Tables, Table};
/// let table = Table::open(Tables::default_dir().join("yazy.dtab"))?;
/// assert_eq!(table.header().game, "yazy");
/// assert_eq!(table.header().param("rerolls"), Some(2));
/// # Ok(()) }
/// ```
pub struct Table {
    bytes: Bytes,
    header: Header,
    /// Decompressed bytes of each zstd section, `None` for raw ones (read in place).
    decoded: Vec<Option<Box<[u8]>>>,
}

impl Table {
    /// Memory-maps and verifies a table file. Errors name the file.
    ///
    /// Only the format's own limits bound what is decompressed here; a
    /// game's [`open`](crate::Game::open) also holds every section to the
    /// game's dimensions before decompressing anything.
    pub fn open(path: impl AsRef<Path>) -> Result<Table, TableError> {
        Table::open_expecting(path.as_ref(), &|_| Ok(()))
    }

    /// [`Table::open`], with `expect` checking the header before any section
    /// is decoded.
    pub(crate) fn open_expecting(path: &Path, expect: Expect) -> Result<Table, TableError> {
        Table::open_unnamed(path, expect).map_err(|e| e.in_file(path))
    }

    fn open_unnamed(path: &Path, expect: Expect) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Mapped(map_table_file(path)?), expect)
    }

    /// The checked header of a table file, without decoding or checking any
    /// section (what `reader info` shows). Reads only the preamble, the
    /// header and the padding between sections. Errors name the file.
    pub fn read_header(path: impl AsRef<Path>) -> Result<Header, TableError> {
        let path = path.as_ref();
        map_table_file(path)
            .map_err(TableError::from)
            .and_then(|map| format::parse_header(&map))
            .map_err(|e| e.in_file(path))
    }

    /// Verifies a table embedded in the program, e.g. with `include_bytes!`.
    /// Raw sections are read in place; zstd sections are decompressed once.
    pub fn from_static(bytes: &'static [u8]) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Static(bytes), &|_| Ok(()))
    }

    /// Verifies a table already read into memory.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Owned(bytes.into_boxed_slice()), &|_| Ok(()))
    }

    /// [`Table::from_vec`], with `expect` checking the header before any
    /// section is decoded.
    pub(crate) fn from_vec_expecting(bytes: Vec<u8>, expect: Expect) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Owned(bytes.into_boxed_slice()), expect)
    }

    fn from_bytes(bytes: Bytes, expect: Expect) -> Result<Table, TableError> {
        let file = bytes.as_slice();
        let header = format::parse_header(file)?;
        expect(&header)?;
        let decoded = decode_sections(file, &header)?;
        Ok(Table { bytes, header, decoded })
    }

    /// The checked header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The decoded bytes of a section, by its position in the directory
    /// (panics past the last section).
    #[inline]
    pub fn section_bytes(&self, index: usize) -> &[u8] {
        match &self.decoded[index] {
            Some(owned) => owned,
            None => {
                let s = &self.header.sections[index];
                &self.bytes.as_slice()[s.offset as usize..(s.offset + s.stored_len) as usize]
            }
        }
    }

    /// The decoded bytes of the section a game's spec names, by its position
    /// (the game's header check made the directory follow its specs).
    #[inline]
    pub fn bytes<P>(&self, spec: &SectionSpec<P>) -> &[u8] {
        self.section_bytes(spec.index)
    }

    /// A section's directory entry and decoded bytes.
    pub fn section(&self, name: &str) -> Option<(&SectionEntry, &[u8])> {
        let i = self.header.sections.iter().position(|s| s.name == name)?;
        Some((&self.header.sections[i], self.section_bytes(i)))
    }

    /// The length of the file.
    pub fn file_len(&self) -> u64 {
        self.bytes.as_slice().len() as u64
    }
}

/// Maps a table file read-only: a regular file at least as long as the
/// preamble. Anything else (a directory, a FIFO, a device such as /dev/zero)
/// is refused before it is opened, so opening never blocks, and nothing is
/// read until the header's own checks ask for it.
fn map_table_file(path: &Path) -> Result<memmap2::Mmap, TableErrorKind> {
    let io = |source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            TableErrorKind::NotFound
        } else {
            TableErrorKind::Io(source)
        }
    };
    // stat first: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(TableErrorKind::NotRegularFile);
    }
    let file = File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(TableErrorKind::NotRegularFile);
    }
    if meta.len() < format::PREAMBLE_LEN as u64 {
        // Mapping an empty file fails on some systems; too short to be a table anyway.
        return Err(TableErrorKind::Truncated { len: meta.len(), needed: format::PREAMBLE_LEN as u64 });
    }
    crate::mmap::map_file(&file).map_err(io)
}

/// Decodes every section, the large compressed ones on their own scoped
/// threads: opening is dominated by zstd and blake3 over a few megabytes, and
/// this halves it on two cores. No thread outlives the call.
fn decode_sections(file: &[u8], header: &Header) -> Result<Vec<Option<Box<[u8]>>>, TableError> {
    const OWN_THREAD: u64 = 1 << 20;
    let heavy = |s: &SectionEntry| s.encoding != format::Encoding::Raw && s.decoded_len().unwrap_or(0) >= OWN_THREAD;
    std::thread::scope(|scope| {
        let spawned: Vec<_> = header
            .sections
            .iter()
            .map(|s| heavy(s).then(|| scope.spawn(move || format::decode_section(file, s))))
            .collect();
        header
            .sections
            .iter()
            .zip(spawned)
            .map(|(s, handle)| match handle {
                Some(h) => h.join().unwrap_or_else(|_| Err(TableError::section(&s.name, "failed to decode"))),
                None => format::decode_section(file, s),
            })
            .collect()
    })
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sections: Vec<&str> = self.header.sections.iter().map(|s| s.name.as_str()).collect();
        f.debug_struct("Table")
            .field("game", &self.header.game)
            .field("params", &self.header.params)
            .field("file_len", &self.header.file_len)
            .field("sections", &sections)
            .finish()
    }
}
