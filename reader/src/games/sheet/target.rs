//! `yatzy-target` and `yahtzee-target`: the score-sheet games played to
//! reach a target. For every turn-start state S (numbered by
//! [`SheetStates`]) and every `n`, `P*(S, n)`, the best chance over all
//! strategies of scoring at least `n` more points from the turn's start to
//! the game's end, counted as the expected-points tables count them (the
//! upper bonus still to come until the game ends, Yahtzee bonuses when
//! earned); a lookup solves the turn it is asked about from them. Layout
//! shared with the other target tables: see [`crate::target`].
//!
//! A table may be reduced: it then holds the states with at most
//! [`SheetTarget::max_open`] categories open (the last turns of a game), and
//! refuses the others.
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::sheet::{YatzyTarget, Yatzy};
//! use dice_tables_reader::{Game, Tables};
//! let table = YatzyTarget::open(Tables::default_dir().join("yatzy-target.dtab"))?;
//! let start = table.state(Yatzy::parse_mask("all")?, 0, false)?;
//! // The best chance of a whole game of 300 or more.
//! let p = table.chance(start, 300)?;
//! assert!(p > 0.0 && p < 0.1);
//! # Ok(()) }
//! ```

use std::fmt;
use std::marker::PhantomData;

use super::game::{check_decision, SheetGame, SheetRules};
use super::rules::{Score, BONUS_AT};
use super::states::SheetStates;
use super::turn::{Action, State, TurnSolver};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError};
use crate::five_dice::{DICE, ROLLS};
use crate::format::Header;
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::target::{self, Against, Curve, Goal, Opponent, TargetChoice, TargetChoices, TargetParams};

/// A yatzy-target or yahtzee-target table's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetTargetParams {
    /// The rules (yahtzee: header parameter `joker`).
    pub rules: SheetRules,
    /// The most categories open in a stored state (header parameter
    /// `open`): the game's category count for a whole table.
    pub open: u8,
    /// Chances stored (header parameter `values`).
    pub values: u64,
    /// Chances of the remaining-points distributions stored (header
    /// parameter `remaining`).
    pub remaining: u64,
    /// States in the table: [`SheetStates::len`] of the rules (not in the header).
    pub states: u64,
    /// The most points a whole game scores (not in the header).
    pub most: u64,
}

impl TargetParams for SheetTargetParams {
    fn states(&self) -> u64 {
        self.states
    }
    fn values(&self) -> u64 {
        self.values
    }
    fn remaining(&self) -> u64 {
        self.remaining
    }
    fn most(&self) -> u64 {
        self.most
    }
}

/// The sections: `state_index`, `p`, `ev_distribution`, `remaining_index`,
/// `remaining` (see [`crate::target`]).
pub const TARGET_SECTIONS: [SectionSpec<SheetTargetParams>; 5] = target::sections();

/// The most chances a table may store: every state's up to the game's most points.
const MAX_VALUES: i64 = 1 << 34;

/// A yatzy-target or yahtzee-target table.
pub struct SheetTarget<G: SheetGame> {
    t: Checked<Self>,
    turn: TurnSolver,
    states: &'static SheetStates,
    game: PhantomData<G>,
}

impl<G: SheetGame> fmt::Debug for SheetTarget<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(G::TARGET_ID).field("t", &self.t).finish_non_exhaustive()
    }
}

impl<G: SheetGame> Game for SheetTarget<G> {
    const ID: &'static str = G::TARGET_ID;
    const BUILT_BY: &'static [&'static str] = G::TARGET_BUILT_BY;
    type Params = SheetTargetParams;
    const SECTIONS: &'static [SectionSpec<SheetTargetParams>] = &TARGET_SECTIONS;

    fn params(header: &Header) -> Result<SheetTargetParams, TableError> {
        let rules = G::rules(header)?;
        let categories = G::CATEGORIES.len() as i64;
        let open = param_in(header, "open", 1..=categories)? as u8;
        let values = param_in(header, "values", 0..=MAX_VALUES)? as u64;
        let remaining = param_in(header, "remaining", 0..=MAX_VALUES)? as u64;
        let states = SheetStates::of(&G::scoring(&rules)).len() as u64;
        Ok(SheetTargetParams { rules, open, values, remaining, states, most: G::MAX_SCORE as u64 })
    }

    fn param_value_name(name: &str, value: i64) -> Option<&'static str> {
        G::param_value_name(name, value)
    }
    fn header_params(p: &SheetTargetParams) -> Vec<(&'static str, i64)> {
        let mut out = G::rules_params(&p.rules);
        out.push(("open", i64::from(p.open)));
        out.push(("values", p.values as i64));
        out.push(("remaining", p.remaining as i64));
        out
    }

    fn check_contents(t: &Checked<Self>) -> Result<(), TableError> {
        target::check_distribution(t.whole(&TARGET_SECTIONS[2])?)
    }

    fn check_chunk(p: &SheetTargetParams, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        match section {
            0 => target::check_index_chunk("state_index", bytes, p.values, p.most),
            3 => target::check_index_chunk("remaining_index", bytes, p.remaining, p.most),
            _ => Ok(()),
        }
    }

    /// Every state's chances decoded (none may drop below 0); a whole
    /// table's start distribution as `ev_distribution`.
    fn check_whole(t: &Checked<Self>) -> Result<(), TableError> {
        let p = t.params();
        let categories = G::CATEGORIES.len();
        let start = (usize::from(p.open) == categories).then(|| {
            let scoring = G::scoring(&p.rules);
            SheetStates::of(&scoring).id_unchecked((1 << categories) - 1, false, 0)
        });
        target::check_curves(t, &TARGET_SECTIONS, start)
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        let scoring = G::scoring(&t.params().rules);
        Ok(SheetTarget { turn: TurnSolver::new(scoring), states: SheetStates::of(&scoring), t, game: PhantomData })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

impl<G: SheetGame> SheetTarget<G> {
    /// The rules the table was solved under.
    pub fn rules(&self) -> SheetRules {
        self.t.params().rules
    }

    /// The most categories open in a state the table holds: every state
    /// for a whole table, the last turns only for a reduced one.
    pub fn max_open(&self) -> usize {
        usize::from(self.t.params().open)
    }

    /// The state with the categories of `mask` open, `upper` points in the
    /// upper section so far and the yahtzee box holding 50 or not, as for
    /// the expected-points table ([`ScoreSheet::state`](super::ScoreSheet::state)).
    pub fn state(&self, mask: u32, upper: u32, yahtzee_bonus: bool) -> Result<State, ArgumentError> {
        self.turn.state(G::ID, mask, upper, yahtzee_bonus)
    }

    /// Refuses a state with more categories open than a reduced table holds.
    fn check_held(&self, state: State) -> Result<(), ArgumentError> {
        let open = state.mask.count_ones() as usize;
        if open > self.max_open() {
            let (table, max_open) = (G::TARGET_ID.to_string(), self.max_open());
            return Err(ArgumentErrorKind::ReducedTable { table, open, max_open }.into());
        }
        Ok(())
    }

    /// `P*(state, n)` for every `n`, as stored.
    pub fn curve(&self, state: State) -> Result<Curve, Error> {
        self.check_held(state)?;
        Ok(self.stored_curve(state.mask, state.flag, state.upper)?)
    }

    fn stored_curve(&self, mask: u32, flag: bool, upper: u8) -> Result<Curve, TableError> {
        target::read_curve(&self.t, &TARGET_SECTIONS, target::CHANCES, self.states.id_unchecked(mask, flag, upper))
    }

    /// The best chance of scoring at least `need` more points from the
    /// start of a turn in `state` (1 for `need <= 0`).
    pub fn chance(&self, state: State, need: i64) -> Result<f64, Error> {
        Ok(self.curve(state)?.chance(need))
    }

    /// `P(remaining >= n)` for every `n`: the points still to come from the
    /// start of a turn in `state` under max-expected-score play (the
    /// expected-points table's decisions), counted as `P*` counts them.
    pub fn remaining(&self, state: State) -> Result<Curve, Error> {
        self.check_held(state)?;
        let id = self.states.id_unchecked(state.mask, state.flag, state.upper);
        Ok(target::read_curve(&self.t, &TARGET_SECTIONS, target::REMAINING, id)?)
    }

    /// P(final score = s) for s = 0 to the game's most under
    /// max-expected-score play from the start, as the generator stored it.
    pub fn ev_distribution(&self) -> Result<Vec<f64>, Error> {
        Ok(target::read_distribution(&self.t, &TARGET_SECTIONS[2])?)
    }

    /// The chance of a roll in `state` played for `need` more points, whose
    /// options ([`SheetTarget::options`]) are `options`: the decided
    /// option's; with no category open (the game is over, no option) the
    /// state's turn-start chance, which counts the upper bonus still to come
    /// once earned.
    pub fn roll_chance(&self, state: State, need: i64, options: &TargetChoices<Action>) -> Result<f64, Error> {
        match options.best() {
            Some(best) => Ok(best.p),
            None => self.chance(state, need),
        }
    }

    /// Every action of `dice` with `rerolls` (0 to 2) left in `state`, with
    /// the best chance of scoring at least `need` more points (this turn's
    /// included) if it is taken: scoring now in each category the dice may
    /// be scored in (a category's `points` include any Yahtzee bonus) and,
    /// while rerolls are left, every partial keep. The decision first (the
    /// first in the tie order within [`TARGET_TIE`](crate::target::TARGET_TIE)
    /// of the best: categories in mask-bit order, then larger keeps first),
    /// then by descending chance.
    pub fn options(&self, state: State, dice: Dice, rerolls: u8, need: i64) -> Result<TargetChoices<Action>, Error> {
        check_decision(dice, rerolls, G::ID)?;
        self.solve_turn(state, Goal::Reach(need), rerolls, dice)?.options(dice, rerolls)
    }

    /// Solves the turn of `state` played for `need` more points once, for
    /// every decision in it (see [`TargetTurn`]).
    pub fn turn(&self, state: State, need: i64) -> Result<TargetTurn<'_, G>, Error> {
        self.solve_turn(state, Goal::Reach(need), 2, Dice::default())
    }

    /// The opponent in `opponent_state` (their sheet, read from this
    /// table: the same rules), `lead` points behind you (negative: ahead),
    /// as the opponent-aware advisor sees them.
    pub fn opponent(&self, opponent_state: State, lead: i64) -> Result<Opponent, Error> {
        Ok(Opponent::new(&self.remaining(opponent_state)?, lead))
    }

    /// The opponent-aware advisor's estimate of your chance of winning
    /// (ties half) at the start of a turn in `state` against `opponent`
    /// (see [`Opponent`]; with no category open, the game over for you,
    /// your upper bonus still to come against their points still to come).
    pub fn versus_chance(&self, state: State, opponent: &Opponent) -> Result<f64, Error> {
        if state.mask == 0 {
            return Ok(opponent.chance_after(&self.curve(state)?, 0));
        }
        let turn = self.solve_turn(state, Goal::Beat(opponent.clone()), 2, Dice::default())?;
        Ok(target::KeepLevels::turn_start(&|r| turn.next.best(r), 2))
    }

    /// The advisor's estimate for a roll in `state` against `opponent`, whose
    /// options ([`SheetTarget::versus_options`]) are `options`: the decided
    /// option's; with no category open, the state's turn-start estimate (as
    /// [`SheetTarget::roll_chance`]).
    pub fn versus_roll_chance(
        &self,
        state: State,
        opponent: &Opponent,
        options: &TargetChoices<Action>,
    ) -> Result<f64, Error> {
        match options.best() {
            Some(best) => Ok(best.p),
            None => self.versus_chance(state, opponent),
        }
    }

    /// Every action of `dice` with `rerolls` left in `state` against
    /// `opponent`, with the advisor's estimate of your chance of winning
    /// (ties half) if it is taken, ranked as [`SheetTarget::options`].
    pub fn versus_options(
        &self,
        state: State,
        dice: Dice,
        rerolls: u8,
        opponent: &Opponent,
    ) -> Result<TargetChoices<Action>, Error> {
        check_decision(dice, rerolls, G::ID)?;
        self.solve_turn(state, Goal::Beat(opponent.clone()), rerolls, dice)?.options(dice, rerolls)
    }

    /// Solves the turn of `state` against `opponent` once, for every
    /// decision in it (see [`TargetTurn`]).
    pub fn versus_turn(&self, state: State, opponent: &Opponent) -> Result<TargetTurn<'_, G>, Error> {
        self.solve_turn(state, Goal::Beat(opponent.clone()), 2, Dice::default())
    }

    /// The turn solved as far as a decision with `rerolls` left needs: with
    /// none, only the curves `dice` can lead to are read.
    fn solve_turn(&self, state: State, goal: Goal, rerolls: u8, dice: Dice) -> Result<TargetTurn<'_, G>, Error> {
        self.check_held(state)?;
        let only = (rerolls == 0).then_some(dice);
        let next = NextCurves::new(self, state, &goal, only)?;
        let levels = if state.mask == 0 || rerolls == 0 {
            target::KeepLevels::solve(&|_| 0.0, 0)
        } else {
            target::KeepLevels::solve(&|r| next.best(r), rerolls)
        };
        Ok(TargetTurn { table: self, state, goal, next, levels })
    }
}

/// One turn of a yatzy or yahtzee game played for a target, or against an
/// opponent, solved once: every decision of the turn (any roll, as many
/// rerolls left as it was solved for) is then a few dozen comparisons. For
/// programs that play whole games; [`SheetTarget::options`] solves the turn
/// for each call.
pub struct TargetTurn<'a, G: SheetGame> {
    table: &'a SheetTarget<G>,
    state: State,
    goal: Goal,
    next: NextCurves,
    levels: target::KeepLevels,
}

impl<G: SheetGame> fmt::Debug for TargetTurn<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TargetTurn").field("state", &self.state).field("goal", &self.goal).finish_non_exhaustive()
    }
}

impl<G: SheetGame> TargetTurn<'_, G> {
    /// The options of five `dice` with `rerolls` left, as
    /// [`SheetTarget::options`] gives them.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Result<TargetChoices<Action>, Error> {
        check_decision(dice, rerolls, G::ID)?;
        let mut out = TargetChoices::new();
        if self.state.mask == 0 {
            return Ok(out);
        }
        self.table.turn.scoring.scores(self.state.mask, self.state.flag, &dice, |s| {
            let p = self.next.chance(s, &self.goal);
            out.push(TargetChoice { action: Action::Score(s.category as u8), p, points: s.points });
        });
        if rerolls > 0 {
            self.levels.push_partial_keeps(&mut out, dice, rerolls, Action::Keep);
        }
        target::rank(&mut out);
        Ok(out)
    }
}

/// The curves of the states a turn can lead to, read once as far as the
/// turn's goal needs (no score is negative, so a target's lookups ask no
/// further than its need): per (category, upper points added, flag after),
/// the next state's curve; and per roll (when every roll is read) its
/// best chance with no rerolls left.
struct NextCurves {
    /// Per key (see [`NextCurves::key`]), an index into `curves` + 1, or 0.
    slot: Vec<u8>,
    curves: Vec<Curve>,
    /// Against an opponent, per curve: its chances as the opponent's sum
    /// reads them, and its value for each points now (NaN until asked).
    against: Vec<(Against, Box<[f64; 256]>)>,
    /// Per roll: its best chance of scoring now.
    rolls: Vec<f64>,
}

impl NextCurves {
    /// The curves every roll can lead to, or only `only`'s.
    fn new<G: SheetGame>(
        table: &SheetTarget<G>,
        state: State,
        goal: &Goal,
        only: Option<Dice>,
    ) -> Result<NextCurves, TableError> {
        let mut next =
            NextCurves { slot: vec![0; 16 * 32 * 2], curves: Vec::new(), against: Vec::new(), rolls: Vec::new() };
        let upto = goal.upto();
        let rolls: Vec<Dice> = match only {
            Some(dice) => vec![dice],
            None => (0..ROLLS).map(|r| Dice::unrank(DICE, r).expect("roll < 252")).collect(),
        };
        for dice in rolls {
            let mut scores = arrayvec::ArrayVec::<_, 16>::new();
            table.turn.scoring.scores(state.mask, state.flag, &dice, |s| scores.push(s));
            let mut best = f64::NEG_INFINITY;
            for s in scores {
                let key = Self::key(s);
                if next.slot[key] == 0 {
                    let upper = (u32::from(state.upper) + u32::from(s.upper)).min(u32::from(BONUS_AT)) as u8;
                    let id = table.states.id_unchecked(state.mask & !(1 << s.category), s.bonus_flag, upper);
                    let curve = target::read_curve_upto(&table.t, &TARGET_SECTIONS, target::CHANCES, id, upto)?;
                    if let Goal::Beat(opponent) = goal {
                        next.against.push((opponent.against(&curve, u8::MAX), Box::new([f64::NAN; 256])));
                    }
                    next.curves.push(curve);
                    next.slot[key] = next.curves.len() as u8;
                }
                if only.is_none() {
                    let p = next.value(key, s.points, goal);
                    best = if p > best { p } else { best };
                }
            }
            if only.is_none() {
                next.rolls.push(best);
            }
        }
        Ok(next)
    }

    /// The chance of scoring `points` now into the state of `key`, played
    /// for `goal`: against an opponent, summed once per (curve, points).
    fn value(&mut self, key: usize, points: u8, goal: &Goal) -> f64 {
        let c = usize::from(self.slot[key]) - 1;
        match goal {
            Goal::Reach(_) => goal.after(&self.curves[c], points),
            Goal::Beat(opponent) => {
                let (against, values) = &mut self.against[c];
                let v = &mut values[usize::from(points)];
                if v.is_nan() {
                    *v = opponent.chance_with(against, points);
                }
                *v
            }
        }
    }

    fn key(s: Score) -> usize {
        (s.category * 32 + usize::from(s.upper)) * 2 + usize::from(s.bonus_flag)
    }

    /// The chance of scoring `s` now, played for `goal`.
    fn chance(&self, s: Score, goal: &Goal) -> f64 {
        let c = usize::from(self.slot[Self::key(s)]) - 1;
        match (goal, self.against.get(c)) {
            (Goal::Beat(opponent), Some((against, values))) => {
                let v = values[usize::from(s.points)];
                if v.is_nan() {
                    opponent.chance_with(against, s.points)
                } else {
                    v
                }
            }
            _ => goal.after(&self.curves[c], s.points),
        }
    }

    /// Roll `roll`'s best chance with no rerolls left (every roll read).
    fn best(&self, roll: usize) -> f64 {
        self.rolls[roll]
    }
}
