//! What the five-dice keep/reroll games (yazy, combo, yatzy, yahtzee)
//! share on the command line: the dice and rerolls arguments.

use clap::Args;
use dice_tables_lookup::parse::{parse_five_dice, parse_rerolls};
use dice_tables_reader::Dice;

/// The dice showing and the rerolls left.
#[derive(Args, Clone, Copy, Debug)]
pub struct Roll {
    /// The five dice showing, digits 1-6 in any order, spaces or commas
    /// between them allowed (without it: the value before the roll).
    #[arg(long, value_name = "D", value_parser = parse_five_dice, allow_hyphen_values = true)]
    pub dice: Option<Dice>,
    /// Rerolls left after this roll: 0 to 2 (0 to 5 for combo with the default rules; default: all of them).
    #[arg(long, value_name = "R", value_parser = parse_rerolls, allow_hyphen_values = true)]
    pub rerolls: Option<u8>,
}
