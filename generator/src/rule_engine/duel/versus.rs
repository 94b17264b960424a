//! Two players of a rule set between fixed ways of playing, evaluated
//! exactly: the chance of winning (ties half) of a player A against the
//! max-expected-score player B (the rule set's own table: its lookups'
//! decisions, [`TurnPlan::best`]), A playing the two-player solve's
//! decisions or the best response to B; and how often a game between two
//! perfect players ends on a box that wins at once (Generala's served
//! generala).
//!
//! The same layers as the two-player solve, each pair's values at every
//! stored lead, the mover's way of playing given by the layer: A moves in
//! the even layers when A moves first, in the odd ones when A moves
//! second. B's turn follows B's decision at every roll (a box, or a keep
//! rerolled); the solve's player decides by the solve's values (scoring
//! unless a keep is worth more: the first box of the highest in the order
//! the rules score them, the keep the lattice finds best), its chance that
//! of the option decided (the games, [`super::games`], break exact ties
//! their own way: a tie costs nothing by the solve's values); the best response is the solve with B's turns in
//! place of an opponent's best.

use dice_tables_reader::rule_sheet::TurnStarts;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{movers_outs, pair_blocks, DuelLanes, Job, Layer, MoverTurn, Replay, Settle, Sheet, Sheets, W};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{keep_graph, KeepGraph};
use crate::rule_engine::{Average, Buffers, NotSolved, Rolls};
use dice_tables_reader::dice::{multiset_count, Dice};
use dice_tables_reader::rule_sheet::RuleDuel;
use dice_tables_reader::rule_sheet::{RuleChoice, RuleSheet, TurnPlan};
use dice_tables_reader::rules::{RuleSet, SheetState};
use dice_tables_reader::{Game, TableError};

/// The exact figures of a rule set's two-player game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// The first player's chance when both play perfectly.
    pub first: f64,
    /// The solve's player against the max-expected-score player, moving first.
    pub table_first: f64,
    /// The same, moving second.
    pub table_second: f64,
    /// The best response to the max-expected-score player, moving first.
    pub best_first: f64,
    /// The same, moving second.
    pub best_second: f64,
    /// Where a box wins at once: how often a game between two perfect
    /// players ends on it.
    pub ends_at_once: Option<f64>,
}

impl Versus {
    /// The figures as `key value` lines, the form the simulations read.
    pub fn to_lines(&self) -> String {
        let mut s = format!(
            "first {:.9}\ntable_first {:.9}\ntable_second {:.9}\nbest_first {:.9}\nbest_second {:.9}\n",
            self.first, self.table_first, self.table_second, self.best_first, self.best_second
        );
        if let Some(e) = self.ends_at_once {
            s += &format!("ends_at_once {e:.9}\n");
        }
        s
    }
}

/// The max-expected-score player: the rule set's own table, solved and
/// read back, its decisions as its lookups give them.
pub struct Expected {
    sheet: RuleSheet,
}

impl Expected {
    /// Solves `rules`' own table.
    pub fn new(rules: &RuleSet) -> Result<Expected, NotSolved> {
        let solution = crate::rule_engine::solve(rules)?;
        let bytes = crate::rule_engine::table(&solution).encode();
        let sheet = RuleSheet::from_vec(bytes).map_err(|e| NotSolved(format!("{}: {e}", rules.name)))?;
        Ok(Expected { sheet })
    }

    /// The table's decisions at a turn start, as [`TurnPlan::best`] gives them.
    pub fn plan(&self, sheet: &Sheet) -> TurnPlan {
        self.turn_plan(SheetState { open: sheet.open, upper: u32::from(sheet.upper), held: sheet.held })
    }

    /// [`Expected::plan`] of a sheet as a game has it.
    pub fn turn_plan(&self, s: SheetState) -> TurnPlan {
        self.sheet.turn_plan(s.open, s.upper, s.held).expect("every sheet of the game is in its table")
    }
}

/// What a roll's player does: score a move (its id in the turn), scratch
/// an allowed box for nothing (its place in the turn's zeros), or keep
/// (the keep's graded rank) and reroll.
#[derive(Clone, Copy, Debug)]
enum Choice {
    Move(u16),
    Zero(u16),
    Keep(u16),
}

/// B's decisions in one turn: `levels[r]` by roll rank with `r` rerolls
/// left after a reroll, the last the turn's first roll.
struct Plan {
    levels: Vec<Vec<Choice>>,
}

impl Plan {
    fn of(expected: &TurnPlan, turn: &MoverTurn, dice: usize, rerolls: u8) -> Plan {
        let levels = (0..=rerolls)
            .map(|left| {
                (0..multiset_count(dice))
                    .map(|r| {
                        let roll = Dice::unrank(dice, r).expect("a rank below the count");
                        match expected.best(roll, left).expect("a box is open") {
                            RuleChoice::Keep(k) => Choice::Keep(k.graded_rank() as u16),
                            RuleChoice::Score(m) => match turn.kinds.get(&(m.box_index, m.points, m.bonus)) {
                                Some(&id) => Choice::Move(id),
                                None => {
                                    let z = turn.zero_boxes.iter().position(|&b| b == m.box_index);
                                    Choice::Zero(z.expect("a move not listed scratches an allowed box") as u16)
                                }
                            },
                        }
                    })
                    .collect()
            })
            .collect();
        Plan { levels }
    }
}

/// How the player to move in a layer decides.
#[derive(Clone, Copy)]
enum Decider<'l> {
    /// As the max-expected-score player.
    Expected,
    /// By the two-player solve's values, its layer below given.
    Values(&'l Layer),
    /// The best response: the highest value of the evaluation itself.
    Best,
}

/// What an evaluation's values are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// The mover's chance of winning, a tie half.
    Chance,
    /// The chance that the game ends on a box that wins at once.
    EndsAtOnce,
}

/// One evaluation carried layer by layer: how A plays, A's seat, the layer below.
struct Chain {
    a: Way,
    a_first: bool,
    measure: Measure,
    below: Layer,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// The solve's decisions.
    Table,
    /// The best response to B.
    Best,
}

impl Chain {
    fn new(a: Way, a_first: bool, measure: Measure, sheets: &Sheets) -> Chain {
        let full = sheets.by_size[0].len();
        let ends = match measure {
            Measure::Chance => [0.0, 0.5, 1.0],
            Measure::EndsAtOnce => [0.0; 3],
        };
        Chain {
            a,
            a_first,
            measure,
            below: Layer { n: 0, block: sheets.layer_blocks(0), values: ends.repeat(full * full) },
        }
    }

    /// How layer `n`'s mover decides, `perfect` the solve's layer below.
    fn decider<'l>(&self, n: usize, perfect: Option<&'l Layer>) -> Decider<'l> {
        let values = || Decider::Values(perfect.expect("the solve's layer below"));
        match self.measure {
            Measure::EndsAtOnce => values(),
            Measure::Chance if n.is_multiple_of(2) != self.a_first => Decider::Expected,
            Measure::Chance => match self.a {
                Way::Table => values(),
                Way::Best => Decider::Best,
            },
        }
    }

    /// A's figure from the last layer, whose mover is the first player.
    fn figure(&self, sheets: &Sheets) -> f64 {
        let (_, s) = sheets.start();
        let first = self.below.value(sheets, s, s, 0);
        match (self.measure, self.a_first) {
            (Measure::Chance, false) => 1.0 - first,
            _ => first,
        }
    }
}

/// Every figure of `rules`' two-player game, its table solved here and
/// held in memory (a small game's); `progress(done, total)` counts layers
/// evaluated.
pub fn versus(rules: &RuleSet, progress: &mut dyn FnMut(usize, usize)) -> Result<Versus, NotSolved> {
    let bytes = super::table(rules, &mut |_, _| {})?.encode();
    versus_with(rules, &Expected::new(rules)?, &|| RuleDuel::from_vec(bytes.clone()), None, progress)
}

/// Where an evaluation keeps each pass's latest layer, so that a run
/// stopped part way (Crag's takes hours) goes on from there: `dir` holds
/// one table's evaluation only (the caller names it by the table), a layer
/// saved once `every` has passed since the pass's last save, and a pass's
/// last layer always (a finished pass is then not run again).
pub struct Saves<'a> {
    /// The directory the layers are saved in.
    pub dir: &'a Path,
    /// How long a pass runs between saves.
    pub every: Duration,
}

impl Saves<'_> {
    fn path(&self, pass: usize, n: usize) -> PathBuf {
        self.dir.join(format!("pass{pass}-layer{n}.f64"))
    }

    /// The latest layer saved of pass `pass`, if any; a file of the wrong
    /// length (a save cut short) is passed over.
    fn latest(&self, pass: usize, sheets: &Sheets) -> Result<Option<Layer>, NotSolved> {
        for n in (1..=sheets.top()).rev() {
            let path = self.path(pass, n);
            let Ok(file) = std::fs::File::open(&path) else { continue };
            let block = sheets.layer_blocks(n);
            let len = block[block.len() - 1] as usize;
            if file.metadata().map_err(|e| unsaved(&path, e))?.len() != 8 * len as u64 {
                continue;
            }
            let mut values = Vec::with_capacity(len);
            let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
            let mut word = [0u8; 8];
            for _ in 0..len {
                reader.read_exact(&mut word).map_err(|e| unsaved(&path, e))?;
                values.push(f64::from_le_bytes(word));
            }
            return Ok(Some(Layer::of(sheets, n, values)));
        }
        Ok(None)
    }

    /// Saves `layer` as pass `pass`'s latest (written whole, then renamed
    /// over), and removes the one before.
    fn save(&self, pass: usize, layer: &Layer) -> Result<(), NotSolved> {
        let path = self.path(pass, layer.n);
        let part = path.with_extension("part");
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(self.dir)?;
            let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&part)?);
            for v in &layer.values {
                out.write_all(&v.to_le_bytes())?;
            }
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&part, &path)
        };
        write().map_err(|e| unsaved(&path, e))?;
        for n in 1..layer.n {
            let _ = std::fs::remove_file(self.path(pass, n));
        }
        Ok(())
    }
}

/// A saved layer that could not be read or written, in one line.
fn unsaved(path: &Path, e: std::io::Error) -> NotSolved {
    NotSolved(format!("{}: {e}", path.display()))
}

/// [`versus`] with B `expected` and the game's table as `open()` gives it:
/// the solve's layers are its stored layers, read back, and the others
/// solved from them, as its lookups solve them. Each evaluation is a pass
/// of its own over the layers, holding three at once (the solve's below,
/// its own below and the one it makes), so that a game whose solve only
/// just fits is evaluated too; with `saves`, each pass goes on from its
/// latest saved layer.
pub fn versus_with(
    rules: &RuleSet,
    expected: &Expected,
    open: &dyn Fn() -> Result<RuleDuel, TableError>,
    saves: Option<&Saves>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Versus, NotSolved> {
    let sheets = super::check_duel(rules)?;
    let top = sheets.top();
    let wins = rules.boxes.iter().any(|b| b.wins);
    let evaluation = Evaluation::new(rules, &sheets, expected);
    let replay = Replay::new(rules, &sheets, open);
    let mut chains = vec![
        Chain::new(Way::Table, true, Measure::Chance, &sheets),
        Chain::new(Way::Table, false, Measure::Chance, &sheets),
    ];
    if wins {
        chains.push(Chain::new(Way::Table, true, Measure::EndsAtOnce, &sheets));
    }
    chains.push(Chain::new(Way::Best, true, Measure::Chance, &sheets));
    chains.push(Chain::new(Way::Best, false, Measure::Chance, &sheets));
    let (total, mut done) = (chains.len() * top, 0);
    for (pass, chain) in chains.iter_mut().enumerate() {
        // The solve's play needs the solve's layer below; a measure of it
        // settles where the solve's own layer does.
        let by_solve = chain.a == Way::Table || chain.measure == Measure::EndsAtOnce;
        let mut perfect = Layer::settled(&sheets);
        let mut from = 1;
        if let Some(saved) = saves.map(|s| s.latest(pass, &sheets)).transpose()?.flatten() {
            from = saved.n + 1;
            if by_solve && saved.n < top {
                perfect = replay.at(saved.n)?;
            }
            chain.below = saved;
            done += from - 1;
            progress(done, total);
        }
        let mut saved_at = Instant::now();
        for n in from..=top {
            let solved = match chain.measure {
                Measure::EndsAtOnce => Some(replay.layer(n, &perfect)?),
                Measure::Chance => None,
            };
            let decider = chain.decider(n, by_solve.then_some(&perfect));
            chain.below = evaluation.step(n, &chain.below, decider, chain.measure, solved.as_ref());
            if by_solve && n < top {
                perfect = match solved {
                    Some(layer) => layer,
                    None => replay.next(n, perfect)?,
                };
            }
            if let Some(saves) = saves.filter(|s| n == top || saved_at.elapsed() >= s.every) {
                saves.save(pass, &chain.below)?;
                saved_at = Instant::now();
            }
            done += 1;
            progress(done, total);
        }
    }
    let first = replay.start_chance()?;
    let figure = |i: usize| chains[i].figure(&sheets);
    Ok(Versus {
        first,
        table_first: figure(0),
        table_second: figure(1),
        best_first: figure(chains.len() - 2),
        best_second: figure(chains.len() - 1),
        ends_at_once: wins.then(|| figure(2)),
    })
}

/// What every layer's evaluation shares.
struct Evaluation<'a> {
    rules: &'a RuleSet,
    sheets: &'a Sheets,
    rolls: Rolls,
    graph: &'static KeepGraph,
    simd: Simd,
    expected: &'a Expected,
}

/// Buffers one thread reuses from pair to pair.
struct Scratch {
    b: Buffers,
    /// Per keep: the evaluation's value, the solve's.
    y: Vec<[f64; W]>,
    v: Vec<[f64; W]>,
    /// Per roll, after a reroll then with the turn's first roll: the
    /// solve's value scored now, the evaluation's of that move; per
    /// partial keep the best solve's value of it and the keeps inside it,
    /// the evaluation's of that pick.
    stop: Vec<[f64; W]>,
    stop_y: Vec<[f64; W]>,
    best: Vec<[f64; W]>,
    carry: Vec<[f64; W]>,
    lanes: Vec<([f64; W], [f64; W])>,
    rows: Vec<Vec<f64>>,
    perfect_rows: Vec<Vec<f64>>,
}

impl<'a> Evaluation<'a> {
    fn new(rules: &'a RuleSet, sheets: &'a Sheets, expected: &'a Expected) -> Evaluation<'a> {
        let dice = usize::from(rules.dice);
        Evaluation {
            rules,
            sheets,
            rolls: Rolls::of(rules),
            graph: keep_graph(dice),
            simd: crate::dice::simd(),
            expected,
        }
    }

    /// Layer `n` of an evaluation from its layer `below`, the mover
    /// deciding as `decider` says; `solved` the solve's layer `n`, by
    /// which a measure other than a chance is settled.
    fn step(&self, n: usize, below: &Layer, decider: Decider, measure: Measure, solved: Option<&Layer>) -> Layer {
        let block = self.sheets.layer_blocks(n);
        let mut values = vec![0.0; block[block.len() - 1] as usize];
        let outs = movers_outs(&block, &mut values);
        let any_first_roll = self.rules.boxes.iter().any(|b| b.first_roll > 0 || b.wins);
        let job = Job {
            rules: self.rules,
            sheets: self.sheets,
            rolls: &self.rolls,
            graph: self.graph,
            below,
            simd: self.simd,
            any_first_roll,
            wins: self.rules.boxes.iter().any(|b| b.wins),
        };
        let graph = self.graph;
        outs.into_par_iter().enumerate().for_each_init(
            || Scratch {
                b: Buffers::new(graph, false, false, false),
                y: vec![[0.0; W]; graph.keeps()],
                v: vec![[0.0; W]; graph.keeps()],
                stop: vec![[0.0; W]; 2 * (graph.keeps() - graph.partial)],
                stop_y: vec![[0.0; W]; 2 * (graph.keeps() - graph.partial)],
                best: vec![[0.0; W]; graph.partial],
                carry: vec![[0.0; W]; graph.partial],
                lanes: Vec::new(),
                rows: Vec::new(),
                perfect_rows: Vec::new(),
            },
            |s, (i, out)| self.mover(&job, (n, i), decider, (measure, solved), s, out),
        );
        Layer { n, block, values }
    }

    /// Every pair of mover `i` (layer `n`) into `out`, opponent by opponent.
    fn mover(
        &self,
        job: &Job,
        (n, i): (usize, usize),
        decider: Decider,
        (measure, solved): (Measure, Option<&Layer>),
        s: &mut Scratch,
        out: &mut [f64],
    ) {
        let (k, l) = Sheets::sizes(n);
        let mover = &self.sheets.by_size[k][i];
        let turn = job.mover_turn(mover);
        let rerolls = self.rules.rerolls;
        let plan = matches!(decider, Decider::Expected)
            .then(|| Plan::of(&self.expected.plan(mover), &turn, usize::from(self.rules.dice), rerolls));
        s.rows.resize(turn.next.len(), Vec::new());
        s.perfect_rows.resize(turn.next.len(), Vec::new());
        let chance = measure == Measure::Chance;
        let mut at = 0;
        for j in 0..self.sheets.by_size[l].len() {
            let len = job.rows(&turn, mover, j, job.below, chance, &mut s.rows);
            if let Decider::Values(perfect) = decider {
                job.rows(&turn, mover, j, perfect, true, &mut s.perfect_rows);
            }
            let settle = match measure {
                Measure::Chance => Settle::Own,
                Measure::EndsAtOnce => Settle::By(solved.expect("the solve's layer").leads(self.sheets, i, j)),
            };
            let Scratch { b, y, v, stop, stop_y, best, carry, lanes, rows, perfect_rows } = &mut *s;
            pair_blocks(job.wins, settle, mover.most as usize + 1, &mut out[at..at + len], |first| match decider {
                Decider::Best => self.simd.run(DuelLanes {
                    graph: self.graph,
                    rerolls,
                    any_first_roll: job.any_first_roll,
                    turn: &turn,
                    rows,
                    first,
                    b: &mut *b,
                }),
                Decider::Expected => self.simd.run(PlanLanes {
                    graph: self.graph,
                    rerolls,
                    turn: &turn,
                    plan: plan.as_ref().expect("B's plan"),
                    rows,
                    first,
                    y: &mut *y,
                }),
                Decider::Values(_) => self.simd.run(ChoiceLanes {
                    graph: self.graph,
                    rerolls,
                    turn: &turn,
                    rows,
                    perfect_rows,
                    first,
                    y: &mut *y,
                    v: &mut *v,
                    stop: &mut *stop,
                    stop_y: &mut *stop_y,
                    best: &mut *best,
                    carry: &mut *carry,
                    lanes: &mut *lanes,
                }),
            });
            at += len;
        }
    }
}

/// A move's `W` lanes in `rows` from lead `first` up: with the turn's
/// first roll (`first_roll`) its first-roll bonus, or 1 if it wins at once.
#[inline(always)]
fn move_lanes(turn: &MoverTurn, rows: &[Vec<f64>], first: usize, c: Choice, first_roll: bool) -> [f64; W] {
    let (row, shift) = match c {
        Choice::Move(id) => {
            let m = turn.moves[usize::from(id)];
            match (first_roll, m.wins) {
                (true, true) => return [1.0; W],
                (true, false) => (m.next, m.shift + m.first_shift),
                (false, _) => (m.next, m.shift),
            }
        }
        Choice::Zero(z) => (turn.zeros[usize::from(z)], 0),
        Choice::Keep(_) => unreachable!("a keep is not a move"),
    };
    rows[usize::from(row)][first + shift as usize..][..W].try_into().expect("W lanes")
}

/// B's turn for `W` leads: every roll as B's plan decides it.
struct PlanLanes<'a> {
    graph: &'a KeepGraph,
    rerolls: u8,
    turn: &'a MoverTurn,
    plan: &'a Plan,
    rows: &'a [Vec<f64>],
    first: usize,
    y: &'a mut [[f64; W]],
}

impl Kernel for PlanLanes<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let PlanLanes { graph, rerolls, turn, plan, rows, first, y } = self;
        let partial = graph.partial;
        for level in 0..=usize::from(rerolls) {
            if level > 0 {
                Average::TimesSixth.keep_values(graph, y);
            }
            let first_roll = level == usize::from(rerolls);
            for (r, &c) in plan.levels[level].iter().enumerate() {
                y[partial + r] = match c {
                    Choice::Keep(g) => y[usize::from(g)],
                    _ => move_lanes(turn, rows, first, c, first_roll),
                };
            }
        }
        graph.fresh_roll_value_lanes(&y[partial..])
    }
}

/// The solve's player's turn for `W` leads: at every roll the option of
/// the highest solve's value (`perfect_rows`, `v`), worth its evaluation's
/// (`rows`, `y`): the first move of the highest, else the keep the
/// lattice finds best ([`KeepGraph::best_carrying_lanes`]: scoring now
/// where a keep is worth no more).
struct ChoiceLanes<'a> {
    graph: &'a KeepGraph,
    rerolls: u8,
    turn: &'a MoverTurn,
    rows: &'a [Vec<f64>],
    perfect_rows: &'a [Vec<f64>],
    first: usize,
    y: &'a mut [[f64; W]],
    v: &'a mut [[f64; W]],
    stop: &'a mut [[f64; W]],
    stop_y: &'a mut [[f64; W]],
    best: &'a mut [[f64; W]],
    carry: &'a mut [[f64; W]],
    /// Each move's lanes, then each zero's: the solve's, the evaluation's.
    lanes: &'a mut Vec<([f64; W], [f64; W])>,
}

impl Kernel for ChoiceLanes<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let ChoiceLanes {
            graph,
            rerolls,
            turn,
            rows,
            perfect_rows,
            first,
            y,
            v,
            stop,
            stop_y: keep,
            best,
            carry,
            lanes,
        } = self;
        let partial = graph.partial;
        let (moves, zeros) = (turn.moves.len(), turn.zeros.len());
        let rolls = turn.ends.len();
        // `stop` and `keep` hold per roll the solve's value scored now and
        // its evaluation: after a reroll at `..rolls`, with the turn's first
        // roll at `rolls..` (only if some roll scores otherwise then).
        let any_served = turn.served.iter().any(|&s| s);
        for first_roll in [false, true] {
            if first_roll && !any_served {
                break;
            }
            // Each move's lanes once, then each zero's (after the moves).
            lanes.resize(moves + zeros, ([0.0; W], [0.0; W]));
            for (k, l) in lanes.iter_mut().enumerate() {
                let c = if k < moves { Choice::Move(k as u16) } else { Choice::Zero((k - moves) as u16) };
                *l = (
                    move_lanes(turn, perfect_rows, first, c, first_roll),
                    move_lanes(turn, rows, first, c, first_roll),
                );
            }
            let at = if first_roll { rolls } else { 0 };
            let mut from = 0;
            for (r, &end) in turn.ends.iter().enumerate() {
                if first_roll && !turn.served[r] {
                    (stop[at + r], keep[at + r]) = (stop[r], keep[r]);
                    from = end as usize;
                    continue;
                }
                // The first move of the highest solve's value. No closure:
                // one would be compiled without the kernel's vector
                // instructions.
                let mut high = [f64::NEG_INFINITY; W];
                let mut chosen = [0.0; W];
                let shared = if turn.shared_zero[r] { zeros } else { 0 };
                for i in from..end as usize + shared {
                    let k = if i < end as usize { usize::from(turn.ids[i]) } else { moves + i - end as usize };
                    let (pv, py) = &lanes[k];
                    for l in 0..W {
                        let take = pv[l] > high[l];
                        high[l] = if take { pv[l] } else { high[l] };
                        chosen[l] = if take { py[l] } else { chosen[l] };
                    }
                }
                from = end as usize;
                (stop[at + r], keep[at + r]) = (high, chosen);
            }
        }
        let (later, served) = stop.split_at(rolls);
        let (later_y, served_y) = keep.split_at(rolls);
        let level_stops = |level: usize| match level == usize::from(rerolls) && any_served {
            true => (served, served_y),
            false => (later, later_y),
        };
        let (s, sy) = level_stops(0);
        v[partial..].copy_from_slice(s);
        y[partial..].copy_from_slice(sy);
        for level in 1..=usize::from(rerolls) {
            Average::TimesSixth.keep_values(graph, v);
            Average::TimesSixth.keep_values(graph, y);
            graph.best_carrying_lanes((v, y), level_stops(level), (best, carry));
        }
        graph.fresh_roll_value_lanes(&y[partial..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule_sets::preset;

    /// The best response to B is at least what the solve's player wins
    /// against it, and the solve's player against B at least what it wins
    /// against a perfect player (the perfect player is B's best response).
    #[test]
    fn the_best_response_beats_the_table_which_beats_its_own_game() {
        let rules = super::super::tests::reduced(&preset("forced-yatzy").unwrap(), 0b1_0000_0011_0001);
        let v = versus(&rules, &mut |_, _| {}).unwrap();
        // The first player's chance is the table's (rounded to 1 / UNITS).
        let rounded = 1.0 / f64::from(dice_tables_reader::lead_chances::UNITS);
        assert!(v.best_first + 1e-12 >= v.table_first && v.table_first + rounded >= v.first, "{v:?}");
        assert!(v.best_second + 1e-12 >= v.table_second && v.table_second + rounded >= 1.0 - v.first, "{v:?}");
    }

    /// The layers read back from the table are the solve's: the stored
    /// ones within their rounding (`1 / UNITS`), the others, solved from
    /// them, within it too (a turn's value moves no more than its inputs).
    #[test]
    fn the_table_read_back_is_the_solve() {
        // ones, fours, a straight and generala: a served generala settles
        // no lead, so the leads stored past the points are solved too.
        let rules = super::super::tests::reduced(&preset("generala").unwrap(), 1 | 1 << 3 | 1 << 6 | 1 << 9);
        let sheets = super::super::check_duel(&rules).unwrap();
        let bytes = super::super::table(&rules, &mut |_, _| {}).unwrap().encode();
        let open = || RuleDuel::from_vec(bytes.clone());
        let replay = Replay::new(&rules, &sheets, &open);
        let mut solved = Vec::new();
        super::super::solve(&rules, &sheets, sheets.top(), crate::dice::simd(), &mut |l| solved.push(l.clone()));
        let mut below = Layer::settled(&sheets);
        for (n, layer) in solved.iter().enumerate().skip(1) {
            let again = replay.next(n, below).unwrap();
            assert_eq!(again.values.len(), layer.values.len());
            let most = again.values.iter().zip(&layer.values).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(most <= 1.0 / f64::from(dice_tables_reader::lead_chances::UNITS), "layer {n}: {most}");
            // The stored layers are rounded (not the same bits): the read is not the solve's copy.
            assert!(n % 2 == 0 || most > 0.0, "layer {n}");
            below = again;
        }
    }

    /// An evaluation stopped part way (here by a panic right after a
    /// save, as a killed run would be) goes on from the saved layers, to
    /// the same figures as one run through.
    #[test]
    fn an_evaluation_stopped_part_way_goes_on_from_its_saves() {
        let rules = super::super::tests::reduced(&preset("generala").unwrap(), 1 | 1 << 3 | 1 << 6 | 1 << 9);
        let bytes = super::super::table(&rules, &mut |_, _| {}).unwrap().encode();
        let open = || RuleDuel::from_vec(bytes.clone());
        let expected = Expected::new(&rules).unwrap();
        let whole = versus_with(&rules, &expected, &open, None, &mut |_, _| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("dice-tables-saves-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let saves = Saves { dir: &dir, every: Duration::ZERO };
        // 5 passes of 8 layers: stop in the third pass's middle.
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            versus_with(&rules, &expected, &open, Some(&saves), &mut |done, _| assert!(done < 21, "stopped"))
        }));
        assert!(stopped.is_err());
        let mut dones = Vec::new();
        let again = versus_with(&rules, &expected, &open, Some(&saves), &mut |done, _| dones.push(done)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // Every figure the same bits: the saved layers are the values.
        assert_eq!(again, whole);
        // The first two passes were not run again, nor the third's first
        // five layers; every layer after them was.
        assert_eq!(dones, [8, 16].into_iter().chain(21..=40).collect::<Vec<_>>());
    }

    #[test]
    fn yazy_played_with_a_few_boxes_is_yazy_s_own_evaluation() {
        use crate::games::yazy::{expected, versus as theirs};
        // ones, threes, full-house and yazy: the rule set's evaluations
        // beside yazy's own, B yazy's table's decisions there.
        let universe: u16 = 1 | 1 << 2 | 1 << 8 | 1 << 10;
        let rules = super::super::tests::reduced(&preset("yazy").unwrap(), u32::from(universe));
        let ours = versus(&rules, &mut |_, _| {}).unwrap();
        let b = expected::Expected::new(2);
        for (a_first, table, best) in
            [(true, ours.table_first, ours.best_first), (false, ours.table_second, ours.best_second)]
        {
            let their_table = theirs::against_expected(universe, 2, theirs::Way::Table, a_first, &b);
            let their_best = theirs::against_expected(universe, 2, theirs::Way::Best, a_first, &b);
            assert!((best - their_best).abs() < 1e-12, "{a_first}: best {best} vs {their_best}");
            // yazy's table player takes options within its table's rounding
            // of the best as tied (the first in its order), ours the first
            // of the highest: near ties may go the other way.
            assert!((table - their_table).abs() < 1e-6, "{a_first}: table {table} vs {their_table}");
        }
    }
}
