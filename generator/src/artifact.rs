//! Writing table files: the encoder of the format the reader specifies, and
//! the crash-safe write into place.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dice_tables_reader::format::{self, Chunk, DType, Encoding, Header, Param, SectionEntry, SECTION_ALIGN};
use dice_tables_reader::SectionSpec;
use rayon::prelude::*;

/// The zstd level of a compressed section unless its game chooses another
/// ([`Section::level`]). Part of the output: changing it changes checksums
/// in the manifest.
pub const ZSTD_LEVEL: i32 = 19;

/// One section before encoding: its decoded little-endian bytes.
#[derive(Debug)]
pub struct Section {
    /// Its name in the header (the reader's spec's).
    pub name: String,
    /// The element type.
    pub dtype: DType,
    /// The shape, outermost first.
    pub dims: Vec<u64>,
    /// Raw or zstd chunks.
    pub encoding: Encoding,
    /// The decoded bytes.
    pub bytes: Bytes,
    /// The zstd level, for a zstd section compressed as the file is
    /// written (one compressed as it was made, [`Section::compressed`], has
    /// its chunks already).
    pub zstd_level: i32,
    /// Decoded bytes per chunk (the whole section unless chosen).
    pub chunk_len: usize,
    /// For a section compressed as it was made ([`Section::compressed`]):
    /// its decoded length, and each chunk as stored with the blake3 of its
    /// decoded bytes (`bytes` is then empty), shared with the file being
    /// written so that the chunks are never copied.
    pub stored: Option<(usize, Arc<[StoredChunk]>)>,
}

/// A chunk as stored, with the blake3 of its decoded bytes.
pub type StoredChunk = (Vec<u8>, [u8; 32]);

/// `decoded` compressed at `level`, one zstd frame, holding no more memory
/// than its bytes: zstd's buffer is its bound, about the decoded length,
/// where a table's chunks compress to half that or less (Crag's two-player
/// file would hold 7 GB for its 3.8).
pub fn zstd_chunk(decoded: &[u8], level: i32) -> Vec<u8> {
    let mut stored = zstd::bulk::compress(decoded, level).expect("zstd compresses in memory");
    stored.shrink_to_fit();
    stored
}

/// `decoded`, made of `parts` equal parts, compressed at `level` as one
/// zstd frame whose blocks end where each part ends, so that each part
/// gets entropy tables of its own. Byte planes differ that much: split so,
/// Generala's two-player values take 397 MB where one table for a chunk's
/// three planes took 407. Holds only its bytes, as [`zstd_chunk`].
pub fn zstd_parts(decoded: &[u8], parts: usize, level: i32) -> Vec<u8> {
    use std::io::Write;
    let mut frame = zstd::stream::Encoder::new(Vec::new(), level).expect("a zstd compressor");
    let in_memory = "zstd compresses in memory";
    frame.set_pledged_src_size(Some(decoded.len() as u64)).expect(in_memory);
    frame.include_contentsize(true).expect(in_memory);
    for part in decoded.chunks(decoded.len().div_ceil(parts).max(1)) {
        frame.write_all(part).expect(in_memory);
        frame.flush().expect(in_memory);
    }
    let mut stored = frame.finish().expect(in_memory);
    stored.shrink_to_fit();
    stored
}

impl Section {
    /// The section a game's spec describes, for a table with `params`.
    pub fn of<P>(spec: &SectionSpec<P>, params: &P, bytes: impl Into<Bytes>) -> Section {
        let section = Section::new(spec.name, spec.dtype, (spec.dims)(params), spec.encoding, bytes);
        match spec.chunk_len {
            0 => section,
            len => section.chunked(len as usize),
        }
    }

    /// Any section, in one chunk (for writing files the specs do not
    /// describe, as tests do).
    pub fn new(name: &str, dtype: DType, dims: Vec<u64>, encoding: Encoding, bytes: impl Into<Bytes>) -> Section {
        let bytes = bytes.into();
        let elements: u64 = dims.iter().product();
        assert_eq!(elements * dtype.size(), bytes.len() as u64, "section {name}: dims and bytes disagree");
        // An empty section is stored raw: there is nothing to compress.
        let encoding = if bytes.is_empty() { Encoding::Raw } else { encoding };
        let chunk_len = bytes.len();
        Section {
            name: name.to_string(),
            dtype,
            dims,
            encoding,
            bytes,
            zstd_level: ZSTD_LEVEL,
            chunk_len,
            stored: None,
        }
    }

    /// A zstd section of a game's spec whose chunks (each `spec.chunk_len`
    /// decoded bytes) are compressed as they are made, by `compress` (one
    /// zstd frame each), so that only the compressed bytes are held:
    /// `chunks` yields each decoded chunk in order. The same file as
    /// [`Section::of`] with those bytes, but for the compression.
    pub fn compressed<P>(
        spec: &SectionSpec<P>,
        params: &P,
        chunks: impl IndexedParallelIterator<Item = Vec<u8>>,
        compress: impl Fn(&[u8]) -> Vec<u8> + Sync + Send,
    ) -> Section {
        let stored = chunks
            .map(|decoded| {
                // Only its bytes held (see zstd_chunk).
                let mut stored = compress(&decoded);
                stored.shrink_to_fit();
                (stored, *blake3::hash(&decoded).as_bytes())
            })
            .collect();
        Section::stored(spec, params, stored)
    }

    /// A zstd section of a game's spec from its chunks as stored, each with
    /// the blake3 of its decoded bytes (every chunk `spec.chunk_len` decoded
    /// bytes but the last).
    pub fn stored<P>(spec: &SectionSpec<P>, params: &P, stored: Vec<StoredChunk>) -> Section {
        assert!(spec.chunk_len > 0 && spec.encoding == Encoding::Zstd, "section {}: zstd chunks", spec.name);
        let dims = (spec.dims)(params);
        let len = (dims.iter().product::<u64>() * spec.dtype.size()) as usize;
        assert_eq!(stored.len(), len.div_ceil(spec.chunk_len as usize), "section {}: every chunk", spec.name);
        Section {
            name: spec.name.to_string(),
            dtype: spec.dtype,
            dims,
            encoding: Encoding::Zstd,
            bytes: Bytes::Vec(Vec::new()),
            zstd_level: ZSTD_LEVEL,
            chunk_len: spec.chunk_len as usize,
            stored: Some((len, stored.into())),
        }
    }

    /// The same section stored in chunks of `len` decoded bytes (a multiple
    /// of the element size), each compressed and checksummed on its own, so
    /// that a lookup decodes only the chunk it reads. ([`Section::of`] takes
    /// the length from the spec.)
    pub fn chunked(self, len: usize) -> Section {
        assert!(
            len > 0 && (len as u64).is_multiple_of(self.dtype.size()),
            "section {}: chunks of {len} bytes",
            self.name
        );
        Section { chunk_len: len, ..self }
    }

    /// Its decoded length.
    pub fn decoded_len(&self) -> usize {
        self.stored.as_ref().map_or(self.bytes.len(), |(len, _)| *len)
    }

    /// The same section compressed at `level` instead of [`ZSTD_LEVEL`]: a
    /// game chooses it per section from measurements of size and time.
    pub fn level(self, level: i32) -> Section {
        Section { zstd_level: level, ..self }
    }
}

/// A section's bytes: a `Vec`, or (from [`Bytes::zeroed`]) memory mapped
/// for the purpose.
pub enum Bytes {
    /// Bytes on the heap.
    Vec(Vec<u8>),
    /// The first `.1` bytes of an anonymous map.
    Map(memmap2::MmapMut, usize),
}

impl Bytes {
    /// `len` zero bytes to be written in place, on huge pages where the
    /// system gives them: a fresh 4 KB page costs a fault on its first
    /// write (about 2.5 us on a virtual machine, and the faults of threads
    /// writing at once queue on one lock), so megabytes written once, as a
    /// solver's output, can cost as much as solving them. A 2 MB page
    /// faults once for 512 of them. Falls back to a `Vec` if the map fails.
    pub fn zeroed(len: usize) -> Bytes {
        // Whole huge pages: recent Linux kernels place a map of whole huge
        // pages on a huge-page boundary (older ones may split the first).
        const HUGE: usize = 2 << 20;
        match memmap2::MmapMut::map_anon(len.div_ceil(HUGE).max(1) * HUGE) {
            Ok(map) => {
                #[cfg(target_os = "linux")]
                // Advice only: without huge pages the map works as well.
                let _ = map.advise(memmap2::Advice::HugePage);
                Bytes::Map(map, len)
            }
            Err(_) => Bytes::Vec(vec![0; len]),
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Bytes {
        Bytes::Vec(bytes)
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Vec(v) => v,
            Bytes::Map(map, len) => &map[..*len],
        }
    }
}

impl std::ops::DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Bytes::Vec(v) => v,
            Bytes::Map(map, len) => &mut map[..*len],
        }
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{} bytes", self.len())
    }
}

/// Little-endian bytes of a slice of numbers.
pub fn le_bytes<T: Copy, const N: usize>(values: &[T], to_le: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| to_le(v)).collect()
}

/// Encodes a whole table file. The same inputs give the same bytes: nothing
/// depends on the time, the machine or the thread count.
pub fn encode(game: &str, params: &[(&str, i64)], sections: Vec<Section>) -> Vec<u8> {
    let table = TableEncoder::new(game, params, sections);
    let stored: Vec<Vec<u8>> = (0..table.chunks()).into_par_iter().map(|chunk| table.store(chunk)).collect();
    table.finish(stored).into_vec()
}

/// A table file in two halves, so that its chunks can be compressed
/// wherever there is a core to spare: [`store`](TableEncoder::store) each
/// chunk (in any order, on any thread), then [`finish`](TableEncoder::finish)
/// with them in order. The same bytes as [`encode`].
pub struct TableEncoder {
    game: String,
    params: Vec<(String, i64)>,
    sections: Vec<Section>,
    /// Every chunk of every section: (section, its bytes' range).
    pieces: Vec<(usize, std::ops::Range<usize>)>,
}

impl TableEncoder {
    /// The encoder of game `game`'s table with `params` and `sections`:
    /// nothing is compressed yet.
    pub fn new(game: &str, params: &[(&str, i64)], sections: Vec<Section>) -> TableEncoder {
        let pieces = sections
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                let (len, step) = (s.decoded_len(), s.chunk_len.max(1));
                (0..len).step_by(step).map(move |start| (i, start..(start + step).min(len)))
            })
            .collect();
        let params = params.iter().map(|&(name, value)| (name.to_string(), value)).collect();
        TableEncoder { game: game.to_string(), params, sections, pieces }
    }

    /// How many chunks the table has, in all its sections.
    pub fn chunks(&self) -> usize {
        self.pieces.len()
    }

    /// Chunk `chunk` as the file stores it; nothing for a chunk of a
    /// section compressed as it was made ([`Section::stored`]), which
    /// [`finish`](TableEncoder::finish) takes from the section.
    pub fn store(&self, chunk: usize) -> Vec<u8> {
        let (i, range) = &self.pieces[chunk];
        let section = &self.sections[*i];
        if section.stored.is_some() {
            return Vec::new();
        }
        let decoded = &section.bytes[range.clone()];
        match section.encoding {
            Encoding::Raw => decoded.to_vec(),
            Encoding::Zstd => zstd_chunk(decoded, section.zstd_level),
        }
    }

    /// The file, from every chunk as [`store`](TableEncoder::store) gave it,
    /// in order: its header and chunks, read out as they are written (a
    /// two-player table's gigabytes are never copied into one buffer).
    pub fn finish(&self, stored: Vec<Vec<u8>>) -> TableFile {
        assert_eq!(stored.len(), self.pieces.len(), "every chunk stored");
        let chunks: Vec<(usize, [u8; 32], Part)> = self
            .pieces
            .iter()
            .zip(stored)
            .map(|((i, range), data)| {
                let s = &self.sections[*i];
                match &s.stored {
                    Some((_, chunks)) => {
                        let k = range.start / s.chunk_len;
                        (*i, chunks[k].1, Part::Stored(Arc::clone(chunks), k))
                    }
                    None => (*i, *blake3::hash(&s.bytes[range.clone()]).as_bytes(), Part::Owned(data)),
                }
            })
            .collect();
        assemble(&self.game, &self.params, &self.sections, chunks)
    }
}

/// A table file as [`TableEncoder::finish`] lays it out, to be read (it is
/// [`Read`]) or taken whole ([`TableFile::into_vec`]).
pub struct TableFile {
    parts: std::collections::VecDeque<Part>,
    /// How far into the first part reading has come.
    at: usize,
    len: u64,
}

/// A run of the file's bytes.
enum Part {
    Owned(Vec<u8>),
    /// Chunk `.1` of a section compressed as it was made.
    Stored(Arc<[StoredChunk]>, usize),
    Zeros(usize),
}

impl Part {
    fn len(&self) -> usize {
        match self {
            Part::Owned(v) => v.len(),
            Part::Stored(chunks, k) => chunks[*k].0.len(),
            Part::Zeros(n) => *n,
        }
    }
}

impl TableFile {
    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty (never: it has a header).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The whole file in one buffer.
    pub fn into_vec(mut self) -> Vec<u8> {
        let mut file = Vec::with_capacity(self.len as usize);
        self.read_to_end(&mut file).expect("reading memory does not fail");
        file
    }
}

impl Read for TableFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(part) = self.parts.front() {
            let len = part.len();
            if self.at == len {
                self.parts.pop_front();
                self.at = 0;
                continue;
            }
            let n = buf.len().min(len - self.at);
            match part {
                Part::Owned(v) => buf[..n].copy_from_slice(&v[self.at..self.at + n]),
                Part::Stored(chunks, k) => buf[..n].copy_from_slice(&chunks[*k].0[self.at..self.at + n]),
                Part::Zeros(_) => buf[..n].fill(0),
            }
            self.at += n;
            return Ok(n);
        }
        Ok(0)
    }
}

/// The file from its sections' chunks (each with its section, the blake3
/// of its decoded bytes and its bytes as stored).
fn assemble(
    game: &str,
    params: &[(String, i64)],
    sections: &[Section],
    chunks: Vec<(usize, [u8; 32], Part)>,
) -> TableFile {
    let mut header = Header {
        game: game.to_string(),
        params: params.iter().map(|(name, value)| Param { name: name.clone(), value: *value }).collect(),
        file_len: 0,
        sections: sections
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let entries: Vec<Chunk> = chunks
                    .iter()
                    .filter(|(section, _, _)| *section == i)
                    .map(|(_, hash, data)| Chunk { stored_len: data.len() as u64, blake3: *hash })
                    .collect();
                SectionEntry {
                    name: s.name.clone(),
                    dtype: s.dtype,
                    dims: s.dims.clone(),
                    encoding: s.encoding,
                    offset: 0,
                    stored_len: entries.iter().map(|c| c.stored_len).sum(),
                    chunk_len: if s.decoded_len() == 0 { 0 } else { s.chunk_len as u64 },
                    chunks: entries,
                }
            })
            .collect(),
    };
    // Integers are fixed-width, so the header's length does not depend on the offsets.
    let header_len = encode_header(&header).len();
    let mut cursor = (format::PREAMBLE_LEN + header_len) as u64;
    for entry in &mut header.sections {
        cursor = cursor.next_multiple_of(SECTION_ALIGN);
        entry.offset = cursor;
        cursor += entry.stored_len;
    }
    header.file_len = cursor;
    let header_bytes = encode_header(&header);
    assert_eq!(header_bytes.len(), header_len);

    let mut head = Vec::with_capacity(format::PREAMBLE_LEN + header_len);
    head.extend_from_slice(&format::MAGIC);
    head.extend_from_slice(&format::VERSION.to_le_bytes());
    head.extend_from_slice(&(header_len as u32).to_le_bytes());
    head.extend_from_slice(blake3::hash(&header_bytes).as_bytes());
    head.extend_from_slice(&header_bytes);
    let mut at = head.len() as u64;
    let mut parts = std::collections::VecDeque::from([Part::Owned(head)]);
    // Chunks are in section order: each section's padding, then its chunks.
    let mut chunks = chunks.into_iter().peekable();
    for (i, entry) in header.sections.iter().enumerate() {
        parts.push_back(Part::Zeros((entry.offset - at) as usize));
        at = entry.offset;
        while let Some((_, _, data)) = chunks.next_if(|(section, _, _)| *section == i) {
            at += data.len() as u64;
            parts.push_back(data);
        }
    }
    parts.push_back(Part::Zeros((header.file_len - at) as usize));
    TableFile { parts, at: 0, len: header.file_len }
}

fn encode_header(header: &Header) -> Vec<u8> {
    let bytes = bincode::serde::encode_to_vec(header, format::header_config()).expect("header encodes");
    assert!(bytes.len() <= format::limits::MAX_HEADER_LEN, "header over the format's limit");
    bytes
}

/// Writes everything `contents` yields to `dir/name` so that a reader (or a
/// crash) only ever sees the old file or the whole new one: write a
/// temporary file in the same directory, sync it, rename it over the
/// target, sync the directory. Programs that have the old file mapped keep
/// reading the old inode.
pub fn write_atomically(dir: &Path, name: &str, mut contents: impl Read) -> io::Result<PathBuf> {
    let target = dir.join(name);
    remove_stale_temporaries(dir, name);
    let temp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut file = File::create(&temp)?;
        io::copy(&mut contents, &mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, &target)?;
        // The rename itself is only durable once the directory is synced.
        File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map(|()| target)
}

/// Removes what a killed generator left behind: temporary files for `name`
/// whose writer is no longer running. (A running writer's file is left alone;
/// where process ids cannot be checked, nothing is removed.)
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp.");
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|f| f.strip_prefix(&prefix)) else { continue };
        let proc_dir = Path::new("/proc");
        if pid.parse::<u32>().is_ok() && proc_dir.is_dir() && !proc_dir.join(pid).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}
