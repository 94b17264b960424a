//! `reader lookup yazy`.

use clap::Args;
use dice_tables_lookup::parse::{parse_mask, parse_need, parse_yazy_total};
use dice_tables_lookup::{Query, YazyQuery};
use dice_tables_reader::yazy::duel::YazyDuel;
use dice_tables_reader::yazy::target::YazyTarget;
use dice_tables_reader::yazy::{Action, Mask, Yazy};
use dice_tables_reader::{Dice, Tables};

use crate::output::{score_text, Failure};
use crate::roll::{keep_text, OptionRow, Roll, RollAnswer, Valued};
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

fn action_text(a: Action, points: u8) -> String {
    match a {
        Action::Keep(d) => keep_text(d),
        Action::Score(c) => score_text(c, points),
    }
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

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        if let Some(opp_mask) = self.opp_mask {
            let lead = i64::from(self.me.unwrap_or(0)) - i64::from(self.opp.unwrap_or(0));
            if self.advisor {
                return advisor(tables, self.mask, opp_mask, lead, self.roll);
            }
            return two_player(tables, self.mask, opp_mask, lead, self.roll);
        }
        if let Some(need) = self.need {
            return target(tables, self.mask, self.roll, need);
        }
        let yazy = tables.get::<Yazy>()?;
        match self.roll.dice {
            None => turn_start(yazy, self.mask),
            Some(dice) => state(yazy, self.mask, dice, self.roll.rerolls.unwrap_or(yazy.rerolls())),
        }
    }
}

fn turn_start(yazy: &Yazy, mask: Mask) -> Result<String, Failure> {
    let ev = yazy.turn_start_value(mask)?;
    Ok(format!(
        "yazy, open: {mask} (mask {})\nexpected score still to come, before this turn's roll: {ev:.7}\n",
        mask.bits()
    ))
}

fn state(yazy: &Yazy, mask: Mask, dice: Dice, rerolls: u8) -> Result<String, Failure> {
    let ev = yazy.value(mask, dice, rerolls)?;
    let options = yazy.options(mask, dice, rerolls)?;
    let rows = options.iter().map(|o| OptionRow { text: action_text(o.action, o.points), ev: o.ev }).collect();
    let state_line = format!("yazy, open: {mask} (mask {})", mask.bits());
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev, width: 34, value: Valued::Points }.render(rows))
}

fn target(tables: &Tables, mask: Mask, roll: Roll, need: i64) -> Result<String, Failure> {
    let table = tables.get::<YazyTarget>().map_err(dice_tables_lookup::LookupError::from)?;
    let state_line = format!("yazy, open: {mask} (mask {}), needing {need} more points", mask.bits());
    let Some(dice) = roll.dice else {
        let p = table.chance(mask, need)?;
        return Ok(format!(
            "{state_line}\nbest chance of scoring at least {need} more points, before this turn's roll: {p:.7}\n"
        ));
    };
    let rerolls = roll.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(mask, dice, rerolls, need)?;
    let p = options.best().map_or(dice_tables_reader::target::game_over_chance(need), |b| b.p);
    let rows = options.iter().map(|o| OptionRow { text: action_text(o.action, o.points), ev: o.p }).collect();
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 34, value: Valued::Reach(need) }.render(rows))
}

fn two_player(tables: &Tables, mask: Mask, opp_mask: Mask, lead: i64, roll: Roll) -> Result<String, Failure> {
    let table = tables.get::<YazyDuel>().map_err(dice_tables_lookup::LookupError::from)?;
    let state_line = format!(
        "yazy against an opponent, open: {mask} (mask {}), the opponent's: {opp_mask} (mask {}), lead {lead}",
        mask.bits(),
        opp_mask.bits()
    );
    let Some(dice) = roll.dice else {
        let p = table.chance(mask, opp_mask, lead)?;
        return Ok(format!("{state_line}\nchance of winning (ties half), before this turn's roll: {p:.7}\n"));
    };
    let rerolls = roll.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(mask, opp_mask, lead, dice, rerolls)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.chance(mask, opp_mask, lead)?,
    };
    let rows = options.iter().map(|o| OptionRow { text: action_text(o.action, o.points), ev: o.p }).collect();
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 34, value: Valued::Winning }.render(rows))
}

fn advisor(tables: &Tables, mask: Mask, opp_mask: Mask, lead: i64, roll: Roll) -> Result<String, Failure> {
    let table = tables.get::<YazyTarget>().map_err(dice_tables_lookup::LookupError::from)?;
    let opponent = table.opponent(opp_mask, lead)?;
    let state_line = format!(
        "yazy against an opponent, as the opponent-aware advisor plays it, open: {mask} (mask {}), the opponent's: {opp_mask} (mask {}), lead {lead}",
        mask.bits(),
        opp_mask.bits()
    );
    let Some(dice) = roll.dice else {
        let p = table.versus_chance(mask, &opponent)?;
        return Ok(format!(
            "{state_line}\nchance of winning (ties half), the advisor's estimate, before this turn's roll: {p:.7}\n"
        ));
    };
    let rerolls = roll.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.versus_options(mask, dice, rerolls, &opponent)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.versus_chance(mask, &opponent)?,
    };
    let rows = options.iter().map(|o| OptionRow { text: action_text(o.action, o.points), ev: o.p }).collect();
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 34, value: Valued::Estimate }.render(rows))
}
