//! combo: five dice and a fixed number of rerolls, scored once.

use super::arguments::{for_people, FIVE_DICE, REROLLS_LEFT};
use super::{GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::checks::check_rerolls;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_five_dice, parse_rerolls};
use crate::queries::ComboQuery;
use crate::queries::Query;
use crate::reply::{text, Replied, Reply};
use crate::values::{read_values, section, StoredValues};
use dice_tables_reader::combo::Combo;
use dice_tables_reader::{Dice, Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Combo::ID,
    aliases: Combo::ALIASES,
    about: for_people("combo: the expected final score and best keep of a roll, or the value before the first roll."),
    arguments: &[FIVE_DICE, REROLLS_LEFT],
    tables: &[GameTable { id: Combo::ID, rules: None, values: read_values(values) }],
    categories: &[],
    parse,
    curve: None,
    review: None,
};

/// Every roll's value with each number of rerolls left.
fn values(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    section::<Combo>(tables, &dice_tables_reader::combo::ROLL_VALUE, vec!["rerolls", "roll"])
}

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Combo(ComboQuery {
        dice: a.value("dice", parse_five_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
    }))
}

impl GameQuery for ComboQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        (Combo::ID).into()
    }

    fn check(&self) -> Result<(), LookupError> {
        check_rerolls(self.dice, self.rerolls)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        let combo = tables.get::<Combo>()?;
        let rerolls = self.rerolls.unwrap_or(combo.rerolls());
        let Some(dice) = self.dice else {
            return Ok(Box::new(ComboReply { value: combo.game_start_value()?, rerolls, roll: None }));
        };
        let roll = ComboRoll {
            dice,
            score_now: combo.final_score(dice)?,
            best: combo.best_keep(dice, rerolls)?,
            options: combo.options(dice, rerolls)?.iter().map(|o| (o.keep, o.ev)).collect(),
        };
        Ok(Box::new(ComboReply { value: combo.value(dice, rerolls)?, rerolls, roll: Some(roll) }))
    }

    fn stored_value(&self, tables: &Tables) -> Option<Result<f64, LookupError>> {
        let value = || {
            let combo = tables.get::<Combo>()?;
            Ok(match self.dice {
                None => combo.game_start_value()?,
                Some(dice) => combo.value(dice, self.rerolls.unwrap_or(combo.rerolls()))?,
            })
        };
        Some(value())
    }
}

/// A combo answer: the expected final score before the first roll, or a
/// roll's with its keeps.
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct ComboReply {
    value: f64,
    rerolls: u8,
    roll: Option<ComboRoll>,
}

// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct ComboRoll {
    dice: Dice,
    /// What the dice score if kept as they are.
    score_now: u8,
    best: Dice,
    /// Every keep with its expected final score, best first.
    options: Vec<(Dice, f64)>,
}

impl Reply for ComboReply {
    fn json(&self) -> Json {
        let mut fields = vec![("game", text(Combo::ID)), ("ev", Json::Num(self.value))];
        if let Some(roll) = &self.roll {
            let keep = |d: Dice| Json::object(vec![("keep", text(d))]);
            let options =
                roll.options.iter().map(|&(d, ev)| Json::object(vec![("action", keep(d)), ("ev", Json::Num(ev))]));
            fields.push(("best", keep(roll.best)));
            fields.push(("options", Json::List(options.collect())));
        }
        Json::object(fields)
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        use crate::text::{keep_text, rerolls_text};
        use std::fmt::Write as _;
        let (ev, rerolls) = (self.value, self.rerolls);
        let Some(roll) = &self.roll else {
            return format!("combo, {rerolls} rerolls\nexpected final score, before the first roll: {ev:.6}\n");
        };
        let mut out = String::new();
        let _ = writeln!(out, "combo, dice {} (scores {} now), {}", roll.dice, roll.score_now, rerolls_text(rerolls));
        let _ = writeln!(out, "expected final score: {ev:.6}");
        let _ = writeln!(out, "best: {}", keep_text(roll.best, 5));
        let _ = writeln!(out, "keeps, best first (expected final score):");
        for (i, (keep, ev)) in roll.options.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. {:<34} {:>11.6}", i + 1, keep_text(*keep, 5), ev);
        }
        out
    }
}
