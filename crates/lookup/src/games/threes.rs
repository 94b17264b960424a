//! threes: the lowest total wins; a chance of winning against a record, or
//! the expected total.

use super::arguments::{for_people, Argument};
use super::{GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{
    parse_after, parse_model, parse_objective, parse_points, parse_record, parse_remaining, parse_throw, parse_ties,
};
use crate::queries::Query;
use crate::queries::ThreesQuery;
use crate::reply::{text, value, Replied, Reply};
use crate::values::{decoded, read_values, StoredValues};
use dice_tables_reader::threes::{Keep, Model, Situation, Threes, Ties};
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Threes::ID,
    aliases: Threes::ALIASES,
    about: for_people("threes: the chance of success (or expected total) of a state, or the choices of a roll. One of --dice and --remaining is needed."),
    arguments: &[
        Argument::optional("dice", "D", "The 1-5 dice just rolled, digits 1-6 (a 3 is worth 0)."),
        Argument::optional(
            "remaining",
            "N",
            "Dice still to throw, 0 to 5 (0: the turn is over; the chance that --points survives).",
        ),
        Argument::optional("points", "S", "Points kept so far, 0 to 30 (default: 0)."),
        Argument::optional("record", "R", "The lowest total of the players before, 0 to 30 (default: none, the first player)."),
        Argument::optional("after", "K", "Players still to play after this one, 0 to 15 (default: 0)."),
        Argument::optional("ties", "T", "How ties count: win or lose (default: win)."),
        Argument::optional("model", "M", "How the later players play: sequential or independent (default: sequential)."),
        Argument::optional(
            "objective",
            "O",
            "What to optimise: win, the chance of success, or expected, the lowest expected total (default: win).",
        ),
    ],
    tables: &[GameTable { id: Threes::ID, rules: None, values: read_values(values) }],
    categories: &[],
    parse,
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Threes(|tables, name| {
        (name == Threes::ID || Threes::ALIASES.contains(&name)).then(|| Ok(tables.get::<Threes>()?))
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// The chances of success, decoded from their stored form (a chance above
/// 1/2 is stored as its complement) into f64.
fn values(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    use dice_tables_reader::threes::{decode_chance, CHANCE};
    let threes = tables.get::<Threes>()?;
    let entry = &threes.table().header().sections[CHANCE.index];
    let shape = entry.dims.iter().map(|&d| d as usize).collect();
    let stored = threes.checked().section(&CHANCE)?;
    let chances: Vec<f64> =
        stored.chunks_exact(4).map(|b| decode_chance(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))).collect();
    Ok(decoded(&chances, shape, vec!["model", "after", "record", "ties", "points", "remaining"]))
}

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

    fn table(&self) -> std::borrow::Cow<'static, str> {
        (Threes::ID).into()
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

    fn reply(&self, tables: &Tables) -> Replied {
        let threes = tables.get::<Threes>()?;
        let situation = Situation {
            ties: self.ties.unwrap_or(Ties::Win),
            model: self.model.unwrap_or(Model::Sequential),
            record: self.record,
            points: self.points,
            after: self.after.unwrap_or(0),
        };
        let expected = self.expected;
        let Some(d) = self.dice else {
            let Some(n) = self.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
            let value = if expected { threes.expected(self.points, n)? } else { threes.chance(situation, n)? };
            return Ok(Box::new(ThreesReply { situation, expected, value, throw: Err(n) }));
        };
        let (list, best): (Vec<(Keep, f64)>, usize) = if expected {
            let o = threes.expected_options(self.points, d)?;
            (o.iter().map(|o| (o.keep, o.expected_total)).collect(), o.best_index().unwrap_or(0))
        } else {
            let o = threes.options(situation, d)?;
            (o.iter().map(|o| (o.keep, o.chance)).collect(), o.best_index().unwrap_or(0))
        };
        // Every throw can keep a die; an empty list would be a library bug, said in words.
        let Some(&(_, value)) = list.get(best) else { return Err(LookupError::NoChoice { throw: d.to_string() }) };
        Ok(Box::new(ThreesReply { situation, expected, value, throw: Ok((list, best)) }))
    }
}

/// A threes answer: the chance of success (or the expected total) before a
/// throw, or a throw's choices.
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct ThreesReply {
    situation: Situation,
    /// The expected total rather than the chance of success.
    expected: bool,
    /// The best choice's value, or the value before the throw.
    value: f64,
    /// The throw's choices and the best's position, in the table's order
    /// (lowest worth first); or the dice still to throw.
    throw: Result<(Vec<(Keep, f64)>, usize), u8>,
}

impl ThreesReply {
    /// A value as the JSON gives it: chances are stored to about 7 digits,
    /// expected totals exactly.
    fn value(&self, v: f64) -> (&'static str, Json) {
        if self.expected {
            value(false, v)
        } else {
            value(true, rounded(v))
        }
    }
}

impl Reply for ThreesReply {
    fn json(&self) -> Json {
        let game = ("game", text(Threes::ID));
        let Ok((list, best)) = &self.throw else { return Json::object(vec![game, self.value(self.value)]) };
        let options = list.iter().map(|(k, x)| Json::object(vec![("keep", text(k)), self.value(*x)]));
        Json::object(vec![
            game,
            self.value(self.value),
            ("best", Json::object(vec![("keep", text(list[*best].0))])),
            ("options", Json::List(options.collect())),
        ])
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        use crate::text::{dice_left_text, percent, plural, points_text};
        use std::fmt::Write as _;
        let s = &self.situation;
        let (value, show): (&str, fn(f64) -> String) =
            if self.expected { ("expected total", |v| format!("{v:.6}")) } else { ("chance of success", percent) };
        let mut out = String::new();
        if self.expected {
            let _ = writeln!(out, "threes, lowest expected total: {} kept", points_text(s.points));
        } else {
            let record = s.record.map_or("none".to_string(), |r| r.to_string());
            let ties = if s.ties == Ties::Win { "win" } else { "lose" };
            let model = if s.model == Model::Sequential { "sequential" } else { "independent" };
            let _ = writeln!(
                out,
                "threes: {} kept, record {record}, {} player{} after, ties {ties}, {model} model",
                points_text(s.points),
                s.after,
                plural(s.after)
            );
        }
        match &self.throw {
            Err(n) => {
                let when = if *n == 0 { "the turn is over".to_string() } else { format!("{n} dice to throw") };
                let _ = writeln!(out, "{when}: {value} {}", show(self.value));
            }
            Ok((list, best)) => {
                let roll = list.last().map_or(String::new(), |(k, _)| k.to_string());
                let _ = writeln!(
                    out,
                    "dice {roll} (lowest worth first), {value} with the best choice: {}",
                    show(self.value)
                );
                let b = list[*best].0;
                let _ = writeln!(out, "best: keep {b}, {}, {}", points_text(b.points), dice_left_text(b.dice_left));
                let _ = writeln!(out, "choices ({value}):");
                for (i, (k, v)) in list.iter().enumerate() {
                    let mark = if i == *best { "  <- best" } else { "" };
                    let _ = writeln!(
                        out,
                        "  keep {:<6} {:<10} {:<11}  {:>14}{mark}",
                        k.to_string(),
                        format!("{},", points_text(k.points)),
                        dice_left_text(k.dice_left),
                        show(*v)
                    );
                }
            }
        }
        out
    }
}
