//! Independent brute-force evaluators, one file per game. They share no
//! code with the generator: they work on sorted arrays of faces, enumerate
//! every outcome of the rerolled dice, and memoise in hash maps. They are
//! slow and simple on purpose.

pub mod combo;
pub mod duel;
pub mod maxi;
pub mod rule_set;
pub mod sheet;
pub mod tenk;
pub mod threes;
pub mod yazy;
