//! Yatzy and Yahtzee: five dice, two rerolls, a 15- or 13-box sheet; alone,
//! for a target, or against an opponent as the advisor estimates it.
//! Yahtzee's joker reading picks its table (forced by default).

use super::{GameQuery, LookupInfo};
use crate::answer::{keep, roll, start, text, Answer};
#[cfg(not(dice_tables_solitaire_only))]
use crate::answer::{target_roll, versus_roll, versus_start};
use crate::args::{Args, Parser};
use crate::checks::{check_opponent, check_rerolls};
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{
    parse_five_dice, parse_joker, parse_need, parse_rerolls, parse_upper, parse_yahtzee_mask, parse_yahtzee_total,
    parse_yatzy_mask, parse_yatzy_total,
};
use crate::queries::Query;
use crate::queries::SheetQuery;
#[cfg(not(dice_tables_solitaire_only))]
use dice_tables_reader::sheet::SheetTarget;
use dice_tables_reader::sheet::{
    Joker, ScoreSheet, SheetGame, YahtzeeFreeGame, YahtzeeGame, YatzyGame, REROLLS, UPPER_MASK,
};
#[cfg(not(dice_tables_solitaire_only))]
use dice_tables_reader::target::CurveRow;
use dice_tables_reader::{Game, Tables};

pub(super) const YATZY: LookupInfo = LookupInfo {
    game: YatzyGame::ID,
    aliases: <ScoreSheet<YatzyGame> as Game>::ALIASES,
    required: &["mask"],
    optional: &["upper", "dice", "rerolls", "need", "opp-mask", "opp-upper", "me", "opp"],
    categories: YatzyGame::CATEGORIES,
    parse: |_, a| Ok(Query::Yatzy(parse(a, YatzyGame::CATEGORIES, parse_yatzy_mask, parse_yatzy_total)?)),
    #[cfg(not(dice_tables_solitaire_only))]
    curve: Some(curve::<YatzyGame>),
    #[cfg(dice_tables_solitaire_only)]
    curve: None,
};

pub(super) const YAHTZEE: LookupInfo = LookupInfo {
    game: YahtzeeGame::ID,
    aliases: <ScoreSheet<YahtzeeGame> as Game>::ALIASES,
    required: &["mask"],
    optional: &[
        "upper",
        "yahtzee-bonus",
        "dice",
        "rerolls",
        "need",
        "joker",
        "opp-mask",
        "opp-upper",
        "opp-yahtzee-bonus",
        "me",
        "opp",
    ],
    categories: YahtzeeGame::CATEGORIES,
    parse: |_, a| Ok(Query::Yahtzee(parse(a, YahtzeeGame::CATEGORIES, parse_yahtzee_mask, parse_yahtzee_total)?)),
    #[cfg(not(dice_tables_solitaire_only))]
    curve: Some(curve::<YahtzeeGame>),
    #[cfg(dice_tables_solitaire_only)]
    curve: None,
};

fn parse(
    a: &Args<'_>,
    categories: &'static [&'static str],
    parse_mask: Parser<u32>,
    parse_total: Parser<u32>,
) -> Result<SheetQuery, LookupError> {
    Ok(SheetQuery {
        mask: a.required_with("mask", categories, parse_mask)?,
        upper: a.value("upper", parse_upper)?,
        yahtzee_bonus: a.flag("yahtzee-bonus")?,
        dice: a.value("dice", parse_five_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
        need: a.value("need", parse_need)?,
        joker: a.value("joker", parse_joker)?,
        opp_mask: a.value("opp-mask", parse_mask)?,
        opp_upper: a.value("opp-upper", parse_upper)?,
        opp_yahtzee_bonus: a.flag("opp-yahtzee-bonus")?,
        me: a.value("me", parse_total)?,
        opp: a.value("opp", parse_total)?,
    })
}

/// Not in builds without the target tables (the static site's module,
/// whose size budget the curve's code would cost).
#[cfg(not(dice_tables_solitaire_only))]
fn curve<G: SheetGame>(tables: &Tables) -> Result<Vec<CurveRow>, LookupError> {
    let table = tables.get::<SheetTarget<G>>()?;
    let all = (1u32 << G::CATEGORIES.len()) - 1;
    let start = table.curve(table.state(all, 0, false)?)?;
    Ok(dice_tables_reader::target::score_curve(&start, &table.ev_distribution()?))
}

/// A yatzy query, as [`Query`] answers it.
pub(crate) struct Yatzy<'a>(pub(crate) &'a SheetQuery);

/// A yahtzee query, as [`Query`] answers it: its joker reading picks the table.
pub(crate) struct Yahtzee<'a>(pub(crate) &'a SheetQuery);

impl GameQuery for Yatzy<'_> {
    fn lookup(&self) -> &'static LookupInfo {
        &YATZY
    }

    fn table(&self) -> &'static str {
        table::<YatzyGame>(self.0)
    }

    fn check(&self) -> Result<(), LookupError> {
        check(YatzyGame::ID, self.0)
    }

    fn answer(&self, tables: &Tables) -> Answer {
        answer::<YatzyGame>(tables, self.0)
    }
}

impl GameQuery for Yahtzee<'_> {
    fn lookup(&self) -> &'static LookupInfo {
        &YAHTZEE
    }

    fn table(&self) -> &'static str {
        match self.0.joker {
            Some(Joker::Free) => table::<YahtzeeFreeGame>(self.0),
            _ => table::<YahtzeeGame>(self.0),
        }
    }

    fn check(&self) -> Result<(), LookupError> {
        check(YahtzeeGame::ID, self.0)
    }

    fn answer(&self, tables: &Tables) -> Answer {
        match self.0.joker {
            Some(Joker::Free) => answer::<YahtzeeFreeGame>(tables, self.0),
            _ => answer::<YahtzeeGame>(tables, self.0),
        }
    }
}

/// The table of `G` a query reads: the target table when played to win.
fn table<G: SheetGame>(q: &SheetQuery) -> &'static str {
    if q.played_to_win() {
        G::TARGET_ID
    } else {
        G::ID
    }
}

fn check(game: &'static str, q: &SheetQuery) -> Result<(), LookupError> {
    check_rerolls(q.dice, q.rerolls)?;
    check_upper(game, q)?;
    check_sheet_opponent(q)
}

/// The upper total may be left out only while ones to sixes are all open
/// (then it can only be 0).
fn check_upper(game: &'static str, q: &SheetQuery) -> Result<(), LookupError> {
    match q.upper {
        None if q.mask & UPPER_MASK != UPPER_MASK => Err(LookupError::UpperNeeded { game, argument: "upper" }),
        _ => match (q.opp_mask, q.opp_upper) {
            (Some(m), None) if m & UPPER_MASK != UPPER_MASK => {
                Err(LookupError::UpperNeeded { game, argument: "opp-upper" })
            }
            _ => Ok(()),
        },
    }
}

/// A lookup against an opponent has the opponent's sheet and both totals,
/// and no target; the opponent's other arguments need their sheet.
fn check_sheet_opponent(q: &SheetQuery) -> Result<(), LookupError> {
    let Some(opp_mask) = q.opp_mask else {
        if q.me.is_some() || q.opp.is_some() || q.opp_upper.is_some() || q.opp_yahtzee_bonus {
            return Err(LookupError::TwoPlayer { missing: "opp-mask" });
        }
        return Ok(());
    };
    check_opponent(q.mask.count_ones(), opp_mask.count_ones(), q.need.is_some(), q.me, q.opp)
}

fn answer<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let answer = if q.opp_mask.is_some() {
        versus::<G>(tables, q)
    } else if q.need.is_some() {
        target::<G>(tables, q)
    } else {
        solitaire::<G>(tables, q)
    };
    answer.map(reading::<G>)
}

/// A score-sheet game's answer as the lookups write it: a table of the free
/// joker reading answers as yahtzee, saying so (`"joker":"free"` after the
/// game); the forced reading, yahtzee's default, goes unsaid.
fn reading<G: SheetGame>(answer: Json) -> Json {
    match (G::JOKER, answer) {
        (Some(Joker::Free), Json::Object(mut fields)) => {
            fields[0].1 = text(YahtzeeGame::ID);
            fields.insert(1, ("joker".into(), text(Joker::Free.name())));
            Json::Object(fields)
        }
        (_, answer) => answer,
    }
}

fn solitaire<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let state = sheet.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let Some(dice) = q.dice else { return Ok(start(G::ID, sheet.turn_start_value(state)?)) };
    let options = sheet.options(state, dice, q.rerolls.unwrap_or(REROLLS))?;
    let ev = sheet.roll_value(state, &options)?;
    let action = action::<G>(sheet.yahtzee_bonus(state, dice));
    Ok(roll(G::ID, ev, options.iter().map(|o| (action(o.action, o.points), o.ev)).collect()))
}

/// A score-sheet action as the lookups write it: in yahtzee a category
/// carries its Yahtzee bonus (`bonus`, from the roll) apart, as a player writes it.
fn action<G: SheetGame>(bonus: u8) -> impl Fn(dice_tables_reader::sheet::Action, u8) -> Json {
    move |a, points| match a {
        dice_tables_reader::sheet::Action::Keep(d) => keep(d),
        dice_tables_reader::sheet::Action::Score(c) => {
            let name = ScoreSheet::<G>::category_name(c);
            let mut fields = vec![("category", text(name)), ("points", Json::Int((points - bonus).into()))];
            if G::JOKER.is_some() {
                fields.push(("bonus", Json::Int(bonus.into())));
            }
            Json::object(fields)
        }
    }
}

#[cfg(dice_tables_solitaire_only)]
fn target<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Answer {
    Err(crate::answer::NO_TARGET)
}

#[cfg(dice_tables_solitaire_only)]
fn versus<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Answer {
    Err(crate::answer::NO_ADVISOR)
}

#[cfg(not(dice_tables_solitaire_only))]
fn target<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let need = q.need.expect("a target lookup");
    let table = tables.get::<SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let Some(dice) = q.dice else {
        let p = table.chance(state, need)?;
        return Ok(Json::object(vec![("game", text(G::ID)), ("need", Json::Int(need)), ("p", Json::Num(p))]));
    };
    let options = table.options(state, dice, q.rerolls.unwrap_or(REROLLS), need)?;
    let p = table.roll_chance(state, need, &options)?;
    let action = action::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    Ok(target_roll(G::ID, need, p, options.iter().map(|o| (action(o.action, o.points), o.p)).collect()))
}

/// Against an opponent, as the opponent-aware advisor plays it (the target
/// table): its estimate of the chance of winning (ties half), not exact.
#[cfg(not(dice_tables_solitaire_only))]
fn versus<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let table = tables.get::<SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let opponent_state = table.state(opp_mask, q.opp_upper_total(), q.opp_yahtzee_bonus)?;
    let lead = q.lead();
    let opponent = table.opponent(opponent_state, lead)?;
    let Some(dice) = q.dice else {
        return Ok(versus_start(G::ID, lead, table.versus_chance(state, &opponent)?, false));
    };
    let options = table.versus_options(state, dice, q.rerolls.unwrap_or(REROLLS), &opponent)?;
    let p = table.versus_roll_chance(state, &opponent, &options)?;
    let action = action::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    Ok(versus_roll(G::ID, lead, p, false, options.iter().map(|o| (action(o.action, o.points), o.p)).collect()))
}
