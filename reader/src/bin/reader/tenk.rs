//! `reader lookup tenk` (alias `10000`).

use std::fmt::Write as _;

use clap::{ArgGroup, Args};
use dice_tables_reader::tenk::{Phase, Tenk, TenkOption, Then};
use dice_tables_reader::{Dice, Tables};
use serde::Serialize;

use crate::args::{parse_score, parse_tenk_remaining, parse_tenk_throw};
use crate::output::{json_line, percent, Failure, Num, Value};
use crate::{Common, GameLookup};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("throw").required(true).args(["dice", "remaining"])))]
pub struct Lookup {
    /// The 1-6 dice just thrown, digits 1-6.
    #[arg(long, value_name = "D", value_parser = parse_tenk_throw, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6.
    #[arg(long, value_name = "N", value_parser = parse_tenk_remaining, allow_hyphen_values = true)]
    remaining: Option<u8>,
    /// The turn score so far (before this throw), a multiple of 50.
    #[arg(long, value_name = "S", value_parser = parse_score, allow_hyphen_values = true)]
    score: u32,
    /// Not yet on the board: maximise the chance of reaching 1000 this turn.
    #[arg(long)]
    opening: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Serialize)]
struct StateJson {
    game: &'static str,
    #[serde(flatten)]
    value: Value,
    bank: bool,
}

#[derive(Serialize)]
struct BustJson {
    game: &'static str,
    #[serde(flatten)]
    value: Value,
    bust: bool,
    options: [(); 0],
}

#[derive(Serialize)]
struct ThrowJson {
    game: &'static str,
    #[serde(flatten)]
    value: Value,
    best: KeepJson,
    options: Vec<OptionJson>,
}

#[derive(Serialize)]
struct KeepJson {
    keep: String,
    points: u32,
    dice_left: u8,
    then: &'static str,
}

#[derive(Serialize)]
struct OptionJson {
    #[serde(flatten)]
    keep: KeepJson,
    #[serde(flatten)]
    value: Value,
}

fn then_text(t: Then) -> &'static str {
    match t {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

fn keep_json(o: &TenkOption) -> KeepJson {
    KeepJson { keep: o.keep.to_string(), points: o.points, dice_left: o.dice_left, then: then_text(o.then) }
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn run(&self, tables: &Tables) -> Result<String, Failure> {
        let tenk = tables.get::<Tenk>()?;
        let (score, opening, json) = (self.score, self.opening, self.common.json);
        let phase = if opening { Phase::Opening } else { Phase::OnBoard };
        // Opening: a chance of reaching 1000; on the board: expected points.
        let value = |v: f64| Value::new(opening, Num(v));
        let show = |v: f64| if opening { percent(v) } else { format!("{v:.4}") };
        let phase_text = if opening {
            "opening (chance of reaching 1000 this turn)"
        } else {
            "on the board (expected banked points)"
        };
        let mut out = String::new();
        let Some(throw) = self.dice else {
            let n = self.remaining.unwrap_or(6);
            let (v, bank) = if opening {
                (tenk.reach(n, score)?, false)
            } else {
                (tenk.turn_value(n, score)?, tenk.should_bank(n, score)?)
            };
            if json {
                return Ok(json_line(&StateJson { game: "tenk", value: value(v), bank }));
            }
            let _ = writeln!(out, "10000, {phase_text}: throwing {n} dice at turn score {score}: {}", show(v));
            if opening {
                let _ = writeln!(out, "banking is not allowed below 1000");
            } else {
                let _ = writeln!(
                    out,
                    "{}: banking is worth {score}{}",
                    if bank { "bank" } else { "throw" },
                    tenk.bank_threshold(n).map_or(String::new(), |t| format!(" (with {n} dice, bank from {t})"))
                );
            }
            return Ok(out);
        };
        let options = tenk.options(throw, score, phase)?;
        let Some(best) = options.best() else {
            if json {
                return Ok(json_line(&BustJson { game: "tenk", value: value(0.0), bust: true, options: [] }));
            }
            let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
            let _ = writeln!(out, "bust: nothing scores, the turn score of {score} is lost");
            return Ok(out);
        };
        if json {
            let list = options.iter().map(|o| OptionJson { keep: keep_json(o), value: value(o.value) }).collect();
            return Ok(json_line(&ThrowJson {
                game: "tenk",
                value: value(best.value),
                best: keep_json(best),
                options: list,
            }));
        }
        let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
        let _ = writeln!(
            out,
            "best: keep {} for {} points, then {} ({} dice left): {}",
            best.keep,
            best.points,
            then_text(best.then),
            best.dice_left,
            show(best.value)
        );
        let _ = writeln!(out, "keeps:");
        for (i, o) in options.iter().enumerate() {
            let mark = if Some(i) == options.best_index() { "  <- best" } else { "" };
            let _ = writeln!(
                out,
                "  keep {:<7} {:>5} points, {} dice left, then {:<5} {:>12}{mark}",
                o.keep.to_string(),
                o.points,
                o.dice_left,
                then_text(o.then),
                show(o.value)
            );
        }
        Ok(out)
    }
}
