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
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
//! # if !dir.join("yazy.dtab").exists() { return Ok(()); }
//! use dice_tables_reader::yazy::{Action, Mask, Yazy};
//! let yazy = Yazy::open(dir.join("yazy.dtab"))?;
//! let start = yazy.turn_start_value(Mask::ALL);
//! assert!((start - 165.7573187).abs() < 1e-6);
//!
//! // First roll of the game: 1-2-4-5-6 with two rerolls to come.
//! let roll = "12456".parse().unwrap();
//! let best = yazy.best_action(Mask::ALL, roll, 2)?;
//! assert_eq!(best, Some(Action::Keep("245".parse().unwrap())));
//! let ev = yazy.value(Mask::ALL, roll, 2)?;
//! assert!((ev - 163.6207).abs() < 1e-4);
//! # Ok(()) }
//! ```

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::dice::Dice;
use crate::error::Error;
use crate::format::{DType, ExpectedSection, Header};
use crate::table::Table;
use crate::turn::{
    check_state, check_values_in_range, game_rerolls, partial_keep_dice, read_f64, rerolls_param, LegalKeeps,
};
pub use crate::turn::{DICE, KEEP_ALL, NO_ACTION, PARTIAL_KEEPS, ROLLS};

/// The game id in the header.
pub const GAME: &str = "yazy";
/// Categories, in mask-bit order.
pub const CATEGORIES: [&str; 11] =
    ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight", "yazy"];
/// Masks of open categories: `0..MASKS`.
pub const MASKS: usize = 1 << CATEGORIES.len();
/// The most a whole game can score: 105 in the six upper categories, 30 + 30 + 25 + 40 + 50 below.
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
    type Err = Error;
    fn from_str(s: &str) -> Result<Category, Error> {
        let s = s.trim();
        CATEGORIES.iter().position(|&c| c == s).map(|i| Category(i as u8)).ok_or_else(|| {
            Error::InvalidArgument(format!("unknown category {s:?}: categories are {}", CATEGORIES.join(", ")))
        })
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
    pub fn new(bits: u32) -> Result<Mask, Error> {
        if (bits as usize) < MASKS {
            Ok(Mask(bits as u16))
        } else {
            Err(Error::InvalidArgument(format!(
                "mask {bits} is out of range: a mask is 0..2047 (bit i set when category i is open) or a comma list of categories"
            )))
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
    type Err = Error;
    /// A number (decimal, `0x..`, `0b..`) or a comma list of category names
    /// (`all` and `none` also work).
    fn from_str(s: &str) -> Result<Mask, Error> {
        let s = s.trim();
        let number = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(u32::from_str_radix(hex, 16))
        } else if let Some(bin) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
            Some(u32::from_str_radix(bin, 2))
        } else if s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            Some(s.parse::<u32>())
        } else {
            None
        };
        match number {
            Some(Ok(bits)) => Mask::new(bits),
            Some(Err(_)) if s.starts_with('-') => Err(Error::InvalidArgument(format!(
                "mask {s:?} is out of range: a mask is 0..2047 (bit i set when category i is open) or a comma list of categories"
            ))),
            Some(Err(_)) => Err(Error::InvalidArgument(format!(
                "mask {s:?} is not a number 0..2047 (decimal, 0x.. or 0b..) or a comma list of categories"
            ))),
            None if s == "all" => Ok(Mask::ALL),
            None if s == "none" => Ok(Mask::NONE),
            None => s.split(',').try_fold(Mask(0), |m, name| Ok(Mask(m.0 | 1 << name.parse::<Category>()?.0))),
        }
    }
}

/// What to do with a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Keep these dice and reroll the rest (keeping all five = stop rerolling).
    Keep(Dice),
    /// Score the dice in this category.
    Score(Category),
}

/// One legal action and the expected score still to come if it is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The action.
    pub action: Action,
    /// Expected score still to come, counting the points this action scores now.
    pub ev: f64,
    /// For [`Action::Score`], the points it scores now; 0 for keeps.
    pub points: u8,
}

/// Every legal action in a state, best first, in a fixed-size buffer.
#[derive(Clone, Debug)]
pub struct Choices {
    items: [Option<Choice>; 32],
    len: usize,
}

impl Choices {
    /// The actions, best first.
    pub fn as_slice(&self) -> impl ExactSizeIterator<Item = &Choice> {
        self.items[..self.len].iter().map(|c| c.as_ref().expect("filled up to len"))
    }
    /// How many actions there are.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when there is none (no category open).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The sections of a yazy table with `rerolls` rerolls.
pub fn expected_sections(rerolls: u64) -> Vec<ExpectedSection> {
    let (masks, rolls) = (MASKS as u64, ROLLS as u64);
    vec![
        ExpectedSection { name: "turn_start", dtype: DType::F64, dims: vec![masks] },
        ExpectedSection { name: "category_points", dtype: DType::U8, dims: vec![rolls, CATEGORIES.len() as u64] },
        ExpectedSection { name: "best_category", dtype: DType::U8, dims: vec![masks, rolls] },
        ExpectedSection { name: "best_keep", dtype: DType::U8, dims: vec![rerolls, masks, rolls] },
        ExpectedSection { name: "keep_value", dtype: DType::U8, dims: vec![rerolls, 4, PARTIAL_KEEPS as u64, masks] },
    ]
}

/// The number of rerolls in a yazy header, checked.
pub(crate) fn header_rerolls(header: &Header) -> Result<u8, Error> {
    rerolls_param(header, MAX_REROLLS)
}

/// A verified yazy table.
pub struct Yazy {
    table: Table,
    /// The dice of each partial keep, by graded rank.
    partial_keeps: [Dice; PARTIAL_KEEPS],
    rerolls: u8,
    turn_start: usize,
    category_points: usize,
    best_category: usize,
    best_keep: usize,
    keep_value: usize,
}

impl Yazy {
    /// Opens and verifies `yazy.dtab` (or any path holding a yazy table).
    pub fn open(path: impl AsRef<Path>) -> Result<Yazy, Error> {
        Yazy::from_table(Table::open(path)?)
    }

    /// Wraps an opened table; an error when it is not a yazy table.
    pub fn from_table(table: Table) -> Result<Yazy, Error> {
        let rerolls = game_rerolls(&table, GAME, MAX_REROLLS)?;
        let index = |name| table.section_index(name).expect("schema checked on open");
        Ok(Yazy {
            partial_keeps: partial_keep_dice(),
            rerolls,
            turn_start: index("turn_start"),
            category_points: index("category_points"),
            best_category: index("best_category"),
            best_keep: index("best_keep"),
            keep_value: index("keep_value"),
            table,
        })
    }

    /// The underlying table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The number of rerolls per turn the table was solved for.
    pub fn rerolls(&self) -> u8 {
        self.rerolls
    }

    /// Expected score still to come at the start of a turn, before the roll
    /// (exact to f64 precision).
    pub fn turn_start_value(&self, mask: Mask) -> f64 {
        read_f64(self.table.section_bytes(self.turn_start), usize::from(mask.0))
    }

    /// The points `dice` scores in category `c` now.
    pub fn points(&self, dice: Dice, c: Category) -> u8 {
        self.table.section_bytes(self.category_points)[dice.rank() * CATEGORIES.len() + usize::from(c.0)]
    }

    fn check_state(&self, dice: Dice, rerolls: u8) -> Result<(), Error> {
        check_state(dice, rerolls, self.rerolls, GAME)
    }

    /// Expected score still to come with `dice` showing and `rerolls` left,
    /// under optimal play. With no rerolls left it is exact (from the
    /// turn-start values); with rerolls left it is the stored value of the
    /// best keep, within 1e-5 of the exact value (see [`KEEP_VALUE_SCALE`]).
    pub fn value(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<f64, Error> {
        self.check_state(dice, rerolls)?;
        Ok(self.value_unchecked(mask, dice.rank(), rerolls))
    }

    fn value_unchecked(&self, mask: Mask, roll: usize, rerolls: u8) -> f64 {
        if rerolls > 0 {
            match self.stored_keep(mask, roll, rerolls) {
                // Keeping all five stops rerolling: worth the dice scored now.
                KEEP_ALL => {}
                NO_ACTION => return 0.0,
                keep => return self.keep_value(mask, usize::from(keep), rerolls),
            }
        }
        match self.table.section_bytes(self.best_category)[usize::from(mask.0) * ROLLS + roll] {
            NO_ACTION => 0.0,
            c => self.score_value(mask, roll, Category(c)),
        }
    }

    fn stored_keep(&self, mask: Mask, roll: usize, rerolls: u8) -> u8 {
        let i = (usize::from(rerolls - 1) * MASKS + usize::from(mask.0)) * ROLLS + roll;
        self.table.section_bytes(self.best_keep)[i]
    }

    /// Expected score still to come after keeping partial keep `keep` with `rerolls` left before the reroll.
    fn keep_value(&self, mask: Mask, keep: usize, rerolls: u8) -> f64 {
        const PLANE: usize = PARTIAL_KEEPS * MASKS;
        let planes = &self.table.section_bytes(self.keep_value)[usize::from(rerolls - 1) * 4 * PLANE..][..4 * PLANE];
        let i = keep * MASKS + usize::from(mask.0);
        let bytes = [planes[i], planes[PLANE + i], planes[2 * PLANE + i], planes[3 * PLANE + i]];
        f64::from(u32::from_le_bytes(bytes)) / KEEP_VALUE_SCALE
    }

    /// Points now plus the turn-start value of the mask left: the same f64
    /// sum the generator maximised, so it is exact.
    fn score_value(&self, mask: Mask, roll: usize, c: Category) -> f64 {
        let points = self.table.section_bytes(self.category_points)[roll * CATEGORIES.len() + usize::from(c.0)];
        f64::from(points) + self.turn_start_value(mask.without(c))
    }

    /// The optimal action: a keep while rerolls are left, a category when
    /// none are; `None` when no category is open.
    pub fn best_action(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<Option<Action>, Error> {
        self.check_state(dice, rerolls)?;
        let roll = dice.rank();
        if rerolls > 0 {
            return Ok(match self.stored_keep(mask, roll, rerolls) {
                KEEP_ALL => Some(Action::Keep(dice)),
                NO_ACTION => None,
                keep => self.partial_keeps.get(usize::from(keep)).copied().map(Action::Keep),
            });
        }
        Ok(match self.table.section_bytes(self.best_category)[usize::from(mask.0) * ROLLS + roll] {
            NO_ACTION => None,
            c => Category::new(c).map(Action::Score),
        })
    }

    /// Every legal action with its expected score still to come, the stored
    /// optimal action first, then the rest from best to worst.
    pub fn choices(&self, mask: Mask, dice: Dice, rerolls: u8) -> Result<Choices, Error> {
        let best = self.best_action(mask, dice, rerolls)?;
        let mut out = Choices { items: [None; 32], len: 0 };
        let roll = dice.rank();
        let mut push = |choice: Choice| {
            out.items[out.len] = Some(choice);
            out.len += 1;
        };
        if mask == Mask::NONE {
            // The game is over: nothing to do.
        } else if rerolls == 0 {
            for c in mask.categories() {
                let points = self.points(dice, c);
                push(Choice { action: Action::Score(c), ev: self.score_value(mask, roll, c), points });
            }
        } else {
            for keep in dice.sub_multisets() {
                let ev = if keep.len() == DICE {
                    self.value_unchecked(mask, roll, 0)
                } else {
                    self.keep_value(mask, keep.graded_rank(), rerolls)
                };
                push(Choice { action: Action::Keep(keep), ev, points: 0 });
            }
        }
        let items = &mut out.items[..out.len];
        items.sort_by(|a, b| {
            let (a, b) = (a.expect("filled"), b.expect("filled"));
            let is_best = |c: &Choice| Some(c.action) == best;
            is_best(&b).cmp(&is_best(&a)).then(b.ev.total_cmp(&a.ev))
        });
        Ok(out)
    }
}

/// Checks every stored value a lookup trusts, so that a file whose checksums
/// were recomputed over bad values still cannot send a lookup out of bounds,
/// answer with an impossible action, or print a value that is not a number.
pub(crate) fn check_contents(table: &Table) -> Result<(), Error> {
    let section = |name: &str| table.section(name).expect("schema checked on open").1;
    let bad = |section: &str, why: String| Err(Error::BadSection { name: section.into(), why });
    let legal = LegalKeeps::new();
    // Turn-start values are printed as JSON numbers and summed into every
    // lookup: they must be finite and no more than the game can score.
    check_values_in_range("turn_start", section("turn_start"), MAX_GAME_SCORE)?;
    // Row by row (one mask, all rolls), so the hot loop has no divisions.
    for (mask, row) in section("best_category").chunks_exact(ROLLS).enumerate() {
        let open = |c: u8| usize::from(c) < CATEGORIES.len() && mask >> c & 1 == 1;
        if let Some(&c) = row.iter().find(|&&c| if mask == 0 { c != NO_ACTION } else { !open(c) }) {
            return bad("best_category", format!("holds {c} for mask {mask}, which is not an open category"));
        }
    }
    for (row_index, row) in section("best_keep").chunks_exact(ROLLS).enumerate() {
        let mask = row_index % MASKS;
        for (roll, &k) in row.iter().enumerate() {
            let ok = if mask == 0 { k == NO_ACTION } else { legal.allows(roll, k) };
            if !ok {
                return bad(
                    "best_keep",
                    format!("holds {k} for mask {mask} and roll {roll}, which is not a legal keep"),
                );
            }
        }
    }
    Ok(())
}
