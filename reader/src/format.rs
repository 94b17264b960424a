//! The container format shared by every game: a fixed preamble, a checksummed
//! header, then 64-byte-aligned sections. `FORMAT.md` is the byte-level
//! specification; this module is its reference implementation.
//!
//! Nothing in a file is trusted before it is checked: the header length is
//! bounded before the header is read, every count in the header is bounded
//! before anything is allocated for it, section sizes must agree with the
//! game's own dimensions before anything is decompressed, and every chunk's
//! blake3 is verified before any of its bytes is used.

use serde::{Deserialize, Serialize};

use crate::error::{TableError, TableErrorKind};
use crate::zstd_frame::FrameError;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DICETBL\0";
/// The format version this reader reads and the generator writes.
pub const VERSION: u32 = 2;
/// Bytes before the header: magic, version, header length, header blake3.
pub const PREAMBLE_LEN: usize = 48;
/// Every section starts at a multiple of this, counted from the file's start,
/// so raw sections can be used in place from a memory map.
pub const SECTION_ALIGN: u64 = 64;

/// Hard limits, checked before any length read from a file is trusted.
pub mod limits {
    /// The encoded header.
    pub const MAX_HEADER_LEN: usize = 8 << 20;
    /// Bytes of a game id, a parameter name or a section name.
    pub const MAX_NAME_LEN: usize = 64;
    /// Rules parameters.
    pub const MAX_PARAMS: usize = 16;
    /// Sections.
    pub const MAX_SECTIONS: usize = 32;
    /// Dimensions of one section.
    pub const MAX_DIMS: usize = 8;
    /// Decoded bytes of one section (the game's own dimensions bound it
    /// further; in one chunk, [`MAX_WHOLE_BYTES`]).
    pub const MAX_SECTION_BYTES: u64 = 1 << 36;
    /// Decoded bytes of a section in one chunk (decoded into one buffer).
    pub const MAX_WHOLE_BYTES: u64 = 1 << 32;
    /// Chunks of one section.
    pub const MAX_CHUNKS: usize = 1 << 18;
    /// Decoded bytes of one chunk of a section of several.
    pub const MAX_CHUNK_BYTES: u64 = 1 << 24;
}

/// The type of a section's elements, all little-endian.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    /// Unsigned 8-bit integers (variant 0).
    U8,
    /// Unsigned 16-bit integers (variant 1).
    U16,
    /// Unsigned 32-bit integers (variant 2).
    U32,
    /// IEEE 754 binary32 (variant 3).
    F32,
    /// IEEE 754 binary64 (variant 4).
    F64,
}

impl DType {
    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            DType::U8 => 1,
            DType::U16 => 2,
            DType::U32 | DType::F32 => 4,
            DType::F64 => 8,
        }
    }

    /// The name used in `reader info` and the spec.
    pub fn name(self) -> &'static str {
        match self {
            DType::U8 => "u8",
            DType::U16 => "u16",
            DType::U32 => "u32",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }
}

/// How a section's bytes are stored in the file.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// The decoded bytes themselves (variant 0).
    Raw,
    /// One zstd frame that decodes to exactly the decoded length (variant 1).
    Zstd,
}

impl Encoding {
    /// The name used in `reader info` and the spec.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Raw => "raw",
            Encoding::Zstd => "zstd",
        }
    }
}

/// One rules parameter of the game, such as the number of rerolls.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The parameter's name.
    pub name: String,
    /// Its value.
    pub value: i64,
}

/// One entry of the section directory.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SectionEntry {
    /// The section's name, unique within the file.
    pub name: String,
    /// The element type.
    pub dtype: DType,
    /// Dimensions, outermost first (row-major).
    pub dims: Vec<u64>,
    /// How the bytes are stored.
    pub encoding: Encoding,
    /// Where the stored bytes start, from the start of the file.
    pub offset: u64,
    /// How many bytes are stored: every chunk's, one after another.
    pub stored_len: u64,
    /// Decoded bytes per chunk, a multiple of the element size (the last
    /// chunk may be shorter); 0 for an empty section.
    pub chunk_len: u64,
    /// The chunks, in order: each decodes on its own.
    pub chunks: Vec<Chunk>,
}

/// One independently stored and checksummed piece of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// How many bytes are stored.
    pub stored_len: u64,
    /// blake3 of the decoded bytes.
    pub blake3: [u8; 32],
}

// A chunk entry is 40 bytes: `stored_len` (u64 LE), then the 32 bytes of its
// blake3. Under the header's fixed-width little-endian integers those are
// five u64s, so they are read and written as a tuple of five (the same
// bytes as the two fields with the hash byte by byte; a table's header can
// list thousands of chunks, and five reads an entry instead of 33 keep
// opening a big table fast).
impl Serialize for Chunk {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeTuple;
        let mut t = serializer.serialize_tuple(5)?;
        t.serialize_element(&self.stored_len)?;
        for word in self.blake3.chunks_exact(8) {
            t.serialize_element(&u64::from_le_bytes(word.try_into().expect("8 bytes")))?;
        }
        t.end()
    }
}

impl<'de> Deserialize<'de> for Chunk {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Chunk, D::Error> {
        struct Entry;
        impl<'de> serde::de::Visitor<'de> for Entry {
            type Value = Chunk;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a chunk entry: stored length and blake3")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Chunk, A::Error> {
                let mut next = || -> Result<u64, A::Error> {
                    seq.next_element()?.ok_or_else(|| serde::de::Error::custom("a chunk entry is cut short"))
                };
                let stored_len = next()?;
                let mut blake3 = [0u8; 32];
                for word in blake3.chunks_exact_mut(8) {
                    word.copy_from_slice(&next()?.to_le_bytes());
                }
                Ok(Chunk { stored_len, blake3 })
            }
        }
        deserializer.deserialize_tuple(5, Entry)
    }
}

impl SectionEntry {
    /// Elements in the section; `None` when the product overflows.
    pub fn element_count(&self) -> Option<u64> {
        self.dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d))
    }

    /// Bytes once decoded; `None` when it overflows.
    pub fn decoded_len(&self) -> Option<u64> {
        self.element_count()?.checked_mul(self.dtype.size())
    }

    /// Where chunk `c` starts in the decoded bytes, and its decoded length
    /// (for a directory that passed [`parse_header`]).
    pub fn chunk_span(&self, c: usize) -> (u64, u64) {
        let start = c as u64 * self.chunk_len;
        let decoded = self.decoded_len().unwrap_or(0);
        (start, self.chunk_len.min(decoded.saturating_sub(start)))
    }
}

/// The header: what the file holds and where.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game id, such as `yazy`.
    pub game: String,
    /// The rules parameters the table was solved for.
    pub params: Vec<Param>,
    /// The length of the whole file; anything else is refused.
    pub file_len: u64,
    /// The section directory, in ascending order of offset.
    pub sections: Vec<SectionEntry>,
}

impl Header {
    /// The value of a rules parameter.
    pub fn param(&self, name: &str) -> Option<i64> {
        self.params.iter().find(|p| p.name == name).map(|p| p.value)
    }

    /// The directory entry of a section.
    pub fn section(&self, name: &str) -> Option<&SectionEntry> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// The bincode configuration of the header: little-endian, fixed-width
/// integers (so lengths are u64, enum tags u32), at most
/// [`limits::MAX_HEADER_LEN`] bytes. `FORMAT.md` spells out the bytes.
pub fn header_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<{ limits::MAX_HEADER_LEN }>()
}

/// Reads and checks the preamble and header of a file. Checks everything that
/// does not need the game's own rules: magic, version, lengths, the header's
/// checksum, limits, and that every section lies inside the file, aligned, in
/// order, with zero padding between.
pub fn parse_header(file: &[u8]) -> Result<Header, TableError> {
    let (header, header_end) = decode_header(file, file.len() as u64)?;
    check_header(&header, file.len() as u64, Some(file), header_end as u64)?;
    Ok(header)
}

/// [`parse_header`] of a file of `file_len` bytes from its first bytes
/// alone (at least through the header): every check but the zero padding
/// between sections, bytes a reader of pieces never fetches.
pub(crate) fn parse_header_prefix(prefix: &[u8], file_len: u64) -> Result<Header, TableError> {
    let (header, header_end) = decode_header(prefix, file_len)?;
    check_header(&header, file_len, None, header_end as u64)?;
    Ok(header)
}

/// Where the header of a file of `file_len` bytes ends, from its preamble
/// (the first [`PREAMBLE_LEN`] bytes): magic, version and the header's
/// length checked.
pub(crate) fn header_end(preamble: &[u8], file_len: u64) -> Result<usize, TableError> {
    decode_preamble(preamble, file_len).map(|(_, end)| end)
}

/// Checks a file's preamble and header from its first bytes alone, its
/// length `file_len` against the header's: what reading the rest of a file
/// needs to know first.
pub(crate) fn check_prefix(prefix: &[u8], file_len: u64) -> Result<(), TableError> {
    let (header, _) = decode_header(prefix, file_len)?;
    check_file_len(&header, file_len)
}

/// Magic, version and the header's length, from the first bytes of a file
/// of `file_len` bytes; returns the header's length and where it ends.
fn decode_preamble(file: &[u8], file_len: u64) -> Result<(usize, usize), TableError> {
    if file.len() < PREAMBLE_LEN {
        return Err(TableErrorKind::Truncated { len: file.len() as u64, needed: PREAMBLE_LEN as u64 }.into());
    }
    if file[0..8] != MAGIC {
        return Err(TableErrorKind::BadMagic.into());
    }
    let version = u32::from_le_bytes(file[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TableErrorKind::UnsupportedVersion { found: version, supported: VERSION }.into());
    }
    let header_len = u32::from_le_bytes(file[12..16].try_into().expect("4 bytes")) as usize;
    if header_len > limits::MAX_HEADER_LEN {
        return Err(TableErrorKind::Limit {
            what: "header length",
            value: header_len as u64,
            max: limits::MAX_HEADER_LEN as u64,
        }
        .into());
    }
    let header_end = PREAMBLE_LEN + header_len;
    if file_len < header_end as u64 {
        return Err(TableErrorKind::Truncated { len: file_len, needed: header_end as u64 }.into());
    }
    Ok((header_len, header_end))
}

/// The preamble and the header decoded from the first bytes of a file of
/// `file_len` bytes (its checksum checked, nothing past it read).
fn decode_header(file: &[u8], file_len: u64) -> Result<(Header, usize), TableError> {
    let (header_len, header_end) = decode_preamble(file, file_len)?;
    if file.len() < header_end {
        return Err(TableErrorKind::Truncated { len: file.len() as u64, needed: header_end as u64 }.into());
    }
    let header_bytes = &file[PREAMBLE_LEN..header_end];
    if blake3::hash(header_bytes).as_bytes() != &file[16..48] {
        return Err(TableErrorKind::HeaderChecksum.into());
    }
    let (header, used): (Header, usize) =
        bincode::serde::decode_from_slice(header_bytes, header_config()).map_err(TableErrorKind::HeaderDecode)?;
    if used != header_len {
        return Err(TableErrorKind::BadHeader(format!("{} stray bytes after the header", header_len - used)).into());
    }
    Ok((header, header_end))
}

/// The file's length against the header's.
fn check_file_len(header: &Header, len: u64) -> Result<(), TableError> {
    if header.file_len != len {
        return Err(if len < header.file_len {
            TableErrorKind::Truncated { len, needed: header.file_len }
        } else {
            TableErrorKind::TrailingBytes { len, expected: header.file_len }
        }
        .into());
    }
    Ok(())
}

fn check_name(what: &'static str, name: &str) -> Result<(), TableError> {
    if name.is_empty() || name.len() > limits::MAX_NAME_LEN || !name.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(TableErrorKind::BadHeader(format!(
            "{what} {name:?} is not 1 to {} printable ASCII characters",
            limits::MAX_NAME_LEN
        ))
        .into());
    }
    Ok(())
}

/// A count from the header, held to its hard limit.
fn check_count(what: &'static str, count: usize, max: usize) -> Result<(), TableError> {
    if count > max {
        return Err(TableErrorKind::Limit { what, value: count as u64, max: max as u64 }.into());
    }
    Ok(())
}

/// The chunk list of a section: `chunk_len` a multiple of the element size,
/// as many chunks as it takes to cover the decoded bytes (none for an empty
/// section), raw chunks as long as they decode, the stored lengths adding
/// up to the section's.
fn check_chunks(s: &SectionEntry, decoded: u64) -> Result<(), TableError> {
    let bad = |why: String| Err(TableError::section(&s.name, why));
    check_count("chunk count", s.chunks.len(), limits::MAX_CHUNKS)?;
    if s.chunks.len() > 1 && s.chunk_len > limits::MAX_CHUNK_BYTES {
        let max = limits::MAX_CHUNK_BYTES;
        return bad(format!(
            "has chunks of {} bytes, more than {max} (the most a chunk of several may hold)",
            s.chunk_len
        ));
    }
    let count = if decoded == 0 {
        (s.chunk_len == 0).then_some(0)
    } else {
        (s.chunk_len > 0 && s.chunk_len.is_multiple_of(s.dtype.size())).then(|| decoded.div_ceil(s.chunk_len))
    };
    if count != Some(s.chunks.len() as u64) {
        return bad(format!(
            "has {} chunks of {} bytes, which do not cover its {decoded} bytes in whole elements",
            s.chunks.len(),
            s.chunk_len
        ));
    }
    let mut stored = 0u64;
    for (c, chunk) in s.chunks.iter().enumerate() {
        let (_, len) = s.chunk_span(c);
        if s.encoding == Encoding::Raw && chunk.stored_len != len {
            return bad(format!("is raw but chunk {c} stores {} bytes for {len} decoded", chunk.stored_len));
        }
        stored = stored.checked_add(chunk.stored_len).ok_or_else(|| TableError::section(&s.name, "overflows"))?;
    }
    if stored != s.stored_len {
        return bad(format!("stores {} bytes, but its chunks add up to {stored}", s.stored_len));
    }
    Ok(())
}

/// The header's own checks against a file of `len` bytes; the padding
/// between sections too when the whole `file` is given.
fn check_header(header: &Header, len: u64, file: Option<&[u8]>, header_end: u64) -> Result<(), TableError> {
    check_file_len(header, len)?;
    check_name("game id", &header.game)?;
    check_count("parameter count", header.params.len(), limits::MAX_PARAMS)?;
    for p in &header.params {
        check_name("parameter name", &p.name)?;
    }
    check_count("section count", header.sections.len(), limits::MAX_SECTIONS)?;
    let mut cursor = header_end;
    for s in &header.sections {
        check_name("section name", &s.name)?;
        if s.dims.is_empty() || s.dims.len() > limits::MAX_DIMS {
            return Err(TableError::section(
                &s.name,
                format!("has {} dimensions, not 1 to {}", s.dims.len(), limits::MAX_DIMS),
            ));
        }
        // A section in one chunk decodes into one buffer; none may be
        // larger than the platform addresses (WebAssembly's 4 GiB).
        let most = if s.chunks.len() > 1 { limits::MAX_SECTION_BYTES } else { limits::MAX_WHOLE_BYTES };
        let most = most.min(usize::MAX as u64);
        let decoded = s
            .decoded_len()
            .filter(|&n| n <= most)
            .ok_or_else(|| TableError::section(&s.name, format!("declares more than {most} bytes")))?;
        check_chunks(s, decoded)?;
        if s.offset % SECTION_ALIGN != 0 || s.offset < cursor {
            return Err(TableError::section(
                &s.name,
                format!("starts at {}, not a multiple of {SECTION_ALIGN} at or after byte {cursor}", s.offset),
            ));
        }
        let end = s
            .offset
            .checked_add(s.stored_len)
            .filter(|&e| e <= len)
            .ok_or_else(|| TableError::section(&s.name, format!("runs past the end of the {len}-byte file")))?;
        if file.is_some_and(|file| file[cursor as usize..s.offset as usize].iter().any(|&b| b != 0)) {
            return Err(TableError::section(&s.name, "is preceded by non-zero padding"));
        }
        cursor = end;
    }
    if cursor != len {
        return Err(TableErrorKind::TrailingBytes { len, expected: cursor }.into());
    }
    if header.sections.iter().enumerate().any(|(i, s)| header.sections[..i].iter().any(|t| t.name == s.name)) {
        return Err(TableErrorKind::BadHeader("two sections have the same name".into()).into());
    }
    Ok(())
}

/// Decodes chunk `c` of a section from its `stored` bytes, checking its
/// length and blake3: a raw chunk is its stored bytes (`None`); a zstd one
/// is decompressed into a buffer of exactly the declared size (never more).
pub(crate) fn decode_chunk(stored: &[u8], s: &SectionEntry, c: usize) -> Result<Option<Box<[u8]>>, TableError> {
    let owned = match s.encoding {
        Encoding::Raw => None,
        Encoding::Zstd => {
            // Into spare capacity: zeroing first would cost a pass over every chunk.
            let mut out = Vec::with_capacity(s.chunk_span(c).1 as usize);
            let n = crate::zstd_frame::decode_to_vec(stored, &mut out);
            check_decoded(n, s, c)?;
            Some(out.into_boxed_slice())
        }
    };
    verify_chunk(owned.as_deref().unwrap_or(stored), s, c)?;
    Ok(owned)
}

/// [`decode_chunk`] of a zstd chunk into `out`, exactly its decoded length.
pub(crate) fn decode_chunk_into(stored: &[u8], s: &SectionEntry, c: usize, out: &mut [u8]) -> Result<(), TableError> {
    if s.encoding != Encoding::Zstd || out.len() as u64 != s.chunk_span(c).1 {
        return Err(TableError::section(&s.name, format!("chunk {c} is not a zstd chunk of {} bytes", out.len())));
    }
    check_decoded(crate::zstd_frame::decode_to_slice(stored, out), s, c)?;
    verify_chunk(out, s, c)
}

/// Refuses a zstd chunk that was not one frame of exactly the declared
/// decoded length (nothing, not even an empty frame, after it).
fn check_decoded(decoded: Result<usize, FrameError>, s: &SectionEntry, c: usize) -> Result<(), TableError> {
    let decoded_len = s.chunk_span(c).1 as usize;
    let why = match decoded {
        Ok(n) if n == decoded_len => return Ok(()),
        Ok(n) => format!("chunk {c} decompresses to {n} bytes, not {decoded_len}"),
        Err(FrameError::NotAFrame) => format!("chunk {c} is not a zstd frame"),
        Err(FrameError::Trailing(n)) => format!("chunk {c} has {n} bytes after its zstd frame: a chunk is one frame"),
        Err(FrameError::Decode(e)) => format!("chunk {c} does not decompress: {e}"),
    };
    Err(TableError::section(&s.name, why))
}

/// Checks a chunk's decoded bytes against its blake3.
fn verify_chunk(bytes: &[u8], s: &SectionEntry, c: usize) -> Result<(), TableError> {
    if blake3::hash(bytes).as_bytes() != &s.chunks[c].blake3 {
        return Err(TableErrorKind::SectionChecksum { name: format!("{} (chunk {c})", s.name) }.into());
    }
    Ok(())
}

/// Element `i` of a little-endian u16 section.
pub(crate) fn read_u16(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes(bytes[i * 2..i * 2 + 2].try_into().expect("2 bytes"))
}

/// Element `i` of a little-endian u32 section.
pub(crate) fn read_u32(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().expect("4 bytes"))
}

/// Element `i` of a little-endian f64 section.
pub(crate) fn read_f64(bytes: &[u8], i: usize) -> f64 {
    f64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
}

/// The first index in `0..count` where `below` is false (it is true then
/// false): a binary search over a sorted section read element by element.
pub(crate) fn partition_point(count: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    //! The preamble and header checks on files written here by hand (no
    //! sections, so nothing is decompressed): small enough for Miri
    //! (`make miri`).
    use super::*;

    fn header(game: &str, params: usize) -> Header {
        let params = (0..params).map(|i| Param { name: format!("p{i}"), value: i as i64 }).collect();
        Header { game: game.to_string(), params, file_len: 0, sections: Vec::new() }
    }

    /// A whole file: preamble, then `header` with its `file_len` set.
    fn file(mut header: Header) -> Vec<u8> {
        let len = |h: &Header| bincode::serde::encode_to_vec(h, header_config()).expect("encodes").len();
        header.file_len = (PREAMBLE_LEN + len(&header)) as u64;
        let bytes = bincode::serde::encode_to_vec(&header, header_config()).expect("encodes");
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(blake3::hash(&bytes).as_bytes());
        out.extend_from_slice(&bytes);
        out
    }

    fn refusal(bytes: &[u8]) -> TableError {
        match parse_header(bytes) {
            Ok(h) => panic!("{h:?} parsed"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_well_formed_header_reads_back() {
        let bytes = file(header("yazy", 2));
        let parsed = parse_header(&bytes).expect("a valid header");
        assert_eq!(parsed.game, "yazy");
        assert_eq!(parsed.param("p1"), Some(1));
        assert_eq!(parsed.file_len, bytes.len() as u64);
        assert_eq!(parse_header_prefix(&bytes, bytes.len() as u64).unwrap(), parsed);
    }

    #[test]
    fn damaged_preambles_are_refused_before_the_header_is_read() {
        let good = file(header("yazy", 1));
        assert!(matches!(refusal(&good[..PREAMBLE_LEN - 1]).kind(), TableErrorKind::Truncated { .. }));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(matches!(refusal(&bad).kind(), TableErrorKind::BadMagic));
        let mut bad = good.clone();
        bad[8] = 9;
        assert!(matches!(refusal(&bad).kind(), TableErrorKind::UnsupportedVersion { found: 9, .. }));
        // A header length past the limit, refused without reading (or
        // allocating) that many bytes.
        let mut bad = good.clone();
        bad[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(refusal(&bad).kind(), TableErrorKind::Limit { what: "header length", .. }));
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(matches!(refusal(&bad).kind(), TableErrorKind::HeaderChecksum));
    }

    #[test]
    fn lengths_and_counts_are_held_to_the_limits() {
        let good = file(header("yazy", 0));
        assert!(matches!(refusal(&good[..good.len() - 1]).kind(), TableErrorKind::Truncated { .. }));
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(refusal(&long).kind(), TableErrorKind::TrailingBytes { .. }));
        let many = file(header("yazy", limits::MAX_PARAMS + 1));
        assert!(matches!(refusal(&many).kind(), TableErrorKind::Limit { what: "parameter count", .. }));
        let long_name = file(header(&"y".repeat(limits::MAX_NAME_LEN + 1), 0));
        assert!(parse_header(&long_name).is_err(), "a game id past the limit");
    }
}
