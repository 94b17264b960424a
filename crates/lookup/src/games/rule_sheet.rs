//! Any rule set's score sheet: a table the rules engine wrote (the presets'
//! from `make rule-tables`, a user's own from `generator --rules FILE`),
//! asked by the rule set's name. Its boxes, dice and rerolls are read from
//! the rules the table carries, so nothing here names a rule set: a game
//! name no other lookup has is looked for as `<name>.dtab`.

use super::arguments::{for_people, Argument};
use super::{GameQuery, LookupInfo};
use crate::args::{Arg, Args};
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_need, parse_rerolls, parse_some_dice, parse_upper};
use crate::queries::{Query, RuleSetQuery};
use crate::reply::{text, Choice, Layout, Replied, SheetReply, SheetRoll, Valued};
use dice_tables_reader::rule_sheet::{RuleChoice, RuleTable};
use dice_tables_reader::{TableErrorKind, Tables};

/// The lookup of every rule set's table: not in [`LOOKUPS`](crate::LOOKUPS)
/// (its names are the tables'), but what their arguments are parsed by.
pub const LOOKUP: LookupInfo = LookupInfo {
    game: "a rule set's table",
    aliases: &[],
    about: for_people(
        "any rule set's table (NAME.dtab, from `make rule-tables` or `generator --rules FILE`): the options of a roll, or the turn-start value of a state.",
    ),
    arguments: &[
        Argument::optional(
            "mask",
            "M",
            "The open boxes: a comma list of the box names the rules give (`reader lookup NAME` with no arguments prints them), `all`, all less the filled ones (`all,-ones,-chance`), or a number (bit i = the i-th box). Default: all open. In a game filled in sheet order, the boxes from the next one on.",
        ),
        Argument::optional(
            "upper",
            "U",
            "The upper total so far (the points of the boxes the upper bonus counts); default 0.",
        ),
        Argument::optional(
            "held",
            "BOXES",
            "Filled boxes that hold points, where later scores depend on it (the extra-bonus box, a box another needs): a comma list of their names; default none.",
        ),
        Argument::optional(
            "dice",
            "D",
            "The dice showing, as many as the rules roll, digits 1-6 (without it: the value before the roll).",
        ),
        Argument::optional(
            "rerolls",
            "R",
            "Rerolls left after this roll: 0 to the rules' (default: all of them, the turn's first roll).",
        ),
        Argument::optional(
            "need",
            "N",
            "Play to win: the best chance of scoring at least N more points (this turn's included, the bonuses counted), from the rule set's target table NAME-target.dtab (`generator --games NAME-target`, or `--rules FILE --with-target`). 0 or less: already reached.",
        ),
    ],
    tables: &[],
    categories: &[],
    parse,
    curve: None,
};

/// Whether `name` may name a rule set's table: a name of the rules' form
/// ([`valid_name`](dice_tables_reader::rules::valid_name)) that is no
/// table of a game this reader knows (`yazy-target` is yazy's).
pub fn is_rule_set_name(name: &str) -> bool {
    dice_tables_reader::rules::valid_name(name) && dice_tables_reader::game_named(name).is_none()
}

fn parse(name: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::RuleSet(RuleSetQuery {
        table: name.to_string(),
        mask: a.arg("mask").map(|m| mask_text(&m)).transpose()?,
        upper: a.value("upper", parse_upper)?,
        held: a.arg("held").map(|m| mask_text(&m)).transpose()?,
        dice: a.value("dice", parse_some_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
        need: a.value("need", parse_need)?,
    }))
}

/// A mask or list of boxes as text the table's names are read from: box
/// numbers become the mask's number.
fn mask_text(arg: &Arg<'_>) -> Result<String, LookupError> {
    Ok(match *arg {
        Arg::Text(s) => s.to_string(),
        Arg::Int(i) => i.to_string(),
        Arg::Names(names) => names.join(","),
        Arg::Ints(bits) => {
            let mut mask = 0u64;
            for &b in bits {
                if !(0..32).contains(&b) {
                    return Err(LookupError::CategoryNumber { given: b, categories: Vec::new() });
                }
                mask |= 1 << b;
            }
            mask.to_string()
        }
        Arg::Flag(_) => return Err(LookupError::NeedsValue { argument: "mask" }),
    })
}

impl GameQuery for RuleSetQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        match self.need {
            Some(_) => dice_tables_reader::rule_sheet::target_stem(&self.table).into(),
            None => self.table.clone().into(),
        }
    }

    fn check(&self) -> Result<(), LookupError> {
        match (self.dice, self.rerolls) {
            (None, Some(rerolls)) => Err(LookupError::RerollsWithoutDice { rerolls, dice: "rules'" }),
            _ => Ok(()),
        }
    }

    fn reply(&self, tables: &Tables) -> Replied {
        let table = match self.need {
            None => RuleTable::Sheet(tables.rule_sheet(&self.table).map_err(|e| match e.kind() {
                TableErrorKind::NotFound => {
                    LookupError::NoRuleSet { given: self.table.clone(), known: super::games(), missing: e }
                }
                _ => LookupError::Table(e),
            })?),
            Some(_) => RuleTable::Target(tables.rule_target(&self.table).map_err(|e| match e.kind() {
                TableErrorKind::NotFound => LookupError::NoRuleTarget { name: self.table.clone(), missing: e },
                _ => LookupError::Table(e),
            })?),
        };
        Ok(Box::new(reply(&table, self)?))
    }
}

/// The answer from the rule set's own table, or played for a need from
/// its target table.
fn reply(table: &RuleTable, q: &RuleSetQuery) -> Result<SheetReply, LookupError> {
    let sheet = table.board();
    let rules = sheet.rules();
    let mask = match &q.mask {
        Some(m) => sheet.parse_mask(m)?,
        None => sheet.all_open(),
    };
    let upper = q.upper.unwrap_or(0);
    sheet.check_upper(upper)?;
    let held = match &q.held {
        Some(h) => sheet.parse_held(h, mask)?,
        None => 0,
    };
    let names = sheet.box_names();
    let open: Vec<&str> = (0..names.len()).filter(|&b| mask >> b & 1 == 1).map(|b| names[b]).collect();
    let open = if open.is_empty() { "none".to_string() } else { open.join(",") };
    let mut state = format!("{}, open: {open} (mask {mask})", rules.name);
    if rules.upper_bonus.is_some() {
        state.push_str(&format!(", upper total {upper}"));
    }
    let holding: Vec<&str> = sheet.tracked().iter().filter(|&&b| held >> b & 1 == 1).map(|&b| names[b]).collect();
    if !holding.is_empty() {
        state.push_str(&format!(", holding points: {}", holding.join(",")));
    }
    // Room for the longest option's words: a box's name and points, its
    // first-roll bonus, and where it wins at once, saying so.
    let words = |b: &dice_tables_reader::rules::BoxRule| {
        b.name.len() + 28 + if b.first_roll > 0 { 23 } else { 0 } + if b.wins { 42 } else { 0 }
    };
    let width = rules.boxes.iter().map(words).max().unwrap_or(0).max(34);
    let layout = Layout { dice: usize::from(rules.dice), width, box_word: "box" };
    let mut head = vec![("game", text(&rules.name))];
    let rerolls = q.rerolls.unwrap_or(rules.rerolls);
    let (before, roll) = match table {
        RuleTable::Target(target) => {
            let need = q.need.expect("a target table is read for a need");
            head.push(("need", Json::Int(need)));
            state.push_str(&format!(", needing {need} more points"));
            let value = target.chance(mask, upper, held, need)?;
            let before = SheetReply { head, state, valued: Valued::Reach(need), value, roll: None, layout };
            (before, q.dice.map(|dice| target.options(mask, upper, held, dice, rerolls, need)).transpose()?)
        }
        RuleTable::Sheet(sheet) => {
            let value = sheet.turn_start_value(mask, upper, held)?;
            let before = SheetReply { head, state, valued: Valued::Points, value, roll: None, layout };
            (before, q.dice.map(|dice| sheet.options(mask, upper, held, dice, rerolls)).transpose()?)
        }
    };
    let (Some(dice), Some(roll)) = (q.dice, roll) else { return Ok(before) };
    let options = roll
        .options
        .iter()
        .map(|&(choice, v)| {
            let choice = match choice {
                RuleChoice::Keep(d) => Choice::Keep(d),
                RuleChoice::Score(m) => Choice::Score {
                    name: rules.boxes[m.box_index].name.clone().into(),
                    points: m.points,
                    bonus: rules.extra_bonus.map(|_| m.bonus),
                    first_roll: m.first_roll,
                    wins: m.wins,
                },
            };
            (choice, v)
        })
        .collect();
    Ok(SheetReply { value: roll.value, roll: Some(SheetRoll { dice, rerolls, options }), ..before })
}
