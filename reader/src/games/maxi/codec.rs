//! A chunk of a Maxi Yatzy layer's values as bytes, both ways: each value a
//! length byte, then its bits below the leading one, as zigzag deltas of
//! residuals from an extrapolation along the saved counts (FORMAT.md has
//! the bytes). The table's view reads chunks through [`mask_units`]; the
//! generator writes them with [`encode_chunk`].

/// Stored values are whole units of 1.6e-7 points (6,250,000 a point), so
/// each lies within 8e-8 of the exact one.
pub const UNITS_PER_POINT: f64 = 6_250_000.0;
/// The most values a chunk holds.
pub const CHUNK_VALUES: usize = 13_107;
/// The longest a stored delta's zigzag may be, in bits.
pub const MAX_BITS: u32 = 40;
/// Where a chunk's bits start: its length bytes come first, in a 16 KB of
/// their own (zstd then compresses them as a block apart from the bits).
pub const BITS_AT: usize = 1 << 14;
/// Decoded bytes of a chunk of a layer's section: the length bytes, then
/// at most `MAX_BITS - 1` bits of each value, rounded up to 80 KiB.
pub const CHUNK_BYTES: usize = 80 << 10;
const _: () = assert!(CHUNK_VALUES <= BITS_AT);
const _: () = assert!(BITS_AT + (CHUNK_VALUES * (MAX_BITS as usize - 1)).div_ceil(8) <= CHUNK_BYTES);
/// Where a mask's rows are: the chunk, and the chunk's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The layer's section (open boxes - 1).
    pub section: usize,
    /// The chunk in that section.
    pub chunk: usize,
    /// The mask's position among the chunk's masks.
    pub position: usize,
    /// Masks the chunk holds.
    pub masks: usize,
    /// Rows a mask has: one per count of saved rerolls.
    pub rows: usize,
    /// Values a row holds.
    pub values: usize,
}

impl Place {
    /// Values the chunk holds.
    pub fn chunk_values(&self) -> usize {
        self.masks * self.rows * self.values
    }
}

/// Why a chunk's bytes decode to no values: a length past [`MAX_BITS`], or
/// bits past the chunk's end.
#[derive(Debug)]
pub(super) struct Damaged(pub(super) String);

/// A chunk's values, read in place, one mask after another: each value's
/// length byte, then its bits below the leading one (FORMAT.md).
pub(super) struct ChunkReader<'a> {
    bytes: &'a [u8],
    /// Values the chunk holds: its length bytes.
    count: usize,
    /// The next value's length byte.
    next: usize,
    /// The next value's bits: a bit offset from [`BITS_AT`].
    bit: usize,
    /// The lengths of the row before, per stored total.
    above: Vec<u32>,
}

/// A value's length in bits from its length byte: row 0's byte is the
/// length; a later row's is the zigzag of its step from `above`, the length
/// of the same total in the row before. Not checked against [`MAX_BITS`].
#[inline(always)]
fn length_of(byte: u8, first_row: bool, above: u32) -> i32 {
    if first_row {
        i32::from(byte)
    } else {
        above as i32 + (i32::from(byte >> 1) ^ -i32::from(byte & 1))
    }
}

impl<'a> ChunkReader<'a> {
    pub(super) fn new(bytes: &'a [u8], count: usize) -> ChunkReader<'a> {
        ChunkReader { bytes, count, next: 0, bit: 0, above: Vec::new() }
    }

    /// The next value's length in bits, from its length byte and the
    /// length above it (row 0 stores the length itself).
    fn length(&mut self, row: usize, k: usize) -> Result<u32, Damaged> {
        let Some(&byte) = self.bytes.get(self.next).filter(|_| self.next < self.count) else {
            return Err(Damaged(format!("has no length byte {}", self.next)));
        };
        let length = length_of(byte, row == 0, self.above[k]);
        if !(0..=MAX_BITS as i32).contains(&length) {
            return Err(Damaged(format!("gives value {} a length of {length} bits", self.next)));
        }
        self.next += 1;
        self.above[k] = length as u32;
        Ok(length as u32)
    }

    /// The `width` bits at the current bit offset, least significant first.
    fn bits(&mut self, width: u32) -> Result<u64, Damaged> {
        let start = BITS_AT * 8 + self.bit;
        if start + width as usize > self.bytes.len() * 8 {
            return Err(Damaged(format!("ends inside value {}'s bits", self.next - 1)));
        }
        let (byte, shift) = (start / 8, start % 8);
        if let Some(word) = self.bytes.get(byte..byte + 8) {
            // One load: at most 39 bits from a bit offset below 8 fit a u64.
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            self.bit += width as usize;
            return Ok(word >> shift & ((1 << width) - 1));
        }
        let mut out = 0u64;
        let mut got = 0;
        while got < width {
            let at = start + got as usize;
            let take = (8 - at as u32 % 8).min(width - got);
            let byte = u64::from(self.bytes[at / 8] >> (at % 8)) & ((1 << take) - 1);
            out |= byte << got;
            got += take;
        }
        self.bit += width as usize;
        Ok(out)
    }

    /// The next mask's rows in units, `rows x values`: each value is its
    /// prediction from the rows before ([`predicted`]) plus a residual, and
    /// the residuals are stored as deltas along the row's totals.
    pub(super) fn mask_units(&mut self, place: &Place, out: &mut Vec<i64>) -> Result<(), Damaged> {
        let (rows, n) = (place.rows, place.values);
        out.clear();
        self.above.resize(n, 0);
        // Wrapping: a damaged chunk's deltas may add up past i64, and
        // its values are refused by their range afterwards, not by a panic.
        for r in 0..rows {
            let mut residual = 0i64;
            for k in 0..n {
                let length = self.length(r, k)?;
                let zigzag = if length == 0 { 0 } else { 1 << (length - 1) | self.bits(length - 1)? };
                let delta = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
                residual = residual.wrapping_add(delta);
                out.push(predicted(out, r, k, n).wrapping_add(residual));
            }
        }
        Ok(())
    }

    /// Passes over the next mask's values, reading their lengths only (a
    /// lookup passes over every mask before its own in the chunk: the
    /// rows' loops are branch-free, so they run in vector lanes).
    pub(super) fn skip_mask(&mut self, place: &Place) -> Result<(), Damaged> {
        let (n, first) = (place.values, self.next);
        let end = first + place.rows * n;
        let Some(bytes) = self.bytes.get(first..end).filter(|_| end <= self.count) else {
            return Err(Damaged(format!("has no length byte {}", self.count.min(self.bytes.len()))));
        };
        self.above.resize(n, 0);
        let above = &mut self.above[..n];
        let (mut bits, mut outside) = (0usize, false);
        for (r, row) in bytes.chunks_exact(n).enumerate() {
            for (a, &byte) in above.iter_mut().zip(row) {
                let length = length_of(byte, r == 0, *a);
                outside |= !(0..=MAX_BITS as i32).contains(&length);
                *a = length.clamp(0, MAX_BITS as i32) as u32;
                bits += length.clamp(1, MAX_BITS as i32) as usize - 1;
            }
        }
        if outside {
            return Err(Damaged(format!("gives one of values {first} to {} a length past {MAX_BITS} bits", end - 1)));
        }
        self.next = end;
        self.bit += bits;
        if self.end_bit() > self.bytes.len() * 8 {
            return Err(Damaged(format!("ends inside value {}'s bits", end - 1)));
        }
        Ok(())
    }

    /// Where the values' bits end: the first bit past them.
    pub(super) fn end_bit(&self) -> usize {
        BITS_AT * 8 + self.bit
    }
}

/// The units of the mask at `place`, read from its chunk's bytes.
pub(super) fn mask_units(bytes: &[u8], place: &Place, out: &mut Vec<i64>) -> Result<(), Damaged> {
    let mut reader = ChunkReader::new(bytes, place.chunk_values());
    for _ in 0..place.position {
        reader.skip_mask(place)?;
    }
    reader.mask_units(place, out)
}

/// The prediction of a mask's value in row `r` (saved count) at stored
/// total `k` from the rows before it in `units` (`n` values a row): none
/// for row 0, then the row before, then linear, then quadratic
/// extrapolation along the saved counts (a value rises smoothly, by less
/// and less, with each reroll saved, so the third difference is small).
fn predicted(units: &[i64], r: usize, k: usize, n: usize) -> i64 {
    let at = |back: usize| units[(r - back) * n + k];
    // Wrapping, as a damaged chunk's values may be anything (valid ones
    // are at most 2^33, far from overflow).
    match r {
        0 => 0,
        1 => at(1),
        2 => at(1).wrapping_mul(2).wrapping_sub(at(2)),
        _ => at(1).wrapping_sub(at(2)).wrapping_mul(3).wrapping_add(at(3)),
    }
}

/// Encodes one chunk of a layer's section: `rows(position)` gives each of
/// its masks' rows in units, `place.rows x place.values` (the generator's
/// half of the chunk reading behind [`Maxi::mask_values`](super::Maxi::mask_values)).
pub fn encode_chunk(place: &Place, mut rows: impl FnMut(usize) -> Vec<i64>) -> Vec<u8> {
    let n = place.values;
    let mut out = vec![0u8; CHUNK_BYTES];
    let (mut at, mut bit) = (0, BITS_AT * 8);
    let mut above = vec![0u32; n];
    for position in 0..place.masks {
        let units = rows(position);
        assert_eq!(units.len(), place.rows * n, "a mask's rows");
        for r in 0..place.rows {
            let mut before = 0i64;
            for k in 0..n {
                let residual = units[r * n + k] - predicted(&units, r, k, n);
                let delta = residual - before;
                before = residual;
                let zigzag = ((delta << 1) ^ (delta >> 63)) as u64;
                let length = u64::BITS - zigzag.leading_zeros();
                assert!(length <= MAX_BITS, "a delta fits MAX_BITS");
                out[at] = if r == 0 {
                    length as u8
                } else {
                    let d = length as i8 - above[k] as i8;
                    ((d << 1) ^ (d >> 7)) as u8
                };
                above[k] = length;
                at += 1;
                let (mut rest, mut width) = (zigzag, length.saturating_sub(1) as usize);
                while width > 0 {
                    let take = (8 - bit % 8).min(width);
                    out[bit / 8] |= ((rest & ((1 << take) - 1)) << (bit % 8)) as u8;
                    (rest, bit, width) = (rest >> take, bit + take, width - take);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_decode_what_was_encoded() {
        let place = Place { section: 0, chunk: 0, position: 0, masks: 3, rows: 4, values: 5 };
        let rows = |p: usize| (0..20).map(|i| (p as i64 * 1000 + i * i * 37) % 4_000_000_000).collect::<Vec<i64>>();
        let bytes = encode_chunk(&place, rows);
        let mut out = Vec::new();
        for p in 0..3 {
            mask_units(&bytes, &Place { position: p, ..place }, &mut out).expect("a chunk's values");
            assert_eq!(out, rows(p));
        }
    }

    #[test]
    fn damaged_chunks_decode_to_errors_not_panics() {
        let place = Place { section: 0, chunk: 0, position: 1, masks: 2, rows: 3, values: 4 };
        let rows = |p: usize| (0..12).map(|i| p as i64 * 77 + i * 1_000_003).collect::<Vec<i64>>();
        let good = encode_chunk(&place, rows);
        let mut out = Vec::new();
        // A length past MAX_BITS, in row 0 and as a step from the row above.
        for (at, byte) in [(0, 41u8), (4, 200), (23, 255)] {
            let mut bad = good.clone();
            bad[at] = byte;
            assert!(mask_units(&bad, &place, &mut out).is_err(), "byte {at} = {byte}");
        }
        // Lengths whose bits run past the chunk's end.
        let mut bad = good[..BITS_AT + 2].to_vec();
        bad[..place.chunk_values()].fill(0);
        bad[..place.values].fill(40);
        assert!(mask_units(&bad, &place, &mut out).is_err());
    }
}
