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

use rayon::prelude::*;

use super::duel::{fill_after, layer_pairs, solve, solve_pair, Layer, Pair, Workspace, W};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{multisets, FIVE_DICE};
use crate::yazy::points;
use dice_tables_reader::five_dice::{partial_keeps_in_tie_order, ROLLS};
use dice_tables_reader::yazy::{Action, Mask, Rules, Yazy, CATEGORIES, MASKS};
use dice_tables_reader::yazy_duel::DUEL_TIE;
use dice_tables_reader::Game;

/// How player A plays against the max-expected-score player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// The two-player table's decisions (as its lookups give them).
    Table,
    /// The best response: the most any strategy wins against B.
    Best,
}

/// A stored decision at or above this is a partial keep (its graded rank
/// added); below, a category's mask bit.
const KEEP: u16 = 100;

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
        let sections = crate::yazy::solve(rerolls, |_, _| {}).into_sections();
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

    #[inline(always)]
    fn decision(&self, mask: u16, roll: usize, rerolls: usize) -> u16 {
        self.decisions[(usize::from(mask) * ROLLS + roll) * (usize::from(self.rerolls) + 1) + rerolls]
    }
}

/// A's chance of winning (ties half) against the max-expected-score player
/// over a whole game within `universe` (both sheets), A moving first or
/// second.
pub fn against_expected(universe: u16, rerolls: u8, way: Way, a_first: bool, expected: &Expected) -> f64 {
    assert_eq!(expected.rerolls, rerolls, "the expected player's rules are the game's");
    let simd = Simd::detect();
    let rolls = multisets(5);
    assert!(rolls.iter().enumerate().all(|(i, d)| d.rank() == i), "rolls in rank order");
    let category_points: Vec<[u8; CATEGORIES.len()]> =
        rolls.iter().map(|d| std::array::from_fn(|c| points(d, c))).collect();
    let tie_keeps = partial_keeps_in_tie_order();
    let turn = Turn { rerolls, category_points: &category_points, tie_keeps: &tie_keeps, expected, simd };
    let step = |n: u32, below: &Layer, duel: Option<&Layer>| -> Layer {
        let pairs = layer_pairs(n, universe);
        let a_moves = n.is_multiple_of(2) == a_first;
        Layer::solved(pairs, Scratch::new, |s, pair, out| match (a_moves, duel) {
            (false, _) => out.copy_from_slice(&turn.expected(pair, below, s)),
            (true, Some(duel)) => out.copy_from_slice(&turn.table(pair, below, duel, s)),
            (true, None) => solve_pair(pair, rerolls, &category_points, below, simd, &mut s.duel, out),
        })
    };
    let mut below = Layer::new(vec![Pair { m: 0, o: 0, start: 0 }], vec![0.5]);
    match way {
        Way::Best => {
            for n in 1..=2 * universe.count_ones() {
                below = step(n, &below, None);
            }
        }
        Way::Table => {
            let mut duel_below: Option<Layer> = None;
            solve(universe, rerolls, |n, duel| {
                if let Some(duel_below) = &duel_below {
                    below = step(n, &below, Some(duel_below));
                }
                duel_below = Some(duel.clone());
            });
        }
    }
    let start = below.pair(universe, universe).expect("the start");
    // The last layer's mover is the first player.
    let first = below.value(start, 0);
    if a_first {
        first
    } else {
        1.0 - first
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
    /// The mover's chance at every unsettled lead of a pair where B moves.
    fn expected(&self, pair: &Pair, below: &Layer, s: &mut Scratch) -> Vec<f64> {
        let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| pair.m >> c & 1 == 1).collect();
        fill_after(&mut s.after, &open, pair, below);
        blocks(pair, s, |first, s| self.simd.run(ExpectedBlock { turn: self, mask: pair.m, open: &open, first, s }))
    }

    /// The mover's chance at every unsettled lead of a pair where A moves
    /// with the two-player table's decisions (`duel`: its layer below).
    fn table(&self, pair: &Pair, below: &Layer, duel: &Layer, s: &mut Scratch) -> Vec<f64> {
        let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| pair.m >> c & 1 == 1).collect();
        fill_after(&mut s.after, &open, pair, below);
        fill_after(&mut s.after_v, &open, pair, duel);
        blocks(pair, s, |first, s| self.simd.run(TableBlock { turn: self, open: &open, first, s }))
    }
}

/// A pair's values at every unsettled lead, `W` leads a block from `first`.
fn blocks(pair: &Pair, s: &mut Scratch, mut block: impl FnMut(usize, &mut Scratch) -> [f64; W]) -> Vec<f64> {
    let mut out = Vec::with_capacity(pair.leads().next_multiple_of(W));
    for first in (0..pair.leads()).step_by(W) {
        out.extend(block(first, s));
    }
    out.truncate(pair.leads());
    out
}

/// `W` lanes of a row after scoring `points` (a lane's lead plus the points).
#[inline(always)]
fn lanes(row: &[f64], first: usize, points: u8) -> [f64; W] {
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
        let row = |c: u16| open.iter().position(|&o| o == usize::from(c)).expect("an open category");
        for level in 0..=usize::from(turn.rerolls) {
            if level > 0 {
                graph.keep_values_lanes(&mut s.y, |sum| sum / 6.0);
            }
            for (roll, points) in turn.category_points.iter().enumerate() {
                let d = turn.expected.decision(mask, roll, level);
                s.y[partial + roll] = if d >= KEEP {
                    s.y[usize::from(d - KEEP)]
                } else {
                    lanes(&s.after[row(d)], first, points[usize::from(d)])
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
                let category = |i: usize| {
                    let c = open[i];
                    (lanes(&s.after_v[i], first, points[c]), lanes(&s.after[i], first, points[c]))
                };
                let best = if level == 0 {
                    let mut best = [f64::NEG_INFINITY; W];
                    for i in 0..open.len() {
                        let (v, _) = category(i);
                        for l in 0..W {
                            best[l] = if v[l] > best[l] { v[l] } else { best[l] };
                        }
                    }
                    best
                } else {
                    s.v[partial + roll]
                };
                // The first option in the tie order within the tie of the best.
                let keeps: &[u8] = if level > 0 { &turn.tie_keeps[roll] } else { &[] };
                let (mut chosen, mut done) = ([0.0; W], [false; W]);
                for i in 0..open.len() + keeps.len() {
                    let (v, y) = match i.checked_sub(open.len()) {
                        None => category(i),
                        Some(k) => (s.v[usize::from(keeps[k])], s.y[usize::from(keeps[k])]),
                    };
                    for l in 0..W {
                        let take = !done[l] && v[l] >= best[l] - DUEL_TIE;
                        chosen[l] = if take { y[l] } else { chosen[l] };
                        done[l] |= take;
                    }
                    if done.iter().all(|&d| d) {
                        break;
                    }
                }
                s.v[partial + roll] = best;
                s.y[partial + roll] = chosen;
            }
        }
        graph.fresh_roll_value_lanes(&s.y[partial..])
    }
}
