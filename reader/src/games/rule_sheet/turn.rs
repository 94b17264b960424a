//! A roll's options in any rule set, from the stored turn-start values: each
//! box the roll may score (its points, any extra bonus, the first-roll
//! bonus on the turn's first roll, then the value of the turn start that
//! leads to), and with rerolls left each keep, valued by the best play of
//! the rerolls still to come.

use super::RuleSheet;
use crate::dice::{multiset_count, Dice};
use crate::error::{Error, TableError};
use crate::five_dice::{best_values, keep_values};
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
    sheet: &'a RuleSheet,
    mask: u32,
    upper: u32,
    held: u32,
    /// The value of the turn start after scoring box `b` with the upper
    /// total then `u` (capped) and box `b` holding points or not, at
    /// `(b * 2 + holds) * totals + u`; NaN until read.
    after: Vec<f64>,
    /// A move list reused from roll to roll.
    moves: Vec<(Move, SheetState)>,
}

impl Turn<'_> {
    /// Every way to score `counts`, each with its value: what it scores now
    /// plus the value of the turn start it leads to.
    fn moves(&mut self, counts: &[u8; 6], first: bool) -> Result<Vec<(Move, f64)>, TableError> {
        let mut valued = Vec::new();
        self.each_move(counts, first, |m, v| valued.push((m, v)))?;
        Ok(valued)
    }

    /// The best way to score `counts` and its value (`None`: no box open).
    fn best_move(&mut self, counts: &[u8; 6], first: bool) -> Result<Option<(Move, f64)>, TableError> {
        let mut best: Option<(Move, f64)> = None;
        self.each_move(counts, first, |m, v| {
            if best.is_none_or(|b| v > b.1) {
                best = Some((m, v));
            }
        })?;
        Ok(best)
    }

    /// Calls `each` with every way to score `counts` and its value: what it
    /// scores now plus the value of the turn start it leads to.
    fn each_move(&mut self, counts: &[u8; 6], first: bool, mut each: impl FnMut(Move, f64)) -> Result<(), TableError> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let from = SheetState { open: self.mask, upper: self.upper, held: self.held };
        self.sheet.moves(from, counts, first, &mut moves);
        let totals = self.sheet.shape.totals;
        for &(m, after) in &moves {
            let holds = after.held != self.held;
            let at = (m.box_index * 2 + usize::from(holds)) * totals as usize + after.upper.min(totals - 1) as usize;
            if self.after[at].is_nan() {
                self.after[at] = self.sheet.turn_start_value(after.open, after.upper, after.held)?;
            }
            each(m, f64::from(m.scored()) + self.after[at]);
        }
        self.moves = moves;
        Ok(())
    }

    /// Each roll's value when it must score now (after a reroll), as the
    /// keep lattice lays the rolls out.
    fn stop_values(&mut self) -> Result<Vec<f64>, TableError> {
        let sheet = self.sheet;
        sheet.stop_values(|roll| Ok(self.best_move(&roll.counts(), false)?.map_or(f64::NEG_INFINITY, |m| m.1)))
    }
}

/// A turn's best play from one turn start, worked out once: for a program
/// that plays many rolls from the same turn start (a simulation), where
/// [`RuleSheet::options`] would work each roll's options out again.
#[derive(Clone, Debug)]
pub struct TurnPlan {
    rerolls: u8,
    dice: usize,
    /// Per roll (by rank): its best move and that move's value, on the
    /// turn's first roll and after a reroll (`None`: no box open).
    first: Vec<Option<(Move, f64)>>,
    later: Vec<Option<(Move, f64)>>,
    /// `keeps[r][graded rank]`: a keep's value with `r` rerolls left after it.
    keeps: Vec<Vec<f64>>,
}

impl TurnPlan {
    /// The best option of `dice` with `rerolls` left (the turn's first roll
    /// when that is all the rules give): scoring where it is worth as much
    /// as the best keep. `None` when no box is open.
    pub fn best(&self, dice: Dice, rerolls: u8) -> Option<RuleChoice> {
        let rank = dice.rank();
        let stops = if rerolls == self.rerolls { &self.first } else { &self.later };
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

impl RuleSheet {
    /// The best play of every roll of the turn starting at `mask`, `upper`,
    /// `held` (as [`RuleSheet::turn_start_value`] takes them).
    pub fn turn_plan(&self, mask: u32, upper: u32, held: u32) -> Result<TurnPlan, Error> {
        self.turn_start_value(mask, upper, held)?;
        let n = usize::from(self.rules.dice);
        let mut turn = self.turn(mask, upper, held);
        let (mut first, mut later) = (Vec::new(), Vec::new());
        for r in 0..multiset_count(n) {
            let counts = Dice::unrank(n, r).expect("a rank below the count").counts();
            first.push(turn.best_move(&counts, true)?);
            later.push(turn.best_move(&counts, false)?);
        }
        let mut values = vec![0.0; self.lattice.partial];
        values.extend(later.iter().map(|m| m.map_or(f64::NEG_INFINITY, |m| m.1)));
        let mut scratch = vec![0.0; self.lattice.partial];
        let mut keeps = Vec::new();
        for level in 0..self.rules.rerolls {
            if level > 0 {
                best_values(&self.lattice, &mut values, &mut scratch);
            }
            keep_values(&self.lattice, &mut values);
            keeps.push(values[..self.lattice.partial].to_vec());
        }
        Ok(TurnPlan { rerolls: self.rules.rerolls, dice: n, first, later, keeps })
    }

    fn turn(&self, mask: u32, upper: u32, held: u32) -> Turn<'_> {
        let after = vec![f64::NAN; self.rules.boxes.len() * 2 * self.shape.totals as usize];
        Turn { sheet: self, mask, upper, held, after, moves: Vec::new() }
    }

    /// Every option of `dice` with `rerolls` left at the turn start `mask`,
    /// `upper`, `held` (as [`RuleSheet::turn_start_value`] takes them),
    /// best first. The roll is the turn's first when `rerolls` is all the
    /// rules give (a first-roll bonus then counts).
    pub fn options(&self, mask: u32, upper: u32, held: u32, dice: Dice, rerolls: u8) -> Result<RollOptions, Error> {
        let rules = &self.rules;
        self.check_roll(dice, rerolls)?;
        self.turn_start_value(mask, upper, held)?;
        let mut turn = self.turn(mask, upper, held);
        let mut options: Vec<(RuleChoice, f64)> = turn
            .moves(&dice.counts(), rerolls == rules.rerolls)?
            .into_iter()
            .map(|(m, v)| (RuleChoice::Score(m), v))
            .collect();
        if rerolls > 0 && !options.is_empty() {
            let keeps = self.keep_values_with(turn.stop_values()?, rerolls - 1);
            for keep in dice.sub_multisets().filter(|k| k.len() < dice.len()) {
                options.push((RuleChoice::Keep(keep), keeps[keep.graded_rank()]));
            }
        }
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        let value = options.first().map_or(0.0, |o| o.1);
        Ok(RollOptions { value, options })
    }

    /// A turn start's value worked out again from the values of the turn
    /// starts its moves lead to: the average over the first roll of its best
    /// option. Equal to the stored value within rounding in a sound table
    /// (the tests hold every table to it).
    pub fn turn_start_recomputed(&self, mask: u32, upper: u32, held: u32) -> Result<f64, Error> {
        let mut turn = self.turn(mask, upper, held);
        let later = turn.stop_values()?;
        let keeps = (self.rules.rerolls > 0).then(|| self.keep_values_with(later, self.rules.rerolls - 1));
        let first =
            self.stop_values(|roll| Ok(turn.best_move(&roll.counts(), true)?.map_or(f64::NEG_INFINITY, |m| m.1)))?;
        Ok(self.turn_start_from(&first, keeps.as_deref()))
    }
}
