//! Chances by lead, as the two-player sheet tables (`yazy-duel`, a rule
//! set's `NAME-duel`) store them: per pair of sheets, the mover's chance
//! at each lead, lowest lead first, never falling as the lead grows. A
//! chance is `q / UNITS`; each `q` is stored as the zigzag code of its
//! third difference (the change in the bend: the rise from the value
//! before less the rise before that is the bend; all taken as 0 at a
//! pair's first value and at a chunk's), wrapped to 24 bits, three bytes
//! a value, as three planes of each chunk. See FORMAT.md.

use crate::error::TableError;

/// A stored chance is `q / UNITS`, `q` in `0..=UNITS` (within 6.2e-8 of exact).
pub const UNITS: u32 = (1 << 23) - 1;
/// Bytes per stored value, stored as that many planes per chunk.
pub const PLANES: usize = 3;
/// Stored values per chunk.
pub const VALUE_CHUNK: usize = 32768;
/// The name of the section that holds them.
pub const SECTION: &str = "v";

/// The difference of the differences whose change a value stores: see
/// [`decode_segment`]. A table's header says it (`differences`), so that a
/// file coded otherwise is refused, not misread.
pub const DIFFERENCES: i64 = 3;

/// Checks a header's `differences` is [`DIFFERENCES`]: a table whose
/// values are coded otherwise (an older generator's) is refused whole.
pub(crate) fn check_differences(header: &crate::format::Header) -> Result<(), TableError> {
    check_differences_are(header, DIFFERENCES)
}

/// Checks a header's `differences` is `want` (how many times the stored
/// values were differenced), refusing a table coded otherwise in one line.
pub(crate) fn check_differences_are(header: &crate::format::Header, want: i64) -> Result<(), TableError> {
    match header.param("differences") {
        Some(found) if found == want => Ok(()),
        found => {
            let found = found.map_or("missing".to_string(), |d| format!("{d}"));
            let why = format!("is {found}, not {want}: the values are coded otherwise (write the table again)");
            Err(crate::error::TableErrorKind::BadParam { name: "differences", why }.into())
        }
    }
}

/// `x` wrapped into `-2^23 .. 2^23`: a bend lies there, so the change in
/// it that a value stores is taken modulo 2^24, whatever its size.
#[inline(always)]
pub fn wrap24(x: i64) -> i64 {
    ((x + (1 << 23)) & ((1 << 24) - 1)) - (1 << 23)
}

/// Decodes the values at `lo..hi` of a chunk (positions within it), where
/// `lo` begins a pair or the chunk: a stored value is `q / UNITS`, each
/// `q` the last plus a rise, each rise the last plus a bend, each bend
/// the last plus the zigzag-coded three-byte number in the chunk's planes,
/// wrapped into `-2^23 .. 2^23` ([`wrap24`]) (all taken as 0 before
/// `lo`). An error where a rise is negative (a value falling as the lead
/// grows) or a `q` exceeds `UNITS`; so every rise, bend and `q` stays
/// within 2^24 of 0.
pub fn decode_segment(chunk: &[u8], lo: usize, hi: usize, mut each: impl FnMut(u32)) -> Result<(), TableError> {
    let len = chunk.len() / PLANES;
    let (mut q, mut rise, mut bend) = (0i64, 0i64, 0i64);
    for j in lo..hi {
        let z = (0..PLANES).fold(0i64, |z, b| z | i64::from(chunk[b * len + j]) << (8 * b));
        bend = wrap24(bend + ((z >> 1) ^ -(z & 1)));
        rise += bend;
        q += rise;
        if rise < 0 || q > i64::from(UNITS) {
            let why = format!("decodes a value falling with the lead or above 1 at {j} of a chunk");
            return Err(TableError::section(SECTION, why));
        }
        each(q as u32);
    }
    Ok(())
}
