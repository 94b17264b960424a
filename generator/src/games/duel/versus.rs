//! The duel table's player against the tenk table's points player, exactly.
//!
//! The points player plays every turn as the `tenk` table says: not yet on
//! the board, for the best chance of reaching 1000 (then banks); on the
//! board, for the most expected points, whatever the totals (so it may throw
//! on past the goal, and bust), unless `banks_to_win`, when it also banks
//! whenever banking reaches the goal. The table's player plays as the duel
//! table says. With both strategies fixed the game is a Markov chain: by
//! descending sum of totals, X(t, p) (the table's player to move) and
//! Y(p, t) (the points player to move, the table's player's chance) are
//! affine in each other through a bust, so each pair is one 2 x 2 solve.

use super::{par_blocks, solve_block, Carry, Lane, Outcomes, Solution, DICE, W};
use crate::cpu::Simd;
use crate::games::tenk::{self, SEED};
use dice_tables_reader::tenk::{ENTRY, SCORE_STEPS, STEP};

/// The table's player's chance of winning against the points player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// Moving first.
    pub moving_first: f64,
    /// Moving second.
    pub moving_second: f64,
}

impl Versus {
    /// Over games where each moves first half the time.
    pub fn average(&self) -> f64 {
        0.5 * (self.moving_first + self.moving_second)
    }
}

/// The points player's choices, from the tenk table: per phase (0 on the
/// board, 1 opening), turn score s (steps, before the throw) and outcome
/// class, the option it keeps; per phase, score after the keep and dice
/// left, whether it banks.
struct PointsPlayer {
    choice: [Vec<u8>; 2],
    banks: [Vec<bool>; 2],
    classes: usize,
}

impl PointsPlayer {
    fn new(o: &Outcomes, tenk: &tenk::Solution) -> PointsPlayer {
        let opening = (ENTRY / STEP) as usize;
        // (banks, the tenk value) after a keep reaching score s with l dice to throw.
        let after = |phase: usize, s: usize, l: usize| -> (bool, f64) {
            if phase == 1 {
                return if s >= opening { (true, 1.0) } else { (false, tenk.reach[(l - 1) * opening + s]) };
            }
            let banked = (s as u32 * STEP) as f64;
            if s >= SCORE_STEPS {
                return (true, banked);
            }
            let throw = tenk.turn_value[(l - 1) * SCORE_STEPS + s];
            if throw > banked {
                (false, throw)
            } else {
                (true, banked)
            }
        };
        let classes = o.classes.len();
        let steps = [SCORE_STEPS, opening];
        let mut player = PointsPlayer { choice: [Vec::new(), Vec::new()], banks: [Vec::new(), Vec::new()], classes };
        for phase in 0..2 {
            player.banks[phase] = (0..steps[phase] + o.max_steps + 1)
                .flat_map(|s| (1..=DICE).map(move |l| (s, l)))
                .map(|(s, l)| after(phase, s, l).0)
                .collect();
            for s in 0..steps[phase] {
                for d in 1..=DICE {
                    let (first, last) = o.by_dice[d];
                    for &(_, start, end) in &o.classes[first..last] {
                        // tenk's order: the highest value, then the most
                        // points, then the fewest dice kept (hot dice keep all).
                        let key = |i: usize| {
                            let (steps, l) = (o.options[i] / DICE, o.options[i] % DICE + 1);
                            let kept = if l == DICE { d } else { d - l };
                            (after(phase, s + steps, l).1, steps, std::cmp::Reverse(kept))
                        };
                        let best = (start..end)
                            .max_by(|&i, &j| {
                                let (a, b) = (key(i), key(j));
                                a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(j.cmp(&i))
                            })
                            .expect("a class has options");
                        player.choice[phase].push((best - start) as u8);
                    }
                }
            }
            debug_assert_eq!(player.choice[phase].len(), steps[phase] * classes);
        }
        player
    }
}

/// The table's player (the duel `solution`, the seed's rules) against the
/// tenk table's points player; `None` for other rules, which the tenk table
/// was not solved for.
pub fn versus_points(solution: &Solution, tenk: impl FnOnce() -> tenk::Solution, simd: Simd) -> Option<Versus> {
    let rules = solution.rules;
    if rules.scoring != SEED || rules.entry != ENTRY {
        return None;
    }
    let o = Outcomes::new(&SEED);
    let points = PointsPlayer::new(&o, &tenk());
    // The points player's strategy does not look at the totals: its turn
    // ends in a bust, or in a bank at turn score s, with the same chances
    // whatever the totals (a bank at or past the goal wins). Per phase.
    let ends = [turn_ends(&o, &points, 0), turn_ends(&o, &points, 1)];
    let n = solution.totals();
    let win = &solution.win;
    let entry = (rules.entry / STEP) as usize;
    // x[t * n + p]: the table's player to move; y[p * n + t]: the points player to move.
    let (mut x, mut y) = (vec![f64::NAN; n * n], vec![f64::NAN; n * n]);
    for sum in (0..=2 * (n - 1)).rev() {
        let pairs: Vec<(usize, usize)> = (sum.saturating_sub(n - 1)..=sum.min(n - 1)).map(|t| (t, sum - t)).collect();
        // The table's player's turns: its chance carried along the table's
        // strategy, and (from the solve) the chance that strategy busts.
        let lanes: Vec<Lane> = pairs.iter().map(|&(t, p)| Lane { a: t, b: p, bust: 1.0 - win[p * n + t] }).collect();
        let y_now = &y;
        let chance = Carry { bust: 0.0, bank: &|lane: &Lane, s| y_now[lane.b * n + lane.a + s], goal: 1.0 };
        let carried = par_blocks(&lanes, |block, ws| solve_block(&o, n, entry, win, block, &chance, ws, simd).carried);
        for (k, &(t, p)) in pairs.iter().enumerate() {
            let (a_t, b_t) = (carried[k / W][k % W], solution.bust_slope[t * n + p]);
            // The points player's turn: busts hand x(t, p) back; banks below
            // the goal give x(t, p + s).
            let (bust, banks) = &ends[usize::from(p == 0)];
            let a_p: f64 = (1..n - p).map(|s| banks[s] * x[t * n + p + s]).sum();
            let xt = (a_t + b_t * a_p) / (1.0 - b_t * bust);
            x[t * n + p] = xt;
            y[p * n + t] = a_p + bust * xt;
        }
    }
    Some(Versus { moving_first: x[0], moving_second: y[0] })
}

/// How the points player's turn ends, in `phase`: the chance of a bust, and
/// per turn score s (steps) the chance of banking exactly s.
fn turn_ends(o: &Outcomes, points: &PointsPlayer, phase: usize) -> (f64, Vec<f64>) {
    let top = SCORE_STEPS + o.max_steps + 1;
    // The chance of throwing d dice at turn score s, by ascending s.
    let mut reach = vec![0.0; top * DICE];
    reach[DICE - 1] = 1.0;
    let (mut bust, mut banks) = (0.0, vec![0.0; top]);
    for s in 0..SCORE_STEPS {
        let phase = phase_at(phase, s);
        let choices = &points.choice[phase][s * points.classes..];
        for d in 1..=DICE {
            let mass = reach[s * DICE + d - 1];
            if mass == 0.0 {
                continue;
            }
            bust += mass * o.bust[d];
            let (first, last) = o.by_dice[d];
            for (&(p, start, _), &choice) in o.classes[first..last].iter().zip(&choices[first..last]) {
                let option = o.options[start + usize::from(choice)];
                let (s2, l) = (s + option / DICE, option % DICE + 1);
                if points.banks[phase].get(s2 * DICE + l - 1).copied().unwrap_or(true) {
                    banks[s2] += mass * p;
                } else {
                    reach[s2 * DICE + l - 1] += mass * p;
                }
            }
        }
    }
    (bust, banks)
}

/// Opening ends at 1000 in the turn: a points player on 0 has banked by then.
fn phase_at(phase: usize, s: usize) -> usize {
    if s >= (ENTRY / STEP) as usize {
        0
    } else {
        phase
    }
}
