//! [`Query`]: one game's lookup, built from named arguments or a query
//! string and answered as JSON.

use crate::answer;
use crate::args::{Arg, Args, Parser};
use crate::error::LookupError;
use crate::json::Json;
use crate::lookups::{games, LookupInfo, CARDGAMES_DUEL, SWEDISH_MAXI};
use crate::parse;
use crate::queries::*;
use crate::query_string::parse_query_string;
use dice_tables_reader::sheet::{Joker, SheetGame};

/// One game's lookup, its arguments parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    /// yazy.
    Yazy(YazyQuery),
    /// combo.
    Combo(ComboQuery),
    /// threes.
    Threes(ThreesQuery),
    /// 10000.
    Tenk(TenkQuery),
    /// yatzy.
    Yatzy(SheetQuery),
    /// yahtzee.
    Yahtzee(SheetQuery),
    /// two-player 10000.
    Duel(DuelQuery),
    /// Maxi Yatzy.
    Maxi(MaxiQuery),
}

impl Query {
    /// The lookup of game `game` with a URL query string's arguments
    /// ([`parse_query_string`]; a name alone is a flag).
    pub fn from_query_string(game: &str, qs: &str) -> Result<Query, LookupError> {
        let pairs = parse_query_string(qs)?;
        let args: Vec<(&str, Arg<'_>)> =
            pairs.iter().map(|(n, v)| (n.as_str(), v.as_deref().map_or(Arg::Flag(true), Arg::Text))).collect();
        Query::from_args(game, &args)
    }

    /// The lookup of game `game` (its id, as `reader lookup` names it, or
    /// another name) with `args`: the command line's flags without their
    /// dashes (underscores also accepted), each once. Errors name what was
    /// wrong and the accepted form.
    pub fn from_args(game: &str, args: &[(&str, Arg<'_>)]) -> Result<Query, LookupError> {
        let Some(info) = LookupInfo::find(game) else {
            return Err(LookupError::UnknownGame { given: game.to_string(), known: games() });
        };
        let a = Args::new(info, args)?;
        use parse::*;
        Ok(match info.game {
            "yazy" => Query::Yazy(YazyQuery {
                mask: a.required_with("mask", &dice_tables_reader::yazy::CATEGORIES, parse_mask)?,
                dice: a.value("dice", parse_five_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
                need: a.value("need", parse_need)?,
                opp_mask: a.value("opp-mask", parse_mask)?,
                me: a.value("me", parse_yazy_total)?,
                opp: a.value("opp", parse_yazy_total)?,
                advisor: a.flag("advisor")?,
            }),
            "combo" => Query::Combo(ComboQuery {
                dice: a.value("dice", parse_five_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
            }),
            "threes" => Query::Threes(ThreesQuery {
                dice: a.value("dice", parse_throw)?,
                remaining: a.value("remaining", parse_remaining)?,
                points: a.value("points", parse_points)?.unwrap_or(0),
                record: a.value("record", parse_record)?,
                after: a.value("after", parse_after)?,
                ties: a.value("ties", parse_ties)?,
                model: a.value("model", parse_model)?,
                expected: a.value("objective", parse_objective)?.unwrap_or(false),
            }),
            "tenk" => Query::Tenk(TenkQuery {
                dice: a.value("dice", parse_tenk_throw)?,
                remaining: a.value("remaining", parse_tenk_remaining)?,
                score: a.value("score", parse_score)?.unwrap_or(0),
                opening: a.flag("opening")?,
            }),
            "yatzy" | "yahtzee" => {
                let (categories, parse_sheet_mask, parse_sheet_total): (&[&str], Parser<u32>, Parser<u32>) =
                    if info.game == "yatzy" {
                        (
                            <dice_tables_reader::sheet::YatzyGame as SheetGame>::CATEGORIES,
                            parse_yatzy_mask,
                            parse_yatzy_total,
                        )
                    } else {
                        let categories = <dice_tables_reader::sheet::YahtzeeGame as SheetGame>::CATEGORIES;
                        (categories, parse_yahtzee_mask, parse_yahtzee_total)
                    };
                let q = SheetQuery {
                    mask: a.required_with("mask", categories, parse_sheet_mask)?,
                    upper: a.value("upper", parse_upper)?,
                    yahtzee_bonus: a.flag("yahtzee-bonus")?,
                    dice: a.value("dice", parse_five_dice)?,
                    rerolls: a.value("rerolls", parse_rerolls)?,
                    need: a.value("need", parse_need)?,
                    joker: a.value("joker", parse_joker)?,
                    opp_mask: a.value("opp-mask", parse_sheet_mask)?,
                    opp_upper: a.value("opp-upper", parse_upper)?,
                    opp_yahtzee_bonus: a.flag("opp-yahtzee-bonus")?,
                    me: a.value("me", parse_sheet_total)?,
                    opp: a.value("opp", parse_sheet_total)?,
                };
                if info.game == "yatzy" {
                    Query::Yatzy(q)
                } else {
                    Query::Yahtzee(q)
                }
            }
            "duel" => Query::Duel(DuelQuery {
                me: a.required_with("me", &[], parse_total)?,
                opp: a.required_with("opp", &[], parse_total)?,
                dice: a.value("dice", parse_tenk_throw)?,
                remaining: a.value("remaining", parse_tenk_remaining)?,
                score: a.value("score", parse_score)?.unwrap_or(0),
                rules: match (game, a.value("rules", parse_duel_rules)?) {
                    (CARDGAMES_DUEL, Some(DuelRules::Seed)) => return Err(LookupError::SeedRulesForCardgames),
                    (CARDGAMES_DUEL, _) => DuelRules::Cardgames,
                    (_, rules) => rules.unwrap_or(DuelRules::Seed),
                },
            }),
            "maxi-yatzy" => Query::Maxi(MaxiQuery {
                mask: a.required_with("mask", &dice_tables_reader::maxi::BOXES, parse_maxi_mask)?,
                upper: a.value("upper", parse_upper)?,
                saved: a.value("saved", parse_saved)?,
                dice: a.value("dice", parse_six_dice)?,
                rerolls: a.value("rerolls", parse_rerolls)?,
                rules: match (game, a.value("rules", parse_maxi_rules)?) {
                    (SWEDISH_MAXI, Some(MaxiRules::Finnish)) => return Err(LookupError::FinnishRulesForSwedish),
                    (SWEDISH_MAXI, _) => MaxiRules::Swedish,
                    (_, rules) => rules.unwrap_or(MaxiRules::Finnish),
                },
            }),
            other => return Err(LookupError::UnknownGame { given: other.to_string(), known: games() }),
        })
    }

    /// The game, as `reader lookup` names it.
    pub fn game(&self) -> &'static str {
        match self {
            Query::Yazy(_) => "yazy",
            Query::Combo(_) => "combo",
            Query::Threes(_) => "threes",
            Query::Tenk(_) => "tenk",
            Query::Yatzy(_) => "yatzy",
            Query::Yahtzee(_) => "yahtzee",
            Query::Duel(_) => "duel",
            Query::Maxi(_) => "maxi-yatzy",
        }
    }

    /// The id of the table the answer reads (`duel-cardgames` for a duel
    /// lookup under the cardgames rules; else the game's own).
    pub fn table(&self) -> &'static str {
        match self {
            Query::Maxi(MaxiQuery { rules: MaxiRules::Swedish, .. }) => {
                <dice_tables_reader::maxi::MaxiYatzySwedish as dice_tables_reader::Game>::ID
            }
            Query::Duel(DuelQuery { rules: DuelRules::Cardgames, .. }) => {
                <dice_tables_reader::duel::CardgamesDuel as dice_tables_reader::Game>::ID
            }
            Query::Yazy(YazyQuery { opp_mask: Some(_), advisor: false, .. }) => {
                <dice_tables_reader::yazy::duel::YazyDuel as dice_tables_reader::Game>::ID
            }
            Query::Yazy(YazyQuery { need: Some(_), .. } | YazyQuery { advisor: true, .. }) => {
                <dice_tables_reader::yazy::target::YazyTarget as dice_tables_reader::Game>::ID
            }
            Query::Yatzy(q) if q.played_to_win() => <dice_tables_reader::sheet::YatzyGame as SheetGame>::TARGET_ID,
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), .. }) if q.played_to_win() => {
                <dice_tables_reader::sheet::YahtzeeFreeGame as SheetGame>::TARGET_ID
            }
            Query::Yahtzee(SheetQuery { joker: Some(Joker::Free), .. }) => {
                <dice_tables_reader::sheet::YahtzeeFreeGame as SheetGame>::ID
            }
            Query::Yahtzee(q) if q.played_to_win() => <dice_tables_reader::sheet::YahtzeeGame as SheetGame>::TARGET_ID,
            _ => self.game(),
        }
    }

    /// Whether the arguments go together (`--rerolls` needs `--dice`, a
    /// throw is `--dice` or `--remaining`, ...): what can be said without
    /// the tables. [`answer`](Query::answer) checks it first.
    pub fn check(&self) -> Result<(), LookupError> {
        match self {
            Query::Yazy(q) => {
                answer::check_rerolls(q.dice, q.rerolls)?;
                answer::check_yazy_opponent(q)
            }
            Query::Combo(q) => answer::check_rerolls(q.dice, q.rerolls),
            Query::Yatzy(q) | Query::Yahtzee(q) => {
                answer::check_rerolls(q.dice, q.rerolls)?;
                answer::check_upper(self.game(), q)?;
                answer::check_sheet_opponent(q)
            }
            Query::Threes(q) => answer::check_threes(q),
            Query::Tenk(q) => answer::check_throw(q.dice, q.remaining, false),
            Query::Duel(q) => answer::check_duel(q),
            Query::Maxi(q) => {
                answer::check_maxi_rerolls(q)?;
                answer::check_maxi_upper(q)
            }
        }
    }

    /// The answer's value (its `ev` or `p`) without the rest: where the
    /// value is stored (yazy, combo) no options are built.
    pub fn value(&self, tables: &dice_tables_reader::Tables) -> Result<f64, LookupError> {
        self.check()?;
        match self {
            Query::Yazy(q) if q.need.is_none() && q.opp_mask.is_none() => answer::yazy_value(tables, q),
            Query::Combo(q) => answer::combo_value(tables, q),
            _ => {
                let answer = self.answer(tables)?;
                match answer.get("ev").or_else(|| answer.get("p")) {
                    Some(Json::Num(v)) => Ok(*v),
                    _ => Err(LookupError::NoValue { game: self.game(), answer: answer.to_string() }),
                }
            }
        }
    }

    /// The answer from `tables`: exactly what `reader lookup ... --json`
    /// prints (see README.md for each game's fields), or why there is none.
    pub fn answer(&self, tables: &dice_tables_reader::Tables) -> Result<Json, LookupError> {
        self.check()?;
        match self {
            Query::Yazy(q) if q.advisor => answer::yazy_advisor(tables, q),
            Query::Yazy(q) if q.opp_mask.is_some() => answer::yazy_duel(tables, q),
            Query::Yazy(q) if q.need.is_some() => answer::yazy_target(tables, q),
            Query::Yazy(q) => answer::yazy(tables, q),
            Query::Combo(q) => answer::combo(tables, q),
            Query::Threes(q) => answer::threes(tables, q),
            Query::Tenk(q) => answer::tenk(tables, q),
            Query::Yatzy(q) if q.opp_mask.is_some() => {
                answer::sheet_versus::<dice_tables_reader::sheet::YatzyGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), opp_mask: Some(_), .. }) => {
                answer::sheet_versus::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q) if q.opp_mask.is_some() => {
                answer::sheet_versus::<dice_tables_reader::sheet::YahtzeeGame>(tables, q)
            }
            Query::Yatzy(q) if q.need.is_some() => {
                answer::sheet_target::<dice_tables_reader::sheet::YatzyGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), need: Some(_), .. }) => {
                answer::sheet_target::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q @ SheetQuery { joker: Some(Joker::Free), .. }) => {
                answer::sheet::<dice_tables_reader::sheet::YahtzeeFreeGame>(tables, q)
            }
            Query::Yahtzee(q) if q.need.is_some() => {
                answer::sheet_target::<dice_tables_reader::sheet::YahtzeeGame>(tables, q)
            }
            Query::Yatzy(q) => answer::sheet::<dice_tables_reader::sheet::YatzyGame>(tables, q),
            Query::Yahtzee(q) => answer::sheet::<dice_tables_reader::sheet::YahtzeeGame>(tables, q),
            Query::Duel(q) => answer::duel(tables, q),
            Query::Maxi(q) => answer::maxi(tables, q),
        }
    }
}
