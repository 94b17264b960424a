//! `reader lookup yazy`.

use clap::Args;
use dice_tables_lookup::parse::{parse_mask, parse_need};
use dice_tables_lookup::{Query, YazyQuery};
use dice_tables_reader::yazy::{Action, Mask, Yazy};
use dice_tables_reader::yazy_target::YazyTarget;
use dice_tables_reader::{Dice, Tables};

use crate::output::{score_text, Failure};
use crate::roll::{keep_text, OptionRow, Roll, RollAnswer};
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
        Query::Yazy(YazyQuery { mask: self.mask, dice: self.roll.dice, rerolls: self.roll.rerolls, need: self.need })
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
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
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev, width: 34, need: None }.render(rows))
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
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 34, need: Some(need) }.render(rows))
}
