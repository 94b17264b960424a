//! Any rule set played to reach a target: for every turn start S and every
//! `n` from 1 up, `P*(S, n)`, the best chance over all strategies that the
//! points scored from this turn's start to the game's end (the upper bonus,
//! extra bonuses and first-roll bonuses included) are at least `n`.
//!
//! The turn is the expected-score engine's with the chance of reaching the
//! target in place of the points to come: a roll scored for `p` points into
//! turn start S' is worth `P*(S', n - p)`, a finished sheet 1 where the
//! upper bonus it is paid reaches `n`. Each `n` is independent, so 8 of
//! them are the lanes of one vector through the keep graph. A turn start's
//! chances are solved 8 at a time from `n = 1` until they fall below
//! [`NEGLIGIBLE`] (they never rise with `n`, and float arithmetic keeps
//! that); those are dropped (read as 0), which costs each value at most
//! `NEGLIGIBLE` a box.

use super::{
    check_solvable, rerolls_then_first_roll, roll_moves, same_below, Average, Buffers, Coverage, Layout, Move,
    NotSolved, RollMoves, Rolls, W,
};
use crate::cpu::{Kernel, Lanes, Simd};
use crate::dice::{keep_graph, KeepGraph};
use crate::target::chance;
use dice_tables_reader::rule_sheet::held_of_flag;
use dice_tables_reader::rule_sheet::{RuleSheet, Shape};
use dice_tables_reader::rules::RuleSet;
use rayon::prelude::*;

/// Chances below this are dropped as the solve goes (see the module docs):
/// every value is then within `NEGLIGIBLE` a box of exact.
pub const NEGLIGIBLE: f64 = 1e-10;

/// Every turn start's chances of one rule set.
pub struct Reach {
    /// The rules solved.
    pub rules: RuleSet,
    layout: Layout,
    /// Per turn start (`layout.index`): `P*(S, n)` for `n = 1, 2, ...`
    /// while at least [`NEGLIGIBLE`]; empty in layers not solved.
    values: Vec<Box<[f64]>>,
}

impl Reach {
    /// `P*(S, n)` of turn start S (`mask` open, `upper` the upper total,
    /// `held` the boxes holding points): 1 for `n <= 0`, 0 past the stored
    /// chances. `None` for a mask the game never reaches.
    pub fn chance(&self, mask: u32, upper: u16, held: u32, n: i64) -> Option<f64> {
        Some(chance(&self.values[self.layout.index(mask, usize::from(upper), held)?], n))
    }

    /// Takes the chances of turn start (`mask`, `upper`, `held`) out of the
    /// solve, leaving none: for a table that lays them out otherwise.
    pub(crate) fn take(&mut self, mask: u32, upper: u16, held: u32) -> Option<Box<[f64]>> {
        Some(std::mem::take(&mut self.values[self.layout.index(mask, usize::from(upper), held)?]))
    }

    /// The chances stored, in all.
    pub fn len(&self) -> usize {
        self.values.iter().map(|v| v.len()).sum()
    }

    /// Whether none is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `chance(values, lowest + l)` for the `W` lanes `l`: where all are
/// stored, one read of consecutive values.
#[inline(always)]
fn chances(values: &[f64], lowest: i64) -> [f64; W] {
    let mut out = [0.0; W];
    if lowest >= 1 && lowest + W as i64 - 1 <= values.len() as i64 {
        out.copy_from_slice(&values[lowest as usize - 1..][..W]);
    } else {
        for (l, p) in out.iter_mut().enumerate() {
            *p = chance(values, lowest + l as i64);
        }
    }
    out
}

/// How a target solve goes.
#[derive(Clone, Copy, Debug)]
pub struct Reaching {
    /// Which turn starts (the others' chances empty).
    pub coverage: Coverage,
    /// How a keep's chance averages the faces.
    pub average: Average,
    /// Chances below this are dropped as the solve goes: [`NEGLIGIBLE`],
    /// or `f64::MIN_POSITIVE` to keep every chance above 0 (exact).
    pub negligible: f64,
}

impl Default for Reaching {
    fn default() -> Reaching {
        Reaching { coverage: Coverage::Every, average: Average::TimesSixth, negligible: NEGLIGIBLE }
    }
}

/// Refuses, before any work, a rule set whose target table the engine
/// does not solve: one that saves rerolls, or whose sheet would not fit.
pub fn check_target(rules: &RuleSet) -> Result<(), NotSolved> {
    if rules.saved_rerolls {
        return Err(NotSolved(format!(
            "{} saves rerolls: its table answers expected scores, but no target table is solved for saved rerolls",
            rules.name
        )));
    }
    check_solvable(rules)
}

/// Solves every turn start with at most `most_open` boxes open (the whole
/// game for its box count), or says what the engine does not solve.
pub fn solve(rules: &RuleSet, most_open: usize) -> Result<Reach, NotSolved> {
    solve_with(rules, most_open, Reaching::default(), &mut |_, _| {})
}

/// [`solve`] as `reaching` says, `progress(done, total)` told the sheets
/// (sets of open boxes) solved.
pub fn solve_with(
    rules: &RuleSet,
    most_open: usize,
    reaching: Reaching,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Reach, NotSolved> {
    let coverage = reaching.coverage;
    check_target(rules)?;
    let layout = Layout::of(rules);
    let (flags, totals, block) = (layout.flags(), layout.totals, layout.block());
    let mut values: Vec<Box<[f64]>> = vec![Box::new([]); layout.masks.len() * block];
    // No box open: the upper bonus reaches any n up to its points.
    if let Some(bonus) = rules.upper_bonus {
        for flag in 0..flags {
            let full = layout.at(0).expect("a full sheet is a turn start");
            values[full + flag * totals + usize::from(bonus.at)] =
                vec![1.0; usize::from(bonus.points)].into_boxed_slice();
        }
    }
    let graph = keep_graph(usize::from(rules.dice));
    let rolls = Rolls::of(rules);
    let simd = crate::dice::simd();
    let layers: Vec<_> =
        layout.layers().into_iter().take_while(|l| layout.masks[l.start].count_ones() as usize <= most_open).collect();
    let sizes = crate::progress::Layers::new(layers.iter().map(|l| l.len() as u64));
    for (done, layer) in layers.into_iter().enumerate() {
        sizes.report(done, progress);
        let solved: Vec<Vec<Box<[f64]>>> = layout.masks[layer.clone()]
            .par_iter()
            .map_init(
                || Buffers::new(graph, false, false, false),
                |b, &mask| {
                    let same_below = same_below(rules, &layout, mask);
                    let reachable = rules.reachable_uppers(mask, totals);
                    let mut out = Vec::with_capacity(block);
                    for flag in 0..flags {
                        let held = held_of_flag(&layout.tracked, flag);
                        if coverage == Coverage::Reachable && held & mask != 0 {
                            out.resize_with(out.len() + totals, Default::default);
                            continue;
                        }
                        let moves = roll_moves(rules, &layout, &rolls, mask, flag);
                        let row = out.len();
                        for (upper, &reached) in reachable.iter().enumerate() {
                            let mut solve = |upper| {
                                let lanes = ReachLanes {
                                    rules,
                                    layout: &layout,
                                    values: &values,
                                    graph,
                                    moves: &moves,
                                    upper,
                                    first: 1,
                                    average: reaching.average,
                                    b,
                                };
                                solve_curve(lanes, reaching.negligible, simd)
                            };
                            let curve = match coverage {
                                // Every total below the lowest worth solving is worth
                                // what it is, bit for bit.
                                Coverage::Every if upper < same_below && upper > 0 => Box::clone(&out[row]),
                                Coverage::Every => solve(upper.max(same_below)),
                                // Only the lowest total worth solving (a read of any
                                // total below it reads it) and the reachable ones above.
                                Coverage::Reachable if upper == same_below || upper > same_below && reached => {
                                    solve(upper)
                                }
                                Coverage::Reachable => Box::default(),
                            };
                            out.push(curve);
                        }
                    }
                    out
                },
            )
            .collect();
        for (&mask, curves) in layout.masks[layer].iter().zip(solved) {
            let at = layout.at(mask).expect("a turn start of the game");
            for (k, curve) in curves.into_iter().enumerate() {
                values[at + k] = curve;
            }
        }
    }
    sizes.report(sizes.len(), progress);
    Ok(Reach { rules: rules.clone(), layout, values })
}

/// `P*(S, n)` of one turn start, `n = 1, 2, ...` while at least
/// `negligible`: `lanes` run from each block's first `n`.
fn solve_curve(lanes: ReachLanes, negligible: f64, simd: Simd) -> Box<[f64]> {
    crate::target::chances_until(negligible, |first| {
        let b = &mut *lanes.b;
        simd.run(ReachLanes { first, b, ..lanes })
    })
}

/// `P*(S, first + l)` for the `W` lanes `l` of one turn start.
struct ReachLanes<'a> {
    rules: &'a RuleSet,
    layout: &'a Layout,
    values: &'a [Box<[f64]>],
    graph: &'a KeepGraph,
    moves: &'a RollMoves,
    upper: usize,
    first: i64,
    average: Average,
    b: &'a mut Buffers,
}

impl Kernel for ReachLanes<'_> {
    type Output = [f64; W];
    #[inline(always)]
    fn run<L: Lanes>(self) -> [f64; W] {
        let ReachLanes { rules, layout, values, graph, moves, upper, first, average, b } = self;
        let last = layout.totals - 1;
        let any_first_roll = rules.boxes.iter().any(|b| b.first_roll > 0);
        let RollMoves { moves, live, ids, ends, zeros, shared_zero } = moves;
        // A move's chances, `minus` points scored: a total below the next
        // turn start's lowest solved is worth that one's.
        // `read` called directly: a closure would be a call of its own,
        // without the kernel's vector instructions.
        let at = |m: &Move| m.row as usize + (upper + usize::from(m.upper)).max(usize::from(m.floor)).min(last);
        let none = [f64::NEG_INFINITY; W];
        let mut zero = none;
        for z in zeros {
            let after = chances(&values[at(z)], first);
            for l in 0..W {
                zero[l] = if after[l] > zero[l] { after[l] } else { zero[l] };
            }
        }
        // Each move's chances once, for every roll that has it.
        b.moves.resize(moves.len(), none);
        b.first_moves.resize(if any_first_roll { moves.len() } else { 0 }, none);
        for &id in live {
            let m = &moves[usize::from(id)];
            b.moves[usize::from(id)] = chances(&values[at(m)], first - m.points as i64);
            if any_first_roll {
                // The first-roll bonus counts towards the target too.
                b.first_moves[usize::from(id)] = chances(&values[at(m)], first - m.points as i64 - m.first_roll as i64);
            }
        }
        let mut from = 0;
        for (r, &end) in ends.iter().enumerate() {
            let mut stop = if shared_zero[r] { zero } else { none };
            let mut served = stop;
            for &id in &ids[from..end as usize] {
                let after = &b.moves[usize::from(id)];
                for l in 0..W {
                    stop[l] = if after[l] > stop[l] { after[l] } else { stop[l] };
                }
                if any_first_roll {
                    let after = &b.first_moves[usize::from(id)];
                    for l in 0..W {
                        served[l] = if after[l] > served[l] { after[l] } else { served[l] };
                    }
                }
            }
            from = end as usize;
            b.values[graph.partial + r] = stop;
            b.first[r] = if any_first_roll { served } else { stop };
        }
        rerolls_then_first_roll(graph, rules.rerolls, any_first_roll, average, b)
    }
}

/// The target table of a solved rule set (`NAME-target.dtab`): every turn
/// start's chances from `reach`, laid out as the rule set's own table lays
/// out its values; every turn start's distribution of the points still to
/// come under the optimal play of the rule set's own table `sheet`
/// (carried backward from the game's end); and the start's as the final
/// score's distribution. (The tests hold it to the distribution carried
/// forward from the start, [`super::distribution::score_distribution`].)
pub fn table(reach: &Reach, sheet: &RuleSheet, most_open: usize) -> Result<crate::Solved, dice_tables_reader::Error> {
    use dice_tables_reader::rule_sheet::{target_stem, RuleTarget, TargetShape, TARGET_SECTIONS};
    let rules = &reach.rules;
    let shape = Shape::of(rules);
    let most_open = most_open.min(rules.boxes.len());
    let all = (1u32 << rules.boxes.len()) - 1;
    // Laid out as the file stores them.
    let chances: Vec<&[f64]> = reach.values.iter().map(|v| &v[..]).collect();
    let remaining = super::distribution::remaining_distributions(sheet, most_open)?;
    let whole = most_open == rules.boxes.len();
    let mut distribution = match whole {
        // The whole game's: the start's points still to come.
        true => remaining[shape.index(all, 0, 0).expect("the start is a turn start")].to_vec(),
        // A reduced table's start is not solved: its distribution is a placeholder.
        false => vec![1.0],
    };
    // The most points any stored chance or distribution reaches.
    let most = chances.iter().map(|c| c.len()).chain(remaining.iter().map(|r| r.len().saturating_sub(1))).max();
    let most = most.unwrap_or(0).max(distribution.len() - 1);
    distribution.resize(most + 1, 0.0);
    let contents =
        crate::target::TargetContents::new(chances.into_iter(), &distribution, remaining.iter().map(|r| &r[..]));
    let params = TargetShape {
        shape,
        open: most_open as u8,
        values: contents.chances.values(),
        remaining: contents.remaining.values(),
        most: most as u32,
    };
    let figures = whole.then(|| {
        let start = reach.layout.index(all, 0, 0).expect("the start is a turn start");
        crate::target::figures(&reach.values[start], &distribution)
    });
    let mut sections = contents.sections(&TARGET_SECTIONS, &params);
    sections.push(crate::artifact::Section::of(&TARGET_SECTIONS[5], &params, rules.to_text().into_bytes()));
    let mut solved = crate::Solved::new::<RuleTarget>(&params, shape.states(), sections);
    solved.table = target_stem(&rules.name);
    solved.figures = figures.unwrap_or_default();
    Ok(solved)
}
