//! yatzy (Scandinavian).
//!
//! Five dice, 15 turns of a roll and two rerolls. Categories: ones to sixes
//! (face x count); pair, two pairs, three and four of a kind (the dice of
//! the highest such faces); small straight 1-5 (15), large straight 2-6
//! (20), full house (3 + 2 of two faces: the sum), chance (the sum), yatzy
//! (five of a kind: 50). Bonus 50 when ones to sixes total 63 or more.
//! Scoring: `dice_tables_reader::sheet::YATZY`; the solver: [`crate::sheet`].

use dice_tables_reader::sheet::YatzyGame;

use crate::solved::Solved;

/// The yatzy table.
pub fn solve_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    super::solve_table::<YatzyGame>(progress)
}

/// The yatzy-target table (see [`super::target`]).
pub fn solve_target_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let open = rules.target_open.map_or(usize::MAX, usize::from);
    super::target::solve_table::<YatzyGame>(open, progress)
}
