//! Any rule set's score sheet: a table the rules engine wrote (the presets'
//! from `make rule-tables`, a user's own from `generator --rules FILE`),
//! asked by the rule set's name. Its boxes, dice and rerolls are read from
//! the rules the table carries, so nothing here names a rule set: a game
//! name no other lookup has is looked for as `<name>.dtab`.

use super::arguments::{for_people, Argument};
use super::{GameQuery, LookupInfo};
use crate::args::{Arg, Args};
use crate::checks::check_opponent;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{
    parse_need, parse_rerolls, parse_rule_total, parse_saved, parse_some_dice, parse_to_move, parse_upper,
};
use crate::queries::{Query, RuleSetQuery, ToMove};
use crate::reply::{text, Choice, Layout, Replied, SheetReply, SheetRoll, Valued};
use dice_tables_reader::rule_sheet::TurnStarts;
use dice_tables_reader::rule_sheet::{RuleChoice, RuleTable};
use dice_tables_reader::rules::SheetState;
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
            "saved",
            "B",
            "Rerolls saved from earlier turns, where the rules save them (`saved-rerolls = true`): at most the rules' rerolls for each turn played; default 0.",
        ),
        Argument::optional(
            "dice",
            "D",
            "The dice showing, as many as the rules roll, digits 1-6 (without it: the value before the roll).",
        ),
        Argument::optional(
            "rerolls",
            "R",
            "Rerolls left after this roll: 0 to the rules' and any saved (default: all of them, the turn's first roll).",
        ),
        Argument::optional(
            "need",
            "N",
            "Play to win: the best chance of scoring at least N more points (this turn's included, the bonuses counted), from the rule set's target table NAME-target.dtab (`generator --games NAME-target`, or `--rules FILE --with-target`). 0 or less: already reached.",
        ),
        Argument::optional(
            "opp-mask",
            "O",
            "Play against an opponent whose open boxes are O (the same forms as --mask): your chance of winning, ties half, exactly from the rule set's two-player table NAME-duel.dtab where the directory has one (`generator --games NAME-duel`), else the opponent-aware advisor's estimate from its target table. Needs --me and --opp.",
        ),
        Argument::optional("opp-upper", "U", "The opponent's upper total so far (as --upper); default 0."),
        Argument::optional("opp-held", "BOXES", "The opponent's filled boxes that hold points (as --held); default none."),
        Argument::optional(
            "me",
            "S",
            "Your total so far, 0 to 1000000, the upper bonus left out (it counts at the game's end); only --me minus --opp matters.",
        ),
        Argument::optional("opp", "T", "The opponent's total so far, counted as --me."),
        Argument::optional(
            "to-move",
            "WHO",
            "Two-player lookups from NAME-duel.dtab: whose turn it is, `me` or `opp` (default: the opponent when your sheet has one box fewer open, else you). The chance is always yours; on the opponent's turn the dice and options are theirs, their best first.",
        ),
    ],
    tables: &[],
    categories: &[],
    parse,
    curve: None,
    review: None,
};

/// Whether `name` may name a rule set's table: a name of the rules' form
/// ([`valid_name`](dice_tables_reader::rules::valid_name)), or one with
/// `-target` (its target table's file), that is no table of a game this
/// reader knows (`yazy-target` is yazy's).
pub fn is_rule_set_name(name: &str) -> bool {
    use dice_tables_reader::rules::valid_name;
    // A rule set's target table's stem is its name and `-target`.
    let target_of_valid = name.strip_suffix("-target").is_some_and(valid_name);
    (valid_name(name) || target_of_valid) && dice_tables_reader::game_named(name).is_none()
}

/// What a client needs to ask a rule set's table, as `reader serve`'s
/// `v1/info` and the WebAssembly module's `ruleSets()` list it: for a
/// target, two-player or parts table, the rule set's name and its kind
/// (`target`, `duel` or `parts`, `true`); then the boxes by name, the dice and rerolls,
/// whether unused rerolls are saved (asked with `saved`), the order, the
/// upper bonus, the boxes whose holding is tracked (asked with `held`), and
/// the boxes that, scored with a turn's first roll, win a two-player game
/// at once.
pub fn rule_table_info(table: &RuleTable) -> Vec<(&'static str, Json)> {
    let sheet = table.board();
    let rules = sheet.rules();
    let mut fields = Vec::new();
    // A target table is asked by the rule set's name with a need, a
    // two-player one with the opponent's sheet.
    let kind = match table {
        RuleTable::Target(_) => Some("target"),
        RuleTable::Duel(_) => Some("duel"),
        RuleTable::Parts(_) => Some("parts"),
        RuleTable::Sheet(_) => None,
    };
    if let Some(kind) = kind {
        fields.push(("rule_set_name", Json::Str(rules.name.clone())));
        fields.push((kind, Json::Bool(true)));
    }
    let boxes = rules.boxes.iter().map(|b| Json::Str(b.name.clone())).collect();
    fields.push(("boxes", Json::List(boxes)));
    fields.push(("dice", Json::Int(rules.dice.into())));
    fields.push(("rerolls", Json::Int(rules.rerolls.into())));
    fields.push(("saved_rerolls", Json::Bool(rules.saved_rerolls)));
    fields.push(("order", Json::Str(rules.order.name().into())));
    let names = |bits: u32| {
        let named = rules.boxes.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1);
        Json::List(named.map(|(_, b)| Json::Str(b.name.clone())).collect())
    };
    if let Some(bonus) = rules.upper_bonus {
        fields.push((
            "upper_bonus",
            Json::object(vec![
                ("boxes", names(bonus.boxes)),
                ("at", Json::Int(bonus.at.into())),
                ("points", Json::Int(bonus.points.into())),
            ]),
        ));
    }
    let held = sheet.tracked().iter().fold(0u32, |m, &b| m | 1 << b);
    fields.push(("held_boxes", names(held)));
    let wins = rules.boxes.iter().enumerate().filter(|(_, b)| b.wins).fold(0u32, |m, (i, _)| m | 1 << i);
    fields.push(("wins_at_once", names(wins)));
    fields
}

fn parse(name: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::RuleSet(RuleSetQuery {
        table: name.to_string(),
        mask: a.arg("mask").map(|m| mask_text(&m)).transpose()?,
        upper: a.value("upper", parse_upper)?,
        held: a.arg("held").map(|m| mask_text(&m)).transpose()?,
        saved: a.value("saved", parse_saved)?,
        dice: a.value("dice", parse_some_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
        need: a.value("need", parse_need)?,
        opp_mask: a.arg("opp-mask").map(|m| mask_text(&m)).transpose()?,
        opp_upper: a.value("opp-upper", parse_upper)?,
        opp_held: a.arg("opp-held").map(|m| mask_text(&m)).transpose()?,
        me: a.value("me", parse_rule_total)?,
        opp: a.value("opp", parse_rule_total)?,
        to_move: a.value("to-move", parse_to_move)?,
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
        match self.played_to_win() {
            true => dice_tables_reader::rule_sheet::target_stem(&self.table).into(),
            false => self.table.clone().into(),
        }
    }

    /// The opponent's arguments need their sheet; against an opponent no
    /// need, and both totals (the masks are checked against the rules'
    /// boxes when answered).
    fn check(&self) -> Result<(), LookupError> {
        if let (None, Some(rerolls)) = (self.dice, self.rerolls) {
            return Err(LookupError::RerollsWithoutDice { rerolls, dice: "rules'" });
        }
        if self.opp_mask.is_none() {
            if self.me.is_some() || self.opp.is_some() || self.opp_upper.is_some() || self.opp_held.is_some() {
                return Err(LookupError::TwoPlayer { missing: "opp-mask" });
            }
            if self.to_move.is_some() {
                return Err(LookupError::TwoPlayer { missing: "opp-mask for to-move" });
            }
            return Ok(());
        }
        // The turn order and the totals are checked once the masks are read
        // against the rules' boxes (see `reply`).
        check_opponent((0, 0), None, self.need.is_some(), (self.me, self.opp), true)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        // Against an opponent: the exact two-player table where there is
        // one (`NAME-duel.dtab`), else the target table's advisor.
        let duel = match (&self.opp_mask, self.need) {
            (Some(_), None) => match tables.rule_duel(&self.table) {
                Ok(duel) => Some(duel),
                Err(e) if matches!(e.kind(), TableErrorKind::NotFound) => None,
                Err(e) => return Err(LookupError::Table(e)),
            },
            _ => None,
        };
        if let Some(duel) = duel {
            return Ok(Box::new(reply(&RuleTable::Duel(duel), self)?));
        }
        let table = match self.played_to_win() {
            false => RuleTable::Sheet(tables.rule_sheet(&self.table).map_err(|e| match e.kind() {
                TableErrorKind::NotFound => {
                    LookupError::NoRuleSet { given: self.table.clone(), known: super::games(), missing: e }
                }
                _ => LookupError::Table(e),
            })?),
            true => RuleTable::Target(tables.rule_target(&self.table).map_err(|e| match e.kind() {
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
    let saved = q.saved.unwrap_or(0);
    sheet.check_saved(mask, saved)?;
    let mut state = format!("{}, {}", rules.name, sheet_line(sheet, mask, upper, held));
    if sheet.saving() > 0 {
        state.push_str(&format!(", {saved} reroll{} saved", if saved == 1 { "" } else { "s" }));
    }
    // Room for the longest option's words: a box's name and points, its
    // first-roll bonus, and where it wins at once, saying so.
    let words = |b: &dice_tables_reader::rules::BoxRule| {
        b.name.len() + 28 + if b.first_roll > 0 { 23 } else { 0 } + if b.wins { 42 } else { 0 }
    };
    let width = rules.boxes.iter().map(words).max().unwrap_or(0).max(34);
    let layout = Layout { dice: usize::from(rules.dice), width, box_word: "box" };
    let mut head = vec![("game", text(&rules.name))];
    if sheet.saving() > 0 {
        head.push(("saved", Json::Int(i64::from(saved))));
    }
    // A target table's rules save no rerolls (`saved` is 0 there).
    let rerolls = q.rerolls.unwrap_or((u32::from(rules.rerolls) + saved).min(255) as u8);
    let (before, roll) = match table {
        RuleTable::Target(target) => match (&q.opp_mask, q.need) {
            (Some(_), _) => {
                // The advisor plays the turn of the player to move: yours.
                if q.to_move == Some(ToMove::Opponent) {
                    return Err(LookupError::TwoPlayer { missing: "to-move" });
                }
                let (opp, lead, _) = opponent_sheet(sheet, q, mask, false, &mut head, &mut state)?;
                let opponent = target.opponent(opp.open, opp.upper, opp.held, lead)?;
                let value = target.versus_chance(mask, upper, held, &opponent)?;
                let valued = Valued::Winning { exact: false, to_move: ToMove::Me };
                let before = SheetReply { head, state, valued, value, roll: None, layout };
                let roll = q.dice.map(|dice| target.versus_options(mask, upper, held, dice, rerolls, &opponent));
                (before, roll.transpose()?)
            }
            (None, need) => {
                let need = need.expect("a target table is read for a need or an opponent");
                head.push(("need", Json::Int(need)));
                state.push_str(&format!(", needing {need} more points"));
                let value = target.chance(mask, upper, held, need)?;
                let before = SheetReply { head, state, valued: Valued::Reach(need), value, roll: None, layout };
                (before, q.dice.map(|dice| target.options(mask, upper, held, dice, rerolls, need)).transpose()?)
            }
        },
        RuleTable::Duel(duel) => {
            let (opp, lead, to_move) = opponent_sheet(sheet, q, mask, true, &mut head, &mut state)?;
            let to_move = to_move.expect("an exact table's lookup knows whose turn it is");
            head.push(("to_move", text(to_move.name())));
            let me = SheetState { open: mask, upper, held };
            // The table holds the chance of the player to move: on the
            // opponent's turn theirs, with the sheets and the lead seen from
            // their side, and yours the rest (a tie counts half to each).
            let (mover, other, mover_lead) = match to_move {
                ToMove::Me => (me, opp, lead),
                ToMove::Opponent => (opp, me, -lead),
            };
            let yours = |p: f64| if to_move == ToMove::Me { p } else { 1.0 - p };
            let value = yours(duel.chance(mover, other, mover_lead)?);
            let valued = Valued::Winning { exact: true, to_move };
            let before = SheetReply { head, state, valued, value, roll: None, layout };
            let roll = q.dice.map(|dice| duel.options(mover, other, mover_lead, dice, rerolls)).transpose()?;
            let roll = roll.map(|mut r| {
                r.value = yours(r.value);
                r.options.iter_mut().for_each(|o| o.1 = yours(o.1));
                r
            });
            (before, roll)
        }
        RuleTable::Parts(_) => unreachable!("a lookup reads a rule set's own, target or two-player table"),
        RuleTable::Sheet(sheet) => {
            let value = sheet.turn_start_saved(mask, upper, held, saved)?;
            let before = SheetReply { head, state, valued: Valued::Points, value, roll: None, layout };
            (before, q.dice.map(|dice| sheet.options_saved(mask, upper, held, saved, dice, rerolls)).transpose()?)
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

/// The opponent's sheet a two-player lookup gives (`--opp-mask`,
/// `--opp-upper`, `--opp-held`), checked against the rules and the turn
/// order beside the mover's `mask`, and the lead (`--me` less `--opp`):
/// both told in the answer's `head` and `state`. For an exact table's
/// lookup (`exact`), also whose turn it is (`--to-move`, else the sheets'
/// say).
fn opponent_sheet(
    sheet: &dice_tables_reader::rule_sheet::Board,
    q: &RuleSetQuery,
    mask: u32,
    exact: bool,
    head: &mut Vec<(&'static str, Json)>,
    state: &mut String,
) -> Result<(SheetState, i64, Option<ToMove>), LookupError> {
    let opp_mask = sheet.parse_mask(q.opp_mask.as_deref().expect("a two-player lookup has an opponent"))?;
    let to_move = exact.then(|| ToMove::of(q.to_move, mask.count_ones(), opp_mask.count_ones()));
    let opp_upper = q.opp_upper.unwrap_or(0);
    sheet.check_upper(opp_upper)?;
    let opp_held = q.opp_held.as_deref().map(|h| sheet.parse_held(h, opp_mask)).transpose()?.unwrap_or(0);
    let untouched = mask == sheet.all_open() && opp_mask == sheet.all_open();
    check_opponent((mask.count_ones(), opp_mask.count_ones()), to_move, false, (q.me, q.opp), untouched)?;
    let lead = i64::from(q.me.unwrap_or(0)) - i64::from(q.opp.unwrap_or(0));
    head.push(("lead", Json::Int(lead)));
    state.push_str(&format!("\nthe opponent's {}; lead {lead}", sheet_line(sheet, opp_mask, opp_upper, opp_held)));
    Ok((SheetState { open: opp_mask, upper: opp_upper, held: opp_held }, lead, to_move))
}

/// A sheet for people: its open boxes, upper total (where the rules have a
/// bonus) and the boxes holding points that count.
fn sheet_line(sheet: &dice_tables_reader::rule_sheet::Board, mask: u32, upper: u32, held: u32) -> String {
    let names = sheet.box_names();
    let open: Vec<&str> = (0..names.len()).filter(|&b| mask >> b & 1 == 1).map(|b| names[b]).collect();
    let open = if open.is_empty() { "none".to_string() } else { open.join(",") };
    let mut line = format!("open: {open} (mask {mask})");
    if sheet.rules().upper_bonus.is_some() {
        line.push_str(&format!(", upper total {upper}"));
    }
    let holding: Vec<&str> = sheet.tracked().iter().filter(|&&b| held >> b & 1 == 1).map(|&b| names[b]).collect();
    if !holding.is_empty() {
        line.push_str(&format!(", holding points: {}", holding.join(",")));
    }
    line
}
