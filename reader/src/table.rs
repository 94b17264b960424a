//! An opened, verified table of any game.

use std::fs::File;
use std::path::Path;

use crate::error::Error;
use crate::format::{self, Header, SectionEntry};

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

/// A verified table file: header checked, sections checked against the game's
/// dimensions, every checksum verified, zstd sections decompressed once,
/// and every stored action checked to be legal in its state.
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
/// # if !dir.join("yazy.dtab").exists() { return Ok(()); }
/// let table = dice_tables_reader::Table::open(dir.join("yazy.dtab"))?;
/// assert_eq!(table.header().game, "yazy");
/// # Ok(()) }
/// ```
pub struct Table {
    bytes: Bytes,
    header: Header,
    /// Decompressed bytes of each zstd section, `None` for raw ones (read in place).
    decoded: Vec<Option<Box<[u8]>>>,
}

impl Table {
    /// Memory-maps and verifies a table file.
    pub fn open(path: impl AsRef<Path>) -> Result<Table, Error> {
        let path = path.as_ref();
        let io = |source: std::io::Error| {
            if source.kind() == std::io::ErrorKind::NotFound {
                Error::NotFound { path: path.to_path_buf() }
            } else {
                Error::Io { path: path.to_path_buf(), source }
            }
        };
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(Error::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
            });
        }
        if meta.len() < format::PREAMBLE_LEN as u64 {
            // Mapping an empty file fails on some systems; too short to be a table anyway.
            return Err(Error::Truncated { len: meta.len(), needed: format::PREAMBLE_LEN as u64 });
        }
        let map = crate::mmap::map_file(&file).map_err(io)?;
        Table::from_bytes(Bytes::Mapped(map))
    }

    /// Verifies a table embedded in the program, e.g. with `include_bytes!`.
    /// Raw sections are read in place; zstd sections are decompressed once.
    pub fn from_static(bytes: &'static [u8]) -> Result<Table, Error> {
        Table::from_bytes(Bytes::Static(bytes))
    }

    /// Verifies a table already read into memory.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Table, Error> {
        Table::from_bytes(Bytes::Owned(bytes.into_boxed_slice()))
    }

    fn from_bytes(bytes: Bytes) -> Result<Table, Error> {
        let file = bytes.as_slice();
        let header = format::parse_header(file)?;
        let expected = crate::expected_sections(&header)?;
        format::check_schema(&header, &expected)?;
        let decoded = decode_sections(file, &header)?;
        let table = Table { bytes, header, decoded };
        crate::check_contents(&table)?;
        Ok(table)
    }

    /// The checked header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The decoded bytes of a section, by its position in the directory.
    pub fn section_bytes(&self, index: usize) -> &[u8] {
        match &self.decoded[index] {
            Some(owned) => owned,
            None => {
                let s = &self.header.sections[index];
                &self.bytes.as_slice()[s.offset as usize..(s.offset + s.stored_len) as usize]
            }
        }
    }

    /// A section's position in the directory.
    pub fn section_index(&self, name: &str) -> Option<usize> {
        self.header.sections.iter().position(|s| s.name == name)
    }

    /// A section's directory entry and decoded bytes.
    pub fn section(&self, name: &str) -> Option<(&SectionEntry, &[u8])> {
        let i = self.section_index(name)?;
        Some((&self.header.sections[i], self.section_bytes(i)))
    }

    /// The length of the file.
    pub fn file_len(&self) -> u64 {
        self.bytes.as_slice().len() as u64
    }
}

/// Decodes every section, the large compressed ones on their own scoped
/// threads: opening is dominated by zstd and blake3 over a few megabytes, and
/// this halves it on two cores. No thread outlives the call.
fn decode_sections(file: &[u8], header: &Header) -> Result<Vec<Option<Box<[u8]>>>, Error> {
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
                Some(h) => h.join().unwrap_or_else(|_| {
                    Err(Error::BadSection { name: s.name.clone(), why: "failed to decode".into() })
                }),
                None => format::decode_section(file, s),
            })
            .collect()
    })
}
