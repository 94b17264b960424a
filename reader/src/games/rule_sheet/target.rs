//! Any rule set played to reach a target (`NAME-target.dtab`, game id
//! `rules-target`): for every turn start S of the rule set and every `n`,
//! `P*(S, n)`, the best chance over all strategies of scoring at least `n`
//! more points from the turn's start to the game's end (the upper bonus,
//! extra bonuses and first-roll bonuses counted); the exact distribution
//! of the final score under max-expected-score play; and each turn start's
//! distribution of the points still to come under that play. The layout
//! of the target tables ([`crate::target`]), turn starts numbered as the
//! rule set's own table numbers them, and its rules as canonical text.
//!
//! A lookup solves the turn it is asked about from the chances of the turn
//! starts its moves lead to, as the rule set's own table does with values.
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::Tables;
//! // `make tables` writes tables/generala-target.dtab.
//! let tables = Tables::open_default()?;
//! let generala = tables.rule_target("generala")?;
//! let all = generala.all_open();
//! // The best chance of a whole game of 200 or more.
//! let p = generala.chance(all, 0, 0, 200)?;
//! assert!((p - 0.1587).abs() < 1e-4);
//! // A roll's options played for it, the decision first.
//! let roll = generala.options(all, 0, 0, "66612".parse()?, 2, 200)?;
//! println!("{:?}: {}", roll.options[0].0, roll.value);
//! # Ok(()) }
//! ```

use std::collections::HashMap;

use super::turn::{Move, RollOptions, RuleChoice};
use super::{Board, Shape};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::rules::SheetState;
use crate::target::{self, Curve, Goal, Opponent, TargetParams, TARGET_TIE};

/// The game id of every rule set's target table.
pub const TARGET_ID: &str = "rules-target";

/// The most chances a table may store, in each of its two curves' sections.
const MOST_VALUES: i64 = 1 << 34;
/// The most points a whole game of a rule set may score.
const MOST_POINTS: i64 = 1 << 20;

/// A rule set's target table's parameters: its sheet's shape and what it stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetShape {
    /// The sheet's shape, as the rule set's own table has it.
    pub shape: Shape,
    /// The most boxes open in a state the table holds: the box count for a
    /// whole table, fewer for one reduced to the last turns (tests).
    pub open: u8,
    /// Chances `P*(S, n)` stored.
    pub values: u64,
    /// Chances of the remaining-points distributions stored.
    pub remaining: u64,
    /// The most points a whole game scores: `ev_distribution`'s last entry.
    pub most: u32,
}

impl TargetParams for TargetShape {
    fn states(&self) -> u64 {
        self.shape.states()
    }
    fn values(&self) -> u64 {
        self.values
    }
    fn remaining(&self) -> u64 {
        self.remaining
    }
    fn most(&self) -> u64 {
        u64::from(self.most)
    }
}

/// The sections: the target tables' five ([`crate::target::sections`]),
/// then `rules`, the rules as canonical text.
pub const TARGET_SECTIONS: [SectionSpec<TargetShape>; 6] = {
    let [index, p, distribution, remaining_index, remaining] = target::sections::<TargetShape>();
    let rules =
        SectionSpec::new(5, "rules", DType::U8, Encoding::Raw, |s: &TargetShape| vec![u64::from(s.shape.rules_bytes)]);
    [index, p, distribution, remaining_index, remaining, rules]
};

/// A rule set's target table.
#[derive(Debug)]
pub struct RuleTarget {
    t: Checked<RuleTarget>,
    board: Board,
}

/// The sheet's rules and how states are told apart: [`Board`]'s methods
/// (`rules`, `parse_mask`, ...) are the table's.
impl std::ops::Deref for RuleTarget {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Game for RuleTarget {
    const ID: &'static str = TARGET_ID;
    const BUILT_BY: &'static [&'static str] = &["rule-tables"];
    type Params = TargetShape;
    const SECTIONS: &'static [SectionSpec<TargetShape>] = &TARGET_SECTIONS;

    fn params(header: &Header) -> Result<TargetShape, TableError> {
        let shape = Shape::from_header(header)?;
        if shape.saving > 0 {
            // No target table saves rerolls: the generator writes none.
            let why = "is given: a target table's rules save no rerolls".into();
            return Err(crate::error::TableErrorKind::BadParam { name: "saving", why }.into());
        }
        Ok(TargetShape {
            shape,
            open: param_in(header, "open", 0..=i64::from(shape.boxes))? as u8,
            values: param_in(header, "values", 0..=MOST_VALUES)? as u64,
            remaining: param_in(header, "remaining", 0..=MOST_VALUES)? as u64,
            most: param_in(header, "most", 0..=MOST_POINTS)? as u32,
        })
    }

    fn header_params(p: &TargetShape) -> Vec<(&'static str, i64)> {
        let mut out = p.shape.header_params();
        out.push(("open", i64::from(p.open)));
        out.push(("values", p.values as i64));
        out.push(("remaining", p.remaining as i64));
        out.push(("most", i64::from(p.most)));
        out
    }

    /// The rules read and checked, the header's shape theirs, and the
    /// distribution whole.
    fn check_contents(t: &Checked<RuleTarget>) -> Result<(), TableError> {
        Board::read(t.whole(&TARGET_SECTIONS[5])?, t.params().shape)?;
        target::check_distribution(t.whole(&TARGET_SECTIONS[2])?)
    }

    fn check_chunk(p: &TargetShape, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        let most = u64::from(p.most);
        match section {
            0 => target::check_index_chunk(TARGET_SECTIONS[0].name, bytes, p.values, most),
            3 => target::check_index_chunk(TARGET_SECTIONS[3].name, bytes, p.remaining, most),
            _ => Ok(()),
        }
    }

    /// Every state's chances decoded (none may drop below 0); a whole
    /// table's start distribution as `ev_distribution`.
    fn check_whole(t: &Checked<RuleTarget>) -> Result<(), TableError> {
        let p = t.params();
        let start = (p.open == p.shape.boxes).then(|| {
            let all = (1u32 << p.shape.boxes) - 1;
            p.shape.index(all, 0, 0).expect("every box open is a turn start")
        });
        target::check_curves(t, &TARGET_SECTIONS, start)
    }

    fn from_checked(t: Checked<RuleTarget>) -> Result<RuleTarget, TableError> {
        let board = Board::read(t.whole(&TARGET_SECTIONS[5])?, t.params().shape)?;
        Ok(RuleTarget { t, board })
    }

    fn checked(&self) -> &Checked<RuleTarget> {
        &self.t
    }
}

impl RuleTarget {
    /// The most boxes open in a state the table holds: every state for a
    /// whole table, the last turns only for a reduced one.
    pub fn max_open(&self) -> usize {
        usize::from(self.t.params().open)
    }

    /// Where the turn start is stored; refused when a fixed order never
    /// reaches the mask or a reduced table does not hold it.
    fn state(&self, mask: u32, upper: u32, held: u32) -> Result<usize, Error> {
        let open = mask.count_ones() as usize;
        if open > self.max_open() {
            let (table, max_open) = (super::target_stem(&self.rules.name), self.max_open());
            return Err(ArgumentError::from(ArgumentErrorKind::ReducedTable { table, open, max_open }).into());
        }
        let at = self.index(mask, upper, held, 0).ok_or_else(|| {
            TableError::section(TARGET_SECTIONS[0].name, format!("holds no state with boxes {mask:#b} open"))
        })?;
        Ok(at)
    }

    /// `P*(S, n)` for every `n` of the turn start `mask`, `upper`, `held`
    /// (as [`RuleSheet::turn_start_value`](super::RuleSheet::turn_start_value) takes it).
    pub fn curve(&self, mask: u32, upper: u32, held: u32) -> Result<Curve, Error> {
        let state = self.state(mask, upper, held)?;
        Ok(target::read_curve(&self.t, &TARGET_SECTIONS, target::CHANCES, state)?)
    }

    /// The best chance of scoring at least `need` more points from the
    /// turn start (1 for `need <= 0`).
    pub fn chance(&self, mask: u32, upper: u32, held: u32, need: i64) -> Result<f64, Error> {
        let state = self.state(mask, upper, held)?;
        let upto = need.max(0) as u64;
        Ok(target::read_curve_upto(&self.t, &TARGET_SECTIONS, target::CHANCES, state, upto)?.chance(need))
    }

    /// `P(remaining >= n)` for every `n`: the points still to come from the
    /// turn start under max-expected-score play (the rule set's own
    /// table's decisions), counted as `P*` counts them.
    pub fn remaining(&self, mask: u32, upper: u32, held: u32) -> Result<Curve, Error> {
        let state = self.state(mask, upper, held)?;
        Ok(target::read_curve(&self.t, &TARGET_SECTIONS, target::REMAINING, state)?)
    }

    /// P(final score = s) for s = 0 to the game's most under
    /// max-expected-score play from the start, as the generator stored it.
    pub fn ev_distribution(&self) -> Result<Vec<f64>, Error> {
        Ok(target::read_distribution(&self.t, &TARGET_SECTIONS[2])?)
    }

    /// Every option of `dice` with `rerolls` left at the turn start `mask`,
    /// `upper`, `held`, played for at least `need` more points (this turn's
    /// included), each with its best chance. The decision first: the first
    /// in the tie order (boxes in sheet order, then larger keeps first)
    /// within [`TARGET_TIE`] of the best; then by descending chance. The
    /// roll's value is the decision's chance; with no box open (no option)
    /// the turn start's, which counts the upper bonus still to come.
    pub fn options(
        &self,
        mask: u32,
        upper: u32,
        held: u32,
        dice: Dice,
        rerolls: u8,
        need: i64,
    ) -> Result<RollOptions, Error> {
        self.roll(SheetState { open: mask, upper, held }, dice, rerolls, Goal::Reach(need))
    }

    /// The opponent whose sheet is `mask`, `upper`, `held` (read from this
    /// table: the same rules), `lead` points behind you (negative: ahead),
    /// as the opponent-aware advisor sees them: their points still to come
    /// distributed as the rule set's own table plays.
    pub fn opponent(&self, mask: u32, upper: u32, held: u32, lead: i64) -> Result<Opponent, Error> {
        Ok(Opponent::new(&self.remaining(mask, upper, held)?, lead))
    }

    /// The opponent-aware advisor's estimate of your chance of winning
    /// (ties half) at the start of a turn against `opponent` (see
    /// [`Opponent`]; with no box open, the game over for you, your upper
    /// bonus still to come against their points still to come).
    pub fn versus_chance(&self, mask: u32, upper: u32, held: u32, opponent: &Opponent) -> Result<f64, Error> {
        let state = self.state(mask, upper, held)?;
        let goal = Goal::Beat(opponent.clone());
        let mut next = NextChances::new(self, &goal);
        if mask == 0 {
            return Ok(opponent.chance_after(next.curve(state)?, 0));
        }
        let from = SheetState { open: mask, upper, held };
        let later = next.stop_values(from, false)?;
        let keeps = (self.rules.rerolls > 0).then(|| self.keep_values_with(later, self.rules.rerolls - 1));
        let first = next.stop_values(from, true)?;
        Ok(self.turn_start_from(&first, keeps.as_deref()))
    }

    /// Every option of `dice` with `rerolls` left against `opponent`, with
    /// the advisor's estimate of your chance of winning (ties half) if it is
    /// taken, ranked as [`RuleTarget::options`] ranks them.
    pub fn versus_options(
        &self,
        mask: u32,
        upper: u32,
        held: u32,
        dice: Dice,
        rerolls: u8,
        opponent: &Opponent,
    ) -> Result<RollOptions, Error> {
        self.roll(SheetState { open: mask, upper, held }, dice, rerolls, Goal::Beat(opponent.clone()))
    }

    /// A roll's options played for `goal`, ranked with the tie allowance.
    fn roll(&self, from: SheetState, dice: Dice, rerolls: u8, goal: Goal) -> Result<RollOptions, Error> {
        self.check_roll(dice, rerolls, 0)?;
        let state = self.state(from.open, from.upper, from.held)?;
        let mut next = NextChances::new(self, &goal);
        if from.open == 0 {
            let value = match &goal {
                Goal::Reach(need) => next.curve(state)?.chance(*need),
                Goal::Beat(opponent) => opponent.chance_after(next.curve(state)?, 0),
            };
            return Ok(RollOptions { value, options: Vec::new() });
        }
        let mut moves = Vec::new();
        self.moves(from, &dice.counts(), rerolls == self.rules.rerolls, &mut moves);
        let mut options = Vec::with_capacity(moves.len() + 64);
        for &(m, after) in &moves {
            options.push((RuleChoice::Score(m), next.chance(m, after)?));
        }
        if rerolls > 0 {
            let keeps = self.keep_values_with(next.stop_values(from, false)?, rerolls - 1);
            push_keeps(&mut options, dice, &keeps);
        }
        Ok(ranked(options))
    }

    /// The turn starting at `mask`, `upper`, `held`, played for at least
    /// `need` more points (this turn's included), worked out once: for a
    /// program that weighs many rolls from one turn start (the coach's
    /// reference players playing for a target), where
    /// [`RuleTarget::options`] would work each roll out again. Refused
    /// with no box open.
    pub fn turn(&self, mask: u32, upper: u32, held: u32, need: i64) -> Result<TargetTurn, Error> {
        let state = self.state(mask, upper, held)?;
        if mask == 0 {
            return Err(TableError::section(TARGET_SECTIONS[0].name, format!("state {state} has no box open")).into());
        }
        let goal = Goal::Reach(need);
        let mut next = NextChances::new(self, &goal);
        let from = SheetState { open: mask, upper, held };
        let n = usize::from(self.rules.dice);
        let (mut first, mut later, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        for rank in 0..crate::dice::multiset_count(n) {
            let counts = Dice::unrank(n, rank).expect("a rank below the count").counts();
            for (at_first, out) in [(true, &mut first), (false, &mut later)] {
                moves.clear();
                self.moves(from, &counts, at_first, &mut moves);
                let valued = moves.iter().map(|&(m, after)| Ok((m, next.chance(m, after)?)));
                out.push(valued.collect::<Result<Vec<_>, TableError>>()?);
            }
        }
        let mut keeps = Vec::new();
        if self.rules.rerolls > 0 {
            let stops = next.stop_values(from, false)?;
            self.keep_levels(stops, usize::from(self.rules.rerolls), None, |level| keeps.push(level.to_vec()));
        }
        Ok(TargetTurn { rerolls: self.rules.rerolls, dice: n, first, later, keeps })
    }
}

/// A turn played for a target, worked out once from its start
/// ([`RuleTarget::turn`]): every move of every roll with its chance, on
/// the turn's first roll and after a reroll, and every keep's chance by
/// the rerolls left after it.
#[derive(Clone, Debug)]
pub struct TargetTurn {
    rerolls: u8,
    dice: usize,
    first: Vec<Vec<(Move, f64)>>,
    later: Vec<Vec<(Move, f64)>>,
    keeps: Vec<Vec<f64>>,
}

impl TargetTurn {
    /// Every option of `dice` with `rerolls` left, exactly as
    /// [`RuleTarget::options`] gives them from the same turn start and
    /// need: the decision first, then by descending chance. `None` when
    /// `dice` are not the rules' count or `rerolls` more than the turn has.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Option<RollOptions> {
        if dice.len() != self.dice || rerolls > self.rerolls {
            return None;
        }
        let moves = if rerolls == self.rerolls { &self.first } else { &self.later };
        let mut options: Vec<(RuleChoice, f64)> =
            moves[dice.rank()].iter().map(|&(m, p)| (RuleChoice::Score(m), p)).collect();
        if rerolls > 0 {
            push_keeps(&mut options, dice, &self.keeps[usize::from(rerolls) - 1]);
        }
        Some(ranked(options))
    }
}

/// Every keep of fewer dice than `dice`, larger keeps first (the tie
/// order), each with its chance in `keeps` (by graded rank).
fn push_keeps(options: &mut Vec<(RuleChoice, f64)>, dice: Dice, keeps: &[f64]) {
    let mut partial: Vec<Dice> = dice.sub_multisets().filter(|k| k.len() < dice.len()).collect();
    partial.sort_by_key(|k| std::cmp::Reverse(k.graded_rank()));
    options.extend(partial.into_iter().map(|k| (RuleChoice::Keep(k), keeps[k.graded_rank()])));
}

/// A roll's options (scores in box order, then keeps in the tie order)
/// ranked: the decision, the first within [`TARGET_TIE`] of the best,
/// first; then by descending chance.
fn ranked(mut options: Vec<(RuleChoice, f64)>) -> RollOptions {
    let highest = options.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
    let decision = options.iter().position(|o| o.1 >= highest - TARGET_TIE).expect("a box is open");
    let first = options.remove(decision);
    options.sort_by(|a, b| b.1.total_cmp(&a.1));
    options.insert(0, first);
    RollOptions { value: first.1, options }
}

/// The curves of the turn starts a turn leads to, each read once (as far
/// as a need: no score is negative, so nothing past it is asked), and the
/// chance of each (turn start, points now) once.
struct NextChances<'a> {
    table: &'a RuleTarget,
    goal: &'a Goal,
    curves: HashMap<usize, Curve>,
    chances: HashMap<(usize, u32), f64>,
}

impl<'a> NextChances<'a> {
    fn new(table: &'a RuleTarget, goal: &'a Goal) -> NextChances<'a> {
        NextChances { table, goal, curves: HashMap::new(), chances: HashMap::new() }
    }

    fn curve(&mut self, state: usize) -> Result<&Curve, TableError> {
        if !self.curves.contains_key(&state) {
            let t = self.table;
            let curve = target::read_curve_upto(&t.t, &TARGET_SECTIONS, target::CHANCES, state, self.goal.upto())?;
            self.curves.insert(state, curve);
        }
        Ok(&self.curves[&state])
    }

    /// The chance of the goal after scoring `m` into `after`.
    fn chance(&mut self, m: Move, after: SheetState) -> Result<f64, TableError> {
        let state = self.table.index(after.open, after.upper, after.held, 0).expect("a move leads to a turn start");
        let key = (state, m.scored());
        if let Some(&p) = self.chances.get(&key) {
            return Ok(p);
        }
        let goal = self.goal;
        let p = goal.after(self.curve(state)?, m.scored());
        self.chances.insert(key, p);
        Ok(p)
    }

    /// Each roll's best chance when it must score now from `from`, as the
    /// keep lattice lays the rolls out (on the turn's `first` roll, a
    /// first-roll bonus counts).
    fn stop_values(&mut self, from: SheetState, first: bool) -> Result<Vec<f64>, TableError> {
        let table = self.table;
        let mut moves = Vec::new();
        table.stop_values(|roll| {
            moves.clear();
            table.moves(from, &roll.counts(), first, &mut moves);
            let mut best = f64::NEG_INFINITY;
            for &(m, after) in &moves {
                best = best.max(self.chance(m, after)?);
            }
            Ok(best)
        })
    }
}
