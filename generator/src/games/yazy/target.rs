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
//! keeping all five. The rules engine's target solve finds them
//! (`rule_engine::target`), from yazy's preset.

use dice_tables_reader::yazy::{CATEGORIES, MASKS};

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

/// Solves every mask: the rules engine's target solve of yazy's preset,
/// every chance above 0 kept and a die's faces averaged over six, as this
/// table always has.
pub fn solve_target(rerolls: u8) -> TargetSolution {
    use crate::rule_engine::{target, Average};
    let mut rules = crate::rule_sets::preset("yazy").expect("yazy is a preset");
    rules.rerolls = rerolls;
    let reaching = target::Reaching { average: Average::OverSix, negligible: f64::MIN_POSITIVE, ..Default::default() };
    let reach = target::solve_with(&rules, CATEGORIES.len(), reaching, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("yazy's preset solves: {}", e.0));
    let mut start = Vec::with_capacity(MASKS + 1);
    let mut p = Vec::new();
    for mask in 0..MASKS as u32 {
        start.push(p.len());
        let chance = |n| reach.chance(mask, 0, 0, n).expect("every mask is a turn start");
        p.extend((1..=i64::from(most_points(mask as usize))).map(chance));
    }
    start.push(p.len());
    TargetSolution { rerolls, start, p }
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
