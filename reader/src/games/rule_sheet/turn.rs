//! A roll's options in any rule set, from the stored turn-start values: each
//! box the roll may score (its points, any extra bonus, the first-roll
//! bonus on the turn's first roll, then the value of the turn start that
//! leads to), and with rerolls left each keep, valued by the best play of
//! the rerolls still to come.

use super::{Board, RuleParts, RuleSheet};
use crate::dice::{multiset_count, Dice};
use crate::error::{Error, TableError};
use crate::rules::SheetState;

/// Scoring a box with the dice showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The box, its index in the rules.
    pub box_index: usize,
    /// Its points.
    pub points: u16,
    /// The extra bonus the roll earns beside them.
    pub bonus: u16,
    /// The first-roll bonus it earns (0 after a reroll).
    pub first_roll: u16,
    /// Scored with the turn's first roll, the box wins a two-player game at
    /// once (Generala's served generala); a solitaire table scores it for
    /// its points.
    pub wins: bool,
}

impl Move {
    /// Everything the move scores now.
    pub fn scored(&self) -> u32 {
        u32::from(self.points) + u32::from(self.bonus) + u32::from(self.first_roll)
    }
}

/// One option of a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleChoice {
    /// Keep these dice and reroll the rest.
    Keep(Dice),
    /// Score a box.
    Score(Move),
}

/// A roll's options, best first, each with the expected score still to
/// come (this turn's included) under optimal play after it.
#[derive(Clone, Debug, PartialEq)]
pub struct RollOptions {
    /// The best option's value: the roll's.
    pub value: f64,
    /// Every option (each box the roll may score, each keep of fewer dice
    /// while rerolls are left), best first; ties keep boxes before keeps.
    pub options: Vec<(RuleChoice, f64)>,
}

/// A turn start's moves valued: the turn starts scoring leads to, each
/// read once.
struct Turn<'a> {
    sheet: &'a dyn TurnStarts,
    mask: u32,
    upper: u32,
    held: u32,
    /// The value of the turn start after scoring box `b` with the upper
    /// total then `u` (capped), box `b` holding points or not and `s`
    /// rerolls saved (where the rules save them), at
    /// `((s * boxes + b) * 2 + holds) * totals + u`; NaN until read.
    after: Vec<f64>,
    /// A move list reused from roll to roll.
    moves: Vec<(Move, SheetState)>,
    /// Whether the turns after this one count (the table's values), or
    /// only this turn's points (a player who looks no further).
    later_turns: bool,
}

impl Turn<'_> {
    /// Every way to score `counts` with `left` rerolls left, each with its
    /// value: what it scores now plus the value of the turn start it leads to.
    fn moves(&mut self, counts: &[u8; 6], first: bool, left: u8) -> Result<Vec<(Move, f64)>, TableError> {
        let mut valued = Vec::new();
        self.each_move(counts, first, left, |m, v| valued.push((m, v)))?;
        Ok(valued)
    }

    /// The best way to score `counts` with `left` rerolls left and its
    /// value (`None`: no box open).
    fn best_move(&mut self, counts: &[u8; 6], first: bool, left: u8) -> Result<Option<(Move, f64)>, TableError> {
        let mut best: Option<(Move, f64)> = None;
        self.each_move(counts, first, left, |m, v| {
            if best.is_none_or(|b| v > b.1) {
                best = Some((m, v));
            }
        })?;
        Ok(best)
    }

    /// Calls `each` with every way to score `counts` with `left` rerolls
    /// left and its value: what it scores now plus the value of the turn
    /// start it leads to (where the rules save rerolls, with `left` saved).
    fn each_move(
        &mut self,
        counts: &[u8; 6],
        first: bool,
        left: u8,
        mut each: impl FnMut(Move, f64),
    ) -> Result<(), TableError> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let from = SheetState { open: self.mask, upper: self.upper, held: self.held };
        self.sheet.moves(from, counts, first, &mut moves);
        let (totals, boxes) = (self.sheet.shape.totals as usize, self.sheet.rules.boxes.len());
        let saved = if self.sheet.saving() > 0 { u32::from(left) } else { 0 };
        for &(m, after) in &moves {
            let holds = after.held != self.held;
            let row = (saved as usize * boxes + m.box_index) * 2 + usize::from(holds);
            let at = row * totals + (after.upper as usize).min(totals - 1);
            if self.after.len() <= at {
                self.after.resize((row + 1) * totals, f64::NAN);
            }
            if self.after[at].is_nan() {
                self.after[at] = match self.later_turns {
                    true => self.sheet.turn_start_saved(after.open, after.upper, after.held, saved)?,
                    false => 0.0,
                };
            }
            each(m, f64::from(m.scored()) + self.after[at]);
        }
        self.moves = moves;
        Ok(())
    }

    /// Each roll's value when it must score now with `left` rerolls left
    /// (not the turn's first roll), as the keep lattice lays the rolls out.
    fn stop_values(&mut self, left: u8) -> Result<Vec<f64>, TableError> {
        let sheet = self.sheet;
        sheet.stop_values(|roll| Ok(self.best_move(&roll.counts(), false, left)?.map_or(f64::NEG_INFINITY, |m| m.1)))
    }

    /// Each keep's value with `rerolls` left after it: from the rolls'
    /// values scored with no reroll left, or where the rules save rerolls,
    /// with each count left (scoring saves them).
    fn keep_values(&mut self, rerolls: u8) -> Result<Vec<f64>, TableError> {
        Ok(match self.sheet.saving() {
            0 => self.sheet.keep_values_with(self.stop_values(0)?, rerolls),
            _ => {
                let stops = (0..=rerolls).map(|left| self.stop_values(left)).collect::<Result<Vec<_>, _>>()?;
                self.sheet.keep_levels(stops[0].clone(), stops.len(), Some(&stops), |_| {})
            }
        })
    }
}

/// A turn's best play from one turn start, worked out once: for a program
/// that plays many rolls from the same turn start (a simulation), where
/// [`TurnStarts::options`] would work each roll's options out again.
#[derive(Clone, Debug)]
pub struct TurnPlan {
    rerolls: u8,
    dice: usize,
    /// Per roll (by rank): its best move and that move's value, on the
    /// turn's first roll and after a reroll (`None`: no box open); where
    /// the rules save rerolls, after a reroll by rerolls left (scoring
    /// saves them).
    first: Vec<Option<(Move, f64)>>,
    later: Vec<Vec<Option<(Move, f64)>>>,
    /// `keeps[r][graded rank]`: a keep's value with `r` rerolls left after it.
    keeps: Vec<Vec<f64>>,
}

impl TurnPlan {
    /// The best option of `dice` with `rerolls` left (the turn's first roll
    /// when that is all the rules give): scoring where it is worth as much
    /// as the best keep. `None` when no box is open.
    pub fn best(&self, dice: Dice, rerolls: u8) -> Option<RuleChoice> {
        let rank = dice.rank();
        let stops = if rerolls == self.rerolls { &self.first } else { &self.later[level(&self.later, rerolls)] };
        let (stop, value) = (*stops.get(rank)?)?;
        let mut best = (RuleChoice::Score(stop), value);
        if rerolls > 0 && dice.len() == self.dice {
            for keep in dice.sub_multisets().filter(|k| k.len() < self.dice) {
                let v = self.keeps[usize::from(rerolls) - 1][keep.graded_rank()];
                if v > best.1 {
                    best = (RuleChoice::Keep(keep), v);
                }
            }
        }
        Some(best.0)
    }
}

/// A turn's every option from one turn start, worked out once: for a
/// program that weighs every option of many rolls from the same turn start
/// (the coach's reference players). Ten times a [`TurnPlan`]'s memory
/// (every move of every roll): hold few.
#[derive(Clone, Debug)]
pub struct TurnOptions {
    rerolls: u8,
    dice: usize,
    /// Per roll (by rank): every move and its value, in box order, laid
    /// out as [`TurnPlan`]'s best moves are.
    first: Vec<Vec<(Move, f64)>>,
    later: Vec<Vec<Vec<(Move, f64)>>>,
    keeps: Vec<Vec<f64>>,
}

impl TurnOptions {
    /// Every option of `dice` with `rerolls` left, best first, exactly as
    /// [`TurnStarts::options_saved`] gives them from the same turn start.
    /// `None` when `dice` are not the rules' count or `rerolls` more than
    /// the turn has.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Option<RollOptions> {
        if dice.len() != self.dice || rerolls > self.rerolls {
            return None;
        }
        let stops = if rerolls == self.rerolls { &self.first } else { &self.later[level(&self.later, rerolls)] };
        let mut options: Vec<(RuleChoice, f64)> =
            stops.get(dice.rank())?.iter().map(|&(m, v)| (RuleChoice::Score(m), v)).collect();
        if rerolls > 0 && !options.is_empty() {
            let keeps = &self.keeps[usize::from(rerolls) - 1];
            for keep in dice.sub_multisets().filter(|k| k.len() < dice.len()) {
                options.push((RuleChoice::Keep(keep), keeps[keep.graded_rank()]));
            }
        }
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        let value = options.first().map_or(0.0, |o| o.1);
        Some(RollOptions { value, options })
    }
}

/// The level of the rolls after a reroll with `rerolls` left: one per
/// count where the rules save rerolls, else the one.
fn level<T>(later: &[T], rerolls: u8) -> usize {
    usize::from(rerolls).min(later.len() - 1)
}

/// A turn worked out from its start: the turn's rerolls, per roll what is
/// kept of its moves on the first roll and after a reroll, and the keeps'
/// values level by level.
type Worked<T> = (u8, Vec<T>, Vec<Vec<T>>, Vec<Vec<f64>>);

/// Where the turn-start values of a rule set's sheet come from: the rule
/// set's own table ([`RuleSheet`]), or a built-in game's table read as its
/// preset's ([`SheetAsRules`](crate::sheet::SheetAsRules)). A roll's
/// options, a turn's plan and an option's parts are worked out from them
/// the same way for both.
pub trait TurnStarts: std::ops::Deref<Target = Board> + std::fmt::Debug + Send + Sync {
    /// The expected score still to come at a turn start: `mask` the open
    /// boxes, `upper` the upper total so far, `held` the boxes holding
    /// points (mask bits; only the tracked ones count), `saved` the rerolls
    /// saved (where the rules save them).
    fn turn_start_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, TableError>;

    /// This sheet as a trait object (`self`): the turn's work is compiled
    /// once for every kind of sheet, not once for each (the npm package's
    /// WebAssembly module is 27 KB smaller so).
    fn as_turn_starts(&self) -> &dyn TurnStarts;

    /// The best play of every roll of the turn starting at `mask`, `upper`,
    /// `held` (as [`RuleSheet::turn_start_value`] takes them).
    fn turn_plan(&self, mask: u32, upper: u32, held: u32) -> Result<TurnPlan, Error> {
        self.turn_plan_saved(mask, upper, held, 0)
    }

    /// [`TurnStarts::turn_plan`] with `saved` rerolls saved (where the rules
    /// save them: the turn has its own and those).
    fn turn_plan_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<TurnPlan, Error> {
        plan(self.as_turn_starts(), (mask, upper, held, saved), true)
    }

    /// The play of a player who counts only this turn's points (what the
    /// dice score now; the upper bonus and the turns after it count for
    /// nothing): a reference player for the coach's figures.
    fn turn_plan_this_turn_only(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<TurnPlan, Error> {
        plan(self.as_turn_starts(), (mask, upper, held, saved), false)
    }

    /// Every option of every roll of the turn starting at `mask`, `upper`,
    /// `held` with `saved` rerolls saved, as [`TurnStarts::options_saved`]
    /// values them.
    fn turn_options_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<TurnOptions, Error> {
        turn_options(self.as_turn_starts(), (mask, upper, held, saved))
    }

    /// Every option of `dice` with `rerolls` left at the turn start `mask`,
    /// `upper`, `held` (as [`RuleSheet::turn_start_value`] takes them),
    /// best first. The roll is the turn's first when `rerolls` is all the
    /// rules give (a first-roll bonus then counts).
    fn options(&self, mask: u32, upper: u32, held: u32, dice: Dice, rerolls: u8) -> Result<RollOptions, Error> {
        self.options_saved(mask, upper, held, 0, dice, rerolls)
    }

    /// [`TurnStarts::options`] with `saved` rerolls saved: `rerolls` may be
    /// the rules' and every one saved, and scoring saves those left.
    fn options_saved(
        &self,
        mask: u32,
        upper: u32,
        held: u32,
        saved: u32,
        dice: Dice,
        rerolls: u8,
    ) -> Result<RollOptions, Error> {
        options(self.as_turn_starts(), (mask, upper, held, saved), dice, rerolls)
    }

    /// A turn start's value worked out again from the values of the turn
    /// starts its moves lead to: the average over the first roll of its best
    /// option. Equal to the stored value within rounding in a sound table
    /// (the tests hold every table to it).
    fn turn_start_recomputed(&self, mask: u32, upper: u32, held: u32) -> Result<f64, Error> {
        self.turn_start_recomputed_saved(mask, upper, held, 0)
    }

    /// [`TurnStarts::turn_start_recomputed`] with `saved` rerolls saved.
    fn turn_start_recomputed_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, Error> {
        recomputed(self.as_turn_starts(), (mask, upper, held, saved))
    }

    /// The parts of the turn start `mask`, `upper`, `held` (as
    /// [`RuleSheet::turn_start_value`] takes it) from the rule set's parts
    /// table `parts`: they add up to this table's value.
    fn parts_of(&self, parts: &RuleParts, mask: u32, upper: u32, held: u32) -> Result<Vec<f64>, Error> {
        super::parts::parts_of(self.as_turn_starts(), parts, mask, upper, held)
    }

    /// The parts of one option of `dice` with `rerolls` left at the turn
    /// start `mask`, `upper`, `held` (as [`TurnStarts::options`] gives them):
    /// the option's points put to the box it scores and the parts of where
    /// it leads, or for a keep, the same over the rest of the turn played as
    /// [`TurnStarts::turn_plan`] plays it. They add up to the option's value.
    #[allow(clippy::too_many_arguments)]
    fn option_parts(
        &self,
        parts: &RuleParts,
        mask: u32,
        upper: u32,
        held: u32,
        dice: Dice,
        rerolls: u8,
        choice: RuleChoice,
    ) -> Result<Vec<f64>, Error> {
        super::parts::option_parts(self.as_turn_starts(), parts, (mask, upper, held), dice, rerolls, choice)
    }
}

impl TurnStarts for RuleSheet {
    fn turn_start_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, TableError> {
        RuleSheet::turn_start_saved(self, mask, upper, held, saved)
    }

    fn as_turn_starts(&self) -> &dyn TurnStarts {
        self
    }
}

/// [`TurnStarts::options_saved`] at the turn start `(mask, upper, held, saved)`.
fn options(
    sheet: &dyn TurnStarts,
    (mask, upper, held, saved): Start,
    dice: Dice,
    rerolls: u8,
) -> Result<RollOptions, Error> {
    let rules = &sheet.rules;
    sheet.check_saved(mask, saved)?;
    sheet.check_roll(dice, rerolls, saved)?;
    sheet.turn_start_saved(mask, upper, held, saved)?;
    let mut turn = turn(sheet, mask, upper, held);
    let first = u32::from(rerolls) == u32::from(rules.rerolls) + saved;
    let mut options: Vec<(RuleChoice, f64)> =
        turn.moves(&dice.counts(), first, rerolls)?.into_iter().map(|(m, v)| (RuleChoice::Score(m), v)).collect();
    if rerolls > 0 && !options.is_empty() {
        let keeps = turn.keep_values(rerolls - 1)?;
        for keep in dice.sub_multisets().filter(|k| k.len() < dice.len()) {
            options.push((RuleChoice::Keep(keep), keeps[keep.graded_rank()]));
        }
    }
    options.sort_by(|a, b| b.1.total_cmp(&a.1));
    let value = options.first().map_or(0.0, |o| o.1);
    Ok(RollOptions { value, options })
}

/// [`TurnStarts::turn_options_saved`].
fn turn_options(sheet: &dyn TurnStarts, start: Start) -> Result<TurnOptions, Error> {
    let best = |moves: &Vec<(Move, f64)>| moves.iter().fold(f64::NEG_INFINITY, |b, m| b.max(m.1));
    let (rerolls, first, later, keeps) = work_out(sheet, start, true, |m| m, best)?;
    Ok(TurnOptions { rerolls, dice: usize::from(sheet.rules.dice), first, later, keeps })
}

/// [`TurnStarts::turn_start_recomputed_saved`].
fn recomputed(sheet: &dyn TurnStarts, (mask, upper, held, saved): Start) -> Result<f64, Error> {
    sheet.check_saved(mask, saved)?;
    let rerolls = (u32::from(sheet.rules.rerolls) + saved) as u8;
    let mut turn = turn(sheet, mask, upper, held);
    let keeps = if rerolls > 0 { Some(turn.keep_values(rerolls - 1)?) } else { None };
    let first = sheet
        .stop_values(|roll| Ok(turn.best_move(&roll.counts(), true, rerolls)?.map_or(f64::NEG_INFINITY, |m| m.1)))?;
    Ok(sheet.turn_start_from(&first, keeps.as_deref()))
}

/// The turn start `(mask, upper, held, saved)` as the turn's functions
/// take it (see [`TurnStarts::turn_start_saved`]).
type Start = (u32, u32, u32, u32);

fn plan(sheet: &dyn TurnStarts, start: Start, later_turns: bool) -> Result<TurnPlan, Error> {
    // The first of the best moves, as the lookups rank them.
    let pick = |moves: Vec<(Move, f64)>| {
        moves.into_iter().fold(None, |best: Option<(Move, f64)>, m| match best {
            Some(b) if m.1 <= b.1 => Some(b),
            _ => Some(m),
        })
    };
    let best = |m: &Option<(Move, f64)>| m.map_or(f64::NEG_INFINITY, |m| m.1);
    let (rerolls, first, later, keeps) = work_out(sheet, start, later_turns, pick, best)?;
    Ok(TurnPlan { rerolls, dice: usize::from(sheet.rules.dice), first, later, keeps })
}

/// The turn from `mask`, `upper`, `held` with `saved` rerolls saved
/// worked out: each roll's moves (valued with the turns after it, or
/// with this turn's points alone) kept as `keep` makes them, `best`
/// their best value; the keeps' values from those.
fn work_out<T>(
    sheet: &dyn TurnStarts,
    (mask, upper, held, saved): Start,
    later_turns: bool,
    keep: impl Fn(Vec<(Move, f64)>) -> T,
    best: impl Fn(&T) -> f64,
) -> Result<Worked<T>, Error> {
    sheet.check_saved(mask, saved)?;
    sheet.turn_start_saved(mask, upper, held, saved)?;
    let n = usize::from(sheet.rules.dice);
    let rerolls = (u32::from(sheet.rules.rerolls) + saved) as u8;
    let levels = if sheet.saving() > 0 { usize::from(rerolls) } else { 1 };
    let mut turn = turn(sheet, mask, upper, held);
    turn.later_turns = later_turns;
    let (mut first, mut later) = (Vec::new(), (0..levels).map(|_| Vec::new()).collect::<Vec<_>>());
    for r in 0..multiset_count(n) {
        let counts = Dice::unrank(n, r).expect("a rank below the count").counts();
        first.push(keep(turn.moves(&counts, true, rerolls)?));
        for (left, later) in later.iter_mut().enumerate() {
            later.push(keep(turn.moves(&counts, false, left as u8)?));
        }
    }
    // Each roll's value scored with each count of rerolls left, as the
    // lattice lays the rolls out.
    let stops: Vec<Vec<f64>> = later
        .iter()
        .map(|later| {
            let mut values = vec![0.0; sheet.lattice.partial];
            values.extend(later.iter().map(&best));
            values
        })
        .collect();
    let mut keeps = Vec::new();
    let own = (sheet.saving() > 0).then_some(stops.as_slice());
    sheet.keep_levels(stops[0].clone(), usize::from(rerolls), own, |k| keeps.push(k.to_vec()));
    Ok((rerolls, first, later, keeps))
}

fn turn(sheet: &dyn TurnStarts, mask: u32, upper: u32, held: u32) -> Turn<'_> {
    let after = vec![f64::NAN; sheet.rules.boxes.len() * 2 * sheet.shape.totals as usize];
    Turn { sheet, mask, upper, held, after, moves: Vec::new(), later_turns: true }
}
