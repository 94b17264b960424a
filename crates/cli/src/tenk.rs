//! `reader lookup tenk` (alias `10000`).

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::parse::{parse_score, parse_tenk_remaining, parse_tenk_throw};
use dice_tables_lookup::{Query, TenkQuery};
use dice_tables_reader::tenk::{Phase, Tenk, Then};
use dice_tables_reader::{Dice, Tables};

use crate::output::{dice_left_text, percent, Failure};
use crate::{Common, GameLookup};

/// One of --dice and --remaining is needed: `Query::check` says so in the
/// words every front end uses.
#[derive(Args, Debug)]
pub struct Lookup {
    /// The 1-6 dice just thrown, digits 1-6.
    #[arg(long, value_name = "D", value_parser = parse_tenk_throw, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    #[arg(long, value_name = "N", value_parser = parse_tenk_remaining, allow_hyphen_values = true)]
    remaining: Option<u8>,
    /// The turn score so far (before this throw), a multiple of 50 (default: 0).
    #[arg(long, value_name = "S", default_value = "0", hide_default_value = true, value_parser = parse_score, allow_hyphen_values = true)]
    score: u32,
    /// Not yet on the board: maximise the chance of reaching 1000 this turn.
    #[arg(long)]
    opening: bool,
    #[command(flatten)]
    common: Common,
}

/// A keep as the 10000 lookups print it: dice, points, dice left, what
/// follows, and its value as text.
pub type KeepRow = (Dice, u32, u8, Then, String);

/// The best keep's line (its value as `best_value`) and a row for every keep.
/// The keeps of a throw, best first (`rows` is not empty).
pub fn write_keeps(out: &mut String, rows: &[KeepRow], best_value: &str) {
    let best = 0;
    let (keep, points, dice_left, then, _) = &rows[best];
    let _ = writeln!(
        out,
        "best: keep {keep} for {points} points, then {} ({}): {best_value}",
        then_text(*then),
        dice_left_text(*dice_left)
    );
    let _ = writeln!(out, "keeps:");
    for (i, (keep, points, dice_left, then, value)) in rows.iter().enumerate() {
        let mark = if i == best { "  <- best" } else { "" };
        let _ = writeln!(
            out,
            "  keep {:<7} {:>5} points, {:<12} then {:<5} {:>12}{mark}",
            keep.to_string(),
            points,
            format!("{},", dice_left_text(*dice_left)),
            then_text(*then),
            value
        );
    }
}

pub fn then_text(t: Then) -> &'static str {
    match t {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Tenk(TenkQuery { dice: self.dice, remaining: self.remaining, score: self.score, opening: self.opening })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        let tenk = tables.get::<Tenk>()?;
        let (score, opening) = (self.score, self.opening);
        let phase = if opening { Phase::Opening } else { Phase::OnBoard };
        // Opening: a chance of reaching 1000; on the board: expected points.
        let show = |v: f64| if opening { percent(v) } else { format!("{v:.4}") };
        let phase_text = if opening {
            "opening (chance of reaching 1000 this turn)"
        } else {
            "on the board (expected banked points)"
        };
        let mut out = String::new();
        let Some(throw) = self.dice else {
            let n = self.remaining.unwrap_or(6);
            let (v, throw_value, bank) = if opening {
                let p = tenk.reach(n, score)?;
                (p, p, false)
            } else {
                (tenk.value(n, score)?, tenk.turn_value(n, score)?, tenk.should_bank(n, score)?)
            };
            let dice = if n == 1 { "die" } else { "dice" };
            let _ = writeln!(out, "10000, {phase_text}: turn score {score}, {n} {dice} to throw");
            if opening {
                let _ = writeln!(out, "best: throw, {} (banking is not allowed below 1000)", show(v));
            } else {
                let threshold =
                    tenk.bank_threshold(n).map_or(String::new(), |t| format!("; with {n} {dice}, bank from {t}"));
                let (best, other) = if bank {
                    ("bank", format!("throwing is worth {}", show(throw_value)))
                } else {
                    ("throw", format!("banking is worth {score}"))
                };
                let _ = writeln!(out, "best: {best}, worth {} ({other}{threshold})", show(v));
            }
            return Ok(out);
        };
        let options = tenk.options(throw, score, phase)?;
        if options.is_empty() {
            let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
            let _ = writeln!(out, "bust: nothing scores, the turn score of {score} is lost");
            return Ok(out);
        }
        let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
        let rows: Vec<KeepRow> = options
            .best_first(|o| o.value)
            .into_iter()
            .map(|o| (o.keep, o.points, o.dice_left, o.then, show(o.value)))
            .collect();
        write_keeps(&mut out, &rows, &rows[0].4);
        Ok(out)
    }
}
