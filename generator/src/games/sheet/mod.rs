//! yatzy's and yahtzee's tables (expected points) from the rules engine.
//!
//! A turn-start state is (open categories, upper total so far capped at 63,
//! and for yahtzee whether the yahtzee box holds 50); the points already
//! scored elsewhere do not matter. The rules engine ([`crate::rule_engine`])
//! solves each game's preset (`generator/rules/`) over the states the game
//! reaches; this module lays the values out as the table stores them, in
//! units of 1e-7 points.
//!
//! The stored values are rounded, so the generator also proves that every
//! decision a lookup makes from them is the exact solution's (see `prove`):
//! the solve itself carries, beside each best value, the best one not tied
//! with it, and lists the decisions where the two are close; those few are
//! then settled one by one.

pub mod distribution;
pub mod target;
pub mod yahtzee;
pub mod yatzy;

use dice_tables_reader::dice::FACES;
use dice_tables_reader::rule_sheet::held_of_flag;
use dice_tables_reader::sheet::{
    reachable_capped_totals, ScoreSheet, Scoring, SheetGame, SheetParams, SheetRules, EXCEPTION_ACTION, EXCEPTION_KEY,
    PLANES, ROW_BLOCK, UNITS_PER_POINT, UPPER_MASK, UPPER_SETS, UPPER_TOTALS,
};
use rayon::prelude::*;

use dice_tables_reader::sheet::{Action, State, TurnSolver, EXACT_TIE, STORED_TIE};
use dice_tables_reader::yazy::KEEP_ALL;

use crate::artifact::{le_bytes, Section};
use crate::cpu::Simd;
use crate::dice::Dice;
use crate::rule_engine::{Band, Coverage, NearTie, Options};
use crate::solved::Solved;

/// Every turn-start value of a score-sheet game: per (mask, flag, upper
/// total), `flags` flags a mask (2 for yahtzee, else 1). Exact (f64);
/// unreachable states hold 0.
#[derive(Clone, Debug)]
pub struct TurnStart {
    /// Flags a mask: 2 for yahtzee (the yahtzee box holds 50 or not), else 1.
    pub flags: usize,
    /// Per (mask, flag, upper total): the expected points still to come.
    pub values: Vec<f64>,
}

impl TurnStart {
    /// The value of (mask, flag, upper total).
    pub fn get(&self, mask: usize, flag: usize, upper: usize) -> f64 {
        self.row(mask, flag)[upper]
    }

    /// The values of (mask, flag), by upper total.
    pub fn row(&self, mask: usize, flag: usize) -> &[f64] {
        &self.values[(mask * self.flags + flag) * UPPER_TOTALS..][..UPPER_TOTALS]
    }
}

/// Whether row (mask, flag) can occur: the flag (the yahtzee box holds 50)
/// needs the yahtzee box filled.
pub fn row_exists(scoring: &Scoring, mask: usize, flag: usize) -> bool {
    match scoring.joker {
        Some((yahtzee_box, _)) => flag == 0 || mask >> yahtzee_box & 1 == 0,
        None => flag == 0,
    }
}

/// Solves every turn-start state of `game` (`yatzy`, `yahtzee` or
/// `yahtzee-free`: its preset's rules).
pub fn solve(game: &str, progress: &mut dyn FnMut(usize, usize)) -> TurnStart {
    solve_listing(game, Simd::detect(), None, progress).0
}

/// [`solve`] with `simd`'s vector instructions, and with `band` the
/// decisions with an option in it.
fn solve_listing(
    game: &str,
    simd: Simd,
    band: Option<Band>,
    progress: &mut dyn FnMut(usize, usize),
) -> (TurnStart, Vec<NearTie>) {
    let rules = crate::rule_sets::preset(game).unwrap_or_else(|| panic!("{game} is a preset"));
    let (solution, near) = crate::rule_engine::solve_with(
        &rules,
        simd,
        Options { coverage: Coverage::Reachable, band, ..Options::default() },
        progress,
    )
    .unwrap_or_else(|e| panic!("{game}'s preset solves: {}", e.0));
    let tracked = rules.tracked_boxes();
    let (boxes, flags) = (rules.boxes.len(), 1 << tracked.len());
    // The engine lays a free order's turn starts out as this table does:
    // by mask, flag, then upper total. Those the game never reaches hold 0.
    let mut values = solution.into_values();
    assert_eq!(values.len(), (flags << boxes) * UPPER_TOTALS, "{game}'s turn starts are by mask, flag and total");
    values.par_chunks_exact_mut(UPPER_TOTALS).enumerate().for_each(|(row, out)| {
        let (mask, held) = ((row / flags) as u32, held_of_flag(&tracked, row % flags));
        // A box holds points only once filled.
        let reachable = if held & mask != 0 { 0 } else { reachable_capped_totals(!mask & UPPER_MASK) };
        for (u, v) in out.iter_mut().enumerate() {
            if reachable >> u & 1 == 0 {
                *v = 0.0;
            }
        }
    });
    (TurnStart { flags, values }, near)
}

// ---------------------------------------------------------------------------
// The proof that the table's rounded values lead the reader to the exact
// decisions.

/// How far below the best option another must be for the reader to decide
/// as the exact solution does: options within [`EXACT_TIE`] of the best are
/// exactly optimal, and on stored values (each within 5e-8 of the exact
/// one, and every option's value is points plus maxima and averages of
/// them, so within 5e-8 too, plus float rounding far below 1e-9) they are
/// all within [`STORED_TIE`] of the reader's best; an option more than
/// `STORED_TIE + 1e-7` below is never within it. Only decisions with an
/// option in between need settling.
const BAND: f64 = STORED_TIE + 1.1e-7;

/// A decision the reader would make wrongly from the stored values, and
/// the exact one: `key` as [`EXCEPTION_KEY`] says, `action` a category's
/// mask bit, a partial keep's graded rank, or [`KEEP_ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exception {
    /// The decision, as [`EXCEPTION_KEY`] packs it.
    pub key: u32,
    /// The exact action.
    pub action: u8,
}

/// The outcome of the proof.
#[derive(Debug, Default)]
pub struct Proof {
    /// Decisions with an option less than `BAND` (2.3e-7) but more than
    /// [`EXACT_TIE`] below the best, each settled by running the reader's own
    /// turn solve on the exact values (ties within `EXACT_TIE`) and on the
    /// stored ones (ties within `STORED_TIE`).
    pub near_ties: u64,
    /// The near ties where the stored values lead elsewhere.
    pub exceptions: Vec<Exception>,
}

/// An action as the exceptions section codes it.
pub fn action_code(action: Action) -> u8 {
    match action {
        Action::Score(c) => c,
        Action::Keep(d) if d.len() == 5 => KEEP_ALL,
        Action::Keep(d) => d.graded_rank() as u8,
    }
}

/// A value in the table's units of 1e-7 points, rounded to nearest.
fn units(value: f64) -> i64 {
    (value * UNITS_PER_POINT).round() as i64
}

/// A value as the reader decodes it from the table.
fn stored(value: f64) -> f64 {
    units(value) as f64 / UNITS_PER_POINT
}

/// Solves a game and proves its stored values' decisions; see [`Proof`].
/// Every decision of every reachable state is covered: every roll with 2,
/// 1 and 0 rerolls left.
/// The time is settling's (finding the near ties is part of the solve).
pub fn solve_and_prove(
    scoring: &Scoring,
    game: &str,
    progress: &mut dyn FnMut(usize, usize),
) -> (TurnStart, Proof, std::time::Duration) {
    let (exact, near_ties) = solve_listing(game, Simd::detect(), Some(Band { tie: EXACT_TIE, band: BAND }), progress);
    let proving = std::time::Instant::now();
    let proof = prove(scoring, game, &exact, &near_ties);
    (exact, proof, proving.elapsed())
}

/// The proof of a solved game's stored values (see [`solve_and_prove`]):
/// its near ties settled.
fn prove(scoring: &Scoring, game: &str, exact: &TurnStart, near_ties: &[NearTie]) -> Proof {
    let rounded = TurnStart { flags: exact.flags, values: exact.values.iter().map(|&v| stored(v)).collect() };
    let turn = TurnSolver::new(*scoring);
    let proofs: Vec<Proof> =
        near_ties.par_chunks(1024).map(|near| settle(&turn, game, exact, &rounded, near)).collect();
    let mut proof = Proof::default();
    for p in proofs {
        proof.near_ties += p.near_ties;
        proof.exceptions.extend(p.exceptions);
    }
    proof.exceptions.sort_unstable();
    proof
}

/// Runs the reader's turn solve on the exact and the stored values at each
/// near tie the game can reach, and lists where they disagree.
fn settle(turn: &TurnSolver, game: &str, exact: &TurnStart, rounded: &TurnStart, near: &[NearTie]) -> Proof {
    let exact_rows = |m: u32, f: bool| Ok(exact.row(m as usize, usize::from(f)));
    let stored_rows = |m: u32, f: bool| Ok(rounded.row(m as usize, usize::from(f)));
    fn best<'a>(
        turn: &TurnSolver,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], std::convert::Infallible>,
        state: State,
        dice: Dice,
        rerolls: u8,
        tie: f64,
    ) -> Option<Action> {
        let options = turn.options_with_ties(rows, state, dice, rerolls, tie).unwrap_or_else(|e| match e {});
        options.best().map(|o| o.action)
    }
    let mut proof = Proof::default();
    for tie in near {
        let u = usize::from(tie.upper);
        let reachable = reachable_capped_totals(!tie.mask & UPPER_MASK);
        if u < UPPER_TOTALS && reachable >> u & 1 == 1 {
            proof.near_ties += 1;
            // Only the yahtzee box is tracked: it holds 50 or not.
            let state = turn.capped_state(game, tie.mask, u as u8, tie.held != 0).expect("a reachable state");
            let dice = Dice::unrank(5, usize::from(tie.roll)).expect("roll < 252");
            let right = best(turn, &exact_rows, state, dice, tie.rerolls, EXACT_TIE);
            let stored = best(turn, &stored_rows, state, dice, tie.rerolls, STORED_TIE);
            if right != stored {
                let key = turn.decision_key(state, dice, tie.rerolls);
                let action = action_code(right.expect("an open category"));
                proof.exceptions.push(Exception { key, action });
            }
        }
    }
    proof
}

/// Solves a score-sheet game, proves its stored values' decisions, and
/// lays its table out as its sections (see FORMAT.md): per upper-scored
/// set, byte planes of the zigzag deltas of each row's values in units of
/// 1e-7 points along the upper total; then the exceptions.
pub fn solve_table<G: SheetGame>(progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let rules = SheetRules { joker: G::JOKER };
    let (turn_start, proof, prove_time) = solve_and_prove(&G::scoring(&rules), G::ID, progress);
    let states = turn_start.values.iter().filter(|&&v| v != 0.0).count() as u64;
    let params = SheetParams { rules, exceptions: proof.exceptions.len() as u64 };
    let keys = proof.exceptions.iter().map(|e| e.key).collect::<Vec<u32>>();
    let actions: Vec<u8> = proof.exceptions.iter().map(|e| e.action).collect();
    let sections = vec![
        turn_start_section::<G>(&params, &turn_start),
        Section::of(&EXCEPTION_KEY, &params, le_bytes(&keys, u32::to_le_bytes)),
        Section::of(&EXCEPTION_ACTION, &params, actions),
    ];
    Solved { prove_time, ..Solved::new::<ScoreSheet<G>>(&params, states, sections) }
}

/// The turn-start section of a solved game.
pub fn turn_start_section<G: SheetGame>(params: &SheetParams, turn_start: &TurnStart) -> Section {
    let flags = turn_start.flags;
    let rows = (turn_start.values.len() / UPPER_TOTALS) / UPPER_SETS;
    let blocks = rows / ROW_BLOCK;
    let mut bytes = vec![0u8; turn_start.values.len() * PLANES];
    for (c, chunk) in bytes.chunks_exact_mut(PLANES * ROW_BLOCK * UPPER_TOTALS).enumerate() {
        let (set, block) = (c / blocks, c % blocks);
        let reachable = reachable_capped_totals(set as u32);
        let totals: Vec<usize> = (0..UPPER_TOTALS).filter(|u| reachable >> u & 1 == 1).collect();
        let plane = ROW_BLOCK * totals.len();
        for r in 0..ROW_BLOCK {
            let row = block * ROW_BLOCK + r;
            let (lower, flag) = (row / flags, row % flags);
            let mask = lower << FACES | (!set & UPPER_MASK as usize);
            let values = &turn_start.values[(mask * flags + flag) * UPPER_TOTALS..][..UPPER_TOTALS];
            let mut previous = 0i64;
            for (k, &u) in totals.iter().enumerate() {
                let units = units(values[u]);
                let delta = units - previous;
                let zigzag = ((delta << 1) ^ (delta >> 63)) as u64;
                for b in 0..PLANES {
                    chunk[b * plane + r * totals.len() + k] = (zigzag >> (8 * b)) as u8;
                }
                previous = units;
            }
        }
    }
    Section::of(&G::SECTIONS[0], params, bytes).level(TURN_START_ZSTD_LEVEL)
}

/// The zstd level of the turn-start sections: their lowest byte plane is
/// noise, which the slower levels spend their time on for little (yatzy,
/// chunks of 128 rows: 2.87 MB at 9, 2.85 MB at 12 for about 0.2 s more
/// of one core).
const TURN_START_ZSTD_LEVEL: i32 = 12;

/// One state to solve: its number, open categories, flag and upper total
/// (its stand-in).
#[derive(Clone, Copy)]
pub(crate) struct Job {
    pub id: u32,
    pub mask: u32,
    pub flag: bool,
    pub upper: u8,
}

/// Every state with `open` of the game's `categories` open: a layer,
/// whose turns lead only to layers with fewer open.
pub(crate) fn layer_jobs(states: &dice_tables_reader::sheet::SheetStates, categories: usize, open: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    for mask in (0..1u32 << categories).filter(|m| m.count_ones() as usize == open) {
        for flag in [false, true] {
            if usize::from(flag) >= states.flags() {
                continue;
            }
            let Some(first) = states.row_first(mask, flag) else { continue };
            for (k, upper) in states.row_totals(mask).enumerate() {
                jobs.push(Job { id: (first + k) as u32, mask, flag, upper });
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solve's near ties at reachable states, in order.
    fn reachable_near_ties(mut near: Vec<NearTie>) -> Vec<NearTie> {
        near.retain(|t| reachable_capped_totals(!t.mask & UPPER_MASK) >> t.upper & 1 == 1);
        near.sort_unstable();
        near
    }

    /// Every level of vector instructions this CPU has gives the same bits
    /// (so the tables do not depend on the machine), and the same near ties.
    #[test]
    fn every_machine_solves_alike() {
        let band = Some(Band { tie: EXACT_TIE, band: BAND });
        let (here, here_near) = solve_listing("yahtzee", Simd::detect(), band, &mut |_, _| {});
        let here_near = reachable_near_ties(here_near);
        assert!(!here_near.is_empty(), "yahtzee has near ties to compare");
        for level in Simd::available() {
            let (values, near) = solve_listing("yahtzee", level, band, &mut |_, _| {});
            assert!(values.values.iter().zip(&here.values).all(|(a, b)| a.to_bits() == b.to_bits()), "{level:?}");
            assert_eq!(reachable_near_ties(near), here_near, "{level:?}");
        }
        // Listing near ties changes no value.
        let (unlisted, _) = solve_listing("yahtzee", Simd::detect(), None, &mut |_, _| {});
        assert!(unlisted.values.iter().zip(&here.values).all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    #[test]
    fn published_values() {
        let yatzy = solve("yatzy", &mut |_, _| {});
        let start = yatzy.get((1 << 15) - 1, 0, 0);
        assert!((start - 248.4399894).abs() < 1e-6, "yatzy {start}");
        for (game, published) in [("yahtzee", 254.5877287), ("yahtzee-free", 254.5896095)] {
            let t = solve(game, &mut |_, _| {});
            let start = t.get((1 << 13) - 1, 0, 0);
            assert!((start - published).abs() < 1e-6, "{game}: {start}");
        }
    }
}
