//! Lookups in the yazy table.
//!
//! yazy: five dice, 11 turns; a turn is a roll and up to `rerolls` rerolls
//! (default 2), keeping any sub-multiset each time, then the dice are scored
//! in one of the 11 categories still open. The table holds, for every mask of
//! open categories, every roll and every number of rerolls left, the expected
//! score still to come under optimal play and the optimal action.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::yazy::{Action, Mask, Yazy};
//! use dice_tables_reader::{Game, Tables};
//! let yazy = Yazy::open(Tables::default_dir().join("yazy.dtab"))?;
//! let start = yazy.turn_start_value(Mask::ALL)?;
//! assert!((start - 165.7573187).abs() < 1e-6);
//!
//! // First roll of the game: 1-2-4-5-6 with two rerolls to come.
//! let roll = "12456".parse()?;
//! let best = yazy.best_action(Mask::ALL, roll, 2)?;
//! assert_eq!(best, Some(Action::Keep("245".parse()?)));
//! let ev = yazy.value(Mask::ALL, roll, 2)?;
//! assert!((ev - 163.6207).abs() < 1e-4);
//! // Every option of that roll, best first: scoring now in each of the 11
//! // boxes, and the 31 keeps of fewer than five dice.
//! let options = yazy.options(Mask::ALL, roll, 2)?;
//! assert_eq!((options.len(), options.best().map(|o| o.action)), (11 + 31, best));
//! # Ok(()) }
//! ```

#[cfg(not(feature = "solitaire-only"))]
mod as_rules;
pub mod duel;
pub mod target;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError};
use crate::five_dice::{category_index, check_state, parse_mask, LEGAL_KEEPS, PARTIAL_KEEP_DICE};
pub use crate::five_dice::{DICE, KEEP_ALL, NO_ACTION, PARTIAL_KEEPS, ROLLS};
use crate::format::{DType, Encoding, Header};
use crate::game::{check_values_in_range, param_in, Checked, Game, SectionSpec};
use crate::options::Options;
#[cfg(not(feature = "solitaire-only"))]
pub use as_rules::YazyAsRules;
/// Categories, in mask-bit order.
pub const CATEGORIES: [&str; 11] =
    ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight", "yazy"];
/// Masks of open categories: `0..MASKS`.
pub const MASKS: usize = 1 << CATEGORIES.len();
/// The most a whole game can score: 105 in the six upper categories, 30 + 30 + 25 + 40 + 50 below.
pub const MOST_POINTS: usize = 280;
/// The bound the turn-start values are checked against (above [`MOST_POINTS`]).
pub const MAX_GAME_SCORE: f64 = 330.0;
/// The most rerolls a table may be solved for.
pub const MAX_REROLLS: i64 = 20;

/// `keep_value` holds each value times this, rounded to a u32 (a resolution
/// of 2^-16, so a stored value is within 7.7e-6 of the exact one), stored as
/// four byte planes: the low bytes of every value, then the next bytes, and
/// so on. Neighbouring values share their high bytes, so the planes
/// compress far better than whole numbers.
pub const KEEP_VALUE_SCALE: f64 = 65536.0;

/// A category of the score sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Category(u8);

impl Category {
    /// The category with mask bit `index` (0..11).
    pub fn new(index: u8) -> Option<Category> {
        (usize::from(index) < CATEGORIES.len()).then_some(Category(index))
    }
    /// Its mask bit.
    pub fn index(self) -> u8 {
        self.0
    }
    /// Its name, as accepted by the CLI and printed in JSON.
    pub fn name(self) -> &'static str {
        CATEGORIES[usize::from(self.0)]
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Category {
    type Err = ArgumentError;
    fn from_str(s: &str) -> Result<Category, ArgumentError> {
        Ok(Category(category_index(s, &CATEGORIES)?))
    }
}

/// The set of categories still open: bit `i` set when category `i` is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mask(u16);

impl Mask {
    /// Every category open: the start of a game.
    pub const ALL: Mask = Mask((MASKS - 1) as u16);
    /// No category open: the game is over.
    pub const NONE: Mask = Mask(0);

    /// The mask with these bits; an error above 2047.
    pub fn new(bits: u32) -> Result<Mask, ArgumentError> {
        if (bits as usize) < MASKS {
            Ok(Mask(bits as u16))
        } else {
            Err(ArgumentErrorKind::MaskOutOfRange { given: bits.to_string(), max: MASKS as u32 - 1, game: None }.into())
        }
    }
    /// The bits.
    pub fn bits(self) -> u16 {
        self.0
    }
    /// True when `c` is open.
    pub fn contains(self, c: Category) -> bool {
        self.0 >> c.0 & 1 == 1
    }
    /// The mask with `c` scored (closed).
    pub fn without(self, c: Category) -> Mask {
        Mask(self.0 & !(1 << c.0))
    }
    /// The open categories, in mask-bit order.
    pub fn categories(self) -> impl Iterator<Item = Category> {
        (0..CATEGORIES.len() as u8).map(Category).filter(move |&c| self.contains(c))
    }
}

impl fmt::Display for Mask {
    /// The open categories as a comma list ("none" for none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("none");
        }
        for (i, c) in self.categories().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(c.name())?;
        }
        Ok(())
    }
}

impl FromStr for Mask {
    type Err = ArgumentError;
    /// A number (decimal, `0x..`, `0b..`) or a comma list of category names
    /// (`all` and `none` also work).
    fn from_str(s: &str) -> Result<Mask, ArgumentError> {
        Ok(Mask(parse_mask(s, &CATEGORIES)? as u16))
    }
}

/// What to do with a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Keep these dice and reroll the rest (fewer than five: keeping all
    /// five is scoring now).
    Keep(Dice),
    /// Score the dice in this category.
    Score(Category),
}

/// One legal action and the expected score still to come if it is taken.
pub type Choice = crate::options::Choice<Action>;

/// Every legal action in a state, the optimal first, then from best to
/// worst: at most 11 categories and 31 partial keeps (the sub-multisets of
/// five dice but all five).
pub type Choices = Options<Choice, 48>;

/// The points `dice` scores in category `c` (mask bit order).
pub fn points(dice: &Dice, c: usize) -> u8 {
    let counts = dice.counts();
    let most = *counts.iter().max().expect("six faces");
    let sum = dice.sum() as u8;
    match c {
        0..=5 => (c as u8 + 1) * counts[c],
        6 => {
            if most >= 3 {
                sum
            } else {
                0
            }
        }
        7 => {
            if most >= 4 {
                sum
            } else {
                0
            }
        }
        8 => {
            if counts.contains(&3) && counts.contains(&2) {
                25
            } else {
                0
            }
        }
        9 => {
            if most == 1 && (counts[0] == 0 || counts[5] == 0) {
                40
            } else {
                0
            }
        }
        10 => {
            if most == 5 {
                50
            } else {
                0
            }
        }
        _ => unreachable!("11 categories"),
    }
}

/// The rules a yazy table was solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rerolls per turn (header parameter `rerolls`, 0 to [`MAX_REROLLS`]).
    pub rerolls: u8,
}

/// Masks per block of the keep values: the masks whose keep values one
/// lookup reads lie in one chunk of [`KEEP_VALUE`].
pub const MASK_BLOCK: usize = 256;
/// Blocks of masks.
pub const MASK_BLOCKS: usize = MASKS / MASK_BLOCK;

/// Expected score still to come at each turn start, exact: per mask.
pub const TURN_START: SectionSpec<Rules> =
    SectionSpec::new(0, "turn_start", DType::F64, Encoding::Raw, |_| vec![MASKS as u64]);
/// Points of each roll in each category: per (roll, category).
pub const CATEGORY_POINTS: SectionSpec<Rules> =
    SectionSpec::new(1, "category_points", DType::U8, Encoding::Raw, |_| vec![ROLLS as u64, CATEGORIES.len() as u64]);
/// The best keep's graded rank, [`KEEP_ALL`] or [`NO_ACTION`]: per (rerolls
/// left - 1, mask, roll), in chunks of [`MASK_BLOCK`] masks.
pub const BEST_KEEP: SectionSpec<Rules> = SectionSpec::new(2, "best_keep", DType::U8, Encoding::Zstd, |r: &Rules| {
    vec![u64::from(r.rerolls), MASKS as u64, ROLLS as u64]
})
.chunked((MASK_BLOCK * ROLLS) as u64);
/// Byte planes of each partial keep's value times [`KEEP_VALUE_SCALE`]: per
/// (rerolls left - 1, block of masks, byte, keep, mask in the block), a
/// chunk a block.
pub const KEEP_VALUE: SectionSpec<Rules> = SectionSpec::new(3, "keep_value", DType::U8, Encoding::Zstd, |r: &Rules| {
    vec![u64::from(r.rerolls), MASK_BLOCKS as u64, 4, PARTIAL_KEEPS as u64, MASK_BLOCK as u64]
})
.chunked((4 * PARTIAL_KEEPS * MASK_BLOCK) as u64);

/// One way a turn ends, (category, points), with its chance.
type TurnOutcome = ((Category, u8), f64);

/// A yazy table.
pub struct Yazy {
    t: Checked<Yazy>,
    /// The small sections (18 KB), read whole and checked at open: lookups
    /// index them directly, with no chunk to find.
    turn_start: Box<[f64; MASKS]>,
    points: Box<[[u8; CATEGORIES.len()]; ROLLS]>,
    /// Per mask, once first asked for: the best category of every roll with
    /// no rerolls left (derived, see `best_category`), so that later lookups
    /// read one byte.
    /// (Boxed rows: the empty slots at open are 32 KB, not half a megabyte.)
    categories: Box<[OnceLock<Box<[u8; ROLLS]>>]>,
}

impl fmt::Debug for Yazy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Yazy").field("t", &self.t).finish_non_exhaustive()
    }
}

impl Game for Yazy {
    const ID: &'static str = "yazy";
    type Params = Rules;
    const SECTIONS: &'static [SectionSpec<Rules>] = &[TURN_START, CATEGORY_POINTS, BEST_KEEP, KEEP_VALUE];

    fn params(header: &Header) -> Result<Rules, TableError> {
        Ok(Rules { rerolls: param_in(header, "rerolls", 0..=MAX_REROLLS)? as u8 })
    }

    fn header_params(rules: &Rules) -> Vec<(&'static str, i64)> {
        vec![("rerolls", i64::from(rules.rerolls))]
    }

    /// On open: the small sections. Turn-start values are printed as JSON
    /// numbers and summed into every lookup: they must be finite and no
    /// more than the game can score.
    fn check_contents(t: &Checked<Yazy>) -> Result<(), TableError> {
        t.whole(&TURN_START)?;
        t.whole(&CATEGORY_POINTS)?;
        Ok(())
    }

    /// Turn-start values in range; every stored best keep legal in its state.
    fn check_chunk(_: &Rules, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section == TURN_START.index {
            // With no category open nothing is still to come.
            if start == 0 && bytes.get(..8).is_some_and(|b| crate::format::read_f64(b, 0) != 0.0) {
                let why = "holds a value for mask 0 (no category open), which must be 0";
                return Err(TableError::section(TURN_START.name, why));
            }
            return check_values_in_range(TURN_START.name, bytes, MAX_GAME_SCORE);
        }
        if section != BEST_KEEP.index {
            return Ok(());
        }
        let legal = &*LEGAL_KEEPS;
        for (i, &k) in bytes.iter().enumerate() {
            let at = start as usize + i;
            let (mask, roll) = (at / ROLLS % MASKS, at % ROLLS);
            let ok = if mask == 0 { k == NO_ACTION } else { legal.allows(roll, k) };
            if !ok {
                let why = format!("holds {k} for mask {mask} and roll {roll}, which is not a legal keep");
                return Err(TableError::section(BEST_KEEP.name, why));
            }
        }
        Ok(())
    }

    fn from_checked(t: Checked<Yazy>) -> Result<Yazy, TableError> {
        let turn_start: Vec<f64> =
            t.whole(&TURN_START)?.as_chunks::<8>().0.iter().map(|b| f64::from_le_bytes(*b)).collect();
        let points = t.whole(&CATEGORY_POINTS)?.as_chunks::<{ CATEGORIES.len() }>().0.to_vec();
        let (Ok(turn_start), Ok(points)) =
            (turn_start.into_boxed_slice().try_into(), points.into_boxed_slice().try_into())
        else {
            return Err(TableError::section(TURN_START.name, "or category_points is not of its declared size"));
        };
        Ok(Yazy { t, turn_start, points, categories: (0..MASKS).map(|_| OnceLock::new()).collect() })
    }

    fn checked(&self) -> &Checked<Yazy> {
        &self.t
    }
}

impl Yazy {
    /// The number of rerolls per turn the table was solved for.
    pub fn rerolls(&self) -> u8 {
        self.t.params().rerolls
    }

    /// The exact distribution of a whole game's final score when every
    /// decision is the table's (the most points on average): entry `s` is
    /// P(final score = s), for s = 0 to 280. Computed from the stored
    /// decisions, not stored: yazy's table holds every decision of every
    /// state, so one pass forward over the masks (each turn's outcomes from
    /// its rolls and keeps, then the masks' score distributions) takes a
    /// fraction of a second. Its mean is the game's value
    /// ([`turn_start_value`](Yazy::turn_start_value) of all open), and it
    /// sums to 1, to rounding.
    ///
    /// ```
    /// # fn main() -> Result<(), dice_tables_reader::Error> {
    /// use dice_tables_reader::{yazy::{Mask, Yazy}, Tables};
    /// let tables = Tables::open_default()?;
    /// let yazy = tables.get::<Yazy>()?;
    /// let p = yazy.score_distribution()?;
    /// let mean: f64 = p.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
    /// assert!((mean - yazy.turn_start_value(Mask::ALL)?).abs() < 1e-6);
    /// # Ok(()) }
    /// ```
    pub fn score_distribution(&self) -> Result<Vec<f64>, Error> {
        let most = MOST_POINTS;
        // Each partial keep's rolls after throwing the rest: (roll, chance).
        let after_keep: Vec<Vec<(usize, f64)>> = (0..crate::five_dice::PARTIAL_KEEPS)
            .map(|g| {
                let keep = PARTIAL_KEEP_DICE[g];
                let thrown = crate::five_dice::DICE - keep.len();
                (0..crate::dice::multiset_count(thrown))
                    .map(|r| {
                        let outcome = Dice::unrank(thrown, r).expect("rank in range");
                        let roll = outcome.faces().fold(keep, |d, f| d.with(f).expect("five dice at most"));
                        (roll.rank(), outcome.probability())
                    })
                    .collect()
            })
            .collect();
        let fresh: Vec<f64> =
            (0..ROLLS).map(|r| Dice::unrank(crate::five_dice::DICE, r).expect("rank in range").probability()).collect();
        // Per mask, the chance of each score so far; all open first.
        let mut by_mask = vec![Vec::<f64>::new(); MASKS];
        by_mask[MASKS - 1] = vec![0.0; most + 1];
        by_mask[MASKS - 1][0] = 1.0;
        let mut final_score = vec![0.0; most + 1];
        for open in (1..=CATEGORIES.len()).rev() {
            for bits in (1..MASKS).filter(|m| m.count_ones() as usize == open) {
                let so_far = std::mem::take(&mut by_mask[bits]);
                if so_far.is_empty() {
                    continue;
                }
                let mask = Mask(bits as u16);
                for ((category, points), chance) in self.turn_outcomes(mask, &fresh, &after_keep)? {
                    let next = mask.without(category);
                    let target = if next == Mask::NONE { &mut final_score } else { &mut by_mask[usize::from(next.0)] };
                    if target.is_empty() {
                        *target = vec![0.0; most + 1];
                    }
                    for (score, &p) in so_far.iter().enumerate().filter(|(_, &p)| p > 0.0) {
                        // A table whose points pass the game's most is refused, not indexed past.
                        let Some(slot) = target.get_mut(score + usize::from(points)) else {
                            let why = format!("scores past the game's most of {MOST_POINTS} points");
                            return Err(TableError::section(CATEGORY_POINTS.name, why).into());
                        };
                        *slot += p * chance;
                    }
                }
            }
        }
        Ok(final_score)
    }

    /// One turn's outcomes in `mask` under the table's decisions: each
    /// (category, points) with its chance.
    fn turn_outcomes(
        &self,
        mask: Mask,
        fresh: &[f64],
        after_keep: &[Vec<(usize, f64)>],
    ) -> Result<Vec<TurnOutcome>, Error> {
        // The chance of each roll still to decide, and of each roll kept whole
        // (keeping all five stops rerolling: it is scored as it is).
        let mut rolling = fresh.to_vec();
        let mut stopped = vec![0.0; ROLLS];
        for rerolls in (1..=self.rerolls()).rev() {
            let mut next = vec![0.0; ROLLS];
            for (roll, &q) in rolling.iter().enumerate().filter(|(_, &q)| q > 0.0) {
                match self.stored_keep(mask, roll, rerolls)? {
                    KEEP_ALL | NO_ACTION => stopped[roll] += q,
                    g => {
                        for &(to, p) in &after_keep[usize::from(g)] {
                            next[to] += q * p;
                        }
                    }
                }
            }
            rolling = next;
        }
        let mut outcomes: Vec<TurnOutcome> = Vec::new();
        for roll in 0..ROLLS {
            let q = rolling[roll] + stopped[roll];
            if q == 0.0 {
                continue;
            }
            let dice = Dice::unrank(crate::five_dice::DICE, roll).expect("rank in range");
            let Some(Action::Score(c)) = self.best_action(mask, dice, 0)? else { continue };
            let outcome = (c, self.points(dice, c)?);
            match outcomes.iter_mut().find(|(o, _)| *o == outcome) {
                Some((_, chance)) => *chance += q,
                None => outcomes.push((outcome, q)),
            }
        }
        Ok(outcomes)
    }

    /// Expected score still to come at the start of a turn, before the roll
    /// (exact to f64 precision).
    pub fn turn_start_value(&self, mask: Mask) -> Result<f64, Error> {
        Ok(self.turn_start[usize::from(mask.0) % MASKS])
    }

    /// The points `dice` scores in category `c` now.
    pub fn points(&self, dice: Dice, c: Category) -> Result<u8, Error> {
        crate::five_dice::check_roll(dice, Self::ID)?;
        Ok(self.roll_points(dice.rank(), c))
    }

    /// The points of roll `roll` (a rank) in category `c`.
    #[inline]
    fn roll_points(&self, roll: usize, c: Category) -> u8 {
        self.points[roll % ROLLS][usize::from(c.0) % CATEGORIES.len()]
    }

    #[inline]
    fn check_state(&self, dice: Dice, rerolls: u8) -> Result<(), ArgumentError> {
        check_state(dice, rerolls, self.rerolls(), Self::ID)
    }

    /// Expected score still to come with `dice` showing and `rerolls` left,
    /// under optimal play: the value of [`best_action`](Yazy::best_action).
    /// Scoring now is exact (points plus the turn-start value of the mask
    /// left); a keep's is stored within 1e-5 of the exact value (see
    /// [`KEEP_VALUE_SCALE`]).
    pub fn value(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<f64, Error> {
        match self.best_action(mask, dice, rerolls)? {
            None => Ok(0.0),
            Some(Action::Keep(keep)) => Ok(self.keep_values(mask, rerolls)?.get(keep.graded_rank())),
            Some(Action::Score(c)) => Ok(self.score_value(mask, dice.rank(), c)),
        }
    }

    #[inline]
    fn stored_keep(&self, mask: Mask, roll: usize, rerolls: u8) -> Result<u8, TableError> {
        let mask = usize::from(mask.0);
        let block = usize::from(rerolls - 1) * MASK_BLOCKS + mask / MASK_BLOCK;
        self.t.u8_in(&BEST_KEEP, block, mask % MASK_BLOCK * ROLLS + roll)
    }

    /// The values of every partial keep of a mask with `rerolls` left before
    /// the reroll: one chunk of [`KEEP_VALUE`].
    #[inline]
    fn keep_values(&self, mask: Mask, rerolls: u8) -> Result<KeepValues<'_>, TableError> {
        let mask = usize::from(mask.0);
        let block = self.t.chunk(&KEEP_VALUE, usize::from(rerolls - 1) * MASK_BLOCKS + mask / MASK_BLOCK)?;
        Ok(KeepValues { block, mask: mask % MASK_BLOCK })
    }

    /// The best category with no rerolls left, for an open mask.
    #[inline]
    fn best_category_alone(&self, mask: Mask, roll: usize) -> Result<Category, TableError> {
        let row = match self.categories[usize::from(mask.0) % MASKS].get() {
            Some(row) => row,
            None => self.derive_categories(mask)?,
        };
        Ok(Category(row[roll % ROLLS]))
    }

    /// The best category of every roll of an open mask: the maximum of the
    /// same f64 sums the solver maximised (the integer points converted, then
    /// the turn-start value added), in the same order, a later category
    /// taken only when strictly better; so it is the solver's choice and its
    /// value is exact. Derived once a mask, on first use.
    #[cold]
    fn derive_categories(&self, mask: Mask) -> Result<&[u8; ROLLS], TableError> {
        // Fixed-size arrays: the indexing below needs no bounds checks.
        let turn_start = &*self.turn_start;
        let mut row = [0u8; ROLLS];
        for (best, points) in row.iter_mut().zip(&*self.points) {
            let mut best_value = f64::NEG_INFINITY;
            let mut open = mask.0;
            while open != 0 {
                let c = open.trailing_zeros() as usize;
                open &= open - 1;
                let rest = usize::from(mask.0 & !(1 << c)) & (MASKS - 1);
                let v = f64::from(points[c % CATEGORIES.len()]) + turn_start[rest];
                if v > best_value {
                    (*best, best_value) = (c as u8, v);
                }
            }
        }
        let slot = &self.categories[usize::from(mask.0) % MASKS];
        let _ = slot.set(Box::new(row));
        Ok(slot.get().expect("set just above"))
    }

    /// Points now plus the turn-start value of the mask left.
    #[inline]
    fn score_value(&self, mask: Mask, roll: usize, c: Category) -> f64 {
        f64::from(self.roll_points(roll, c)) + self.turn_start[usize::from(mask.without(c).0) % MASKS]
    }

    /// The optimal action: with rerolls left a partial keep, or scoring now
    /// (what the table's "keep all five" comes to); with none, a category.
    /// `None` when no category is open.
    pub fn best_action(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<Option<Action>, Error> {
        self.check_state(dice, rerolls)?;
        if mask == Mask::NONE {
            return Ok(None);
        }
        let roll = dice.rank();
        // Keeping all five is deciding again with a reroll fewer.
        for r in (1..=rerolls).rev() {
            match self.stored_keep(mask, roll, r)? {
                KEEP_ALL => continue,
                NO_ACTION => return Ok(None),
                keep => return Ok(PARTIAL_KEEP_DICE.get(usize::from(keep)).copied().map(Action::Keep)),
            }
        }
        Ok(Some(Action::Score(self.best_category_alone(mask, roll)?)))
    }

    /// Every legal action with its expected score still to come, the stored
    /// optimal action first, then the rest from best to worst: with rerolls
    /// left, scoring now in each open category and every partial keep; with
    /// none, the open categories.
    pub fn options(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<Choices, Error> {
        self.check_state(dice, rerolls)?;
        let best = self.best_action(mask, dice, rerolls)?;
        let mut out = Choices::new();
        if mask == Mask::NONE {
            return Ok(out);
        }
        let roll = dice.rank();
        for c in mask.categories() {
            let points = self.roll_points(roll, c);
            out.push(Choice { action: Action::Score(c), ev: self.score_value(mask, roll, c), points });
        }
        if rerolls > 0 {
            let keep_values = self.keep_values(mask, rerolls)?;
            for keep in dice.sub_multisets().filter(|k| k.len() < DICE) {
                out.push(Choice { action: Action::Keep(keep), ev: keep_values.get(keep.graded_rank()), points: 0 });
            }
        }
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        Ok(out)
    }
}

/// The keep values of one mask, from its block of [`KEEP_VALUE`].
struct KeepValues<'a> {
    block: &'a [u8],
    mask: usize,
}

impl KeepValues<'_> {
    /// The expected score still to come after keeping partial keep `keep`.
    fn get(&self, keep: usize) -> f64 {
        const PLANE: usize = PARTIAL_KEEPS * MASK_BLOCK;
        let i = keep * MASK_BLOCK + self.mask;
        let b = self.block;
        let bytes = [b[i], b[PLANE + i], b[2 * PLANE + i], b[3 * PLANE + i]];
        f64::from(u32::from_le_bytes(bytes)) / KEEP_VALUE_SCALE
    }
}
