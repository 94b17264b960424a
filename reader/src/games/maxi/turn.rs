//! One Maxi Yatzy turn's solve from turn-start values: what a lookup does
//! with a table's values, and what the generator does with the exact ones
//! to prove the table's decisions.
//!
//! With `r` rerolls left in the turn (its two and any saved), a roll is
//! worth `S_r`: the best of scoring it now (its points plus the next
//! state's value, the `r` rerolls saved where the rules save them) and,
//! while `r > 0`, every partial keep `k` inside it, worth `K_r(k)`, the
//! average of `S_{r-1}` over the rerolled dice. Keeping every die is never
//! better than scoring now, so it is no option.

use std::sync::LazyLock;

use super::rules::{points, Rules, BOXES, DICE, ROLLS};
use super::table::{decision_key, MaskValues, Maxi, MaxiAction, MaxiPreset, MaxiState};
use crate::dice::Dice;
use crate::dice::FACES;
use crate::error::{ArgumentErrorKind, Error};
use crate::five_dice::{best_values, keep_values, KeepLattice};
use crate::games::sheet::STORED_TIE;
use crate::options::{Choice, Options};

pub use crate::games::sheet::EXACT_TIE;

/// One action of a roll and the expected points still to come if it is taken.
pub type MaxiChoice = Choice<MaxiAction>;

/// Every action of a roll: at most 20 boxes and 63 partial keeps.
pub type MaxiChoices = Options<MaxiChoice, 84>;

/// The six-dice rolls, their points in every box and keeps, built once.
struct SixDice {
    lattice: KeepLattice,
    points: Vec<[u8; 20]>,
    /// Per roll, its partial keeps' graded ranks, larger keeps first.
    keeps: Vec<arrayvec::ArrayVec<u16, 63>>,
}

static SIX: LazyLock<SixDice> = LazyLock::new(|| {
    let rolls: Vec<Dice> = (0..ROLLS).map(|r| Dice::unrank(DICE, r).expect("rank < 462")).collect();
    SixDice {
        lattice: KeepLattice::new(DICE),
        points: rolls.iter().map(|d| std::array::from_fn(|b| points(&d.counts(), b))).collect(),
        keeps: partial_keeps_in_tie_order(),
    }
});

/// Per roll of six dice (by rank), the graded ranks of its partial keeps
/// in the order lookups break ties in: larger ranks first, so larger keeps
/// first (after every box). What a program that plays as the lookups do
/// must follow too; the five-dice games' is
/// [`five_dice::partial_keeps_in_tie_order`](crate::five_dice::partial_keeps_in_tie_order).
pub fn partial_keeps_in_tie_order() -> Vec<arrayvec::ArrayVec<u16, 63>> {
    (0..ROLLS)
        .map(|r| {
            let roll = Dice::unrank(DICE, r).expect("rank < 462");
            let mut keeps: arrayvec::ArrayVec<u16, 63> =
                roll.sub_multisets().filter(|k| k.len() < DICE).map(|k| k.graded_rank() as u16).collect();
            keeps.sort_unstable_by(|a, b| b.cmp(a));
            keeps
        })
        .collect()
}

/// One turn solved from the turn-start values of the masks it leads to:
/// every decision with up to `rerolls` rerolls left.
#[derive(Debug)]
pub struct MaxiTurn {
    rules: Rules,
    state: MaxiState,
    /// Per open box, the values after filling it.
    next: Vec<(u8, MaskValues)>,
    /// Per rerolls left `r` (1 up): the partial keeps' values `K_r`, then
    /// every roll's value with one fewer, `S_{r-1}`.
    levels: Vec<Vec<f64>>,
}

impl MaxiTurn {
    /// Solves the turn of `state` under `rules` as far as a decision with
    /// `rerolls` left needs; `next(mask)` gives the turn-start values of a
    /// mask with one box fewer.
    pub fn solve<E>(
        rules: Rules,
        state: MaxiState,
        rerolls: u8,
        next: impl Fn(u32) -> Result<MaskValues, E>,
    ) -> Result<MaxiTurn, E> {
        let next = (0..BOXES.len() as u8)
            .filter(|&b| state.mask >> b & 1 == 1)
            .map(|b| Ok((b, next(state.mask & !(1 << b))?)))
            .collect::<Result<Vec<_>, E>>()?;
        let mut turn = MaxiTurn { rules, state, next, levels: Vec::new() };
        if state.mask == 0 {
            return Ok(turn);
        }
        let six = &*SIX;
        let partial = six.lattice.partial;
        let mut scratch = vec![0.0; partial];
        // S_0: scoring with no reroll left.
        let mut roll_values = vec![0.0; partial + ROLLS];
        turn.stop_values(0, &mut roll_values[partial..]);
        for r in 1..=usize::from(rerolls) {
            keep_values(&six.lattice, &mut roll_values);
            turn.levels.push(roll_values.clone());
            if r < usize::from(rerolls) {
                // S_r: scoring now with r left, or the best partial keep inside.
                turn.stop_values(r, &mut roll_values[partial..]);
                best_values(&six.lattice, &mut roll_values, &mut scratch);
            }
        }
        Ok(turn)
    }

    /// The state the turn starts from.
    pub fn state(&self) -> MaxiState {
        self.state
    }

    /// The value after scoring `p` points in box `b` with `r` rerolls left.
    fn after(&self, at: usize, b: usize, p: u8, r: usize) -> f64 {
        let upper = usize::from(self.state.upper) + if b < FACES { usize::from(p) } else { 0 };
        let saved = if self.rules.saved_rolls { r } else { 0 };
        f64::from(p) + self.next[at].1.get(saved, upper)
    }

    /// Every roll's value when scored now with `r` rerolls left, into `out`.
    fn stop_values(&self, r: usize, out: &mut [f64]) {
        let six = &*SIX;
        for (roll, out) in out.iter_mut().enumerate() {
            let mut best = f64::NEG_INFINITY;
            for (at, &(b, _)) in self.next.iter().enumerate() {
                let v = self.after(at, usize::from(b), six.points[roll][usize::from(b)], r);
                best = if v > best { v } else { best };
            }
            *out = best;
        }
    }

    /// Every action of six `dice` with `rerolls` left, the best the first
    /// in the tie order (boxes in mask-bit order, then larger keeps first)
    /// within `tie` of the highest value, then from best to worst.
    pub fn choices(&self, dice: Dice, rerolls: u8, tie: f64) -> MaxiChoices {
        let six = &*SIX;
        let roll = dice.rank();
        let mut out = MaxiChoices::new();
        if self.state.mask == 0 {
            return out;
        }
        for (at, &(b, _)) in self.next.iter().enumerate() {
            let p = six.points[roll][usize::from(b)];
            let ev = self.after(at, usize::from(b), p, usize::from(rerolls));
            out.push(Choice { action: MaxiAction::Score(b), ev, points: p });
        }
        if rerolls > 0 {
            let values = &self.levels[usize::from(rerolls) - 1];
            for &g in &six.keeps[roll] {
                let keep = Dice::graded_unrank(usize::from(g)).expect("a partial keep");
                out.push(Choice { action: MaxiAction::Keep(keep), ev: values[usize::from(g)], points: 0 });
            }
        }
        let highest = out.iter().map(|c| c.ev).fold(f64::NEG_INFINITY, f64::max);
        let best = out.iter().find(|c| c.ev >= highest - tie).map(|c| c.action);
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        out
    }
}

/// Checks a decision's arguments: six dice, no more rerolls than the turn holds.
pub(super) fn check_decision(rules: &Rules, state: MaxiState, dice: Dice, rerolls: u8) -> Result<(), Error> {
    if dice.len() != DICE {
        return Err(crate::error::ArgumentError::from(ArgumentErrorKind::NotSixDice { given: dice.len() }).into());
    }
    check_rerolls(rules, state, rerolls)
}

/// Checks that a turn from `state` holds `rerolls` rerolls: its two and those saved.
fn check_rerolls(rules: &Rules, state: MaxiState, rerolls: u8) -> Result<(), Error> {
    let max = rules.turn_rerolls(usize::from(state.saved)) as u8;
    if rerolls > max {
        let game = "maxi-yatzy".to_string();
        return Err(crate::error::ArgumentError::from(ArgumentErrorKind::RerollsOverRules {
            game,
            given: rerolls,
            max,
        })
        .into());
    }
    Ok(())
}

impl<P: MaxiPreset> Maxi<P> {
    /// Solves the turn of `state` for every decision with up to `rerolls`
    /// left (at most the turn's two plus those saved).
    pub fn turn(&self, state: MaxiState, rerolls: u8) -> Result<MaxiTurn, Error> {
        let rules = self.rules();
        check_rerolls(&rules, state, rerolls)?;
        Ok(MaxiTurn::solve(rules, state, rerolls, |m| self.mask_values(m))?)
    }

    /// Every action of six `dice` with `rerolls` rerolls left in the turn
    /// (its two plus any saved, 0 up) in `state`, with its expected points
    /// still to come: every open box, and while rerolls are left every
    /// partial keep. The exact solution's decision first, then from best
    /// to worst. Solves the turn from the stored values (within 8e-8 of
    /// the exact ones); the generator proves the decisions and lists the
    /// few the stored values get wrong, followed here.
    ///
    /// ```
    /// # fn main() -> Result<(), dice_tables_reader::Error> {
    /// use dice_tables_reader::maxi::{parse_mask, MaxiAction, MaxiYatzy};
    /// use dice_tables_reader::Tables;
    /// let tables = Tables::open_default()?;
    /// let maxi = tables.get::<MaxiYatzy>()?;
    /// let start = maxi.state(parse_mask("all")?, 0, 0)?;
    /// assert!((maxi.turn_start_value(start)? - 383.3054027).abs() < 1e-6);
    /// // Six sixes with two rerolls left: score the maxi yatzy.
    /// let options = maxi.options(start, "666666".parse()?, 2)?;
    /// assert_eq!(options.best().map(|o| o.action), Some(MaxiAction::Score(19)));
    /// # Ok(()) }
    /// ```
    pub fn options(&self, state: MaxiState, dice: Dice, rerolls: u8) -> Result<MaxiChoices, Error> {
        let rules = self.rules();
        check_decision(&rules, state, dice, rerolls)?;
        let turn = self.turn(state, rerolls)?;
        self.decided(&turn, dice, rerolls)
    }

    /// The options of a decision of a solved turn (`turn` solved for at
    /// least `rerolls`), as [`options`](Maxi::options) gives them.
    pub fn turn_options(&self, turn: &MaxiTurn, dice: Dice, rerolls: u8) -> Result<MaxiChoices, Error> {
        check_decision(&self.rules(), turn.state, dice, rerolls)?;
        if usize::from(rerolls) > turn.levels.len() && turn.state.mask != 0 {
            let (game, max) = ("maxi-yatzy".to_string(), turn.levels.len() as u8);
            return Err(crate::error::ArgumentError::from(ArgumentErrorKind::RerollsOverTable {
                game,
                given: rerolls,
                max,
            })
            .into());
        }
        self.decided(turn, dice, rerolls)
    }

    fn decided(&self, turn: &MaxiTurn, dice: Dice, rerolls: u8) -> Result<MaxiChoices, Error> {
        let mut options = turn.choices(dice, rerolls, STORED_TIE);
        let key = decision_key(&self.rules(), turn.state, dice, rerolls);
        if let Some(exact) = self.exception(key)? {
            options.rank(|c| c.action == exact, |c| c.ev);
        }
        Ok(options)
    }
}
