//! One turn's solve from turn-start values: what a lookup does with a
//! table's values, and what the generator does with the exact ones to prove
//! the table's decisions.

use crate::dice::{Dice, FACES};
use crate::error::{ArgumentError, ArgumentErrorKind};
use crate::five_dice::{
    best_values, keep_values, DICE, KEEPS, KEEP_ALL, KEEP_LATTICE, PARTIAL_KEEPS, PARTIAL_KEEP_DICE, ROLLS,
};
use crate::options::Options;

use super::rules::{reachable_upper_totals, Score, Scoring, BONUS_AT, MAX_UPPER_POINTS, UPPER_MASK, UPPER_TOTALS};

/// Options whose exact values differ by less than this are tied: both are
/// optimal (a difference this small is float rounding, or no difference at
/// all, as between keeping a 3 or a 4 that no open category wants), and the
/// first in the tie order is the decision.
pub const EXACT_TIE: f64 = 1e-9;
/// The tie tolerance of a lookup, on stored values (each within 5e-8 of the
/// exact one): wide enough that every exactly optimal option is inside it,
/// so a lookup decides as the exact solution does, except where some worse
/// option lies within about 2.2e-7 of the best; the generator lists those
/// decisions as exceptions.
pub const STORED_TIE: f64 = 1.2e-7;

pub use crate::five_dice::SIXTH;

/// A turn-start state: the open categories, the upper total so far (capped
/// at 63) and whether the yahtzee box holds 50. Built by
/// [`ScoreSheet::state`](super::ScoreSheet::state), which refuses states no game can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(super) mask: u32,
    pub(super) upper: u8,
    pub(super) flag: bool,
}

impl State {
    /// The open categories' bits.
    pub fn mask(self) -> u32 {
        self.mask
    }
    /// The upper total, capped at 63.
    pub fn upper(self) -> u8 {
        self.upper
    }
    /// Whether the yahtzee box holds 50.
    pub fn yahtzee_bonus(self) -> bool {
        self.flag
    }
}

/// What to do with a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Keep these dice and reroll the rest (all five: reroll none, and
    /// decide again with one reroll fewer).
    Keep(Dice),
    /// Score the dice in the category with this mask bit.
    Score(u8),
}

/// One legal action and the expected score still to come if it is taken.
pub type Choice = crate::options::Choice<Action>;

/// Every legal action of a roll, the optimal first, then from best to
/// worst: at most 15 categories and 31 partial keeps (or, as the solver
/// sees a roll with rerolls left, 32 keeps).
pub type Choices = Options<Choice, 48>;

/// One turn's solve from turn-start values, wherever they come from: a
/// lookup gives it the table's, the generator the exact ones, to prove that
/// the table's values lead to the exact decisions.
#[derive(Debug)]
pub struct TurnSolver {
    pub(super) scoring: Scoring,
    /// The distinct ways any roll scores points without a joker: (category,
    /// points, points added to the upper total). A turn values each once.
    scores: Vec<(u8, f64, u8)>,
    /// Per roll, the indices in `scores` of its ways to score points.
    roll_scores: Vec<arrayvec::ArrayVec<u8, 16>>,
    /// Bit `roll` set for five of a kind.
    five_of_a_kind: u128,
    /// Per roll, its partial keeps' graded ranks in the tie order (larger first).
    keeps: Vec<arrayvec::ArrayVec<u8, 31>>,
}

impl TurnSolver {
    /// The solver of a game scored by `scoring`.
    pub fn new(scoring: Scoring) -> TurnSolver {
        let rolls: Vec<Dice> = (0..ROLLS).map(|r| Dice::unrank(DICE, r).expect("roll < 252")).collect();
        let mut scores: Vec<(u8, f64, u8)> = Vec::new();
        let roll_scores = rolls
            .iter()
            .map(|d| {
                let counts = d.counts();
                (0..scoring.categories.len())
                    .map(|c| (c as u8, scoring.points(&counts, c)))
                    .filter(|&(_, p)| p > 0)
                    .map(|(c, p)| {
                        let score = (c, f64::from(p), if usize::from(c) < FACES { p } else { 0 });
                        let id = scores.iter().position(|&s| s == score).unwrap_or_else(|| {
                            scores.push(score);
                            scores.len() - 1
                        });
                        u8::try_from(id).expect("fewer than 256 distinct scores")
                    })
                    .collect()
            })
            .collect();
        let five_of_a_kind =
            rolls.iter().enumerate().filter(|(_, d)| d.counts().contains(&5)).fold(0, |m, (r, _)| m | 1 << r);
        let keeps = crate::five_dice::partial_keeps_in_tie_order();
        TurnSolver { scoring, scores, roll_scores, five_of_a_kind, keeps }
    }

    /// The scoring.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// The action an exception's code names in a decision, if the decision
    /// has it: a category the dice may be scored in (no rerolls left), or a
    /// keep of the dice (a partial keep's graded rank, or [`KEEP_ALL`]).
    pub fn action_of(&self, state: State, dice: Dice, rerolls: u8, code: u8) -> Option<Action> {
        if rerolls == 0 {
            let mut found = None;
            self.scoring.scores(state.mask, state.flag, &dice, |s| {
                if s.category == usize::from(code) {
                    found = Some(Action::Score(code));
                }
            });
            return found;
        }
        if code == KEEP_ALL {
            return Some(Action::Keep(dice));
        }
        let keep = Dice::graded_unrank(usize::from(code)).filter(|k| k.len() < DICE && k.is_subset_of(&dice))?;
        Some(Action::Keep(keep))
    }

    /// The state with capped upper total `upper` (0 to 63, 63 standing for
    /// every total from 63 up), if a game reaches it.
    pub fn capped_state(&self, game: &str, mask: u32, upper: u8, yahtzee_bonus: bool) -> Option<State> {
        let totals = reachable_upper_totals(!mask & UPPER_MASK);
        let upper = usize::from(upper);
        let made = (upper..=usize::from(MAX_UPPER_POINTS)).find(|&t| totals >> t & 1 == 1)?;
        if made != upper && upper != usize::from(BONUS_AT) {
            return None;
        }
        self.state(game, mask, made as u32, yahtzee_bonus).ok()
    }

    /// Rows of turn-start values a mask has: 2 for yahtzee (the flag), else 1.
    pub fn flags(&self) -> usize {
        if self.scoring.joker.is_some() {
            2
        } else {
            1
        }
    }

    /// The exceptions' key of a decision: ((row * 64 + upper total) * 3 +
    /// rerolls) * 252 + roll, row = mask * flags + flag (see `EXCEPTION_KEY`).
    pub fn decision_key(&self, state: State, dice: Dice, rerolls: u8) -> u32 {
        let row = state.mask as usize * self.flags() + usize::from(state.flag);
        ((((row * UPPER_TOTALS + usize::from(state.upper)) * 3 + usize::from(rerolls)) * ROLLS) + dice.rank()) as u32
    }

    /// The state with the categories of `mask` open, `upper` points in the
    /// upper section so far (any total: 63 and above are one state) and the
    /// yahtzee box holding 50 or not; an error for a state no game can
    /// reach (an upper total the filled upper boxes cannot make, the flag
    /// while the yahtzee box is open or in yatzy).
    pub fn state(&self, game: &str, mask: u32, upper: u32, yahtzee_bonus: bool) -> Result<State, ArgumentError> {
        let categories = self.scoring.categories.len();
        if mask >= 1 << categories {
            let (given, max, game) = (mask.to_string(), (1u32 << categories) - 1, Some(game.to_string()));
            return Err(ArgumentErrorKind::MaskOutOfRange { given, max, game }.into());
        }
        let scored_upper = !mask & UPPER_MASK;
        let reachable = reachable_upper_totals(scored_upper);
        // 63 and above are one state: any of them stands for every total
        // from 63 up that the filled boxes can make.
        let capped_reachable = reachable >> BONUS_AT != 0;
        let made = match upper {
            u if u >= u32::from(BONUS_AT) => capped_reachable && u <= u32::from(MAX_UPPER_POINTS),
            u => reachable >> u & 1 == 1,
        };
        if !made {
            let filled =
                (0..FACES).filter(|f| scored_upper >> f & 1 == 1).map(|f| self.scoring.categories[f].to_string());
            let highest = (0..=u32::from(MAX_UPPER_POINTS)).rev().find(|&t| reachable >> t & 1 == 1).unwrap_or(0);
            let up_to = if capped_reachable { u32::from(MAX_UPPER_POINTS) } else { highest };
            let (given, filled, capped) = (upper, filled.collect(), capped_reachable);
            return Err(ArgumentErrorKind::UpperTotal { given, filled, up_to, capped }.into());
        }
        if yahtzee_bonus {
            match self.scoring.joker {
                None => return Err(ArgumentErrorKind::NoYahtzeeBonus { game: game.to_string() }.into()),
                Some((b, _)) if mask >> b & 1 == 1 => return Err(ArgumentErrorKind::BonusWhileOpen.into()),
                Some(_) => {}
            }
        }
        Ok(State { mask, upper: upper.min(u32::from(BONUS_AT)) as u8, flag: yahtzee_bonus })
    }

    /// Every action of five `dice` with `rerolls` (0 to 2) rerolls left in
    /// `state`, given the turn-start values of every (mask, flag) row: see
    /// [`ScoreSheet::options`](super::ScoreSheet::options). The best is the first in the tie order of
    /// those within [`STORED_TIE`] of the highest value.
    pub fn options<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Choices, E> {
        self.options_with_ties(rows, state, dice, rerolls, STORED_TIE)
    }

    /// [`options`](TurnSolver::options) with options within `tie` of the
    /// highest value counted as tied with it (the generator's proof uses
    /// [`EXACT_TIE`] on the exact values).
    pub fn options_with_ties<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        dice: Dice,
        rerolls: u8,
        tie: f64,
    ) -> Result<Choices, E> {
        if rerolls == 0 {
            // Scoring needs only the next turn-start values, not the keeps'.
            let next = NextRows::new(self, rows, state)?;
            return Ok(self.score_choices(&next, state, dice, tie));
        }
        let turn = self.solve(rows, state, rerolls)?;
        Ok(self.choices(&turn, dice, rerolls, tie))
    }

    /// Solves a turn in `state` as far as a decision with `rerolls` left needs.
    pub(super) fn solve<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        rerolls: u8,
    ) -> Result<Levels<'a>, E> {
        let next = NextRows::new(self, rows, state)?;
        let mut levels = Levels { state, next, solved: 0, values: [[0.0; KEEPS]; 2] };
        if state.mask == 0 || rerolls == 0 {
            return Ok(levels);
        }
        let lattice = &*KEEP_LATTICE;
        let [one, two] = &mut levels.values;
        levels.next.stop_values(self, state, &mut one[PARTIAL_KEEPS..]);
        keep_values(lattice, one);
        levels.solved = 1;
        if rerolls >= 2 {
            *two = *one;
            best_values(lattice, two, &mut [0.0; PARTIAL_KEEPS]);
            keep_values(lattice, two);
            levels.solved = 2;
        }
        Ok(levels)
    }

    /// The categories `dice` may be scored in, the best the first in the
    /// tie order within `tie` of the highest value.
    fn score_choices(&self, next: &NextRows, state: State, dice: Dice, tie: f64) -> Choices {
        let mut out = Choices::new();
        if state.mask == 0 {
            return out;
        }
        self.scoring.scores(state.mask, state.flag, &dice, |s| {
            let ev = f64::from(s.points) + next.value(s);
            out.push(Choice { action: Action::Score(s.category as u8), ev, points: s.points });
        });
        let best = first_within(out.iter().map(|c| c.ev), tie).map(|i| out_action(&out, i));
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        out
    }

    /// The options of `dice` with `rerolls` left in a solved turn, the best
    /// the first in the tie order within `tie` of the highest value.
    pub(super) fn choices(&self, turn: &Levels, dice: Dice, rerolls: u8, tie: f64) -> Choices {
        if rerolls == 0 {
            return self.score_choices(&turn.next, turn.state, dice, tie);
        }
        let mut out = Choices::new();
        if turn.state.mask == 0 {
            return out;
        }
        debug_assert!(rerolls <= turn.solved);
        // Keep values with `rerolls` left, and each roll's value with one fewer.
        let values = &turn.values[usize::from(rerolls) - 1];
        // Keeping all five first, then larger keeps first: the tie order.
        let roll = dice.rank();
        out.push(Choice { action: Action::Keep(dice), ev: values[PARTIAL_KEEPS + roll], points: 0 });
        for &g in &self.keeps[roll] {
            let keep = PARTIAL_KEEP_DICE[usize::from(g)];
            out.push(Choice { action: Action::Keep(keep), ev: values[usize::from(g)], points: 0 });
        }
        let best = first_within(out.iter().map(|c| c.ev), tie).map(|i| out_action(&out, i));
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        out
    }
}

/// A turn solved as far as some decision needs: per rerolls left (1, 2),
/// the value of every partial keep and of every roll with one reroll fewer.
pub(super) struct Levels<'a> {
    pub(super) state: State,
    next: NextRows<'a>,
    /// How many rerolls' values are solved (0 to 2).
    solved: u8,
    values: [[f64; KEEPS]; 2],
}

fn out_action(out: &Choices, i: usize) -> Action {
    out.as_slice()[i].action
}

/// The position of the first value within `tie` of the highest.
fn first_within(values: impl Iterator<Item = f64> + Clone, tie: f64) -> Option<usize> {
    let highest = values.clone().fold(f64::NEG_INFINITY, f64::max);
    values.into_iter().position(|v| v >= highest - tie)
}

/// The rows of turn-start values a turn in `state` can lead to: for each
/// open category, the row after filling it with the flag as it is, and for
/// the yahtzee box the row with the flag set. A closed category's row is
/// all `-inf`, so scoring it is never the best.
struct NextRows<'a> {
    same_flag: [&'a [f64]; 16],
    /// The row after scoring points: for the yahtzee box (open, so 50
    /// points), the one with the flag set.
    after_points: [&'a [f64]; 16],
    upper: usize,
}

/// The row of a closed category.
static CLOSED: [f64; UPPER_TOTALS] = [f64::NEG_INFINITY; UPPER_TOTALS];

impl<'a> NextRows<'a> {
    fn new<E>(
        turn: &TurnSolver,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
    ) -> Result<NextRows<'a>, E> {
        let mut same_flag: [&[f64]; 16] = [&CLOSED; 16];
        let mut after_points: [&[f64]; 16] = [&CLOSED; 16];
        for c in (0..turn.scoring.categories.len()).filter(|c| state.mask >> c & 1 == 1) {
            let after = state.mask & !(1 << c);
            same_flag[c] = rows(after, state.flag)?;
            after_points[c] = same_flag[c];
            if turn.scoring.joker.is_some_and(|(b, _)| b == c) {
                after_points[c] = rows(after, true)?;
            }
        }
        Ok(NextRows { same_flag, after_points, upper: usize::from(state.upper) })
    }

    /// The turn-start value after score `s`.
    fn value(&self, s: Score) -> f64 {
        let row = if s.bonus_flag { self.after_points[s.category] } else { self.same_flag[s.category] };
        row[(self.upper + usize::from(s.upper)).min(UPPER_TOTALS - 1)]
    }

    /// Every roll's value with no rerolls left: its best score. As the
    /// solver computes it: a zero in the best open category, or points in
    /// a category that gives some (a joker: only where its rules allow).
    fn stop_values(&self, turn: &TurnSolver, state: State, out: &mut [f64]) {
        let mut zero = f64::NEG_INFINITY;
        for row in &self.same_flag[..turn.scoring.categories.len()] {
            let v = row[self.upper];
            zero = greater(v, zero);
        }
        // Each way to score points, valued once; closed categories' rows
        // are -inf, so no branch on the mask.
        let mut values = [f64::NEG_INFINITY; 256];
        for (v, &(c, points, upper)) in values.iter_mut().zip(&turn.scores) {
            let row = self.after_points[usize::from(c)];
            *v = points + row[(self.upper + usize::from(upper)).min(UPPER_TOTALS - 1)];
        }
        let joker_possible = turn.scoring.joker.is_some_and(|(b, _)| state.mask >> b & 1 == 0);
        for (roll, out) in out.iter_mut().enumerate().take(ROLLS) {
            if joker_possible && turn.five_of_a_kind >> roll & 1 == 1 {
                let dice = Dice::unrank(DICE, roll).expect("roll < 252");
                let mut best = f64::NEG_INFINITY;
                turn.scoring.scores(state.mask, state.flag, &dice, |s| {
                    let v = f64::from(s.points) + self.value(s);
                    best = greater(v, best);
                });
                *out = best;
                continue;
            }
            let mut best = zero;
            for &id in &turn.roll_scores[roll] {
                best = greater(values[usize::from(id)], best);
            }
            *out = best;
        }
    }
}

/// The larger of two values (`b` on a tie), as one `maxsd`: `f64::max`'s
/// NaN handling costs four instructions on the loop's critical path, and
/// the values here are never NaN.
#[inline(always)]
fn greater(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}
