//! yahtzee (United States).
//!
//! Five dice, 13 turns of a roll and two rerolls. Categories: ones to sixes
//! (face x count); three and four of a kind (the sum of all dice), full
//! house (25), small straight (four in a row: 30), large straight (five in
//! a row: 40), yahtzee (50), chance (the sum). Bonus 35 when ones to sixes
//! total 63 or more; 100 more for each further Yahtzee while the yahtzee
//! box holds 50; a Yahtzee rolled with the yahtzee box filled is a joker,
//! placed by the forced (official) or free (Verhoeff's) reading.
//! Scoring: `dice_tables_reader::sheet::yahtzee`; the solver: [`crate::sheet`].

use dice_tables_reader::sheet::{YahtzeeFreeGame, YahtzeeGame};

use crate::solved::Solved;

/// The yahtzee table (the forced joker reading).
pub fn solve_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    super::solve_table::<YahtzeeGame>(progress)
}

/// The yahtzee-free table (the free joker reading).
pub fn solve_free_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    super::solve_table::<YahtzeeFreeGame>(progress)
}

/// The yahtzee-target table (the forced joker reading; see [`super::target`]).
pub fn solve_target_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let open = rules.target_open.map_or(usize::MAX, usize::from);
    super::target::solve_table::<YahtzeeGame>(open, progress)
}

/// The yahtzee-free-target table (the free joker reading).
pub fn solve_free_target_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let open = rules.target_open.map_or(usize::MAX, usize::from);
    super::target::solve_table::<YahtzeeFreeGame>(open, progress)
}
