//! Whole games of Maxi Yatzy played from a table's own decisions: the
//! check that the table's start value is what its policy scores on average.

use dice_tables_reader::maxi::{points, Maxi, MaxiAction, MaxiPreset, ALL, DICE};
use dice_tables_reader::{Dice, Error};

use crate::play::DiceRng;

/// Plays one game from the start by the table's best actions (saving the
/// rerolls a turn leaves where the rules save them) and returns its final
/// score, the upper bonus included.
pub fn play<P: MaxiPreset>(table: &Maxi<P>, rng: &mut DiceRng) -> Result<u32, Error> {
    let rules = table.rules();
    let (mut mask, mut upper, mut saved, mut total) = (ALL, 0u32, 0u32, 0u32);
    while mask != 0 {
        let state = table.state(mask, upper, saved)?;
        let mut rerolls = rules.turn_rerolls(saved as usize) as u8;
        let turn = table.turn(state, rerolls)?;
        let mut faces: Vec<u8> = (0..DICE).map(|_| rng.die()).collect();
        loop {
            let dice = Dice::from_faces(&faces).expect("six dice");
            let best = table.turn_options(&turn, dice, rerolls)?.best().map(|o| o.action);
            match best {
                Some(MaxiAction::Keep(keep)) => {
                    assert!(rerolls > 0, "a keep with no reroll left");
                    faces = keep.faces().collect();
                    faces.extend((faces.len()..DICE).map(|_| rng.die()));
                    rerolls -= 1;
                }
                Some(MaxiAction::Score(b)) => {
                    let p = u32::from(points(&dice.counts(), usize::from(b)));
                    total += p;
                    if b < 6 {
                        upper += p;
                    }
                    mask &= !(1 << b);
                    saved = if rules.saved_rolls { u32::from(rerolls) } else { 0 };
                    break;
                }
                None => unreachable!("a box is open"),
            }
        }
    }
    Ok(total + if upper >= u32::from(rules.bonus_at) { u32::from(rules.bonus) } else { 0 })
}

/// The scores of `games` games, as counts by score, played from `seed` on
/// every core (each block of games from its own stream, so the result does
/// not depend on the thread count).
pub fn score_histogram<P: MaxiPreset>(table: &Maxi<P>, games: u64, seed: u64) -> Result<Vec<u64>, Error> {
    crate::play::histogram(games, seed, 1_000, |rng| play(table, rng))
}
