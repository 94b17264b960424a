//! Maxi Yatzy: six dice, twenty boxes, under the finnish rules
//! (`maxi-yatzy`) or the swedish with saved rerolls (`maxi-yatzy-swedish`).

use super::{GameQuery, LookupInfo};
use crate::answer::Answer;
use crate::args::Args;
use crate::error::LookupError;
use crate::parse::{parse_maxi_mask, parse_maxi_rules, parse_rerolls, parse_saved, parse_six_dice, parse_upper};
use crate::queries::Query;
use crate::queries::{MaxiQuery, MaxiRules};
use dice_tables_reader::maxi::{MaxiYatzy, MaxiYatzySwedish, BOXES, UPPER_MASK};
use dice_tables_reader::{Game, Tables};

/// The name under which a Maxi Yatzy lookup reads the swedish table:
/// `maxi-yatzy` with `rules` swedish.
const SWEDISH_MAXI: &str = MaxiYatzySwedish::ID;

const ALIASES: [&str; 3] = super::joined(MaxiYatzy::ALIASES, &[SWEDISH_MAXI]);

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: MaxiYatzy::ID,
    aliases: &ALIASES,
    required: &["mask"],
    optional: &["upper", "saved", "dice", "rerolls", "rules"],
    categories: &BOXES,
    parse,
    curve: None,
};

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

    fn table(&self) -> &'static str {
        match self.rules {
            MaxiRules::Finnish => MaxiYatzy::ID,
            MaxiRules::Swedish => MaxiYatzySwedish::ID,
        }
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

    #[cfg(dice_tables_solitaire_only)]
    fn answer(&self, _: &Tables) -> Answer {
        Err(LookupError::NotInBuild { what: "Maxi Yatzy" })
    }

    #[cfg(not(dice_tables_solitaire_only))]
    fn answer(&self, tables: &Tables) -> Answer {
        match self.rules {
            MaxiRules::Finnish => answer(tables.get::<MaxiYatzy>()?, self),
            MaxiRules::Swedish => answer(tables.get::<MaxiYatzySwedish>()?, self),
        }
    }
}

#[cfg(not(dice_tables_solitaire_only))]
fn answer<P: dice_tables_reader::maxi::MaxiPreset>(table: &dice_tables_reader::maxi::Maxi<P>, q: &MaxiQuery) -> Answer {
    use crate::answer::{category, keep, text};
    use crate::json::Json;
    use dice_tables_reader::maxi::MaxiAction;
    let state = table.state(q.mask, q.upper.unwrap_or(0), q.saved.unwrap_or(0))?;
    let head = |ev: f64| {
        vec![("game", text(MaxiYatzy::ID)), ("rules", text(maxi_rules_name(table.rules()))), ("ev", Json::Num(ev))]
    };
    let Some(dice) = q.dice else { return Ok(Json::object(head(table.turn_start_value(state)?))) };
    let rerolls = q.rerolls.unwrap_or(table.rules().turn_rerolls(usize::from(state.saved())) as u8);
    let options = table.options(state, dice, rerolls)?;
    let ev = match options.best() {
        Some(best) => best.ev,
        None => table.turn_start_value(state)?,
    };
    let action = |a: MaxiAction, points: u8| match a {
        MaxiAction::Keep(d) => keep(d),
        MaxiAction::Score(b) => category(BOXES[usize::from(b)], points),
    };
    let rows: Vec<(Json, f64)> = options.iter().map(|o| (action(o.action, o.points), o.ev)).collect();
    let best = rows.first().map_or(Json::Null, |(a, _)| a.clone());
    let rows = rows.into_iter().map(|(a, ev)| Json::object(vec![("action", a), ("ev", Json::Num(ev))]));
    let mut fields = head(ev);
    fields.push(("best", best));
    fields.push(("options", Json::List(rows.collect())));
    Ok(Json::object(fields))
}
