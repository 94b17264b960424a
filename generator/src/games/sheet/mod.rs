//! The solver yatzy and yahtzee share: score-sheet games with an upper bonus.
//!
//! A turn-start state is (open categories, upper total so far capped at 63,
//! and for yahtzee whether the yahtzee box holds 50); the points already
//! scored elsewhere do not matter. A mask's turn depends only on masks with
//! one category fewer, so masks are solved in layers by the number of open
//! categories, each layer in parallel.
//!
//! The upper total changes nothing inside a turn except which turn-start
//! value of the next mask a score leads to, so the upper totals of one
//! (mask, flag) row are solved together, 16 at a time with AVX-512 and 8
//! without (see `lane_width`; the same bits either way): the keep/reroll
//! arithmetic is the same for every lane and never mixes them.
//! Only the totals from which the bonus is still in doubt, up to the highest
//! the filled upper boxes can make, are solved (see `window`); unreachable
//! totals hold 0 in the table.
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
use dice_tables_reader::sheet::{
    reachable_capped_totals, ScoreSheet, Scoring, SheetGame, SheetParams, SheetRules, BONUS_AT, EXCEPTION_ACTION,
    EXCEPTION_KEY, PLANES, ROW_BLOCK, SIXTH, UNITS_PER_POINT, UPPER_MASK, UPPER_SETS, UPPER_TOTALS,
};
use rayon::prelude::*;

use dice_tables_reader::sheet::{Action, State, TurnSolver, EXACT_TIE, STORED_TIE};
use dice_tables_reader::yazy::KEEP_ALL;

use crate::artifact::{le_bytes, Section};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{fold_best_and_below, fold_least_gap, multisets, Dice, KeepGraph, FIVE_DICE};
use crate::solved::Solved;

/// Upper totals solved together, a block: two vectors' worth with AVX-512,
/// where the wider block gives the core more independent work, and 8
/// otherwise, which wastes fewer lanes past a row's highest total and
/// spills less (with AVX2, yatzy's solve took 2.19 s at 8 against 2.50 s
/// at 16 and 2.3-2.4 s at 4, on an EPYC without AVX-512).
fn lane_width(simd: Simd) -> usize {
    if simd.f64_lanes() >= 8 {
        16
    } else {
        8
    }
}

/// A row of turn-start values as the solver keeps it: the 64 upper totals,
/// then copies of the value at 63, so that the value after scoring `p`
/// upper points is at `u + p` with no cap to apply (`p` is at most 30).
const STRIDE: usize = UPPER_TOTALS + 32;

/// Rerolls in a turn.
pub const REROLLS: usize = 2;

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

/// Rolls, their probabilities and the keep graph, shared by every row.
struct Context<'a> {
    scoring: &'a Scoring,
    flags: usize,
    graph: &'static KeepGraph,
    rolls: Vec<Dice>,
    /// The distinct scores worth points with every category open and no
    /// flag (a joker never applies then): (category, points, offset from
    /// the start of the values after it: the upper points, and a row further
    /// on if the flag is set). A block's value of each is computed once and
    /// shared by every roll that scores it.
    scores: Vec<(u8, f64, u32)>,
    /// Per roll: the categories it scores points in, as mask bits, and
    /// by category the index in `scores` of its score there.
    roll_categories: Vec<u16>,
    roll_scores: Vec<[u16; 16]>,
    /// Per roll: whether it is five of a kind (a possible joker).
    five_of_a_kind: Vec<bool>,
    /// The vector instructions rows are solved with (the same results).
    simd: Simd,
    /// Where the padded rows' two rows of -inf start: the rows "after"
    /// scoring a closed category, with the flag clear or set.
    closed: usize,
}

/// Buffers one thread reuses from row to row.
struct Workspace<const W: usize> {
    /// Where the values after filling each category start in the padded
    /// rows, with the flag as it is; for a closed category, rows of -inf
    /// (never the best, though the row's lists leave closed categories out).
    after: [u32; 16],
    /// Where the values after a zero in each open category start.
    zeros: Vec<u32>,
    /// Whether a Yahtzee is a joker in this row; then `jokers[f]` lists the
    /// ways to score five of face `f + 1`: (points now, where the values
    /// after start), zeros included.
    joker: bool,
    jokers: [Vec<(f64, u32)>; 6],
    /// The indices in `Context::scores` of the scores in open categories.
    open_scores: Vec<u16>,
    /// Per roll, the indices in `Context::scores` of its scores in open
    /// categories: roll r's run from where roll r - 1's ends to `open_roll_ends[r]`.
    open_roll_scores: Vec<u16>,
    open_roll_ends: Vec<u32>,
    /// A block's value of each of `Context::scores` in an open category.
    score_values: Vec<[f64; W]>,
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    /// While proving: each keep's best value more than [`EXACT_TIE`] below
    /// its best (which goes into `values`).
    below: Vec<[f64; W]>,
}

/// The decisions of a row with an option in the proof's band: (upper
/// total, rerolls left, roll).
type NearTies = Vec<(usize, u8, usize)>;

/// Solves every turn-start state of `scoring`'s game.
pub fn solve(scoring: &Scoring, progress: impl FnMut(usize, usize)) -> TurnStart {
    let (ctx, padded, _) = solve_padded(scoring, progress, false);
    turn_start_of(&ctx, &padded)
}

/// The solver's context and its padded rows, every upper total up to each
/// row's highest reachable one holding what it is worth; with `prove`,
/// each row's near ties (mask, flag, decisions), rows with none left out.
fn solve_padded(
    scoring: &Scoring,
    progress: impl FnMut(usize, usize),
    prove: bool,
) -> (Context<'_>, Vec<f64>, Vec<(usize, usize, NearTies)>) {
    solve_padded_on(scoring, progress, Simd::detect(), prove)
}

/// [`solve_padded`], with the given vector instructions.
fn solve_padded_on(
    scoring: &Scoring,
    progress: impl FnMut(usize, usize),
    simd: Simd,
    prove: bool,
) -> (Context<'_>, Vec<f64>, Vec<(usize, usize, NearTies)>) {
    solve_padded_wide(scoring, progress, simd, lane_width(simd), prove)
}

/// [`solve_padded_on`], `lanes` (16 or 8) upper totals a block.
fn solve_padded_wide(
    scoring: &Scoring,
    progress: impl FnMut(usize, usize),
    simd: Simd,
    lanes: usize,
    prove: bool,
) -> (Context<'_>, Vec<f64>, Vec<(usize, usize, NearTies)>) {
    let categories = scoring.categories.len();
    let masks = 1usize << categories;
    let flags = if scoring.joker.is_some() { 2 } else { 1 };
    let rolls = multisets(5);
    let mut scores: Vec<(u8, f64, u32)> = Vec::new();
    let (roll_categories, roll_scores) = rolls
        .iter()
        .map(|d| {
            let (mut bits, mut ids) = (0u16, [0u16; 16]);
            // One score a category, every category open.
            scoring.scores((1 << categories) - 1, false, d, |x| {
                if x.points > 0 {
                    // Only the yahtzee box can set the flag, and only while
                    // it is open, so while the flag is clear.
                    let offset = u32::from(x.upper) + if x.bonus_flag { STRIDE as u32 } else { 0 };
                    let score = (x.category as u8, f64::from(x.points), offset);
                    let id = scores.iter().position(|&s| s == score).unwrap_or_else(|| {
                        scores.push(score);
                        scores.len() - 1
                    });
                    bits |= 1 << x.category;
                    ids[x.category] = id as u16;
                }
            });
            (bits, ids)
        })
        .unzip();
    let five_of_a_kind = rolls.iter().map(|d| d.counts().contains(&5)).collect();
    let closed = masks * flags * STRIDE;
    let ctx = Context {
        scoring,
        flags,
        graph: &FIVE_DICE,
        rolls,
        scores,
        roll_categories,
        roll_scores,
        five_of_a_kind,
        simd,
        closed,
    };
    // The solver's padded rows, then two rows of -inf; the result drops
    // the padding.
    let mut padded = vec![0.0; masks * flags * STRIDE + 2 * STRIDE];
    padded[closed..].fill(f64::NEG_INFINITY);
    for flag in 0..flags {
        // No category open: the upper bonus is all that is still to come.
        let row = &mut padded[flag * STRIDE..][..STRIDE];
        row[usize::from(BONUS_AT)..].fill(f64::from(scoring.upper_bonus));
    }
    let near_ties = match lanes {
        16 => solve_layers::<16>(&ctx, &mut padded, prove, progress),
        8 => solve_layers::<8>(&ctx, &mut padded, prove, progress),
        _ => unreachable!("blocks of 16 or 8 upper totals"),
    };
    (ctx, padded, near_ties)
}

/// [`solve_padded_on`]'s layers of masks, `W` upper totals a block.
fn solve_layers<const W: usize>(
    ctx: &Context,
    padded: &mut [f64],
    prove: bool,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(usize, usize, NearTies)> {
    let (scoring, flags) = (ctx.scoring, ctx.flags);
    let categories = scoring.categories.len();
    let masks = 1usize << categories;
    let mut near_ties = Vec::new();
    let layers = crate::progress::Layers::of_sheets(categories, 1..=categories);
    for open in 1..=categories {
        layers.report(open - 1, &mut progress);
        let layer: Vec<usize> = (1..masks).filter(|m| m.count_ones() as usize == open).collect();
        let solved: Vec<([[f64; UPPER_TOTALS]; 2], [NearTies; 2])> = layer
            .par_iter()
            .map_init(
                || Workspace::<W>::new(ctx, prove),
                |ws, &mask| {
                    let mut rows = [[0.0; UPPER_TOTALS]; 2];
                    let mut near: [NearTies; 2] = Default::default();
                    for (flag, row) in rows.iter_mut().enumerate().take(flags) {
                        if row_exists(scoring, mask, flag) {
                            solve_row(ctx, mask, flag, padded, ws, row, prove.then_some(&mut near[flag]));
                        }
                    }
                    (rows, near)
                },
            )
            .collect();
        for (&mask, (rows, near)) in layer.iter().zip(solved) {
            for (flag, near) in near.into_iter().enumerate() {
                if !near.is_empty() {
                    near_ties.push((mask, flag, near));
                }
            }
            for (flag, row) in rows.iter().enumerate().take(flags) {
                let out = &mut padded[(mask * flags + flag) * STRIDE..][..STRIDE];
                out[..UPPER_TOTALS].copy_from_slice(row);
                let capped = row[UPPER_TOTALS - 1];
                out[UPPER_TOTALS..].fill(capped);
            }
        }
    }
    near_ties
}

/// The turn-start values of padded rows: unreachable states hold 0 (the
/// solver kept what those totals would be worth, for the lanes beside
/// reachable ones).
fn turn_start_of(ctx: &Context, padded: &[f64]) -> TurnStart {
    let flags = ctx.flags;
    let values = padded[..ctx.closed]
        .chunks_exact(STRIDE)
        .enumerate()
        .flat_map(|(row, values)| {
            let reachable = reachable_capped_totals(!((row / flags) as u32) & UPPER_MASK);
            (0..UPPER_TOTALS).map(move |u| if reachable >> u & 1 == 1 { values[u] } else { 0.0 })
        })
        .collect();
    TurnStart { flags, values }
}

impl<const W: usize> Workspace<W> {
    fn new(ctx: &Context, prove: bool) -> Workspace<W> {
        let proof_keeps = if prove { ctx.graph.keeps() } else { 0 };
        Workspace {
            after: [0; 16],
            zeros: Vec::new(),
            joker: false,
            jokers: Default::default(),
            open_scores: Vec::new(),
            open_roll_scores: Vec::new(),
            open_roll_ends: Vec::new(),
            score_values: vec![[0.0; W]; ctx.scores.len()],
            values: vec![[0.0; W]; ctx.graph.keeps()],
            scratch: vec![[0.0; W]; ctx.graph.partial],
            below: vec![[0.0; W]; proof_keeps],
        }
    }
}

/// Solves row (mask, flag): the turn-start value of every upper total up
/// to the highest reachable one, written to `out`; with `near`, the row's
/// decisions with an option in the proof's band, added to it.
fn solve_row<const W: usize>(
    ctx: &Context,
    mask: usize,
    flag: usize,
    padded: &[f64],
    ws: &mut Workspace<W>,
    out: &mut [f64; UPPER_TOTALS],
    near: Option<&mut NearTies>,
) {
    prepare_row(ctx, mask, flag, ws);
    match near {
        Some(near) => solve_row_on::<true, W>(ctx, mask, padded, ws, out, near),
        None => solve_row_on::<false, W>(ctx, mask, padded, ws, out, &mut Vec::new()),
    }
}

/// [`solve_row_lanes`] compiled for the context's vector instructions.
fn solve_row_on<const PROVE: bool, const W: usize>(
    ctx: &Context,
    mask: usize,
    padded: &[f64],
    ws: &mut Workspace<W>,
    out: &mut [f64; UPPER_TOTALS],
    near: &mut NearTies,
) {
    ctx.simd.run(SolveRow::<PROVE, W> { ctx, mask, padded, ws, out, near })
}

/// [`solve_row_lanes`] as a kernel, compiled for each vector level (the
/// same operations on each lane, in the same order, so the same results
/// bit for bit).
struct SolveRow<'a, const PROVE: bool, const W: usize> {
    ctx: &'a Context<'a>,
    mask: usize,
    padded: &'a [f64],
    ws: &'a mut Workspace<W>,
    out: &'a mut [f64; UPPER_TOTALS],
    near: &'a mut NearTies,
}

impl<const PROVE: bool, const W: usize> Kernel for SolveRow<'_, PROVE, W> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        solve_row_lanes::<PROVE, W>(self.ctx, self.mask, self.padded, self.ws, self.out, self.near)
    }
}

/// The maximum of two lane blocks, into `best`; while proving, with the
/// best value more than [`EXACT_TIE`] below it carried in `below` (the
/// same maximum either way: the proof never changes a value).
#[inline(always)]
fn fold<const PROVE: bool, const W: usize>(best: &mut [f64; W], below: &mut [f64; W], v: &[f64; W]) {
    if PROVE {
        fold_best_and_below(best, below, v, &[f64::NEG_INFINITY; W], EXACT_TIE);
    } else {
        for l in 0..W {
            best[l] = if v[l] > best[l] { v[l] } else { best[l] };
        }
    }
}

#[inline(always)]
fn solve_row_lanes<const PROVE: bool, const W: usize>(
    ctx: &Context,
    mask: usize,
    padded: &[f64],
    ws: &mut Workspace<W>,
    out: &mut [f64; UPPER_TOTALS],
    near: &mut NearTies,
) {
    let (lowest, lanes) = window(mask, W);
    let graph = &ctx.graph;
    let lane_block =
        |at: u32, first: usize| -> [f64; W] { padded[at as usize + first..][..W].try_into().expect("W lanes") };
    // A loop, not `array::map`: `map` is a function of its own, compiled
    // without the kernel's vector instructions and called per block.
    let plus = |points: f64, mut block: [f64; W]| -> [f64; W] {
        for v in &mut block {
            *v += points;
        }
        block
    };
    let none = [f64::NEG_INFINITY; W];
    for first in (lowest..lowest + lanes).step_by(W) {
        // A zero in the best open category: what any roll can have, and
        // never more than scoring points in that category instead (more
        // points, or more upper points, are never worth less). While
        // proving: a zero where the roll scores points is no option, but it
        // is at least a point below that option, so never in the band.
        let (mut zero, mut zero_below) = (none, none);
        for &at in &ws.zeros {
            fold::<PROVE, W>(&mut zero, &mut zero_below, &lane_block(at, first));
        }
        for &id in &ws.open_scores {
            let (category, points, offset) = ctx.scores[usize::from(id)];
            ws.score_values[usize::from(id)] =
                plus(points, lane_block(ws.after[usize::from(category)] + offset, first));
        }
        let mut least = [f64::INFINITY; W];
        let mut ids_start = 0;
        for (roll, &ids_end) in ws.open_roll_ends.iter().enumerate() {
            let ids = &ws.open_roll_scores[ids_start..ids_end as usize];
            ids_start = ids_end as usize;
            let (mut best, mut below) = (zero, zero_below);
            if ws.joker && ctx.five_of_a_kind[roll] {
                // The joker's own rules say where it may go, zeros included.
                (best, below) = (none, none);
                for &(points, at) in &ws.jokers[joker_face(ctx, roll)] {
                    fold::<PROVE, W>(&mut best, &mut below, &plus(points, lane_block(at, first)));
                }
            } else {
                for &id in ids {
                    fold::<PROVE, W>(&mut best, &mut below, &ws.score_values[usize::from(id)]);
                }
            }
            if PROVE {
                ws.below[graph.partial + roll] = below;
                fold_least_gap(&mut least, &best, &below);
            }
            ws.values[graph.partial + roll] = best;
        }
        let start = if PROVE {
            flag_band(near, first, lowest, 0, least, &ws.values[graph.partial..], &ws.below[graph.partial..]);
            // turn_start_lanes's rounds with each roll's best keep found
            // by best_and_below_lanes (the same maxima), then the fresh roll;
            // `least`, each lane's least gap in the band's test, saves
            // reading the rolls again where there is none.
            for rerolls in 1..=REROLLS as u8 {
                graph.keep_values_lanes(&mut ws.values, |sum| sum * SIXTH);
                let least = graph.best_and_below_lanes(&mut ws.values, EXACT_TIE, &mut ws.below);
                flag_band(near, first, lowest, rerolls, least, &ws.values[graph.partial..], &ws.below[graph.partial..]);
            }
            graph.fresh_roll_value_lanes(&ws.values[graph.partial..])
        } else {
            graph.turn_start_lanes(&mut ws.values, &mut ws.scratch, REROLLS, |sum| sum * SIXTH)
        };
        out[first..first + W].copy_from_slice(&start);
    }
    let flat = out[lowest];
    out[..lowest].fill(flat);
}

/// The upper totals of a mask worth solving, `lowest..lowest + lanes`: up
/// to the highest the filled upper boxes can make, and from the highest
/// from which the open ones can no longer reach the bonus: below it, the
/// total changes nothing, so every lower total has that one's value (bit
/// for bit: each lane's arithmetic on equal inputs). Whole vectors, inside 0..64.
fn window(mask: usize, w: usize) -> (usize, usize) {
    let reachable = reachable_capped_totals(!(mask as u32) & UPPER_MASK);
    let highest = 63 - reachable.leading_zeros() as usize;
    let still_to_score: usize = (0..6).filter(|f| mask >> f & 1 == 1).map(|f| 5 * (f + 1)).sum();
    let flat_below = (usize::from(BONUS_AT) - 1).saturating_sub(still_to_score);
    let lanes = (highest + 1 - flat_below.min(highest)).div_ceil(w) * w;
    (flat_below.min(highest).min(UPPER_TOTALS - lanes), lanes)
}

/// The face (0-based) of a five-of-a-kind roll.
fn joker_face(ctx: &Context, roll: usize) -> usize {
    ctx.rolls[roll].counts().iter().position(|&n| n == 5).expect("five of a kind")
}

/// Fills the workspace's offsets and lists of ways to score in row (mask, flag).
fn prepare_row<const W: usize>(ctx: &Context, mask: usize, flag: usize, ws: &mut Workspace<W>) {
    let closed = ctx.closed as u32;
    ws.after = std::array::from_fn(|c| {
        if mask >> c & 1 == 1 {
            (((mask & !(1 << c)) * ctx.flags + flag) * STRIDE) as u32
        } else {
            closed
        }
    });
    // Scoring a closed category is never the best (its rows are -inf), so
    // only the open ones' scores are worth a block's time.
    let open = |&id: &u16| mask >> ctx.scores[usize::from(id)].0 & 1 == 1;
    ws.open_scores.clear();
    ws.open_scores.extend((0..ctx.scores.len() as u16).filter(open));
    ws.open_roll_scores.clear();
    ws.open_roll_ends.clear();
    // Walking the set bits, in category order as the scores came, where a
    // filter over every score mispredicted a branch on each.
    for (&bits, ids) in ctx.roll_categories.iter().zip(&ctx.roll_scores) {
        let mut open = u32::from(bits) & mask as u32;
        while open != 0 {
            ws.open_roll_scores.push(ids[open.trailing_zeros() as usize]);
            open &= open - 1;
        }
        ws.open_roll_ends.push(ws.open_roll_scores.len() as u32);
    }
    ws.zeros.clear();
    // A zero leaves the flag as it is (even in the yahtzee box).
    ws.zeros.extend((0..ctx.scoring.categories.len()).filter(|c| mask >> c & 1 == 1).map(|c| ws.after[c]));
    ws.joker = ctx.scoring.joker.is_some_and(|(b, _)| mask >> b & 1 == 0);
    if ws.joker {
        for (face, list) in ws.jokers.iter_mut().enumerate() {
            list.clear();
            let dice = Dice::from_counts(std::array::from_fn(|f| if f == face { 5 } else { 0 })).expect("five dice");
            ctx.scoring.scores(mask as u32, flag == 1, &dice, |s| {
                list.push((f64::from(s.points), ws.after[s.category] + u32::from(s.upper)));
            });
        }
    }
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
    progress: impl FnMut(usize, usize),
) -> (TurnStart, Proof, std::time::Duration) {
    let (ctx, padded, near_ties) = solve_padded(scoring, progress, true);
    let exact = turn_start_of(&ctx, &padded);
    let proving = std::time::Instant::now();
    let proof = prove(&ctx, &exact, game, &near_ties);
    (exact, proof, proving.elapsed())
}

/// The proof of a solved game's stored values (see [`solve_and_prove`]):
/// its near ties settled.
fn prove(ctx: &Context, exact: &TurnStart, game: &str, near_ties: &[(usize, usize, NearTies)]) -> Proof {
    let rounded = TurnStart { flags: exact.flags, values: exact.values.iter().map(|&v| stored(v)).collect() };
    let turn = TurnSolver::new(*ctx.scoring);
    let proofs: Vec<Proof> = near_ties
        .par_iter()
        .map(|(mask, flag, near)| settle(&turn, game, exact, &rounded, *mask, *flag, near))
        .collect();
    let mut proof = Proof::default();
    for p in proofs {
        proof.near_ties += p.near_ties;
        proof.exceptions.extend(p.exceptions);
    }
    proof.exceptions.sort_unstable();
    proof
}

/// Adds the rolls (given by their best value and the best more than
/// [`EXACT_TIE`] below it) with an option in the band; `least` is each
/// lane's least gap between the two over every roll (in the band rarely).
/// The row's lowest solved total stands for every total below it too.
#[inline(always)]
fn flag_band<const W: usize>(
    near: &mut NearTies,
    first: usize,
    lowest: usize,
    rerolls: u8,
    least: [f64; W],
    best: &[[f64; W]],
    below: &[[f64; W]],
) {
    if least.iter().all(|&gap| gap > BAND) {
        return;
    }
    for (roll, (b, x)) in best.iter().zip(below).enumerate() {
        let mut lanes = (0..W).fold(0u32, |m, l| m | u32::from(b[l] - x[l] <= BAND) << l);
        while lanes != 0 {
            let total = first + lanes.trailing_zeros() as usize;
            let from = if total == lowest { 0 } else { total };
            near.extend((from..=total).map(|u| (u, rerolls, roll)));
            lanes &= lanes - 1;
        }
    }
}

/// Runs the reader's turn solve on the exact and the stored values at each
/// near tie of row (mask, flag) the game can reach, and lists where they disagree.
fn settle(
    turn: &TurnSolver,
    game: &str,
    exact: &TurnStart,
    rounded: &TurnStart,
    mask: usize,
    flag: usize,
    near: &[(usize, u8, usize)],
) -> Proof {
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
    let reachable = reachable_capped_totals(!(mask as u32) & UPPER_MASK);
    let mut proof = Proof::default();
    for &(u, rerolls, roll) in near {
        if u < UPPER_TOTALS && reachable >> u & 1 == 1 {
            proof.near_ties += 1;
            let state = turn.capped_state(game, mask as u32, u as u8, flag == 1).expect("a reachable state");
            let dice = Dice::unrank(5, roll).expect("roll < 252");
            let right = best(turn, &exact_rows, state, dice, rerolls, EXACT_TIE);
            let stored = best(turn, &stored_rows, state, dice, rerolls, STORED_TIE);
            if right != stored {
                let key = turn.decision_key(state, dice, rerolls);
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
    use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};

    /// A solve's near ties at reachable states, in order: the lane widths
    /// differ by level, and with them the order of the list and the
    /// unreachable totals that padding lanes flag.
    fn reachable_near_ties(near: Vec<(usize, usize, NearTies)>) -> Vec<(usize, usize, NearTies)> {
        let mut rows: Vec<(usize, usize, NearTies)> = near
            .into_iter()
            .map(|(mask, flag, mut ties)| {
                let reachable = reachable_capped_totals(!(mask as u32) & UPPER_MASK);
                ties.retain(|&(u, _, _)| u < UPPER_TOTALS && reachable >> u & 1 == 1);
                ties.sort_unstable();
                (mask, flag, ties)
            })
            .filter(|(_, _, ties)| !ties.is_empty())
            .collect();
        rows.sort_unstable_by_key(|&(mask, flag, _)| (mask, flag));
        rows
    }

    /// Every level of vector instructions this CPU has gives the same bits
    /// (so the tables do not depend on the machine), and the same near ties.
    #[test]
    fn every_machine_solves_alike() {
        let scoring = yahtzee(Joker::Forced);
        // Each width also solves the unreachable totals that share its
        // blocks, which differ; the reachable states are the table.
        let reachable = |(ctx, padded, near): (Context, Vec<f64>, _)| (turn_start_of(&ctx, &padded).values, near);
        let (here, here_near) = reachable(solve_padded(&scoring, |_, _| {}, true));
        let here_near = reachable_near_ties(here_near);
        assert!(!here_near.is_empty(), "yahtzee has near ties to compare");
        // Both lane widths on every level, whichever the level would pick.
        for level in Simd::available() {
            for lanes in [16, 8] {
                let (values, near) = reachable(solve_padded_wide(&scoring, |_, _| {}, level, lanes, true));
                assert!(values.iter().zip(&here).all(|(a, b)| a.to_bits() == b.to_bits()), "{level:?} {lanes}");
                assert_eq!(reachable_near_ties(near), here_near, "{level:?} {lanes}");
            }
        }
        // Proving changes no value.
        let (unproved, _) = reachable(solve_padded(&scoring, |_, _| {}, false));
        assert!(unproved.iter().zip(&here).all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    #[test]
    fn published_values() {
        let yatzy = solve(&YATZY, |_, _| {});
        let start = yatzy.get((1 << 15) - 1, 0, 0);
        assert!((start - 248.4399894).abs() < 1e-6, "yatzy {start}");
        for (reading, published) in [(Joker::Forced, 254.5877287), (Joker::Free, 254.5896095)] {
            let t = solve(&yahtzee(reading), |_, _| {});
            let start = t.get((1 << 13) - 1, 0, 0);
            assert!((start - published).abs() < 1e-6, "yahtzee {reading:?}: {start}");
        }
    }
}
