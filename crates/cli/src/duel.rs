//! `reader lookup duel` (aliases `10000-duel`, `tenk2`): two-player 10000,
//! the chance of winning.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::parse::{parse_duel_rules, parse_score, parse_tenk_remaining, parse_tenk_throw, parse_total};
use dice_tables_lookup::{DuelQuery, DuelRules, Query};
use dice_tables_reader::duel::{CardgamesDuel, Duel, Scoring, SeedDuel};
use dice_tables_reader::{Dice, Tables};

use crate::output::{percent, Failure};
use crate::tenk::{then_text, write_keeps, KeepRow};
use crate::{Common, GameLookup};

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
    #[arg(long, value_name = "D", value_parser = parse_tenk_throw, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Dice about to be thrown, 1 to 6: the chance of winning if you throw and if you bank.
    #[arg(long, value_name = "N", value_parser = parse_tenk_remaining, allow_hyphen_values = true)]
    remaining: Option<u8>,
    /// The turn score so far (before this throw), a multiple of 50 (default: 0).
    #[arg(long, value_name = "S", default_value = "0", hide_default_value = true, value_parser = parse_score, allow_hyphen_values = true)]
    score: u32,
    /// The rules: `seed` (default; the seed's scoring, entry 1000: duel.dtab) or `cardgames`
    /// (a common online Farkle's scoring, no entry: duel-cardgames.dtab).
    #[arg(long, value_name = "R", value_parser = parse_duel_rules)]
    rules: Option<DuelRules>,
    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Duel(DuelQuery {
            me: self.me,
            opp: self.opp,
            dice: self.dice,
            remaining: self.remaining,
            score: self.score,
            rules: self.rules.unwrap_or(DuelRules::Seed),
        })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        match self.rules.unwrap_or(DuelRules::Seed) {
            DuelRules::Seed => self.answer(tables.get::<SeedDuel>()?),
            DuelRules::Cardgames => self.answer(tables.get::<CardgamesDuel>()?),
        }
    }
}

impl Lookup {
    fn answer<S: Scoring>(&self, duel: &Duel<S>) -> Result<String, Failure> {
        let (me, opp, score) = (self.me, self.opp, self.score);
        let rules = S::NAME;
        let params = duel.params();
        let entry = if params.entry > 0 { format!("entry {}", params.entry) } else { "no entry".to_string() };
        let mut out = String::new();
        let _ = write!(out, "10000 duel ({rules} rules, {entry}, goal {}): you {me}, opponent {opp}", params.goal);
        if let Some(n) = self.remaining {
            let state = duel.before_throw(me, opp, n, score)?;
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
            let p = duel.win_chance(me, opp)?;
            let _ = writeln!(out, ", your turn starts");
            let _ = writeln!(out, "you win {}", percent(p));
            return Ok(out);
        };
        let options = duel.options(me, opp, throw, score)?;
        let _ = writeln!(out, ", throw {throw} at turn score {score}");
        if options.is_empty() {
            let p = duel.turn(me, opp)?.bust();
            let _ = writeln!(out, "bust: nothing scores, the turn passes with {score} lost; you win {}", percent(p));
            return Ok(out);
        }
        let rows: Vec<KeepRow> = options
            .best_first(|o| o.p)
            .into_iter()
            .map(|o| (o.keep, o.points, o.dice_left, o.then, percent(o.p)))
            .collect();
        write_keeps(&mut out, &rows, &format!("you win {}", rows[0].4));
        Ok(out)
    }
}
