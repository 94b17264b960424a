//! Maxi Yatzy's table as its preset's rule set
//! ([`AsRules`](crate::rule_sheet::AsRules)), under the rules of
//! `maxi-yatzy-parts.dtab`: the preset numbers its boxes as [`BOXES`] and
//! caps its upper total at the bonus's threshold, as the table does.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::{MaskValues, Maxi, MaxiPreset, BOXES, DICE};
use crate::error::TableError;
use crate::rule_sheet::{own_rules_differ, AsRules, PresetValues};
use crate::rules::RuleSet;

/// Maxi Yatzy's table (the finnish rules') with its preset's parts table.
pub type MaxiAsRules<'a, P> = AsRules<'a, Maxi<P>>;

/// How many masks' values [`MaxiRows`] keeps: a turn reads its own mask's
/// and the twenty at most its boxes lead to.
const KEPT_MASKS: usize = 24;

/// The last masks' decoded values: reading one decodes a chunk of
/// thousands of masks, and a turn's options read each of its masks
/// hundreds of times.
#[derive(Debug, Default)]
pub struct MaxiRows(Mutex<VecDeque<(u32, Arc<MaskValues>)>>);

impl<P: MaxiPreset> PresetValues for Maxi<P> {
    type Cache = MaxiRows;
    const GAME: &'static str = P::ID;

    fn differs_from(&self, rules: &RuleSet, tracked: &[usize]) -> Option<String> {
        let table = self.rules();
        let bonus = Some((u16::from(table.bonus), u16::from(table.bonus_at)));
        let rerolls = super::REROLLS as u8;
        own_rules_differ(rules, P::ID, &BOXES, (DICE as u8, rerolls), bonus)
            .or_else(|| table.saved_rolls.then(|| "save no rerolls, as the table does".to_string()))
            .or_else(|| (!tracked.is_empty()).then(|| "track boxes the table does not".to_string()))
    }

    fn turn_start(&self, cache: &MaxiRows, mask: u32, upper: u32, _: u32) -> Result<f64, TableError> {
        let state = self.state(mask, upper, 0).map_err(|e| TableError::section("rules", e.to_string()))?;
        let mut kept = cache.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let values = match kept.iter().find(|(m, _)| *m == mask) {
            Some((_, values)) => values.clone(),
            None => {
                let values = Arc::new(self.mask_values(mask)?);
                if kept.len() == KEPT_MASKS {
                    kept.pop_front();
                }
                kept.push_back((mask, values.clone()));
                values
            }
        };
        Ok(values.get(0, usize::from(state.upper)))
    }
}
