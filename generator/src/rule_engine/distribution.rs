//! The exact distribution of a rule set's final score under the optimal
//! play its table holds: every turn start's chance and score so far carried
//! forward, each turn's outcomes (the box scored and its points) found by
//! following the table's best play through the turn's rolls.

use dice_tables_reader::rule_sheet::TurnStarts;
use std::collections::{BTreeMap, HashMap};

use crate::dice::{multisets, Dice};
use dice_tables_reader::rule_sheet::{flag_index, held_of_flag, RuleChoice, RuleSheet, Shape};
use dice_tables_reader::rules::SheetState;
use rayon::prelude::*;

use crate::maxi::distribution::ScoreDistribution;

/// A rule set's final score distribution and its upper bonus's chance.
#[derive(Clone, Debug)]
pub struct RuleSetDistribution {
    /// P(final score = s), the bonuses included.
    pub scores: ScoreDistribution,
    /// The chance the upper bonus is paid (`None` without one).
    pub bonus_chance: Option<f64>,
}

/// The exact final score distribution of the table's optimal play from the
/// start, every turn start with boxes open carried forward one layer (one
/// box fewer open) at a time.
pub fn score_distribution(sheet: &RuleSheet) -> Result<RuleSetDistribution, dice_tables_reader::Error> {
    let rules = sheet.rules();
    let cap = rules.upper_bonus.map_or(0, |b| u32::from(b.at));
    let n = usize::from(rules.dice);
    let throws = Throws::of(n);
    let start = SheetState { open: sheet.all_open(), upper: 0, held: 0 };
    let mut layer: HashMap<SheetState, Vec<f64>> = HashMap::from([(start, vec![1.0])]);
    for _ in 0..rules.boxes.len() {
        let states: Vec<(&SheetState, &Vec<f64>)> = layer.iter().collect();
        let outcomes: Vec<Vec<(SheetState, u32, f64)>> = states
            .par_iter()
            .map(|(&from, _)| {
                let turn = turn_outcomes(sheet, from, &throws)?;
                Ok(turn
                    .into_iter()
                    .map(|((b, points, scored), p)| {
                        // Totals past the threshold are one state.
                        let mut after = rules.after_scoring(from, b, points);
                        after.upper = after.upper.min(cap);
                        (after, scored, p)
                    })
                    .collect())
            })
            .collect::<Result<_, dice_tables_reader::Error>>()?;
        let mut next: HashMap<SheetState, Vec<f64>> = HashMap::new();
        for ((_, so_far), turn) in states.iter().zip(outcomes) {
            for (state, scored, p) in turn {
                let to = next.entry(state).or_default();
                let scored = scored as usize;
                if to.len() < so_far.len() + scored {
                    to.resize(so_far.len() + scored, 0.0);
                }
                for (s, q) in so_far.iter().enumerate() {
                    to[s + scored] += q * p;
                }
            }
        }
        layer = next;
    }
    let mut p = Vec::new();
    let mut bonus_chance = 0.0;
    for (SheetState { upper, .. }, so_far) in layer {
        let bonus = match rules.upper_bonus {
            Some(b) if upper >= u32::from(b.at) => {
                bonus_chance += so_far.iter().sum::<f64>();
                usize::from(b.points)
            }
            _ => 0,
        };
        if p.len() < so_far.len() + bonus {
            p.resize(so_far.len() + bonus, 0.0);
        }
        for (s, q) in so_far.iter().enumerate() {
            p[s + bonus] += q;
        }
    }
    let start_value = sheet.turn_start_value(sheet.all_open(), 0, 0)?;
    let scores = ScoreDistribution { p, dropped: 0.0, peak_scores: 0, start_value };
    Ok(RuleSetDistribution { scores, bonus_chance: rules.upper_bonus.map(|_| bonus_chance) })
}

/// Per turn start of the table (in its file's order, as
/// [`Shape::index`](dice_tables_reader::rule_sheet::Shape::index) numbers
/// them) with at most `most_open` boxes open: P(points still to come = x),
/// x = 0, 1, ..., under the table's optimal play, the upper bonus counted
/// at the game's end. What an opponent-aware player takes an opponent's
/// future to be. Empty for the others, and for a state no game reaches
/// (a box holding points while open).
///
/// Mass moves backward, fewest boxes open first: a turn start's
/// distribution is its turn's outcomes' next distributions, each shifted
/// by the points scored and weighted by its chance.
pub fn remaining_distributions(
    sheet: &RuleSheet,
    most_open: usize,
) -> Result<Vec<Box<[f64]>>, dice_tables_reader::Error> {
    let rules = sheet.rules();
    let shape = Shape::of(rules);
    let n = usize::from(rules.dice);
    let throws = Throws::of(n);
    let tracked = sheet.tracked();
    let helds: Vec<u32> = (0..1 << tracked.len()).map(|f| held_of_flag(tracked, f)).collect();
    let mut masks = shape.masks();
    masks.sort_by_key(|m| m.count_ones());
    let mut out: Vec<Box<[f64]>> = vec![Box::new([]); shape.states() as usize];
    let totals = shape.totals;
    for open in 0..=most_open.min(rules.boxes.len()) {
        let layer: Vec<SheetState> = masks
            .iter()
            .filter(|m| m.count_ones() as usize == open)
            .flat_map(|&mask| {
                let helds = helds.iter().filter(move |&&h| h & mask == 0);
                helds.flat_map(move |&held| (0..totals).map(move |upper| SheetState { open: mask, upper, held }))
            })
            .collect();
        let solved: Vec<Box<[f64]>> = layer
            .par_iter()
            .map(|&from| {
                let bonus = rules.upper_bonus.filter(|b| from.upper >= u32::from(b.at)).map_or(0, |b| b.points);
                if from.open == 0 {
                    let mut r = vec![0.0; usize::from(bonus) + 1];
                    r[usize::from(bonus)] = 1.0;
                    return Ok(r.into_boxed_slice());
                }
                let mut r: Vec<f64> = Vec::new();
                for ((b, points, scored), p) in turn_outcomes(sheet, from, &throws)? {
                    let after = rules.after_scoring(from, b, points);
                    let next = &out[shape_index(&shape, tracked, after)];
                    let shift = scored as usize;
                    if r.len() < shift + next.len() {
                        r.resize(shift + next.len(), 0.0);
                    }
                    for (o, &q) in r[shift..].iter_mut().zip(next.iter()) {
                        *o += p * q;
                    }
                }
                Ok(r.into_boxed_slice())
            })
            .collect::<Result<_, dice_tables_reader::Error>>()?;
        for (from, r) in layer.iter().zip(solved) {
            out[shape_index(&shape, tracked, *from)] = r;
        }
    }
    Ok(out)
}

/// Where a turn start is in the file of a table of `shape` tracking `tracked`.
fn shape_index(shape: &Shape, tracked: &[usize], s: SheetState) -> usize {
    shape.index(s.open, s.upper, flag_index(tracked, s.held) as u32).expect("a turn start of the game")
}

/// A turn's dice worked out once: every roll with its chance, and where
/// each keep of fewer dice leads.
struct Throws {
    /// Every roll, by rank, with its chance.
    rolls: Vec<(Dice, f64)>,
    /// Per keep of fewer dice (by graded rank): the rolls it leads to (by
    /// rank), each with its chance.
    after_keep: Vec<Vec<(u32, f64)>>,
}

impl Throws {
    fn of(n: usize) -> Throws {
        let rolls = multisets(n).into_iter().map(|d| (d, d.probability())).collect();
        let keeps: usize = (0..n).map(dice_tables_reader::dice::multiset_count).sum();
        let after_keep = (0..keeps)
            .map(|g| {
                let keep = Dice::graded_unrank(g).expect("a keep of fewer dice than a roll");
                multisets(n - keep.len())
                    .into_iter()
                    .map(|thrown| {
                        let counts: [u8; 6] = std::array::from_fn(|f| keep.counts()[f] + thrown.counts()[f]);
                        let after = Dice::from_counts(counts).expect("as many dice as a roll");
                        (after.rank() as u32, thrown.probability())
                    })
                    .collect()
            })
            .collect();
        Throws { rolls, after_keep }
    }
}

/// One turn from `state` played as the table plays it: each outcome (box,
/// its points, all the turn scores) with its chance, in that order (so
/// that what is summed over them is summed in one order: the tables'
/// bytes are the same from run to run). The mass of the rolls that make
/// the same keep is gathered before it is thrown.
fn turn_outcomes(
    sheet: &RuleSheet,
    from: SheetState,
    throws: &Throws,
) -> Result<BTreeMap<(usize, u16, u32), f64>, dice_tables_reader::Error> {
    let plan = sheet.turn_plan(from.open, from.upper, from.held)?;
    let mut rolls: Vec<f64> = throws.rolls.iter().map(|t| t.1).collect();
    let mut kept = vec![0.0; throws.after_keep.len()];
    let mut outcomes = BTreeMap::new();
    for rerolls in (0..=sheet.rules().rerolls).rev() {
        kept.fill(0.0);
        for (r, &mass) in rolls.iter().enumerate().filter(|(_, &m)| m > 0.0) {
            match plan.best(throws.rolls[r].0, rerolls).expect("a box is open") {
                RuleChoice::Score(m) => {
                    *outcomes.entry((m.box_index, m.points, m.scored())).or_insert(0.0) += mass;
                }
                RuleChoice::Keep(keep) => kept[keep.graded_rank()] += mass,
            }
        }
        rolls.fill(0.0);
        for (g, &mass) in kept.iter().enumerate().filter(|(_, &m)| m > 0.0) {
            for &(r, p) in &throws.after_keep[g] {
                rolls[r as usize] += mass * p;
            }
        }
    }
    Ok(outcomes)
}
