//! The exact distribution of a whole yatzy or yahtzee game's score under
//! max-expected-score play: the play of the `yatzy` and `yahtzee` tables'
//! lookups (their decisions are the exact solution's, proved when the table
//! is written; ties go to the first in the tie order within `EXACT_TIE`).
//!
//! Mass moves forward through the game: per turn-start state, the chance
//! of each score so far; each state's turn, played by the exact values'
//! decisions, sends it to the next states shifted by the points scored.
//! States are taken in layers by open categories, each layer's turns in
//! parallel, then each next state gathers what reaches it.

use dice_tables_reader::dice::FACES;
use dice_tables_reader::five_dice::{partial_keeps_in_tie_order, DICE, PARTIAL_KEEPS, ROLLS};
use dice_tables_reader::sheet::{Scoring, SheetStates, BONUS_AT, EXACT_TIE, SIXTH, UPPER_TOTALS};
use rayon::prelude::*;

use super::{row_exists, TurnStart};
use crate::dice::{multisets, Dice, FIVE_DICE};

/// A state as a slot: (mask * flags + flag) * 64 + upper total.
type Slot = usize;

/// One outcome of a turn: the next state, the points scored, the chance.
type Outcome = (Slot, u16, f64);

/// Rolls and keeps, built once.
struct Turns<'a> {
    scoring: &'a Scoring,
    exact: &'a TurnStart,
    rolls: Vec<Dice>,
    /// Per roll, every category's points by the ordinary rules (no joker).
    points: Vec<[u8; 16]>,
    /// Per roll, whether it is five of a kind (a joker where the rules say).
    five_of_a_kind: Vec<bool>,
    /// Per roll, its partial keeps' graded ranks in the lookups' tie order.
    keeps: Vec<arrayvec::ArrayVec<u8, 31>>,
}

/// Buffers one thread reuses from state to state.
struct Workspace {
    /// Per roll, its decision with no rerolls left: (next slot, points).
    scored: Vec<(Slot, u16)>,
    values: Vec<[f64; 1]>,
    /// Per roll, its value with one reroll fewer (keeping all five).
    stop: Vec<[f64; 1]>,
    scratch: Vec<[f64; 1]>,
    /// Per level (1, 2 rerolls left) and roll: the partial keep, or `u16::MAX` to keep all five.
    decisions: [Vec<u16>; 2],
    rolling: Vec<f64>,
    thrown: Vec<f64>,
}

/// P(final score = s) for s = 0 to `most` from the start of a game scored
/// by `scoring`, whose exact turn-start values are `exact`.
pub fn ev_distribution(scoring: &Scoring, exact: &TurnStart, most: usize) -> Vec<f64> {
    let categories = scoring.categories.len();
    let flags = exact.flags;
    let turns = Turns::new(scoring, exact);
    let all = (1usize << categories) - 1;
    // Per slot of the layer being played: the chance of each score so far.
    let mut layer: Vec<(Slot, Vec<f64>)> = vec![((all * flags) * UPPER_TOTALS, vec![1.0])];
    for _open in (1..=categories).rev() {
        let outcomes: Vec<Vec<Outcome>> =
            layer.par_iter().map_init(Workspace::new, |ws, (slot, _)| turns.outcomes(*slot, ws)).collect();
        // Every (next slot, source, points, chance), gathered by next slot.
        let mut edges: Vec<(Slot, u32, u16, f64)> = outcomes
            .iter()
            .enumerate()
            .flat_map(|(source, o)| o.iter().map(move |&(next, points, p)| (next, source as u32, points, p)))
            .collect();
        edges.sort_unstable_by_key(|e| (e.0, e.1, e.2));
        let groups: Vec<&[(Slot, u32, u16, f64)]> = edges.chunk_by(|a, b| a.0 == b.0).collect();
        layer = groups
            .par_iter()
            .map(|group| {
                let len = group.iter().map(|&(_, s, points, _)| layer[s as usize].1.len() + usize::from(points)).max();
                let mut out = vec![0.0; len.unwrap_or(0)];
                for &(_, source, points, p) in group.iter() {
                    for (o, &q) in out[usize::from(points)..].iter_mut().zip(&layer[source as usize].1) {
                        *o += q * p;
                    }
                }
                (group[0].0, out)
            })
            .collect();
    }
    // No category open: the upper bonus, if earned, is paid now.
    let mut out = vec![0.0; most + 1];
    for (slot, so_far) in &layer {
        let bonus = if slot % UPPER_TOTALS >= usize::from(BONUS_AT) { usize::from(scoring.upper_bonus) } else { 0 };
        for (s, &p) in so_far.iter().enumerate() {
            out[s + bonus] += p;
        }
    }
    out
}

impl Workspace {
    fn new() -> Workspace {
        let keeps = FIVE_DICE.keeps();
        Workspace {
            scored: vec![(0, 0); ROLLS],
            values: vec![[0.0; 1]; keeps],
            stop: vec![[0.0; 1]; ROLLS],
            scratch: vec![[0.0; 1]; PARTIAL_KEEPS],
            decisions: [vec![0; ROLLS], vec![0; ROLLS]],
            rolling: vec![0.0; ROLLS],
            thrown: vec![0.0; keeps],
        }
    }
}

/// Per state of `states` with at most `max_open` categories open (the
/// others empty): P(points still to come = x) for x = 0, 1, ... under
/// max-expected-score play from the state's turn start (the play of
/// [`ev_distribution`]), the upper bonus counted when the game ends as the
/// target tables count it. What an opponent-aware player takes an
/// opponent's future to be.
///
/// Mass moves backward, layer by layer from the game's end: a state's
/// distribution is its turn's outcomes' next distributions, each shifted
/// by the points scored and weighted by its chance.
pub fn remaining_distributions(
    scoring: &Scoring,
    exact: &TurnStart,
    states: &SheetStates,
    max_open: usize,
) -> Vec<Box<[f64]>> {
    let categories = scoring.categories.len();
    let flags = exact.flags;
    let turns = Turns::new(scoring, exact);
    let mut out: Vec<Box<[f64]>> = vec![Box::new([]); states.len()];
    for open in 0..=max_open.min(categories) {
        let jobs = super::layer_jobs(states, categories, open);
        let solved: Vec<Box<[f64]>> = jobs
            .par_iter()
            .map_init(Workspace::new, |ws, job| {
                let mut r = Vec::new();
                if job.mask == 0 {
                    let bonus = if job.upper >= BONUS_AT { usize::from(scoring.upper_bonus) } else { 0 };
                    r.resize(bonus + 1, 0.0);
                    r[bonus] = 1.0;
                    return r.into_boxed_slice();
                }
                let slot = (job.mask as usize * flags + usize::from(job.flag)) * UPPER_TOTALS + usize::from(job.upper);
                for (next, points, p) in turns.outcomes(slot, ws) {
                    let (row, upper) = (next / UPPER_TOTALS, next % UPPER_TOTALS);
                    let id = states.id_unchecked((row / flags) as u32, row % flags == 1, upper as u8);
                    let after = &out[id];
                    let shift = usize::from(points);
                    if r.len() < shift + after.len() {
                        r.resize(shift + after.len(), 0.0);
                    }
                    for (o, &q) in r[shift..].iter_mut().zip(after.iter()) {
                        *o += p * q;
                    }
                }
                r.into_boxed_slice()
            })
            .collect();
        for (job, r) in jobs.iter().zip(solved) {
            out[job.id as usize] = r;
        }
    }
    out
}

impl<'a> Turns<'a> {
    fn new(scoring: &'a Scoring, exact: &'a TurnStart) -> Turns<'a> {
        let categories = scoring.categories.len();
        let rolls = multisets(DICE);
        let keeps = partial_keeps_in_tie_order();
        let points = rolls
            .iter()
            .map(|d| std::array::from_fn(|c| if c < categories { scoring.points(&d.counts(), c) } else { 0 }))
            .collect();
        let five_of_a_kind = rolls.iter().map(|d| d.counts().contains(&5)).collect();
        Turns { scoring, exact, rolls, points, five_of_a_kind, keeps }
    }
}

impl Turns<'_> {
    /// The outcomes of one turn from `slot`, played by the exact values.
    fn outcomes(&self, slot: Slot, ws: &mut Workspace) -> Vec<Outcome> {
        let flags = self.exact.flags;
        let (row, upper) = (slot / UPPER_TOTALS, slot % UPPER_TOTALS);
        let (mask, flag) = ((row / flags) as u32, row % flags == 1);
        debug_assert!(row_exists(self.scoring, mask as usize, usize::from(flag)));
        let categories = self.scoring.categories.len();
        // Per open category: the next row with the flag as it is, and after
        // scoring points (the yahtzee box's 50 sets the flag).
        // Per open category and whether scoring it sets the flag (the
        // yahtzee box's 50): the next row's values and its first slot.
        let joker_box = self.scoring.joker.map(|j| j.0);
        let joker = joker_box.is_some_and(|b| mask >> b & 1 == 0);
        let open: arrayvec::ArrayVec<usize, 16> = (0..categories).filter(|c| mask >> c & 1 == 1).collect();
        let mut next: [[(&[f64], Slot); 2]; 16] = [[(&[], 0); 2]; 16];
        for &c in &open {
            for set in [false, true] {
                let row = (mask & !(1 << c)) as usize * flags + usize::from(flag || (set && flags == 2));
                next[c][usize::from(set)] = (self.exact.row(row / flags, row % flags), row * UPPER_TOTALS);
            }
        }
        let option = |c: usize, points: u8, upper_points: u8, set: bool| {
            let after = (upper + usize::from(upper_points)).min(usize::from(BONUS_AT));
            let (values, first) = next[c][usize::from(set)];
            (f64::from(points) + values[after], first + after, u16::from(points))
        };
        // With no rerolls left: each roll's decision (first in category
        // order within EXACT_TIE of the best) and value.
        for roll in 0..ROLLS {
            let mut options = arrayvec::ArrayVec::<(f64, Slot, u16), 16>::new();
            if joker && self.five_of_a_kind[roll] {
                self.scoring.scores(mask, flag, &self.rolls[roll], |s| {
                    options.push(option(s.category, s.points, s.upper, s.bonus_flag));
                });
            } else {
                for &c in &open {
                    let p = self.points[roll][c];
                    let upper_points = if c < FACES { p } else { 0 };
                    options.push(option(c, p, upper_points, Some(c) == joker_box && p > 0));
                }
            }
            let (i, best) = first_within(options.iter().map(|o| o.0));
            ws.scored[roll] = (options[i].1, options[i].2);
            ws.values[PARTIAL_KEEPS + roll] = [best];
        }
        // The keep decisions, 1 then 2 rerolls left: the highest option of
        // each roll from the lattice's best pass, then the first option in
        // the tie order (keep all five, then larger keeps first) within
        // EXACT_TIE of it.
        let graph = &*FIVE_DICE;
        for level in 0..2 {
            graph.keep_values_lanes(&mut ws.values, |sum| sum * SIXTH);
            ws.stop.copy_from_slice(&ws.values[PARTIAL_KEEPS..]);
            graph.best_values_lanes(&mut ws.values, &mut ws.scratch);
            for roll in 0..ROLLS {
                let floor = ws.values[PARTIAL_KEEPS + roll][0] - EXACT_TIE;
                ws.decisions[level][roll] = if ws.stop[roll][0] >= floor {
                    u16::MAX
                } else {
                    let keeps = &self.keeps[roll];
                    let best = keeps.iter().find(|&&g| ws.values[usize::from(g)][0] >= floor);
                    u16::from(*best.expect("the best is among them"))
                };
            }
        }
        // Mass forward: a fresh roll, two rerolls, then the scores.
        ws.rolling.copy_from_slice(&graph.roll_probability);
        for level in [1, 0] {
            ws.thrown.fill(0.0);
            for (roll, &p) in ws.rolling.iter().enumerate() {
                match ws.decisions[level][roll] {
                    u16::MAX => ws.thrown[PARTIAL_KEEPS + roll] += p,
                    g => ws.thrown[usize::from(g)] += p,
                }
            }
            graph.reroll_mass(&mut ws.thrown);
            ws.rolling.copy_from_slice(&ws.thrown[PARTIAL_KEEPS..]);
        }
        let mut out: Vec<Outcome> = Vec::new();
        for (roll, &p) in ws.rolling.iter().enumerate().filter(|(_, &p)| p > 0.0) {
            let (next, points) = ws.scored[roll];
            match out.iter_mut().find(|o| o.0 == next && o.1 == points) {
                Some(o) => o.2 += p,
                None => out.push((next, points, p)),
            }
        }
        out
    }
}

/// The first value within [`EXACT_TIE`] of the highest, and the highest.
fn first_within(values: impl Iterator<Item = f64> + Clone) -> (usize, f64) {
    let highest = values.clone().fold(f64::NEG_INFINITY, f64::max);
    (values.into_iter().position(|v| v >= highest - EXACT_TIE).expect("an option"), highest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};

    /// Sums to 1, and its mean is the start value: every turn's mass went
    /// where its decisions send it.
    #[test]
    fn the_distribution_s_mean_is_the_start_value() {
        let games = [
            ("yatzy", YATZY, 374),
            ("yahtzee", yahtzee(Joker::Forced), 1575),
            ("yahtzee-free", yahtzee(Joker::Free), 1575),
        ];
        for (game, scoring, most) in games {
            let exact = super::super::solve(game, &mut |_, _| {});
            let p = ev_distribution(&scoring, &exact, most);
            let sum: f64 = p.iter().sum();
            let mean: f64 = p.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
            let start = exact.get((1 << scoring.categories.len()) - 1, 0, 0);
            assert!((sum - 1.0).abs() < 1e-12, "{:?}: sums to {sum}", scoring.categories.len());
            assert!((mean - start).abs() < 1e-6, "mean {mean}, start {start}");
        }
    }
}
