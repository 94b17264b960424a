//! `reader lookup yazy`.

use clap::Args;
use dice_tables_lookup::parse::{parse_mask, parse_need, parse_yazy_total};
use dice_tables_lookup::{Query, YazyQuery};
use dice_tables_reader::yazy::Mask;

use crate::roll::Roll;
use crate::{Common, GameLookup};

#[derive(Args, Debug)]
pub struct Lookup {
    /// Open categories: a comma list of names (ones,twos,threes,fours,fives,sixes,three-kind,four-kind,full-house,straight,yazy;
    /// any case, `full house` or `fullhouse`), `all`, all less the filled ones (`all,-ones,-yazy`), or a number 0 to 2047
    /// (decimal, 0x.., 0b..; bit i = category i).
    #[arg(long, value_name = "M", value_parser = parse_mask, allow_hyphen_values = true)]
    mask: Mask,
    #[command(flatten)]
    roll: Roll,
    /// Play to win: the best chance of scoring at least N more points (this
    /// turn's included), from the yazy-target table (`make target-tables`).
    /// 0 or less: already reached.
    #[arg(long, value_name = "N", value_parser = parse_need, allow_hyphen_values = true)]
    need: Option<i64>,
    /// Play against an opponent whose open categories are O (the same
    /// forms as --mask): your chance of winning, ties half, from the
    /// yazy-duel table (`make yazy-duel`). Needs --me and --opp.
    #[arg(long, value_name = "O", value_parser = parse_mask, allow_hyphen_values = true)]
    opp_mask: Option<Mask>,
    /// Your total so far, 0 to 280 (two-player lookups; only --me minus --opp matters).
    #[arg(long, value_name = "S", value_parser = parse_yazy_total, allow_hyphen_values = true)]
    me: Option<u32>,
    /// The opponent's total so far, 0 to 280 (two-player lookups).
    #[arg(long, value_name = "T", value_parser = parse_yazy_total, allow_hyphen_values = true)]
    opp: Option<u32>,
    /// With --opp-mask: the opponent-aware advisor's play and its estimate
    /// of your chance of winning, from the yazy-target table, instead of
    /// the two-player table's exact answer (what yatzy and yahtzee give
    /// against an opponent, here to compare with the exact one).
    #[arg(long)]
    advisor: bool,
    #[command(flatten)]
    common: Common,
}

impl GameLookup for Lookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Yazy(YazyQuery {
            mask: self.mask,
            dice: self.roll.dice,
            rerolls: self.roll.rerolls,
            need: self.need,
            opp_mask: self.opp_mask,
            me: self.me,
            opp: self.opp,
            advisor: self.advisor,
        })
    }
}
