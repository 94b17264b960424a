//! One engine for the Yahtzee family: the expected score still to come,
//! under optimal play, of every turn start of any rule set
//! ([`dice_tables_reader::rules::RuleSet`]).
//!
//! A turn start is the open boxes, the upper total (capped at the bonus's
//! threshold: past it every total is one state) and which of the boxes
//! whose points matter later hold points (the extra-Yahtzee box, a box
//! another needs). Its value is the average over the first roll of the best
//! play of the turn: keep any dice and reroll the rest while rerolls are
//! left, then score an open box the rules allow (in a fixed order, the next
//! one), plus the value of the turn start that leads to. The upper bonus
//! counts at the end, as the value of a full sheet whose total reached it.
//! Boxes are solved fewest open first, each layer in parallel.

use crate::cpu::{Kernel, Lanes, Simd, W};
use crate::dice::{keep_graph, multisets, KeepGraph};
use dice_tables_reader::five_dice::SIXTH;
use dice_tables_reader::rule_sheet::{flag_index, held_of_flag, Shape};
use dice_tables_reader::rules::{Order, RuleSet, SheetState, FACES};
use rayon::prelude::*;

/// Every turn start's value of one rule set.
pub struct Solution {
    /// The rules solved.
    pub rules: RuleSet,
    layout: Layout,
    /// `values[layout.index(..)]`.
    values: Vec<f64>,
}

/// Where a rule set's turn starts are, as the engine solves them: by
/// mask's slot (the masks fewest open first), then flags, then upper total.
pub(crate) struct Layout {
    /// The masks in the order they are solved: fewest open first.
    masks: Vec<u32>,
    /// Each mask's slot (`u32::MAX`: not a turn start of the game).
    slot: Vec<u32>,
    /// Upper totals a state tells apart: 0 to the bonus's threshold (1
    /// without a bonus).
    totals: usize,
    /// The boxes whose holding points is part of the state, and how many
    /// ways they can: `2^tracked.len()`.
    tracked: Vec<usize>,
}

impl Layout {
    fn of(rules: &RuleSet) -> Layout {
        let boxes = rules.boxes.len();
        let all = (1u32 << boxes) - 1;
        let masks: Vec<u32> = match rules.order {
            Order::Free => {
                let mut m: Vec<u32> = (0..=all).collect();
                m.sort_by_key(|m| m.count_ones());
                m
            }
            // Sheet order: the boxes from some box on, the last box first.
            Order::Fixed => (0..=boxes).rev().map(|first| all & !((1u32 << first) - 1)).collect(),
        };
        let mut slot = vec![u32::MAX; 1 << boxes];
        for (i, &m) in masks.iter().enumerate() {
            slot[m as usize] = i as u32;
        }
        let totals = rules.upper_bonus.map_or(1, |b| usize::from(b.at) + 1);
        Layout { masks, slot, totals, tracked: rules.tracked_boxes() }
    }

    fn flags(&self) -> usize {
        1 << self.tracked.len()
    }

    /// Turn starts a mask has: every flag and upper total.
    fn block(&self) -> usize {
        self.flags() * self.totals
    }

    /// The turn start (`mask`, `upper` capped, the tracked boxes of `held`)'s
    /// place; `None` for a mask the game never reaches.
    fn index(&self, mask: u32, upper: usize, held: u32) -> Option<usize> {
        let slot = *self.slot.get(mask as usize)?;
        if slot == u32::MAX {
            return None;
        }
        let flag = flag_index(&self.tracked, held);
        Some((slot as usize * self.flags() + flag) * self.totals + upper.min(self.totals - 1))
    }

    /// Each sheet's turn starts (`block()` of them from each start) in the
    /// order a table's file stores them ([`Shape::masks`]).
    fn file_blocks(&self, shape: &Shape) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let block = self.block();
        shape.masks().into_iter().map(move |mask| {
            let at = self.index(mask, 0, 0).expect("a turn start of the game");
            at..at + block
        })
    }

    /// The masks' runs with as many boxes open, fewest first, from one box open.
    fn layers(&self) -> Vec<std::ops::Range<usize>> {
        let mut layers = Vec::new();
        let mut start = 1;
        while start < self.masks.len() {
            let open = self.masks[start].count_ones();
            let end = start + self.masks[start..].iter().take_while(|m| m.count_ones() == open).count();
            layers.push(start..end);
            start = end;
        }
        layers
    }
}

/// What the engine does not solve yet, said in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotSolved(pub String);

impl Solution {
    /// The value of a turn start: `mask` the open boxes, `upper` the upper
    /// total (capped), `held` the boxes holding points (mask bits; only the
    /// tracked ones count). `None` for a mask the game never reaches (in a
    /// fixed order, one that is not the boxes from some box on).
    pub fn turn_start(&self, mask: u32, upper: u16, held: u32) -> Option<f64> {
        Some(self.values[self.layout.index(mask, usize::from(upper), held)?])
    }

    /// The value of the game's start: every box open, nothing scored.
    pub fn start(&self) -> f64 {
        let all = (1u32 << self.rules.boxes.len()) - 1;
        self.turn_start(all, 0, 0).expect("the start is a turn start")
    }
}

/// One way to score a roll, as the solve needs it.
#[derive(Clone, Copy)]
struct Move {
    /// Points now: the box's and any extra bonus.
    points: f64,
    /// The first-roll bonus, added when the box scores points with the
    /// turn's first roll.
    first_roll: f64,
    /// Where the values of the turn start it leads to begin (its upper total 0).
    row: u32,
    /// Points added to the upper total.
    upper: u16,
}

/// Every roll's moves from one (mask, flag) row: roll `r`'s are
/// `moves[ends[r - 1]..ends[r]]`.
struct RollMoves {
    moves: Vec<Move>,
    ends: Vec<u32>,
}

/// Solves every turn start of `rules` (checked), or says what the engine
/// does not solve yet.
pub fn solve(rules: &RuleSet) -> Result<Solution, NotSolved> {
    solve_on(rules, crate::dice::simd())
}

/// [`solve`] with `simd`'s vector instructions (every level gives the same
/// values, bit for bit).
pub fn solve_on(rules: &RuleSet, simd: Simd) -> Result<Solution, NotSolved> {
    check_solvable(rules)?;
    let layout = Layout::of(rules);
    let (totals, block) = (layout.totals, layout.block());
    let values = vec![0.0; layout.masks.len() * block];
    let mut solution = Solution { rules: rules.clone(), layout, values };
    // No box open: the upper bonus, where the total reached it, is all that is still to come.
    if let Some(bonus) = rules.upper_bonus {
        for held in 0..solution.layout.flags() {
            solution.values[held * totals + usize::from(bonus.at)] = f64::from(bonus.points);
        }
    }
    let graph = keep_graph(usize::from(rules.dice));
    let rolls = Rolls::of(rules);
    for layer in solution.layout.layers() {
        // A few masks a task: with few upper totals (none without a bonus)
        // their turn starts still fill the vector lanes.
        let solved: Vec<Vec<f64>> = solution.layout.masks[layer.clone()]
            .par_chunks(W)
            .map_init(
                || Buffers::new(graph),
                |buffers, chunk| solve_masks(&solution, graph, &rolls, chunk, simd, buffers),
            )
            .collect();
        for (i, values) in solved.into_iter().enumerate() {
            let at = (layer.start + i * W) * block;
            solution.values[at..at + values.len()].copy_from_slice(&values);
        }
    }
    Ok(solution)
}

/// Every turn start of `masks`: `flags * totals` values each, in order.
fn solve_masks(
    s: &Solution,
    graph: &KeepGraph,
    rolls: &Rolls,
    masks: &[u32],
    simd: Simd,
    buffers: &mut Buffers,
) -> Vec<f64> {
    let (flags, totals) = (s.layout.flags(), s.layout.totals);
    let mut out = vec![0.0; masks.len() * s.layout.block()];
    // Each (mask, flag) row's moves with where its values go and the
    // lowest total worth solving; the turn starts to solve, as (row, total).
    let mut rows: Vec<(RollMoves, usize, usize)> = Vec::new();
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (i, &mask) in masks.iter().enumerate() {
        let same_below = same_below(&s.rules, &s.layout, mask);
        for flag in 0..flags {
            starts.extend((same_below..totals).map(|upper| (rows.len(), upper)));
            rows.push((roll_moves(&s.rules, &s.layout, rolls, mask, flag), (i * flags + flag) * totals, same_below));
        }
    }
    for lanes in starts.chunks(W) {
        let values = simd.run(TurnLanes { s, graph, rows: &rows, lanes, b: buffers });
        for (&(row, upper), v) in lanes.iter().zip(values) {
            out[rows[row].1 + upper] = v;
        }
    }
    for &(_, at, same_below) in &rows {
        let flat = out[at + same_below];
        out[at..at + same_below].fill(flat);
    }
    out
}

/// The upper total below which every total of `mask`'s turn starts is
/// worth the same: from there even the most the open boxes of the bonus
/// can still add falls short.
fn same_below(rules: &RuleSet, layout: &Layout, mask: u32) -> usize {
    let bonus_boxes = rules.upper_bonus.map_or(0, |b| b.boxes);
    let can_add = rules.most_faces_make(mask & bonus_boxes) as usize;
    (layout.totals - 1).saturating_sub(can_add + 1)
}

/// The moves of every roll from open boxes `mask` with the tracked boxes
/// of `flag` holding points.
fn roll_moves(rules: &RuleSet, layout: &Layout, rolls: &Rolls, mask: u32, flag: usize) -> RollMoves {
    let tracked = &layout.tracked;
    let held = held_of_flag(tracked, flag);
    let from = SheetState { open: mask, upper: 0, held };
    let allowed = rules.allowed(mask);
    let row = |after: SheetState| layout.index(after.open, 0, after.held).expect("a turn start of the game") as u32;
    // Where each box that may be scored leads, scratched and scored (the
    // turn start depends on the points only through the upper total), once
    // for every roll.
    let after: Vec<(u32, u32, bool)> = (0..rules.boxes.len())
        .map(|b| match allowed >> b & 1 == 1 {
            true => {
                let scored = rules.after_scoring(from, b, 1);
                (row(rules.after_scoring(from, b, 0)), row(scored), scored.upper > 0)
            }
            false => (0, 0, false),
        })
        .collect();
    let mut moves = RollMoves { moves: Vec::new(), ends: Vec::with_capacity(rolls.counts.len()) };
    for (counts, points) in rolls.counts.iter().zip(&rolls.points) {
        rules.scores_given(mask, allowed, held, counts, points, |b, points, bonus| {
            let (scratched, scored, upper) = after[b];
            moves.moves.push(Move {
                points: f64::from(points + bonus),
                // A box scratched for 0 was not scored with the first roll's dice.
                first_roll: if points > 0 { f64::from(rules.boxes[b].first_roll) } else { 0.0 },
                row: if points > 0 { scored } else { scratched },
                upper: if upper { points } else { 0 },
            });
        });
        moves.ends.push(moves.moves.len() as u32);
    }
    moves
}

/// Every roll of the rule set's dice (face counts) and each box's points for it.
struct Rolls {
    counts: Vec<[u8; FACES]>,
    points: Vec<Vec<u16>>,
}

impl Rolls {
    fn of(rules: &RuleSet) -> Rolls {
        let counts: Vec<[u8; FACES]> = multisets(usize::from(rules.dice)).iter().map(|d| d.counts()).collect();
        let points = counts.iter().map(|c| (0..rules.boxes.len()).map(|b| rules.points(b, c)).collect()).collect();
        Rolls { counts, points }
    }
}

/// Per-lane buffers reused from turn to turn: every keep's value, the
/// best-keep pass's scratch, and each roll's value when scoring with the
/// turn's first roll.
struct Buffers {
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    first: Vec<[f64; W]>,
}

impl Buffers {
    fn new(graph: &KeepGraph) -> Buffers {
        let rolls = graph.keeps() - graph.partial;
        Buffers {
            values: vec![[0.0; W]; graph.keeps()],
            scratch: vec![[0.0; W]; graph.keeps()],
            first: vec![[0.0; W]; rolls],
        }
    }
}

/// Up to [`W`] turn starts solved together, each a lane: (row, upper
/// total). The keep graph's passes are the same for every lane, so they
/// run on vectors; a lane past the last turn start repeats it.
struct TurnLanes<'a> {
    s: &'a Solution,
    graph: &'a KeepGraph,
    rows: &'a [(RollMoves, usize, usize)],
    lanes: &'a [(usize, usize)],
    b: &'a mut Buffers,
}

impl Kernel for TurnLanes<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        turn_lanes(self.s, self.graph, self.rows, self.lanes, self.b)
    }
}

/// The value of each lane's turn start: the first roll's average of the
/// best play. Each lane's arithmetic is a one-lane solve's, in the same
/// order, so every level of vector instructions gives the same bits.
#[inline(always)]
fn turn_lanes(
    s: &Solution,
    graph: &KeepGraph,
    rows: &[(RollMoves, usize, usize)],
    lanes: &[(usize, usize)],
    b: &mut Buffers,
) -> [f64; W] {
    let last = s.layout.totals - 1;
    let partial = graph.partial;
    let any_first_roll = s.rules.boxes.iter().any(|b| b.first_roll > 0);
    let (row, first_upper) = lanes[0];
    if lanes.len() == W && lanes.iter().enumerate().all(|(l, &(r, u))| r == row && u == first_upper + l) {
        // One row's consecutive totals: each move's values after it are
        // consecutive too (bar the cap), so the moves are read as vectors.
        let RollMoves { moves, ends } = &rows[row].0;
        let mut from = 0;
        for (r, &end) in ends.iter().enumerate() {
            let (mut stop, mut first) = ([f64::NEG_INFINITY; W], [f64::NEG_INFINITY; W]);
            for m in &moves[from..end as usize] {
                let lowest = first_upper + usize::from(m.upper);
                let mut after = [0.0; W];
                if lowest + W <= s.layout.totals {
                    after.copy_from_slice(&s.values[m.row as usize + lowest..][..W]);
                } else {
                    for (l, a) in after.iter_mut().enumerate() {
                        *a = s.values[m.row as usize + (lowest + l).min(last)];
                    }
                }
                for l in 0..W {
                    let v = m.points + after[l];
                    stop[l] = if v > stop[l] { v } else { stop[l] };
                    let f = v + m.first_roll;
                    first[l] = if f > first[l] { f } else { first[l] };
                }
            }
            from = end as usize;
            b.values[partial + r] = stop;
            b.first[r] = first;
        }
    } else {
        for l in 0..W {
            let (row, upper) = lanes[l.min(lanes.len() - 1)];
            let RollMoves { moves, ends } = &rows[row].0;
            let mut from = 0;
            for (r, &end) in ends.iter().enumerate() {
                let (mut stop, mut first) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
                for m in &moves[from..end as usize] {
                    let v = m.points + s.values[m.row as usize + (upper + usize::from(m.upper)).min(last)];
                    stop = if v > stop { v } else { stop };
                    let f = v + m.first_roll;
                    first = if f > first { f } else { first };
                }
                from = end as usize;
                b.values[partial + r][l] = stop;
                b.first[r][l] = first;
            }
        }
    }
    rerolls_then_first_roll(graph, s.rules.rerolls, any_first_roll, b)
}

/// The turn played back from its last roll, each roll's value when scored
/// in `b.values[partial..]` (and with the turn's first roll in `b.first`):
/// `rerolls` rounds of the keeps' values and each roll's best keep, then
/// the first roll's average, for each lane.
#[inline(always)]
fn rerolls_then_first_roll(graph: &KeepGraph, rerolls: u8, any_first_roll: bool, b: &mut Buffers) -> [f64; W] {
    let partial = graph.partial;
    if rerolls == 0 {
        b.values[partial..].copy_from_slice(&b.first);
    }
    for level in 1..=rerolls {
        graph.keep_values_lanes(&mut b.values, |sum| sum * SIXTH);
        // The first roll may score its first-roll bonus: its own value is
        // that, where later rolls' is what they are worth with one reroll fewer.
        if level == rerolls && any_first_roll {
            graph.best_values_over_lanes(&mut b.values, &mut b.scratch, &b.first);
        } else {
            graph.best_values_lanes(&mut b.values, &mut b.scratch);
        }
    }
    graph.fresh_roll_value_lanes(&b.values[partial..])
}

pub mod distribution;
pub mod target;

#[cfg(test)]
mod tests;

/// The most turn starts a table of the engine holds: its values' section
/// is at most 4 GiB (FORMAT.md's limit), and solving holds it whole.
pub const MOST_TURN_STARTS: u64 = 1 << 29;

/// How many turn starts a rule set has: what solving it holds in memory
/// (8 bytes each) and its table stores.
pub fn turn_starts(rules: &RuleSet) -> u64 {
    Shape::of(rules).states()
}

/// Refuses, before any work, a rule set the engine does not solve or whose
/// table would not fit: one line with the estimate and the largest it makes.
pub fn check_solvable(rules: &RuleSet) -> Result<(), NotSolved> {
    if rules.saved_rerolls {
        return Err(NotSolved(
            "saved rerolls (Maxi Yatzy's swedish rule) are solved by maxi-yatzy-swedish's own solver, not from a rule file"
                .into(),
        ));
    }
    let states = turn_starts(rules);
    if states > MOST_TURN_STARTS {
        return Err(NotSolved(format!(
            "{} has {states} turn starts ({:.1} GB of values): over the {MOST_TURN_STARTS} ({} GB) a table holds; \
             fewer boxes, or a lower upper-bonus threshold, make it fit",
            rules.name,
            states as f64 * 8e-9,
            (MOST_TURN_STARTS * 8) >> 30
        )));
    }
    Ok(())
}

/// The table of a solved rule set: its rules as canonical text, then every
/// turn start's value laid out as the reader's
/// [`dice_tables_reader::rule_sheet`] indexes it.
pub fn table(solution: &Solution) -> crate::Solved {
    use crate::artifact::Section;
    use dice_tables_reader::rule_sheet::{RuleSheet, RULES, TURN_START};
    let rules = &solution.rules;
    let shape = Shape::of(rules);
    let mut values = Vec::with_capacity(turn_starts(rules) as usize);
    for block in solution.layout.file_blocks(&shape) {
        values.extend_from_slice(&solution.values[block]);
    }
    let sections = vec![
        Section::of(&RULES, &shape, rules.to_text().into_bytes()),
        Section::of(&TURN_START, &shape, crate::artifact::le_bytes(&values, f64::to_le_bytes)),
    ];
    let mut solved = crate::Solved::new::<RuleSheet>(&shape, values.len() as u64, sections);
    solved.table = rules.name.clone();
    // A box that wins a two-player game at once scores its points alone: say so.
    let wins: Vec<&str> = rules.boxes.iter().filter(|b| b.wins).map(|b| b.name.as_str()).collect();
    let alone = match wins.is_empty() {
        true => String::new(),
        false => format!(
            " (a served {} wins a two-player game at once; this table, for one player, scores it for its points)",
            wins.join(" or ")
        ),
    };
    solved.figures.push(crate::Figure {
        key: "start_value",
        value: solution.start(),
        text: format!("expected score {:.7}{alone}", solution.start()),
    });
    solved
}
