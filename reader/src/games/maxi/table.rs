//! The Maxi Yatzy table: every turn-start value (open boxes, upper total,
//! saved rerolls), and the decisions its rounded values would get wrong.
//!
//! One section per count of open boxes (a layer: a turn reads only the
//! layer below its own). In a layer, masks come grouped by their open upper
//! boxes (a group's rows all hold the same totals: [`stored_totals`]), each
//! group's masks in increasing order, packed whole into chunks of
//! [`CHUNK_VALUES`] values. A mask's rows, one per count of saved rerolls,
//! hold its stored totals' values as integers of 1.6e-7 points, each
//! stored as its residual from an extrapolation along the saved counts,
//! as zigzag deltas along the totals: a length byte each, then the bits
//! below each one's leading bit (FORMAT.md has the bytes).

use std::fmt;

use super::{reachable_capped_totals, stored_totals, Rules, BOXES, MOST_UPPER, UPPER_MASK};
use crate::dice::{Dice, FACES};
use crate::error::{ArgumentError, ArgumentErrorKind, TableError};
use crate::format::{read_u16, read_u32, DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};

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
/// Open upper-box sets: bits 0 to 5 of a mask.
const UPPER_SETS: usize = 64;
/// The lower boxes: bits 6 to 19.
const LOWER_BOXES: usize = BOXES.len() - FACES;
/// Layers stored: 1 to 20 boxes open (with none open only the bonus is left).
pub const LAYERS: usize = BOXES.len();

/// A table's rules and the layout they give its sections.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxiParams {
    /// The rules solved.
    pub rules: Rules,
    /// Decisions the stored values would get wrong, listed with the exact one.
    pub exceptions: u64,
    /// Where each group of masks sits.
    pub layout: Layout,
}

/// Where every mask's rows sit: computed from the rules alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    rules: Rules,
    /// Per open upper set, the values a row holds.
    row_values: [u8; UPPER_SETS],
    /// Per layer (open boxes - 1) and open upper set, the group's first
    /// chunk in the layer's section; entry 64 the layer's chunk count.
    first_chunk: Vec<[u32; UPPER_SETS + 1]>,
}

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

/// Binomial coefficient, small arguments.
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The position of `lower` among the numbers with as many bits set, in
/// increasing order (colex rank).
fn colex_rank(mut lower: u32) -> usize {
    let (mut rank, mut t) = (0, 1);
    while lower != 0 {
        rank += choose(lower.trailing_zeros() as usize, t);
        lower &= lower - 1;
        t += 1;
    }
    rank
}

/// The number with `bits` bits set at position `rank` in increasing order.
fn colex_unrank(mut rank: usize, bits: usize) -> u32 {
    let mut out = 0;
    for t in (1..=bits).rev() {
        let mut p = t - 1;
        while choose(p + 1, t) <= rank {
            p += 1;
        }
        rank -= choose(p, t);
        out |= 1 << p;
    }
    out
}

impl Layout {
    /// The layout of a table under `rules`.
    pub fn new(rules: Rules) -> Layout {
        let row_values = std::array::from_fn(|upper_open| {
            let (_, above) = stored_totals(upper_open as u32, rules.bonus_at);
            1 + above.count_ones() as u8
        });
        let mut layout = Layout { rules, row_values, first_chunk: Vec::with_capacity(LAYERS) };
        for open in 1..=LAYERS {
            let mut first = [0u32; UPPER_SETS + 1];
            for upper in 0..UPPER_SETS {
                let masks = layout.group_masks(open, upper);
                first[upper + 1] = first[upper] + masks.div_ceil(layout.masks_per_chunk(open, upper).max(1)) as u32;
            }
            layout.first_chunk.push(first);
        }
        layout
    }

    /// Chunks of the section of masks with `open` boxes open.
    pub fn chunks(&self, open: usize) -> usize {
        self.first_chunk[open - 1][UPPER_SETS] as usize
    }

    /// Masks with `open` boxes open whose open upper boxes are `upper`.
    fn group_masks(&self, open: usize, upper: usize) -> usize {
        let lower = open.wrapping_sub(upper.count_ones() as usize);
        if lower > LOWER_BOXES {
            0
        } else {
            choose(LOWER_BOXES, lower)
        }
    }

    /// Whole masks a chunk of the group holds.
    fn masks_per_chunk(&self, open: usize, upper: usize) -> usize {
        let mask_values = self.rules.saved_counts(open) * usize::from(self.row_values[upper]);
        (CHUNK_VALUES / mask_values).max(1)
    }

    /// Where `mask`'s rows are (a mask with at least one box open).
    pub fn place(&self, mask: u32) -> Place {
        let open = mask.count_ones() as usize;
        let upper = (mask & UPPER_MASK) as usize;
        let rank = colex_rank(mask >> FACES);
        let per_chunk = self.masks_per_chunk(open, upper);
        let in_group = rank / per_chunk;
        let masks = per_chunk.min(self.group_masks(open, upper) - in_group * per_chunk);
        Place {
            section: open - 1,
            chunk: self.first_chunk[open - 1][upper] as usize + in_group,
            position: rank % per_chunk,
            masks,
            rows: self.rules.saved_counts(open),
            values: usize::from(self.row_values[upper]),
        }
    }

    /// The masks of chunk `chunk` of the section of layer `section`, in
    /// order, and their place: what a check of the chunk walks.
    pub fn chunk_masks(&self, section: usize, chunk: usize) -> Option<(Vec<u32>, Place)> {
        let first = self.first_chunk.get(section)?;
        let upper = (0..UPPER_SETS).find(|&u| (first[u]..first[u + 1]).contains(&(chunk as u32)))?;
        let open = section + 1;
        let per_chunk = self.masks_per_chunk(open, upper);
        let in_group = chunk - first[upper] as usize;
        let lower_bits = open - upper.count_ones() as usize;
        let start = in_group * per_chunk;
        let count = per_chunk.min(self.group_masks(open, upper) - start);
        let masks: Vec<u32> =
            (start..start + count).map(|r| colex_unrank(r, lower_bits) << FACES | upper as u32).collect();
        let place = self.place(masks[0]);
        Some((masks, place))
    }
}

/// Exceptions a chunk of the exception sections holds.
pub const EXCEPTIONS_PER_CHUNK: usize = 8192;

/// The first key of each chunk of [`EXCEPTION_KEY`], as (high, low) u32:
/// where a lookup finds the one chunk that may hold its key.
pub const EXCEPTION_INDEX: SectionSpec<MaxiParams> =
    SectionSpec::new(LAYERS, "exception_index", DType::U32, Encoding::Zstd, |p| {
        vec![(p.exceptions as usize).div_ceil(EXCEPTIONS_PER_CHUNK) as u64, 2]
    });
/// The decisions the stored values would get wrong, ascending, two u32
/// each (high, low) of the key ((mask * (bonus_at + 1) + upper) * 41 +
/// rerolls) * 462 + roll rank. (A decision's options do not depend on the
/// rerolls saved before the turn, only on those left: no saved count.)
pub const EXCEPTION_KEY: SectionSpec<MaxiParams> =
    SectionSpec::new(LAYERS + 1, "exception_key", DType::U32, Encoding::Zstd, |p: &MaxiParams| vec![p.exceptions, 2])
        .chunked(EXCEPTIONS_PER_CHUNK as u64 * 8);
/// The exact decision of each exception: a box's mask bit, or 64 plus a
/// partial keep's graded rank.
pub const EXCEPTION_ACTION: SectionSpec<MaxiParams> =
    SectionSpec::new(LAYERS + 2, "exception_action", DType::U16, Encoding::Zstd, |p: &MaxiParams| vec![p.exceptions])
        .chunked(EXCEPTIONS_PER_CHUNK as u64 * 2);
/// The most exceptions a table may list.
pub const MAX_EXCEPTIONS: i64 = 1 << 22;
/// An exception's action code for a partial keep: this plus its graded rank.
pub const KEEP_CODE: u16 = 64;

macro_rules! layers {
    ($($i:literal $name:literal),*) => {
        [$(SectionSpec::new($i, $name, DType::U8, Encoding::Zstd, |p: &MaxiParams| {
            vec![p.layout.chunks($i + 1) as u64, CHUNK_BYTES as u64]
        })
        .chunked(CHUNK_BYTES as u64),)* EXCEPTION_INDEX, EXCEPTION_KEY, EXCEPTION_ACTION]
    };
}

/// The sections: the layers of 1 to 20 open boxes, then the exceptions.
pub const SECTIONS: [SectionSpec<MaxiParams>; LAYERS + 3] = layers!(
    0 "open_1", 1 "open_2", 2 "open_3", 3 "open_4", 4 "open_5", 5 "open_6", 6 "open_7", 7 "open_8",
    8 "open_9", 9 "open_10", 10 "open_11", 11 "open_12", 12 "open_13", 13 "open_14", 14 "open_15",
    15 "open_16", 16 "open_17", 17 "open_18", 18 "open_19", 19 "open_20"
);

/// The most a game can score under `rules`: each box's best roll, and the bonus.
pub fn max_score(rules: &Rules) -> u32 {
    let rolls: Vec<Dice> = (0..super::ROLLS).filter_map(|r| Dice::unrank(super::DICE, r)).collect();
    let boxes: u32 = (0..BOXES.len())
        .map(|b| rolls.iter().map(|d| u32::from(super::points(&d.counts(), b))).max().unwrap_or(0))
        .sum();
    boxes + u32::from(rules.bonus)
}

/// A turn-start state: the open boxes, the upper total (capped at the
/// bonus's), and the rerolls saved from earlier turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaxiState {
    pub(super) mask: u32,
    pub(super) upper: u8,
    pub(super) saved: u8,
}

impl MaxiState {
    /// The open boxes' bits.
    pub fn mask(self) -> u32 {
        self.mask
    }
    /// The upper total, capped at the bonus's threshold.
    pub fn upper(self) -> u8 {
        self.upper
    }
    /// Rerolls saved from earlier turns.
    pub fn saved(self) -> u8 {
        self.saved
    }
}

/// Which rules' table a game id holds by default: `maxi-yatzy` the
/// finnish, `maxi-yatzy-swedish` the swedish. A table holds the rules its
/// header gives (the generator can change each apart); lookups answer under them.
pub trait MaxiPreset: fmt::Debug + Send + Sync + 'static {
    /// The game id, and the table's file name before `.dtab`.
    const ID: &'static str;
    /// The rules the table is solved under unless the generator was told otherwise.
    const RULES: Rules;
}

/// The finnish preset's table, `maxi-yatzy.dtab`.
#[derive(Debug)]
pub struct Finnish;
impl MaxiPreset for Finnish {
    const ID: &'static str = "maxi-yatzy";
    const RULES: Rules = Rules::FINNISH;
}

/// The swedish preset's table, `maxi-yatzy-swedish.dtab`.
#[derive(Debug)]
pub struct Swedish;
impl MaxiPreset for Swedish {
    const ID: &'static str = "maxi-yatzy-swedish";
    const RULES: Rules = Rules::SWEDISH;
}

/// A Maxi Yatzy table (finnish preset).
pub type MaxiYatzy = Maxi<Finnish>;
/// A Maxi Yatzy table (swedish preset).
pub type MaxiYatzySwedish = Maxi<Swedish>;

/// A Maxi Yatzy table: the turn-start values, from which a lookup solves
/// the turn it is asked about.
pub struct Maxi<P: MaxiPreset> {
    t: Checked<Self>,
    max_units: i64,
}

impl<P: MaxiPreset> fmt::Debug for Maxi<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(P::ID).field("t", &self.t).finish_non_exhaustive()
    }
}

/// Why a chunk's bytes decode to no values: a length past [`MAX_BITS`], or
/// bits past the chunk's end.
#[derive(Debug)]
struct Damaged(String);

/// A chunk's values, read in place, one mask after another: each value's
/// length byte, then its bits below the leading one (FORMAT.md).
struct ChunkReader<'a> {
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
    fn new(bytes: &'a [u8], count: usize) -> ChunkReader<'a> {
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
    fn mask_units(&mut self, place: &Place, out: &mut Vec<i64>) -> Result<(), Damaged> {
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
    fn skip_mask(&mut self, place: &Place) -> Result<(), Damaged> {
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
    fn end_bit(&self) -> usize {
        BITS_AT * 8 + self.bit
    }
}

/// The units of the mask at `place`, read from its chunk's bytes.
fn mask_units(bytes: &[u8], place: &Place, out: &mut Vec<i64>) -> Result<(), Damaged> {
    let mut reader = ChunkReader::new(bytes, place.chunk_values());
    for _ in 0..place.position {
        reader.skip_mask(place)?;
    }
    reader.mask_units(place, out)
}

impl<P: MaxiPreset> Game for Maxi<P> {
    const ID: &'static str = P::ID;
    type Params = MaxiParams;
    const SECTIONS: &'static [SectionSpec<MaxiParams>] = &SECTIONS;

    fn params(header: &Header) -> Result<MaxiParams, TableError> {
        let bonus_at = param_in(header, "bonus_at", 1..=i64::from(MOST_UPPER))? as u8;
        let bonus = param_in(header, "bonus", 0..=255)? as u8;
        let saved_rolls = param_in(header, "saved_rolls", 0..=1)? == 1;
        let exceptions = param_in(header, "exceptions", 0..=MAX_EXCEPTIONS)? as u64;
        let rules = Rules { bonus_at, bonus, saved_rolls };
        Ok(MaxiParams { rules, exceptions, layout: Layout::new(rules) })
    }

    fn header_params(params: &MaxiParams) -> Vec<(&'static str, i64)> {
        let r = params.rules;
        vec![
            ("bonus_at", i64::from(r.bonus_at)),
            ("bonus", i64::from(r.bonus)),
            ("saved_rolls", i64::from(r.saved_rolls)),
            ("exceptions", params.exceptions as i64),
        ]
    }

    /// The exceptions' index is ascending (there may be millions of
    /// exceptions: a lookup checks the one it follows, `reader verify` all).
    fn check_contents(t: &Checked<Self>) -> Result<(), TableError> {
        let index = t.whole(&EXCEPTION_INDEX)?;
        for i in 1..index.len() / 8 {
            if read_key(index, i) <= read_key(index, i - 1) {
                return Err(TableError::section(
                    EXCEPTION_INDEX.name,
                    format!("entry {i} is not above the one before"),
                ));
            }
        }
        Ok(())
    }

    /// Every exception ascending, each the first of its chunk where the
    /// index says, each a decision of a state the game can reach, naming
    /// an action that decision has.
    fn check_whole(t: &Checked<Self>) -> Result<(), TableError> {
        let count = t.params().exceptions as usize;
        let rules = t.params().rules;
        let mut previous = None;
        for c in 0..count.div_ceil(EXCEPTIONS_PER_CHUNK) {
            let (keys, actions) = (t.chunk(&EXCEPTION_KEY, c)?, t.chunk(&EXCEPTION_ACTION, c)?);
            for j in 0..actions.len() / 2 {
                let (key, action) = (read_key(keys, j), read_u16(actions, j));
                if previous.is_some_and(|p| key <= p) {
                    let i = c * EXCEPTIONS_PER_CHUNK + j;
                    return Err(TableError::section(
                        EXCEPTION_KEY.name,
                        format!("entry {i} is not above the one before"),
                    ));
                }
                previous = Some(key);
                check_exception(&rules, key, action)?;
            }
            if read_key(t.whole(&EXCEPTION_INDEX)?, c) != read_key(keys, 0) {
                return Err(TableError::section(
                    EXCEPTION_INDEX.name,
                    format!("entry {c} is not chunk {c}'s first key"),
                ));
            }
        }
        Ok(())
    }

    /// Every value decodes to 0 to the most a game can score, and the
    /// chunk's bytes past its values are zero.
    fn check_chunk(params: &MaxiParams, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section >= LAYERS {
            return Ok(());
        }
        let chunk = start as usize / CHUNK_BYTES;
        let name = SECTIONS[section].name;
        let Some((masks, place)) = params.layout.chunk_masks(section, chunk) else {
            return Err(TableError::section(name, format!("has no chunk {chunk}")));
        };
        let damaged = |Damaged(why)| TableError::section(name, format!("chunk {chunk} {why}"));
        let mut reader = ChunkReader::new(bytes, place.chunk_values());
        let max = i64::from(max_score(&params.rules)) * UNITS_PER_POINT as i64;
        let mut units = Vec::new();
        for mask in &masks {
            reader.mask_units(&place, &mut units).map_err(damaged)?;
            if let Some(v) = units.iter().find(|v| !(0..=max).contains(*v)) {
                let why = format!("decodes to {v} units for mask {mask} in chunk {chunk}, outside 0 to {max}");
                return Err(TableError::section(name, why));
            }
        }
        let end = reader.end_bit();
        // Zero between the length bytes and the bits, and from the last bit on.
        let between = &bytes[place.chunk_values()..BITS_AT];
        let last_byte = bytes.get(end / 8).map_or(0, |&b| b >> (end % 8));
        let past = &bytes[end.div_ceil(8)..];
        if between.iter().any(|&b| b != 0) || last_byte != 0 || past.iter().any(|&b| b != 0) {
            return Err(TableError::section(name, format!("chunk {chunk} has bits past its values")));
        }
        Ok(())
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        let max_units = i64::from(max_score(&t.params().rules)) * UNITS_PER_POINT as i64;
        Ok(Maxi { t, max_units })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

/// The decision of an exception's key, in the state with the fewest saved
/// rerolls that has it: `None` for a key of no decision a game can reach.
pub(super) fn decision_of(rules: &Rules, key: u64) -> Option<(MaxiState, Dice, u8)> {
    let (rest, roll) = (key / super::ROLLS as u64, (key % super::ROLLS as u64) as usize);
    let (rest, rerolls) = (rest / 41, (rest % 41) as u8);
    let totals = u64::from(rules.bonus_at) + 1;
    let (mask, upper) = (rest / totals, (rest % totals) as u8);
    let mask = u32::try_from(mask).ok().filter(|&m| m != 0 && m <= super::ALL)?;
    let saved = u32::from(rerolls).saturating_sub(super::REROLLS as u32);
    let state = capped_state(rules, mask, upper, saved)?;
    Some((state, Dice::unrank(super::DICE, roll)?, rerolls))
}

/// The exceptions' key of a decision: `rerolls` left with `dice` in a turn
/// from `state` (its saved rerolls play no part).
pub fn decision_key(rules: &Rules, state: MaxiState, dice: Dice, rerolls: u8) -> u64 {
    let totals = u64::from(rules.bonus_at) + 1;
    let row = u64::from(state.mask) * totals + u64::from(state.upper);
    (row * 41 + u64::from(rerolls)) * super::ROLLS as u64 + dice.rank() as u64
}

/// The state with capped upper total `upper`, if a game reaches it.
pub(super) fn capped_state(rules: &Rules, mask: u32, upper: u8, saved: u32) -> Option<MaxiState> {
    let reachable = reachable_capped_totals(!mask & UPPER_MASK, rules.bonus_at);
    (reachable >> upper & 1 == 1).then_some(())?;
    state(rules, mask, u32::from(upper), saved).ok()
}

/// The state with the boxes of `mask` open, `upper` points in the upper
/// boxes so far and `saved` rerolls saved; an error for a state no game
/// can reach.
pub fn state(rules: &Rules, mask: u32, upper: u32, saved: u32) -> Result<MaxiState, ArgumentError> {
    if mask > super::ALL {
        let (given, max) = (mask.to_string(), super::ALL);
        return Err(ArgumentErrorKind::MaskOutOfRange { given, max, game: Some("maxi-yatzy".into()) }.into());
    }
    let filled = !mask & UPPER_MASK;
    let reachable = reachable_capped_totals(filled, rules.bonus_at);
    let capped = reachable >> rules.bonus_at != 0;
    let most: u32 = (0..FACES as u32).filter(|f| filled >> f & 1 == 1).map(|f| 6 * (f + 1)).sum();
    let made = match upper {
        u if u >= u32::from(rules.bonus_at) => capped && u <= most,
        u => reachable >> u & 1 == 1,
    };
    if !made {
        let names = (0..FACES).filter(|f| filled >> f & 1 == 1).map(|f| BOXES[f].to_string()).collect();
        let highest = (0..=most).rev().find(|&t| reachable >> t.min(127) & 1 == 1).unwrap_or(0);
        let up_to = if capped { most } else { highest };
        let bonus_at = rules.bonus_at;
        return Err(ArgumentErrorKind::MaxiUpperTotal { given: upper, filled: names, bonus_at, up_to, capped }.into());
    }
    let open = mask.count_ones() as usize;
    let max = rules.saved_counts(open) as u32 - 1;
    if saved > max {
        let played = (BOXES.len() - open) as u32;
        return Err(ArgumentErrorKind::SavedRerolls { given: saved, max, played, saving: rules.saved_rolls }.into());
    }
    Ok(MaxiState { mask, upper: upper.min(u32::from(rules.bonus_at)) as u8, saved: saved as u8 })
}

impl<P: MaxiPreset> Maxi<P> {
    /// The rules the table was solved under.
    pub fn rules(&self) -> Rules {
        self.t.params().rules
    }

    /// The state with the boxes of `mask` open, `upper` points in the upper
    /// boxes so far (any total from the bonus's threshold up is one state)
    /// and `saved` rerolls saved from earlier turns (0 without saved
    /// rolls); an error for a state no game can reach.
    pub fn state(&self, mask: u32, upper: u32, saved: u32) -> Result<MaxiState, ArgumentError> {
        state(&self.rules(), mask, upper, saved)
    }

    /// The turn-start values of `mask` for every count of saved rerolls:
    /// `rows()[saved * (bonus_at + 1) + upper]`, every upper total 0 to
    /// `bonus_at` (a total the filled boxes cannot make holds the value of
    /// the stored total below it).
    pub fn mask_values(&self, mask: u32) -> Result<MaskValues, TableError> {
        let rules = self.rules();
        let totals = usize::from(rules.bonus_at) + 1;
        if mask == 0 {
            // Every turn played: the bonus is all that is still to come.
            let mut values = vec![0.0; rules.saved_counts(0) * totals];
            for row in values.chunks_exact_mut(totals) {
                row[totals - 1] = f64::from(rules.bonus);
            }
            return Ok(MaskValues { totals, values });
        }
        let place = self.t.params().layout.place(mask);
        let bytes = self.t.chunk(&SECTIONS[place.section], place.chunk)?;
        let mut units = Vec::with_capacity(place.rows * place.values);
        mask_units(bytes, &place, &mut units).map_err(|Damaged(why)| {
            TableError::section(SECTIONS[place.section].name, format!("chunk {} {why}", place.chunk))
        })?;
        let stored = stored_positions(mask, rules.bonus_at);
        let mut values = Vec::with_capacity(place.rows * totals);
        for row in units.chunks_exact(place.values) {
            values.extend(stored.iter().map(|&k| {
                debug_assert!(row[usize::from(k)] <= self.max_units);
                row[usize::from(k)] as f64 / UNITS_PER_POINT
            }));
        }
        Ok(MaskValues { totals, values })
    }

    /// Expected points still to come at the start of a turn, before the
    /// roll: the upper bonus included, within 8e-8.
    pub fn turn_start_value(&self, state: MaxiState) -> Result<f64, TableError> {
        Ok(self.mask_values(state.mask)?.get(usize::from(state.saved), usize::from(state.upper)))
    }

    /// Every decision the table lists as an exception (where its rounded
    /// values would lead a lookup elsewhere), in the state with the fewest
    /// saved rerolls that has it, with the exact action: for analysis.
    pub fn exceptions(&self) -> Result<Vec<(MaxiState, Dice, u8, super::MaxiAction)>, TableError> {
        let count = self.t.params().exceptions as usize;
        let rules = self.rules();
        let mut out = Vec::with_capacity(count);
        for c in 0..count.div_ceil(EXCEPTIONS_PER_CHUNK) {
            let (keys, actions) = (self.t.chunk(&EXCEPTION_KEY, c)?, self.t.chunk(&EXCEPTION_ACTION, c)?);
            for j in 0..actions.len() / 2 {
                let (key, code) = (read_key(keys, j), read_u16(actions, j));
                let (state, dice, rerolls, action) = check_exception(&rules, key, code)?;
                out.push((state, dice, rerolls, action));
            }
        }
        Ok(out)
    }

    /// The exact decision listed for a decision, if any: found through the
    /// index in the one chunk that may hold it, and checked.
    pub(super) fn exception(&self, key: u64) -> Result<Option<super::MaxiAction>, TableError> {
        if self.t.params().exceptions == 0 {
            return Ok(None);
        }
        let index = self.t.whole(&EXCEPTION_INDEX)?;
        // The last chunk whose first key is at most `key`.
        let c = crate::format::partition_point(index.len() / 8, |i| read_key(index, i) <= key);
        let Some(c) = c.checked_sub(1) else { return Ok(None) };
        let keys = self.t.chunk(&EXCEPTION_KEY, c)?;
        if read_key(keys, 0) != read_key(index, c) {
            return Err(TableError::section(EXCEPTION_INDEX.name, format!("entry {c} is not chunk {c}'s first key")));
        }
        let j = crate::format::partition_point(keys.len() / 8, |j| read_key(keys, j) < key);
        if j < keys.len() / 8 && read_key(keys, j) == key {
            let code = read_u16(self.t.chunk(&EXCEPTION_ACTION, c)?, j);
            return Ok(Some(check_exception(&self.rules(), key, code)?.3));
        }
        Ok(None)
    }
}

/// Key `i` of a list of (high, low) u32 pairs.
fn read_key(bytes: &[u8], i: usize) -> u64 {
    u64::from(read_u32(bytes, 2 * i)) << 32 | u64::from(read_u32(bytes, 2 * i + 1))
}

/// An exception's decision and action, or why the table is bad: its key
/// must be a decision of a state a game reaches, its action one that
/// decision has.
fn check_exception(rules: &Rules, key: u64, code: u16) -> Result<(MaxiState, Dice, u8, super::MaxiAction), TableError> {
    let bad = |why: String| TableError::section(EXCEPTION_KEY.name, format!("key {key} {why}"));
    let (state, dice, rerolls) =
        decision_of(rules, key).ok_or_else(|| bad("is no decision of a state the game can reach".into()))?;
    let action = super::action_of(state, dice, rerolls, code)
        .ok_or_else(|| bad(format!("names action {code}, which that decision does not have")))?;
    Ok((state, dice, rerolls, action))
}

/// Per upper total `0..=bonus_at`, the position among a mask's stored
/// values ([`stored_totals`]) of the one a lookup reads for it: the flat
/// total's for every total up to it, else the total's own (an unreachable
/// total reads the stored one below it; no lookup asks for it).
pub fn stored_positions(mask: u32, bonus_at: u8) -> Vec<u8> {
    let (flat, above) = stored_totals(mask, bonus_at);
    let mut k = 0;
    (0..=usize::from(bonus_at))
        .map(|u| {
            if u > usize::from(flat) && above >> u & 1 == 1 {
                k += 1;
            }
            k
        })
        .collect()
}

/// One mask's turn-start values, every count of saved rerolls and upper total.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskValues {
    totals: usize,
    values: Vec<f64>,
}

impl MaskValues {
    /// Values of `totals` upper totals (`0..=bonus_at`) for each count of
    /// saved rerolls, one after another (the generator's exact ones).
    pub fn new(totals: usize, values: Vec<f64>) -> MaskValues {
        assert!(totals > 0 && values.len().is_multiple_of(totals), "whole rows of totals");
        MaskValues { totals, values }
    }

    /// The value with `saved` rerolls saved and upper total `upper` (capped).
    pub fn get(&self, saved: usize, upper: usize) -> f64 {
        self.values[saved * self.totals + upper.min(self.totals - 1)]
    }

    /// Counts of saved rerolls held.
    pub fn saved_counts(&self) -> usize {
        self.values.len() / self.totals
    }
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
/// half of the chunk reading behind [`Maxi::mask_values`]).
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
    fn the_most_a_game_scores_is_every_box_at_its_best_and_the_bonus() {
        // Upper 6 x 21 = 126; lower 12 + 22 + 30 + 18 + 24 + 30 + 15 + 20 + 21 + 28 + 33 + 34 + 36 + 100 = 423.
        assert_eq!(max_score(&Rules::FINNISH), 549 + 50);
        assert_eq!(max_score(&Rules::SWEDISH), 549 + 100);
    }

    #[test]
    fn colex_ranks_are_positions_in_increasing_order() {
        for bits in 0..=LOWER_BOXES {
            let numbers: Vec<u32> = (0..1u32 << LOWER_BOXES).filter(|n| n.count_ones() as usize == bits).collect();
            assert_eq!(numbers.len(), choose(LOWER_BOXES, bits));
            for (rank, &n) in numbers.iter().enumerate().step_by(7) {
                assert_eq!(colex_rank(n), rank);
                assert_eq!(colex_unrank(rank, bits), n);
            }
        }
    }

    #[test]
    fn every_mask_has_one_place_and_chunks_fit() {
        for rules in [Rules::FINNISH, Rules::SWEDISH] {
            let layout = Layout::new(rules);
            let mut seen = std::collections::HashSet::new();
            for open in 1..=LAYERS {
                for chunk in 0..layout.chunks(open) {
                    let (masks, place) = layout.chunk_masks(open - 1, chunk).expect("a chunk");
                    assert!(place.chunk_values() <= CHUNK_VALUES);
                    for (position, &m) in masks.iter().enumerate() {
                        assert_eq!(m.count_ones() as usize, open);
                        assert_eq!(layout.place(m), Place { position, ..place });
                        assert!(seen.insert(m));
                    }
                }
            }
            assert_eq!(seen.len(), (1 << BOXES.len()) - 1);
        }
    }

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
