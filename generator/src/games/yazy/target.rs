//! yazy played to reach a target: for every mask
//! of open categories and every `n` from 1 to the most points the mask can
//! still score, `P*(mask, n)`, the highest chance over all strategies that
//! the points scored from this turn's start to the game's end are at least
//! `n`. `P*(mask, n) = 1` for `n <= 0`, and 0 past the mask's most.
//!
//! The rules are yazy's (see `yazy`). The turn is solved as for expected
//! points, with the chance of reaching the target in place of the points
//! to come: a roll scored in category `c` for `p` points is worth
//! `P*(mask without c, n - p)`; a keep is worth the average over the next
//! roll; a roll with rerolls left is worth the best of its keeps and of
//! keeping all five. Each `n` is independent of the others, so `W` targets
//! are the lanes of one vector, as `W` masks are in the expected-points
//! solve, through the same keep lattice.

use rayon::prelude::*;

use super::points;
use crate::dice::{multisets, FIVE_DICE};
use dice_tables_reader::yazy::{CATEGORIES, MASKS};

/// Targets solved together: the lanes of a vector.
const W: usize = 8;

/// The most points category `c` scores (ones..sixes five times the face;
/// three-kind and four-kind 30, full-house 25, straight 40, yazy 50): the
/// reader's, which the two-player table's layout needs too.
pub fn category_most(c: usize) -> u32 {
    dice_tables_reader::yazy::duel::CATEGORY_MOST[c]
}

/// The most points the open categories of `mask` can still score.
pub fn most_points(mask: usize) -> u32 {
    dice_tables_reader::yazy::duel::most(mask as u16) as u32
}

/// Every `P*(mask, n)`: per mask, `n` from 1 to [`most_points`]`(mask)`,
/// masks in order, one after another (`start[mask]` is where a mask's
/// values begin; mask 0 has none).
#[derive(Clone, Debug)]
pub struct TargetSolution {
    /// Rerolls a turn.
    pub rerolls: u8,
    /// Where each mask's values begin in `p`, and (last) their count.
    pub start: Vec<usize>,
    /// The chances, exact in f64.
    pub p: Vec<f64>,
}

impl TargetSolution {
    /// `P*(mask, n)` for any `n`: 1 at or below 0, 0 past the mask's most.
    pub fn chance(&self, mask: usize, n: i64) -> f64 {
        let len = self.start[mask + 1] - self.start[mask];
        match n {
            n if n <= 0 => 1.0,
            n if n as usize > len => 0.0,
            n => self.p[self.start[mask] + n as usize - 1],
        }
    }
}

/// Solves every mask, in layers by the number of open categories (a mask
/// needs only masks with one category fewer), each layer's masks and
/// target blocks in parallel. Every value is computed the same way whatever
/// the thread, so the output does not depend on the thread count.
pub fn solve_target(rerolls: u8) -> TargetSolution {
    let graph = &*FIVE_DICE;
    let rolls = multisets(5);
    let category_points: Vec<[u32; CATEGORIES.len()]> =
        rolls.iter().map(|d| std::array::from_fn(|c| u32::from(points(d, c)))).collect();
    let mut start = Vec::with_capacity(MASKS + 1);
    let mut total = 0;
    for mask in 0..MASKS {
        start.push(total);
        total += most_points(mask) as usize;
    }
    start.push(total);
    let mut solution = TargetSolution { rerolls, start, p: vec![0.0; total] };
    for open in 1..=CATEGORIES.len() {
        // (mask, first target of the block) for every block of the layer.
        let start = &solution.start;
        let blocks: Vec<(usize, usize)> = (1..MASKS)
            .filter(|m| m.count_ones() as usize == open)
            .flat_map(|m| (1..=start[m + 1] - start[m]).step_by(W).map(move |n| (m, n)))
            .collect();
        let solved: Vec<[f64; W]> = blocks
            .par_iter()
            .map_init(
                || Workspace::new(graph.keeps()),
                |ws, &(mask, first)| solve_block(mask, first, rerolls, &category_points, &solution, ws),
            )
            .collect();
        for (&(mask, first), values) in blocks.iter().zip(solved) {
            let end = solution.start[mask + 1];
            for (l, v) in values.into_iter().enumerate() {
                let at = solution.start[mask] + first - 1 + l;
                if at < end {
                    solution.p[at] = v;
                }
            }
        }
    }
    solution
}

/// Buffers one thread reuses from block to block.
struct Workspace {
    values: Vec<[f64; W]>,
    scratch: Vec<[f64; W]>,
}

impl Workspace {
    fn new(keeps: usize) -> Workspace {
        Workspace { values: vec![[0.0; W]; keeps], scratch: vec![[0.0; W]; keeps] }
    }
}

/// `P*(mask, first + l)` for the `W` lanes `l`.
fn solve_block(
    mask: usize,
    first: usize,
    rerolls: u8,
    category_points: &[[u32; CATEGORIES.len()]],
    solved: &TargetSolution,
    ws: &mut Workspace,
) -> [f64; W] {
    let graph = &*FIVE_DICE;
    let open: Vec<usize> = (0..CATEGORIES.len()).filter(|c| mask >> c & 1 == 1).collect();
    let partial = graph.partial;
    // With no rerolls left: the best category for each lane's target.
    for (roll, points) in category_points.iter().enumerate() {
        let mut best = [0.0f64; W];
        for &c in &open {
            let next = mask & !(1 << c);
            for (l, b) in best.iter_mut().enumerate() {
                let need = (first + l) as i64 - i64::from(points[c]);
                let v = solved.chance(next, need);
                *b = if v > *b { v } else { *b };
            }
        }
        ws.values[partial + roll] = best;
    }
    graph.turn_start_lanes(&mut ws.values, &mut ws.scratch, usize::from(rerolls), |sum| sum / 6.0)
}

/// Solves the `yazy-target` table under `rules` (yazy's rerolls): the
/// chances, and the distribution of the final score under the `yazy`
/// table's play (read back from that table, so it is the play a lookup gives).
pub fn solve_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> crate::solved::Solved {
    use dice_tables_reader::yazy::target::{YazyTarget, YazyTargetParams, SECTIONS};
    use dice_tables_reader::Game;
    let rerolls = rules.yazy.rerolls;
    let solution = solve_target(rerolls);
    progress(1, 2);
    let yazy = super::solve(rerolls, |_, _| {});
    let bytes = crate::artifact::encode(
        <dice_tables_reader::yazy::Yazy as Game>::ID,
        &<dice_tables_reader::yazy::Yazy as Game>::header_params(&rules.yazy),
        yazy.into_sections(),
    );
    let distribution = dice_tables_reader::yazy::Yazy::from_vec(bytes)
        .and_then(|t| {
            t.score_distribution().map_err(|e| match e {
                dice_tables_reader::Error::Table(t) => t,
                other => panic!("the distribution of a table just written: {other}"),
            })
        })
        .expect("a table just written reads back");
    progress(2, 2);
    let remaining = super::expected::remaining_points(&super::expected::Expected::new(rerolls));
    let curves = (0..MASKS).map(|m| &solution.p[solution.start[m]..solution.start[m + 1]]);
    let contents = crate::target::TargetContents::new(curves, &distribution, remaining.iter().map(|r| &r[..]));
    let (values, remaining) = (contents.chances.values(), contents.remaining.values());
    let params = YazyTargetParams { rules: rules.yazy, values, remaining };
    let start = &solution.p[solution.start[MASKS - 1]..solution.start[MASKS]];
    let figures = crate::target::figures(start, &distribution);
    let sections = contents.sections(&SECTIONS, &params);
    crate::solved::Solved { figures, ..crate::solved::Solved::new::<YazyTarget>(&params, MASKS as u64, sections) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_points_are_yazy_s() {
        assert_eq!(most_points(MASKS - 1), 280);
        assert_eq!(
            (0..CATEGORIES.len()).map(category_most).collect::<Vec<_>>(),
            [5, 10, 15, 20, 25, 30, 30, 30, 25, 40, 50]
        );
    }
}
