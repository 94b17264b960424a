//! Maxi Yatzy's solver (the rules: the reader's `maxi` module): six dice,
//! twenty boxes, the upper bonus at `bonus_at`.
//!
//! A turn-start state is (open boxes, upper total so far capped at
//! `bonus_at`); the points already scored elsewhere do not matter. As in
//! the five-dice score sheets, a mask's turn depends only on masks with one
//! box fewer, so masks are solved in layers by the number of open boxes,
//! each layer in parallel, and the upper totals of one mask are solved
//! together in lanes: the keep/reroll arithmetic is the same for every
//! lane and never mixes them. Only the totals from which the bonus is
//! still in doubt, up to the highest the filled upper boxes can make, are
//! solved (see `window`).

use dice_tables_reader::dice::FACES;
use dice_tables_reader::five_dice::SIXTH;
pub use dice_tables_reader::maxi::reachable_capped_totals;
use dice_tables_reader::maxi::{points, stored_totals, Rules, BOXES};
use rayon::prelude::*;

use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{multisets, KeepGraph, SIX_DICE};

/// Rerolls in a turn (without saved rolls).
pub const REROLLS: usize = 2;

mod saved;
mod table;
pub use saved::{solve_saved, SavedLayer};
pub use table::*;

/// Upper totals solved together, a block.
const W: usize = 16;

/// The most one upper box can add: six sixes.
const MOST_UPPER_POINTS: usize = 36;

/// Every turn-start value of a Maxi Yatzy game without saved rolls: per
/// (mask, upper total `0..=bonus_at`), the expected points still to come,
/// the bonus included. Exact (f64); an unreachable total holds what it
/// would be worth.
#[derive(Clone, Debug)]
pub struct TurnStart {
    /// The rules solved.
    pub rules: Rules,
    /// Values a mask's row holds: its totals, then padding.
    stride: usize,
    /// The rows, by mask.
    rows: Vec<f64>,
}

impl TurnStart {
    /// The value of (mask, upper total).
    pub fn get(&self, mask: u32, upper: usize) -> f64 {
        self.rows[mask as usize * self.stride + upper.min(usize::from(self.rules.bonus_at))]
    }

    /// The expected score of a whole game under optimal play.
    pub fn start(&self) -> f64 {
        self.get(dice_tables_reader::maxi::ALL, 0)
    }
}

/// Rolls, their scores and the keep graph, shared by every row.
struct Context {
    rules: Rules,
    graph: &'static KeepGraph,
    /// The distinct (box, points) worth points, over every roll.
    scores: Vec<(u8, u8)>,
    /// Per roll: the boxes it scores points in, as mask bits, and by box
    /// the index in `scores` of its score there.
    roll_boxes: Vec<u32>,
    roll_scores: Vec<[u16; 20]>,
    /// Values a row holds in the solver's padded layout: the totals, then
    /// copies of the capped one, so that `u + p` needs no cap.
    stride: usize,
    /// Where the row of -inf starts: the row "after" a closed box.
    closed: usize,
}

/// Solves every turn-start state of Maxi Yatzy under `rules` (without
/// saved rolls: `rules.saved_rolls` must be false).
pub fn solve(rules: Rules, progress: impl FnMut(usize, usize)) -> TurnStart {
    solve_within(rules, dice_tables_reader::maxi::ALL, progress)
}

/// [`solve`] on the masks inside `universe` only (a game played with those
/// boxes; the tests' small games). Rows outside it hold 0.
pub fn solve_within(rules: Rules, universe: u32, mut progress: impl FnMut(usize, usize)) -> TurnStart {
    assert!(!rules.saved_rolls, "saved rolls are solved apart");
    let ctx = context(rules);
    let masks = 1usize << BOXES.len();
    let totals = usize::from(rules.bonus_at) + 1;
    // Zeroed pages cost nothing until written: a small universe touches few.
    let mut padded = vec![0.0; masks * ctx.stride + ctx.stride];
    padded[ctx.closed..].fill(f64::NEG_INFINITY);
    // No box open: the upper bonus is all that is still to come.
    padded[usize::from(rules.bonus_at)..ctx.stride].fill(f64::from(rules.bonus));
    let simd = Simd::detect();
    let layers = universe.count_ones() as usize;
    for open in 1..=layers {
        progress(open, layers);
        let layer: Vec<usize> =
            (1..masks).filter(|&m| m.count_ones() as usize == open && m as u32 & !universe == 0).collect();
        let solved: Vec<Vec<f64>> = layer
            .par_iter()
            .map_init(
                || Workspace::new(&ctx),
                |ws, &mask| {
                    let mut row = vec![0.0; totals];
                    simd.run(SolveRow { ctx: &ctx, mask, padded: &padded, ws, out: &mut row });
                    row
                },
            )
            .collect();
        for (&mask, row) in layer.iter().zip(solved) {
            let out = &mut padded[mask * ctx.stride..][..ctx.stride];
            out[..totals].copy_from_slice(&row);
            out[totals..].fill(row[totals - 1]);
        }
    }
    padded.truncate(masks * ctx.stride);
    TurnStart { rules, stride: ctx.stride, rows: padded }
}

fn context(rules: Rules) -> Context {
    let rolls = multisets(6);
    let mut scores: Vec<(u8, u8)> = Vec::new();
    let (roll_boxes, roll_scores) = rolls
        .iter()
        .map(|d| {
            let (mut bits, mut ids) = (0u32, [0u16; 20]);
            for (b, id_at) in ids.iter_mut().enumerate() {
                let p = points(&d.counts(), b);
                if p > 0 {
                    let id = scores.iter().position(|&s| s == (b as u8, p)).unwrap_or_else(|| {
                        scores.push((b as u8, p));
                        scores.len() - 1
                    });
                    bits |= 1 << b;
                    *id_at = id as u16;
                }
            }
            (bits, ids)
        })
        .unzip();
    // Room past the totals for the most one box adds, and for a block
    // that starts near the end of the row.
    let stride = (usize::from(rules.bonus_at) + 1 + MOST_UPPER_POINTS + W).next_multiple_of(8);
    let closed = (1 << BOXES.len()) * stride;
    Context { rules, graph: &SIX_DICE, scores, roll_boxes, roll_scores, stride, closed }
}

/// Buffers one thread reuses from row to row.
struct Workspace {
    /// Where the values after filling each box start (closed: the -inf row).
    after: [usize; 20],
    open_scores: Vec<u16>,
    open_roll_scores: Vec<u16>,
    open_roll_ends: Vec<u32>,
    score_values: Vec<[f64; W]>,
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
}

impl Workspace {
    fn new(ctx: &Context) -> Workspace {
        Workspace {
            after: [0; 20],
            open_scores: Vec::new(),
            open_roll_scores: Vec::new(),
            open_roll_ends: Vec::new(),
            score_values: vec![[0.0; W]; ctx.scores.len()],
            values: vec![[0.0; W]; ctx.graph.keeps()],
            scratch: vec![[0.0; W]; ctx.graph.partial],
        }
    }
}

/// The upper totals of a mask worth solving, `lowest..lowest + lanes`: up
/// to the highest the filled upper boxes can make, and from the highest
/// from which the open ones can no longer reach the bonus (every lower
/// total has that one's value). Whole blocks: the last may run past the
/// row's `bonus_at + 1` totals, and its lanes there are dropped.
fn window(mask: usize, bonus_at: u8) -> (usize, usize) {
    let totals = usize::from(bonus_at) + 1;
    let (flat, above) = stored_totals(mask as u32, bonus_at);
    let highest = if above == 0 { usize::from(flat) } else { 127 - above.leading_zeros() as usize };
    let lanes = (highest + 1 - usize::from(flat)).div_ceil(W) * W;
    (usize::from(flat).min(totals.saturating_sub(lanes)), lanes)
}

/// One row's solve as a kernel, compiled for each vector level.
struct SolveRow<'a> {
    ctx: &'a Context,
    mask: usize,
    padded: &'a [f64],
    ws: &'a mut Workspace,
    out: &'a mut [f64],
}

impl Kernel for SolveRow<'_> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        solve_row(self.ctx, self.mask, self.padded, self.ws, self.out)
    }
}

#[inline(always)]
fn solve_row(ctx: &Context, mask: usize, padded: &[f64], ws: &mut Workspace, out: &mut [f64]) {
    prepare_row(ctx, mask, ws);
    let graph = ctx.graph;
    let (lowest, lanes) = window(mask, ctx.rules.bonus_at);
    for first in (lowest..lowest + lanes).step_by(W) {
        stop_values(ctx, mask, ws, |at, upper| padded[at + upper + first..][..W].try_into().expect("W lanes"));
        let value = graph.turn_start_lanes(&mut ws.values, &mut ws.scratch, REROLLS, |sum| sum * SIXTH);
        let end = (first + W).min(out.len());
        out[first..end].copy_from_slice(&value[..end - first]);
    }
    let flat = out[lowest];
    out[..lowest].fill(flat);
}

/// Each roll's value when it is scored now, for one block of upper totals,
/// into `ws.values[partial..]`: the best of its points in an open box plus
/// the value after, and a zero in any open box. `after(at, upper)` is the
/// block of values after scoring `upper` upper points, at `ws.after[b]`.
#[inline(always)]
fn stop_values(ctx: &Context, mask: usize, ws: &mut Workspace, after: impl Fn(usize, usize) -> [f64; W]) {
    // A zero in the best open box: never more than scoring points there.
    let mut zero = [f64::NEG_INFINITY; W];
    for b in (0..BOXES.len()).filter(|b| mask >> b & 1 == 1) {
        max_into(&mut zero, &after(ws.after[b], 0));
    }
    for &id in &ws.open_scores {
        let (b, p) = ctx.scores[usize::from(id)];
        let upper = if usize::from(b) < FACES { usize::from(p) } else { 0 };
        let mut v = after(ws.after[usize::from(b)], upper);
        for x in &mut v {
            *x += f64::from(p);
        }
        ws.score_values[usize::from(id)] = v;
    }
    let partial = ctx.graph.partial;
    let mut start = 0;
    for (roll, &end) in ws.open_roll_ends.iter().enumerate() {
        let mut best = zero;
        for &id in &ws.open_roll_scores[start..end as usize] {
            max_into(&mut best, &ws.score_values[usize::from(id)]);
        }
        start = end as usize;
        ws.values[partial + roll] = best;
    }
}

#[inline(always)]
fn max_into(best: &mut [f64; W], v: &[f64; W]) {
    for l in 0..W {
        best[l] = if v[l] > best[l] { v[l] } else { best[l] };
    }
}

fn prepare_row(ctx: &Context, mask: usize, ws: &mut Workspace) {
    ws.after = std::array::from_fn(|b| if mask >> b & 1 == 1 { (mask & !(1 << b)) * ctx.stride } else { ctx.closed });
    list_open_scores(ctx, mask, ws);
}

/// Lists the scores in the open boxes of `mask`: all of them, and each
/// roll's, walking the bits of its boxes that are open.
fn list_open_scores(ctx: &Context, mask: usize, ws: &mut Workspace) {
    ws.open_scores.clear();
    ws.open_scores.extend((0..ctx.scores.len() as u16).filter(|&id| mask >> ctx.scores[usize::from(id)].0 & 1 == 1));
    ws.open_roll_scores.clear();
    ws.open_roll_ends.clear();
    for (&bits, ids) in ctx.roll_boxes.iter().zip(&ctx.roll_scores) {
        let mut open = bits & mask as u32;
        while open != 0 {
            ws.open_roll_scores.push(ids[open.trailing_zeros() as usize]);
            open &= open - 1;
        }
        ws.open_roll_ends.push(ws.open_roll_scores.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_tables_reader::maxi::{parse_mask, UPPER_MASK};

    #[test]
    fn reachable_totals_of_the_filled_upper_boxes() {
        assert_eq!(reachable_capped_totals(0, 75), 1);
        // Ones filled: 0 to 6.
        assert_eq!(reachable_capped_totals(1, 75), 0x7f);
        // Every upper box filled: the cap is reachable (six sixes alone make 36).
        let all = reachable_capped_totals(UPPER_MASK, 75);
        assert_eq!(all >> 75, 1);
        assert_eq!(all & 1 << 74, 1 << 74);
        assert_eq!(reachable_capped_totals(UPPER_MASK, 84) >> 84, 1);
    }

    #[test]
    fn chance_alone_is_worth_the_dice_kept_by_the_threshold_rule() {
        // Each die alone: with one reroll left keep 4 or more (worth 4.25),
        // with two keep 5 or more: (5 + 6 + 4 x 4.25) / 6 = 28 / 6 a die.
        let t = solve_within(Rules::FINNISH, parse_mask("chance").unwrap(), |_, _| {});
        let chance = parse_mask("chance").unwrap();
        assert!((t.get(chance, 0) - 28.0).abs() < 1e-12, "{}", t.get(chance, 0));
        // Every upper box filled with 75 or more: the bonus too.
        assert!((t.get(chance, 75) - 78.0).abs() < 1e-12);
    }

    #[test]
    fn sixes_alone_chases_sixes() {
        // Keep every six: P(a die ends a six) = 1 - (5/6)^3, six dice.
        let sixes = parse_mask("sixes").unwrap();
        let t = solve_within(Rules::FINNISH, sixes, |_, _| {});
        let per_die = 1.0 - (5.0f64 / 6.0).powi(3);
        assert!((t.get(sixes, 0) - 36.0 * per_die).abs() < 1e-12, "{}", t.get(sixes, 0));
        // From 39 upper points only six sixes (36) reach 75: the same play,
        // and the bonus when every die ends a six.
        let at_39 = 36.0 * per_die + 50.0 * per_die.powi(6);
        assert!((t.get(sixes, 39) - at_39).abs() < 1e-12, "{}", t.get(sixes, 39));
    }
}
