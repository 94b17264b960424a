//! The container: an opened table file of any game, its header checked,
//! its chunks decoded and verified on first use. It knows no game; a game's
//! view ([`crate::Game`]) checks what the bytes mean.

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::arena::Arena;
use crate::error::{TableError, TableErrorKind};
use crate::format::{self, Header};

/// A check of the header by whoever opens the table (a game's dimensions),
/// run before any section is decoded.
pub(crate) type Expect<'a> = &'a dyn Fn(&Header) -> Result<(), TableError>;

/// Where the file's bytes live.
enum Bytes {
    Mapped(Mapped),
    Static(&'static [u8]),
    Owned(Box<[u8]>),
    /// The file's first bytes, and each chunk's once supplied.
    Pieces(Arc<Pieces>),
}

impl Bytes {
    /// The file's bytes: of a file read in pieces, its first bytes only.
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Static(s) => s,
            Bytes::Owned(b) => b,
            Bytes::Pieces(p) => &p.prefix,
        }
    }
}

/// A table file read in pieces, as a browser reads a big file over HTTP
/// range requests: its first bytes (the preamble and the header) at once,
/// each chunk's stored bytes only when a read first needs them. A read of
/// a chunk not yet given fails with [`TableErrorKind::Needed`], naming the
/// bytes to fetch; [`supply`](Pieces::supply) checks them against the
/// chunk's blake3 and keeps them, and the read asked again goes on. Every
/// [`Table`] built over the same pieces ([`Table::from_pieces`]) shares
/// what was supplied.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use dice_tables_reader::yazy::{Mask, Yazy};
/// use dice_tables_reader::{Error, Game, Pieces, Table, TableErrorKind, Tables};
/// let file = std::fs::read(Tables::default_dir().join("yazy.dtab"))?;
/// // The preamble says how long the header is: that many first bytes.
/// let first = Pieces::prefix_len(&file[..48], file.len() as u64)?;
/// let pieces = Arc::new(Pieces::new(file[..first].to_vec(), file.len() as u64)?);
/// let mut fetched = 0;
/// let value = loop {
///     let asked = Table::from_pieces(Arc::clone(&pieces))
///         .and_then(Yazy::from_table)
///         .map_err(Error::from)
///         .and_then(|yazy| yazy.turn_start_value(Mask::ALL));
///     match asked {
///         Ok(value) => break value,
///         // Here the bytes come from the file; a browser fetches them.
///         Err(Error::Table(e)) if matches!(e.kind(), TableErrorKind::Needed { .. }) => {
///             let &TableErrorKind::Needed { offset, len, .. } = e.kind() else { unreachable!() };
///             let at = offset as usize;
///             pieces.supply(offset, file[at..at + len as usize].to_vec())?;
///             fetched += len;
///         }
///         Err(e) => return Err(e.into()),
///     }
/// };
/// assert!((value - 165.7573187).abs() < 1e-6);
/// assert!(fetched < file.len() as u64 / 2);
/// # Ok(()) }
/// ```
pub struct Pieces {
    prefix: Box<[u8]>,
    header: format::Header,
    /// The table's name in [`Needed`](TableErrorKind::Needed): its game id,
    /// or the file's stem a caller gave ([`Pieces::named`]).
    name: String,
    /// Per section, where its chunks start in `chunks`.
    first: Box<[usize]>,
    /// Every chunk of every section, in file order.
    chunks: Box<[Piece]>,
}

/// A chunk of a file read in pieces: where its stored bytes lie, and
/// those bytes once supplied and checked.
struct Piece {
    start: u64,
    len: u64,
    section: usize,
    chunk: usize,
    bytes: OnceLock<Box<[u8]>>,
}

impl Pieces {
    /// How many of a file's first bytes [`Pieces::new`] takes: the
    /// preamble and the header, from the preamble (the first 48 bytes) of
    /// a file of `file_len` bytes (magic, version and the header's length
    /// checked against the format's limit).
    pub fn prefix_len(preamble: &[u8], file_len: u64) -> Result<usize, TableError> {
        format::header_end(preamble, file_len)
    }

    /// A file of `file_len` bytes from its first bytes `prefix` (at least
    /// [`prefix_len`](Pieces::prefix_len) of them): its header checked as
    /// [`Table::open`] checks it, but for the zero padding between sections,
    /// which is never fetched.
    pub fn new(prefix: Vec<u8>, file_len: u64) -> Result<Pieces, TableError> {
        let header = format::parse_header_prefix(&prefix, file_len)?;
        let mut first = Vec::with_capacity(header.sections.len());
        let mut chunks = Vec::new();
        for (s, entry) in header.sections.iter().enumerate() {
            first.push(chunks.len());
            let mut at = entry.offset;
            for (c, chunk) in entry.chunks.iter().enumerate() {
                chunks.push(Piece { start: at, len: chunk.stored_len, section: s, chunk: c, bytes: OnceLock::new() });
                at += chunk.stored_len;
            }
        }
        let name = header.game.clone();
        Ok(Pieces { prefix: prefix.into_boxed_slice(), header, name, first: first.into(), chunks: chunks.into() })
    }

    /// These pieces, naming themselves `name` where a chunk is
    /// [`Needed`](TableErrorKind::Needed): for tables whose game id is
    /// shared (every rule set's two-player table is `rules-duel`), the
    /// file's stem tells a caller reading several which file to fetch from.
    pub fn named(mut self, name: impl Into<String>) -> Pieces {
        self.name = name.into();
        self
    }

    /// The name a [`Needed`](TableErrorKind::Needed) error gives: the
    /// game id, or what [`named`](Pieces::named) set.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Gives the stored bytes of the chunk starting at byte `offset` of the
    /// file (what a [`Needed`](TableErrorKind::Needed) error asked for),
    /// decoded and checked against its blake3 before they are kept; bytes
    /// that are not that chunk's are refused, and it may be given again.
    pub fn supply(&self, offset: u64, bytes: Vec<u8>) -> Result<(), TableError> {
        let at = self.chunks.partition_point(|p| p.start < offset);
        let piece =
            self.chunks.get(at).filter(|p| p.start == offset && p.len > 0).ok_or_else(|| {
                TableErrorKind::BadHeader(format!("no chunk of the file is stored from byte {offset}"))
            })?;
        let entry = &self.header.sections[piece.section];
        if bytes.len() as u64 != piece.len {
            let why = format!("chunk {} stores {} bytes, not the {} given", piece.chunk, piece.len, bytes.len());
            return Err(TableError::section(&entry.name, why));
        }
        format::decode_chunk(&bytes, entry, piece.chunk)?;
        let _ = piece.bytes.set(bytes.into_boxed_slice());
        Ok(())
    }

    /// The header, checked.
    pub fn header(&self) -> &format::Header {
        &self.header
    }

    /// How many of the file's stored bytes have been supplied so far.
    pub fn supplied_len(&self) -> u64 {
        self.chunks.iter().filter(|p| p.bytes.get().is_some()).map(|p| p.len).sum()
    }

    /// The stored bytes of chunk `c` of section `s`, once supplied.
    fn stored(&self, s: usize, c: usize) -> Result<&[u8], TableError> {
        let piece = &self.chunks[self.first[s] + c];
        piece.bytes.get().map(|b| &b[..]).ok_or_else(|| {
            TableErrorKind::Needed { game: self.name.clone(), offset: piece.start, len: piece.len }.into()
        })
    }
}

impl fmt::Debug for Pieces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pieces")
            .field("game", &self.header.game)
            .field("file_len", &self.header.file_len)
            .field("chunks", &self.chunks.len())
            .field("supplied_len", &self.supplied_len())
            .finish()
    }
}

/// A table file of any game: preamble and header checked against the
/// format's hard limits, every section and chunk inside the file and
/// aligned. Each chunk is decoded and its checksum verified the first time
/// it is read, then kept; [`verify_checksums`](Table::verify_checksums)
/// does them all. What the sections mean is the business of the game's view
/// ([`crate::Game`]).
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// use dice_tables_reader::{Tables, Table};
/// let table = Table::open(Tables::default_dir().join("yazy.dtab"))?;
/// assert_eq!(table.header().game, "yazy");
/// assert_eq!(table.header().param("rerolls"), Some(2));
/// table.verify_checksums()?;
/// # Ok(()) }
/// ```
pub struct Table {
    bytes: Bytes,
    header: Header,
    /// Per section, what lookups need to find and trust its chunks; past
    /// the header's sections, none. (In place, not behind a pointer: a
    /// lookup's loads wait on each other, so one fewer counts.)
    sections: [SectionState; format::limits::MAX_SECTIONS],
}

/// A section's chunks, laid out for the lookup path.
#[derive(Debug, Default)]
struct SectionState {
    /// Decoded bytes per chunk when there are several, else 0.
    chunk_len: u32,
    /// `2^63 / chunk_len + 1`: a byte position's chunk is `(at * reciprocal) >> 63`,
    /// exact while position x `chunk_len` is below 2^63: sections are at
    /// most 2^36 bytes, chunks of several at most 2^24.
    reciprocal: u64,
    chunks: Box<[ChunkState]>,
    /// A compressed section's decoded chunks, in one buffer (up to
    /// [`crate::arena::MAX_ARENA_BYTES`]); else `None`, and each compressed
    /// chunk keeps its own in [`ChunkState::ready`].
    arena: Option<Arena>,
}

/// A chunk's place in the file and whether it may be read.
#[derive(Debug)]
struct ChunkState {
    /// Where its stored bytes start, from the start of the file.
    stored_start: usize,
    /// How many bytes are stored.
    stored_len: usize,
    /// Once decoded, its checksum verified and its contents checked: the
    /// decompressed bytes, or `None` for a raw chunk (read in place).
    ready: OnceLock<Option<Box<[u8]>>>,
}

impl Table {
    /// Reads a table file into memory and checks its header. Errors name
    /// the file. Nothing later done to the file changes an answer.
    ///
    /// Only the format's own limits bound what a chunk decompresses to; a
    /// game's [`open`](crate::Game::open) also holds every section to the
    /// game's dimensions.
    pub fn open(path: impl AsRef<Path>) -> Result<Table, TableError> {
        Table::open_expecting(path.as_ref(), &|_| Ok(()))
    }

    /// [`Table::open`], with `expect` checking the header before any section
    /// is decoded.
    pub(crate) fn open_expecting(path: &Path, expect: Expect) -> Result<Table, TableError> {
        let (bytes, _) = read_table_file(path)?;
        Table::from_vec_expecting(bytes, expect).map_err(|e| e.in_file(path))
    }

    /// Memory-maps a table file and checks its header: nothing is copied,
    /// and the pages are shared with every other process reading the file.
    /// Errors name the file.
    ///
    /// # Safety
    ///
    /// The file must not change in place while the table lives: no program
    /// may write into it or truncate it (a truncated mapped file kills the
    /// process with SIGBUS on the next read past its new end, and bytes
    /// changed under a checked chunk are undefined behaviour). Replacing it
    /// by renaming a new file over it is fine, as the generator does: the
    /// map keeps the old file. See FORMAT.md, "Replacing a table".
    ///
    /// ```compile_fail
    /// // Mapping is an opt-in that names its contract: without `unsafe`
    /// // it does not compile.
    /// let table = dice_tables_reader::Table::map("tables/yazy.dtab");
    /// ```
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Table, TableError> {
        // SAFETY: the caller keeps the file unchanged while the table lives.
        unsafe { Table::map_expecting(path.as_ref(), &|_| Ok(())) }
    }

    /// [`Table::map`], with `expect` checking the header before any section
    /// is decoded.
    ///
    /// # Safety
    ///
    /// As [`Table::map`].
    pub(crate) unsafe fn map_expecting(path: &Path, expect: Expect) -> Result<Table, TableError> {
        // SAFETY: the caller keeps the file unchanged while the table lives.
        let mapped = unsafe { map_table_file(path) };
        mapped
            .map_err(TableError::from)
            .and_then(|m| Table::from_bytes(Bytes::Mapped(m), expect))
            .map_err(|e| e.in_file(path))
    }

    /// The checked header of a table file, without decoding or checking any
    /// section (what `reader info` shows). Reads the whole file; a program
    /// that may map the file reads only its first pages with
    /// [`Table::map`] and [`Table::header`]. Errors name the file.
    pub fn read_header(path: impl AsRef<Path>) -> Result<Header, TableError> {
        let path = path.as_ref();
        let (bytes, _) = read_table_file(path)?;
        format::parse_header(&bytes).map_err(|e| e.in_file(path))
    }

    /// A table embedded in the program, e.g. with `include_bytes!`. Raw
    /// chunks are read in place; zstd chunks are decompressed once, on first use.
    pub fn from_static(bytes: &'static [u8]) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Static(bytes), &|_| Ok(()))
    }

    /// A table already read into memory.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Owned(bytes.into_boxed_slice()), &|_| Ok(()))
    }

    /// [`Table::from_vec`], with `expect` checking the header before any
    /// section is decoded.
    pub(crate) fn from_vec_expecting(bytes: Vec<u8>, expect: Expect) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Owned(bytes.into_boxed_slice()), expect)
    }

    /// A table over a file read in pieces: a read of a chunk not yet
    /// supplied fails with [`TableErrorKind::Needed`] (see [`Pieces`]).
    pub fn from_pieces(pieces: Arc<Pieces>) -> Result<Table, TableError> {
        Table::from_pieces_expecting(pieces, &|_| Ok(()))
    }

    /// [`Table::from_pieces`], with `expect` checking the header before any
    /// section is decoded.
    pub(crate) fn from_pieces_expecting(pieces: Arc<Pieces>, expect: Expect) -> Result<Table, TableError> {
        Table::from_bytes(Bytes::Pieces(pieces), expect)
    }

    fn from_bytes(bytes: Bytes, expect: Expect) -> Result<Table, TableError> {
        let header = match &bytes {
            Bytes::Pieces(pieces) => pieces.header.clone(),
            bytes => format::parse_header(bytes.as_slice())?,
        };
        expect(&header)?;
        let section_state = |s: &format::SectionEntry| {
            let mut at = s.offset as usize;
            let chunks: Box<[ChunkState]> = s
                .chunks
                .iter()
                .map(|c| {
                    let state =
                        ChunkState { stored_start: at, stored_len: c.stored_len as usize, ready: OnceLock::new() };
                    at += c.stored_len as usize;
                    state
                })
                .collect();
            // parse_header bounds a chunk of several to 2^24 bytes: it fits in 32 bits.
            let chunk_len = if chunks.len() > 1 { s.chunk_len as u32 } else { 0 };
            let reciprocal = if chunk_len > 0 { (1u64 << 63) / u64::from(chunk_len) + 1 } else { 0 };
            let decoded_len = s.decoded_len().unwrap_or(0) as usize;
            let arena = (s.encoding == format::Encoding::Zstd)
                .then(|| Arena::new(decoded_len, s.chunk_len as usize))
                .flatten()
                .filter(|_| decoded_len.div_ceil(s.chunk_len.max(1) as usize) == chunks.len());
            SectionState { chunk_len, reciprocal, chunks, arena }
        };
        // parse_header bounds the count to MAX_SECTIONS.
        let sections = std::array::from_fn(|s| header.sections.get(s).map(section_state).unwrap_or_default());
        Ok(Table { bytes, header, sections })
    }

    /// The checked header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Chunk `c` of section `s` (positions in the directory): decoded, its
    /// checksum verified and `check` (a game's check of what the bytes hold,
    /// given where the chunk starts in the section's decoded bytes) passed,
    /// all on first use; after that, read in place.
    #[inline(always)]
    pub fn chunk(
        &self,
        s: usize,
        c: usize,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&[u8], TableError> {
        match self.sections.get(s) {
            Some(section) => self.chunk_of(s, section, c, check),
            None => Err(self.no_chunk(s, c)),
        }
    }

    /// [`chunk`](Table::chunk) once the section is found.
    #[inline(always)]
    fn chunk_of<'a>(
        &'a self,
        s: usize,
        section: &'a SectionState,
        c: usize,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&'a [u8], TableError> {
        if let Some(arena) = &section.arena {
            return match arena.chunk(c) {
                Some(bytes) => Ok(bytes),
                None => self.first_read_into(s, c, section, arena, check),
            };
        }
        let Some(state) = section.chunks.get(c) else {
            return Err(self.no_chunk(s, c));
        };
        let ready = match state.ready.get() {
            Some(ready) => ready,
            None => self.first_read(s, c, state, check)?,
        };
        Ok(match ready {
            Some(owned) => owned,
            None => self.stored(s, c, state),
        })
    }

    /// The first read of a chunk: decode it, verify its checksum, check it.
    #[cold]
    fn first_read<'a>(
        &'a self,
        s: usize,
        c: usize,
        state: &'a ChunkState,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&'a Option<Box<[u8]>>, TableError> {
        let entry = &self.header.sections[s];
        let stored = self.stored_to_read(s, c, state)?;
        let decoded = format::decode_chunk(stored, entry, c)?;
        let bytes = decoded.as_deref().unwrap_or(stored);
        check(entry.chunk_span(c).0, bytes)?;
        let _ = state.ready.set(decoded);
        Ok(state.ready.get().expect("set just above"))
    }

    /// [`first_read`](Table::first_read) of a chunk of a section with an arena: decoded into it.
    #[cold]
    fn first_read_into<'a>(
        &'a self,
        s: usize,
        c: usize,
        section: &'a SectionState,
        arena: &'a Arena,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&'a [u8], TableError> {
        let Some(state) = section.chunks.get(c) else {
            return Err(self.no_chunk(s, c));
        };
        let entry = &self.header.sections[s];
        let stored = self.stored_to_read(s, c, state)?;
        let decode = |out: &mut [u8]| {
            format::decode_chunk_into(stored, entry, c, out)?;
            check(entry.chunk_span(c).0, out)
        };
        arena.fill(c, decode).unwrap_or_else(|| Err(self.no_chunk(s, c)))
    }

    /// A chunk's stored bytes, once read: for a raw chunk, its decoded bytes in place.
    #[inline(always)]
    fn stored(&self, s: usize, c: usize, state: &ChunkState) -> &[u8] {
        match &self.bytes {
            // Read before, so supplied.
            Bytes::Pieces(pieces) => pieces.stored(s, c).unwrap_or_default(),
            bytes => &bytes.as_slice()[state.stored_start..state.stored_start + state.stored_len],
        }
    }

    /// A chunk's stored bytes for its first read: of a file read in pieces,
    /// [`TableErrorKind::Needed`] until they are supplied.
    fn stored_to_read(&self, s: usize, c: usize, state: &ChunkState) -> Result<&[u8], TableError> {
        match &self.bytes {
            Bytes::Pieces(pieces) => pieces.stored(s, c),
            _ => Ok(self.stored(s, c, state)),
        }
    }

    /// Decoded bytes `at..at + len` of section `s`, which must lie in one
    /// chunk (an element never straddles two), through [`chunk`](Table::chunk).
    #[inline(always)]
    pub fn range(
        &self,
        s: usize,
        at: usize,
        len: usize,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&[u8], TableError> {
        let Some(section) = self.sections.get(s) else {
            return Err(self.no_chunk(s, 0));
        };
        // One chunk (the common case) needs no division, several a multiply.
        let (c, within) = if section.chunk_len > 0 {
            let c = ((at as u128 * u128::from(section.reciprocal)) >> 63) as usize;
            (c, at - c * section.chunk_len as usize)
        } else {
            (0, at)
        };
        // The bytes' address does not wait on the chunk's state: only the check that it is ready does.
        if let Some(bytes) = section.arena.as_ref().and_then(|arena| arena.get(c, at, len)) {
            return Ok(bytes);
        }
        let bytes = self.chunk_of(s, section, c, check)?;
        bytes.get(within..within + len).ok_or_else(|| {
            TableError::section(&self.header.sections[s].name, format!("has no bytes {at}..{}", at + len))
        })
    }

    /// The whole decoded bytes of section `s`, through [`chunk`](Table::chunk):
    /// for a section of one chunk (or none, when empty).
    pub fn whole(
        &self,
        s: usize,
        check: impl FnOnce(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<&[u8], TableError> {
        match self.sections.get(s).map(|section| section.chunks.len()) {
            None => Err(self.no_chunk(s, 0)),
            Some(0) => Ok(&[]),
            Some(1) => self.chunk(s, 0, check),
            Some(n) => Err(TableError::section(&self.header.sections[s].name, format!("is in {n} chunks, not one"))),
        }
    }

    /// Every decoded byte of section `s`, each chunk read through
    /// [`chunk`](Table::chunk) with `check`: in place in the file for a raw
    /// section, in place in its decoded bytes for a compressed one (up to
    /// 64 MB), else copied into one buffer (for
    /// whole-table access; lookups read chunks).
    pub fn section_bytes(
        &self,
        s: usize,
        check: impl Fn(u64, &[u8]) -> Result<(), TableError>,
    ) -> Result<Cow<'_, [u8]>, TableError> {
        let (Some(entry), Some(section)) = (self.header.sections.get(s), self.sections.get(s)) else {
            return Err(self.no_chunk(s, 0));
        };
        let n = section.chunks.len();
        let in_place = !matches!(self.bytes, Bytes::Pieces(_));
        if (entry.encoding == format::Encoding::Raw && in_place) || n == 1 {
            for c in 0..n {
                self.chunk(s, c, &check)?;
            }
            if n == 1 {
                return Ok(Cow::Borrowed(self.chunk(s, 0, &check)?));
            }
            // Raw chunks lie one after another from the section's offset.
            let start = entry.offset as usize;
            return Ok(Cow::Borrowed(&self.bytes.as_slice()[start..start + entry.stored_len as usize]));
        }
        if let Some(arena) = &section.arena {
            for c in 0..n {
                self.chunk(s, c, &check)?;
            }
            if let Some(whole) = arena.whole() {
                return Ok(Cow::Borrowed(whole));
            }
        }
        let mut out = Vec::new();
        for c in 0..n {
            out.extend_from_slice(self.chunk(s, c, &check)?);
        }
        Ok(Cow::Owned(out))
    }

    /// Every decoded byte of section `s`, copied into one buffer (for tools
    /// and tests; lookups read chunks in place). Checksums are verified.
    pub fn read_section(&self, s: usize) -> Result<Vec<u8>, TableError> {
        let mut out = Vec::new();
        for c in 0..self.sections.get(s).map_or(0, |section| section.chunks.len()) {
            out.extend_from_slice(self.chunk(s, c, |_, _| Ok(()))?);
        }
        Ok(out)
    }

    /// A section's decoded bytes by name ([`read_section`](Table::read_section)).
    pub fn section(&self, name: &str) -> Option<Result<Vec<u8>, TableError>> {
        let i = self.header.sections.iter().position(|s| s.name == name)?;
        Some(self.read_section(i))
    }

    /// Every chunk of every section through [`chunk`](Table::chunk), with
    /// `check(section, start, bytes)` as the check of each, on scoped
    /// threads (no thread outlives the call).
    pub fn check_every_chunk(
        &self,
        check: impl Fn(usize, u64, &[u8]) -> Result<(), TableError> + Sync,
    ) -> Result<(), TableError> {
        let all: Vec<(usize, usize)> = self
            .sections
            .iter()
            .enumerate()
            .flat_map(|(s, section)| (0..section.chunks.len()).map(move |c| (s, c)))
            .collect();
        let check = &check;
        let check_one = |&(s, c): &(usize, usize)| self.chunk(s, c, |start, bytes| check(s, start, bytes)).map(drop);
        // WebAssembly has no threads to start (and with one worker, the
        // threaded code below is dropped from its build).
        let workers = if cfg!(target_arch = "wasm32") {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8)
        };
        if workers == 1 {
            return all.iter().try_for_each(check_one);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let all = &all;
                    scope.spawn(move || all.iter().skip(w).step_by(workers).try_for_each(check_one))
                })
                .collect();
            handles.into_iter().try_for_each(|h| {
                h.join().unwrap_or_else(|_| Err(TableErrorKind::BadHeader("a chunk failed to decode".into()).into()))
            })
        })
    }

    /// [`check_every_chunk`](Table::check_every_chunk) with no check of the
    /// contents: every chunk decoded and its checksum verified.
    pub fn verify_checksums(&self) -> Result<(), TableError> {
        self.check_every_chunk(|_, _, _| Ok(()))
    }

    /// Forgets which chunks were read: a game's view, taking the table over,
    /// checks every chunk's contents itself, even one read before it.
    pub(crate) fn forget_reads(&mut self) {
        for section in &mut self.sections {
            if let Some(arena) = &mut section.arena {
                arena.forget();
            }
            for chunk in &mut section.chunks {
                chunk.ready.take();
            }
        }
    }

    #[cold]
    fn no_chunk(&self, s: usize, c: usize) -> TableError {
        match self.header.sections.get(s) {
            Some(entry) => TableError::section(&entry.name, format!("has no chunk {c}")),
            None => TableErrorKind::BadHeader(format!("no section {s}")).into(),
        }
    }

    /// The length of the file.
    pub fn file_len(&self) -> u64 {
        match &self.bytes {
            Bytes::Pieces(pieces) => pieces.header.file_len,
            bytes => bytes.as_slice().len() as u64,
        }
    }
}

/// Maps a table file read-only: a regular file at least as long as the
/// preamble. Anything else (a directory, a FIFO, a device such as /dev/zero)
/// is refused before it is opened, so opening never blocks, and nothing is
/// read until the header's own checks ask for it.
///
/// # Safety
///
/// As [`Table::map`]: the file does not change in place while mapped.
#[cfg(not(target_arch = "wasm32"))]
unsafe fn map_table_file(path: &Path) -> Result<Mapped, TableErrorKind> {
    let file = open_table_file(path)?;
    // SAFETY: the caller keeps the file unchanged while the map lives.
    unsafe { crate::mmap::map_file(&file) }.map_err(TableErrorKind::from)
}

/// A mapped table file.
#[cfg(not(target_arch = "wasm32"))]
type Mapped = memmap2::Mmap;

/// WebAssembly has no memory maps (nor files, in a browser): a "mapped"
/// file is read whole, where there are files at all.
#[cfg(target_arch = "wasm32")]
type Mapped = Box<[u8]>;

/// # Safety
///
/// None needed: the file is read, not mapped.
#[cfg(target_arch = "wasm32")]
unsafe fn map_table_file(path: &Path) -> Result<Mapped, TableErrorKind> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_table_file(path)?.read_to_end(&mut bytes).map_err(TableErrorKind::from)?;
    Ok(bytes.into_boxed_slice())
}

/// Reads a whole table file into memory (a regular file, at least a
/// preamble long): what [`Table::open`] and [`crate::Holding::Loaded`] hold. Errors name the file.
/// Also returns what the open file's metadata said before it was read.
pub fn read_table_file(path: &Path) -> Result<(Vec<u8>, std::fs::Metadata), TableError> {
    use std::io::Read;
    let read = || {
        let mut file = open_table_file(path)?;
        let meta = file.metadata().map_err(TableErrorKind::from)?;
        // The preamble and the header first, checked against the file's
        // length, so that a file that is not a table (an 8 GB file of
        // zeros, say) is refused after reading its first bytes.
        let mut bytes = vec![0; format::PREAMBLE_LEN];
        file.read_exact(&mut bytes).map_err(TableErrorKind::from)?;
        let header_end = format::header_end(&bytes, meta.len())?;
        bytes.resize(header_end, 0);
        file.read_exact(&mut bytes[format::PREAMBLE_LEN..]).map_err(TableErrorKind::from)?;
        format::check_prefix(&bytes, meta.len())?;
        bytes.reserve_exact(usize::try_from(meta.len()).unwrap_or(0).saturating_sub(header_end));
        file.read_to_end(&mut bytes).map_err(TableErrorKind::from)?;
        Ok::<_, TableError>((bytes, meta))
    };
    read().map_err(|e| e.in_file(path))
}

/// Opens a table file: a regular file at least as long as the preamble.
fn open_table_file(path: &Path) -> Result<File, TableErrorKind> {
    // stat first: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).map_err(TableErrorKind::from)?.is_file() {
        return Err(TableErrorKind::NotRegularFile);
    }
    let file = File::open(path).map_err(TableErrorKind::from)?;
    let meta = file.metadata().map_err(TableErrorKind::from)?;
    if !meta.is_file() {
        return Err(TableErrorKind::NotRegularFile);
    }
    if meta.len() < format::PREAMBLE_LEN as u64 {
        // Mapping an empty file fails on some systems; too short to be a table anyway.
        return Err(TableErrorKind::Truncated { len: meta.len(), needed: format::PREAMBLE_LEN as u64 });
    }
    Ok(file)
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
