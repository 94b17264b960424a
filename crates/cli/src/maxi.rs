//! `reader lookup maxi-yatzy`.

use clap::Args;
use dice_tables_lookup::parse::{
    parse_maxi_mask, parse_maxi_rules, parse_rerolls, parse_saved, parse_six_dice, parse_upper,
};
use dice_tables_lookup::{MaxiQuery, MaxiRules, Query};
use dice_tables_reader::Dice;

use crate::{Common, GameLookup};

#[derive(Args, Debug)]
pub struct Lookup {
    /// Open boxes: a comma list of names (ones,twos,threes,fours,fives,sixes,one-pair,two-pairs,three-pairs,
    /// three-kind,four-kind,five-kind,small-straight,large-straight,full-straight,full-house,villa,tower,chance,maxi-yatzy;
    /// any case, `Full House` or `fullhouse`, `3 of a kind`), `all`, all less the filled ones (`all,-ones,-villa`),
    /// or a number 0 to 1048575 (decimal, 0x.., 0b..; bit i = box i).
    #[arg(long, value_name = "M", value_parser = parse_maxi_mask, allow_hyphen_values = true)]
    mask: u32,
    /// Upper points so far (ones to sixes; any total from the bonus's threshold up that the filled boxes
    /// can make is one state). Needed once an upper box is filled; left out, 0.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    upper: Option<u32>,
    /// Rerolls saved from earlier turns (swedish rules: two at most for each turn played); left out, 0.
    #[arg(long, value_name = "B", value_parser = parse_saved, allow_hyphen_values = true)]
    saved: Option<u32>,
    /// The six dice showing, digits 1-6 in any order (without it: the value before the roll).
    #[arg(long, value_name = "D", value_parser = parse_six_dice, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Rerolls left in this turn: its two and any saved ones still unused (default: all of them).
    #[arg(long, value_name = "R", value_parser = parse_rerolls, allow_hyphen_values = true)]
    rerolls: Option<u8>,
    /// `finnish` (bonus 50 at 75, no saved rolls; maxi-yatzy.dtab, the default) or `swedish`
    /// (bonus 100 at 84, unused rerolls saved; maxi-yatzy-swedish.dtab from `make maxi-swedish`).
    #[arg(long, value_name = "RULES", value_parser = parse_maxi_rules)]
    rules: Option<MaxiRules>,

    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Maxi(MaxiQuery {
            mask: self.mask,
            upper: self.upper,
            saved: self.saved,
            dice: self.dice,
            rerolls: self.rerolls,
            rules: self.rules.unwrap_or(MaxiRules::Finnish),
        })
    }
}
