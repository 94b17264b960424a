//! One folder per game, the same folders as the reader's: each game's
//! solver, writing its sections against the specs of the reader's view.
//! Yatzy and Yahtzee share one folder (`sheet`): one solver for both score
//! sheets, each sheet's rules and presets in a file of its own.

pub mod combo;
pub mod duel;
pub mod maxi;
#[cfg(feature = "example-game")]
pub mod one_die;
pub mod sheet;
pub mod tenk;
pub mod threes;
pub mod yazy;
