//! A built-in score sheet's table as its preset's rule set
//! ([`AsRules`](crate::rule_sheet::AsRules)): the preset's boxes are the
//! built-in game's categories in mask-bit order, its upper total the
//! built-in one (63 standing for 63 and above) and its one tracked box,
//! where it has one, Yahtzee's yahtzee box (holding 50 is the built-in
//! flag).

use super::{ScoreSheet, SheetGame, BONUS_AT, REROLLS, UPPER_TOTALS, YAHTZEE_BOX};
use crate::error::TableError;
use crate::rule_sheet::{own_rules_differ, AsRules, PresetValues};
use crate::rules::RuleSet;

/// A built-in game's table `G` (yatzy, yahtzee, yahtzee-free) with its
/// preset's parts table (`yatzy-parts.dtab`).
pub type SheetAsRules<'a, G> = AsRules<'a, ScoreSheet<G>>;

impl<G: SheetGame> PresetValues for ScoreSheet<G> {
    // A row of values is a slice of the mapped table: nothing to keep.
    type Cache = ();
    const GAME: &'static str = G::ID;

    fn differs_from(&self, rules: &RuleSet, tracked: &[usize]) -> Option<String> {
        let bonus = Some((u16::from(self.scoring().upper_bonus), u16::from(BONUS_AT)));
        own_rules_differ(rules, Self::GAME, G::CATEGORIES, (5, REROLLS), bonus).or_else(|| {
            let flag = (1usize << tracked.len()) != G::FLAGS || tracked.iter().any(|&b| b != YAHTZEE_BOX);
            flag.then(|| "track other boxes than the game's flag".to_string())
        })
    }

    fn turn_start(&self, _: &(), mask: u32, upper: u32, held: u32) -> Result<f64, TableError> {
        let flag = G::FLAGS > 1 && held >> YAHTZEE_BOX & 1 == 1;
        let row = self.row(mask, flag)?;
        Ok(row[(upper as usize).min(UPPER_TOTALS - 1)])
    }
}
