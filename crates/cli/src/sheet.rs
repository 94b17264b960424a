//! `reader lookup yatzy` and `reader lookup yahtzee`.

use clap::Args;
use dice_tables_lookup::parse::{
    parse_joker, parse_need, parse_upper, parse_yahtzee_mask, parse_yahtzee_total, parse_yatzy_mask, parse_yatzy_total,
};
use dice_tables_lookup::{LookupError, Query, SheetQuery};
use dice_tables_reader::sheet::{
    yahtzee_bonus_of, Action, Joker, ScoreSheet, SheetGame, SheetTarget, State, YahtzeeFreeGame, YahtzeeGame, YatzyGame,
};
use dice_tables_reader::{Dice, Tables};

use crate::output::{score_text, Failure};
use crate::roll::{keep_text, OptionRow, Roll, RollAnswer, Valued};
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

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        text::<YatzyGame>(tables, self.sheet_query())
    }
}

impl GameLookup for YahtzeeLookup {
    fn common(&self) -> &Common {
        &self.common
    }

    fn query(&self) -> Query {
        Query::Yahtzee(self.sheet_query())
    }

    fn text(&self, tables: &Tables) -> Result<String, Failure> {
        match self.joker {
            Some(Joker::Free) => text::<YahtzeeFreeGame>(tables, self.sheet_query()),
            _ => text::<YahtzeeGame>(tables, self.sheet_query()),
        }
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

fn text<G: SheetGame>(tables: &Tables, q: SheetQuery) -> Result<String, Failure> {
    if let Some(opp_mask) = q.opp_mask {
        return versus::<G>(tables, q, opp_mask);
    }
    if let Some(need) = q.need {
        return target::<G>(tables, q, need);
    }
    let sheet = tables.get::<ScoreSheet<G>>().map_err(LookupError::from)?;
    let state = sheet.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    match q.dice {
        None => turn_start(sheet, state, q.upper_total()),
        Some(dice) => roll_state(sheet, state, q.upper_total(), dice, q.rerolls.unwrap_or(2)),
    }
}

fn target<G: SheetGame>(tables: &Tables, q: SheetQuery, need: i64) -> Result<String, Failure> {
    let table = tables.get::<SheetTarget<G>>().map_err(LookupError::from)?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let state_line = format!("{}, needing {need} more points", state_line::<G>(state, q.upper_total()));
    let Some(dice) = q.dice else {
        let p = table.chance(state, need)?;
        return Ok(format!(
            "{state_line}\nbest chance of scoring at least {need} more points, before this turn's roll: {p:.7}\n"
        ));
    };
    let rerolls = q.rerolls.unwrap_or(2);
    let options = table.options(state, dice, rerolls, need)?;
    let p = table.roll_chance(state, need, &options)?;
    let bonus = yahtzee_bonus_of(state, dice);
    let rows =
        options.iter().map(|o| OptionRow { text: action_text::<G>(o.action, o.points, bonus), ev: o.p }).collect();
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 38, value: Valued::Reach(need) }.render(rows))
}

/// Against an opponent, as the opponent-aware advisor plays it.
fn versus<G: SheetGame>(tables: &Tables, q: SheetQuery, opp_mask: u32) -> Result<String, Failure> {
    let table = tables.get::<SheetTarget<G>>().map_err(LookupError::from)?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let opponent_state = table.state(opp_mask, q.opp_upper_total(), q.opp_yahtzee_bonus)?;
    let lead = q.lead();
    let opponent = table.opponent(opponent_state, lead)?;
    let mut opponent_line = format!(
        "the opponent's open: {} (mask {opp_mask}), upper total {}",
        ScoreSheet::<G>::mask_names(opp_mask),
        q.opp_upper_total()
    );
    if q.opp_yahtzee_bonus {
        opponent_line.push_str(", yahtzee box holds 50");
    }
    let state_line = format!(
        "{}
{opponent_line}; lead {lead}",
        state_line::<G>(state, q.upper_total())
    );
    let Some(dice) = q.dice else {
        let p = table.versus_chance(state, &opponent)?;
        return Ok(format!(
            "{state_line}
chance of winning (ties half), the advisor's estimate, before this turn's roll: {p:.7}
"
        ));
    };
    let rerolls = q.rerolls.unwrap_or(2);
    let options = table.versus_options(state, dice, rerolls, &opponent)?;
    let p = table.versus_roll_chance(state, &opponent, &options)?;
    let bonus = yahtzee_bonus_of(state, dice);
    let rows =
        options.iter().map(|o| OptionRow { text: action_text::<G>(o.action, o.points, bonus), ev: o.p }).collect();
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev: p, width: 38, value: Valued::Estimate }.render(rows))
}

/// The first line of the text answer: the state.
fn state_line<G: SheetGame>(state: State, upper: u32) -> String {
    let game = match G::JOKER {
        Some(Joker::Free) => "yahtzee (free joker reading)",
        _ => G::ID,
    };
    let mut line = format!(
        "{game}, open: {} (mask {}), upper total {upper}",
        ScoreSheet::<G>::mask_names(state.mask()),
        state.mask()
    );
    if state.yahtzee_bonus() {
        line.push_str(", yahtzee box holds 50");
    }
    line
}

fn turn_start<G: SheetGame>(sheet: &ScoreSheet<G>, state: State, upper: u32) -> Result<String, Failure> {
    let ev = sheet.turn_start_value(state)?;
    Ok(format!("{}\nexpected score still to come, before this turn's roll: {ev:.7}\n", state_line::<G>(state, upper)))
}

/// An action for people; a category's Yahtzee `bonus` (included in
/// `points`) is said apart, as a player writes it.
fn action_text<G: SheetGame>(a: Action, points: u8, bonus: u8) -> String {
    match a {
        Action::Keep(d) => keep_text(d),
        Action::Score(c) if bonus > 0 => {
            format!("score {} for {} + {bonus} bonus points", ScoreSheet::<G>::category_name(c), points - bonus)
        }
        Action::Score(c) => score_text(ScoreSheet::<G>::category_name(c), points),
    }
}

fn roll_state<G: SheetGame>(
    sheet: &ScoreSheet<G>,
    state: State,
    upper: u32,
    dice: Dice,
    rerolls: u8,
) -> Result<String, Failure> {
    let options = sheet.options(state, dice, rerolls)?;
    let ev = sheet.roll_value(state, &options)?;
    let bonus = sheet.yahtzee_bonus(state, dice);
    let rows =
        options.iter().map(|o| OptionRow { text: action_text::<G>(o.action, o.points, bonus), ev: o.ev }).collect();
    let state_line = state_line::<G>(state, upper);
    Ok(RollAnswer { state_line: &state_line, dice, rerolls, ev, width: 38, value: Valued::Points }.render(rows))
}
