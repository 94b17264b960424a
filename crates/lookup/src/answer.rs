//! The pieces of the answers' JSON that several games share: the fields
//! README.md documents for `reader lookup G --json`. Each game's answer is
//! in its file under `games/`.

use crate::error::LookupError;
use crate::json::Json;
use dice_tables_reader::Dice;

pub(crate) type Answer = Result<Json, LookupError>;

pub(crate) fn text(s: impl ToString) -> Json {
    Json::Str(s.to_string())
}

/// A value under the key that says what it is: `"p"` for a chance, `"ev"`
/// for an expected score or total.
pub(crate) fn value(chance: bool, v: f64) -> (&'static str, Json) {
    (if chance { "p" } else { "ev" }, Json::Num(v))
}

/// `{"game":..,"ev":..}`: a value before any dice are shown.
pub(crate) fn start(game: &'static str, ev: f64) -> Json {
    Json::object(vec![("game", text(game)), ("ev", Json::Num(ev))])
}

/// A score-sheet roll: its value, the best action (`null` when the game is
/// over) and every option, best first.
pub(crate) fn roll(game: &'static str, ev: f64, options: Vec<(Json, f64)>) -> Json {
    let best = options.first().map_or(Json::Null, |(action, _)| action.clone());
    let options = options.into_iter().map(|(action, ev)| Json::object(vec![("action", action), ("ev", Json::Num(ev))]));
    Json::object(vec![
        ("game", text(game)),
        ("ev", Json::Num(ev)),
        ("best", best),
        ("options", Json::List(options.collect())),
    ])
}

pub(crate) fn keep(d: Dice) -> Json {
    Json::object(vec![("keep", text(d))])
}

/// Scoring a category, with the points the dice score there.
pub(crate) fn category(name: &'static str, points: u8) -> Json {
    Json::object(vec![("category", text(name)), ("points", Json::Int(points.into()))])
}

/// A roll played to reach a target: the best chance, the decision and
/// every option with its chance, best first.
#[cfg(not(dice_tables_solitaire_only))]
pub(crate) fn target_roll(game: &'static str, need: i64, p: f64, options: Vec<(Json, f64)>) -> Json {
    chance_roll(game, ("need", need), p, options)
}

/// A roll's chance (of reaching a target, or of winning), with `known`
/// (the need, or the lead) after the game, the decision and every option
/// with its chance, best first.
#[cfg(not(dice_tables_solitaire_only))]
fn chance_roll(game: &'static str, known: (&'static str, i64), p: f64, options: Vec<(Json, f64)>) -> Json {
    let best = options.first().map_or(Json::Null, |(action, _)| action.clone());
    let options = options.into_iter().map(|(action, p)| Json::object(vec![("action", action), ("p", Json::Num(p))]));
    Json::object(vec![
        ("game", text(game)),
        (known.0, Json::Int(known.1)),
        ("p", Json::Num(p)),
        ("best", best),
        ("options", Json::List(options.collect())),
    ])
}

/// Against an opponent, before the roll: the lead, the chance of winning
/// (ties half) and whether it is exact (the two-player table's) or the
/// advisor's estimate.
#[cfg(not(dice_tables_solitaire_only))]
pub(crate) fn versus_start(game: &'static str, lead: i64, p: f64, exact: bool) -> Json {
    Json::object(vec![
        ("game", text(game)),
        ("lead", Json::Int(lead)),
        ("p", Json::Num(p)),
        ("exact", Json::Bool(exact)),
    ])
}

/// Against an opponent, a roll: as [`versus_start`], then the decision and
/// every option with its chance, best first.
#[cfg(not(dice_tables_solitaire_only))]
pub(crate) fn versus_roll(game: &'static str, lead: i64, p: f64, exact: bool, options: Vec<(Json, f64)>) -> Json {
    let Json::Object(mut fields) = chance_roll(game, ("lead", lead), p, options) else {
        unreachable!("a roll's answer is an object")
    };
    fields.insert(3, ("exact".into(), Json::Bool(exact)));
    Json::Object(fields)
}

/// Lookups against an opponent in a build without them (the static site's
/// module, which plays alone: see the reader's registry).
#[cfg(dice_tables_solitaire_only)]
pub(crate) const NO_ADVISOR: LookupError =
    LookupError::NotInBuild { what: "the opponent-aware advisor (lookups with opp-mask)" };

/// Target lookups in a build without the target tables (the static site's).
#[cfg(dice_tables_solitaire_only)]
pub(crate) const NO_TARGET: LookupError =
    LookupError::NotInBuild { what: "playing to reach a target (lookups with need)" };
