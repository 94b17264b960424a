//! `reader lookup threes`.

use clap::Args;
use dice_tables_lookup::parse::{
    parse_after, parse_model, parse_objective, parse_points, parse_record, parse_remaining, parse_throw, parse_ties,
};
use dice_tables_lookup::{Query, ThreesQuery};
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::Dice;

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
}
