//! A built-in game's table read as its preset's rule set: the turn-start
//! values of `yatzy.dtab` (or `maxi-yatzy.dtab`) under the rules its
//! preset's parts table (`yatzy-parts.dtab`) carries, so that a game's
//! review, its options and its reasons are worked out exactly as a rule
//! set's ([`TurnStarts`]).
//!
//! A built-in game whose table is read so numbers its boxes as its preset
//! does and keeps the same upper total, so a state is the same numbers in
//! both; what differs is how each table stores its values, which
//! [`PresetValues`] hides. The tests hold the built-in values to the rules
//! engine's for the same preset.

use std::sync::Arc;

use super::{Board, RuleParts, TurnStarts};
use crate::error::TableError;
use crate::rules::RuleSet;

/// A built-in game's table whose states are its preset's: what
/// [`AsRules`] needs of it.
pub trait PresetValues: std::fmt::Debug + Send + Sync {
    /// The game's name, which its preset's is.
    const GAME: &'static str;

    /// What [`PresetValues::turn_start`] keeps between calls (the last
    /// masks' decoded values, where reading one costs a chunk's decoding).
    type Cache: Default + std::fmt::Debug + Send + Sync;

    /// Why `rules`, whose tracked boxes are `tracked`, are not this
    /// table's own, or `None` when they are ([`own_rules_differ`]).
    fn differs_from(&self, rules: &RuleSet, tracked: &[usize]) -> Option<String>;

    /// The expected score still to come at the turn start `mask`, `upper`,
    /// `held` of the preset's states (`held` as [`TurnStarts`] takes it).
    fn turn_start(&self, cache: &Self::Cache, mask: u32, upper: u32, held: u32) -> Result<f64, TableError>;
}

/// Why `rules` are not those of a built-in game named `id` with the boxes
/// `boxes`, `dice` dice, `rerolls` rerolls and the upper bonus `bonus`
/// (its points at its total, or none), or `None`: what
/// [`PresetValues::differs_from`] checks first.
pub fn own_rules_differ(
    rules: &RuleSet,
    id: &str,
    boxes: &[&str],
    (dice, rerolls): (u8, u8),
    bonus: Option<(u16, u16)>,
) -> Option<String> {
    let names: Vec<&str> = rules.boxes.iter().map(|b| b.name.as_str()).collect();
    if rules.name != id {
        Some(format!("are rule set {}'s", rules.name))
    } else if names != boxes {
        Some(format!("name the boxes {}, not the game's {}", names.join(", "), boxes.join(", ")))
    } else if rules.dice != dice || rules.rerolls != rerolls || rules.saved_rerolls {
        Some(format!("throw {} dice with {} rerolls, not {dice} with {rerolls}", rules.dice, rules.rerolls))
    } else if rules.upper_bonus.map(|u| (u.at, u.points)) != bonus.map(|(points, at)| (at, points)) {
        Some(match bonus {
            Some((points, at)) => format!("pay no upper bonus of {points} at {at}"),
            None => "pay an upper bonus, which the game does not".to_string(),
        })
    } else {
        None
    }
}

/// A built-in game's table `T` with its preset's parts table: the rule
/// set's sheet, as [`TurnStarts`] reads one.
#[derive(Debug)]
pub struct AsRules<'a, T: PresetValues> {
    table: &'a T,
    parts: Arc<RuleParts>,
    cache: T::Cache,
}

impl<'a, T: PresetValues> AsRules<'a, T> {
    /// The table `table` read under the rules of `parts`, its preset's
    /// parts table; refused when those are not the game's own: another
    /// name, other boxes, dice, rerolls or upper bonus.
    pub fn new(table: &'a T, parts: Arc<RuleParts>) -> Result<AsRules<'a, T>, TableError> {
        match table.differs_from(parts.rules(), parts.tracked()) {
            Some(why) => Err(TableError::section("rules", format!("{why}: not {}'s own rules", T::GAME))),
            None => Ok(AsRules { table, parts, cache: T::Cache::default() }),
        }
    }

    /// The preset's parts table, whose rules these are.
    pub fn parts(&self) -> &Arc<RuleParts> {
        &self.parts
    }
}

/// The preset's rules and states, as its parts table reads them.
impl<T: PresetValues> std::ops::Deref for AsRules<'_, T> {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.parts
    }
}

impl<T: PresetValues> TurnStarts for AsRules<'_, T> {
    fn turn_start_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, TableError> {
        if mask >= 1 << self.rules.boxes.len() || saved > 0 {
            let why = format!("holds no state with boxes {mask:#b} open and {saved} rerolls saved");
            return Err(TableError::section("rules", why));
        }
        self.table.turn_start(&self.cache, mask, upper, held)
    }

    fn as_turn_starts(&self) -> &dyn TurnStarts {
        self
    }
}
