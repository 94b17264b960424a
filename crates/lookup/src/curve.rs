//! A whole game's score curve, from its target table.

use crate::error::LookupError;
use crate::games::{LookupInfo, LOOKUPS};
use crate::json::Json;

/// The games with a score curve (a target table): those whose
/// [`LookupInfo::has_curve`].
pub fn curve_games() -> Vec<&'static str> {
    LOOKUPS.iter().filter(|l| l.has_curve()).map(|l| l.game).collect()
}

/// A whole game's score curve, as `reader curve GAME --json` prints it:
/// `{"game", "rows": [{"score", "p_best", "p_ev", "p_ev_exact"}, ...]}`, one
/// row per total from 0 to the game's most (see
/// [`score_curve`](dice_tables_reader::target::score_curve)), from the game's target
/// table. `game` is one of [`curve_games`] (or another name of one).
pub fn curve(tables: &dice_tables_reader::Tables, game: &str) -> Result<Json, LookupError> {
    Ok(curve_json(game, &curve_rows(tables, game)?))
}

/// The JSON of [`curve`] from rows already read.
pub fn curve_json(game: &str, rows: &[dice_tables_reader::target::CurveRow]) -> Json {
    let row = |r: &dice_tables_reader::target::CurveRow| {
        Json::object(vec![
            ("score", Json::Int(r.score.into())),
            ("p_best", Json::Num(r.p_best)),
            ("p_ev", Json::Num(r.p_ev)),
            ("p_ev_exact", Json::Num(r.p_ev_exact)),
        ])
    };
    let name = LookupInfo::find(game).map_or(game, |l| l.game);
    Json::object(vec![("game", Json::Str(name.into())), ("rows", Json::List(rows.iter().map(row).collect()))])
}

/// A whole game's score curve as rows: see [`curve`].
pub fn curve_rows(
    tables: &dice_tables_reader::Tables,
    game: &str,
) -> Result<Vec<dice_tables_reader::target::CurveRow>, LookupError> {
    match LookupInfo::find(game).and_then(|l| l.curve) {
        Some(curve) => curve(tables),
        None => Err(LookupError::NoCurve { given: game.to_string(), known: curve_games() }),
    }
}
