//! Maxi Yatzy: six dice, twenty boxes, under the finnish rules
//! (`maxi-yatzy`) or the swedish with saved rerolls (`maxi-yatzy-swedish`).

use super::arguments::{for_people, Argument};
use super::{GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::error::LookupError;
use crate::parse::{parse_maxi_mask, parse_maxi_rules, parse_rerolls, parse_saved, parse_six_dice, parse_upper};
use crate::queries::Query;
use crate::queries::{MaxiQuery, MaxiRules};
use crate::reply::Replied;
#[cfg(not(feature = "solitaire-only"))]
use crate::reply::SheetReply;
use dice_tables_reader::maxi::{MaxiYatzy, MaxiYatzySwedish, BOXES, UPPER_MASK};
use dice_tables_reader::{Game, Tables};

/// The name under which a Maxi Yatzy lookup reads the swedish table:
/// `maxi-yatzy` with `rules` swedish.
const SWEDISH_MAXI: &str = MaxiYatzySwedish::ID;

const ALIASES: [&str; 3] = super::joined(MaxiYatzy::ALIASES, &[SWEDISH_MAXI]);

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: MaxiYatzy::ID,
    aliases: &ALIASES,
    about: for_people("Maxi Yatzy (six dice, twenty boxes; alias `maxi`; `maxi-yatzy-swedish` is `maxi-yatzy --rules swedish`): the options of a roll, or the turn-start value of a state."),
    arguments: &[
        Argument::required("mask", "M", "Open boxes: {mask}."),
        Argument::optional(
            "upper",
            "N",
            "Upper points so far (ones to sixes; any total from the bonus's threshold up that the filled boxes can make is one state). Needed once an upper box is filled; left out, 0.",
        ),
        Argument::optional(
            "saved",
            "B",
            "Rerolls saved from earlier turns (swedish rules: two at most for each turn played); left out, 0.",
        ),
        Argument::optional("dice", "D", "The six dice showing, digits 1-6 in any order (without it: the value before the roll)."),
        Argument::optional(
            "rerolls",
            "R",
            "Rerolls left in this turn: its two and any saved ones still unused (default: all of them).",
        ),
        Argument::optional(
            "rules",
            "RULES",
            "`finnish` (bonus 50 at 75, no saved rolls; maxi-yatzy.dtab, the default) or `swedish` (bonus 100 at 84, unused rerolls saved; maxi-yatzy-swedish.dtab from `make maxi-swedish`).",
        ),
    ],
    tables: &[
        GameTable { id: MaxiYatzy::ID, rules: Some("finnish"), values: None },
        GameTable { id: SWEDISH_MAXI, rules: Some("swedish"), values: None },
    ],
    categories: &BOXES,
    parse,
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Sheet(|tables, name| {
        (name == MaxiYatzy::ID || MaxiYatzy::ALIASES.contains(&name)).then(|| review_source(tables))
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// The make target that writes Maxi Yatzy's parts table, which `make
/// tables` leaves out.
#[cfg(not(feature = "solitaire-only"))]
const PARTS_MADE_BY: &str = "maxi-yatzy-parts";

/// A game of Maxi Yatzy (the finnish rules) as a review reads it: its
/// table as its preset's rule set's, under the rules of the preset's parts
/// table (maxi-yatzy-parts.dtab), which gives the reasons.
#[cfg(not(feature = "solitaire-only"))]
fn review_source(tables: &Tables) -> Result<crate::review::ReviewSource<'_>, LookupError> {
    use dice_tables_reader::TableErrorKind;
    let table = tables.get::<MaxiYatzy>().map_err(LookupError::Table)?;
    let parts = tables.rule_parts(MaxiYatzy::ID).map_err(|e| match e.kind() {
        TableErrorKind::NotFound => LookupError::NoParts { game: MaxiYatzy::ID, missing: e, make: PARTS_MADE_BY },
        _ => LookupError::Table(e),
    })?;
    crate::review::ReviewSource::preset(tables, table, parts, None, None)
}

fn parse(named: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Maxi(MaxiQuery {
        mask: a.required_with("mask", &BOXES, parse_maxi_mask)?,
        upper: a.value("upper", parse_upper)?,
        saved: a.value("saved", parse_saved)?,
        dice: a.value("dice", parse_six_dice)?,
        rerolls: a.value("rerolls", parse_rerolls)?,
        rules: match (named, a.value("rules", parse_maxi_rules)?) {
            (SWEDISH_MAXI, Some(MaxiRules::Finnish)) => return Err(LookupError::FinnishRulesForSwedish),
            (SWEDISH_MAXI, _) => MaxiRules::Swedish,
            (_, rules) => rules.unwrap_or(MaxiRules::Finnish),
        },
    }))
}

/// The rules a Maxi Yatzy table was solved under, as the answers name them:
/// a preset's name, or each rule.
pub fn maxi_rules_name(rules: dice_tables_reader::maxi::Rules) -> String {
    use dice_tables_reader::maxi::Rules;
    match rules {
        Rules::FINNISH => "finnish".to_string(),
        Rules::SWEDISH => "swedish".to_string(),
        r => format!(
            "bonus {} at {}, {}",
            r.bonus,
            r.bonus_at,
            if r.saved_rolls { "saved rolls" } else { "no saved rolls" }
        ),
    }
}

impl GameQuery for MaxiQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        match self.rules {
            MaxiRules::Finnish => MaxiYatzy::ID,
            MaxiRules::Swedish => MaxiYatzySwedish::ID,
        }
        .into()
    }

    /// `rerolls` counts from a six-dice roll, so it needs the dice; the
    /// upper total may be left out only while ones to sixes are all open.
    fn check(&self) -> Result<(), LookupError> {
        if let (None, Some(rerolls)) = (self.dice, self.rerolls) {
            return Err(LookupError::RerollsWithoutDice { rerolls, dice: "six" });
        }
        match self.upper {
            None if self.mask & UPPER_MASK != UPPER_MASK => {
                Err(LookupError::UpperNeeded { game: MaxiYatzy::ID, argument: "upper" })
            }
            _ => Ok(()),
        }
    }

    #[cfg(feature = "solitaire-only")]
    fn reply(&self, _: &Tables) -> Replied {
        Err(LookupError::NotInBuild { what: "Maxi Yatzy" })
    }

    #[cfg(not(feature = "solitaire-only"))]
    fn reply(&self, tables: &Tables) -> Replied {
        let reply = match self.rules {
            MaxiRules::Finnish => reply(tables.get::<MaxiYatzy>()?, self),
            MaxiRules::Swedish => reply(tables.get::<MaxiYatzySwedish>()?, self),
        };
        Ok(Box::new(reply?))
    }
}

/// The open boxes as a comma list ("none" for none).
#[cfg(not(feature = "solitaire-only"))]
fn mask_names(mask: u32) -> String {
    let names: Vec<&str> = (0..BOXES.len()).filter(|b| mask >> b & 1 == 1).map(|b| BOXES[b]).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(",")
    }
}

#[cfg(not(feature = "solitaire-only"))]
fn reply<P: dice_tables_reader::maxi::MaxiPreset>(
    table: &dice_tables_reader::maxi::Maxi<P>,
    q: &MaxiQuery,
) -> Result<SheetReply, LookupError> {
    use crate::reply::{text, Choice, Layout, SheetRoll, Valued};
    use dice_tables_reader::maxi::MaxiAction;
    let (upper, saved) = (q.upper.unwrap_or(0), q.saved.unwrap_or(0));
    let state = table.state(q.mask, upper, saved)?;
    let rules = maxi_rules_name(table.rules());
    // A preset by its name ("finnish rules"), other rules each said ("rules: bonus 100 at 84, ...").
    let rules_text = if rules.contains(' ') { format!("rules: {rules}") } else { format!("{rules} rules") };
    let mut line =
        format!("maxi-yatzy ({rules_text}), open: {} (mask {}), upper total {upper}", mask_names(q.mask), q.mask);
    if table.rules().saved_rolls {
        line.push_str(&format!(", {saved} reroll{} saved", if saved == 1 { "" } else { "s" }));
    }
    let mut before = SheetReply {
        head: vec![("game", text(MaxiYatzy::ID)), ("rules", text(rules))],
        state: line,
        valued: Valued::Points,
        value: 0.0,
        roll: None,
        layout: Layout { dice: dice_tables_reader::maxi::DICE, width: 38, box_word: "box" },
    };
    let Some(dice) = q.dice else {
        before.value = table.turn_start_value(state)?;
        return Ok(before);
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().turn_rerolls(usize::from(state.saved())) as u8);
    let options = table.options(state, dice, rerolls)?;
    before.value = match options.best() {
        Some(best) => best.ev,
        None => table.turn_start_value(state)?,
    };
    let choice = |a: MaxiAction, points: u8| match a {
        MaxiAction::Keep(d) => Choice::Keep(d),
        MaxiAction::Score(b) => Choice::score(BOXES[usize::from(b)], points, None),
    };
    let options = options.iter().map(|o| (choice(o.action, o.points), o.ev)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..before })
}
