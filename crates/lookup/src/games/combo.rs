//! combo: five dice and a fixed number of rerolls, scored once.

use super::{GameQuery, LookupInfo};
use crate::answer::{keep, start, text, Answer};
use crate::args::Args;
use crate::checks::check_rerolls;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_five_dice, parse_rerolls};
use crate::queries::ComboQuery;
use crate::queries::Query;
use dice_tables_reader::combo::Combo;
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Combo::ID,
    aliases: Combo::ALIASES,
    required: &[],
    optional: &["dice", "rerolls"],
    categories: &[],
    parse,
    curve: None,
};

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Combo(ComboQuery {
        dice: a.value("dice", parse_five_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
    }))
}

impl GameQuery for ComboQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> &'static str {
        Combo::ID
    }

    fn check(&self) -> Result<(), LookupError> {
        check_rerolls(self.dice, self.rerolls)
    }

    fn answer(&self, tables: &Tables) -> Answer {
        let combo = tables.get::<Combo>()?;
        let Some(dice) = self.dice else { return Ok(start(Combo::ID, combo.game_start_value()?)) };
        let rerolls = self.rerolls.unwrap_or(combo.rerolls());
        let ev = combo.value(dice, rerolls)?;
        let best = combo.best_keep(dice, rerolls)?;
        let options = combo.options(dice, rerolls)?;
        let options = options.iter().map(|o| Json::object(vec![("action", keep(o.keep)), ("ev", Json::Num(o.ev))]));
        Ok(Json::object(vec![
            ("game", text(Combo::ID)),
            ("ev", Json::Num(ev)),
            ("best", keep(best)),
            ("options", Json::List(options.collect())),
        ]))
    }

    fn stored_value(&self, tables: &Tables) -> Option<Result<f64, LookupError>> {
        let value = || {
            let combo = tables.get::<Combo>()?;
            Ok(match self.dice {
                None => combo.game_start_value()?,
                Some(dice) => combo.value(dice, self.rerolls.unwrap_or(combo.rerolls()))?,
            })
        };
        Some(value())
    }
}
