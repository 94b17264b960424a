//! The exact distribution of a rule set's final score under the optimal
//! play its table holds: every turn start's chance and score so far carried
//! forward, each turn's outcomes (the box scored and its points) found by
//! following the table's best play through the turn's rolls.

use std::collections::HashMap;

use crate::dice::{multisets, Dice};
use dice_tables_reader::rule_sheet::{RuleChoice, RuleSheet};
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
    let throws: Vec<Vec<(Dice, f64)>> =
        (0..=n).map(|k| multisets(k).into_iter().map(|d| (d, d.probability())).collect()).collect();
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

/// One turn from `state` played as the table plays it: each outcome (box,
/// its points, all the turn scores) with its chance.
fn turn_outcomes(
    sheet: &RuleSheet,
    from: SheetState,
    throws: &[Vec<(Dice, f64)>],
) -> Result<HashMap<(usize, u16, u32), f64>, dice_tables_reader::Error> {
    let plan = sheet.turn_plan(from.open, from.upper, from.held)?;
    let n = throws.len() - 1;
    let mut rolls: Vec<f64> = throws[n].iter().map(|t| t.1).collect();
    let mut outcomes = HashMap::new();
    for rerolls in (0..=sheet.rules().rerolls).rev() {
        let mut next = vec![0.0; rolls.len()];
        for (r, &mass) in rolls.iter().enumerate().filter(|(_, &m)| m > 0.0) {
            let roll = throws[n][r].0;
            match plan.best(roll, rerolls).expect("a box is open") {
                RuleChoice::Score(m) => {
                    *outcomes.entry((m.box_index, m.points, m.scored())).or_insert(0.0) += mass;
                }
                RuleChoice::Keep(keep) => {
                    for (thrown, p) in &throws[n - keep.len()] {
                        let counts: [u8; 6] = std::array::from_fn(|f| keep.counts()[f] + thrown.counts()[f]);
                        let after = Dice::from_counts(counts).expect("as many dice as a roll");
                        next[after.rank()] += mass * p;
                    }
                }
            }
        }
        rolls = next;
    }
    Ok(outcomes)
}
