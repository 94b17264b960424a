//! The max-expected-score player of yazy (its table's own decisions, as
//! the lookups give them), and what its play leaves to come: the turn
//! evaluation that the target table's distributions and the two-player
//! evaluations (`versus`) both read, in a module of its own so that
//! neither imports the other's.

use rayon::prelude::*;

use super::points;
use crate::dice::{multisets, FIVE_DICE};
use dice_tables_reader::five_dice::ROLLS;
use dice_tables_reader::yazy::duel::most;
use dice_tables_reader::yazy::{Action, Mask, Rules, Yazy, CATEGORIES, MASKS};
use dice_tables_reader::Game;

/// Every roll's points in each category, the rolls in rank order.
pub(super) fn category_points() -> Vec<[u8; CATEGORIES.len()]> {
    let rolls = multisets(5);
    assert!(rolls.iter().enumerate().all(|(i, d)| d.rank() == i), "rolls in rank order");
    rolls.iter().map(|d| std::array::from_fn(|c| points(d, c))).collect()
}

/// A stored decision at or above this is a partial keep (its graded rank
/// added); below, a category's mask bit.
pub(super) const KEEP: u16 = 100;

/// The max-expected-score player's decision for every mask, roll and
/// rerolls left, from yazy's table as its lookups give them.
pub struct Expected {
    rerolls: u8,
    decisions: Vec<u16>,
}

impl Expected {
    /// Solves yazy's table under `rerolls` and reads every decision back.
    pub fn new(rerolls: u8) -> Expected {
        let rules = Rules { rerolls };
        let sections = super::solve(rerolls, |_, _| {}).into_sections();
        let bytes = crate::artifact::encode(Yazy::ID, &Yazy::header_params(&rules), sections);
        let yazy = Yazy::from_vec(bytes).expect("a table just written reads back");
        let rolls = multisets(5);
        let levels = usize::from(rerolls) + 1;
        let decisions = (0..MASKS)
            .into_par_iter()
            .flat_map_iter(|mask| {
                let yazy = &yazy;
                rolls.iter().flat_map(move |&dice| {
                    (0..levels).map(move |r| match (mask, Mask::new(mask as u32).expect("a mask")) {
                        (0, _) => 0,
                        (_, m) => match yazy.best_action(m, dice, r as u8).expect("a lookup of the table") {
                            Some(Action::Score(c)) => u16::from(c.index()),
                            Some(Action::Keep(k)) => KEEP + k.graded_rank() as u16,
                            None => unreachable!("a category is open"),
                        },
                    })
                })
            })
            .collect();
        Expected { rerolls, decisions }
    }

    /// Rerolls a turn, as the rules it was solved under.
    pub fn rerolls(&self) -> u8 {
        self.rerolls
    }

    /// The decision at `mask`, the roll of rank `roll`, `rerolls` left: a
    /// category index, or [`KEEP`] plus a partial keep's graded rank.
    #[inline(always)]
    pub(super) fn decision(&self, mask: u16, roll: usize, rerolls: usize) -> u16 {
        self.decisions[(usize::from(mask) * ROLLS + roll) * (usize::from(self.rerolls) + 1) + rerolls]
    }
}

/// `R(mask, k)` for every mask: the chance that the max-expected-score
/// player with `mask` open scores `k` more points, from its turns (mass
/// moved forward through its decisions) and the masks one smaller.
pub fn remaining_points(expected: &Expected) -> Vec<Vec<f64>> {
    use dice_tables_reader::five_dice::{KEEP_LATTICE, PARTIAL_KEEPS, SIXTH};
    let category_points = category_points();
    let graph = &*FIVE_DICE;
    let mut remaining: Vec<Vec<f64>> = vec![Vec::new(); MASKS];
    remaining[0] = vec![1.0];
    for open in 1..=CATEGORIES.len() as u32 {
        let masks: Vec<u16> = (0..MASKS as u16).filter(|m| m.count_ones() == open).collect();
        let done: Vec<(u16, Vec<f64>)> = masks
            .par_iter()
            .map(|&mask| {
                // The turn's outcomes: per category, per points, the chance.
                let mut scored = vec![[0.0f64; 51]; CATEGORIES.len()];
                let mut rolling = graph.roll_probability.clone();
                let mut thrown = vec![0.0; PARTIAL_KEEPS + ROLLS];
                for left in (0..=usize::from(expected.rerolls)).rev() {
                    thrown.fill(0.0);
                    for (roll, &p) in rolling.iter().enumerate() {
                        match expected.decision(mask, roll, left) {
                            d if d >= KEEP => thrown[usize::from(d - KEEP)] += p,
                            c => scored[usize::from(c)][usize::from(category_points[roll][usize::from(c)])] += p,
                        }
                    }
                    // Each kept die set gains one die at a time (smaller keeps first).
                    for g in 0..PARTIAL_KEEPS {
                        let p = thrown[g] * SIXTH;
                        if p != 0.0 {
                            for &next in &KEEP_LATTICE.plus_face[g] {
                                thrown[usize::from(next)] += p;
                            }
                        }
                    }
                    rolling.copy_from_slice(&thrown[PARTIAL_KEEPS..]);
                }
                let mut out = vec![0.0; most(mask) as usize + 1];
                for (c, by_points) in scored.iter().enumerate() {
                    for (points, &q) in by_points.iter().enumerate().filter(|&(_, &q)| q > 0.0) {
                        for (o, &r) in out[points..].iter_mut().zip(&remaining[usize::from(mask & !(1 << c))]) {
                            *o += q * r;
                        }
                    }
                }
                (mask, out)
            })
            .collect();
        for (mask, r) in done {
            remaining[usize::from(mask)] = r;
        }
    }
    remaining
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The advisor's model of the opponent is the max-expected-score
    /// player's play: from every mask its points to come sum to 1 with the
    /// mean the yazy table's value, and from the start they are the final
    /// score's distribution the yazy table gives (within 1e-9).
    #[test]
    fn the_opponent_model_is_the_max_expected_score_play() {
        let expected = Expected::new(2);
        let remaining = remaining_points(&expected);
        let solution = super::super::solve(2, |_, _| {});
        for (mask, r) in remaining.iter().enumerate() {
            let sum: f64 = r.iter().sum();
            let mean: f64 = r.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{mask:#b}: sums to {sum}");
            let value = solution.turn_start[mask];
            assert!((mean - value).abs() < 1e-9, "{mask:#b}: mean {mean}, the table's value {value}");
        }
        let rules = Rules { rerolls: 2 };
        let bytes = crate::artifact::encode(Yazy::ID, &Yazy::header_params(&rules), solution.into_sections());
        let start = Yazy::from_vec(bytes).unwrap().score_distribution().unwrap();
        let all = &remaining[MASKS - 1];
        for (k, &p) in start.iter().enumerate() {
            let r = all.get(k).copied().unwrap_or(0.0);
            assert!((p - r).abs() < 1e-9, "P(score = {k}): {r} vs the table's {p}");
        }
    }
}
