//! `reader lookup tenk` (alias `10000`).

use clap::Args;
use dice_tables_lookup::parse::{parse_score, parse_tenk_remaining, parse_tenk_throw};
use dice_tables_lookup::{Query, TenkQuery};
use dice_tables_reader::Dice;

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

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Tenk(TenkQuery { dice: self.dice, remaining: self.remaining, score: self.score, opening: self.opening })
    }
}
