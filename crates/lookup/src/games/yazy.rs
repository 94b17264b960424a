//! yazy: the seeds' sheet of 11 categories, and played to win (a target,
//! or against an opponent: exactly from `yazy-duel`, or as the advisor
//! estimates it from `yazy-target`).

use super::{GameQuery, LookupInfo};
use crate::answer::{category, keep, roll, start, Answer};
#[cfg(not(dice_tables_solitaire_only))]
use crate::answer::{target_roll, text, versus_roll, versus_start};
use crate::args::Args;
use crate::checks::{check_opponent, check_rerolls};
use crate::error::LookupError;
#[cfg(not(dice_tables_solitaire_only))]
use crate::json::Json;
use crate::parse::{parse_five_dice, parse_mask, parse_need, parse_rerolls, parse_yazy_total};
use crate::queries::Query;
use crate::queries::YazyQuery;
#[cfg(not(dice_tables_solitaire_only))]
use dice_tables_reader::target::CurveRow;
use dice_tables_reader::yazy::duel::YazyDuel;
use dice_tables_reader::yazy::target::YazyTarget;
use dice_tables_reader::yazy::{Yazy, CATEGORIES};
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Yazy::ID,
    aliases: Yazy::ALIASES,
    required: &["mask"],
    optional: &["dice", "rerolls", "need", "opp-mask", "me", "opp", "advisor"],
    categories: &CATEGORIES,
    parse,
    #[cfg(not(dice_tables_solitaire_only))]
    curve: Some(curve),
    #[cfg(dice_tables_solitaire_only)]
    curve: None,
};

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Yazy(YazyQuery {
        mask: a.required_with("mask", &CATEGORIES, parse_mask)?,
        dice: a.value("dice", parse_five_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
        need: a.value("need", parse_need)?,
        opp_mask: a.value("opp-mask", parse_mask)?,
        me: a.value("me", parse_yazy_total)?,
        opp: a.value("opp", parse_yazy_total)?,
        advisor: a.flag("advisor")?,
    }))
}

/// Not in builds without the target tables (the static site's module,
/// whose size budget the curve's code would cost).
#[cfg(not(dice_tables_solitaire_only))]
fn curve(tables: &Tables) -> Result<Vec<CurveRow>, LookupError> {
    let table = tables.get::<YazyTarget>()?;
    Ok(dice_tables_reader::target::score_curve(
        &table.curve(dice_tables_reader::yazy::Mask::ALL)?,
        &table.ev_distribution()?,
    ))
}

impl GameQuery for YazyQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> &'static str {
        match self {
            YazyQuery { opp_mask: Some(_), advisor: false, .. } => YazyDuel::ID,
            YazyQuery { need: Some(_), .. } | YazyQuery { advisor: true, .. } => YazyTarget::ID,
            _ => Yazy::ID,
        }
    }

    fn check(&self) -> Result<(), LookupError> {
        check_rerolls(self.dice, self.rerolls)?;
        let Some(opp_mask) = self.opp_mask else {
            if self.me.is_some() || self.opp.is_some() {
                return Err(LookupError::TwoPlayer { missing: "opp-mask" });
            }
            if self.advisor {
                return Err(LookupError::TwoPlayer { missing: "advisor" });
            }
            return Ok(());
        };
        let (mover, opponent) = (self.mask.bits().count_ones(), opp_mask.bits().count_ones());
        check_opponent(mover, opponent, self.need.is_some(), self.me, self.opp)
    }

    fn answer(&self, tables: &Tables) -> Answer {
        match self {
            q if q.advisor => advisor(tables, q),
            q if q.opp_mask.is_some() => duel(tables, q),
            q if q.need.is_some() => target(tables, q),
            q => solitaire(tables, q),
        }
    }

    fn stored_value(&self, tables: &Tables) -> Option<Result<f64, LookupError>> {
        if self.need.is_some() || self.opp_mask.is_some() {
            return None;
        }
        let value = || {
            let yazy = tables.get::<Yazy>()?;
            Ok(match self.dice {
                None => yazy.turn_start_value(self.mask)?,
                Some(dice) => yazy.value(self.mask, dice, self.rerolls.unwrap_or(yazy.rerolls()))?,
            })
        };
        Some(value())
    }
}

fn solitaire(tables: &Tables, q: &YazyQuery) -> Answer {
    let yazy = tables.get::<Yazy>()?;
    let Some(dice) = q.dice else { return Ok(start(Yazy::ID, yazy.turn_start_value(q.mask)?)) };
    let rerolls = q.rerolls.unwrap_or(yazy.rerolls());
    let ev = yazy.value(q.mask, dice, rerolls)?;
    let options = yazy.options(q.mask, dice, rerolls)?;
    Ok(roll(Yazy::ID, ev, options.iter().map(|o| (action(o.action, o.points), o.ev)).collect()))
}

/// A yazy action as the lookups write it.
fn action(a: dice_tables_reader::yazy::Action, points: u8) -> crate::json::Json {
    match a {
        dice_tables_reader::yazy::Action::Keep(d) => keep(d),
        dice_tables_reader::yazy::Action::Score(c) => category(c.name(), points),
    }
}

/// Two-player yazy in a build without it (the static site's module, see
/// the reader's registry).
#[cfg(dice_tables_solitaire_only)]
fn duel(_: &Tables, _: &YazyQuery) -> Answer {
    Err(LookupError::NotInBuild { what: "two-player yazy (the yazy-duel table)" })
}

#[cfg(dice_tables_solitaire_only)]
fn target(_: &Tables, _: &YazyQuery) -> Answer {
    Err(crate::answer::NO_TARGET)
}

#[cfg(dice_tables_solitaire_only)]
fn advisor(_: &Tables, _: &YazyQuery) -> Answer {
    Err(crate::answer::NO_ADVISOR)
}

/// Two-player yazy from the `yazy-duel` table: the chance of winning (ties
/// half) at the turn's start, or a roll's options each with its chance.
#[cfg(not(dice_tables_solitaire_only))]
fn duel(tables: &Tables, q: &YazyQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let lead = q.lead();
    let table = tables.get::<YazyDuel>()?;
    let Some(dice) = q.dice else {
        let p = table.chance(q.mask, opp_mask, lead)?;
        return Ok(versus_start(Yazy::ID, lead, p, true));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(q.mask, opp_mask, lead, dice, rerolls)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.chance(q.mask, opp_mask, lead)?,
    };
    let options = options.iter().map(|o| (action(o.action, o.points), o.p)).collect();
    Ok(versus_roll(Yazy::ID, lead, p, true, options))
}

/// Yazy against an opponent as the opponent-aware advisor plays it (the
/// `yazy-target` table): its estimate of the chance of winning (ties
/// half), not exact.
#[cfg(not(dice_tables_solitaire_only))]
fn advisor(tables: &Tables, q: &YazyQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let lead = q.lead();
    let table = tables.get::<YazyTarget>()?;
    let opponent = table.opponent(opp_mask, lead)?;
    let Some(dice) = q.dice else {
        return Ok(versus_start(Yazy::ID, lead, table.versus_chance(q.mask, &opponent)?, false));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.versus_options(q.mask, dice, rerolls, &opponent)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.versus_chance(q.mask, &opponent)?,
    };
    let options = options.iter().map(|o| (action(o.action, o.points), o.p)).collect();
    Ok(versus_roll(Yazy::ID, lead, p, false, options))
}

#[cfg(not(dice_tables_solitaire_only))]
fn target(tables: &Tables, q: &YazyQuery) -> Answer {
    let need = q.need.expect("a target lookup");
    let table = tables.get::<YazyTarget>()?;
    let Some(dice) = q.dice else {
        let p = table.chance(q.mask, need)?;
        return Ok(Json::object(vec![("game", text(Yazy::ID)), ("need", Json::Int(need)), ("p", Json::Num(p))]));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(q.mask, dice, rerolls, need)?;
    let p = options.best().map_or(dice_tables_reader::target::game_over_chance(need), |b| b.p);
    Ok(target_roll(Yazy::ID, need, p, options.iter().map(|o| (action(o.action, o.points), o.p)).collect()))
}
