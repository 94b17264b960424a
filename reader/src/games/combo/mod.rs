//! Lookups in the combo table.
//!
//! combo: five dice, an initial roll, then up to `rerolls` rerolls (default
//! 5), keeping any sub-multiset each time; keeping all five ends the game.
//! The final dice score their sum plus a bonus (five of a kind +70, straight
//! +60, full house +50, four of a kind +40, three of a kind +30). The table
//! holds, for every roll and number of rerolls left, the expected final score
//! under optimal play (exact, f64) and the best keep.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::{combo::Combo, Tables};
//! let tables = Tables::open_default()?;
//! let combo = tables.get::<Combo>()?;
//! assert!((combo.game_start_value()? - 68.412950).abs() < 1e-6);
//! // A full house with five rerolls to come: keep it? No, the table says
//! // going for five sixes is worth more.
//! let best = combo.best_keep("66622".parse()?, 5)?;
//! assert_eq!(best.to_string(), "666");
//! # Ok(()) }
//! ```

use crate::dice::Dice;
use crate::error::{ArgumentError, Error, TableError};
use crate::five_dice::{check_roll, check_state, LEGAL_KEEPS, PARTIAL_KEEP_DICE};
pub use crate::five_dice::{DICE, KEEP_ALL, PARTIAL_KEEPS, ROLLS};
use crate::format::read_f64;
use crate::format::{DType, Encoding, Header};
use crate::game::{check_values_in_range, param_in, Checked, Game, SectionSpec};
use crate::options::Options;

/// The most rerolls a table may be solved for.
pub const MAX_REROLLS: i64 = 20;
/// The highest final score: five sixes, 30 + 70.
pub const MAX_SCORE: f64 = 100.0;

/// One keep and the expected final score if it is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeepChoice {
    /// The dice kept (all five = stop).
    pub keep: Dice,
    /// The expected final score.
    pub ev: f64,
}

/// Every keep of a roll, the optimal first, then from best to worst: at
/// most 32 (the sub-multisets of five dice).
pub type KeepChoices = Options<KeepChoice, 32>;

/// The rules a combo table was solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rerolls after the initial roll (header parameter `rerolls`, 0 to [`MAX_REROLLS`]).
    pub rerolls: u8,
}

/// The expected final score before the initial roll, exact.
pub const GAME_START: SectionSpec<Rules> = SectionSpec::new(0, "game_start", DType::F64, Encoding::Raw, |_| vec![1]);
/// The final score of each roll: per roll.
pub const FINAL_SCORE: SectionSpec<Rules> =
    SectionSpec::new(1, "final_score", DType::U8, Encoding::Raw, |_| vec![ROLLS as u64]);
/// The expected final score, exact: per (rerolls left 0 to R, roll).
pub const ROLL_VALUE: SectionSpec<Rules> =
    SectionSpec::new(2, "roll_value", DType::F64, Encoding::Raw, |r| vec![u64::from(r.rerolls) + 1, ROLLS as u64]);
/// The best keep's graded rank or [`KEEP_ALL`]: per (rerolls left - 1, roll).
pub const BEST_KEEP: SectionSpec<Rules> =
    SectionSpec::new(3, "best_keep", DType::U8, Encoding::Raw, |r| vec![u64::from(r.rerolls), ROLLS as u64]);
/// Each partial keep's expected final score, exact: per (rerolls left - 1, keep).
pub const KEEP_VALUE: SectionSpec<Rules> =
    SectionSpec::new(4, "keep_value", DType::F64, Encoding::Raw, |r| vec![u64::from(r.rerolls), PARTIAL_KEEPS as u64]);

/// A combo table.
#[derive(Debug)]
pub struct Combo {
    t: Checked<Combo>,
}

impl Game for Combo {
    const ID: &'static str = "combo";
    type Params = Rules;
    const SECTIONS: &'static [SectionSpec<Rules>] = &[GAME_START, FINAL_SCORE, ROLL_VALUE, BEST_KEEP, KEEP_VALUE];

    fn params(header: &Header) -> Result<Rules, TableError> {
        Ok(Rules { rerolls: param_in(header, "rerolls", 0..=MAX_REROLLS)? as u8 })
    }

    fn header_params(rules: &Rules) -> Vec<(&'static str, i64)> {
        vec![("rerolls", i64::from(rules.rerolls))]
    }

    /// Every section is small: all checked on open.
    fn check_contents(t: &Checked<Combo>) -> Result<(), TableError> {
        for spec in Self::SECTIONS {
            t.whole(spec)?;
        }
        Ok(())
    }

    /// Legal keeps, and finite scores in range.
    fn check_chunk(_: &Rules, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        let spec = &Self::SECTIONS[section];
        if spec.dtype == DType::F64 {
            return check_values_in_range(spec.name, bytes, MAX_SCORE);
        }
        if section == BEST_KEEP.index {
            let legal = &*LEGAL_KEEPS;
            for (i, &k) in bytes.iter().enumerate() {
                if !legal.allows(i % ROLLS, k) {
                    let why = format!("holds {k} for roll {}, which is not a legal keep", i % ROLLS);
                    return Err(TableError::section(BEST_KEEP.name, why));
                }
            }
        }
        Ok(())
    }

    fn from_checked(t: Checked<Combo>) -> Result<Combo, TableError> {
        Ok(Combo { t })
    }

    fn checked(&self) -> &Checked<Combo> {
        &self.t
    }
}

impl Combo {
    /// The number of rerolls the table was solved for.
    pub fn rerolls(&self) -> u8 {
        self.t.params().rerolls
    }

    /// The expected final score before the initial roll, under optimal play.
    pub fn game_start_value(&self) -> Result<f64, Error> {
        Ok(self.t.f64_at(&GAME_START, 0)?)
    }

    /// The final score of five dice.
    pub fn final_score(&self, dice: Dice) -> Result<u8, Error> {
        check_roll(dice, Self::ID)?;
        Ok(self.t.u8_at(&FINAL_SCORE, dice.rank())?)
    }

    fn check_state(&self, dice: Dice, rerolls: u8) -> Result<(), ArgumentError> {
        check_state(dice, rerolls, self.rerolls(), Self::ID)
    }

    /// The expected final score with `dice` showing and `rerolls` left (exact).
    pub fn value(&self, dice: Dice, rerolls: u8) -> Result<f64, Error> {
        self.check_state(dice, rerolls)?;
        Ok(self.t.f64_at(&ROLL_VALUE, usize::from(rerolls) * ROLLS + dice.rank())?)
    }

    /// The dice to keep; all five means stop (always, with no rerolls left).
    pub fn best_keep(&self, dice: Dice, rerolls: u8) -> Result<Dice, Error> {
        self.check_state(dice, rerolls)?;
        if rerolls == 0 {
            return Ok(dice);
        }
        let k = self.t.u8_at(&BEST_KEEP, usize::from(rerolls - 1) * ROLLS + dice.rank())?;
        Ok(PARTIAL_KEEP_DICE.get(usize::from(k)).copied().unwrap_or(dice))
    }

    /// Every keep (each distinct sub-multiset) with its expected final score,
    /// the stored best first, then from best to worst. With no rerolls left
    /// the only choice is to stop.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Result<KeepChoices, Error> {
        let best = self.best_keep(dice, rerolls)?;
        let stop = f64::from(self.final_score(dice)?);
        let mut out = KeepChoices::new();
        if rerolls == 0 {
            out.push(KeepChoice { keep: dice, ev: stop });
        } else {
            let keep_values = self.t.whole(&KEEP_VALUE)?;
            for keep in dice.sub_multisets() {
                let ev = if keep.len() == DICE {
                    stop
                } else {
                    read_f64(keep_values, usize::from(rerolls - 1) * PARTIAL_KEEPS + keep.graded_rank())
                };
                out.push(KeepChoice { keep, ev });
            }
        }
        out.rank(|c| c.keep == best, |c| c.ev);
        Ok(out)
    }
}
