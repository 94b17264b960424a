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
//!
//! A rule set's own table holds every turn start ([`Coverage::Every`]);
//! yatzy's and yahtzee's tables only those their games reach
//! ([`Coverage::Reachable`]), and store rounded values, so for them the
//! solve also lists the decisions with an option close below the best
//! ([`NearTie`]), which `sheet::prove` settles.

use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{fold_best_and_below, fold_least_gap, keep_graph, multisets, KeepGraph};
use dice_tables_reader::five_dice::SIXTH;
use dice_tables_reader::rule_sheet::{flag_index, held_of_flag, Shape};
use dice_tables_reader::rules::{Order, RuleSet, SheetState, FACES};
use rayon::prelude::*;

/// Turn starts the engine solves together, each a lane: sixteen, twice the
/// vector level's eight, so that each keep's index loads and loop counts
/// serve twice the lanes. That is 7.5 % of a solve where a turn runs many
/// levels of keep passes (the swedish rules' up to 40) and 4 % of the
/// target tables'; the default tables are level.
pub(crate) const W: usize = 16;

/// Every turn start's value of one rule set.
pub struct Solution {
    /// The rules solved.
    pub rules: RuleSet,
    layout: Layout,
    /// `values[layout.index(..)]`.
    values: Vec<f64>,
}

/// Which turn starts a solve finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coverage {
    /// Every upper total and flag: a rule set's table holds them all, and a
    /// lookup may ask for any total (a head start, a house rule).
    #[default]
    Every,
    /// Only what a game can reach from its start, where tables store only
    /// that: upper totals to the most the filled boxes make, and no open box
    /// holding points. The value of any other turn start is meaningless.
    Reachable,
}

/// A decision the solve found close to a tie: an option less than the
/// band but more than the tie below the best. Tables that store rounded
/// values settle these (see `sheet::prove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NearTie {
    /// The turn start's open boxes.
    pub mask: u32,
    /// Its boxes holding points (mask bits: the tracked ones).
    pub held: u32,
    /// Its upper total (capped).
    pub upper: u16,
    /// Rerolls left at the decision.
    pub rerolls: u8,
    /// The roll's rank among the rule set's rolls.
    pub roll: u16,
}

/// The gaps that make a near tie: options within `tie` of the best are
/// tied with it; those more than `band` below it are clear.
#[derive(Clone, Copy, Debug)]
pub struct Band {
    /// Options this close to the best are tied with it.
    pub tie: f64,
    /// Options further below the best than this are clear of it.
    pub band: f64,
}

/// Where a rule set's turn starts are: by mask's slot (its place in the
/// table's file, [`Shape::masks`], so that the values are the file's as
/// they are solved; or, for a solve handed over a layer at a time, its
/// place in the order the masks are solved, so that a layer's turn starts
/// are one run), then flags, then rerolls saved, then upper total.
pub(crate) struct Layout {
    /// The masks in the order they are solved: fewest open first.
    masks: Vec<u32>,
    /// Each mask's slot (`u32::MAX`: not a turn start of the game).
    slot: Vec<u32>,
    /// Where each slot's turn starts begin, and past the last, how many there are.
    start: Vec<usize>,
    /// Upper totals a state tells apart: 0 to the bonus's threshold (1
    /// without a bonus).
    totals: usize,
    /// The boxes whose holding points is part of the state, and how many
    /// ways they can: `2^tracked.len()`.
    tracked: Vec<usize>,
    /// How many rerolls a turn may save for later ones: the rule set's
    /// rerolls where it saves them, else 0.
    saving: usize,
    /// The rule set's boxes.
    boxes: usize,
}

impl Layout {
    /// The table file's layout.
    fn of(rules: &RuleSet) -> Layout {
        Layout::with_slots(rules, Shape::of(rules).masks())
    }

    /// The layout whose slots are the masks in the order they are solved.
    fn in_solve_order(rules: &RuleSet) -> Layout {
        Layout::with_slots(rules, Layout::solve_order(rules))
    }

    /// Fewest open first: in a free order every mask, in a fixed order the
    /// boxes from some box on, the last box first.
    fn solve_order(rules: &RuleSet) -> Vec<u32> {
        let boxes = rules.boxes.len();
        let all = (1u32 << boxes) - 1;
        match rules.order {
            Order::Free => {
                let mut m: Vec<u32> = (0..=all).collect();
                m.sort_by_key(|m| m.count_ones());
                m
            }
            Order::Fixed => (0..=boxes).rev().map(|first| all & !((1u32 << first) - 1)).collect(),
        }
    }

    fn with_slots(rules: &RuleSet, slots: Vec<u32>) -> Layout {
        let boxes = rules.boxes.len();
        let masks = Layout::solve_order(rules);
        let mut slot = vec![u32::MAX; 1 << boxes];
        for (i, &m) in slots.iter().enumerate() {
            slot[m as usize] = i as u32;
        }
        debug_assert!(masks.iter().all(|&m| slot[m as usize] != u32::MAX), "every mask solved has a slot");
        let totals = rules.upper_bonus.map_or(1, |b| usize::from(b.at) + 1);
        let saving = if rules.saved_rerolls { usize::from(rules.rerolls) } else { 0 };
        let mut layout =
            Layout { masks, slot, start: Vec::new(), totals, tracked: rules.tracked_boxes(), saving, boxes };
        let mut start = vec![0];
        for &m in &slots {
            start.push(start[start.len() - 1] + layout.block_of(m));
        }
        layout.start = start;
        layout
    }

    fn flags(&self) -> usize {
        1 << self.tracked.len()
    }

    /// Counts of rerolls saved a sheet with the boxes of `mask` open can
    /// hold: each turn played may have saved up to `saving` (1 without saving).
    fn saved_counts(&self, mask: u32) -> usize {
        self.saving * (self.boxes - mask.count_ones() as usize) + 1
    }

    /// Turn starts a mask has without saved rerolls: every flag and upper total.
    fn block(&self) -> usize {
        debug_assert_eq!(self.saving, 0, "with saved rerolls a mask's turn starts depend on its boxes open");
        self.flags() * self.totals
    }

    /// Turn starts `mask` has: every flag, count of rerolls saved and upper total.
    fn block_of(&self, mask: u32) -> usize {
        self.flags() * self.saved_counts(mask) * self.totals
    }

    /// Turn starts in all.
    fn len(&self) -> usize {
        *self.start.last().expect("a layout ends")
    }

    /// Where `mask`'s turn starts begin; `None` for a mask the game never reaches.
    fn at(&self, mask: u32) -> Option<usize> {
        let slot = *self.slot.get(mask as usize)?;
        (slot != u32::MAX).then(|| self.start[slot as usize])
    }

    /// The turn start (`mask`, `upper` capped, the tracked boxes of `held`,
    /// no rerolls saved)'s place; `None` for a mask the game never reaches.
    fn index(&self, mask: u32, upper: usize, held: u32) -> Option<usize> {
        self.index_saved(mask, upper, held, 0)
    }

    /// [`Layout::index`] with `saved` rerolls saved.
    fn index_saved(&self, mask: u32, upper: usize, held: u32, saved: usize) -> Option<usize> {
        let flag = flag_index(&self.tracked, held);
        let row = flag * self.saved_counts(mask) + saved;
        Some(self.at(mask)? + row * self.totals + upper.min(self.totals - 1))
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

    /// Where a turn start is in the table file's order (its value's and its
    /// parts' place, [`parts::Parts`]); `None` for a mask the game never reaches.
    pub fn place(&self, mask: u32, upper: u16, held: u32) -> Option<usize> {
        self.layout.index(mask, usize::from(upper), held)
    }

    /// The values of (`mask`, `held`) by upper total (capped); `None` for a
    /// mask the game never reaches.
    pub fn totals(&self, mask: u32, held: u32) -> Option<&[f64]> {
        Some(&self.values[self.layout.index(mask, 0, held)?..][..self.layout.totals])
    }

    /// Every turn start's value, laid out as the table's file stores them
    /// ([`Shape::index`]).
    pub fn into_values(self) -> Vec<f64> {
        self.values
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
    /// The lowest total worth solving of the turn start it leads to: a
    /// lower total is worth the same (the target solve stores only that one
    /// where it solves only what the game reaches).
    floor: u16,
}

/// How a solve averages the six faces of a rerolled die: times a sixth
/// (the sheet tables) or over six (yazy's table). The two differ in the
/// last bit of some values; each table keeps the bits it always had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Average {
    /// The sum times [`SIXTH`].
    #[default]
    TimesSixth,
    /// The sum divided by six.
    OverSix,
}

impl Average {
    /// Every partial keep's value from the values after it (see
    /// [`KeepGraph::keep_values_lanes`]).
    #[inline(always)]
    fn keep_values<const N: usize>(self, graph: &KeepGraph, values: &mut [[f64; N]]) {
        match self {
            Average::TimesSixth => graph.keep_values_lanes(values, |sum| sum * SIXTH),
            Average::OverSix => graph.keep_values_lanes(values, |sum| sum / FACES as f64),
        }
    }
}

/// A turn start a lane solves: its open boxes, boxes holding points (mask
/// bits) and upper total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneStart {
    /// The open boxes.
    pub mask: u32,
    /// The boxes holding points.
    pub held: u32,
    /// The upper total (capped).
    pub upper: u16,
}

/// Where a table stores every keep's value and each roll's best keep (as
/// yazy's does), the solve hands them over as it finds them.
pub trait RecordKeeps: Sync {
    /// With `rerolls` left at the turn starts of `lanes` (a lane past the
    /// last repeats it): each partial keep's value (by graded rank) and
    /// each roll's best keep, a graded rank as f64 or
    /// [`crate::dice::NONE`] for none (scoring the dice now), the first
    /// keep of the best value in rank order. Called from several threads,
    /// each time for other turn starts.
    fn record(&self, rerolls: u8, lanes: &[LaneStart; W], keep_values: &[[f64; W]], best_keeps: &[[f64; W]]);
}

/// What a solve finds beside the values, and how.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Which turn starts.
    pub coverage: Coverage,
    /// Lists the decisions with an option in this band (see [`NearTie`]).
    pub band: Option<Band>,
    /// How a keep's value averages the faces.
    pub average: Average,
    /// Hands every keep's value to a table that stores them (not with `band`).
    pub record: Option<&'a dyn RecordKeeps>,
}

/// Every roll's moves from one (mask, flag) row, each distinct move once:
/// roll `r`'s are `moves[ids[i]]` for `i` in `ends[r - 1]..ends[r]`, and a
/// turn finds the value of each move in `live` once for all the rolls that
/// have it. Where `zeros` lists where scratching each allowed box leads, a
/// roll marked in `shared_zero` may also take any of those zeros, and its
/// list holds only its moves that score.
#[derive(Default)]
struct RollMoves {
    moves: Vec<Move>,
    live: Vec<u16>,
    ids: Vec<u16>,
    ends: Vec<u32>,
    zeros: Vec<Move>,
    shared_zero: Vec<bool>,
}

/// Solves every turn start of `rules` (checked), or says what the engine
/// does not solve yet.
pub fn solve(rules: &RuleSet) -> Result<Solution, NotSolved> {
    solve_on(rules, crate::dice::simd())
}

/// [`solve`] with `simd`'s vector instructions (every level gives the same
/// values, bit for bit).
pub fn solve_on(rules: &RuleSet, simd: Simd) -> Result<Solution, NotSolved> {
    Ok(solve_with(rules, simd, Options::default(), &mut |_, _| {})?.0)
}

/// [`solve_on`] as `options` say: over their coverage's turn starts, and
/// with a band every decision of those turn starts with an option in it
/// (in no set order; a turn start below a row's lowest solved total is
/// listed at every total it stands for). Finding them changes no value.
/// `progress(done, total)` counts sheets (sets of open boxes) solved.
/// Solved a layer at a time ([`solve_by_layer`]), each placed in the
/// table's layout as it comes.
pub fn solve_with(
    rules: &RuleSet,
    simd: Simd,
    options: Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Solution, Vec<NearTie>), NotSolved> {
    check_solvable(rules)?;
    let layout = Layout::of(rules);
    let mut values = vec![0.0; layout.len()];
    let mut near_ties = Vec::new();
    // Each layer's masks moved to their places in the file's layout (and
    // the full sheet's, the first layer's below).
    let mut place = |layer: LayerValues| {
        let block = layer.values.len() / layer.masks.len();
        for (&mask, solved) in layer.masks.iter().zip(layer.values.chunks_exact(block)) {
            let at = layout.at(mask).expect("a turn start of the game");
            values[at..at + block].copy_from_slice(solved);
        }
    };
    solve_by_layer(rules, simd, options, progress, &mut |layer, below, near| {
        if below.masks == [0] {
            place(below);
        }
        place(layer);
        near_ties.extend(near);
    })?;
    Ok((Solution { rules: rules.clone(), layout, values }, near_ties))
}

/// One layer of a solve handed over by [`solve_by_layer`]: its masks, in
/// increasing order, and their turn starts' values, each mask's
/// `flags x saved counts x totals` in turn (flags, then rerolls saved,
/// then upper total).
#[derive(Clone, Copy)]
pub struct LayerValues<'a> {
    /// The masks, each with as many boxes open.
    pub masks: &'a [u32],
    /// Their values.
    pub values: &'a [f64],
}

/// [`solve_with`] holding only two layers of values at a time (a rule set
/// that saves rerolls may have too many turn starts to hold whole): calls
/// `each_layer(layer, below, near_ties)` with every layer of one or more
/// open boxes once solved, fewest open first, beside the layer it was
/// solved from. Returns the game's start value.
pub fn solve_by_layer(
    rules: &RuleSet,
    simd: Simd,
    options: Options,
    progress: &mut dyn FnMut(usize, usize),
    each_layer: &mut dyn FnMut(LayerValues, LayerValues, Vec<NearTie>),
) -> Result<f64, NotSolved> {
    check_layers(rules)?;
    let layout = Layout::in_solve_order(rules);
    let mut below = vec![0.0; layout.block_of(0)];
    full_sheet(&layout, rules, &mut below);
    let (mut below_masks, mut base) = (vec![0u32], 0);
    let engine = Engine::new(rules, simd, options);
    let layers = layout.layers();
    let sizes = crate::progress::Layers::new(layers.iter().map(|l| l.len() as u64));
    for (done, layer) in layers.into_iter().enumerate() {
        sizes.report(done, progress);
        let masks = &layout.masks[layer];
        // The layer's masks are one run of this layout: solved in place.
        let mut values = vec![0.0; masks.len() * layout.block_of(masks[0])];
        let near = engine.layer(&layout, masks, &below, base, &mut values);
        each_layer(LayerValues { masks, values: &values }, LayerValues { masks: &below_masks, values: &below }, near);
        (below, below_masks) = (values, masks.to_vec());
        base = layout.at(masks[0]).expect("a turn start of the game");
    }
    sizes.report(sizes.len(), progress);
    Ok(below[0])
}

/// A full sheet's turn starts: the upper bonus, where the total reached
/// it, is all that is still to come.
fn full_sheet(layout: &Layout, rules: &RuleSet, values: &mut [f64]) {
    if let Some(bonus) = rules.upper_bonus {
        for row in values.chunks_exact_mut(layout.totals) {
            row[usize::from(bonus.at)] = f64::from(bonus.points);
        }
    }
}

/// What every layer of a solve shares: the rules, the keep graph, the
/// rolls' scores, and how it solves.
struct Engine<'a> {
    rules: &'a RuleSet,
    graph: &'static KeepGraph,
    rolls: Rolls,
    job: MaskJob<'a>,
}

impl<'a> Engine<'a> {
    fn new(rules: &'a RuleSet, simd: Simd, options: Options<'a>) -> Engine<'a> {
        assert!(options.band.is_none() || options.record.is_none(), "near ties are listed without recording keeps");
        assert!(!rules.saved_rerolls || options.record.is_none(), "keeps are recorded without saved rerolls");
        let graph = keep_graph(usize::from(rules.dice));
        Engine { rules, graph, rolls: Rolls::of(rules), job: MaskJob { options, simd } }
    }

    /// The turn starts of `masks` (one layer) into `out`, each mask's in
    /// turn, a few masks a task (with few upper totals, none without a
    /// bonus, their turn starts still fill the vector lanes), from the
    /// values of the layer below: the turn start at `i` of `layout` is
    /// `below[i - base]`. Returns their near ties where the job lists them.
    fn layer(&self, layout: &Layout, masks: &[u32], below: &[f64], base: usize, out: &mut [f64]) -> Vec<NearTie> {
        let s = Solving { rules: self.rules, layout, values: below, base };
        let (graph, job) = (self.graph, self.job);
        let (near_ties, recording, saving) =
            (job.options.band.is_some(), job.options.record.is_some(), layout.saving > 0);
        let task = W * layout.block_of(masks[0]);
        let near: Vec<Vec<NearTie>> = masks
            .par_chunks(W)
            .zip(out.par_chunks_mut(task))
            .map_init(
                || Buffers::new(graph, near_ties, recording, saving),
                |buffers, (chunk, out)| solve_masks(&s, graph, &self.rolls, chunk, job, buffers, out),
            )
            .collect();
        near.into_iter().flatten().collect()
    }
}

/// What a layer's solve reads: the rules, the layout, and the values of
/// the layer below (`values[i - base]` the turn start at `i` of `layout`).
struct Solving<'a> {
    rules: &'a RuleSet,
    layout: &'a Layout,
    values: &'a [f64],
    base: usize,
}

/// How [`solve_masks`] solves: the solve's options, with which vector
/// instructions.
#[derive(Clone, Copy)]
struct MaskJob<'a> {
    options: Options<'a>,
    simd: Simd,
}

/// Every turn start of `masks` (each with as many boxes open) into `out`:
/// `flags x saved counts x totals` values each, in order; returns their
/// near ties where the job asks for them.
fn solve_masks(
    s: &Solving,
    graph: &KeepGraph,
    rolls: &Rolls,
    masks: &[u32],
    job: MaskJob<'_>,
    buffers: &mut Buffers,
    out: &mut [f64],
) -> Vec<NearTie> {
    let (flags, totals) = (s.layout.flags(), s.layout.totals);
    let saved = s.layout.saved_counts(masks[0]);
    debug_assert_eq!(out.len(), masks.len() * s.layout.block_of(masks[0]));
    // Each (mask, flag) row's moves with where its values go; the turn
    // starts to solve, as (row, total).
    let mut rows: Vec<Row> = Vec::new();
    // Whole vectors of one row's totals where a row has that many (the
    // moves are then read as vectors), and the rest mixed, as
    // (row, total, whether this lane is where that turn start is found:
    // a vector may reach below the row's lowest total worth solving or
    // overlap the one before it).
    let (mut whole, mut mixed): (Vec<Lane>, Vec<Lane>) = (Vec::new(), Vec::new());
    let bonus_boxes = s.rules.upper_bonus.map_or(0, |b| b.boxes);
    for (i, &mask) in masks.iter().enumerate() {
        let same_below = same_below(s.rules, s.layout, mask);
        let highest = match job.options.coverage {
            Coverage::Every => totals - 1,
            // The most the filled boxes of the bonus make.
            Coverage::Reachable => {
                (s.rules.most_faces_make(!mask & bonus_boxes) as usize).clamp(same_below, totals - 1)
            }
        };
        for flag in 0..flags {
            let held = held_of_flag(&s.layout.tracked, flag);
            if job.options.coverage == Coverage::Reachable && held & mask != 0 {
                continue;
            }
            let row = rows.len();
            if totals >= W {
                for own_from in (same_below..=highest).step_by(W) {
                    let lowest = own_from.min(totals - W);
                    whole.extend((lowest..lowest + W).map(|u| (row, u, u >= own_from && u <= highest)));
                }
            } else {
                mixed.extend((same_below..=highest).map(|u| (row, u, true)));
            }
            let mut moves = buffers.spare_moves.pop().unwrap_or_default();
            roll_moves_into(&mut moves, s.rules, s.layout, rolls, mask, flag, s.base);
            rows.push(Row { moves, at: (i * flags + flag) * saved * totals, same_below, mask, held });
        }
    }
    let mut near = Vec::new();
    for lanes in whole.chunks(W).chain(mixed.chunks(W)) {
        let (average, record) = (job.options.average, job.options.record);
        // Each kind of turn a kernel of its own: one function holding every
        // kind's passes was compiled worse for each (the swedish table's
        // solve 5.6 % slower than Maxi's own solver's, a reduced swedish
        // game's 20 %).
        macro_rules! turn {
            ($prove:literal, $saving:literal, $record:literal, $near:expr) => {
                job.simd.run(TurnLanes::<$prove, $saving, $record> {
                    s,
                    graph,
                    rows: &rows,
                    lanes,
                    b: buffers,
                    average,
                    record,
                    near: $near,
                })
            };
        }
        match (job.options.band, s.layout.saving > 0, record.is_some()) {
            (None, false, false) => turn!(false, false, false, None),
            (None, false, true) => turn!(false, false, true, None),
            (None, true, _) => turn!(false, true, false, None),
            (Some(band), false, _) => turn!(true, false, false, Some((band, &mut near))),
            (Some(band), true, _) => turn!(true, true, false, Some((band, &mut near))),
        };
        for (l, &(row, upper, _)) in lanes.iter().enumerate() {
            for (k, v) in buffers.out[..saved].iter().enumerate() {
                out[rows[row].at + k * totals + upper] = v[l];
            }
        }
    }
    for row in &rows {
        for k in 0..saved {
            let at = row.at + k * totals;
            let flat = out[at + row.same_below];
            out[at..at + row.same_below].fill(flat);
        }
    }
    // Their buffers serve the next masks' rows.
    buffers.spare_moves.extend(rows.into_iter().map(|row| row.moves));
    near
}

/// A lane of a solve: (row, upper total, whether the turn start is found
/// here rather than in another lane).
type Lane = (usize, usize, bool);

/// One (mask, flag) row of a solve: every roll's moves, where its values
/// go, and the lowest total worth solving.
struct Row {
    moves: RollMoves,
    at: usize,
    same_below: usize,
    mask: u32,
    held: u32,
}

/// The upper total below which every total of `mask`'s turn starts is
/// worth the same: from there even the most the open boxes of the bonus
/// can still add falls short.
fn same_below(rules: &RuleSet, layout: &Layout, mask: u32) -> usize {
    let bonus_boxes = rules.upper_bonus.map_or(0, |b| b.boxes);
    flat_below(layout, rules.most_faces_make(mask & bonus_boxes))
}

/// [`same_below`] of a sheet whose open boxes of the bonus can still add
/// `can_add` to the upper total.
fn flat_below(layout: &Layout, can_add: u32) -> usize {
    (layout.totals - 1).saturating_sub(can_add as usize + 1)
}

/// The moves of every roll from open boxes `mask` with the tracked boxes
/// of `flag` holding points. The zeros a roll may take in every allowed
/// box (the rolls that score no extra bonus and whose placement the rules
/// do not narrow, as a joker's is) are listed once for the row: a turn
/// folds them once for all those rolls. A zero in a
/// box where the roll scores points is then among them, but it is never
/// the best: scoring points there leads to the same boxes open with a
/// higher upper total and that box holding points, never worth less (the
/// bonus, the extra bonus and a box that needs another only gain), and
/// scores at least a point more now.
fn roll_moves(rules: &RuleSet, layout: &Layout, rolls: &Rolls, mask: u32, flag: usize) -> RollMoves {
    let mut moves = RollMoves::default();
    roll_moves_into(&mut moves, rules, layout, rolls, mask, flag, 0);
    moves
}

/// [`roll_moves`] into `moves`, its buffers reused, a move's `row` less
/// `base` (where the values it reads begin).
fn roll_moves_into(
    moves: &mut RollMoves,
    rules: &RuleSet,
    layout: &Layout,
    rolls: &Rolls,
    mask: u32,
    flag: usize,
    base: usize,
) {
    let tracked = &layout.tracked;
    let held = held_of_flag(tracked, flag);
    let from = SheetState { open: mask, upper: 0, held };
    let allowed = rules.allowed(mask);
    let row =
        |after: SheetState| (layout.index(after.open, 0, after.held).expect("a turn start of the game") - base) as u32;
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
    // Each next sheet's lowest total worth solving: its open boxes of the
    // bonus can add what this sheet's can, less the box scored.
    let open_bonus = mask & rules.upper_bonus.map_or(0, |b| b.boxes);
    let can_add = rules.most_faces_make(open_bonus);
    let floor: Vec<u16> = (0..rules.boxes.len())
        .map(|b| {
            let scored = if open_bonus >> b & 1 == 1 { rules.most_faces_make(1 << b) } else { 0 };
            flat_below(layout, can_add - scored) as u16
        })
        .collect();
    let zero = |b: usize| Move { points: 0.0, first_roll: 0.0, row: after[b].0, upper: 0, floor: floor[b] };
    moves.zeros.clear();
    moves.zeros.extend((0..rules.boxes.len()).filter(|&b| allowed >> b & 1 == 1).map(zero));
    let usable = rules.usable(held);
    // The rolls' ordinary scores first, by their id in `rolls.scores`:
    // those of boxes that may score now are live.
    let plain_move = |&(b, points): &(usize, u16)| {
        let (_, scored, upper) = after[b];
        let first_roll = f64::from(rules.boxes[b].first_roll);
        let upper = if upper { points } else { 0 };
        Move { points: f64::from(points), first_roll, row: scored, upper, floor: floor[b] }
    };
    // Only the live ones are read: the others keep what they held.
    moves.moves.resize(rolls.scores.len(), plain_move(&(0, 0)));
    moves.live.clear();
    for i in (0..rolls.scores.len()).filter(|&i| (allowed & usable) >> rolls.scores[i].0 & 1 == 1) {
        moves.moves[i] = plain_move(&rolls.scores[i]);
        moves.live.push(i as u16);
    }
    moves.ids.clear();
    moves.ends.clear();
    moves.shared_zero.clear();
    let mut scores: Vec<(usize, u16, u16)> = Vec::new();
    // Filled in a local vector, whose length stays in a register (this
    // loop was 5 % of yatzy's build).
    let mut ids = std::mem::take(&mut moves.ids);
    let box_count = rules.boxes.len();
    let every_roll_plain = rules.extra_bonus.is_none();
    for (r, (counts, points)) in rolls.counts.iter().zip(&rolls.points).enumerate() {
        if every_roll_plain || rules.scores_plainly(mask, counts) {
            // Each allowed box for its points, zeros shared: the boxes it scores in.
            let by_box = &rolls.score_ids[r * box_count..][..box_count];
            let mut boxes = rolls.scoring[r] & allowed & usable;
            while boxes != 0 {
                ids.push(by_box[boxes.trailing_zeros() as usize]);
                boxes &= boxes - 1;
            }
            moves.ends.push(ids.len() as u32);
            moves.shared_zero.push(true);
            continue;
        }
        scores.clear();
        rules.scores_given(mask, allowed, held, counts, points, |b, points, bonus| scores.push((b, points, bonus)));
        let placed = scores.iter().fold(0u32, |m, &(b, _, _)| m | 1 << b);
        let shared = placed == allowed && scores.iter().all(|&(_, _, bonus)| bonus == 0);
        for &(b, points, bonus) in scores.iter().filter(|&&(_, points, _)| !shared || points > 0) {
            let (scratched, scored, upper) = after[b];
            let id = moves.moves.len() as u16;
            moves.moves.push(Move {
                points: f64::from(points + bonus),
                // A box scratched for 0 was not scored with the first roll's dice.
                first_roll: if points > 0 { f64::from(rules.boxes[b].first_roll) } else { 0.0 },
                row: if points > 0 { scored } else { scratched },
                upper: if upper { points } else { 0 },
                floor: floor[b],
            });
            moves.live.push(id);
            ids.push(id);
        }
        moves.ends.push(ids.len() as u32);
        moves.shared_zero.push(shared);
    }
    moves.ids = ids;
}

/// Every roll of the rule set's dice (face counts), each box's points for
/// it, and the boxes it scores points in (mask bits); every distinct
/// (box, points) a roll scores, and each roll's by box (their ids).
struct Rolls {
    counts: Vec<[u8; FACES]>,
    points: Vec<Vec<u16>>,
    scoring: Vec<u32>,
    scores: Vec<(usize, u16)>,
    /// By (roll, box), `boxes` a roll: the id of the roll's score there.
    score_ids: Vec<u16>,
}

impl Rolls {
    fn of(rules: &RuleSet) -> Rolls {
        let counts: Vec<[u8; FACES]> = multisets(usize::from(rules.dice)).iter().map(|d| d.counts()).collect();
        let points: Vec<Vec<u16>> =
            counts.iter().map(|c| (0..rules.boxes.len()).map(|b| rules.points(b, c)).collect()).collect();
        let scoring = points
            .iter()
            .map(|p| p.iter().enumerate().filter(|(_, &p)| p > 0).fold(0, |m, (b, _)| m | 1 << b))
            .collect();
        let mut scores: Vec<(usize, u16)> = Vec::new();
        let score_ids = points
            .iter()
            .flat_map(|p| {
                let mut id = |score: (usize, u16)| match scores.iter().position(|&s| s == score) {
                    Some(i) => i as u16,
                    None => {
                        scores.push(score);
                        scores.len() as u16 - 1
                    }
                };
                p.iter().enumerate().map(|(b, &p)| if p > 0 { id((b, p)) } else { u16::MAX }).collect::<Vec<_>>()
            })
            .collect();
        Rolls { counts, points, scoring, scores, score_ids }
    }
}

/// Per-lane buffers reused from turn to turn: every keep's value, the
/// best-keep pass's scratch, and each roll's value when scoring with the
/// turn's first roll; while listing near ties, the best more than a tie
/// below each keep's and each first roll's best.
struct Buffers {
    /// Rows' moves done with, whose buffers the next rows reuse.
    spare_moves: Vec<RollMoves>,
    values: Vec<[f64; W]>,
    /// Each move's value, and with the first-roll bonus.
    moves: Vec<[f64; W]>,
    first_moves: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
    first: Vec<[f64; W]>,
    below: Vec<[f64; W]>,
    first_below: Vec<[f64; W]>,
    /// While recording keeps or saving rerolls: each roll's value scored
    /// now (saving, and listing near ties: its best not tied beside it);
    /// recording, every keep's best value and best keep.
    stop: Vec<[f64; W]>,
    stop_below: Vec<[f64; W]>,
    best: Vec<[f64; W]>,
    keep: Vec<[f64; W]>,
    /// The lanes' values, by rerolls saved (without saving, one).
    out: Vec<[f64; W]>,
}

impl Buffers {
    fn new(graph: &KeepGraph, near_ties: bool, recording: bool, saving: bool) -> Buffers {
        let rolls = graph.keeps() - graph.partial;
        let lanes = |n: usize| vec![[f64::NEG_INFINITY; W]; if near_ties { n } else { 0 }];
        let recorded = |n: usize| vec![[0.0; W]; if recording { n } else { 0 }];
        Buffers {
            stop_below: lanes(if saving { rolls } else { 0 }),
            out: vec![[0.0; W]; 1],
            spare_moves: Vec::new(),
            values: vec![[0.0; W]; graph.keeps()],
            moves: Vec::new(),
            first_moves: Vec::new(),
            scratch: vec![[0.0; W]; graph.keeps()],
            first: vec![[0.0; W]; rolls],
            below: lanes(graph.keeps()),
            first_below: lanes(rolls),
            stop: vec![[0.0; W]; if recording || saving { rolls } else { 0 }],
            best: recorded(graph.keeps()),
            keep: recorded(graph.keeps()),
        }
    }
}

/// Up to [`W`] turn starts solved together, each a lane: (row, upper
/// total). The keep graph's passes are the same for every lane, so they
/// run on vectors; a lane past the last turn start repeats it. With
/// `PROVE`, the decisions with an option in `near`'s band are added to it;
/// with `SAVING`, a turn's unused rerolls are saved for later ones; with
/// `RECORD`, every keep's value goes to `record`.
struct TurnLanes<'a, 'n, const PROVE: bool, const SAVING: bool, const RECORD: bool> {
    s: &'a Solving<'a>,
    graph: &'a KeepGraph,
    rows: &'a [Row],
    lanes: &'a [Lane],
    b: &'a mut Buffers,
    average: Average,
    record: Option<&'a dyn RecordKeeps>,
    near: Option<(Band, &'n mut Vec<NearTie>)>,
}

impl<const PROVE: bool, const SAVING: bool, const RECORD: bool> Kernel for TurnLanes<'_, '_, PROVE, SAVING, RECORD> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        let Self { s, graph, rows, lanes, b, average, record, near } = self;
        if SAVING {
            turn_lanes_saving::<PROVE>(s, graph, rows, lanes, b, average, near);
        } else {
            b.out[0] = turn_lanes::<PROVE, RECORD>(s, graph, rows, lanes, b, average, record, near);
        }
    }
}

/// The best of `v` and what `best` holds, lane by lane; while proving,
/// with the best more than `tie` below it carried in `below` (the same
/// maximum either way: listing near ties never changes a value).
#[inline(always)]
fn fold<const PROVE: bool, const N: usize>(best: &mut [f64; N], below: &mut [f64; N], v: &[f64; N], tie: f64) {
    if PROVE {
        fold_best_and_below(best, below, v, &[f64::NEG_INFINITY; N], tie);
    } else {
        for l in 0..N {
            best[l] = if v[l] > best[l] { v[l] } else { best[l] };
        }
    }
}

/// The value of each lane's turn start: the first roll's average of the
/// best play. Each lane's arithmetic is a one-lane solve's, in the same
/// order, so every level of vector instructions gives the same bits.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn turn_lanes<const PROVE: bool, const RECORD: bool>(
    s: &Solving,
    graph: &KeepGraph,
    rows: &[Row],
    lanes: &[Lane],
    b: &mut Buffers,
    average: Average,
    record: Option<&dyn RecordKeeps>,
    near: Option<(Band, &mut Vec<NearTie>)>,
) -> [f64; W] {
    let partial = graph.partial;
    let any_first_roll = s.rules.boxes.iter().any(|b| b.first_roll > 0);
    let tie = near.as_ref().map_or(0.0, |(band, _)| band.tie);
    stop_values::<PROVE>(s, rows, lanes, b, Stops { partial, tie, any_first_roll, saved: 0, into_stop: false });
    let rerolls = s.rules.rerolls;
    if PROVE {
        let (band, near) = near.expect("a proving turn lists near ties");
        rerolls_then_first_roll_proving(graph, rerolls, any_first_roll, average, tie, b, |rerolls, least, b| {
            flag_band(rows, lanes, band, rerolls, least, &b.values[partial..], &b.below[partial..], near)
        })
    } else if RECORD {
        let record = record.expect("a recording turn records");
        let starts: [LaneStart; W] = std::array::from_fn(|l| {
            let (row, upper, _) = lanes[l.min(lanes.len() - 1)];
            LaneStart { mask: rows[row].mask, held: rows[row].held, upper: upper as u16 }
        });
        rerolls_then_first_roll_recording(graph, rerolls, any_first_roll, average, b, |rerolls, b| {
            record.record(rerolls, &starts, &b.values[..partial], &b.keep[partial..])
        })
    } else {
        rerolls_then_first_roll(graph, rerolls, any_first_roll, average, b)
    }
}

/// How [`stop_values`] finds each roll's value scored now: the keep
/// graph's `partial` keeps before the rolls, the tie, whether a box has a
/// first-roll bonus, the rerolls saved that scoring leads to, and where
/// the values go: `b.stop` (saving rerolls, where a level's scores are
/// an option beside the keeps) or the rolls' own `b.values[partial..]`.
#[derive(Clone, Copy)]
struct Stops {
    partial: usize,
    tie: f64,
    any_first_roll: bool,
    saved: usize,
    into_stop: bool,
}

/// Each roll's value when scored now, for every lane: the best of its
/// moves (points plus the value of the turn start each leads to, with
/// `saved` rerolls saved) and, with a first-roll bonus, the same with it
/// in `b.first`; while proving, the best more than a tie below each beside it.
#[inline(always)]
fn stop_values<const PROVE: bool>(s: &Solving, rows: &[Row], lanes: &[Lane], b: &mut Buffers, how: Stops) {
    let Stops { partial, tie, any_first_roll, saved, into_stop } = how;
    let Buffers { values, below, stop, stop_below, first, first_below, moves: move_values, .. } = b;
    let (first_values, first_below_values) = (first, first_below);
    let (dst, dst_below): (&mut [[f64; W]], &mut [[f64; W]]) = match into_stop {
        true => (stop, stop_below),
        false => (&mut values[partial..], below.get_mut(partial..).unwrap_or_default()),
    };
    let shift = saved * s.layout.totals;
    let last = s.layout.totals - 1;
    let none = [f64::NEG_INFINITY; W];
    let (row, first_upper, _) = lanes[0];
    if lanes.len() == W && lanes.iter().enumerate().all(|(l, &(r, u, _))| r == row && u == first_upper + l) {
        // One row's consecutive totals: each move's values after it are
        // consecutive too (bar the cap), so the moves are read as vectors.
        // `after_block` called directly: a closure around it was a call of
        // its own, without the kernel's vector instructions.
        let (values, totals) = (s.values, s.layout.totals);
        let shift = shift as u32;
        let RollMoves { moves, live, ids, ends, zeros, shared_zero } = &rows[row].moves;
        let (mut zero, mut zero_below) = (none, none);
        for z in zeros {
            fold::<PROVE, W>(&mut zero, &mut zero_below, &after_block(values, totals, z.row + shift, first_upper), tie);
        }
        // Each move's value once, for every roll that has it.
        move_values.resize(moves.len(), none);
        for &id in live {
            let m = &moves[usize::from(id)];
            let mut v = after_block(values, totals, m.row + shift, first_upper + usize::from(m.upper));
            for v in &mut v {
                *v += m.points;
            }
            move_values[usize::from(id)] = v;
        }
        let mut from = 0;
        for (r, &end) in ends.iter().enumerate() {
            let (mut stop, mut stop_below) = if shared_zero[r] { (zero, zero_below) } else { (none, none) };
            let (mut first, mut first_below) = (stop, stop_below);
            for &id in &ids[from..end as usize] {
                fold::<PROVE, W>(&mut stop, &mut stop_below, &move_values[usize::from(id)], tie);
            }
            if any_first_roll {
                for &id in &ids[from..end as usize] {
                    let mut v = move_values[usize::from(id)];
                    for v in &mut v {
                        *v += moves[usize::from(id)].first_roll;
                    }
                    fold::<PROVE, W>(&mut first, &mut first_below, &v, tie);
                }
            }
            from = end as usize;
            dst[r] = stop;
            if PROVE {
                dst_below[r] = stop_below;
            }
            // Without a first-roll bonus the first roll scores as any other.
            if any_first_roll {
                first_values[r] = first;
                if PROVE {
                    first_below_values[r] = first_below;
                }
            }
        }
    } else {
        for l in 0..W {
            let (row, upper, _) = lanes[l.min(lanes.len() - 1)];
            let RollMoves { moves, ids, ends, zeros, shared_zero, .. } = &rows[row].moves;
            let (mut zero, mut zero_below) = ([f64::NEG_INFINITY; 1], [f64::NEG_INFINITY; 1]);
            for z in zeros {
                fold::<PROVE, 1>(&mut zero, &mut zero_below, &[s.values[z.row as usize + shift + upper]], tie);
            }
            let mut from = 0;
            for (r, &end) in ends.iter().enumerate() {
                let (mut stop, mut stop_below) = match shared_zero[r] {
                    true => (zero, zero_below),
                    false => ([f64::NEG_INFINITY; 1], [f64::NEG_INFINITY; 1]),
                };
                let (mut first, mut first_below) = (stop, stop_below);
                for m in ids[from..end as usize].iter().map(|&id| &moves[usize::from(id)]) {
                    let v = m.points + s.values[m.row as usize + shift + (upper + usize::from(m.upper)).min(last)];
                    // One lane's fold, as the vector path's lane `l` does it.
                    fold::<PROVE, 1>(&mut stop, &mut stop_below, &[v], tie);
                    if any_first_roll {
                        fold::<PROVE, 1>(&mut first, &mut first_below, &[v + m.first_roll], tie);
                    }
                }
                from = end as usize;
                dst[r][l] = stop[0];
                if PROVE {
                    dst_below[r][l] = stop_below[0];
                }
                if any_first_roll {
                    first_values[r][l] = first[0];
                    if PROVE {
                        first_below_values[r][l] = first_below[0];
                    }
                }
            }
        }
    }
}

/// [`turn_lanes`] where a turn's unused rerolls are saved for later
/// turns, each count saved into `b.out`. A roll's value with `r` rerolls
/// left, `S_r`, does not depend on how many were saved: scoring saves the
/// `r` left (`stop_r`), a partial keep rerolls the rest (the average of
/// `S_{r-1}`), and rerolling no die is never better than scoring (more
/// saved rerolls are never worth less). So `S_0 = stop_0`, `S_r` is the
/// best of `stop_r` and the partial keeps inside the roll, and a turn with
/// `k` saved starts with the fresh roll's average of `S_{rerolls + k}`:
/// one pass of `r` gives every count. (A first-roll bonus is refused with
/// saving, see [`check_layers`].)
#[inline(always)]
fn turn_lanes_saving<const PROVE: bool>(
    s: &Solving,
    graph: &KeepGraph,
    rows: &[Row],
    lanes: &[Lane],
    b: &mut Buffers,
    average: Average,
    mut near: Option<(Band, &mut Vec<NearTie>)>,
) {
    let partial = graph.partial;
    let rerolls = usize::from(s.rules.rerolls);
    let saved = s.layout.saved_counts(rows[lanes[0].0].mask);
    let tie = near.as_ref().map_or(0.0, |(band, _)| band.tie);
    b.out.resize(saved, [0.0; W]);
    for r in 0..rerolls + saved {
        if r > 0 {
            average.keep_values(graph, &mut b.values);
        }
        let how = Stops { partial, tie, any_first_roll: false, saved: r, into_stop: true };
        stop_values::<PROVE>(s, rows, lanes, b, how);
        let least = if r == 0 {
            b.values[partial..].copy_from_slice(&b.stop);
            let mut least = [f64::INFINITY; W];
            if PROVE {
                b.below[partial..].copy_from_slice(&b.stop_below);
                for (v, x) in b.stop.iter().zip(&b.stop_below) {
                    fold_least_gap(&mut least, v, x);
                }
            }
            least
        } else if PROVE {
            graph.best_and_below_over_lanes(&mut b.values, tie, &mut b.below, &b.stop, &b.stop_below)
        } else {
            graph.best_values_over_lanes(&mut b.values, &mut b.scratch, &b.stop);
            [f64::INFINITY; W]
        };
        if let (true, Some((band, near))) = (PROVE, near.as_mut()) {
            flag_band(rows, lanes, *band, r as u8, least, &b.values[partial..], &b.below[partial..], near);
        }
        if r >= rerolls {
            b.out[r - rerolls] = graph.fresh_roll_value_lanes(&b.values[partial..]);
        }
    }
}

/// The values from total `lowest` on of the row at `at` (`totals` to a
/// row): past the last total, the last one's (the cap). A function of its
/// own, always inlined, where a closure was called from the kernel
/// without its vector instructions.
#[inline(always)]
fn after_block<const N: usize>(values: &[f64], totals: usize, at: u32, lowest: usize) -> [f64; N] {
    let row = &values[at as usize..][..totals];
    if lowest + N <= totals {
        return row[lowest..][..N].try_into().expect("N lanes");
    }
    // Past the cap every lane is the last total's.
    let mut after = [row[totals - 1]; N];
    if lowest < totals {
        after[..totals - lowest].copy_from_slice(&row[lowest..]);
    }
    after
}

/// The turn played back from its last roll, each roll's value when scored
/// in `b.values[partial..]` (and with the turn's first roll in `b.first`):
/// `rerolls` rounds of the keeps' values and each roll's best keep, then
/// the first roll's average, for each lane.
#[inline(always)]
fn rerolls_then_first_roll(
    graph: &KeepGraph,
    rerolls: u8,
    any_first_roll: bool,
    average: Average,
    b: &mut Buffers,
) -> [f64; W] {
    let partial = graph.partial;
    // Without a first-roll bonus, scoring with the first roll is worth what
    // scoring with any other is, already in `values`.
    if rerolls == 0 && any_first_roll {
        b.values[partial..].copy_from_slice(&b.first);
    }
    for level in 1..=rerolls {
        average.keep_values(graph, &mut b.values);
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

/// [`rerolls_then_first_roll`] with each level's keep values and each
/// roll's best keep (in `b.keep[partial..]`) told to `record` (rerolls
/// left, the buffers). A roll's own option is scoring it now (with the
/// first roll, its bonus too): keeping every die with a reroll left is
/// worth no more, and the same bits, so the values are
/// [`rerolls_then_first_roll`]'s.
#[inline(always)]
fn rerolls_then_first_roll_recording(
    graph: &KeepGraph,
    rerolls: u8,
    any_first_roll: bool,
    average: Average,
    b: &mut Buffers,
    mut record: impl FnMut(u8, &Buffers),
) -> [f64; W] {
    let partial = graph.partial;
    b.stop.copy_from_slice(&b.values[partial..]);
    if rerolls == 0 && any_first_roll {
        b.values[partial..].copy_from_slice(&b.first);
    }
    for level in 1..=rerolls {
        average.keep_values(graph, &mut b.values);
        let own = if level == rerolls && any_first_roll { &b.first } else { &b.stop };
        graph.best_keeps_lanes(&b.values[..partial], own, &mut b.best, &mut b.keep);
        record(level, b);
        let (values, best) = (&mut b.values, &b.best);
        values[partial..].copy_from_slice(&best[partial..]);
    }
    graph.fresh_roll_value_lanes(&b.values[partial..])
}

/// [`rerolls_then_first_roll`] with each roll's best more than `tie` below
/// its best carried beside it (the same maxima), `flag` told each level's
/// rolls (rerolls left, each lane's least gap between the two).
#[inline(always)]
fn rerolls_then_first_roll_proving(
    graph: &KeepGraph,
    rerolls: u8,
    any_first_roll: bool,
    average: Average,
    tie: f64,
    b: &mut Buffers,
    mut flag: impl FnMut(u8, [f64; W], &Buffers),
) -> [f64; W] {
    let partial = graph.partial;
    if rerolls == 0 && any_first_roll {
        b.values[partial..].copy_from_slice(&b.first);
        b.below[partial..].copy_from_slice(&b.first_below);
    }
    let mut least = [f64::INFINITY; W];
    for r in partial..graph.keeps() {
        fold_least_gap(&mut least, &b.values[r], &b.below[r]);
    }
    flag(0, least, b);
    for level in 1..=rerolls {
        average.keep_values(graph, &mut b.values);
        let least = if level == rerolls && any_first_roll {
            graph.best_and_below_over_lanes(&mut b.values, tie, &mut b.below, &b.first, &b.first_below)
        } else {
            graph.best_and_below_lanes(&mut b.values, tie, &mut b.below)
        };
        flag(level, least, b);
    }
    graph.fresh_roll_value_lanes(&b.values[partial..])
}

/// Adds the decisions of the lanes' turn starts with `rerolls` left whose
/// best and best not tied with it (by roll) are within the band; `least`,
/// each lane's least gap, saves reading the rolls where there is none. A
/// row's lowest solved total stands for every total below it too.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn flag_band(
    rows: &[Row],
    lanes: &[Lane],
    band: Band,
    rerolls: u8,
    least: [f64; W],
    best: &[[f64; W]],
    below: &[[f64; W]],
    near: &mut Vec<NearTie>,
) {
    if least.iter().take(lanes.len()).all(|&gap| gap > band.band) {
        return;
    }
    for (roll, (b, x)) in best.iter().zip(below).enumerate() {
        for (l, &(row, upper, own)) in lanes.iter().enumerate() {
            if own && b[l] - x[l] <= band.band {
                let Row { mask, held, same_below, .. } = rows[row];
                let from = if upper == same_below { 0 } else { upper };
                near.extend((from..=upper).map(|upper| NearTie {
                    mask,
                    held,
                    upper: upper as u16,
                    rerolls,
                    roll: roll as u16,
                }));
            }
        }
    }
}

pub mod distribution;
pub mod duel;
pub mod parts;
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
    check_layers(rules)?;
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

/// Refuses a rule set [`solve_by_layer`] does not solve: saved rerolls
/// with a first-roll bonus (which roll is a turn's first depends on the
/// rerolls saved, and the pass over them shares its rolls between counts).
pub fn check_layers(rules: &RuleSet) -> Result<(), NotSolved> {
    if rules.saved_rerolls && rules.boxes.iter().any(|b| b.first_roll > 0) {
        return Err(NotSolved("saved rerolls with a first-roll bonus are not solved".into()));
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
    let values = &solution.values;
    let sections = vec![
        Section::of(&RULES, &shape, rules.to_text().into_bytes()),
        Section::of(&TURN_START, &shape, crate::artifact::le_bytes(values, f64::to_le_bytes)),
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
