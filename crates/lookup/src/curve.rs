//! A whole game's score curve, from its target table.

use crate::error::LookupError;
use crate::json::Json;
use crate::lookups::LookupInfo;
use dice_tables_reader::sheet::SheetGame;
use dice_tables_reader::yazy::Mask;

/// The games with a score curve (a target table): yazy, yatzy, yahtzee.
pub const CURVE_GAMES: [&str; 3] = ["yazy", "yatzy", "yahtzee"];

/// A whole game's score curve, as `reader curve GAME --json` prints it:
/// `{"game", "rows": [{"score", "p_best", "p_ev", "p_ev_exact"}, ...]}`, one
/// row per total from 0 to the game's most (see
/// [`score_curve`](dice_tables_reader::target::score_curve)), from the game's target
/// table. `game` is one of [`CURVE_GAMES`] (or another name of one).
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
    use dice_tables_reader::sheet::{SheetTarget, YahtzeeGame, YatzyGame};
    fn sheet<G: SheetGame>(
        tables: &dice_tables_reader::Tables,
    ) -> Result<Vec<dice_tables_reader::target::CurveRow>, dice_tables_reader::Error> {
        let table = tables.get::<SheetTarget<G>>()?;
        let all = (1u32 << G::CATEGORIES.len()) - 1;
        let start = table.curve(table.state(all, 0, false)?)?;
        Ok(dice_tables_reader::target::score_curve(&start, &table.ev_distribution()?))
    }
    let rows = match LookupInfo::find(game).map(|l| l.game) {
        Some("yazy") => {
            let table = tables.get::<dice_tables_reader::yazy::target::YazyTarget>()?;
            dice_tables_reader::target::score_curve(&table.curve(Mask::ALL)?, &table.ev_distribution()?)
        }
        Some("yatzy") => sheet::<YatzyGame>(tables)?,
        Some("yahtzee") => sheet::<YahtzeeGame>(tables)?,
        _ => {
            return Err(LookupError::NoCurve { given: game.to_string(), known: &CURVE_GAMES });
        }
    };
    Ok(rows)
}
