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
//! add up to its value.

use super::{NotSolved, Solution};
use crate::dice::{keep_graph, multisets, NONE};
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
        let solved: Vec<(u32, Vec<f64>)> =
            masks.par_iter().map(|&mask| (mask, turn.mask_parts(solution, &parts, count, mask))).collect();
        for (mask, block) in solved {
            let at = layout.at(mask).expect("a solved mask is a turn start") * count;
            parts[at..at + block.len()].copy_from_slice(&block);
        }
    }
    Ok(Parts { count, parts })
}

/// What every turn of a rule set shares: its rolls, each box's points for
/// each, and the keep graph of its dice.
struct Turn<'a> {
    rules: &'a RuleSet,
    rolls: Vec<[u8; 6]>,
    points: Vec<Vec<u16>>,
    bonus_slots: [Option<usize>; 2],
}

/// The best way to score a roll: the box, its points and extra bonus, its
/// first-roll bonus, and where it leads (its place in the layout).
#[derive(Clone, Copy)]
struct End {
    box_index: usize,
    points: u16,
    bonus: u16,
    first_roll: u16,
    after: usize,
}

impl<'a> Turn<'a> {
    fn new(rules: &'a RuleSet) -> Turn<'a> {
        let rolls: Vec<[u8; 6]> = multisets(usize::from(rules.dice)).iter().map(|d| d.counts()).collect();
        let points = rolls.iter().map(|c| (0..rules.boxes.len()).map(|b| rules.points(b, c)).collect()).collect();
        let bonus_slots = [bonus_part(rules, Bonus::Extra), bonus_part(rules, Bonus::FirstRoll)];
        Turn { rules, rolls, points, bonus_slots }
    }

    /// The parts of every turn start of `mask`, in the layout's order
    /// (flags, then upper totals), from those of the masks below in `parts`;
    /// an upper total the filled boxes cannot make repeats the one below
    /// (total 0 is always made).
    fn mask_parts(&self, solution: &Solution, parts: &[f64], count: usize, mask: u32) -> Vec<f64> {
        let (rules, layout) = (self.rules, &solution.layout);
        let mut block = vec![0.0; layout.block() * count];
        let mut work = Work::new(rules);
        let allowed = rules.allowed(mask);
        let reachable = rules.reachable_uppers(mask, layout.totals);
        for flag in 0..layout.flags() {
            let held = held_of_flag(&layout.tracked, flag);
            // Every roll's moves, the same at every upper total but for
            // where they lead: (the move from total 0, what it adds to the total).
            work.moves.clear();
            work.move_ends.clear();
            let from = SheetState { open: mask, upper: 0, held };
            for (r, counts) in self.rolls.iter().enumerate() {
                rules.scores_given(mask, allowed, held, counts, &self.points[r], |b, points, bonus| {
                    let after = rules.after_scoring(from, b, points);
                    let at = layout.index(after.open, 0, after.held).expect("a turn start of the game");
                    let first_roll = if points > 0 { rules.boxes[b].first_roll } else { 0 };
                    let end = End { box_index: b, points, bonus, first_roll, after: at };
                    work.moves.push((end, after.upper as usize));
                });
                work.move_ends.push(work.moves.len());
            }
            for (upper, &reached) in reachable.iter().enumerate() {
                let row = (flag * layout.totals + upper) * count;
                if reached {
                    self.turn_start_parts(solution, parts, count, upper, &mut work, &mut block[row..][..count]);
                } else {
                    // No game has these boxes filled for this total (the
                    // reader refuses it): repeating the total below costs
                    // the compressed table nearly nothing, and the turn no work.
                    block.copy_within(row - count..row, row);
                }
            }
        }
        block
    }

    /// The parts of the turn start at upper total `upper` whose moves
    /// `work` holds, into `out`.
    fn turn_start_parts(
        &self,
        solution: &Solution,
        parts: &[f64],
        count: usize,
        upper: usize,
        work: &mut Work,
        out: &mut [f64],
    ) {
        let (rules, layout) = (self.rules, &solution.layout);
        let graph = keep_graph(usize::from(rules.dice));
        let partial = graph.partial;
        let rerolls = usize::from(rules.rerolls);
        let last = layout.totals - 1;
        // Each roll's best way to score, later in the turn and on its first roll.
        let mut from = 0;
        for r in 0..self.rolls.len() {
            let mut best: [Option<(f64, End)>; 2] = [None, None];
            for &(end, adds) in &work.moves[from..work.move_ends[r]] {
                let end = End { after: end.after + (upper + adds).min(last), ..end };
                let value = f64::from(end.points + end.bonus) + solution.values[end.after];
                // The first roll's bonus counts on the turn's first roll only.
                for (first, best) in best.iter_mut().enumerate() {
                    let end = End { first_roll: if first == 1 { end.first_roll } else { 0 }, ..end };
                    let v = value + f64::from(end.first_roll);
                    // The first of the best in box order, as the lookups pick.
                    if best.is_none_or(|(x, _)| v > x) {
                        *best = Some((v, end));
                    }
                }
            }
            from = work.move_ends[r];
            let [later, first] = best.map(|b| b.expect("an open box takes every roll"));
            (work.later[r], work.first[r]) = (later.1, first.1);
            (work.stop_later[r], work.stop_first[r]) = (later.0, first.0);
        }
        // Backward: each level's best keep of each roll (NONE: score it).
        work.values[partial..].copy_from_slice(&work.stop_later);
        for level in 1..=rerolls {
            graph.keep_values(&mut work.values);
            let own = if level == rerolls { &work.stop_first } else { &work.stop_later };
            graph.best_keeps(&work.values, own, &mut work.scratch, &mut work.roll_value, &mut work.keep[level]);
            work.values[partial..].copy_from_slice(&work.roll_value);
        }
        // Forward: each roll's chance, level by level, to where it is scored.
        let rolls = self.rolls.len();
        work.mass.clear();
        work.mass.extend_from_slice(&graph.roll_probability);
        work.ends.clear();
        for level in (1..=rerolls).rev() {
            work.thrown.iter_mut().for_each(|p| *p = 0.0);
            for r in 0..rolls {
                let p = work.mass[r];
                if p == 0.0 {
                    continue;
                }
                match work.keep[level][r] {
                    NONE => work.ends.push((if level == rerolls { work.first[r] } else { work.later[r] }, p)),
                    keep => work.thrown[usize::from(keep)] += p,
                }
            }
            graph.reroll_mass(&mut work.thrown);
            work.mass.copy_from_slice(&work.thrown[partial..]);
        }
        for r in (0..rolls).filter(|&r| work.mass[r] > 0.0) {
            work.ends.push((if rerolls == 0 { work.first[r] } else { work.later[r] }, work.mass[r]));
        }
        // The ends' points to their boxes, and the parts of where they lead.
        out.fill(0.0);
        work.ends.sort_unstable_by_key(|(end, _)| end.after);
        let mut i = 0;
        while i < work.ends.len() {
            let after = work.ends[i].0.after;
            let mut leads = 0.0;
            while i < work.ends.len() && work.ends[i].0.after == after {
                let (end, p) = work.ends[i];
                out[end.box_index] += p * f64::from(end.points);
                if let Some(slot) = self.bonus_slots[0] {
                    out[slot] += p * f64::from(end.bonus);
                }
                if let Some(slot) = self.bonus_slots[1] {
                    out[slot] += p * f64::from(end.first_roll);
                }
                leads += p;
                i += 1;
            }
            for (o, x) in out.iter_mut().zip(&parts[after * count..][..count]) {
                *o += leads * x;
            }
        }
    }
}

/// One turn's buffers, reused from turn start to turn start.
struct Work {
    later: Vec<End>,
    first: Vec<End>,
    stop_later: Vec<f64>,
    stop_first: Vec<f64>,
    values: Vec<f64>,
    scratch: Vec<(f64, u16)>,
    roll_value: Vec<f64>,
    keep: Vec<Vec<u16>>,
    mass: Vec<f64>,
    thrown: Vec<f64>,
    ends: Vec<(End, f64)>,
    /// A (mask, flag)'s moves of every roll: roll `r`'s end at `move_ends[r]`.
    moves: Vec<(End, usize)>,
    move_ends: Vec<usize>,
}

impl Work {
    fn new(rules: &RuleSet) -> Work {
        let graph = keep_graph(usize::from(rules.dice));
        let rolls = graph.keeps() - graph.partial;
        let none = End { box_index: 0, points: 0, bonus: 0, first_roll: 0, after: 0 };
        Work {
            later: vec![none; rolls],
            first: vec![none; rolls],
            stop_later: vec![0.0; rolls],
            stop_first: vec![0.0; rolls],
            values: vec![0.0; graph.keeps()],
            scratch: vec![(0.0, 0); graph.keeps()],
            roll_value: vec![0.0; rolls],
            keep: vec![vec![NONE; rolls]; usize::from(rules.rerolls) + 1],
            mass: Vec::with_capacity(rolls),
            thrown: vec![0.0; graph.keeps()],
            ends: Vec::new(),
            moves: Vec::new(),
            move_ends: Vec::with_capacity(rolls),
        }
    }
}

/// The most fractional bits (up to the format's limit) with which the
/// largest part still fits a u16: 2^-scale points a step.
fn scale_for(largest: f64) -> Option<u8> {
    (0..=dice_tables_reader::rule_sheet::MOST_PARTS_SCALE as u8)
        .rev()
        .find(|&s| (largest * f64::from(s).exp2()).round() <= f64::from(u16::MAX))
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
        Section::of(&PARTS_SECTIONS[1], &shape, crate::artifact::le_bytes(&stored, u16::to_le_bytes)),
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
