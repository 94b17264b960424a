//! A built-in score sheet's table read as its preset's rule set: the
//! turn-start values of `yatzy.dtab` under the rules `yatzy-parts.dtab`
//! carries, so that a game's review, its options and its reasons are
//! worked out exactly as a rule set's ([`TurnStarts`]).
//!
//! The preset's boxes are the built-in game's categories in mask-bit order,
//! its upper total the built-in one (63 standing for 63 and above) and its
//! one tracked box, where it has one, Yahtzee's yahtzee box (holding 50 is
//! the built-in flag): a state is the same numbers in both. The tests hold
//! the built-in values to the rules engine's for the same preset.

use std::sync::Arc;

use super::{ScoreSheet, SheetGame, BONUS_AT, REROLLS, UPPER_TOTALS, YAHTZEE_BOX};
use crate::error::TableError;
use crate::rule_sheet::{Board, RuleParts, TurnStarts};

/// A built-in game's table `G` (yatzy, yahtzee, yahtzee-free) with its
/// preset's parts table: the rule set's sheet, as [`TurnStarts`] reads one.
#[derive(Debug)]
pub struct SheetAsRules<'a, G: SheetGame> {
    table: &'a ScoreSheet<G>,
    parts: Arc<RuleParts>,
}

impl<'a, G: SheetGame> SheetAsRules<'a, G> {
    /// The table `table` read under the rules of `parts`, its preset's
    /// parts table (`yatzy-parts.dtab`); refused when those are not the
    /// game's own: another name, other boxes, dice, rerolls or upper bonus.
    pub fn new(table: &'a ScoreSheet<G>, parts: Arc<RuleParts>) -> Result<SheetAsRules<'a, G>, TableError> {
        let rules = parts.rules();
        let names: Vec<&str> = rules.boxes.iter().map(|b| b.name.as_str()).collect();
        let tracked = parts.tracked();
        let why = if rules.name != G::ID {
            Some(format!("are rule set {}'s", rules.name))
        } else if names != G::CATEGORIES {
            Some(format!("name the boxes {}, not the game's {}", names.join(", "), G::CATEGORIES.join(", ")))
        } else if rules.dice != 5 || rules.rerolls != REROLLS || rules.saved_rerolls {
            Some(format!("throw {} dice with {} rerolls, not 5 with {REROLLS}", rules.dice, rules.rerolls))
        } else if rules.upper_bonus.map(|u| u.at) != Some(BONUS_AT.into()) {
            Some(format!("pay no upper bonus at {BONUS_AT}"))
        } else if (1usize << tracked.len()) != G::FLAGS || tracked.iter().any(|&b| b != YAHTZEE_BOX) {
            Some("track other boxes than the game's flag".to_string())
        } else {
            None
        };
        match why {
            Some(why) => Err(TableError::section("rules", format!("{why}: not {}'s own rules", G::ID))),
            None => Ok(SheetAsRules { table, parts }),
        }
    }

    /// The preset's parts table, whose rules these are.
    pub fn parts(&self) -> &Arc<RuleParts> {
        &self.parts
    }
}

/// The preset's rules and states, as its parts table reads them.
impl<G: SheetGame> std::ops::Deref for SheetAsRules<'_, G> {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.parts
    }
}

impl<G: SheetGame> TurnStarts for SheetAsRules<'_, G> {
    fn turn_start_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, TableError> {
        let categories = G::CATEGORIES.len();
        if mask >= 1 << categories || saved > 0 {
            let why = format!("holds no state with boxes {mask:#b} open and {saved} rerolls saved");
            return Err(TableError::section(G::SECTIONS[0].name, why));
        }
        let flag = self.tracked().iter().any(|&b| held >> b & 1 == 1);
        let row = self.table.row(mask, flag)?;
        Ok(row[(upper as usize).min(UPPER_TOTALS - 1)])
    }

    fn as_turn_starts(&self) -> &dyn TurnStarts {
        self
    }
}
