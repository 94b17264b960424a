//! Any rule set played by two players: the exact chance of winning against
//! a perfect opponent, for every state of both sheets and every lead.
//!
//! Two players alternate whole turns, the first player then the second,
//! until both sheets are full; the higher total (bonuses included) wins
//! and a tie counts half; a box that `wins`, scored with points with a
//! turn's first roll (Generala's served generala), wins at once. At a
//! turn's start the player to move has sheet `M` (open boxes, upper total,
//! boxes holding points: what the rules need), the opponent `O`, and the
//! lead `D`, the mover's points minus the opponent's, each upper bonus
//! counted the moment its total is reached. The mover is the first player
//! when both have as many boxes open, the second when the mover has one
//! more. `V(M, O, D)` is the mover's P(win) + P(tie) / 2 when both play to
//! maximise their own: scoring `s` points (bonuses included) into sheet
//! `M'` leads to `1 - V(O, M', -(D + s))`, a served winning box to 1; with
//! both sheets full it is 1, 1/2 or 0 by the sign of `D`.
//!
//! A sheet's state keeps only what its future depends on: its upper total
//! once the bonus is decided (reached, or out of reach) is one state, and a
//! box's holding points only while an open box needs it. `most(S)` bounds
//! the points sheet `S` can still score; a lead past what the trailing side
//! can make up, `D > most(O)` or `-D > most(M)`, settles the points, so
//! `V` is the same at every such lead: 1 and 0 unless a box that wins at
//! once is still open, then a race for it. Each pair of sheets stores its
//! leads `-most(M) - 1` to `most(O) + 1`, the two settled ends included.
//!
//! The turn is the rules engine's with `1 - V` of the next state in place
//! of points to come; leads are independent, so `W` of them are the lanes
//! of one vector through the keep graph. Leads whose values are within
//! [`NEGLIGIBLE`] of a settled end are taken as it unsolved. Pairs are
//! solved in layers by the boxes open on both sheets: a layer needs only
//! the one below it.

use std::collections::HashMap;

pub use dice_tables_reader::rule_sheet::duel::{Sheet, Sheets};

use rayon::prelude::*;

use super::{rerolls_then_first_roll, Average, Buffers, NotSolved, Rolls, W};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{keep_graph, KeepGraph};
use dice_tables_reader::rule_sheet::{duel_stem, RuleDuel};
use dice_tables_reader::rules::{RuleSet, SheetState};
use dice_tables_reader::TableError;

/// How close to a settled end a value must be for the leads past it to be
/// taken as that end unsolved. The values never decrease in the lead, so
/// those are at least as close, and the error this adds is at most
/// `NEGLIGIBLE` a layer.
pub const NEGLIGIBLE: f64 = 1e-10;

/// One layer's values: per pair of sheets (mover, opponent), in the
/// order of the movers then the opponents, `V` at every lead from
/// `-most(M) - 1` to `most(O) + 1`.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Boxes open on both sheets together.
    pub n: usize,
    /// Per mover (by rank): where its pairs begin; past the last, the end.
    block: Vec<u64>,
    /// The values.
    pub values: Vec<f64>,
}

impl Layer {
    /// Where pair (mover `i`, opponent `j`) begins, and its lowest lead.
    pub fn start(&self, sheets: &Sheets, i: usize, j: usize) -> (usize, i32) {
        let mover = &sheets.by_size[Sheets::sizes(self.n).0][i];
        ((self.block[i] + sheets.pair_offset(self.n, i, j)) as usize, -(mover.most as i32) - 1)
    }

    /// The stored leads of pair (`i`, `j`), lowest first.
    pub fn leads<'a>(&'a self, sheets: &Sheets, i: usize, j: usize) -> &'a [f64] {
        let (k, l) = Sheets::sizes(self.n);
        let len = (sheets.by_size[k][i].most + sheets.by_size[l][j].most + 3) as usize;
        &self.values[self.start(sheets, i, j).0..][..len]
    }

    /// `V` of pair (`i`, `j`) at lead `d` (a settled lead is its end's).
    pub fn value(&self, sheets: &Sheets, i: usize, j: usize, d: i64) -> f64 {
        let leads = self.leads(sheets, i, j);
        let lowest = -i64::from(sheets.by_size[Sheets::sizes(self.n).0][i].most) - 1;
        leads[(d - lowest).clamp(0, leads.len() as i64 - 1) as usize]
    }
}

/// The joint game's size and the memory its solve holds, counted from the
/// rules before any solving.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// Leads stored over every layer.
    pub states: u64,
    /// Bytes the solve holds at most: two neighbouring layers and the
    /// file so far (the stored layers below them, compressed).
    pub memory: u64,
    /// The stored table's values: the second player's turn starts.
    pub stored: u64,
    /// Keep-lattice steps per lead: the keeps of a turn's dice times its rolls.
    pub steps: u64,
}

/// File bytes a stored value takes at most, as measured: Crag's 1.51
/// (Generala's 1.17, Yacht's 0.87, forced Yatzy's 0.31).
const FILE_BYTES_PER_VALUE: f64 = 1.55;

/// Keep-lattice steps a solve works through a second on two cores here,
/// as measured: Yacht's 1.57e9 leads, 462 keeps of 5 dice and 3 rolls a
/// turn, in 573 s.
const STEPS_PER_SECOND: f64 = 3.5e9;

impl Estimate {
    /// The file's size in bytes, at most about.
    pub fn file_bytes(&self) -> f64 {
        self.stored as f64 * FILE_BYTES_PER_VALUE
    }

    /// The solve's time on two cores like these, about.
    pub fn seconds(&self) -> f64 {
        self.states as f64 * self.steps as f64 / STEPS_PER_SECOND
    }

    /// The estimate for people: states, memory, file and time.
    pub fn describe(&self) -> String {
        let bytes = |b: f64| if b >= 1e9 { format!("{:.1} GB", b / 1e9) } else { format!("{:.0} MB", b / 1e6) };
        let time = match self.seconds() {
            s if s >= 1e6 * 3600.0 => format!("{:.1e} hours", s / 3600.0),
            s if s >= 3600.0 => format!("{:.0} hours", s / 3600.0),
            s if s >= 60.0 => format!("{:.0} minutes", s / 60.0),
            s => format!("{:.0} seconds", s.max(1.0)),
        };
        format!(
            "{:.2e} joint states, {} held at once to solve, a file of about {}, about {time} on 2 cores",
            self.states as f64,
            bytes(self.memory as f64),
            bytes(self.file_bytes())
        )
    }
}

/// Counts the joint game of `rules` (its sheets `sheets`).
pub fn estimate(rules: &RuleSet, sheets: &Sheets) -> Estimate {
    let layers: Vec<u64> = (0..=sheets.top()).map(|n| sheets.layer_len(n)).collect();
    // Solving layer n holds layer n - 1 and the file of the odd (stored)
    // layers below n.
    let mut stored = 0;
    let mut memory = 0;
    for n in 1..layers.len() {
        let file = (stored as f64 * FILE_BYTES_PER_VALUE) as u64;
        memory = memory.max((layers[n - 1] + layers[n]) * 8 + file);
        if n % 2 == 1 {
            stored += layers[n];
        }
    }
    let steps = keep_graph(usize::from(rules.dice)).keeps() as u64 * (u64::from(rules.rerolls) + 1);
    Estimate { states: layers.iter().sum(), memory, stored, steps }
}

/// The most memory a solve here may hold (two layers and the file so far).
pub const MOST_MEMORY: u64 = 16 << 30;

/// Refuses, before any work, a rule set whose joint game would not fit:
/// one line with the estimate.
pub fn check_duel(rules: &RuleSet) -> Result<Sheets, NotSolved> {
    if rules.saved_rerolls {
        return Err(NotSolved(format!("{}: two players with saved rerolls are not solved", rules.name)));
    }
    Sheets::check_size(rules).map_err(NotSolved)?;
    let sheets = Sheets::of(rules);
    let e = estimate(rules, &sheets);
    if e.memory > MOST_MEMORY {
        let (name, most) = (&rules.name, MOST_MEMORY >> 30);
        return Err(NotSolved(format!("{name}: {}: over the {most} GB a solve here may hold", e.describe())));
    }
    Ok(sheets)
}

/// Solves every layer from both sheets full up to `top` boxes open on
/// both together (`2 x boxes` for the whole game), calling
/// `each(&layer)` as each is done, in order (only two are held).
pub fn solve(rules: &RuleSet, sheets: &Sheets, top: usize, simd: Simd, each: &mut dyn FnMut(&Layer)) {
    let step = Step::new(rules, sheets, simd);
    let mut below = Layer::settled(sheets);
    each(&below);
    for n in 1..=top.min(2 * rules.boxes.len()) {
        below = step.layer(n, &below);
        each(&below);
    }
}

/// What solving any layer from the one below needs.
pub struct Step<'a> {
    rules: &'a RuleSet,
    sheets: &'a Sheets,
    rolls: Rolls,
    graph: &'static KeepGraph,
    simd: Simd,
}

impl<'a> Step<'a> {
    /// The solve of `rules` (its sheets `sheets`).
    pub fn new(rules: &'a RuleSet, sheets: &'a Sheets, simd: Simd) -> Step<'a> {
        Step { rules, sheets, rolls: Rolls::of(rules), graph: keep_graph(usize::from(rules.dice)), simd }
    }

    /// Layer `n` solved from layer `n - 1`, `below`.
    pub fn layer(&self, n: usize, below: &Layer) -> Layer {
        let Step { rules, sheets, graph, simd, .. } = *self;
        let block = sheets.layer_blocks(n);
        let mut values = vec![0.0; block[block.len() - 1] as usize];
        let outs = movers_outs(&block, &mut values);
        let job = Job {
            rules,
            sheets,
            rolls: &self.rolls,
            graph,
            below,
            simd,
            any_first_roll: rules.boxes.iter().any(|b| b.first_roll > 0 || b.wins),
            wins: rules.boxes.iter().any(|b| b.wins),
        };
        outs.into_par_iter()
            .enumerate()
            .for_each_init(|| Buffers::new(graph, false, false, false), |b, (i, out)| job.mover(n, i, b, out));
        Layer { n, block, values }
    }
}

impl Layer {
    /// Both sheets full: 0, 1/2 or 1 by the sign of the lead.
    pub fn settled(sheets: &Sheets) -> Layer {
        let full = sheets.by_size[0].len();
        Layer { n: 0, block: sheets.layer_blocks(0), values: [0.0, 0.5, 1.0].repeat(full * full) }
    }

    /// Layer `n` of `sheets` with `values` laid out as the solve lays them.
    pub fn of(sheets: &Sheets, n: usize, values: Vec<f64>) -> Layer {
        let block = sheets.layer_blocks(n);
        assert_eq!(block[block.len() - 1] as usize, values.len(), "a layer's values");
        Layer { n, block, values }
    }
}

/// The solve's layers again, from its table: the stored layers (the odd
/// ones) read back, each through a view of its own (no decoded chunk
/// outlives its layer), the others solved from the layer below.
pub struct Replay<'a> {
    rules: &'a RuleSet,
    sheets: &'a Sheets,
    step: Step<'a>,
    open: &'a dyn Fn() -> Result<RuleDuel, TableError>,
}

impl<'a> Replay<'a> {
    /// The solve of `rules` (its sheets `sheets`) from its table as `open()` opens it.
    pub fn new(rules: &'a RuleSet, sheets: &'a Sheets, open: &'a dyn Fn() -> Result<RuleDuel, TableError>) -> Self {
        Replay { rules, sheets, step: Step::new(rules, sheets, crate::dice::simd()), open }
    }

    /// Layer `n` of the solve, `below` layer `n - 1`.
    pub fn layer(&self, n: usize, below: &Layer) -> Result<Layer, NotSolved> {
        match n.is_multiple_of(2) {
            true => Ok(self.step.layer(n, below)),
            false => self.stored(n),
        }
    }

    /// [`Replay::layer`] taking `below` over: a stored layer is read with
    /// `below` already dropped.
    pub fn next(&self, n: usize, below: Layer) -> Result<Layer, NotSolved> {
        match n.is_multiple_of(2) {
            true => Ok(self.step.layer(n, &below)),
            false => {
                drop(below);
                self.stored(n)
            }
        }
    }

    /// Layer `n` of the solve on its own: a stored layer read, another
    /// solved from the stored one below.
    pub fn at(&self, n: usize) -> Result<Layer, NotSolved> {
        match n {
            0 => Ok(Layer::settled(self.sheets)),
            n if n.is_multiple_of(2) => Ok(self.step.layer(n, &self.stored(n - 1)?)),
            n => self.stored(n),
        }
    }

    /// The first player's chance at the game's start, as the table's lookups give it.
    pub fn start_chance(&self) -> Result<f64, NotSolved> {
        let start = SheetState { open: (1 << self.rules.boxes.len()) - 1, upper: 0, held: 0 };
        (self.open)().map_err(|e| self.unread(&e))?.chance(start, start, 0).map_err(|e| self.unread(&e))
    }

    /// Stored layer `n`, read through a view of its own.
    fn stored(&self, n: usize) -> Result<Layer, NotSolved> {
        let duel = (self.open)().map_err(|e| self.unread(&e))?;
        let values = duel.stored_layer(n).expect("an odd layer is stored").map_err(|e| self.unread(&e))?;
        Ok(Layer::of(self.sheets, n, values))
    }

    /// What could not be read from the table, in one line naming it.
    fn unread(&self, e: &dyn std::fmt::Display) -> NotSolved {
        NotSolved(format!("{}: {e}", duel_stem(&self.rules.name)))
    }
}

/// A layer's values (laid out by `block`, as [`Sheets::layer_blocks`]
/// gives it) split by mover, for the movers to be solved in parallel.
fn movers_outs<'a>(block: &[u64], values: &'a mut [f64]) -> Vec<&'a mut [f64]> {
    let mut outs = Vec::with_capacity(block.len() - 1);
    let mut rest = values;
    for w in block.windows(2) {
        let (out, after) = rest.split_at_mut((w[1] - w[0]) as usize);
        outs.push(out);
        rest = after;
    }
    outs
}

/// The two-player table of `rules` (`NAME-duel.dtab`): the second
/// player's turn starts, the layers with an odd count of boxes open, each
/// pair's chances by lead as [`dice_tables_reader::lead_chances`] stores
/// them, in the order they are solved (the layout's); with the figures of
/// the game's start. `progress(done, total)` counts leads solved.
pub fn table(rules: &RuleSet, progress: &mut dyn FnMut(usize, usize)) -> Result<crate::Solved, NotSolved> {
    use dice_tables_reader::rule_sheet::{duel_stem, DuelShape, RuleDuel, Shape, DUEL_SECTIONS};
    let sheets = check_duel(rules)?;
    let e = estimate(rules, &sheets);
    let mut planes = crate::lead_chances::ValuePlanes::new(e.stored as usize);
    let (top, mut done) = (sheets.top(), 0usize);
    let mut start_row = Vec::new();
    solve(rules, &sheets, top, crate::dice::simd(), &mut |layer| {
        done += layer.values.len();
        progress(done, e.states as usize);
        if layer.n == top {
            let (_, s) = sheets.start();
            let most = i64::from(sheets.by_size[sheets.start().0][s].most);
            start_row = (-most..=most).map(|d| layer.value(&sheets, s, s, d)).collect();
        }
        if layer.n % 2 == 0 {
            return;
        }
        let movers = layer.block.len() - 1;
        let opponents = sheets.by_size[Sheets::sizes(layer.n).1].len();
        let starts: Vec<usize> = (0..movers)
            .flat_map(|i| (0..opponents).map(move |j| (i, j)))
            .map(|(i, j)| (layer.block[i] + sheets.pair_offset(layer.n, i, j)) as usize)
            .collect();
        planes.push(&layer.values, &starts);
    });
    let params = DuelShape { shape: Shape::of(rules), values: e.stored };
    let sections = vec![
        crate::artifact::Section::of(&DUEL_SECTIONS[0], &params, rules.to_text().into_bytes()),
        planes.section(&DUEL_SECTIONS[1], &params),
    ];
    let mut solved = crate::Solved::new::<RuleDuel>(&params, e.stored, sections);
    solved.table = duel_stem(&rules.name);
    let most = (start_row.len() / 2) as i32;
    solved.figures = crate::lead_chances::start_figures(&start_row, most);
    solved.figures.push(crate::Figure {
        key: "estimated_seconds",
        value: e.seconds(),
        text: format!("estimated before solving: {}", e.describe()),
    });
    Ok(solved)
}

/// What every mover of a layer shares.
struct Job<'a> {
    rules: &'a RuleSet,
    sheets: &'a Sheets,
    rolls: &'a Rolls,
    graph: &'static KeepGraph,
    below: &'a Layer,
    simd: Simd,
    any_first_roll: bool,
    wins: bool,
}

/// One way to score a roll from a mover's sheet: where it leads (an index
/// into the mover's next sheets), the lead it adds, with the turn's first
/// roll what it adds then (or that it wins at once).
#[derive(Clone, Copy)]
struct Move {
    next: u16,
    shift: u32,
    first_shift: u32,
    wins: bool,
}

/// A mover's turn: its moves, each roll's (`ids[ends[r-1]..ends[r]]`),
/// whether a roll may also scratch any allowed box (the `zeros`, folded
/// once for all such rolls), whether the turn's first roll of it scores
/// otherwise than a later one (a first-roll bonus, a win), and the next
/// sheets (as the opponent's, ranks among the sheets one box smaller).
struct MoverTurn {
    moves: Vec<Move>,
    ids: Vec<u16>,
    ends: Vec<u32>,
    shared_zero: Vec<bool>,
    served: Vec<bool>,
    zeros: Vec<u16>,
    next: Vec<usize>,
    most_shift: u32,
    /// Each move's id by (box, points, extra bonus); each allowed box, in
    /// the order of `zeros`.
    kinds: HashMap<(usize, u16, u16), u16>,
    zero_boxes: Vec<usize>,
}

impl Job<'_> {
    /// The turn of mover sheet `mover`: its moves from every roll.
    fn mover_turn(&self, mover: &Sheet) -> MoverTurn {
        let rules = self.rules;
        let (open, held) = (mover.open, mover.held);
        let allowed = rules.allowed(open);
        let mut turn = MoverTurn {
            moves: Vec::new(),
            ids: Vec::new(),
            ends: Vec::new(),
            shared_zero: Vec::new(),
            served: Vec::new(),
            zeros: Vec::new(),
            next: Vec::new(),
            most_shift: 0,
            kinds: HashMap::new(),
            zero_boxes: Vec::new(),
        };
        let next_of = |sheet: SheetState, turn: &mut MoverTurn| -> u16 {
            let (_, rank) =
                self.sheets.find(sheet.open, sheet.upper, sheet.held).expect("every sheet a move leads to is listed");
            match turn.next.iter().position(|&r| r == rank) {
                Some(i) => i as u16,
                None => {
                    turn.next.push(rank);
                    turn.next.len() as u16 - 1
                }
            }
        };
        let from = SheetState { open, upper: u32::from(mover.upper), held };
        let undecided = rules.upper_bonus.filter(|b| mover.upper < b.at);
        let mut kinds: HashMap<(usize, u16, u16), u16> = HashMap::new();
        for b in (0..rules.boxes.len()).filter(|&b| allowed >> b & 1 == 1) {
            let next = next_of(rules.after_scoring(from, b, 0), &mut turn);
            turn.zeros.push(next);
            turn.zero_boxes.push(b);
        }
        let mut scores: Vec<(usize, u16, u16)> = Vec::new();
        for (counts, points) in self.rolls.counts.iter().zip(&self.rolls.points) {
            scores.clear();
            rules.scores_given(open, allowed, held, counts, points, |b, p, e| scores.push((b, p, e)));
            let placed = scores.iter().fold(0u32, |m, &(b, _, _)| m | 1 << b);
            let shared = placed == allowed && scores.iter().all(|&(_, _, e)| e == 0);
            for &(b, p, e) in scores.iter().filter(|&&(_, p, _)| !shared || p > 0) {
                let id = match kinds.get(&(b, p, e)) {
                    Some(&id) => id,
                    None => {
                        let after = rules.after_scoring(from, b, p);
                        let crossing = undecided.filter(|u| after.upper >= u32::from(u.at)).map_or(0, |u| u.points);
                        let shift = u32::from(p) + u32::from(e) + u32::from(crossing);
                        let scored = p > 0;
                        let first_shift = if scored { u32::from(rules.boxes[b].first_roll) } else { 0 };
                        let next = next_of(after, &mut turn);
                        turn.most_shift = turn.most_shift.max(shift + first_shift);
                        turn.moves.push(Move { next, shift, first_shift, wins: scored && rules.boxes[b].wins });
                        kinds.insert((b, p, e), turn.moves.len() as u16 - 1);
                        turn.moves.len() as u16 - 1
                    }
                };
                turn.ids.push(id);
            }
            let ids = &turn.ids[turn.ends.last().map_or(0, |&e| e as usize)..];
            let served =
                ids.iter().any(|&id| turn.moves[usize::from(id)].first_shift > 0 || turn.moves[usize::from(id)].wins);
            turn.ends.push(turn.ids.len() as u32);
            turn.shared_zero.push(shared);
            turn.served.push(served);
        }
        turn.kinds = kinds;
        turn
    }

    /// Every pair of mover `i` (layer `n`) into `out`, opponent by opponent.
    fn mover(&self, n: usize, i: usize, b: &mut Buffers, out: &mut [f64]) {
        let (k, l) = Sheets::sizes(n);
        let mover = &self.sheets.by_size[k][i];
        let turn = self.mover_turn(mover);
        let mut rows: Vec<Vec<f64>> = vec![Vec::new(); turn.next.len()];
        let mut at = 0;
        for j in 0..self.sheets.by_size[l].len() {
            let len = self.rows(&turn, mover, j, self.below, true, &mut rows);
            pair_blocks(self.wins, Settle::Own, mover.most as usize + 1, &mut out[at..at + len], |first| {
                self.simd.run(DuelLanes {
                    graph: self.graph,
                    rerolls: self.rules.rerolls,
                    any_first_roll: self.any_first_roll,
                    turn: &turn,
                    rows: &rows,
                    first,
                    b: &mut *b,
                })
            });
            at += len;
        }
    }

    /// Per next sheet of `turn` (from `mover`'s sheet, opponent `j`): a
    /// row of what `below` (the layer below, the opponent to move) is worth
    /// to the mover at its lead after scoring `x = lowest + y`, `y` from 0
    /// past the last lane's reach: `1 - V(O, next, -x)` for a chance
    /// (`complement`), else the value itself. Returns the pair's length.
    fn rows(
        &self,
        turn: &MoverTurn,
        mover: &Sheet,
        j: usize,
        below: &Layer,
        complement: bool,
        rows: &mut [Vec<f64>],
    ) -> usize {
        let opponent = &self.sheets.by_size[Sheets::sizes(below.n + 1).1][j];
        let len = (mover.most + opponent.most + 3) as usize;
        let lowest = -i64::from(mover.most) - 1;
        let reach = len.max(W) + W + turn.most_shift as usize;
        for (row, &next) in rows.iter_mut().zip(&turn.next) {
            let stored = below.leads(self.sheets, j, next);
            let below_lowest = -i64::from(opponent.most) - 1;
            row.clear();
            row.extend((0..reach as i64).map(|y| {
                let e = -(lowest + y);
                let v = stored[(e - below_lowest).clamp(0, stored.len() as i64 - 1) as usize];
                if complement {
                    1.0 - v
                } else {
                    v
                }
            }));
        }
        len
    }
}

/// Where a pair's leads are taken as its settled ends unsolved.
#[derive(Clone, Copy)]
enum Settle<'a> {
    /// Where its own values come within [`NEGLIGIBLE`] of an end's (a chance).
    Own,
    /// Where these values of the same pair (the solve's) do: a measure of
    /// the solve's play, settled where that play is.
    By(&'a [f64]),
}

/// One pair's values at every stored lead into `out`, lead 0 at `zero`,
/// `W` leads a block from `solve(first)` (the block's first lead; the last
/// block ends at the last lead): from the block holding lead 0 up until
/// one ends settled (see [`Settle`]), then down likewise, the leads past
/// each taken as its end. The settled ends are 0 and 1 unless a box that
/// wins at once is open (`wins`), or settled by another's values: then
/// solved first.
fn pair_blocks(wins: bool, settle: Settle, zero: usize, out: &mut [f64], mut solve: impl FnMut(usize) -> [f64; W]) {
    let len = out.len();
    let blocks = len.div_ceil(W);
    let first_of = |k: usize| (k * W).min(len.saturating_sub(W));
    let mut solve = |k: usize, out: &mut [f64]| {
        let first = first_of(k);
        let lanes = solve(first);
        let end = len.min(first + W);
        out[first..end].copy_from_slice(&lanes[..end - first]);
    };
    let ends_first = wins || matches!(settle, Settle::By(_));
    let (bottom, top) = match ends_first {
        true => {
            solve(blocks - 1, out);
            solve(0, out);
            (out[0], out[len - 1])
        }
        false => (0.0, 1.0),
    };
    // Whether lead `i` is within NEGLIGIBLE of the top end, the bottom end.
    let near = |out: &[f64], i: usize, up: bool| {
        let values = match settle {
            Settle::Own => out,
            Settle::By(values) => values,
        };
        let (end, v) = (if up { values[len - 1] } else { values[0] }, values[i]);
        match (settle, up) {
            (Settle::Own, true) => v >= top - NEGLIGIBLE,
            (Settle::Own, false) => v <= bottom + NEGLIGIBLE,
            (Settle::By(_), true) => v >= end - NEGLIGIBLE,
            (Settle::By(_), false) => v <= end + NEGLIGIBLE,
        }
    };
    let solved_first = |k: usize| ends_first && (k == 0 || k == blocks - 1);
    let zero = (zero / W).min(blocks - 1);
    for k in zero..blocks {
        if !solved_first(k) {
            solve(k, out);
        }
        let end = len.min(first_of(k) + W);
        if end < len && near(out, end - 1, true) {
            out[end..].fill(top);
            break;
        }
    }
    for k in (0..zero).rev() {
        if !solved_first(k) {
            solve(k, out);
        }
        let first = first_of(k);
        if first > 0 && near(out, first, false) {
            out[..first].fill(bottom);
            break;
        }
    }
}

/// The turn of `W` leads of one pair, from stored lead `first` up: every
/// roll's value scored now (the best of its moves, each `1 - V` of the
/// next state at the lead it makes), then the keep graph's passes, as the
/// rules engine plays a turn.
struct DuelLanes<'a> {
    graph: &'a KeepGraph,
    rerolls: u8,
    any_first_roll: bool,
    turn: &'a MoverTurn,
    rows: &'a [Vec<f64>],
    first: usize,
    b: &'a mut Buffers,
}

impl Kernel for DuelLanes<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let DuelLanes { graph, rerolls, any_first_roll, turn, rows, first, b } = self;
        let lanes = |row: u16, shift: u32| -> [f64; W] {
            rows[usize::from(row)][first + shift as usize..][..W].try_into().expect("W lanes")
        };
        let none = [f64::NEG_INFINITY; W];
        let mut zero = none;
        for &z in &turn.zeros {
            fold_max(&mut zero, &lanes(z, 0));
        }
        b.moves.resize(turn.moves.len(), none);
        b.first_moves.resize(if any_first_roll { turn.moves.len() } else { 0 }, none);
        for (id, m) in turn.moves.iter().enumerate() {
            b.moves[id] = lanes(m.next, m.shift);
            if m.wins {
                b.first_moves[id] = [1.0; W];
            } else if m.first_shift > 0 {
                b.first_moves[id] = lanes(m.next, m.shift + m.first_shift);
            } else if any_first_roll {
                b.first_moves[id] = b.moves[id];
            }
        }
        let mut from = 0;
        for (r, &end) in turn.ends.iter().enumerate() {
            let ids = &turn.ids[from..end as usize];
            let mut stop = if turn.shared_zero[r] { zero } else { none };
            let mut served = stop;
            for &id in ids {
                fold_max(&mut stop, &b.moves[usize::from(id)]);
            }
            // Only a roll a first-roll bonus or a win scores otherwise
            // with the turn's first roll is folded again.
            if turn.served[r] {
                for &id in ids {
                    fold_max(&mut served, &b.first_moves[usize::from(id)]);
                }
            } else {
                served = stop;
            }
            from = end as usize;
            b.values[graph.partial + r] = stop;
            b.first[r] = served;
        }
        rerolls_then_first_roll(graph, rerolls, any_first_roll, Average::TimesSixth, b)
    }
}

/// `best` lane by lane the larger of itself and `lanes`.
#[inline(always)]
fn fold_max(best: &mut [f64; W], lanes: &[f64; W]) {
    for (b, &v) in best.iter_mut().zip(lanes) {
        *b = if v > *b { v } else { *b };
    }
}

pub mod games;
pub mod versus;

#[cfg(test)]
mod tests;
