//! yatzy and yahtzee played to reach a target: for every turn-start state
//! S the game reaches and every `n` from 1 up, `P*(S, n)`, the highest
//! chance over all strategies that the points scored from this turn's
//! start to the game's end (the upper bonus and Yahtzee bonuses included,
//! as the expected-points tables count them) are at least `n`.
//!
//! The rules engine's target solve ([`crate::rule_engine::target`]) finds
//! them from each game's preset, over the states the game reaches; this
//! module numbers them as the table does ([`SheetStates`]), and adds the
//! distributions of max-expected-score play ([`super::distribution`]).

use dice_tables_reader::rule_sheet::held_of_flag;
use dice_tables_reader::sheet::{
    Scoring, SheetGame, SheetRules, SheetStates, SheetTarget, SheetTargetParams, TARGET_SECTIONS,
};

use super::layer_jobs;
use crate::rule_engine::{target, Coverage};
use crate::target::chance;

/// Every `P*(S, n)` of a game, per state (numbered by [`SheetStates`]):
/// the values for `n = 1, 2, ...` up to the last at or above
/// [`target::NEGLIGIBLE`]. States in layers above `max_open` (see [`solve`]) are empty.
#[derive(Debug)]
pub struct Solution {
    /// The reachable turn-start states, by id.
    pub states: SheetStates,
    /// Per state id: `P*(state, n)` for `n = 1, 2, ...`.
    pub values: Vec<Box<[f64]>>,
}

impl Solution {
    /// `P*(state, n)`: 1 at or below 0, 0 past the stored values.
    #[inline]
    pub fn chance(&self, state: usize, n: i64) -> f64 {
        chance(&self.values[state], n)
    }

    /// Values stored in all.
    pub fn len(&self) -> usize {
        self.values.iter().map(|v| v.len()).sum()
    }

    /// Whether no value is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Solves every state of `game` (`yatzy`, `yahtzee` or `yahtzee-free`, its
/// scoring `scoring`) with at most `max_open` categories open (all of them
/// for the whole game), `progress(sheets done, sheets)` told as it goes.
pub fn solve(game: &str, scoring: &Scoring, max_open: usize, progress: &mut dyn FnMut(usize, usize)) -> Solution {
    let rules = crate::rule_sets::preset(game).unwrap_or_else(|| panic!("{game} is a preset"));
    let reaching = target::Reaching { coverage: Coverage::Reachable, ..target::Reaching::default() };
    let mut reach = target::solve_with(&rules, max_open, reaching, progress)
        .unwrap_or_else(|e| panic!("{game}'s preset solves: {}", e.0));
    let states = SheetStates::new(scoring);
    let categories = scoring.categories.len();
    let tracked = rules.tracked_boxes();
    let mut values: Vec<Box<[f64]>> = vec![Box::new([]); states.len()];
    for open in 0..=max_open.min(categories) {
        for job in layer_jobs(&states, categories, open) {
            // The flag is the yahtzee box's (the one box tracked) holding 50.
            let held = held_of_flag(&tracked, usize::from(job.flag));
            values[job.id as usize] =
                reach.take(job.mask, u16::from(job.upper), held).expect("a turn start of the game");
        }
    }
    Solution { states, values }
}

/// Solves the `yatzy-target` or `yahtzee-target` table under `rules`, the
/// states with at most `open` categories open (a whole table for the
/// game's category count): the chances, and the distribution of the final
/// score under max-expected-score play (the expected-points table's play).
pub fn solve_table<G: SheetGame>(open: usize, progress: &mut dyn FnMut(usize, usize)) -> crate::solved::Solved {
    let rules = SheetRules { joker: G::JOKER };
    let scoring = G::scoring(&rules);
    let categories = scoring.categories.len();
    let open = open.min(categories);
    let solution = solve(G::ID, &scoring, open, progress);
    let exact = super::solve(G::ID, &mut |_, _| {});
    let distribution = super::distribution::ev_distribution(&scoring, &exact, G::MAX_SCORE as usize);
    let remaining = super::distribution::remaining_distributions(&scoring, &exact, &solution.states, open);
    let held = solution.values.iter().filter(|v| !v.is_empty()).count() as u64;
    let start = (open == categories).then(|| solution.states.id((1 << categories) - 1, false, 0)).flatten();
    let figures = start.map_or_else(Vec::new, |s| crate::target::figures(&solution.values[s], &distribution));
    let chances = solution.values.iter().map(|v| &v[..]);
    let contents = crate::target::TargetContents::new(chances, &distribution, remaining.iter().map(|r| &r[..]));
    let states = solution.states.len() as u64;
    // Stored: the solver's values are no longer needed (gigabytes for a whole game).
    drop((remaining, solution));
    let params = SheetTargetParams {
        rules,
        open: open as u8,
        values: contents.chances.values(),
        remaining: contents.remaining.values(),
        states,
        most: G::MAX_SCORE as u64,
    };
    let sections = contents.sections(&TARGET_SECTIONS, &params);
    crate::solved::Solved { figures, ..crate::solved::Solved::new::<SheetTarget<G>>(&params, held, sections) }
}
