//! The exact distribution of a Maxi Yatzy game's final score under
//! max-expected-score play without saved rolls: the play of the tables'
//! lookups, each decision the first in their tie order (boxes in mask-bit
//! order, then larger keeps first) within [`EXACT_TIE`] of the best, from
//! the exact values.
//!
//! Mass moves forward through the game, as for yatzy: per turn-start state,
//! the chance of each score so far; each state's turn, played by its
//! decisions, sends it to the next states shifted by the points scored.
//! Up to 1.5 billion scores a layer could have a chance, so states are merged where
//! their futures are the same: every upper total from which the bonus is
//! out of reach (at or below `stored_totals`' flat one) is one state, and
//! so is every total at or over the bonus. Scores so far count the upper
//! points themselves, so nothing is lost by merging.
//!
//! With saved rolls every state is split again by the rerolls saved (the
//! swedish table stores 19 times the finnish one's values): a forward pass
//! would hold some 14 billion scores, 110 GB, so only games without them
//! are solved here.

use dice_tables_reader::maxi::{partial_keeps_in_tie_order, points, stored_totals, Rules, BOXES};
use dice_tables_reader::sheet::EXACT_TIE;
use std::ops::Range;

use rayon::prelude::*;

use super::{solve_layers, Layer};
use crate::dice::{multisets, FACES, SIX_DICE};

/// P(final score = s) for s from 0, with what building it dropped.
#[derive(Clone, Debug)]
pub struct ScoreDistribution {
    /// P(final score = s), s = 0, 1, ...
    pub p: Vec<f64>,
    /// The chance dropped with scores under the cutoff at either end of a
    /// state's scores (0 with no cutoff).
    pub dropped: f64,
    /// The most scores held at once: two layers' worth.
    pub peak_scores: usize,
    /// The game's expected score from the solve (the distribution's mean
    /// is this when every decision's mass went where it sends it).
    pub start_value: f64,
}

impl ScoreDistribution {
    /// The mean of `p`.
    pub fn mean(&self) -> f64 {
        self.p.iter().enumerate().map(|(s, p)| s as f64 * p).sum()
    }

    /// The standard deviation of `p`.
    pub fn sd(&self) -> f64 {
        let mean = self.mean();
        self.p.iter().enumerate().map(|(s, p)| (s as f64 - mean).powi(2) * p).sum::<f64>().sqrt()
    }

    /// The least score `s` with P(score <= s) >= `q`.
    pub fn quantile(&self, q: f64) -> usize {
        let mut below = 0.0;
        for (s, p) in self.p.iter().enumerate() {
            below += p;
            if below >= q {
                return s;
            }
        }
        self.p.len() - 1
    }

    /// P(score >= `s`).
    pub fn at_least(&self, s: usize) -> f64 {
        self.p.iter().skip(s).sum::<f64>().max(0.0)
    }

    /// The figures a report gives, a line each: the mean beside the start
    /// value, the spread, the quantiles and the chances of high scores.
    pub fn summary(&self) -> Vec<String> {
        let sum: f64 = self.p.iter().sum();
        let mode = (0..self.p.len()).max_by(|&a, &b| self.p[a].total_cmp(&self.p[b])).unwrap_or(0);
        let lowest = self.p.iter().position(|&p| p > 0.0).unwrap_or(0);
        let quantiles: Vec<String> = [1, 5, 10, 25, 50, 75, 90, 95, 99]
            .iter()
            .map(|&q| format!("{q}% {}", self.quantile(f64::from(q) / 100.0)))
            .collect();
        let tails: Vec<String> = [300, 400, 500, 600]
            .iter()
            .filter(|&&s| s < self.p.len())
            .map(|&s| format!("P(>= {s}) {:.6e}", self.at_least(s)))
            .collect();
        vec![
            format!(
                "mean {:.9} (the start value {:.9}), sd {:.4}, total chance {sum:.15}, chance dropped {:e}",
                self.mean(),
                self.start_value,
                self.sd(),
                self.dropped
            ),
            format!("mode {mode} ({:.5} %); scores {lowest} to {}", 100.0 * self.p[mode], self.p.len() - 1),
            format!("quantiles {}", quantiles.join(", ")),
            tails.join(", "),
        ]
    }

    /// `score,p,p_at_least` with a line per score.
    pub fn csv(&self) -> String {
        // The tails summed from the top, so that the smallest keep their digits.
        let mut at_least = vec![0.0; self.p.len() + 1];
        for s in (0..self.p.len()).rev() {
            at_least[s] = at_least[s + 1] + self.p[s];
        }
        let mut csv = String::from("score,p,p_at_least\n");
        for (s, p) in self.p.iter().enumerate() {
            csv += &format!("{s},{p:e},{:e}\n", at_least[s]);
        }
        csv
    }
}

/// One merged state's chances of each score so far: `p[i]` is P(score so
/// far = `lo + i`), summing to the chance of reaching the state.
#[derive(Clone, Debug)]
struct Scores {
    /// The upper total the state stands for (the flat one, or the cap).
    upper: u8,
    lo: u32,
    p: Vec<f64>,
}

/// A turn's outcome: (box, points, chance).
type Outcome = (u8, u8, f64);

/// A batch of masks' turns' outcomes: per mask, per state.
type BatchOutcomes = Vec<Vec<Vec<Outcome>>>;

/// The state an upper total `u` of a mask is merged into, given the
/// mask's flat total (`stored_totals`).
fn merged_total(flat: u8, u: usize, bonus_at: u8) -> u8 {
    if u >= usize::from(bonus_at) {
        bonus_at
    } else {
        (u as u8).max(flat)
    }
}

/// The final score's distribution under `rules` (without saved rolls) in
/// the game played with the boxes of `universe`. Scores whose chance is
/// at most `cutoff` at either end of a state's scores are dropped and
/// their chance counted in `dropped` (0: only chances that are exactly 0).
/// Calls `progress(open, boxes, scores)` as each layer is reached.
///
/// # Panics
///
/// When `rules` save rolls.
pub fn score_distribution(
    rules: Rules,
    universe: u32,
    cutoff: f64,
    mut progress: impl FnMut(usize, usize, usize),
) -> ScoreDistribution {
    assert!(!rules.saved_rolls, "the score distribution is solved without saved rolls");
    let layers = solve_layers(rules, universe);
    let boxes = universe.count_ones() as usize;
    let turns = Turns::new(rules);
    let bonus_at = rules.bonus_at;
    let mut scores: Vec<Vec<Scores>> = vec![vec![Scores {
        upper: merged_total(stored_totals(universe, bonus_at).0, 0, bonus_at),
        lo: 0,
        p: vec![1.0],
    }]];
    let (mut dropped, mut peak) = (0.0, 1);
    let mut index = vec![0u32; 1 << BOXES.len()];
    for open in (1..=boxes).rev() {
        let (from, to) = (&layers[open], &layers[open - 1]);
        let held: usize = scores.iter().flatten().map(|s| s.p.len()).sum();
        progress(open, boxes, held);
        for (i, &m) in to.masks.iter().enumerate() {
            index[m as usize] = i as u32;
        }
        // Each next mask's flat total, found once rather than per outcome.
        let flats: Vec<u8> = to.masks.iter().map(|&m| stored_totals(m, bonus_at).0).collect();
        let mut next: Vec<Vec<Scores>> = vec![Vec::new(); to.masks.len()];
        // Turns are played in parallel a batch of masks at a time; their
        // outcomes are added in mask order, beside the next batch's turns,
        // so the sums do not depend on the thread count.
        let batches: Vec<Range<usize>> =
            (0..from.masks.len()).step_by(256).map(|s| s..(s + 256).min(from.masks.len())).collect();
        let play = |range: &Range<usize>| -> BatchOutcomes {
            range
                .clone()
                .into_par_iter()
                .map_init(Workspace::new, |ws, i| {
                    let mask = from.masks[i];
                    scores[i].iter().map(|s| turns.outcomes(mask, usize::from(s.upper), to, &index, ws)).collect()
                })
                .collect()
        };
        let mut add = |range: Range<usize>, outcomes: BatchOutcomes| {
            for (i, per_state) in range.zip(outcomes) {
                let mask = from.masks[i];
                for (state, outcomes) in scores[i].iter().zip(per_state) {
                    for (b, points, chance) in outcomes {
                        let after = mask & !(1 << b);
                        let upper =
                            usize::from(state.upper) + if usize::from(b) < FACES { usize::from(points) } else { 0 };
                        let at = index[after as usize] as usize;
                        let target = target_scores(&mut next[at], merged_total(flats[at], upper, bonus_at));
                        target.add_shifted(state, u32::from(points), chance);
                    }
                }
            }
        };
        let mut pending: Option<(Range<usize>, BatchOutcomes)> = None;
        for range in &batches {
            let (played, ()) = rayon::join(
                || play(range),
                || {
                    if let Some((r, o)) = pending.take() {
                        add(r, o)
                    }
                },
            );
            pending = Some((range.clone(), played));
        }
        if let Some((r, o)) = pending.take() {
            add(r, o);
        }
        for s in next.iter_mut().flatten() {
            dropped += s.trim(cutoff);
        }
        let made: usize = next.iter().flatten().map(|s| s.p.len()).sum();
        peak = peak.max(held + made);
        scores = next;
    }
    // No box open: the upper bonus, if earned, is paid now.
    let mut last = Scores { upper: bonus_at, lo: 0, p: Vec::new() };
    for s in scores.iter().flatten() {
        let bonus = if s.upper >= bonus_at { u32::from(rules.bonus) } else { 0 };
        last.add_shifted(s, bonus, 1.0);
    }
    let mut p = vec![0.0; last.lo as usize];
    p.extend(last.p);
    let start = &layers[boxes];
    ScoreDistribution { p, dropped, peak_scores: peak, start_value: start.get(0, 0, 0) }
}

/// The scores of the state merged at `upper` among a mask's, made empty if new.
fn target_scores(states: &mut Vec<Scores>, upper: u8) -> &mut Scores {
    let at = match states.binary_search_by_key(&upper, |s| s.upper) {
        Ok(at) => at,
        Err(at) => {
            states.insert(at, Scores { upper, lo: 0, p: Vec::new() });
            at
        }
    };
    &mut states[at]
}

impl Scores {
    /// Adds `chance` times `from`'s scores shifted up by `shift`.
    fn add_shifted(&mut self, from: &Scores, shift: u32, chance: f64) {
        let (lo, hi) = (from.lo + shift, from.lo + shift + from.p.len() as u32);
        if self.p.is_empty() {
            self.lo = lo;
        }
        let (new_lo, new_hi) = (self.lo.min(lo), (self.lo + self.p.len() as u32).max(hi));
        if new_lo < self.lo {
            let mut grown = Vec::with_capacity((new_hi - new_lo) as usize);
            grown.resize((self.lo - new_lo) as usize, 0.0);
            grown.extend_from_slice(&self.p);
            self.p = grown;
            self.lo = new_lo;
        }
        if (new_hi - self.lo) as usize > self.p.len() {
            self.p.reserve_exact((new_hi - self.lo) as usize - self.p.len());
            self.p.resize((new_hi - self.lo) as usize, 0.0);
        }
        for (o, &q) in self.p[(lo - self.lo) as usize..].iter_mut().zip(&from.p) {
            *o += chance * q;
        }
    }

    /// Drops the scores at either end whose chance is at most `cutoff`;
    /// returns their chance.
    fn trim(&mut self, cutoff: f64) -> f64 {
        let first = self.p.iter().position(|&q| q > cutoff).unwrap_or(self.p.len());
        let last = self.p.iter().rposition(|&q| q > cutoff).map_or(first, |l| l + 1).max(first);
        let dropped = self.p[..first].iter().chain(&self.p[last..]).sum();
        self.p.truncate(last);
        self.p.drain(..first);
        self.p.shrink_to_fit();
        self.lo += first as u32;
        dropped
    }
}

/// The rolls of six dice, their points and keeps, built once.
struct Turns {
    rules: Rules,
    /// Per roll, its points in every box.
    points: Vec<[u8; 20]>,
    /// Per roll, its partial keeps' graded ranks in the lookups' tie order.
    keeps: Vec<arrayvec::ArrayVec<u16, 63>>,
}

/// Buffers one thread reuses from turn to turn.
struct Workspace {
    /// Per roll, each open box's value when scored now (in `open` order).
    scored: Vec<f64>,
    /// Per roll, the best of those.
    stop: Vec<[f64; 1]>,
    scratch: Vec<[f64; 1]>,
    /// Keep values, then roll values (the keep graph's layout).
    values: Vec<[f64; 1]>,
    /// Per rerolls left (0 to 2) and roll: a box's bit, or `KEEP` plus a keep's graded rank.
    decisions: [Vec<u16>; 3],
    thrown: Vec<f64>,
    /// Per (box, points): the chance the turn ends so.
    ends: Vec<f64>,
}

/// A decision code past the boxes: a keep.
const KEEP: u16 = 64;

impl Workspace {
    fn new() -> Workspace {
        let graph = &*SIX_DICE;
        let rolls = graph.keeps() - graph.partial;
        Workspace {
            scored: Vec::new(),
            stop: vec![[0.0]; rolls],
            scratch: vec![[0.0]; graph.partial],
            values: vec![[0.0]; graph.keeps()],
            decisions: std::array::from_fn(|_| vec![0; rolls]),
            thrown: vec![0.0; graph.keeps()],
            ends: vec![0.0; BOXES.len() * 101],
        }
    }
}

impl Turns {
    fn new(rules: Rules) -> Turns {
        let rolls = multisets(6);
        let points = rolls.iter().map(|d| std::array::from_fn(|b| points(&d.counts(), b))).collect();
        Turns { rules, points, keeps: partial_keeps_in_tie_order() }
    }

    /// The outcomes of the turn from (`mask`, upper total `u`), played by
    /// the exact values of the layer below (`below`, its masks' places in
    /// `index`).
    fn outcomes(&self, mask: u32, u: usize, below: &Layer, index: &[u32], ws: &mut Workspace) -> Vec<Outcome> {
        let graph = &*SIX_DICE;
        let partial = graph.partial;
        let cap = usize::from(self.rules.bonus_at);
        let open: Vec<u8> = (0..BOXES.len() as u8).filter(|&b| mask >> b & 1 == 1).collect();
        let rows: Vec<&[f64]> = open.iter().map(|&b| below.row(index[(mask & !(1 << b)) as usize] as usize)).collect();
        let o = open.len();
        ws.scored.resize(self.points.len() * o, 0.0);
        for (roll, pts) in self.points.iter().enumerate() {
            let mut best = f64::NEG_INFINITY;
            for (k, (&b, row)) in open.iter().zip(&rows).enumerate() {
                let p = pts[usize::from(b)];
                let upper = if usize::from(b) < FACES { u + usize::from(p) } else { u };
                let v = f64::from(p) + row[upper.min(cap)];
                ws.scored[roll * o + k] = v;
                best = if v > best { v } else { best };
            }
            ws.stop[roll] = [best];
            ws.values[partial + roll] = [best];
        }
        // The first box within EXACT_TIE of `highest`, if any.
        let first_box = |scored: &[f64], roll: usize, highest: f64| {
            scored[roll * o..][..o].iter().position(|&v| v >= highest - EXACT_TIE).map(|k| u16::from(open[k]))
        };
        for roll in 0..self.points.len() {
            ws.decisions[0][roll] = first_box(&ws.scored, roll, ws.stop[roll][0]).expect("the best box");
        }
        for r in 1..=2 {
            graph.keep_values_lanes(&mut ws.values, |sum| sum * dice_tables_reader::five_dice::SIXTH);
            // Each roll's best, S_r: the solve's pass over the keep lattice.
            graph.best_values_over_lanes(&mut ws.values, &mut ws.scratch, &ws.stop);
            for (roll, keeps) in self.keeps.iter().enumerate() {
                let highest = ws.values[partial + roll][0];
                ws.decisions[r][roll] = first_box(&ws.scored, roll, highest).unwrap_or_else(|| {
                    let g = keeps.iter().find(|&&g| ws.values[usize::from(g)][0] >= highest - EXACT_TIE);
                    KEEP + *g.expect("the best keep")
                });
            }
        }
        // Mass forward: a fresh roll, two rerolls, then the scores.
        let mut touched: Vec<usize> = Vec::new();
        let mut end = |ws_ends: &mut Vec<f64>, b: u16, roll: usize, chance: f64| {
            let at = usize::from(b) * 101 + usize::from(self.points[roll][usize::from(b)]);
            if ws_ends[at] == 0.0 {
                touched.push(at);
            }
            ws_ends[at] += chance;
        };
        let mut rolling = graph.roll_probability.clone();
        for r in (0..=2).rev() {
            ws.thrown.fill(0.0);
            for (roll, &chance) in rolling.iter().enumerate().filter(|(_, &c)| c > 0.0) {
                match ws.decisions[r][roll] {
                    d if d < KEEP => end(&mut ws.ends, d, roll, chance),
                    d => ws.thrown[usize::from(d - KEEP)] += chance,
                }
            }
            if r > 0 {
                graph.reroll_mass(&mut ws.thrown);
                rolling.copy_from_slice(&ws.thrown[partial..]);
            }
        }
        touched.sort_unstable();
        touched
            .into_iter()
            .map(|at| {
                let chance = std::mem::take(&mut ws.ends[at]);
                ((at / 101) as u8, (at % 101) as u8, chance)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_tables_reader::maxi::parse_mask;

    /// Sums to 1, and its mean is the start value: every turn's mass went
    /// where its decisions send it.
    #[test]
    fn the_distribution_s_mean_is_the_start_value() {
        for (boxes, rules) in [
            ("chance", Rules::FINNISH),
            ("ones,sixes,two-pairs,maxi-yatzy", Rules::FINNISH),
            ("fours,fives,sixes,villa", Rules { bonus_at: 30, bonus: 40, saved_rolls: false }),
        ] {
            let universe = parse_mask(boxes).unwrap();
            let d = score_distribution(rules, universe, 0.0, |_, _, _| {});
            let sum: f64 = d.p.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{boxes}: sums to {sum}");
            assert!((d.mean() - d.start_value).abs() < 1e-9, "{boxes}: mean {} start {}", d.mean(), d.start_value);
            assert_eq!(d.dropped, 0.0);
        }
    }

    #[test]
    fn the_summary_and_csv_give_the_distribution() {
        let d = score_distribution(Rules::FINNISH, parse_mask("chance,maxi-yatzy").unwrap(), 0.0, |_, _, _| {});
        let csv = d.csv();
        let rows: Vec<Vec<f64>> =
            csv.lines().skip(1).map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
        assert_eq!(rows.len(), d.p.len());
        for (s, row) in rows.iter().enumerate() {
            assert_eq!((row[0], row[1]), (s as f64, d.p[s]));
            assert!((row[2] - d.at_least(s)).abs() <= 1e-12 * d.at_least(s), "{s}: {row:?}");
        }
        // Maxi yatzy's 100 or nothing beside chance: scores from 6 to 136.
        assert_eq!(d.p.len(), 137);
        let summary = d.summary().join("\n");
        assert!(summary.contains(&format!("mean {:.9} (the start value {:.9})", d.mean(), d.start_value)), "{summary}");
        assert!(summary.contains(&format!("50% {}", d.quantile(0.5))), "{summary}");
        assert!(d.p[..6].iter().all(|&p| p == 0.0) && d.p[6] > 0.0 && d.p[136] > 0.0);
    }

    #[test]
    fn chance_alone_is_the_sum_of_six_dice_kept_by_the_threshold_rule() {
        // One die: with two rerolls keep 5 or 6, with one keep 4 to 6.
        let die: Vec<f64> = {
            let last = [1.0 / 6.0; 6];
            let one: Vec<f64> =
                (0..6).map(|f| if f >= 3 { 1.0 / 6.0 + 0.5 * last[f] } else { 0.5 * last[f] }).collect();
            (0..6).map(|f| if f >= 4 { 1.0 / 6.0 + 4.0 / 6.0 * one[f] } else { 4.0 / 6.0 * one[f] }).collect()
        };
        let mut sum = vec![1.0];
        for _ in 0..6 {
            let mut next = vec![0.0; sum.len() + 6];
            for (s, p) in sum.iter().enumerate() {
                for (f, q) in die.iter().enumerate() {
                    next[s + f + 1] += p * q;
                }
            }
            sum = next;
        }
        let d = score_distribution(Rules::FINNISH, parse_mask("chance").unwrap(), 0.0, |_, _, _| {});
        assert_eq!(d.p.len(), sum.len());
        for (s, (a, b)) in d.p.iter().zip(&sum).enumerate() {
            assert!((a - b).abs() < 1e-15, "P({s}) = {a}, not {b}");
        }
    }
}
