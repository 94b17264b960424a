//! one-die's solver (the reader's `one_die` has the rules): with a face
//! showing, stop or throw again, backwards from the last reroll.

use crate::artifact::{le_bytes, Section};
use crate::solved::Solved;
use dice_tables_reader::one_die::{OneDie, Rules, FACE_VALUE, GAME_START};

/// The rerolls the table is solved for.
pub const REROLLS: u8 = 2;

/// The one-die table: every face's value with 0 to [`REROLLS`] rerolls left.
pub fn solve_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let rules = Rules { rerolls: REROLLS };
    let mut face_value = Vec::with_capacity(6 * (usize::from(REROLLS) + 1));
    // The value of a throw with `left - 1` rerolls after it (read from one left on).
    let mut throw_value = 0.0;
    for left in 0..=REROLLS {
        let values: Vec<f64> =
            (1..=6).map(|face| if left == 0 { f64::from(face) } else { f64::from(face).max(throw_value) }).collect();
        throw_value = values.iter().sum::<f64>() / 6.0;
        face_value.extend(values);
    }
    progress(1, 1);
    let sections = vec![
        Section::of(&GAME_START, &rules, throw_value.to_le_bytes().to_vec()),
        Section::of(&FACE_VALUE, &rules, le_bytes(&face_value, f64::to_le_bytes)),
    ];
    Solved::new::<OneDie>(&rules, face_value.len() as u64, sections)
}
