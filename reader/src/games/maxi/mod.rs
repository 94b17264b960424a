//! Maxi Yatzy: six dice, twenty boxes.
//!
//! A turn: roll all six dice, then up to two rerolls keeping any dice; 20
//! turns, each box filled once in any order, any open box may take 0.
//! Upper boxes (ones to sixes) score the face times how many show; their
//! total earns the upper bonus (finnish: 50 at 75 or more; swedish: 100 at
//! 84 or more). Lower boxes need different faces where they say so: six
//! alike is a pair and three, four and five of a kind, but not two or three
//! pairs, a full house, a villa or a tower. Under the swedish rules the
//! rerolls a turn leaves unused are saved, and a later turn may use its two
//! and every saved one.

#[cfg(not(feature = "solitaire-only"))]
mod as_rules;
mod codec;
mod layout;
mod rules;
mod table;
mod turn;

#[cfg(not(feature = "solitaire-only"))]
pub use as_rules::{MaxiAsRules, MaxiRows};
pub use codec::{encode_chunk, Place, BITS_AT, CHUNK_BYTES, CHUNK_VALUES, MAX_BITS, UNITS_PER_POINT};
pub use layout::{Layout, LAYERS};
pub use rules::*;
pub use table::*;
pub use turn::*;
