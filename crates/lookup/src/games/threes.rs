//! threes: the lowest total wins; a chance of winning against a record, or
//! the expected total.

use super::{GameQuery, LookupInfo};
use crate::answer::{text, value, Answer};
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{
    parse_after, parse_model, parse_objective, parse_points, parse_record, parse_remaining, parse_throw, parse_ties,
};
use crate::queries::Query;
use crate::queries::ThreesQuery;
use dice_tables_reader::threes::{Model, Threes, Ties};
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Threes::ID,
    aliases: Threes::ALIASES,
    required: &[],
    optional: &["dice", "remaining", "points", "record", "after", "ties", "model", "objective"],
    categories: &[],
    parse,
    curve: None,
};

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Threes(ThreesQuery {
        dice: a.value("dice", parse_throw)?,
        remaining: a.value("remaining", parse_remaining)?,
        points: a.value("points", parse_points)?.unwrap_or(0),
        record: a.value("record", parse_record)?,
        after: a.value("after", parse_after)?,
        ties: a.value("ties", parse_ties)?,
        model: a.value("model", parse_model)?,
        expected: a.value("objective", parse_objective)?.unwrap_or(false),
    }))
}

/// A threes chance to 10 significant digits: the table stores chances as
/// f32, about 7 digits from the nearer of 0 and 1.
fn rounded(v: f64) -> f64 {
    format!("{v:.9e}").parse().unwrap_or(v)
}

impl GameQuery for ThreesQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> &'static str {
        Threes::ID
    }

    /// A throw or the dice to throw, and with the expected total none of
    /// the arguments of a chance of winning.
    fn check(&self) -> Result<(), LookupError> {
        check_throw(self.dice, self.remaining, false)?;
        if self.expected {
            let given = [
                ("record", self.record.is_some()),
                ("after", self.after.is_some()),
                ("ties", self.ties.is_some()),
                ("model", self.model.is_some()),
            ];
            if let Some(&(argument, _)) = given.iter().find(|(_, g)| *g) {
                return Err(LookupError::NotWithExpected { argument });
            }
        }
        Ok(())
    }

    fn answer(&self, tables: &Tables) -> Answer {
        let expected = self.expected;
        let threes = tables.get::<Threes>()?;
        let s = dice_tables_reader::threes::Situation {
            ties: self.ties.unwrap_or(Ties::Win),
            model: self.model.unwrap_or(Model::Sequential),
            record: self.record,
            points: self.points,
            after: self.after.unwrap_or(0),
        };
        // Chances are stored to about 7 digits; expected totals are exact.
        let v = |v: f64| if expected { value(false, v) } else { value(true, rounded(v)) };
        let game = ("game", text(Threes::ID));
        let Some(d) = self.dice else {
            let Some(n) = self.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
            let headline = if expected { threes.expected(s.points, n)? } else { threes.chance(s, n)? };
            return Ok(Json::object(vec![game, v(headline)]));
        };
        let (list, best): (Vec<(dice_tables_reader::threes::Keep, f64)>, usize) = if expected {
            let o = threes.expected_options(s.points, d)?;
            (o.iter().map(|o| (o.keep, o.expected_total)).collect(), o.best_index().unwrap_or(0))
        } else {
            let o = threes.options(s, d)?;
            (o.iter().map(|o| (o.keep, o.chance)).collect(), o.best_index().unwrap_or(0))
        };
        // Every throw can keep a die; an empty list would be a library bug, said in words.
        let Some(&(best_keep, best_value)) = list.get(best) else {
            return Err(LookupError::NoChoice { throw: d.to_string() });
        };
        let options = list.iter().map(|(k, x)| Json::object(vec![("keep", text(k)), v(*x)]));
        Ok(Json::object(vec![
            game,
            v(best_value),
            ("best", Json::object(vec![("keep", text(best_keep))])),
            ("options", Json::List(options.collect())),
        ]))
    }
}
