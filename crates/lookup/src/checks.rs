//! The checks several games' queries share: what the arguments may combine.

use crate::error::LookupError;
use dice_tables_reader::{ArgumentErrorKind, Dice};

/// `rerolls` counts from a roll of five, so it needs the dice.
pub(crate) fn check_rerolls(dice: Option<Dice>, rerolls: Option<u8>) -> Result<(), LookupError> {
    match (dice, rerolls) {
        (None, Some(rerolls)) => Err(LookupError::RerollsWithoutDice { rerolls, dice: "five" }),
        _ => Ok(()),
    }
}

/// Against an opponent: no target, the turn order kept (the player to move
/// has as many categories open as the opponent, or one more) and both
/// totals given. (Totals are not checked against the filled categories: a
/// head start is a lead no sheet made.)
pub(crate) fn check_opponent(
    mover: u32,
    opponent: u32,
    need: bool,
    me: Option<u32>,
    opp: Option<u32>,
) -> Result<(), LookupError> {
    if need {
        return Err(LookupError::TwoPlayer { missing: "need" });
    }
    if mover != opponent && mover != opponent + 1 {
        let e: dice_tables_reader::ArgumentError = ArgumentErrorKind::TurnOrder { mover, opponent }.into();
        return Err(LookupError::Refused(e));
    }
    match (me, opp) {
        (None, _) => Err(LookupError::TwoPlayer { missing: "me" }),
        (_, None) => Err(LookupError::TwoPlayer { missing: "opp" }),
        _ => Ok(()),
    }
}

/// Exactly one of a throw (`dice`) and the dice about to be thrown
/// (`remaining`), or at most one when `optional`.
pub(crate) fn check_throw(dice: Option<Dice>, remaining: Option<u8>, optional: bool) -> Result<(), LookupError> {
    match (dice, remaining) {
        (Some(_), Some(_)) => Err(LookupError::ThrowOrRemaining { both: true }),
        (None, None) if !optional => Err(LookupError::ThrowOrRemaining { both: false }),
        _ => Ok(()),
    }
}
