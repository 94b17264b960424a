//! `yazy-target`: yazy played to reach a target. For every mask of open
//! categories and every `n`, `P*(mask, n)`, the best chance over all
//! strategies of scoring at least `n` more points from the turn's start to
//! the game's end; a lookup solves the turn it is asked about from them.
//! Layout shared with the other target tables: see [`crate::target`].
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::yazy::{Action, Mask};
//! use dice_tables_reader::{yazy::target::YazyTarget, Game, Tables};
//! let table = YazyTarget::open(Tables::default_dir().join("yazy-target.dtab"))?;
//! // The chance of a whole game scoring 200 or more, played for it.
//! let p = table.chance(Mask::ALL, 200)?;
//! assert!((p - 0.2191338).abs() < 1e-7);
//! // Needing 50 from the yazy box alone: keep the three sixes.
//! let options = table.options("yazy".parse()?, "66612".parse()?, 2, 50)?;
//! assert_eq!(options.best().map(|o| o.action), Some(Action::Keep("666".parse()?)));
//! # Ok(()) }
//! ```
//!
//! Against an opponent, as the opponent-aware advisor plays (see
//! [`Opponent`]): on the game's last turn, the opponent done and 20 points
//! ahead, only a yazy wins, and the estimate is that exact chance.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::yazy::{Action, Mask};
//! use dice_tables_reader::{yazy::target::YazyTarget, Game, Tables};
//! let table = YazyTarget::open(Tables::default_dir().join("yazy-target.dtab"))?;
//! let opponent = table.opponent(Mask::NONE, -20)?;
//! let p = table.versus_chance("yazy".parse()?, &opponent)?;
//! assert!((p - 2783176.0 / 60466176.0).abs() < 1e-12);
//! // Three sixes and a reroll left: keep them.
//! let options = table.versus_options("yazy".parse()?, "66612".parse()?, 1, &opponent)?;
//! assert_eq!(options.best().map(|o| o.action), Some(Action::Keep("666".parse()?)));
//! # Ok(()) }
//! ```

use std::fmt;

use super::{points, Action, Category, Mask, Rules, CATEGORIES, MASKS, MAX_REROLLS, MOST_POINTS};
use crate::dice::Dice;
use crate::error::{Error, TableError};
use crate::five_dice::{check_state, DICE, ROLLS};
use crate::format::Header;
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::target::{self, Against, Curve, Goal, Opponent, TargetChoice, TargetChoices, TargetParams};

/// A yazy-target table's parameters: the rules and how many chances it stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YazyTargetParams {
    /// The rules (header parameter `rerolls`).
    pub rules: Rules,
    /// Chances stored (header parameter `values`).
    pub values: u64,
    /// Chances of the remaining-points distributions stored (header
    /// parameter `remaining`).
    pub remaining: u64,
}

impl TargetParams for YazyTargetParams {
    fn states(&self) -> u64 {
        MASKS as u64
    }
    fn values(&self) -> u64 {
        self.values
    }
    fn remaining(&self) -> u64 {
        self.remaining
    }
    fn most(&self) -> u64 {
        MOST_POINTS as u64
    }
}

/// The sections: `state_index`, `p`, `ev_distribution`, `remaining_index`,
/// `remaining` (see [`crate::target`]).
pub const SECTIONS: [SectionSpec<YazyTargetParams>; 5] = target::sections();

/// A yazy-target table.
pub struct YazyTarget {
    t: Checked<Self>,
}

impl fmt::Debug for YazyTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("YazyTarget").field("t", &self.t).finish()
    }
}

impl Game for YazyTarget {
    const ID: &'static str = "yazy-target";
    const BUILT_BY: &'static [&'static str] = &["yazy-target", "target-tables"];
    type Params = YazyTargetParams;
    const SECTIONS: &'static [SectionSpec<YazyTargetParams>] = &SECTIONS;

    fn params(header: &Header) -> Result<YazyTargetParams, TableError> {
        let rerolls = param_in(header, "rerolls", 0..=MAX_REROLLS)? as u8;
        let values = param_in(header, "values", 0..=(MASKS * MOST_POINTS) as i64)? as u64;
        let remaining = param_in(header, "remaining", 0..=(MASKS * (MOST_POINTS + 1)) as i64)? as u64;
        Ok(YazyTargetParams { rules: Rules { rerolls }, values, remaining })
    }

    fn header_params(p: &YazyTargetParams) -> Vec<(&'static str, i64)> {
        let mut out = vec![("rerolls", i64::from(p.rules.rerolls)), ("values", p.values as i64)];
        out.push(("remaining", p.remaining as i64));
        out
    }

    fn check_contents(t: &Checked<Self>) -> Result<(), TableError> {
        target::check_distribution(t.whole(&SECTIONS[2])?)
    }

    fn check_chunk(p: &YazyTargetParams, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        match section {
            0 => target::check_index_chunk("state_index", bytes, p.values, MOST_POINTS as u64),
            3 => target::check_index_chunk("remaining_index", bytes, p.remaining, MOST_POINTS as u64),
            _ => Ok(()),
        }
    }

    /// Every state's chances decoded (none may drop below 0); the start's
    /// remaining points' distribution as `ev_distribution`.
    fn check_whole(t: &Checked<Self>) -> Result<(), TableError> {
        target::check_curves(t, &SECTIONS, Some(usize::from(Mask::ALL.bits())))
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        Ok(YazyTarget { t })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

/// Every roll's points in every category, computed once.
pub(crate) static ROLL_POINTS: std::sync::LazyLock<Vec<[u8; CATEGORIES.len()]>> = std::sync::LazyLock::new(|| {
    (0..ROLLS)
        .map(|r| {
            let dice = Dice::unrank(DICE, r).expect("roll < 252");
            std::array::from_fn(|c| points(&dice, c))
        })
        .collect()
});

impl YazyTarget {
    /// The rules the table was solved for.
    pub fn rules(&self) -> Rules {
        self.t.params().rules
    }

    /// `P*(mask, n)` for every `n`, as stored.
    pub fn curve(&self, mask: Mask) -> Result<Curve, TableError> {
        target::read_curve(&self.t, &SECTIONS, target::CHANCES, usize::from(mask.bits()))
    }

    /// `P(remaining >= n)` for every `n`: the points still to come from the
    /// start of a turn with the categories of `mask` open under
    /// max-expected-score play (the `yazy` table's decisions).
    pub fn remaining(&self, mask: Mask) -> Result<Curve, TableError> {
        target::read_curve(&self.t, &SECTIONS, target::REMAINING, usize::from(mask.bits()))
    }

    /// The best chance of scoring at least `need` more points from the
    /// start of a turn with the categories of `mask` open (1 for `need <= 0`).
    pub fn chance(&self, mask: Mask, need: i64) -> Result<f64, Error> {
        Ok(self.curve(mask)?.chance(need))
    }

    /// P(final score = s) for s = 0 to 280 under max-expected-score play
    /// (the `yazy` table's decisions), as the generator stored it.
    pub fn ev_distribution(&self) -> Result<Vec<f64>, Error> {
        Ok(target::read_distribution(&self.t, &SECTIONS[2])?)
    }

    /// Every action of `dice` with `rerolls` left, with the best chance of
    /// scoring at least `need` more points (this turn's included) if it is
    /// taken: scoring now in each open category and, while rerolls are
    /// left, every partial keep. The decision first (the first in the tie
    /// order within [`TARGET_TIE`](crate::target::TARGET_TIE) of the best:
    /// categories in mask-bit order, then larger keeps first), then by
    /// descending chance.
    pub fn options(&self, mask: Mask, dice: Dice, rerolls: u8, need: i64) -> Result<TargetChoices<Action>, Error> {
        self.goal_options(mask, dice, rerolls, &Goal::Reach(need))
    }

    /// The opponent with the categories of `opponent_mask` open, `lead`
    /// points behind you (negative: ahead), as the opponent-aware advisor
    /// sees them (see [`Opponent`]).
    pub fn opponent(&self, opponent_mask: Mask, lead: i64) -> Result<Opponent, Error> {
        Ok(Opponent::new(&self.remaining(opponent_mask)?, lead))
    }

    /// The opponent-aware advisor's estimate of your chance of winning
    /// (ties half) at the start of a turn with the categories of `mask`
    /// open against `opponent`.
    pub fn versus_chance(&self, mask: Mask, opponent: &Opponent) -> Result<f64, Error> {
        if mask == Mask::NONE {
            return Ok(opponent.chance_after(&self.curve(mask)?, 0));
        }
        let next = self.next_curves(mask)?;
        let goal = Goal::Beat(opponent.clone());
        let stop = stop_chances(&next, &goal);
        Ok(target::KeepLevels::turn_start(&|r| stop[r], self.rules().rerolls))
    }

    /// Every action of `dice` with `rerolls` left against `opponent`, with
    /// the advisor's estimate of your chance of winning (ties half) if it
    /// is taken, ranked as [`YazyTarget::options`].
    pub fn versus_options(
        &self,
        mask: Mask,
        dice: Dice,
        rerolls: u8,
        opponent: &Opponent,
    ) -> Result<TargetChoices<Action>, Error> {
        self.goal_options(mask, dice, rerolls, &Goal::Beat(opponent.clone()))
    }

    /// Per open category, the curve of the mask left after scoring it.
    fn next_curves(&self, mask: Mask) -> Result<Vec<(Category, Curve)>, TableError> {
        mask.categories().map(|c| Ok((c, self.curve(mask.without(c))?))).collect()
    }

    /// Solves the turn with the categories of `mask` open against
    /// `opponent` once, for every decision in it (see [`YazyTargetTurn`]).
    pub fn versus_turn(&self, mask: Mask, opponent: &Opponent) -> Result<YazyTargetTurn, Error> {
        self.solve_turn(mask, Goal::Beat(opponent.clone()), self.rules().rerolls)
    }

    fn goal_options(&self, mask: Mask, dice: Dice, rerolls: u8, goal: &Goal) -> Result<TargetChoices<Action>, Error> {
        check_state(dice, rerolls, self.rules().rerolls, Self::ID)?;
        self.solve_turn(mask, goal.clone(), rerolls)?.options(dice, rerolls)
    }

    /// The turn solved as far as a decision with `rerolls` left needs.
    fn solve_turn(&self, mask: Mask, goal: Goal, rerolls: u8) -> Result<YazyTargetTurn, Error> {
        let next = if mask == Mask::NONE { Vec::new() } else { self.next_curves(mask)? };
        let levels = if next.is_empty() || rerolls == 0 {
            target::KeepLevels::solve(&|_| 0.0, 0)
        } else {
            let stop = stop_chances(&next, &goal);
            target::KeepLevels::solve(&|r| stop[r], rerolls)
        };
        Ok(YazyTargetTurn { next, goal, levels, rerolls: self.rules().rerolls, solved: rerolls })
    }
}

/// One yazy turn played for a target or against an opponent, solved once:
/// every decision of the turn is then a few dozen comparisons. For
/// programs that play whole games; [`YazyTarget::options`] and
/// [`YazyTarget::versus_options`] solve the turn for each call.
pub struct YazyTargetTurn {
    next: Vec<(Category, Curve)>,
    goal: Goal,
    levels: target::KeepLevels,
    /// The rules' rerolls.
    rerolls: u8,
    /// The most rerolls left a decision may have.
    solved: u8,
}

impl fmt::Debug for YazyTargetTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("YazyTargetTurn").field("goal", &self.goal).finish_non_exhaustive()
    }
}

impl YazyTargetTurn {
    /// The options of five `dice` with `rerolls` left, ranked as
    /// [`YazyTarget::options`] ranks them.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Result<TargetChoices<Action>, Error> {
        check_state(dice, rerolls, self.rerolls.min(self.solved), YazyTarget::ID)?;
        let mut out = TargetChoices::new();
        for (c, curve) in &self.next {
            let points = ROLL_POINTS[dice.rank()][usize::from(c.index())];
            out.push(TargetChoice { action: Action::Score(*c), p: self.goal.after(curve, points), points });
        }
        if rerolls > 0 && !self.next.is_empty() {
            self.levels.push_partial_keeps(&mut out, dice, rerolls, Action::Keep);
        }
        target::rank(&mut out);
        Ok(out)
    }
}

/// Per roll, its best chance of scoring now into one of `next`, played
/// for `goal` (each (category, points) valued once).
fn stop_chances(next: &[(Category, Curve)], goal: &Goal) -> Vec<f64> {
    let mut valued: Vec<[f64; 51]> = vec![[f64::NAN; 51]; next.len()];
    let against: Vec<Option<Against>> = next
        .iter()
        .map(|(_, curve)| match goal {
            Goal::Beat(opponent) => Some(opponent.against(curve, 50)),
            Goal::Reach(_) => None,
        })
        .collect();
    (0..ROLLS)
        .map(|roll| {
            let mut best = f64::NEG_INFINITY;
            for (k, (c, curve)) in next.iter().enumerate() {
                let points = ROLL_POINTS[roll][usize::from(c.index())];
                let v = &mut valued[k][usize::from(points)];
                if v.is_nan() {
                    *v = match (goal, &against[k]) {
                        (Goal::Beat(opponent), Some(a)) => opponent.chance_with(a, points),
                        _ => goal.after(curve, points),
                    };
                }
                best = best.max(*v);
            }
            best
        })
        .collect()
}
