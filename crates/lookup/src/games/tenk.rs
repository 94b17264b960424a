//! 10000 alone: expected banked points, or the chance of reaching 1000
//! (`opening`).

use super::{GameQuery, LookupInfo};
use crate::answer::{text, value, Answer};
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_score, parse_tenk_remaining, parse_tenk_throw};
use crate::queries::Query;
use crate::queries::TenkQuery;
use dice_tables_reader::tenk::{Phase, Tenk, TenkOption, Then};
use dice_tables_reader::{Dice, Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Tenk::ID,
    aliases: Tenk::ALIASES,
    required: &[],
    optional: &["dice", "remaining", "score", "opening"],
    categories: &[],
    parse,
    curve: None,
};

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Tenk(TenkQuery {
        dice: a.value("dice", parse_tenk_throw)?,
        remaining: a.value("remaining", parse_tenk_remaining)?,
        score: a.value("score", parse_score)?.unwrap_or(0),
        opening: a.flag("opening")?,
    }))
}

pub(super) fn then_name(t: Then) -> &'static str {
    match t {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

/// A 10000 keep and what follows it, as every 10000 lookup answers it
/// (two-player 10000's too).
pub(super) fn keep_fields(keep: Dice, points: u32, dice_left: u8, then: Then) -> Vec<(&'static str, Json)> {
    vec![
        ("keep", text(keep)),
        ("points", Json::Int(points.into())),
        ("dice_left", Json::Int(dice_left.into())),
        ("then", text(then_name(then))),
    ]
}

/// `{"bust":true,"options":[]}` after the fields before them.
pub(super) fn bust(mut fields: Vec<(&'static str, Json)>) -> Json {
    fields.extend([("bust", Json::Bool(true)), ("options", Json::List(vec![]))]);
    Json::object(fields)
}

impl GameQuery for TenkQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> &'static str {
        Tenk::ID
    }

    fn check(&self) -> Result<(), LookupError> {
        check_throw(self.dice, self.remaining, false)
    }

    fn answer(&self, tables: &Tables) -> Answer {
        let tenk = tables.get::<Tenk>()?;
        // Opening: a chance of reaching 1000; on the board: expected points.
        let (score, opening) = (self.score, self.opening);
        let game = ("game", text(Tenk::ID));
        let Some(throw) = self.dice else {
            let Some(n) = self.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
            let (v, throw_value, bank) = if opening {
                let p = tenk.reach(n, score)?;
                (p, p, false)
            } else {
                (tenk.value(n, score)?, tenk.turn_value(n, score)?, tenk.should_bank(n, score)?)
            };
            return Ok(Json::object(vec![
                game,
                value(opening, v),
                ("throw", Json::Num(throw_value)),
                ("bank", Json::Bool(bank)),
            ]));
        };
        let phase = if opening { Phase::Opening } else { Phase::OnBoard };
        let options = tenk.options(throw, score, phase)?;
        let Some(best) = options.best() else { return Ok(bust(vec![game, value(opening, 0.0)])) };
        let fields = |o: &TenkOption| keep_fields(o.keep, o.points, o.dice_left, o.then);
        let list = options.best_first(|o| o.value).into_iter().map(|o| {
            let mut f = fields(o);
            f.push(value(opening, o.value));
            Json::object(f)
        });
        Ok(Json::object(vec![
            game,
            value(opening, best.value),
            ("best", Json::object(fields(best))),
            ("options", Json::List(list.collect())),
        ]))
    }
}
