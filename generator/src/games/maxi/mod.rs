//! Maxi Yatzy's own solver (the rules: the reader's `maxi` module): six
//! dice, twenty boxes, the upper bonus at `bonus_at`, and under the
//! swedish rules the rerolls a turn leaves unused saved for later turns.
//! The finnish table comes from the rules engine (`table`); the swedish
//! one, whose saved rerolls the engine does not take yet, from this solve,
//! as do the score distributions and the tests' small games.
//!
//! A turn-start state is (open boxes, upper total so far capped at
//! `bonus_at`, rerolls saved); the points already scored elsewhere do not
//! matter. A mask's turn depends only on masks with one box fewer, so masks
//! are solved in layers by the number of open boxes, each layer in
//! parallel, only two layers in memory at a time (with saved rolls every
//! state's values take 15 GB at f64). The upper totals of one mask are
//! solved together in lanes: the keep/reroll arithmetic is the same for
//! every lane and never mixes them. Only the totals from which the bonus
//! is still in doubt, up to the highest the filled upper boxes can make,
//! are solved (see `window`).
//!
//! A roll's value with `r` rerolls left in the turn, `S_r`, does not depend
//! on how many of them were saved: scoring a box saves the `r` left
//! (`stop_r`: points plus the next state's value with `r` saved; without
//! saved rolls `stop_r = stop_0`), and with `r > 0` a partial keep rerolls
//! the rest, `K_r(k)` the average of `S_{r-1}` over the rerolled dice.
//! Rerolling no die is never better than scoring now (more saved rerolls
//! are never worth less), so `S_0 = stop_0` and `S_r(roll) = max(stop_r,
//! the partial keeps inside it)`, and a turn with `B` saved starts with the
//! fresh roll's average of `S_{B + 2}`: one pass of `r` gives every `B`.
//!
//! The stored values are rounded, so the solve can also prove that every
//! decision a lookup makes from them is the exact solution's: beside each
//! best value it carries the best one not tied with it, and lists the
//! decisions where the two are close (`NearTie`); the table's builder
//! settles those one by one with the reader's own turn solve.

use dice_tables_reader::dice::FACES;
use dice_tables_reader::five_dice::SIXTH;
use dice_tables_reader::maxi::{points, stored_totals, Rules, BOXES, REROLLS};
use dice_tables_reader::sheet::EXACT_TIE;
use rayon::prelude::*;

pub use dice_tables_reader::maxi::reachable_capped_totals;

use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{fold_best_and_below, fold_least_gap, multisets, KeepGraph, SIX_DICE};

pub mod distribution;
pub mod play;
pub mod table;

/// Upper totals solved together, a block.
const W: usize = 16;

/// One layer of masks (the same number of boxes open), solved: every
/// mask's value for each count of saved rerolls and each upper total.
#[derive(Clone, Debug)]
pub struct Layer {
    /// The layer's masks, in increasing order.
    pub masks: Vec<u32>,
    /// Counts of saved rerolls a row holds: `0..saved` (1 without saved rolls).
    pub saved: usize,
    /// Upper totals a row holds for each count: `0..=bonus_at`.
    pub totals: usize,
    /// Per (mask in `masks`, saved, upper total): the expected points still
    /// to come. A total the filled boxes cannot make holds what it would be worth.
    pub values: Vec<f64>,
}

impl Layer {
    /// The value of (the mask at `index` in `masks`, `saved` rerolls saved, upper total `u`).
    pub fn get(&self, index: usize, saved: usize, u: usize) -> f64 {
        self.values[(index * self.saved + saved) * self.totals + u.min(self.totals - 1)]
    }

    /// The values of the mask at `index`: `saved` rows of `totals`.
    pub fn row(&self, index: usize) -> &[f64] {
        &self.values[index * self.saved * self.totals..][..self.saved * self.totals]
    }

    /// The index of `mask` in `masks`.
    pub fn index(&self, mask: u32) -> Option<usize> {
        self.masks.binary_search(&mask).ok()
    }
}

/// A decision of a layer's mask with an option within the proof's band of
/// the best, [`BAND`], but not tied with it: (the mask's index in its
/// layer, upper total, rerolls left, roll rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NearTie {
    /// The mask's index in its layer.
    pub index: u32,
    /// The upper total.
    pub upper: u8,
    /// Rerolls left in the turn.
    pub rerolls: u8,
    /// The roll's rank among the 462 rolls of six dice.
    pub roll: u16,
}

/// How far below the best option another must be for a lookup on the
/// stored values to decide as the exact solution does: each stored value
/// lies within half a unit (8e-8) of the exact one, so two options' gap
/// moves by at most a unit, and a lookup counts gaps up to
/// [`STORED_TIE`](dice_tables_reader::sheet::STORED_TIE) as ties.
pub const BAND: f64 = dice_tables_reader::sheet::STORED_TIE + 1.0 / dice_tables_reader::maxi::UNITS_PER_POINT + 1e-8;

/// Solves Maxi Yatzy under `rules`, the game played with the boxes of
/// `universe`. Calls `each_layer(layer, below, near_ties)` with every layer
/// of one or more open boxes once solved, from one box open up, beside the
/// layer it was solved from, with its near ties when `prove` (else none).
/// Returns the whole game's expected score.
pub fn solve(
    rules: Rules,
    universe: u32,
    prove: bool,
    mut progress: impl FnMut(usize, usize),
    mut each_layer: impl FnMut(&Layer, &Layer, Vec<NearTie>),
) -> f64 {
    let ctx = context(rules);
    let boxes = universe.count_ones() as usize;
    let totals = usize::from(rules.bonus_at) + 1;
    // Turns played before a layer's: `boxes - open`, each saving up to two.
    let saved = |open: usize| if rules.saved_rolls { 2 * (boxes - open) + 1 } else { 1 };
    let layer_masks = |open: usize| -> Vec<u32> {
        (0..1u32 << BOXES.len()).filter(|&m| m & !universe == 0 && m.count_ones() as usize == open).collect()
    };
    // No box open: the upper bonus is all that is still to come.
    let mut below = Layer { masks: vec![0], saved: saved(0), totals, values: vec![0.0; saved(0) * totals] };
    for row in below.values.chunks_exact_mut(totals) {
        row[usize::from(rules.bonus_at)] = f64::from(rules.bonus);
    }
    let simd = Simd::detect();
    let mut index = vec![0u32; 1 << BOXES.len()];
    let layers = crate::progress::Layers::of_sheets(boxes, 1..=boxes);
    for open in 1..=boxes {
        layers.report(open - 1, &mut progress);
        for (i, &m) in below.masks.iter().enumerate() {
            index[m as usize] = i as u32;
        }
        let masks = layer_masks(open);
        let row_len = saved(open) * totals;
        let mut values = vec![0.0; masks.len() * row_len];
        let near: Vec<Vec<NearTie>> = values
            .par_chunks_mut(row_len)
            .zip(masks.par_iter())
            .enumerate()
            .map_init(
                || Workspace::new(&ctx),
                |ws, (i, (out, &mask))| {
                    for b in (0..BOXES.len()).filter(|b| mask >> b & 1 == 1) {
                        let next = mask & !(1 << b);
                        ws.after[b] = index[next as usize] as usize * below.saved * totals;
                    }
                    list_open_scores(&ctx, mask, ws);
                    ws.near.clear();
                    let row = SolveRow { ctx: &ctx, mask, index: i as u32, below: &below, ws, out };
                    if prove {
                        simd.run(Proving(row));
                    } else {
                        simd.run(row);
                    }
                    std::mem::take(&mut ws.near)
                },
            )
            .collect();
        let layer = Layer { masks, saved: saved(open), totals, values };
        each_layer(&layer, &below, near.into_iter().flatten().collect());
        below = layer;
    }
    below.get(0, 0, 0)
}

/// Every layer of the game played with the boxes of `universe`, from none
/// open up (for tests: the whole game at f64 would take gigabytes).
pub fn solve_layers(rules: Rules, universe: u32) -> Vec<Layer> {
    let mut layers = Vec::new();
    solve(
        rules,
        universe,
        false,
        |_, _| {},
        |layer, below, _| {
            if layers.is_empty() {
                layers.push(below.clone());
            }
            layers.push(layer.clone());
        },
    );
    layers
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
    Context { rules, graph: &SIX_DICE, scores, roll_boxes, roll_scores }
}

/// Buffers one thread reuses from row to row.
struct Workspace {
    /// Where the row after filling each open box starts in the layer below.
    after: [usize; 20],
    open_scores: Vec<u16>,
    open_roll_scores: Vec<u16>,
    open_roll_ends: Vec<u32>,
    score_values: Vec<[f64; W]>,
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    /// While proving: each keep's best value more than [`EXACT_TIE`] below its best.
    below: Vec<[f64; W]>,
    /// Each roll's value scored now (and while proving, its best not tied),
    /// with the rerolls left saved; without saved rolls the same for every r.
    stop: Vec<[f64; W]>,
    stop_below: Vec<[f64; W]>,
    /// The row's near ties.
    near: Vec<NearTie>,
}

impl Workspace {
    fn new(ctx: &Context) -> Workspace {
        let rolls = ctx.graph.keeps() - ctx.graph.partial;
        Workspace {
            after: [0; 20],
            open_scores: Vec::new(),
            open_roll_scores: Vec::new(),
            open_roll_ends: Vec::new(),
            score_values: vec![[0.0; W]; ctx.scores.len()],
            values: vec![[0.0; W]; ctx.graph.keeps()],
            scratch: vec![[0.0; W]; ctx.graph.partial],
            below: vec![[f64::NEG_INFINITY; W]; ctx.graph.keeps()],
            stop: vec![[0.0; W]; rolls],
            stop_below: vec![[0.0; W]; rolls],
            near: Vec::new(),
        }
    }
}

/// The upper totals of a mask worth solving, `lowest..lowest + lanes`: up
/// to the highest the filled upper boxes can make, and from the highest
/// from which the open ones can no longer reach the bonus (every lower
/// total has that one's value). Whole blocks: the last may run past the
/// row's `bonus_at + 1` totals, and its lanes there are dropped.
fn window(mask: u32, bonus_at: u8) -> (usize, usize) {
    let totals = usize::from(bonus_at) + 1;
    let (flat, above) = stored_totals(mask, bonus_at);
    let highest = if above == 0 { usize::from(flat) } else { 127 - above.leading_zeros() as usize };
    let lanes = (highest + 1 - usize::from(flat)).div_ceil(W) * W;
    (usize::from(flat).min(totals.saturating_sub(lanes)), lanes)
}

/// One mask's row as a kernel, compiled for each vector level.
struct SolveRow<'a> {
    ctx: &'a Context,
    mask: u32,
    index: u32,
    below: &'a Layer,
    ws: &'a mut Workspace,
    out: &'a mut [f64],
}

impl Kernel for SolveRow<'_> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        solve_row::<false>(self)
    }
}

/// [`SolveRow`] listing its near ties.
struct Proving<'a>(SolveRow<'a>);

impl Kernel for Proving<'_> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        solve_row::<true>(self.0)
    }
}

/// `W` upper totals from `start` of a row of `totals`, those past the cap
/// holding the capped one's value.
#[inline(always)]
fn block(row: &[f64], start: usize, totals: usize) -> [f64; W] {
    if start + W <= totals {
        row[start..start + W].try_into().expect("W lanes")
    } else {
        let mut v = [0.0; W];
        for (l, x) in v.iter_mut().enumerate() {
            *x = row[(start + l).min(totals - 1)];
        }
        v
    }
}

#[inline(always)]
fn solve_row<const PROVE: bool>(row: SolveRow) {
    let SolveRow { ctx, mask, index, below, ws, out } = row;
    let graph = ctx.graph;
    let partial = graph.partial;
    let totals = below.totals;
    let saving = ctx.rules.saved_rolls;
    // Rerolls a turn can hold: its two and every one saved.
    let most = out.len() / totals - 1 + REROLLS;
    let (lowest, lanes) = window(mask, ctx.rules.bonus_at);
    for first in (lowest..lowest + lanes).step_by(W) {
        for r in 0..=most {
            if r > 0 {
                // K_r: the partial keeps' averages of S_{r-1}.
                graph.keep_values_lanes(&mut ws.values, |sum| sum * SIXTH);
            }
            if r == 0 || saving {
                // stop_r: the values after scoring with `r` rerolls left,
                // saved (without saved rolls, stop_0 serves every r).
                let saved = if saving { r } else { 0 };
                stop_values::<PROVE>(ctx, mask, ws, |at, upper| {
                    block(&below.values[at + saved * totals..][..totals], first + upper, totals)
                });
            }
            if r == 0 {
                // S_0 = stop_0.
                ws.values[partial..].copy_from_slice(&ws.stop);
                if PROVE {
                    ws.below[partial..].copy_from_slice(&ws.stop_below);
                    let mut least = [f64::INFINITY; W];
                    for (b, x) in ws.stop.iter().zip(&ws.stop_below) {
                        fold_least_gap(&mut least, b, x);
                    }
                    flag_band(ws, index, first, lowest, 0, least);
                }
            } else if PROVE {
                // S_r with, per roll, its best option not tied with the best.
                let least =
                    graph.best_and_below_over_lanes(&mut ws.values, EXACT_TIE, &mut ws.below, &ws.stop, &ws.stop_below);
                flag_band(ws, index, first, lowest, r as u8, least);
            } else {
                // S_r: stopping, or the best partial keep inside the roll.
                graph.best_values_over_lanes(&mut ws.values, &mut ws.scratch, &ws.stop);
            }
            if r >= REROLLS {
                let value = graph.fresh_roll_value_lanes(&ws.values[partial..]);
                let row = &mut out[(r - REROLLS) * totals..][..totals];
                let end = (first + W).min(totals);
                row[first..end].copy_from_slice(&value[..end - first]);
            }
        }
    }
    for row in out.chunks_exact_mut(totals) {
        let flat = row[lowest];
        row[..lowest].fill(flat);
    }
}

/// Adds the rolls with an option in the band at `rerolls` left; `least` is
/// each lane's least gap between a roll's best and its best not tied (in
/// the band rarely). The block's lowest total stands for every total below
/// it too.
#[inline(always)]
fn flag_band(ws: &mut Workspace, index: u32, first: usize, lowest: usize, rerolls: u8, least: [f64; W]) {
    if least.iter().all(|&gap| gap > BAND) {
        return;
    }
    let partial = ws.values.len() - ws.stop.len();
    for (roll, (b, x)) in ws.values[partial..].iter().zip(&ws.below[partial..]).enumerate() {
        let mut lanes = (0..W).fold(0u32, |m, l| m | u32::from(b[l] - x[l] <= BAND) << l);
        while lanes != 0 {
            let total = first + lanes.trailing_zeros() as usize;
            let from = if total == lowest { 0 } else { total };
            ws.near.extend((from..=total.min(255)).map(|u| NearTie {
                index,
                upper: u as u8,
                rerolls,
                roll: roll as u16,
            }));
            lanes &= lanes - 1;
        }
    }
}

/// Each roll's value when it is scored now, for one block of upper totals,
/// into `ws.stop`: the best of its points in an open box plus the value
/// after, and a zero in any open box; while proving, the best not tied
/// with it into `ws.stop_below`. `after(at, upper)` is the
/// block of values after scoring `upper` upper points, at `ws.after[b]`.
#[inline(always)]
fn stop_values<const PROVE: bool>(
    ctx: &Context,
    mask: u32,
    ws: &mut Workspace,
    after: impl Fn(usize, usize) -> [f64; W],
) {
    // A zero in the best open box: never more than scoring points there
    // (more points, or more upper points, are never worth less). While
    // proving: a zero where the roll scores points is no option, but it is
    // at least a point below that option, so never in the band.
    let none = [f64::NEG_INFINITY; W];
    let (mut zero, mut zero_below) = (none, none);
    for b in (0..BOXES.len()).filter(|b| mask >> b & 1 == 1) {
        fold::<PROVE>(&mut zero, &mut zero_below, &after(ws.after[b], 0));
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
    let mut start = 0;
    for (roll, &end) in ws.open_roll_ends.iter().enumerate() {
        let (mut best, mut below) = (zero, zero_below);
        for &id in &ws.open_roll_scores[start..end as usize] {
            fold::<PROVE>(&mut best, &mut below, &ws.score_values[usize::from(id)]);
        }
        start = end as usize;
        ws.stop[roll] = best;
        if PROVE {
            ws.stop_below[roll] = below;
        }
    }
}

/// The maximum of two lane blocks, into `best`; while proving, with the
/// best value more than [`EXACT_TIE`] below it carried in `below` (the
/// same maximum either way: the proof never changes a value).
#[inline(always)]
fn fold<const PROVE: bool>(best: &mut [f64; W], below: &mut [f64; W], v: &[f64; W]) {
    if PROVE {
        fold_best_and_below(best, below, v, &[f64::NEG_INFINITY; W], EXACT_TIE);
    } else {
        for l in 0..W {
            best[l] = if v[l] > best[l] { v[l] } else { best[l] };
        }
    }
}

/// Lists the scores in the open boxes of `mask`: all of them, and each
/// roll's, walking the bits of its boxes that are open.
fn list_open_scores(ctx: &Context, mask: u32, ws: &mut Workspace) {
    ws.open_scores.clear();
    ws.open_scores.extend((0..ctx.scores.len() as u16).filter(|&id| mask >> ctx.scores[usize::from(id)].0 & 1 == 1));
    ws.open_roll_scores.clear();
    ws.open_roll_ends.clear();
    for (&bits, ids) in ctx.roll_boxes.iter().zip(&ctx.roll_scores) {
        let mut open = bits & mask;
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

    /// The value of `mask` at `u` with `saved` saved, from a whole game's layers.
    fn value(layers: &[Layer], mask: u32, saved: usize, u: usize) -> f64 {
        let layer = &layers[mask.count_ones() as usize];
        layer.get(layer.index(mask).expect("a mask of the game"), saved, u)
    }

    /// A die's expected face with `r` rerolls, kept by the threshold rule.
    fn one_die(r: usize) -> f64 {
        (0..r).fold(3.5, |e, _| (1..=6).map(|f| f64::from(f).max(e)).sum::<f64>() / 6.0)
    }

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
        let chance = parse_mask("chance").unwrap();
        let layers = solve_layers(Rules::FINNISH, chance);
        assert!((value(&layers, chance, 0, 0) - 28.0).abs() < 1e-12, "{}", value(&layers, chance, 0, 0));
        // Every upper box filled with 75 or more: the bonus too.
        assert!((value(&layers, chance, 0, 75) - 78.0).abs() < 1e-12);
    }

    #[test]
    fn sixes_alone_chases_sixes() {
        // Keep every six: P(a die ends a six) = 1 - (5/6)^3, six dice.
        let sixes = parse_mask("sixes").unwrap();
        let layers = solve_layers(Rules::FINNISH, sixes);
        let per_die = 1.0 - (5.0f64 / 6.0).powi(3);
        assert!((value(&layers, sixes, 0, 0) - 36.0 * per_die).abs() < 1e-12);
        // From 39 upper points only six sixes (36) reach 75: the same play,
        // and the bonus when every die ends a six.
        let at_39 = 36.0 * per_die + 50.0 * per_die.powi(6);
        assert!((value(&layers, sixes, 0, 39) - at_39).abs() < 1e-12, "{}", value(&layers, sixes, 0, 39));
    }

    #[test]
    fn chance_last_with_saved_rerolls_uses_them_all() {
        let universe = parse_mask("ones,chance").unwrap();
        let chance = parse_mask("chance").unwrap();
        let layers = solve_layers(Rules::SWEDISH, universe);
        assert_eq!(layers[1].saved, 3);
        for saved in 0..3 {
            let expected = 6.0 * one_die(2 + saved);
            let v = value(&layers, chance, saved, 0);
            assert!((v - expected).abs() < 1e-12, "{saved}: {v}");
        }
        assert!(value(&layers, universe, 0, 0) > 6.0 * one_die(2));
    }

    #[test]
    fn without_a_later_turn_saving_changes_nothing() {
        // One box: the only turn is the last, as without saved rolls.
        for name in ["chance", "sixes", "maxi-yatzy", "full-house"] {
            let universe = parse_mask(name).unwrap();
            let saved = value(&solve_layers(Rules::SWEDISH, universe), universe, 0, 0);
            let rules = Rules { saved_rolls: false, ..Rules::SWEDISH };
            let plain = value(&solve_layers(rules, universe), universe, 0, 0);
            assert!((saved - plain).abs() < 1e-12, "{name}: {saved} vs {plain}");
        }
    }

    #[test]
    fn proving_changes_no_value() {
        let universe = parse_mask("ones,sixes,two-pairs,chance").unwrap();
        for rules in [Rules::FINNISH, Rules::SWEDISH] {
            let mut plain = Vec::new();
            solve(rules, universe, false, |_, _| {}, |l, _, _| plain.push(l.values.clone()));
            let mut proved = Vec::new();
            solve(rules, universe, true, |_, _| {}, |l, _, _| proved.push(l.values.clone()));
            assert!(plain.iter().flatten().zip(proved.iter().flatten()).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}
