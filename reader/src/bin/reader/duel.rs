//! `reader lookup duel` (aliases `10000-duel`, `tenk2`): two-player 10000,
//! the chance of winning.

use std::fmt::Write as _;

use clap::{Args, ValueEnum};
use dice_tables_reader::duel::{CardgamesDuel, Duel, DuelOption, Scoring, SeedDuel};
use dice_tables_reader::{Dice, Tables};
use serde::Serialize;

use crate::args::{parse_score, parse_tenk_remaining, parse_tenk_throw, parse_total};
use crate::output::{json_line, percent, Failure, Num};
use crate::tenk::{then_text, write_keeps, KeepJson, KeepRow};
use crate::{Common, GameLookup};

/// Which duel table: the rules preset.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Rules {
    /// The seed's scoring (the tenk table's), entry 1000: `duel.dtab`.
    Seed,
    /// A common online Farkle's scoring, no entry: `duel-cardgames.dtab`.
    Cardgames,
}

#[derive(Args, Debug)]
pub struct Lookup {
    /// Your banked total, a multiple of 50 below the goal.
    #[arg(long, value_name = "POINTS", value_parser = parse_total, allow_hyphen_values = true)]
    me: u32,
    /// The opponent's banked total, a multiple of 50 below the goal.
    #[arg(long, value_name = "POINTS", value_parser = parse_total, allow_hyphen_values = true)]
    opp: u32,
    /// The 1-6 dice just thrown, digits 1-6 (without it and --remaining:
    /// your chance at the start of your turn).
    #[arg(long, value_name = "D", value_parser = parse_tenk_throw, allow_hyphen_values = true, conflicts_with = "remaining")]
    dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6: the chance of winning if you throw and if you bank.
    #[arg(long, value_name = "N", value_parser = parse_tenk_remaining, allow_hyphen_values = true)]
    remaining: Option<u8>,
    /// The turn score so far (before this throw), a multiple of 50 (default: 0).
    #[arg(long, value_name = "S", default_value = "0", hide_default_value = true, value_parser = parse_score, allow_hyphen_values = true)]
    score: u32,
    /// The rules: `seed` (default) or `cardgames`.
    #[arg(long, value_enum, default_value = "seed", hide_default_value = true)]
    rules: Rules,
    #[command(flatten)]
    common: Common,
}

#[derive(Serialize)]
struct StartJson {
    game: &'static str,
    rules: &'static str,
    p: Num,
}

#[derive(Serialize)]
struct BeforeJson {
    game: &'static str,
    rules: &'static str,
    p: Num,
    throw: Num,
    bank: Option<Num>,
    best: &'static str,
}

#[derive(Serialize)]
struct BustJson {
    game: &'static str,
    rules: &'static str,
    p: Num,
    bust: bool,
    options: [(); 0],
}

#[derive(Serialize)]
struct ThrowJson {
    game: &'static str,
    rules: &'static str,
    p: Num,
    best: KeepJson,
    options: Vec<OptionJson>,
}

#[derive(Serialize)]
struct OptionJson {
    #[serde(flatten)]
    keep: KeepJson,
    p: Num,
}

fn keep_json(o: &DuelOption) -> KeepJson {
    KeepJson { keep: o.keep.to_string(), points: o.points, dice_left: o.dice_left, then: then_text(o.then) }
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn run(&self, tables: &Tables) -> Result<String, Failure> {
        match self.rules {
            Rules::Seed => self.answer(tables.get::<SeedDuel>()?),
            Rules::Cardgames => self.answer(tables.get::<CardgamesDuel>()?),
        }
    }
}

impl Lookup {
    fn answer<S: Scoring>(&self, duel: &Duel<S>) -> Result<String, Failure> {
        let (me, opp, score, json) = (self.me, self.opp, self.score, self.common.json);
        let rules = S::NAME;
        let params = duel.params();
        let entry = if params.entry > 0 { format!("entry {}", params.entry) } else { "no entry".to_string() };
        let mut out = String::new();
        let _ = write!(out, "10000 duel ({rules} rules, {entry}, goal {}): you {me}, opponent {opp}", params.goal);
        if let Some(n) = self.remaining {
            let state = duel.before_throw(me, opp, n, score)?;
            if json {
                return Ok(json_line(&BeforeJson {
                    game: "duel",
                    rules,
                    p: Num(state.p()),
                    throw: Num(state.throw),
                    bank: state.bank.map(Num),
                    best: then_text(state.best),
                }));
            }
            let dice = if n == 1 { "die" } else { "dice" };
            let _ = writeln!(out, ", turn score {score}, {n} {dice} to throw");
            let bank = match state.bank {
                Some(b) => percent(b),
                None if score == 0 => "not allowed (nothing in the turn)".to_string(),
                None => format!("not allowed (below the entry of {})", params.entry),
            };
            let _ = writeln!(out, "best: {}, you win {}", then_text(state.best), percent(state.p()));
            let _ = writeln!(out, "  throw: {}", percent(state.throw));
            let _ = writeln!(out, "  bank:  {bank}");
            return Ok(out);
        }
        let Some(throw) = self.dice else {
            if score != 0 {
                return Err(Failure::Usage(format!(
                    "--score {score} without --dice or --remaining: give the throw (--dice) or the dice about to be thrown (--remaining)"
                )));
            }
            let p = duel.win_chance(me, opp)?;
            if json {
                return Ok(json_line(&StartJson { game: "duel", rules, p: Num(p) }));
            }
            let _ = writeln!(out, ", your turn starts");
            let _ = writeln!(out, "you win {}", percent(p));
            return Ok(out);
        };
        let options = duel.options(me, opp, throw, score)?;
        let _ = writeln!(out, ", throw {throw} at turn score {score}");
        let Some(best) = options.best() else {
            let p = duel.turn(me, opp)?.bust();
            if json {
                return Ok(json_line(&BustJson { game: "duel", rules, p: Num(p), bust: true, options: [] }));
            }
            let _ = writeln!(out, "bust: nothing scores, the turn passes with {score} lost; you win {}", percent(p));
            return Ok(out);
        };
        if json {
            let list = options.iter().map(|o| OptionJson { keep: keep_json(o), p: Num(o.p) }).collect();
            return Ok(json_line(&ThrowJson {
                game: "duel",
                rules,
                p: Num(best.p),
                best: keep_json(best),
                options: list,
            }));
        }
        let rows: Vec<KeepRow> =
            options.iter().map(|o| (o.keep, o.points, o.dice_left, o.then, percent(o.p))).collect();
        let best = options.best_index().expect("a throw that scores has a best keep");
        write_keeps(&mut out, &rows, best, &format!("you win {}", rows[best].4));
        Ok(out)
    }
}
