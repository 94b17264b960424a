//! `reader lookup threes`.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::parse::{
    parse_after, parse_model, parse_objective, parse_points, parse_record, parse_remaining, parse_throw, parse_ties,
};
use dice_tables_lookup::{Query, ThreesQuery};
use dice_tables_reader::threes::{Keep, Model, Situation, Threes, Ties};
use dice_tables_reader::{Dice, Tables};

use crate::output::{dice_left_text, percent, plural, Failure};
use crate::{Common, GameLookup};

/// One of --dice and --remaining is needed: `Query::check` says so in the
/// words every front end uses.
#[derive(Args, Debug)]
pub struct Lookup {
    /// The 1-5 dice just rolled, digits 1-6 (a 3 is worth 0).
    #[arg(long, value_name = "D", value_parser = parse_throw, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Dice still to throw, 0 to 5 (0: the turn is over; the chance that --points survives).
    #[arg(long, value_name = "N", value_parser = parse_remaining, allow_hyphen_values = true)]
    remaining: Option<u8>,
    /// Points kept so far, 0 to 30 (default: 0).
    #[arg(long, value_name = "S", default_value = "0", hide_default_value = true, value_parser = parse_points, allow_hyphen_values = true)]
    points: u8,
    /// The lowest total of the players before, 0 to 30 (default: none, the first player).
    #[arg(long, value_name = "R", value_parser = parse_record, allow_hyphen_values = true)]
    record: Option<u8>,
    /// Players still to play after this one, 0 to 15 (default: 0).
    #[arg(long, value_name = "K", value_parser = parse_after, allow_hyphen_values = true)]
    after: Option<u8>,
    /// How ties count: win or lose (default: win).
    #[arg(long, value_name = "T", value_parser = parse_ties)]
    ties: Option<Ties>,
    /// How the later players play: sequential or independent (default: sequential).
    #[arg(long, value_name = "M", value_parser = parse_model)]
    model: Option<Model>,
    /// What to optimise: win, the chance of success, or expected, the lowest expected total (default: win).
    #[arg(long, value_name = "O", value_parser = parse_objective)]
    objective: Option<bool>,
    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Threes(ThreesQuery {
            dice: self.dice,
            remaining: self.remaining,
            points: self.points,
            record: self.record,
            after: self.after,
            ties: self.ties,
            model: self.model,
            expected: self.objective.unwrap_or(false),
        })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        let expected = self.objective.unwrap_or(false);
        let threes = tables.get::<Threes>()?;
        let s = Situation {
            ties: self.ties.unwrap_or(Ties::Win),
            model: self.model.unwrap_or(Model::Sequential),
            record: self.record,
            points: self.points,
            after: self.after.unwrap_or(0),
        };
        // Every choice of the roll with its value, and the best's position.
        let choices: Option<(Vec<(Keep, f64)>, usize)> = match self.dice {
            Some(d) if expected => {
                let o = threes.expected_options(s.points, d)?;
                Some((o.iter().map(|o| (o.keep, o.expected_total)).collect(), o.best_index().unwrap_or(0)))
            }
            Some(d) => {
                let o = threes.options(s, d)?;
                Some((o.iter().map(|o| (o.keep, o.chance)).collect(), o.best_index().unwrap_or(0)))
            }
            None => None,
        };
        let headline = match (&choices, self.remaining) {
            (Some((list, best)), _) => list[*best].1,
            (None, Some(n)) if expected => threes.expected(s.points, n)?,
            (None, Some(n)) => threes.chance(s, n)?,
            (None, None) => unreachable!("Query::check requires --dice or --remaining"),
        };
        let (value, show): (&str, fn(f64) -> String) =
            if expected { ("expected total", |v| format!("{v:.6}")) } else { ("chance of success", percent) };
        let mut out = String::new();
        if expected {
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
        match &choices {
            None => {
                let n = self.remaining.unwrap_or(0);
                let when = if n == 0 { "the turn is over".to_string() } else { format!("{n} dice to throw") };
                let _ = writeln!(out, "{when}: {value} {}", show(headline));
            }
            Some((list, best)) => {
                let roll = list.last().map_or(String::new(), |(k, _)| k.to_string());
                let _ =
                    writeln!(out, "dice {roll} (lowest worth first), {value} with the best choice: {}", show(headline));
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
        Ok(out)
    }
}

fn points_text(points: u8) -> String {
    format!("{points} point{}", plural(points))
}
