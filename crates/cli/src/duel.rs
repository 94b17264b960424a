//! `reader lookup duel` (aliases `10000-duel`, `tenk2`): two-player 10000,
//! the chance of winning.

use clap::Args;
use dice_tables_lookup::parse::{parse_duel_rules, parse_score, parse_tenk_remaining, parse_tenk_throw, parse_total};
use dice_tables_lookup::{DuelQuery, DuelRules, Query};
use dice_tables_reader::Dice;

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
}
