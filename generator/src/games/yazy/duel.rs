//! yazy for two players: the exact chance of winning against a perfect
//! opponent.
//!
//! Two players alternate whole yazy turns (see `yazy`), the first player
//! then the second, until both sheets are full; the higher total wins and a
//! tie counts half. At a turn's start the player to move has the open
//! categories `M`, the opponent `O`, and the lead `D` (the mover's total
//! minus the opponent's); the mover is the first player when `|M| = |O|`
//! and the second when `|M| = |O| + 1`. `V(M, O, D)` is the mover's
//! P(win) + P(tie) / 2 when both play to maximise their own: scoring `s`
//! points in `c` leads to `1 - V(O, M - c, -(D + s))`; with both sheets full
//! it is 1, 1/2 or 0 by the sign of `D`. A lead beyond what the trailing
//! side can still score is settled: 1 when `D > most(O)`, 0 when
//! `-D > most(M)`.
//!
//! The turn is solved as for yazy's target table, with `1 - V` of the next
//! state in place of a target's chance: a roll scored in `c` is worth the
//! next state's value at its lead, a keep the average over the next roll,
//! a roll with rerolls left the best of its keeps and of keeping all five.
//! Each lead is independent of the others, so `W` leads are the lanes of
//! one vector through the same keep lattice. Far from the leads a game is
//! likely to reach, a pair's values are within 1e-10 of 0 or 1 and are
//! taken as such unsolved (see [`NEGLIGIBLE`]). States are solved in layers by
//! the categories open on both sheets (`|M| + |O|`): a layer needs only the
//! one below it.

use std::collections::HashMap;

use rayon::prelude::*;

use super::points;
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{multisets, FIVE_DICE};
pub use dice_tables_reader::yazy::duel::most;
use dice_tables_reader::yazy::duel::{Layout, YazyDuel, YazyDuelParams, VALUES};
use dice_tables_reader::yazy::CATEGORIES;
use std::sync::Arc;

/// Leads solved together: two AVX-512 vectors. Measured on the whole game
/// (two cores, AVX-512, before blocks near 0 and 1 were skipped): 8 leads
/// took 181 s, 16 took 144 s, 32 took 224 s (a block's values no longer
/// fit the first-level cache).
pub(super) const W: usize = 16;

/// The most points of any one category (yazy, 50): how far past a pair's
/// leads a scored roll can reach.
const MOST_ONE_SCORE: usize = 50;

/// One pair of sheets of a layer: the mover's open categories `m`, the
/// opponent's `o`, and where its values begin in the layer's `values`; its
/// leads run from `-most(m)` to `most(o)`, the unsettled ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The mover's open categories.
    pub m: u16,
    /// The opponent's open categories.
    pub o: u16,
    /// Where the pair's values begin in its layer.
    pub start: usize,
}

impl Pair {
    /// The lowest unsettled lead.
    pub fn lowest(&self) -> i32 {
        -most(self.m)
    }

    /// How many unsettled leads the pair has.
    pub fn leads(&self) -> usize {
        (most(self.m) + most(self.o) + 1) as usize
    }
}

/// Every pair of sheets with `n` categories open on both together, the
/// mover holding the larger half, within `universe` (the categories a
/// game uses: all 11, or fewer for a reduced game), in (m, o) order.
pub(super) fn layer_pairs(n: u32, universe: u16) -> Vec<Pair> {
    let sheets = |k: u32| -> Vec<u16> {
        (0..=universe).filter(|&s| s & !universe == 0 && s.count_ones() == k).collect::<Vec<u16>>()
    };
    let (movers, opponents) = (sheets(n.div_ceil(2)), sheets(n / 2));
    let mut start = 0;
    let mut pairs = Vec::with_capacity(movers.len() * opponents.len());
    for &m in &movers {
        for &o in &opponents {
            let pair = Pair { m, o, start };
            start += pair.leads();
            pairs.push(pair);
        }
    }
    pairs
}

/// One layer's values: per pair, `V` at every unsettled lead in f64, within
/// 2.2e-9 of exact (see [`NEGLIGIBLE`]).
#[derive(Clone, Debug, Default)]
pub struct Layer {
    /// The pairs, in order.
    pub pairs: Vec<Pair>,
    /// Their values, one pair after another.
    pub values: Vec<f64>,
    index: HashMap<(u16, u16), usize>,
}

impl Layer {
    pub(super) fn new(pairs: Vec<Pair>, values: Vec<f64>) -> Layer {
        let index = pairs.iter().enumerate().map(|(i, p)| ((p.m, p.o), i)).collect();
        Layer { pairs, values, index }
    }

    /// The layer of `pairs` (each starting where the one before ends), each
    /// pair's values written by `solve(state, pair, out)` into `out`, one
    /// value a lead, on every thread in parallel, each with a `state` from
    /// `init`.
    pub(super) fn solved<S>(
        pairs: Vec<Pair>,
        init: impl Fn() -> S + Sync + Send,
        solve: impl Fn(&mut S, &Pair, &mut [f64]) + Sync + Send,
    ) -> Layer {
        let mut values = vec![0.0; pairs.last().map_or(0, |p| p.start + p.leads())];
        let mut outs = Vec::with_capacity(pairs.len());
        let mut rest = values.as_mut_slice();
        for pair in &pairs {
            let (out, after) = rest.split_at_mut(pair.leads());
            outs.push(out);
            rest = after;
        }
        pairs.par_iter().zip(outs).for_each_init(init, |state, (pair, out)| solve(state, pair, out));
        Layer::new(pairs, values)
    }

    /// The pair `(m, o)`, if the layer has it.
    pub fn pair(&self, m: u16, o: u16) -> Option<&Pair> {
        self.index.get(&(m, o)).map(|&i| &self.pairs[i])
    }

    /// `V(m, o, d)` for a pair of this layer, settled leads included.
    pub fn value(&self, pair: &Pair, d: i32) -> f64 {
        self.row(pair).at(d)
    }

    /// A pair's values with the bounds of its unsettled leads, read once.
    pub(super) fn row(&self, pair: &Pair) -> Row<'_> {
        Row { lowest: pair.lowest(), highest: most(pair.o), stored: &self.values[pair.start..][..pair.leads()] }
    }
}

/// One pair's values: `stored` at the leads `lowest..=highest`.
pub(super) struct Row<'a> {
    lowest: i32,
    highest: i32,
    stored: &'a [f64],
}

impl Row<'_> {
    #[inline]
    pub(super) fn at(&self, d: i32) -> f64 {
        dice_tables_reader::yazy::duel::value_at(self.stored, self.lowest, self.highest, d)
    }
}

/// Solves every layer from both sheets full (layer 0) up to both sheets
/// `universe`, calling `each(n, layer)` as each is done (in order, each
/// once; only the last two are held). Every value is computed the same way
/// whatever the thread and the vector level, so the output does not depend
/// on either.
pub fn solve(universe: u16, rerolls: u8, each: impl FnMut(u32, &Layer)) {
    solve_on(universe, rerolls, Simd::detect(), each)
}

/// [`solve`] on the vector level `simd`.
fn solve_on(universe: u16, rerolls: u8, simd: Simd, mut each: impl FnMut(u32, &Layer)) {
    let rolls = multisets(5);
    let category_points: Vec<[u8; CATEGORIES.len()]> =
        rolls.iter().map(|d| std::array::from_fn(|c| points(d, c))).collect();
    // Both sheets full: the sign of the lead, only 0 unsettled.
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    each(0, &below);
    for n in 1..=2 * universe.count_ones() {
        below = Layer::solved(
            layer_pairs(n, universe),
            || Workspace::new(FIVE_DICE.keeps()),
            |ws, pair, out| solve_pair(pair, rerolls, &category_points, &below, simd, ws, out),
        );
        each(n, &below);
    }
}

/// Buffers one thread reuses from pair to pair.
pub(super) struct Workspace {
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    /// Per open category `c` of the mover: `1 - V(O, M - c, -x)` for the
    /// mover's lead after scoring, `x`, from the pair's lowest lead up.
    after: Vec<Vec<f64>>,
    /// Per roll, the open categories it scores points in (an index into
    /// `after`, and the points), rolls one after another, `scoring_ends`
    /// ending each: most open categories score 0 in most rolls, and those
    /// are all one lead, read once a block.
    scoring: Vec<(u8, u8)>,
    scoring_ends: Vec<usize>,
}

impl Workspace {
    pub(super) fn new(keeps: usize) -> Workspace {
        Workspace {
            values: vec![[0.0; W]; keeps],
            scratch: vec![[0.0; W]; keeps],
            after: Vec::new(),
            scoring: Vec::new(),
            scoring_ends: Vec::new(),
        }
    }

    /// The categories of `open` each roll scores points in.
    fn find_scoring(&mut self, open: &[usize], category_points: &[[u8; CATEGORIES.len()]]) {
        self.scoring.clear();
        self.scoring_ends.clear();
        for points in category_points {
            let scored = open.iter().enumerate().filter(|&(_, &c)| points[c] > 0);
            self.scoring.extend(scored.map(|(row, &c)| (row as u8, points[c])));
            self.scoring_ends.push(self.scoring.len());
        }
    }
}

/// `V(m, o, d)` of a pair at every unsettled lead, lowest first, into `out`
/// (one value a lead).
pub(super) fn solve_pair(
    pair: &Pair,
    rerolls: u8,
    category_points: &[[u8; CATEGORIES.len()]],
    below: &Layer,
    simd: Simd,
    ws: &mut Workspace,
    out: &mut [f64],
) {
    let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| pair.m >> c & 1 == 1).collect();
    fill_after(&mut ws.after, &open, pair, below);
    ws.find_scoring(&open, category_points);
    // Blocks of `W` leads, solved from the one holding lead 0 up until one
    // ends all but 1, then down from it until one begins all but 0.
    let leads = out.len();
    let blocks = leads.div_ceil(W);
    let start = (-pair.lowest() as usize / W).min(blocks - 1);
    let mut solve_block = |block: usize, out: &mut [f64]| -> [f64; W] {
        let values = simd.run(SolveBlock { first: block * W, rerolls, ws: &mut *ws });
        let lanes = &mut out[block * W..leads.min((block + 1) * W)];
        lanes.copy_from_slice(&values[..lanes.len()]);
        values
    };
    for block in start..blocks {
        if solve_block(block, out)[W - 1] >= 1.0 - NEGLIGIBLE {
            out[leads.min((block + 1) * W)..].fill(1.0);
            break;
        }
    }
    for block in (0..start).rev() {
        if solve_block(block, out)[0] <= NEGLIGIBLE {
            out[..block * W].fill(0.0);
            break;
        }
    }
}

/// How close to 1 (or 0) a value must be for the values above it (below
/// it) to be taken as 1 (0) unsolved. The true values never
/// decrease in the lead, so those are at least as close, and the error this
/// adds is at most `NEGLIGIBLE` a layer: 2.2e-9 over the whole game, where
/// the stored values' resolution is 1.2e-7. About a tenth of the middle
/// layers' leads are this close, far from any lead a game is likely to
/// reach.
pub const NEGLIGIBLE: f64 = 1e-10;

/// Per open category `c` of the mover (`open`), `1 - V(o, m - c, -x)` from
/// the layer below for the mover's lead after scoring, `x`, from the pair's
/// lowest lead up as far as a block's lanes plus the most one category
/// scores: what a block reads by index.
pub(super) fn fill_after(rows: &mut Vec<Vec<f64>>, open: &[usize], pair: &Pair, below: &Layer) {
    let lowest = pair.lowest();
    let reach = pair.leads().next_multiple_of(W) + MOST_ONE_SCORE;
    rows.resize_with(open.len(), Vec::new);
    for (row, &c) in rows.iter_mut().zip(open) {
        let m = pair.m & !(1 << c);
        let next = below.pair(pair.o, m).expect("the layer below holds every pair one category smaller");
        let next = below.row(next);
        row.clear();
        // The opponent moves next, with the lead d = -(lowest + x), from
        // -lowest down: settled for the opponent above its highest lead (1
        // - 1), then its stored values, then settled against it (1 - 0).
        let (from, to) = (-lowest, -lowest - reach as i32 + 1);
        let above = (from - next.highest).clamp(0, reach as i32) as usize;
        row.resize(above, 0.0);
        let (top, bottom) = (from.min(next.highest), to.max(next.lowest));
        if top >= bottom {
            let stored = &next.stored[(bottom - next.lowest) as usize..=(top - next.lowest) as usize];
            row.extend(stored.iter().rev().map(|v| 1.0 - v));
        }
        row.resize(reach, 1.0);
    }
}

/// The turn of `W` leads of a pair, from `first` up, as a kernel compiled
/// for each vector level (the same operations on each lane, in the same
/// order, so the same results bit for bit).
struct SolveBlock<'a> {
    first: usize,
    rerolls: u8,
    ws: &'a mut Workspace,
}

impl Kernel for SolveBlock<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let SolveBlock { first, rerolls, ws } = self;
        let graph = &*FIVE_DICE;
        let partial = graph.partial;
        // The best of scoring 0 (the same lanes whatever the roll) and then
        // of each category the roll scores points in: the maximum does not
        // depend on the order it is taken in, so the values are those of a
        // pass over every open category.
        let mut scoring_nothing = [0.0f64; W];
        for row in &ws.after {
            fold_max(&mut scoring_nothing, &row[first..][..W]);
        }
        let mut from = 0;
        for (roll, &end) in ws.scoring_ends.iter().enumerate() {
            let mut best = scoring_nothing;
            for &(row, points) in &ws.scoring[from..end] {
                fold_max(&mut best, &ws.after[usize::from(row)][first + usize::from(points)..][..W]);
            }
            ws.values[partial + roll] = best;
            from = end;
        }
        graph.turn_start_lanes(&mut ws.values, &mut ws.scratch, usize::from(rerolls), |sum| sum * (1.0 / 6.0))
    }
}

/// `best` lane by lane the larger of itself and `lanes`.
#[inline(always)]
fn fold_max(best: &mut [f64; W], lanes: &[f64]) {
    let lanes: &[f64; W] = lanes[..W].try_into().expect("W lanes");
    for (b, &v) in best.iter_mut().zip(lanes) {
        *b = if v > *b { v } else { *b };
    }
}

/// Solves the `yazy-duel` table under `rules` (yazy's rerolls, and the
/// categories both sheets use: all 11 but in a reduced game for tests).
/// The second player's turn starts are stored, the layers with an odd
/// count of open categories, in the order they are solved (which is the
/// layout's): see FORMAT.md.
pub fn solve_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> crate::solved::Solved {
    let (rerolls, universe) = (rules.yazy.rerolls, rules.yazy_duel_universe);
    let layout = Arc::new(Layout::new(universe));
    let values = layout.values() as usize;
    let mut planes = crate::lead_chances::ValuePlanes::new(values);
    let (mut at, mut start_row) = (0usize, Vec::new());
    let top = 2 * universe.count_ones();
    // Layer n pairs a sheet with ceil(n/2) categories open and one with floor(n/2).
    let boxes = universe.count_ones() as usize;
    let pairs = |n: usize| crate::progress::sheets(boxes, n.div_ceil(2)) * crate::progress::sheets(boxes, n / 2);
    let layers = crate::progress::Layers::new((1..=top as usize).map(pairs));
    solve(universe, rerolls, |n, layer| {
        layers.report(n as usize, progress);
        if n == top {
            let pair = layer.pair(universe, universe).expect("the start");
            start_row = (-most(universe)..=most(universe)).map(|d| layer.value(pair, d)).collect();
        }
        if n % 2 == 0 {
            return;
        }
        for pair in &layer.pairs {
            assert_eq!(layout.start(pair.m, pair.o) as usize, at + pair.start, "the layer's order is the layout's");
        }
        let starts: Vec<usize> = layer.pairs.iter().map(|p| p.start).collect();
        planes.push(&layer.values, &starts);
        at += layer.values.len();
    });
    let params = YazyDuelParams { rules: rules.yazy, layout };
    let section = planes.section(&VALUES, &params);
    let figures = crate::lead_chances::start_figures(&start_row, most(universe));
    crate::solved::Solved { figures, ..crate::solved::Solved::new::<YazyDuel>(&params, values as u64, vec![section]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_hold_every_pair_a_game_reaches() {
        let all = (1u16 << CATEGORIES.len()) - 1;
        let pairs: usize = (0..=22).map(|n| layer_pairs(n, all).len()).sum();
        // C(22, 11) pairs of equal sizes and C(22, 10) with the mover one ahead.
        assert_eq!(pairs, 705_432 + 646_646);
        let leads: usize = (0..=22).flat_map(|n| layer_pairs(n, all)).map(|p| p.leads()).sum();
        assert_eq!(leads, 379_933_918);
        assert_eq!(layer_pairs(22, all)[0].leads(), 561);
    }

    #[test]
    fn every_machine_solves_alike() {
        // ones, threes, full-house and yazy on both sheets.
        let universe = 1 | 1 << 2 | 1 << 8 | 1 << 10;
        let solved = |simd| {
            let mut values = Vec::new();
            solve_on(universe, 2, simd, |_, layer| values.extend_from_slice(&layer.values));
            values
        };
        let portable = solved(Simd::PORTABLE);
        for level in Simd::available() {
            let other = solved(level);
            assert!(portable.iter().zip(&other).all(|(a, b)| a.to_bits() == b.to_bits()), "{level:?}");
        }
    }

    #[test]
    fn one_category_each_is_exact_by_hand() {
        // Only yazy open on both sheets, the lead 0: the first player wins
        // with a yazy the second misses, and ties when both or neither roll
        // one. Each player's chance of a yazy in a turn, q, comes from the
        // solitaire table's own turn: P*(yazy, 50).
        let universe = 1 << 10;
        let mut layers = Vec::new();
        solve(universe, 2, |_, layer| layers.push(layer.clone()));
        let q = super::super::target::solve_target(2).chance(1 << 10, 50);
        let top = &layers[2];
        let pair = top.pair(universe, universe).unwrap();
        let v = top.value(pair, 0);
        let exact = q * (1.0 - q) + 0.5 * (q * q + (1.0 - q) * (1.0 - q));
        assert!((v - exact).abs() < 1e-12, "{v} vs {exact}");
        assert!((v - 0.5).abs() < 1e-12, "symmetric when only yazy is open: {v}");
    }
}
