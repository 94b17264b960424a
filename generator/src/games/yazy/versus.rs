//! Two-player yazy between fixed ways of playing, evaluated exactly: the
//! chance of winning (ties half) of a player A against the
//! max-expected-score player B (yazy's own table: its lookups' decisions),
//! A playing the two-player table's decisions or the best response to B.
//!
//! The same layers as the two-player solve (see `duel`), each pair's values
//! the mover's chance at every unsettled lead, the mover's way of playing
//! given by the layer: A moves in the even layers when A moves first, in
//! the odd ones when A moves second. B's turn follows B's decision at every
//! roll (a category, or a keep rerolled now); the table's player decides
//! as the two-player lookups do, from the two-player values (the option
//! first in the tie order within [`DUEL_TIE`] of the best), and its chance
//! is that of the option decided; the best response is the two-player
//! solve with B's turns in place of an opponent's best.

use super::duel::{fill_after, layer_pairs, solve, solve_pair, Layer, Pair, Workspace, W};
use super::expected::{category_points, remaining_points, Expected, KEEP};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::FIVE_DICE;
use dice_tables_reader::five_dice::partial_keeps_in_tie_order;
use dice_tables_reader::yazy::duel::DUEL_TIE;
use dice_tables_reader::yazy::CATEGORIES;

/// How player A plays against the max-expected-score player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// The two-player table's decisions (as its lookups give them).
    Table,
    /// The best response: the most any strategy wins against B.
    Best,
    /// The opponent-aware advisor's decisions (see [`Advisor`]).
    Advisor,
}

/// How the player to move in a layer decides.
#[derive(Clone, Copy)]
enum Decider<'l> {
    /// As the max-expected-score player.
    Expected,
    /// By values of the states after scoring: the first option in the tie
    /// order within [`DUEL_TIE`] of the best, its values taken from this
    /// layer (the one below) as the two-player solve takes them.
    Values(&'l Layer),
    /// The best response to the other player's way.
    Best,
}

/// A's chance of winning (ties half) against the max-expected-score player
/// over a whole game within `universe` (both sheets), A moving first or
/// second.
pub fn against_expected(universe: u16, rerolls: u8, way: Way, a_first: bool, expected: &Expected) -> f64 {
    let turn_parts = TurnParts::new(rerolls);
    let turn = turn_parts.turn(expected);
    let a_moves = |n: u32| n.is_multiple_of(2) == a_first;
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    match way {
        Way::Best => {
            for n in 1..=2 * universe.count_ones() {
                let decider = if a_moves(n) { Decider::Best } else { Decider::Expected };
                below = turn.step(n, universe, &below, decider);
            }
        }
        Way::Table => {
            let mut duel_below: Option<Layer> = None;
            solve(universe, rerolls, |n, duel| {
                if let Some(duel_below) = &duel_below {
                    let decider = if a_moves(n) { Decider::Values(duel_below) } else { Decider::Expected };
                    below = turn.step(n, universe, &below, decider);
                }
                duel_below = Some(duel.clone());
            });
        }
        Way::Advisor => return advisor_against_expected(universe, rerolls, a_first, expected, |_, _| {}),
    }
    first_seat(&below, universe, a_first)
}

/// [`against_expected`] with the advisor as A, calling `each(n, layer)`
/// with every layer `n` whose mover is A: A's exact chance at each of its
/// turn starts (the pair's mover A, the lead A's), to set beside the
/// advisor's own estimate there.
pub fn advisor_against_expected(
    universe: u16,
    rerolls: u8,
    a_first: bool,
    expected: &Expected,
    mut each: impl FnMut(u32, &Layer),
) -> f64 {
    let turn_parts = TurnParts::new(rerolls);
    let turn = turn_parts.turn(expected);
    let a_moves = |n: u32| n.is_multiple_of(2) == a_first;
    let advisor = Advisor::new(universe, expected);
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    for n in 1..=2 * universe.count_ones() {
        let advised = advisor.layer(n - 1);
        let decider = if a_moves(n) { Decider::Values(&advised) } else { Decider::Expected };
        below = turn.step(n, universe, &below, decider);
        if a_moves(n) {
            each(n, &below);
        }
    }
    first_seat(&below, universe, a_first)
}

/// A's chance of winning (ties half) over a whole game within `universe`
/// when A plays the advisor's decisions and B the two-player table's (both
/// as their lookups decide), A moving first or second.
pub fn advisor_against_table(universe: u16, rerolls: u8, a_first: bool, expected: &Expected) -> f64 {
    let turn_parts = TurnParts::new(rerolls);
    let turn = turn_parts.turn(expected);
    let advisor = Advisor::new(universe, expected);
    let a_moves = |n: u32| n.is_multiple_of(2) == a_first;
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    let mut duel_below: Option<Layer> = None;
    solve(universe, rerolls, |n, duel| {
        if let Some(duel_below) = &duel_below {
            let advised = advisor.layer(n - 1);
            let decider = if a_moves(n) { Decider::Values(&advised) } else { Decider::Values(duel_below) };
            below = turn.step(n, universe, &below, decider);
        }
        duel_below = Some(duel.clone());
    });
    first_seat(&below, universe, a_first)
}

/// The first player's chance of winning (ties half) when both players play
/// the advisor's decisions.
pub fn advisor_against_itself(universe: u16, rerolls: u8, expected: &Expected) -> f64 {
    let turn_parts = TurnParts::new(rerolls);
    let turn = turn_parts.turn(expected);
    let advisor = Advisor::new(universe, expected);
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    for n in 1..=2 * universe.count_ones() {
        let advised = advisor.layer(n - 1);
        below = turn.step(n, universe, &below, Decider::Values(&advised));
    }
    first_seat(&below, universe, true)
}

/// Rolls' points and keeps' tie order, which every turn reads.
struct TurnParts {
    rerolls: u8,
    category_points: Vec<[u8; CATEGORIES.len()]>,
    tie_keeps: Vec<arrayvec::ArrayVec<u8, 31>>,
}

impl TurnParts {
    fn new(rerolls: u8) -> TurnParts {
        TurnParts { rerolls, category_points: category_points(), tie_keeps: partial_keeps_in_tie_order() }
    }

    fn turn<'a>(&'a self, expected: &'a Expected) -> Turn<'a> {
        assert_eq!(expected.rerolls(), self.rerolls, "the expected player's rules are the game's");
        Turn {
            rerolls: self.rerolls,
            category_points: &self.category_points,
            tie_keeps: &self.tie_keeps,
            expected,
            simd: Simd::detect(),
        }
    }
}

/// The chance of the player in the first seat from the last layer, whose
/// mover is the first player, for A in the first seat or the second.
fn first_seat(below: &Layer, universe: u16, a_first: bool) -> f64 {
    let start = below.pair(universe, universe).expect("the start");
    // The last layer's mover is the first player.
    let first = below.value(start, 0);
    if a_first {
        first
    } else {
        1.0 - first
    }
}

/// The opponent-aware advisor for yazy: what it would be for Yatzy and
/// Yahtzee, where no exact two-player solve fits, measured here against
/// the exact one. After scoring, with `M'` its categories still open and
/// the lead `D`, the opponent to move with the categories `O`, the advisor
/// takes its chance of winning to be
///
/// `W(M', O, D) = sum over k of R(O, k) x (P*(M', k - D + 1) + P*(M', k - D)) / 2`
///
/// where `R(O, k)` is the chance that the opponent scores `k` more points
/// playing for the most points, and `P*(M', n)` the best chance of scoring
/// at least `n` more (the target table): the opponent as the
/// max-expected-score player, its own play as if it knew the opponent's
/// final total. Each turn is then solved exactly for the highest `W`.
/// With the opponent done and one category left it is the exact solve.
pub struct Advisor {
    universe: u16,
    /// Per mask: `R(mask, k)` for `k = 0..=most(mask)`.
    remaining: Vec<Vec<f64>>,
    target: super::target::TargetSolution,
}

impl Advisor {
    /// The advisor for a game within `universe`, its opponent model played
    /// by `expected`.
    pub fn new(universe: u16, expected: &Expected) -> Advisor {
        let remaining = remaining_points(expected);
        Advisor { universe, remaining, target: super::target::solve_target(expected.rerolls()) }
    }

    /// `R(mask, k)`: the chance that a max-expected-score player with the
    /// categories `mask` open scores `k` more points.
    pub fn remaining(&self, mask: u16) -> &[f64] {
        &self.remaining[usize::from(mask)]
    }

    /// The advisor's values in the shape of the two-player layer `n`, as
    /// the player who just scored reads them: at the pair (mover `o`,
    /// opponent `m`) and the mover's lead `e`, `1 - W(m, o, -e)`.
    fn layer(&self, n: u32) -> Layer {
        Layer::solved(layer_pairs(n, self.universe), Vec::new, |targets: &mut Vec<f64>, pair, out| {
            let r = self.remaining(pair.m);
            // P*(o, n + 1) + P*(o, n) for every n a lead and a k reach,
            // from the lowest lead up: each lead's sum slides along it.
            let lowest = i64::from(pair.lowest());
            targets.clear();
            targets.extend((0..(out.len() + r.len()) as i64).map(|j| {
                let n = lowest + j;
                self.target.chance(usize::from(pair.o), n + 1) + self.target.chance(usize::from(pair.o), n)
            }));
            for (i, v) in out.iter_mut().enumerate() {
                let w: f64 = r.iter().zip(&targets[i..]).map(|(&p, &t)| p * t).sum();
                *v = 1.0 - w / 2.0;
            }
        })
    }
}

/// What every pair's turn shares.
struct Turn<'a> {
    rerolls: u8,
    category_points: &'a [[u8; CATEGORIES.len()]],
    tie_keeps: &'a [arrayvec::ArrayVec<u8, 31>],
    expected: &'a Expected,
    simd: Simd,
}

/// Buffers one thread reuses from pair to pair.
struct Scratch {
    duel: Workspace,
    after: Vec<Vec<f64>>,
    after_v: Vec<Vec<f64>>,
    y: Vec<[f64; W]>,
    v: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
}

impl Scratch {
    fn new() -> Scratch {
        let keeps = FIVE_DICE.keeps();
        Scratch {
            duel: Workspace::new(keeps),
            after: Vec::new(),
            after_v: Vec::new(),
            y: vec![[0.0; W]; keeps],
            v: vec![[0.0; W]; keeps],
            scratch: vec![[0.0; W]; FIVE_DICE.partial],
        }
    }
}

impl Turn<'_> {
    /// Layer `n` of the evaluation from the layer below, its mover deciding
    /// as `decider` says.
    fn step(&self, n: u32, universe: u16, below: &Layer, decider: Decider) -> Layer {
        Layer::solved(layer_pairs(n, universe), Scratch::new, |s, pair, out| match decider {
            Decider::Expected => self.expected(pair, below, s, out),
            Decider::Values(values) => self.table(pair, below, values, s, out),
            Decider::Best => solve_pair(pair, self.rerolls, self.category_points, below, self.simd, &mut s.duel, out),
        })
    }

    /// The mover's chance at every unsettled lead of a pair where B moves.
    fn expected(&self, pair: &Pair, below: &Layer, s: &mut Scratch, out: &mut [f64]) {
        let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| pair.m >> c & 1 == 1).collect();
        fill_after(&mut s.after, &open, pair, below);
        blocks(s, out, |first, s| self.simd.run(ExpectedBlock { turn: self, mask: pair.m, open: &open, first, s }));
    }

    /// The mover's chance at every unsettled lead of a pair where A moves
    /// with the two-player table's decisions (`duel`: its layer below).
    fn table(&self, pair: &Pair, below: &Layer, duel: &Layer, s: &mut Scratch, out: &mut [f64]) {
        let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| pair.m >> c & 1 == 1).collect();
        fill_after(&mut s.after, &open, pair, below);
        fill_after(&mut s.after_v, &open, pair, duel);
        blocks(s, out, |first, s| self.simd.run(TableBlock { turn: self, open: &open, first, s }));
    }
}

/// A pair's values at every unsettled lead into `out`, `W` leads a block.
fn blocks(s: &mut Scratch, out: &mut [f64], mut block: impl FnMut(usize, &mut Scratch) -> [f64; W]) {
    for (k, lanes) in out.chunks_mut(W).enumerate() {
        lanes.copy_from_slice(&block(k * W, s)[..lanes.len()]);
    }
}

/// `W` lanes of a row after scoring `points` (a lane's lead plus the points).
#[inline(always)]
fn lanes_at(row: &[f64], first: usize, points: u8) -> &[f64; W] {
    row[first + usize::from(points)..][..W].try_into().expect("W lanes")
}

/// B's turn for `W` leads.
struct ExpectedBlock<'a> {
    turn: &'a Turn<'a>,
    mask: u16,
    open: &'a [usize],
    first: usize,
    s: &'a mut Scratch,
}

impl Kernel for ExpectedBlock<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let ExpectedBlock { turn, mask, open, first, s } = self;
        let graph = &*FIVE_DICE;
        let partial = graph.partial;
        // Each open category's row in `after`.
        let mut row = [0; CATEGORIES.len()];
        for (i, &c) in open.iter().enumerate() {
            row[c] = i;
        }
        for level in 0..=usize::from(turn.rerolls) {
            if level > 0 {
                graph.keep_values_lanes(&mut s.y, |sum| sum / 6.0);
            }
            for (roll, points) in turn.category_points.iter().enumerate() {
                let d = turn.expected.decision(mask, roll, level);
                s.y[partial + roll] = if d >= KEEP {
                    s.y[usize::from(d - KEEP)]
                } else {
                    *lanes_at(&s.after[row[usize::from(d)]], first, points[usize::from(d)])
                };
            }
        }
        graph.fresh_roll_value_lanes(&s.y[partial..])
    }
}

/// A's turn for `W` leads, deciding as the two-player table's lookups do.
struct TableBlock<'a> {
    turn: &'a Turn<'a>,
    open: &'a [usize],
    first: usize,
    s: &'a mut Scratch,
}

impl Kernel for TableBlock<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let TableBlock { turn, open, first, s } = self;
        let graph = &*FIVE_DICE;
        let partial = graph.partial;
        for level in 0..=usize::from(turn.rerolls) {
            if level > 0 {
                graph.keep_values_lanes(&mut s.v, |sum| sum / 6.0);
                graph.keep_values_lanes(&mut s.y, |sum| sum / 6.0);
                // Each roll's best two-player value: the best of keeping
                // all five (its best a reroll fewer, which is never above
                // the best of its categories and keeps now) and each keep.
                graph.best_values_lanes(&mut s.v, &mut s.scratch);
            }
            for (roll, points) in turn.category_points.iter().enumerate() {
                let best = if level == 0 {
                    let mut best = [f64::NEG_INFINITY; W];
                    for (i, &c) in open.iter().enumerate() {
                        let v = lanes_at(&s.after_v[i], first, points[c]);
                        for l in 0..W {
                            best[l] = if v[l] > best[l] { v[l] } else { best[l] };
                        }
                    }
                    best
                } else {
                    s.v[partial + roll]
                };
                // The first option in the tie order within the tie of the
                // best: every option within it taken in turn from the last,
                // so that the first is taken last.
                let floor: [f64; W] = std::array::from_fn(|l| best[l] - DUEL_TIE);
                let mut chosen = [0.0f64; W];
                let mut pick = |v: &[f64; W], y: &[f64; W]| {
                    for l in 0..W {
                        // A select on the bits, which compiles to a blend.
                        let take = u64::from(v[l] >= floor[l]).wrapping_neg();
                        chosen[l] = f64::from_bits(y[l].to_bits() & take | chosen[l].to_bits() & !take);
                    }
                };
                if level > 0 {
                    for &k in turn.tie_keeps[roll].iter().rev() {
                        pick(&s.v[usize::from(k)], &s.y[usize::from(k)]);
                    }
                }
                for (i, &c) in open.iter().enumerate().rev() {
                    pick(lanes_at(&s.after_v[i], first, points[c]), lanes_at(&s.after[i], first, points[c]));
                }
                s.v[partial + roll] = best;
                s.y[partial + roll] = chosen;
            }
        }
        graph.fresh_roll_value_lanes(&s.y[partial..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One category on each sheet: the second player's turn is the last of
    /// the game and the advisor's values there are exact, so against the
    /// two-player table's player the advisor moving second does as well as
    /// the table does against itself.
    #[test]
    fn the_last_turn_is_played_exactly() {
        let expected = Expected::new(2);
        for c in [0u16, 8, 10] {
            let universe = 1 << c;
            let mut exact = 0.0;
            solve(universe, 2, |n, layer| {
                if n == 2 {
                    exact = layer.value(layer.pair(universe, universe).unwrap(), 0);
                }
            });
            // The table's player moves first, the advisor second.
            let advisor_second = advisor_against_table(universe, 2, false, &expected);
            assert!((advisor_second - (1.0 - exact)).abs() < 1e-12, "{c}: {advisor_second} vs {}", 1.0 - exact);
        }
    }
}
