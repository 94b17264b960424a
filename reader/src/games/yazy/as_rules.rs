//! yazy's table as its preset's rule set
//! ([`AsRules`](crate::rule_sheet::AsRules)), under the rules of
//! `yazy-parts.dtab`: the preset numbers its boxes as [`CATEGORIES`],
//! pays no bonus and tracks no box, so a state is its open boxes alone.

use super::{Yazy, CATEGORIES, DICE};
use crate::error::TableError;
use crate::game::Game;
use crate::rule_sheet::{own_rules_differ, AsRules, PresetValues};
use crate::rules::RuleSet;

/// yazy's table with its preset's parts table.
pub type YazyAsRules<'a> = AsRules<'a, Yazy>;

impl PresetValues for Yazy {
    // The turn-start values are one array in memory: nothing to keep.
    type Cache = ();
    const GAME: &'static str = <Yazy as Game>::ID;

    fn differs_from(&self, rules: &RuleSet, tracked: &[usize]) -> Option<String> {
        own_rules_differ(rules, Self::GAME, &CATEGORIES, (DICE as u8, self.rerolls()), None)
            .or_else(|| (!tracked.is_empty()).then(|| "track boxes the table does not".to_string()))
    }

    fn turn_start(&self, _: &(), mask: u32, _: u32, _: u32) -> Result<f64, TableError> {
        // AsRules has refused a mask beyond the boxes.
        Ok(self.turn_start[mask as usize])
    }
}
