//! The checks several games' queries share: what the arguments may combine.

use crate::error::LookupError;
use crate::queries::ToMove;
use dice_tables_reader::Dice;

/// `rerolls` counts from a roll of five, so it needs the dice.
pub(crate) fn check_rerolls(dice: Option<Dice>, rerolls: Option<u8>) -> Result<(), LookupError> {
    match (dice, rerolls) {
        (None, Some(rerolls)) => Err(LookupError::RerollsWithoutDice { rerolls, dice: "five" }),
        _ => Ok(()),
    }
}

/// Against an opponent: no target, the sheets a turn apart with the one of
/// `to_move` to play (as many boxes open as the other, moving first, or one
/// more, moving second; `None`: only the sheet given as yours may play, as
/// the advisor answers), and both totals given unless both sheets are
/// `untouched` (a game's start: both 0). Totals are not checked against the
/// filled boxes: a head start is a lead no sheet made.
pub(crate) fn check_opponent(
    (mine, theirs): (u32, u32),
    to_move: Option<ToMove>,
    need: bool,
    (me, opp): (Option<u32>, Option<u32>),
    untouched: bool,
) -> Result<(), LookupError> {
    if need {
        return Err(LookupError::TwoPlayer { missing: "need" });
    }
    let (mover, other) = match to_move {
        Some(ToMove::Opponent) => (theirs, mine),
        _ => (mine, theirs),
    };
    if mover != other && mover != other + 1 {
        return Err(LookupError::TurnOrder { mine, theirs, to_move });
    }
    match (me, opp) {
        _ if untouched => Ok(()),
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
