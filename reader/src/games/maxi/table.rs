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

use super::codec::{mask_units, ChunkReader, Damaged, BITS_AT, CHUNK_BYTES, UNITS_PER_POINT};
use super::layout::{Layout, LAYERS};
use super::rules::{reachable_capped_totals, stored_totals, Rules, BOXES, DICE, MOST_UPPER, UPPER_MASK};
use crate::dice::{Dice, FACES};
use crate::error::{ArgumentError, ArgumentErrorKind, TableError};
use crate::format::{read_u16, read_u32, DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};

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
    let rolls: Vec<Dice> = (0..super::rules::ROLLS).filter_map(|r| Dice::unrank(super::rules::DICE, r)).collect();
    let boxes: u32 = (0..BOXES.len())
        .map(|b| rolls.iter().map(|d| u32::from(super::rules::points(&d.counts(), b))).max().unwrap_or(0))
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
    /// Other names of the game.
    const ALIASES: &'static [&'static str] = &[];
    /// The make targets that build its table where `make tables` does not ([`Game::BUILT_BY`]).
    const BUILT_BY: &'static [&'static str] = &[];
    /// The rules the table is solved under unless the generator was told otherwise.
    const RULES: Rules;
}

/// The finnish preset's table, `maxi-yatzy.dtab`.
#[derive(Debug)]
pub struct Finnish;
impl MaxiPreset for Finnish {
    const ID: &'static str = "maxi-yatzy";
    const ALIASES: &'static [&'static str] = &["maxi", "maxiyatzy"];
    const RULES: Rules = Rules::FINNISH;
}

/// The swedish preset's table, `maxi-yatzy-swedish.dtab`.
#[derive(Debug)]
pub struct Swedish;
impl MaxiPreset for Swedish {
    const ID: &'static str = "maxi-yatzy-swedish";
    const BUILT_BY: &'static [&'static str] = &["maxi-swedish", "optional-tables"];
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

impl<P: MaxiPreset> Game for Maxi<P> {
    const ID: &'static str = P::ID;
    const ALIASES: &'static [&'static str] = P::ALIASES;
    const BUILT_BY: &'static [&'static str] = P::BUILT_BY;
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
    let (rest, roll) = (key / super::rules::ROLLS as u64, (key % super::rules::ROLLS as u64) as usize);
    let (rest, rerolls) = (rest / 41, (rest % 41) as u8);
    let totals = u64::from(rules.bonus_at) + 1;
    let (mask, upper) = (rest / totals, (rest % totals) as u8);
    let mask = u32::try_from(mask).ok().filter(|&m| m != 0 && m <= super::rules::ALL)?;
    let saved = u32::from(rerolls).saturating_sub(super::rules::REROLLS as u32);
    let state = capped_state(rules, mask, upper, saved)?;
    Some((state, Dice::unrank(super::rules::DICE, roll)?, rerolls))
}

/// The exceptions' key of a decision: `rerolls` left with `dice` in a turn
/// from `state` (its saved rerolls play no part).
pub fn decision_key(rules: &Rules, state: MaxiState, dice: Dice, rerolls: u8) -> u64 {
    let totals = u64::from(rules.bonus_at) + 1;
    let row = u64::from(state.mask) * totals + u64::from(state.upper);
    (row * 41 + u64::from(rerolls)) * super::rules::ROLLS as u64 + dice.rank() as u64
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
    if mask > super::rules::ALL {
        let (given, max) = (mask.to_string(), super::rules::ALL);
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
    pub fn exceptions(&self) -> Result<Vec<(MaxiState, Dice, u8, MaxiAction)>, TableError> {
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
    pub(super) fn exception(&self, key: u64) -> Result<Option<MaxiAction>, TableError> {
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
fn check_exception(rules: &Rules, key: u64, code: u16) -> Result<(MaxiState, Dice, u8, MaxiAction), TableError> {
    let bad = |why: String| TableError::section(EXCEPTION_KEY.name, format!("key {key} {why}"));
    let (state, dice, rerolls) =
        decision_of(rules, key).ok_or_else(|| bad("is no decision of a state the game can reach".into()))?;
    let action = action_of(state, dice, rerolls, code)
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

/// What to do with a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxiAction {
    /// Keep these dice (fewer than six) and reroll the rest.
    Keep(Dice),
    /// Score the dice in the box with this mask bit (saving the rerolls left, where the rules save them).
    Score(u8),
}

/// The action an exception's code names in a decision, if it has it: a
/// box open in the state, or ([`KEEP_CODE`] plus a graded rank) a partial
/// keep of the dice while rerolls are left.
pub fn action_of(state: MaxiState, dice: Dice, rerolls: u8, code: u16) -> Option<MaxiAction> {
    if code < BOXES.len() as u16 {
        return (state.mask >> code & 1 == 1).then_some(MaxiAction::Score(code as u8));
    }
    let keep = Dice::graded_unrank(usize::from(code.checked_sub(KEEP_CODE)?))?;
    (rerolls > 0 && keep.len() < DICE && keep.is_subset_of(&dice)).then_some(MaxiAction::Keep(keep))
}

/// An action as the exceptions section codes it: a box's mask bit, or
/// [`KEEP_CODE`] plus a partial keep's graded rank.
pub fn action_code(action: MaxiAction) -> u16 {
    match action {
        MaxiAction::Score(b) => u16::from(b),
        MaxiAction::Keep(k) => KEEP_CODE + k.graded_rank() as u16,
    }
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
}
