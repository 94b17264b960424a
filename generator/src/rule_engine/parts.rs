//! Every turn start's value in parts, box by box: what each open box (and
//! each bonus) is expected to score from there to the game's end under the
//! solve's best play (see the reader's `rule_sheet::RuleParts`).
//!
//! The play fixed, a part follows the values' own recursion: a turn
//! start's parts are, over the turn's ends (the chance of each roll being
//! scored in each box), the points scored put to their box plus the parts
//! of the turn start that leads to. So each turn start, fewest boxes open
//! first, plays its turn once backward for the best moves (from the
//! solved values) and once forward for the ends' chances; its parts then
//! add up to its value. As the solve does, a row's upper totals go
//! sixteen at a time, each a vector lane, with the solve's arithmetic (so its
//! picks are the solve's, ties included); only the
//! scattering of each lane's chances to its keeps is done lane by lane.

use super::{Average, NotSolved, Solution};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{keep_graph, multisets, KeepGraph, NONE};
use dice_tables_reader::rule_sheet::{
    bonus_part, bonus_parts, held_of_flag, live_parts, part_names, zigzag, Bonus, PartsShape, Shape,
};
use dice_tables_reader::rules::{RuleSet, SheetState};
use rayon::prelude::*;

/// Every turn start's parts: `parts[i * count..][..count]` those of the
/// turn start at `i` of the solution's layout (the table file's order),
/// one per [`part_names`] entry.
pub struct Parts {
    /// Parts per turn start.
    pub count: usize,
    /// The parts, turn start by turn start.
    pub parts: Vec<f64>,
}

/// Refuses, before any work, rules whose parts are not solved: rules that
/// save rerolls (a turn's play then depends on the rerolls saved, which no
/// parts table holds), and rules where a part could pass the 65535 points
/// a parts table stores (a box's most points, the bonuses' most over a game).
pub fn check(rules: &RuleSet) -> Result<(), NotSolved> {
    if rules.saved_rerolls {
        return Err(NotSolved(format!("{} saves rerolls: parts are solved for rule sets that save none", rules.name)));
    }
    let rolls = multisets(usize::from(rules.dice));
    let most_box = (0..rules.boxes.len())
        .map(|b| rolls.iter().map(|d| u64::from(rules.points(b, &d.counts()))).max().unwrap_or(0))
        .max()
        .unwrap_or(0);
    let boxes = rules.boxes.len() as u64;
    let most = [
        most_box,
        rules.upper_bonus.map_or(0, |u| u64::from(u.points)),
        rules.extra_bonus.map_or(0, |e| u64::from(e.points) * boxes),
        rules.boxes.iter().map(|b| u64::from(b.first_roll)).sum(),
    ];
    if let Some(&over) = most.iter().find(|&&m| m > u64::from(u16::MAX)) {
        return Err(NotSolved(format!(
            "{}: a part may reach {over} points, over the 65535 a parts table stores: lower the points",
            rules.name
        )));
    }
    Ok(())
}

/// The parts of every turn start of a solved rule set ([`check`]ed).
pub fn solve(solution: &Solution) -> Result<Parts, NotSolved> {
    solve_on(solution, crate::dice::simd())
}

/// [`solve`] with `simd`'s vector instructions (every level gives the same
/// parts, bit for bit).
pub fn solve_on(solution: &Solution, simd: Simd) -> Result<Parts, NotSolved> {
    let rules = &solution.rules;
    check(rules)?;
    let layout = &solution.layout;
    let count = part_names(rules).len();
    let mut parts = vec![0.0; layout.len() * count];
    let upper_slot = bonus_part(rules, Bonus::Upper);
    // A full sheet: the upper bonus, where the total reached it.
    if let (Some(bonus), Some(slot), Some(at)) = (rules.upper_bonus, upper_slot, layout.at(0)) {
        for row in 0..layout.flags() {
            let i = at + row * layout.totals + usize::from(bonus.at);
            parts[i * count + slot] = f64::from(bonus.points);
        }
    }
    let turn = Turn::new(rules);
    for layer in layout.layers() {
        let masks = &layout.masks[layer];
        let job = Job { solution, parts: &parts, count, simd };
        // A lane per upper total, as the solve has them: without a bonus (a
        // single total) one lane, where sixteen would solve one total and
        // fifteen copies of it.
        let solved: Vec<(u32, Vec<f64>)> = match layout.totals {
            1 => turn.layer_parts::<1>(&job, masks),
            _ => turn.layer_parts::<{ super::W }>(&job, masks),
        };
        for (mask, block) in solved {
            let at = layout.at(mask).expect("a solved mask is a turn start") * count;
            parts[at..at + block.len()].copy_from_slice(&block);
        }
    }
    Ok(Parts { count, parts })
}

/// What every turn of a rule set shares: its rolls, each box's points for
/// each, the keep graph of its dice, and where the bonuses' parts go.
struct Turn<'a> {
    rules: &'a RuleSet,
    graph: &'static KeepGraph,
    rolls: Vec<[u8; 6]>,
    points: Vec<Vec<u16>>,
    bonus_slots: [Option<usize>; 2],
    any_first_roll: bool,
}

/// A way to score a roll: the box, its points and extra bonus, its
/// first-roll bonus (0 where it scores no points), where it leads (which
/// of its row's [`Work::leads`]) and which of the row's distinct moves
/// ([`Work::valued`]) it is.
#[derive(Clone, Copy)]
struct End {
    box_index: usize,
    points: u16,
    bonus: u16,
    first_roll: u16,
    lead: usize,
    value: usize,
}

impl<'a> Turn<'a> {
    fn new(rules: &'a RuleSet) -> Turn<'a> {
        let rolls: Vec<[u8; 6]> = multisets(usize::from(rules.dice)).iter().map(|d| d.counts()).collect();
        let points = rolls.iter().map(|c| (0..rules.boxes.len()).map(|b| rules.points(b, c)).collect()).collect();
        let bonus_slots = [bonus_part(rules, Bonus::Extra), bonus_part(rules, Bonus::FirstRoll)];
        let any_first_roll = rules.boxes.iter().any(|b| b.first_roll > 0);
        Turn { rules, graph: keep_graph(usize::from(rules.dice)), rolls, points, bonus_slots, any_first_roll }
    }

    /// The parts of every turn start of `masks` (one layer), `W` upper
    /// totals at a time.
    fn layer_parts<const W: usize>(&self, job: &Job, masks: &[u32]) -> Vec<(u32, Vec<f64>)> {
        masks
            .par_iter()
            .map_init(|| Work::<W>::new(self.rules, job.count), |work, &mask| (mask, self.mask_parts(job, mask, work)))
            .collect()
    }

    /// The parts of every turn start of `mask`, in the layout's order
    /// (flags, then upper totals), from those of the masks below in `parts`;
    /// an upper total the filled boxes cannot make repeats the one below
    /// (total 0 is always made).
    fn mask_parts<const W: usize>(&self, job: &Job, mask: u32, work: &mut Work<W>) -> Vec<f64> {
        let (rules, layout, count) = (self.rules, &job.solution.layout, job.count);
        let mut block = vec![0.0; layout.block() * count];
        let reachable = rules.reachable_uppers(mask, layout.totals);
        for flag in 0..layout.flags() {
            self.row_moves(job, mask, flag, work);
            // [`W`] totals at a time, as the solve finds their values.
            for lowest in (0..layout.totals).step_by(W) {
                let lanes = W.min(layout.totals - lowest);
                if !reachable[lowest..lowest + lanes].contains(&true) {
                    continue;
                }
                job.simd.run(Group { turn: self, job, lowest, lanes, work: &mut *work });
                for (l, parts) in work.out.chunks_exact(count).take(lanes).enumerate() {
                    let row = (flag * layout.totals + lowest + l) * count;
                    block[row..][..count].copy_from_slice(parts);
                }
            }
            for upper in (1..layout.totals).filter(|&u| !reachable[u]) {
                // No game has these boxes filled for this total (the
                // reader refuses it): repeating the total below costs the
                // compressed table nearly nothing.
                let row = (flag * layout.totals + upper) * count;
                block.copy_within(row - count..row, row);
            }
        }
        block
    }

    /// Every roll's ways to score from `mask` with the tracked boxes of
    /// `flag` holding points, in box order (the first of the best is the
    /// one the lookups pick), into `work.moves`, and where they lead into
    /// `work.leads`.
    fn row_moves<const W: usize>(&self, job: &Job, mask: u32, flag: usize, work: &mut Work<W>) {
        let (rules, layout) = (self.rules, &job.solution.layout);
        let held = held_of_flag(&layout.tracked, flag);
        let allowed = rules.allowed(mask);
        let from = SheetState { open: mask, upper: 0, held };
        let Work { moves, move_ends, leads, lead_of, lead_mass, valued, value_of, .. } = work;
        moves.clear();
        move_ends.clear();
        leads.clear();
        valued.clear();
        lead_of.iter_mut().for_each(Vec::clear);
        for (r, counts) in self.rolls.iter().enumerate() {
            rules.scores_given(mask, allowed, held, counts, &self.points[r], |b, points, bonus| {
                let after = rules.after_scoring(from, b, points);
                let adds = after.upper as usize;
                // Where it leads depends on the box, whether it scores and what it adds.
                let known = &mut lead_of[2 * b + usize::from(points > 0)];
                let lead = match known.iter().find(|&&(a, _)| a == adds) {
                    Some(&(_, lead)) => lead,
                    None => {
                        let at = layout.index(after.open, 0, after.held).expect("a turn start of the game");
                        leads.push((at, adds));
                        known.push((adds, leads.len() - 1));
                        if value_of.len() < leads.len() {
                            value_of.resize_with(leads.len(), Vec::new);
                        }
                        value_of[leads.len() - 1].clear();
                        leads.len() - 1
                    }
                };
                let first_roll = if points > 0 { rules.boxes[b].first_roll } else { 0 };
                // Its value at each total: where it leads and the points now.
                let value = match value_of[lead].iter().find(|&&(p, _)| p == points + bonus) {
                    Some(&(_, value)) => value,
                    None => {
                        valued.push((lead, points + bonus, first_roll));
                        value_of[lead].push((points + bonus, valued.len() - 1));
                        valued.len() - 1
                    }
                };
                moves.push(End { box_index: b, points, bonus, first_roll, lead, value });
            });
            move_ends.push(moves.len());
        }
        if lead_mass.len() < leads.len() {
            lead_mass.resize(leads.len(), [0.0; W]);
        }
    }
}

/// What every turn start of a solve reads: the solution, the parts of the
/// masks below, parts per turn start, and the vector instructions.
struct Job<'a> {
    solution: &'a Solution,
    parts: &'a [f64],
    count: usize,
    simd: Simd,
}

/// The turn starts of one row at upper totals `lowest` to `lowest + lanes`,
/// each a lane (past `lanes`, lanes are worked and dropped), their parts
/// into `work.out`, lane by lane.
struct Group<'a, const W: usize> {
    turn: &'a Turn<'a>,
    job: &'a Job<'a>,
    lowest: usize,
    lanes: usize,
    work: &'a mut Work<W>,
}

impl<const W: usize> Kernel for Group<'_, W> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        let Group { turn, job, lowest, lanes, work } = self;
        turn.best_ends(job, lowest, work);
        turn.best_keeps(work);
        turn.play_forward(job, lowest, lanes, work);
    }
}

impl Turn<'_> {
    /// Each roll's best way to score, for every lane: its value in
    /// `work.stop[0]` and its move (an index of `work.moves`, as f64 so
    /// that the picks are vector blends) in `work.end[0]`; with a
    /// first-roll bonus, the same on the turn's first roll in `[1]`. The
    /// arithmetic is the solve's (the points added to the value after), so
    /// the keeps below are the solve's.
    #[inline(always)]
    fn best_ends<const W: usize>(&self, job: &Job, lowest: usize, work: &mut Work<W>) {
        let (values, totals) = (&job.solution.values, job.solution.layout.totals);
        let Work { moves, move_ends, leads, valued, move_values, first_values, stop, end, .. } = work;
        // Each distinct move's value once, for every roll that has it.
        move_values.resize(valued.len(), [0.0; W]);
        first_values.resize(valued.len(), [0.0; W]);
        for (i, &(lead, points, first_roll)) in valued.iter().enumerate() {
            let (after, adds) = leads[lead];
            let mut v = super::after_block(values, totals, after as u32, lowest + adds);
            let points = f64::from(points);
            for x in &mut v {
                *x += points;
            }
            move_values[i] = v;
            if self.any_first_roll {
                let bonus = f64::from(first_roll);
                for x in &mut v {
                    *x += bonus;
                }
                first_values[i] = v;
            }
        }
        let mut from = 0;
        for (r, &to) in move_ends.iter().enumerate() {
            let (mut best, mut pick) = ([f64::NEG_INFINITY; W], [0.0; W]);
            let (mut first, mut first_pick) = (best, pick);
            for (i, m) in moves[from..to].iter().enumerate() {
                let id = (from + i) as f64;
                let v = &move_values[m.value];
                for l in 0..W {
                    let better = v[l] > best[l];
                    best[l] = if better { v[l] } else { best[l] };
                    pick[l] = if better { id } else { pick[l] };
                }
                if self.any_first_roll {
                    let v = &first_values[m.value];
                    for l in 0..W {
                        let better = v[l] > first[l];
                        first[l] = if better { v[l] } else { first[l] };
                        first_pick[l] = if better { id } else { first_pick[l] };
                    }
                }
            }
            from = to;
            (stop[0][r], end[0][r]) = (best, pick);
            if self.any_first_roll {
                (stop[1][r], end[1][r]) = (first, first_pick);
            }
        }
    }

    /// Backward: each level's best keep of each roll, for every lane
    /// (`work.keep[level]`, rolls from `partial`; [`NONE`]: score it), as
    /// the solve picks them.
    #[inline(always)]
    fn best_keeps<const W: usize>(&self, work: &mut Work<W>) {
        let graph = self.graph;
        let partial = graph.partial;
        let rerolls = usize::from(self.rules.rerolls);
        let first = usize::from(self.any_first_roll);
        let Work { stop, values, best, keep, .. } = work;
        values[partial..].copy_from_slice(&stop[0]);
        for (level, keep) in keep.iter_mut().enumerate().skip(1) {
            Average::TimesSixth.keep_values(graph, values);
            let own = if level == rerolls { &stop[first] } else { &stop[0] };
            graph.best_keeps_lanes(&values[..partial], own, best, keep);
            values[partial..].copy_from_slice(&best[partial..]);
        }
    }

    /// Forward: each roll's chance, level by level, to be scored (later
    /// and on the first roll); its best ends' points to their boxes and its
    /// chance to where they lead; then the parts of where they lead, into
    /// `work.out`.
    #[inline(always)]
    fn play_forward<const W: usize>(&self, job: &Job, lowest: usize, lanes: usize, work: &mut Work<W>) {
        let (graph, count) = (self.graph, job.count);
        let (partial, keeps) = (graph.partial, graph.keeps());
        let rerolls = usize::from(self.rules.rerolls);
        let first = usize::from(self.any_first_roll);
        let Work { moves, move_ends, end, keep, mass, thrown, scored, box_mass, lead_mass, leads, out, .. } = work;
        for (m, &p) in mass.iter_mut().zip(&graph.roll_probability) {
            *m = [p; W];
        }
        // The first roll's own chances only where it has a bonus of its own.
        for s in scored.iter_mut().take(first + 1) {
            s.fill([0.0; W]);
        }
        let none = f64::from(NONE);
        for level in (1..=rerolls).rev() {
            let kind = if level == rerolls { first } else { 0 };
            thrown.fill([0.0; W]);
            for (r, p) in mass.iter().enumerate() {
                let k = &keep[level][partial + r];
                let s = &mut scored[kind][r];
                for l in 0..W {
                    s[l] += only(k[l] == none, p[l]);
                }
                // A roll scored throws nothing: its chance goes past the keeps.
                if k.iter().all(|&x| x == k[0]) {
                    // Most rolls keep the same dice at every lane's total.
                    let to = &mut thrown[if k[0] == none { keeps } else { k[0] as usize }];
                    for l in 0..W {
                        to[l] += p[l];
                    }
                } else {
                    for l in 0..lanes {
                        let to = if k[l] == none { keeps } else { k[l] as usize };
                        thrown[to][l] += p[l];
                    }
                }
            }
            graph.reroll_mass_lanes(&mut thrown[..keeps]);
            mass.copy_from_slice(&thrown[partial..keeps]);
        }
        let kind = if rerolls == 0 { first } else { 0 };
        for (s, p) in scored[kind].iter_mut().zip(mass.iter()) {
            for l in 0..W {
                s[l] += p[l];
            }
        }
        // Each roll's chance to its lanes' best ends: the moves from the
        // least to the most picked (most lanes pick one or two).
        box_mass.fill([0.0; W]);
        lead_mass[..leads.len()].fill([0.0; W]);
        for kind in 0..=first {
            let mut from = 0;
            for (r, &to) in move_ends.iter().enumerate() {
                let (s, e) = (&scored[kind][r], &end[kind][r]);
                let least = e.iter().fold(f64::INFINITY, |a, &x| a.min(x)) as usize;
                let most = e.iter().fold(0.0f64, |a, &x| a.max(x)) as usize;
                debug_assert!(from <= least && most < to);
                for (i, m) in moves.iter().enumerate().take(most + 1).skip(least) {
                    let id = i as f64;
                    let mut w = [0.0; W];
                    for l in 0..W {
                        w[l] = only(e[l] == id, s[l]);
                    }
                    let mut add = |slot: usize, points: u16| {
                        let (b, points) = (&mut box_mass[slot], f64::from(points));
                        for l in 0..W {
                            b[l] += w[l] * points;
                        }
                    };
                    add(m.box_index, m.points);
                    if let Some(slot) = self.bonus_slots[0] {
                        add(slot, m.bonus);
                    }
                    if let (Some(slot), 1) = (self.bonus_slots[1], kind) {
                        add(slot, m.first_roll);
                    }
                    let lead = &mut lead_mass[m.lead];
                    for l in 0..W {
                        lead[l] += w[l];
                    }
                }
                from = to;
            }
        }
        let last = job.solution.layout.totals - 1;
        for (l, out) in out.chunks_exact_mut(count).take(lanes).enumerate() {
            for (o, b) in out.iter_mut().zip(box_mass.iter()) {
                *o = b[l];
            }
            for (&(after, adds), p) in leads.iter().zip(lead_mass.iter()) {
                if p[l] == 0.0 {
                    continue;
                }
                let at = after + (lowest + l + adds).min(last);
                for (o, x) in out.iter_mut().zip(&job.parts[at * count..][..count]) {
                    *o += p[l] * x;
                }
            }
        }
    }
}

/// `x` where `keep` holds, else 0: a mask of its bits rather than a branch,
/// so that a loop of them compiles to vector instructions (a select was
/// compiled to a branch a lane).
#[inline(always)]
fn only(keep: bool, x: f64) -> f64 {
    f64::from_bits(x.to_bits() & (keep as u64).wrapping_neg())
}

/// One turn's buffers, reused from turn start to turn start.
struct Work<const W: usize> {
    /// A row's moves of every roll: roll `r`'s end at `move_ends[r]`.
    moves: Vec<End>,
    move_ends: Vec<usize>,
    /// The row's distinct places a move leads to, (turn start at total 0,
    /// what it adds to the total), and by (box, whether it scores) the
    /// ones found, (adds, lead).
    leads: Vec<(usize, usize)>,
    lead_of: Vec<Vec<(usize, usize)>>,
    /// The row's distinct moves, (lead, points now, first-roll bonus), and
    /// by lead the ones found, (points now, move); their values at the
    /// lanes' totals, and with the first-roll bonus.
    valued: Vec<(usize, u16, u16)>,
    value_of: Vec<Vec<(u16, usize)>>,
    move_values: Vec<[f64; W]>,
    first_values: Vec<[f64; W]>,
    /// Each roll's value scored now and its best move, later and on the first roll.
    stop: [Vec<[f64; W]>; 2],
    end: [Vec<[f64; W]>; 2],
    values: Vec<[f64; W]>,
    best: Vec<[f64; W]>,
    /// Each level's best keeps (level 0 unused).
    keep: Vec<Vec<[f64; W]>>,
    mass: Vec<[f64; W]>,
    /// Every keep's chance to be thrown, and past them, the rolls scored'.
    thrown: Vec<[f64; W]>,
    /// Each roll's chance to be scored, later and on the first roll.
    scored: [Vec<[f64; W]>; 2],
    /// Each part's points scored this turn, and each lead's chance.
    box_mass: Vec<[f64; W]>,
    lead_mass: Vec<[f64; W]>,
    /// The lanes' parts, lane by lane.
    out: Vec<f64>,
}

impl<const W: usize> Work<W> {
    fn new(rules: &RuleSet, count: usize) -> Work<W> {
        let graph = keep_graph(usize::from(rules.dice));
        let rolls = graph.keeps() - graph.partial;
        let lanes = |n: usize| vec![[0.0; W]; n];
        Work {
            moves: Vec::new(),
            move_ends: Vec::with_capacity(rolls),
            leads: Vec::new(),
            lead_of: vec![Vec::new(); 2 * rules.boxes.len()],
            valued: Vec::new(),
            value_of: Vec::new(),
            move_values: Vec::new(),
            first_values: Vec::new(),
            stop: [lanes(rolls), lanes(rolls)],
            end: [lanes(rolls), lanes(rolls)],
            values: lanes(graph.keeps()),
            best: lanes(graph.keeps()),
            keep: vec![lanes(graph.keeps()); usize::from(rules.rerolls) + 1],
            mass: lanes(rolls),
            thrown: lanes(graph.keeps() + 1),
            scored: [lanes(rolls), lanes(rolls)],
            box_mass: lanes(count),
            lead_mass: Vec::new(),
            out: vec![0.0; W * count],
        }
    }
}

/// The zstd level of a parts table's parts: level 19 packed them 0.9 %
/// smaller (8.09 MB the presets' against 8.17) for 2.4 s more of the
/// generator's 2 cores on yahtzee-no-bonus's table alone.
const PARTS_ZSTD_LEVEL: i32 = 12;

/// The finest step a parts table is written in, 2^-9 points (0.002): five
/// times finer than a reason prints its parts (0.01), and each bit finer
/// costs about 7 % more bytes (yatzy's table 9.4 MB at 2^-9, 10.0 at 2^-10).
const FINEST_PARTS_SCALE: u8 = 9;

/// The most fractional bits (up to [`FINEST_PARTS_SCALE`]) with which the
/// largest part still fits a u16: 2^-scale points a step.
fn scale_for(largest: f64) -> Option<u8> {
    const _: () = assert!(FINEST_PARTS_SCALE as u32 <= dice_tables_reader::rule_sheet::MOST_PARTS_SCALE as u32);
    (0..=FINEST_PARTS_SCALE).rev().find(|&s| (largest * f64::from(s).exp2()).round() <= f64::from(u16::MAX))
}

/// The parts table of a solved rule set (`NAME-parts.dtab`): every turn
/// start's parts but the first live one, in the finest fixed point the
/// largest part fits. Refused for rules whose parts are not solved (saved
/// rerolls) or whose largest part does not fit.
pub fn table(solution: &Solution) -> Result<crate::Solved, NotSolved> {
    use crate::artifact::Section;
    use dice_tables_reader::rule_sheet::{parts_stem, RuleParts, PARTS_SECTIONS};
    let rules = &solution.rules;
    let Parts { count, parts } = solve(solution)?;
    let layout = &solution.layout;
    let largest = parts.iter().fold(0.0f64, |m, &x| m.max(x));
    let scale = scale_for(largest).ok_or_else(|| {
        NotSolved(format!("{}: a part of {largest:.1} points is over a parts table's 65535", rules.name))
    })?;
    let shape = PartsShape { shape: Shape::of(rules), bonuses: bonus_parts(rules).len() as u8, scale };
    let unit = f64::from(scale).exp2();
    let mut stored: Vec<u16> = Vec::with_capacity(shape.len() as usize);
    for &mask in &shape.shape.masks() {
        let Some(at) = layout.at(mask) else { continue };
        let live: Vec<usize> = live_parts(rules, mask).skip(1).collect();
        // Each part as its change from the total below ([`zigzag`]).
        let mut below = vec![0u16; live.len()];
        for i in at..at + layout.block() {
            if (i - at) % layout.totals == 0 {
                below.fill(0);
            }
            for (b, &p) in below.iter_mut().zip(&live) {
                // Parts are never negative: every box and bonus pays 0 or more.
                let part = (parts[i * count + p] * unit).round() as u16;
                stored.push(zigzag(part, *b));
                *b = part;
            }
        }
    }
    debug_assert_eq!(stored.len() as u64, shape.len());
    let sections = vec![
        Section::of(&PARTS_SECTIONS[0], &shape, rules.to_text().into_bytes()),
        Section::of(&PARTS_SECTIONS[1], &shape, crate::artifact::le_bytes(&stored, u16::to_le_bytes))
            .level(PARTS_ZSTD_LEVEL),
    ];
    let mut solved = crate::Solved::new::<RuleParts>(&shape, layout.len() as u64, sections);
    solved.table = parts_stem(&rules.name);
    let start = (layout.len() > 0).then(|| {
        let all = (1u32 << rules.boxes.len()) - 1;
        let i = layout.index(all, 0, 0).expect("the start is a turn start");
        let names = part_names(rules);
        let mut largest: Vec<(f64, &str)> =
            parts[i * count..][..count].iter().zip(&names).map(|(&x, n)| (x, n.as_str())).collect();
        largest.sort_by(|a, b| b.0.total_cmp(&a.0));
        largest.iter().take(3).map(|(x, n)| format!("{n} {x:.2}")).collect::<Vec<_>>().join(", ")
    });
    solved.figures.push(crate::Figure {
        key: "parts_scale",
        value: f64::from(scale),
        text: format!("parts in steps of 2^-{scale} points; the start's largest: {}", start.unwrap_or_default()),
    });
    Ok(solved)
}
