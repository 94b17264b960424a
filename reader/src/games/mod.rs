//! One folder per game, each with its rules at the top: the layout of its
//! table's sections, its view ([`crate::Game`]) and its lookups. Yatzy and
//! Yahtzee share one folder (`sheet`): one solver and one view serve both
//! score sheets.

pub mod combo;
pub mod duel;
pub mod maxi;
#[cfg(feature = "example-game")]
pub mod one_die;
#[cfg(not(feature = "solitaire-only"))]
pub mod rule_sheet;
pub mod sheet;
pub mod tenk;
pub mod threes;
pub mod yazy;
