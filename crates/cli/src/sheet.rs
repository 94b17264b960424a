//! `reader lookup yatzy` and `reader lookup yahtzee`.

use clap::Args;
use dice_tables_lookup::parse::{
    parse_joker, parse_need, parse_upper, parse_yahtzee_mask, parse_yahtzee_total, parse_yatzy_mask, parse_yatzy_total,
};
use dice_tables_lookup::{Query, SheetQuery};
use dice_tables_reader::sheet::Joker;

use crate::roll::Roll;
use crate::{Common, GameLookup};

#[derive(Args, Debug)]
pub struct YatzyLookup {
    /// Open categories: a comma list of names (ones,twos,threes,fours,fives,sixes,pair,two-pairs,three-kind,four-kind,small-straight,large-straight,full-house,chance,yatzy;
    /// any case, `full house` or `fullhouse`, `3-kind` or `three-of-a-kind`), `all`, all less the filled ones
    /// (`all,-ones,-chance`), or a number 0 to 32767 (decimal, 0x.., 0b..; bit i = category i).
    #[arg(long, value_name = "M", value_parser = parse_yatzy_mask, allow_hyphen_values = true)]
    mask: u32,
    /// Upper-section points so far (ones to sixes; any total from 63 up that the filled boxes can make is one state).
    /// Needed once an upper box is filled; left out, 0.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    upper: Option<u32>,
    #[command(flatten)]
    roll: Roll,
    /// Play to win: the best chance of scoring at least N more points (this
    /// turn's included), from the yatzy-target table (`make target-tables`).
    /// 0 or less: already reached.
    #[arg(long, value_name = "N", value_parser = parse_need, allow_hyphen_values = true)]
    need: Option<i64>,
    /// Play against an opponent whose open categories are O (the same forms
    /// as --mask): the opponent-aware advisor's estimate of your chance of
    /// winning, ties half, from the yatzy-target table (`make
    /// target-tables`). Needs --me and --opp.
    #[arg(long, value_name = "O", value_parser = parse_yatzy_mask, allow_hyphen_values = true)]
    opp_mask: Option<u32>,
    /// The opponent's upper-section points so far, as --upper.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    opp_upper: Option<u32>,
    /// Your total so far, 0 to 374, the upper bonus left out (it counts at the game's end); only --me minus --opp matters.
    #[arg(long, value_name = "S", value_parser = parse_yatzy_total, allow_hyphen_values = true)]
    me: Option<u32>,
    /// The opponent's total so far, counted as --me.
    #[arg(long, value_name = "T", value_parser = parse_yatzy_total, allow_hyphen_values = true)]
    opp: Option<u32>,

    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug)]
pub struct YahtzeeLookup {
    /// Open categories: a comma list of names (ones,twos,threes,fours,fives,sixes,three-kind,four-kind,full-house,small-straight,large-straight,yahtzee,chance;
    /// any case, `full house` or `fullhouse`, `3-kind` or `three-of-a-kind`), `all`, all less the filled ones
    /// (`all,-ones,-chance`), or a number 0 to 8191 (decimal, 0x.., 0b..; bit i = category i).
    #[arg(long, value_name = "M", value_parser = parse_yahtzee_mask, allow_hyphen_values = true)]
    mask: u32,
    /// Upper-section points so far (ones to sixes; any total from 63 up that the filled boxes can make is one state).
    /// Needed once an upper box is filled; left out, 0.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    upper: Option<u32>,
    /// The yahtzee box holds 50 (each further Yahtzee scores 100 more).
    #[arg(long)]
    yahtzee_bonus: bool,
    #[command(flatten)]
    roll: Roll,
    /// Play to win: the best chance of scoring at least N more points (this
    /// turn's included), from the yahtzee-target table (`make target-tables`).
    /// 0 or less: already reached.
    #[arg(long, value_name = "N", value_parser = parse_need, allow_hyphen_values = true)]
    need: Option<i64>,
    /// Where a Yahtzee rolled with the yahtzee box filled may go: `forced`
    /// (the official reading; yahtzee.dtab, the default) or `free` (any open
    /// box, Verhoeff's; yahtzee-free.dtab from `make yahtzee-free`, and
    /// yahtzee-free-target.dtab from `make yahtzee-free-target` for --need).
    #[arg(long, value_name = "READING", value_parser = parse_joker)]
    joker: Option<Joker>,
    /// Play against an opponent whose open categories are O (the same forms
    /// as --mask): the opponent-aware advisor's estimate of your chance of
    /// winning, ties half, from the yahtzee-target table (`make
    /// target-tables`). Needs --me and --opp.
    #[arg(long, value_name = "O", value_parser = parse_yahtzee_mask, allow_hyphen_values = true)]
    opp_mask: Option<u32>,
    /// The opponent's upper-section points so far, as --upper.
    #[arg(long, value_name = "N", value_parser = parse_upper, allow_hyphen_values = true)]
    opp_upper: Option<u32>,
    /// The opponent's yahtzee box holds 50.
    #[arg(long)]
    opp_yahtzee_bonus: bool,
    /// Your total so far, 0 to 1575, Yahtzee bonuses included and the upper bonus left out (it counts at the game's
    /// end); only --me minus --opp matters.
    #[arg(long, value_name = "S", value_parser = parse_yahtzee_total, allow_hyphen_values = true)]
    me: Option<u32>,
    /// The opponent's total so far, counted as --me.
    #[arg(long, value_name = "T", value_parser = parse_yahtzee_total, allow_hyphen_values = true)]
    opp: Option<u32>,

    #[command(flatten)]
    common: Common,
}

impl GameLookup for YatzyLookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Yatzy(self.sheet_query())
    }
}

impl GameLookup for YahtzeeLookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Yahtzee(self.sheet_query())
    }
}

impl YatzyLookup {
    fn sheet_query(&self) -> SheetQuery {
        SheetQuery {
            mask: self.mask,
            upper: self.upper,
            yahtzee_bonus: false,
            dice: self.roll.dice,
            rerolls: self.roll.rerolls,
            need: self.need,
            joker: None,
            opp_mask: self.opp_mask,
            opp_upper: self.opp_upper,
            opp_yahtzee_bonus: false,
            me: self.me,
            opp: self.opp,
        }
    }
}

impl YahtzeeLookup {
    fn sheet_query(&self) -> SheetQuery {
        SheetQuery {
            mask: self.mask,
            upper: self.upper,
            yahtzee_bonus: self.yahtzee_bonus,
            dice: self.roll.dice,
            rerolls: self.roll.rerolls,
            need: self.need,
            joker: self.joker,
            opp_mask: self.opp_mask,
            opp_upper: self.opp_upper,
            opp_yahtzee_bonus: self.opp_yahtzee_bonus,
            me: self.me,
            opp: self.opp,
        }
    }
}
