//! yatzy and yahtzee played to reach a target: for every
//! turn-start state S the game reaches and every `n` from 1 up, `P*(S, n)`,
//! the highest chance over all strategies that the points scored from this
//! turn's start to the game's end (the upper bonus and Yahtzee bonuses
//! included, as the expected-points tables count them) are at least `n`.
//!
//! The turn is solved as for expected points with the chance of reaching
//! the target in place of the points to come: a roll scored for `p` points
//! into state S' is worth `P*(S', n - p)`; a keep is the average over the
//! next die; a roll with rerolls left the best of its keeps and of keeping
//! all five. Each `n` is independent, so `W` targets are the lanes of one
//! vector through the shared keep lattice. States are solved in layers by
//! the number of open categories, each layer in parallel.
//!
//! `P*(S, n)` does not increase with `n`, and float arithmetic keeps that
//! (every operation is monotone in its inputs), so a state's values are
//! solved block by block from `n = 1` until they fall below [`NEGLIGIBLE`];
//! those are dropped (read as 0). Each layer's drop costs its values at
//! most `NEGLIGIBLE`, so every value is within 15 x `NEGLIGIBLE` of exact.

use dice_tables_reader::sheet::{
    Scoring, SheetGame, SheetRules, SheetStates, SheetTarget, SheetTargetParams, BONUS_AT, SIXTH, TARGET_SECTIONS,
};
use rayon::prelude::*;

use super::{layer_jobs, Job};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{multisets, Dice, FIVE_DICE};
use crate::target::chance;

/// Targets solved together: the lanes of a vector.
const W: usize = 16;

/// Values below this are dropped as the solve goes (see the module docs).
pub const NEGLIGIBLE: f64 = 1e-10;

/// Rerolls in a turn.
const REROLLS: usize = 2;

/// Every `P*(S, n)` of a game, per state (numbered by [`SheetStates`]):
/// the values for `n = 1, 2, ...` up to the last at or above
/// [`NEGLIGIBLE`]. States in layers above `max_open` (see [`solve`]) are empty.
#[derive(Debug)]
pub struct Solution {
    /// The reachable turn-start states, by id.
    pub states: SheetStates,
    /// Per state id: `P*(state, n)` for `n = 1, 2, ...`.
    pub values: Vec<Box<[f64]>>,
}

impl Solution {
    /// `P*(state, n)`: 1 at or below 0, 0 past the stored values.
    #[inline]
    pub fn chance(&self, state: usize, n: i64) -> f64 {
        chance(&self.values[state], n)
    }

    /// Values stored in all.
    pub fn len(&self) -> usize {
        self.values.iter().map(|v| v.len()).sum()
    }

    /// Whether no value is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Solves every state with at most `max_open` categories open (all of them
/// for the whole game), calling `progress(sheets done, sheets)` before each
/// layer of sheets with as many open.
pub fn solve(scoring: &Scoring, max_open: usize, mut progress: impl FnMut(usize, usize)) -> Solution {
    let states = SheetStates::new(scoring);
    let categories = scoring.categories.len();
    let mut values: Vec<Box<[f64]>> = vec![Box::new([]); states.len()];
    let rolls = multisets(5);
    let layers = max_open.min(categories);
    let sizes = crate::progress::Layers::of_sheets(categories, 0..=layers);
    for open in 0..=layers {
        sizes.report(open, &mut progress);
        let jobs = layer_jobs(&states, categories, open);
        let solved: Vec<Box<[f64]>> = jobs
            .par_iter()
            .map_init(Workspace::new, |ws, job| {
                if job.mask == 0 {
                    let bonus = if job.upper >= BONUS_AT { usize::from(scoring.upper_bonus) } else { 0 };
                    return vec![1.0; bonus].into_boxed_slice();
                }
                solve_state(scoring, &states, &rolls, &values, *job, ws)
            })
            .collect();
        for (job, v) in jobs.iter().zip(solved) {
            values[job.id as usize] = v;
        }
    }
    Solution { states, values }
}

/// Buffers one thread reuses from state to state.
struct Workspace {
    /// The distinct ways to score in this state: (next state, points).
    scores: Vec<(u32, u16)>,
    /// Per (category, points): its index in `scores` + 1, or 0.
    slot: Vec<u16>,
    /// The `slot` entries set for this state, to clear for the next.
    keys: Vec<usize>,
    /// Per roll: the indices in `scores` of its ways to score.
    roll_scores: Vec<Vec<u16>>,
    score_values: Vec<[f64; W]>,
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    /// The vector instructions the lanes run compiled for.
    simd: Simd,
}

impl Workspace {
    fn new() -> Workspace {
        let graph = &*FIVE_DICE;
        Workspace {
            scores: Vec::new(),
            slot: vec![0; 16 * 256],
            keys: Vec::new(),
            roll_scores: vec![Vec::new(); 252],
            score_values: Vec::new(),
            values: vec![[0.0; W]; graph.keeps()],
            scratch: vec![[0.0; W]; graph.partial],
            // AVX2 at most: the 16 lanes ran about 5% slower as one
            // AVX-512 vector than as two AVX2 ones (yatzy-target
            // --target-open 4, alternating runs).
            simd: Simd::detect().at_most_avx2(),
        }
    }
}

/// `P*(state, n)` for `n = 1, 2, ...` while at or above [`NEGLIGIBLE`].
fn solve_state(
    scoring: &Scoring,
    states: &SheetStates,
    rolls: &[Dice],
    solved: &[Box<[f64]>],
    job: Job,
    ws: &mut Workspace,
) -> Box<[f64]> {
    ws.scores.clear();
    for (roll, dice) in rolls.iter().enumerate() {
        let ids = &mut ws.roll_scores[roll];
        ids.clear();
        scoring.scores(job.mask, job.flag, dice, |s| {
            let key = s.category * 256 + usize::from(s.points);
            if ws.slot[key] == 0 {
                let upper = (u32::from(job.upper) + u32::from(s.upper)).min(u32::from(BONUS_AT)) as u8;
                let next = states.id_unchecked(job.mask & !(1 << s.category), s.bonus_flag, upper);
                ws.scores.push((next as u32, u16::from(s.points)));
                ws.slot[key] = ws.scores.len() as u16;
                ws.keys.push(key);
            }
            ids.push(ws.slot[key] - 1);
        });
    }
    // Clear the slots for the next state.
    for key in ws.keys.drain(..) {
        ws.slot[key] = 0;
    }
    ws.score_values.resize(ws.scores.len(), [0.0; W]);
    crate::target::chances_until(NEGLIGIBLE, |first| solve_block(solved, first, ws))
}

/// `P*(state, first + l)` for the `W` lanes `l`, the workspace's ways to
/// score prepared.
fn solve_block(solved: &[Box<[f64]>], first: i64, ws: &mut Workspace) -> [f64; W] {
    ws.simd.run(SolveBlock { solved, first, ws })
}

/// [`solve_block_lanes`] as a kernel, compiled for each vector level (the
/// same operations in the same order, no fused multiply-add, so the same
/// results bit for bit).
struct SolveBlock<'a> {
    solved: &'a [Box<[f64]>],
    first: i64,
    ws: &'a mut Workspace,
}

impl Kernel for SolveBlock<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        solve_block_lanes(self.solved, self.first, self.ws)
    }
}

#[inline(always)]
fn solve_block_lanes(solved: &[Box<[f64]>], first: i64, ws: &mut Workspace) -> [f64; W] {
    let graph = &*FIVE_DICE;
    for (v, &(next, points)) in ws.score_values.iter_mut().zip(&ws.scores) {
        let next = &solved[next as usize];
        let from = first - i64::from(points);
        if from >= 1 && from + W as i64 - 1 <= next.len() as i64 {
            *v = next[from as usize - 1..][..W].try_into().expect("W lanes");
        } else {
            *v = std::array::from_fn(|l| chance(next, from + l as i64));
        }
    }
    for (roll, ids) in ws.roll_scores.iter().enumerate() {
        let mut best = [f64::NEG_INFINITY; W];
        for &id in ids {
            let v = &ws.score_values[usize::from(id)];
            for l in 0..W {
                best[l] = if v[l] > best[l] { v[l] } else { best[l] };
            }
        }
        ws.values[graph.partial + roll] = best;
    }
    graph.turn_start_lanes(&mut ws.values, &mut ws.scratch, REROLLS, |sum| sum * SIXTH)
}

/// Solves the `yatzy-target` or `yahtzee-target` table under `rules`, the
/// states with at most `open` categories open (a whole table for the
/// game's category count): the chances, and the distribution of the final
/// score under max-expected-score play (the expected-points table's play).
pub fn solve_table<G: SheetGame>(open: usize, progress: &mut dyn FnMut(usize, usize)) -> crate::solved::Solved {
    let rules = SheetRules { joker: G::JOKER };
    let scoring = G::scoring(&rules);
    let categories = scoring.categories.len();
    let open = open.min(categories);
    let solution = solve(&scoring, open, progress);
    let exact = super::solve(&scoring, |_, _| {});
    let distribution = super::distribution::ev_distribution(&scoring, &exact, G::MAX_SCORE as usize);
    let remaining = super::distribution::remaining_distributions(&scoring, &exact, &solution.states, open);
    let held = solution.values.iter().filter(|v| !v.is_empty()).count() as u64;
    let start = (open == categories).then(|| solution.states.id((1 << categories) - 1, false, 0)).flatten();
    let figures = start.map_or_else(Vec::new, |s| crate::target::figures(&solution.values[s], &distribution));
    let chances = solution.values.iter().map(|v| &v[..]);
    let contents = crate::target::TargetContents::new(chances, &distribution, remaining.iter().map(|r| &r[..]));
    let states = solution.states.len() as u64;
    // Stored: the solver's values are no longer needed (gigabytes for a whole game).
    drop((remaining, solution));
    let params = SheetTargetParams {
        rules,
        open: open as u8,
        values: contents.chances.values(),
        remaining: contents.remaining.values(),
        states,
        most: G::MAX_SCORE as u64,
    };
    let sections = contents.sections(&TARGET_SECTIONS, &params);
    crate::solved::Solved { figures, ..crate::solved::Solved::new::<SheetTarget<G>>(&params, held, sections) }
}
