//! yazy: the seeds' sheet of 11 categories, and played to win (a target,
//! or against an opponent: exactly from `yazy-duel`, or as the advisor
//! estimates it from `yazy-target`).

use super::arguments::{for_people, Argument, FIVE_DICE, REROLLS_LEFT};
use super::{GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::checks::{check_opponent, check_rerolls};
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_five_dice, parse_mask, parse_need, parse_rerolls, parse_to_move, parse_yazy_total};
use crate::queries::Query;
use crate::queries::{ToMove, YazyQuery};
use crate::reply::{text, Choice, Layout, Replied, SheetReply, SheetRoll, Valued};
use crate::values::{read_values, section, StoredValues};
#[cfg(not(feature = "solitaire-only"))]
use dice_tables_reader::target::CurveRow;
use dice_tables_reader::yazy::duel::YazyDuel;
use dice_tables_reader::yazy::target::YazyTarget;
use dice_tables_reader::yazy::{Action, Mask, Yazy, CATEGORIES};
use dice_tables_reader::{Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Yazy::ID,
    aliases: Yazy::ALIASES,
    about: for_people("yazy: the value and best action of a state, or the turn-start value of a mask."),
    arguments: &[
        Argument::required("mask", "M", "Open categories: {mask}."),
        FIVE_DICE,
        REROLLS_LEFT,
        Argument::optional(
            "need",
            "N",
            "Play to win: the best chance of scoring at least N more points (this turn's included), from the yazy-target table (`make yazy-target`). 0 or less: already reached.",
        ),
        Argument::optional(
            "opp-mask",
            "O",
            "Play against an opponent whose open categories are O (the same forms as --mask): your chance of winning, ties half, from the yazy-duel table (`make yazy-duel`). Needs --me and --opp.",
        ),
        Argument::optional(
            "me",
            "S",
            "Your total so far, 0 to 280 (two-player lookups; only --me minus --opp matters; 0 while both sheets are untouched).",
        ),
        Argument::optional("opp", "T", "The opponent's total so far, 0 to 280 (two-player lookups)."),
        Argument::optional(
            "to-move",
            "WHO",
            "Two-player lookups: whose turn it is, `me` or `opp` (default: the opponent when your sheet has one category fewer open, else you). The chance is always yours; on the opponent's turn the dice and options are theirs, their best first.",
        ),
        Argument::flag(
            "advisor",
            "With --opp-mask: the opponent-aware advisor's play and its estimate of your chance of winning, from the yazy-target table, instead of the two-player table's exact answer (what yatzy and yahtzee give against an opponent, here to compare with the exact one).",
        ),
    ],
    tables: &[GameTable { id: Yazy::ID, rules: None, values: read_values(values) }],
    categories: &CATEGORIES,
    parse,
    #[cfg(not(feature = "solitaire-only"))]
    curve: Some(curve),
    #[cfg(feature = "solitaire-only")]
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Sheet(|tables, name| (name == Yazy::ID).then(|| review_source(tables)))),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// A game of yazy as a review reads it: its table as its preset's rule
/// set's, under the rules of the preset's parts table (`make tables`
/// writes yazy-parts.dtab), which gives the reasons; played for a target,
/// its target table (`make yazy-target`); against someone, its two-player
/// table (`make yazy-duel`).
#[cfg(not(feature = "solitaire-only"))]
fn review_source(tables: &Tables) -> Result<crate::review::ReviewSource<'_>, LookupError> {
    let table = tables.get::<Yazy>().map_err(LookupError::Table)?;
    let parts = tables.rule_parts(Yazy::ID).map_err(LookupError::Table)?;
    let target: crate::review::OpenTarget<'_> = Box::new(move || {
        let chances = tables.get::<YazyTarget>().map_err(LookupError::Table)?;
        Ok(Box::new(YazyChances(chances)) as Box<dyn crate::review::TargetChances>)
    });
    let duel: crate::review::OpenDuel<'_> = Box::new(move || {
        let chances = tables.get::<YazyDuel>().map_err(LookupError::Table)?;
        Ok(Box::new(YazyDuelChances(chances)) as Box<dyn crate::review::DuelChances + Send + Sync>)
    });
    crate::review::ReviewSource::preset(tables, table, parts, Some(target), Some(duel))
}

/// A preset's choice as yazy's own action.
#[cfg(not(feature = "solitaire-only"))]
fn yazy_action(choice: dice_tables_reader::rule_sheet::RuleChoice) -> Action {
    use dice_tables_reader::rule_sheet::RuleChoice;
    match choice {
        RuleChoice::Keep(kept) => Action::Keep(kept),
        RuleChoice::Score(m) => Action::Score(
            dice_tables_reader::yazy::Category::new(m.box_index as u8).expect("the preset's box is one of the game's"),
        ),
    }
}

/// yazy's target table in its preset's states (its open boxes), for a review.
#[cfg(not(feature = "solitaire-only"))]
struct YazyChances<'a>(&'a YazyTarget);

#[cfg(not(feature = "solitaire-only"))]
impl crate::review::TargetChances for YazyChances<'_> {
    fn chance(&self, at: dice_tables_reader::rules::SheetState, need: i64) -> Result<f64, LookupError> {
        Ok(self.0.chance(Mask::new(at.open)?, need)?)
    }

    fn chances(
        &self,
        at: dice_tables_reader::rules::SheetState,
        dice: dice_tables_reader::Dice,
        rerolls: u8,
        need: i64,
        legal: &[dice_tables_reader::rule_sheet::RuleChoice],
    ) -> Result<Vec<f64>, LookupError> {
        let options = self.0.options(Mask::new(at.open)?, dice, rerolls, need)?;
        crate::review::legal_chances(Yazy::ID, dice, &options, legal, yazy_action)
    }
}

/// yazy's two-player table in its preset's states (each sheet's open
/// boxes, and the mover's lead), for a review.
#[cfg(not(feature = "solitaire-only"))]
struct YazyDuelChances<'a>(&'a YazyDuel);

#[cfg(not(feature = "solitaire-only"))]
impl crate::review::DuelChances for YazyDuelChances<'_> {
    fn chance(
        &self,
        mover: dice_tables_reader::rules::SheetState,
        opponent: dice_tables_reader::rules::SheetState,
        lead: i64,
    ) -> Result<f64, LookupError> {
        Ok(self.0.chance(Mask::new(mover.open)?, Mask::new(opponent.open)?, lead)?)
    }

    fn chances(
        &self,
        mover: dice_tables_reader::rules::SheetState,
        opponent: dice_tables_reader::rules::SheetState,
        lead: i64,
        dice: dice_tables_reader::Dice,
        rerolls: u8,
        legal: &[dice_tables_reader::rule_sheet::RuleChoice],
    ) -> Result<Vec<f64>, LookupError> {
        let options = self.0.options(Mask::new(mover.open)?, Mask::new(opponent.open)?, lead, dice, rerolls)?;
        crate::review::legal_chances(Yazy::ID, dice, &options, legal, yazy_action)
    }
}

/// The turn-start value of every mask.
fn values(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    section::<Yazy>(tables, &dice_tables_reader::yazy::TURN_START, vec!["mask"])
}

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
        to_move: a.value("to-move", parse_to_move)?,
    }))
}

/// Not in builds without the target tables (the static site's module,
/// whose size budget the curve's code would cost).
#[cfg(not(feature = "solitaire-only"))]
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

    fn table(&self) -> std::borrow::Cow<'static, str> {
        match self {
            YazyQuery { opp_mask: Some(_), advisor: false, .. } => YazyDuel::ID,
            YazyQuery { need: Some(_), .. } | YazyQuery { advisor: true, .. } => YazyTarget::ID,
            _ => Yazy::ID,
        }
        .into()
    }

    fn check(&self) -> Result<(), LookupError> {
        check_rerolls(self.dice, self.rerolls)?;
        let Some(opp_mask) = self.opp_mask else {
            let missing = match self {
                q if q.me.is_some() || q.opp.is_some() => "opp-mask",
                q if q.to_move.is_some() => "opp-mask for to-move",
                q if q.advisor => "advisor",
                _ => return Ok(()),
            };
            return Err(LookupError::TwoPlayer { missing });
        };
        if self.advisor && self.to_move == Some(ToMove::Opponent) {
            return Err(LookupError::TwoPlayer { missing: "to-move" });
        }
        let open = (self.mask.bits().count_ones(), opp_mask.bits().count_ones());
        let to_move = (!self.advisor).then(|| self.player_to_move());
        let untouched = self.mask == Mask::ALL && opp_mask == Mask::ALL;
        check_opponent(open, to_move, self.need.is_some(), (self.me, self.opp), untouched)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        let reply = match self {
            q if q.advisor => advisor(tables, q),
            q if q.opp_mask.is_some() => duel(tables, q),
            q if q.need.is_some() => target(tables, q),
            q => solitaire(tables, q),
        };
        Ok(Box::new(reply?))
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

/// The text's layout: five dice, options in a column 34 wide.
const LAYOUT: Layout = Layout { dice: 5, width: 34, box_word: "category" };

/// The answer's first line: the open categories.
fn open_line(mask: Mask) -> String {
    format!("open: {mask} (mask {})", mask.bits())
}

/// An answer of yazy alone or played to win, before its roll.
fn reply(head: Vec<(&'static str, Json)>, state: String, valued: Valued, value: f64) -> SheetReply {
    SheetReply { head, state, valued, value, roll: None, layout: LAYOUT }
}

fn game() -> (&'static str, Json) {
    ("game", text(Yazy::ID))
}

fn solitaire(tables: &Tables, q: &YazyQuery) -> Result<SheetReply, LookupError> {
    let yazy = tables.get::<Yazy>()?;
    let state = format!("yazy, {}", open_line(q.mask));
    let Some(dice) = q.dice else {
        return Ok(reply(vec![game()], state, Valued::Points, yazy.turn_start_value(q.mask)?));
    };
    let rerolls = q.rerolls.unwrap_or(yazy.rerolls());
    let value = yazy.value(q.mask, dice, rerolls)?;
    let options = yazy.options(q.mask, dice, rerolls)?;
    let options = options.iter().map(|o| (choice(o.action, o.points), o.ev)).collect();
    Ok(SheetReply {
        roll: Some(SheetRoll { dice, rerolls, options }),
        ..reply(vec![game()], state, Valued::Points, value)
    })
}

/// A yazy action as the answers give it.
fn choice(a: Action, points: u8) -> Choice {
    match a {
        Action::Keep(d) => Choice::Keep(d),
        Action::Score(c) => Choice::score(c.name(), points, None),
    }
}

/// Two-player yazy in a build without it (the static site's module, see
/// the reader's registry).
#[cfg(feature = "solitaire-only")]
fn duel(_: &Tables, _: &YazyQuery) -> Result<SheetReply, LookupError> {
    Err(LookupError::NotInBuild { what: "two-player yazy (the yazy-duel table)" })
}

#[cfg(feature = "solitaire-only")]
fn target(_: &Tables, _: &YazyQuery) -> Result<SheetReply, LookupError> {
    Err(crate::reply::NO_TARGET)
}

#[cfg(feature = "solitaire-only")]
fn advisor(_: &Tables, _: &YazyQuery) -> Result<SheetReply, LookupError> {
    Err(crate::reply::NO_ADVISOR)
}

/// The state of a lookup against an opponent, and the answer's head.
#[cfg(not(feature = "solitaire-only"))]
fn versus_head(q: &YazyQuery, how: &str) -> (Vec<(&'static str, Json)>, String, Mask, i64) {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let lead = q.lead();
    let state = format!(
        "yazy against an opponent{how}, {}, the opponent's: {opp_mask} (mask {}), lead {lead}",
        open_line(q.mask),
        opp_mask.bits()
    );
    (vec![game(), ("lead", Json::Int(lead))], state, opp_mask, lead)
}

/// Two-player yazy from the `yazy-duel` table: your chance of winning (ties
/// half) at the turn's start, or a roll's options each with it, on your
/// turn or the opponent's.
#[cfg(not(feature = "solitaire-only"))]
fn duel(tables: &Tables, q: &YazyQuery) -> Result<SheetReply, LookupError> {
    let (mut head, state, opp_mask, lead) = versus_head(q, "");
    let to_move = q.player_to_move();
    head.push(("to_move", text(to_move.name())));
    let valued = Valued::Winning { exact: true, to_move };
    let table = tables.get::<YazyDuel>()?;
    // The table holds the chance of the player to move. On the opponent's
    // turn that is theirs, with the sheets and the lead seen from their side,
    // and yours is the rest (a tie counts half to each).
    let (mover, other, mover_lead) = match to_move {
        ToMove::Me => (q.mask, opp_mask, lead),
        ToMove::Opponent => (opp_mask, q.mask, -lead),
    };
    let yours = |p: f64| if to_move == ToMove::Me { p } else { 1.0 - p };
    let Some(dice) = q.dice else {
        return Ok(reply(head, state, valued, yours(table.chance(mover, other, mover_lead)?)));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(mover, other, mover_lead, dice, rerolls)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.chance(mover, other, mover_lead)?,
    };
    let options = options.iter().map(|o| (choice(o.action, o.points), yours(o.p))).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..reply(head, state, valued, yours(p)) })
}

/// Yazy against an opponent as the opponent-aware advisor plays it (the
/// `yazy-target` table): its estimate of the chance of winning (ties
/// half), not exact.
#[cfg(not(feature = "solitaire-only"))]
fn advisor(tables: &Tables, q: &YazyQuery) -> Result<SheetReply, LookupError> {
    let (head, state, opp_mask, lead) = versus_head(q, ", as the opponent-aware advisor plays it");
    let valued = Valued::Winning { exact: false, to_move: ToMove::Me };
    let table = tables.get::<YazyTarget>()?;
    let opponent = table.opponent(opp_mask, lead)?;
    let Some(dice) = q.dice else {
        return Ok(reply(head, state, valued, table.versus_chance(q.mask, &opponent)?));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.versus_options(q.mask, dice, rerolls, &opponent)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.versus_chance(q.mask, &opponent)?,
    };
    let options = options.iter().map(|o| (choice(o.action, o.points), o.p)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..reply(head, state, valued, p) })
}

#[cfg(not(feature = "solitaire-only"))]
fn target(tables: &Tables, q: &YazyQuery) -> Result<SheetReply, LookupError> {
    let need = q.need.expect("a target lookup");
    let head = vec![game(), ("need", Json::Int(need))];
    let state = format!("yazy, {}, needing {need} more points", open_line(q.mask));
    let table = tables.get::<YazyTarget>()?;
    let Some(dice) = q.dice else {
        return Ok(reply(head, state, Valued::Reach(need), table.chance(q.mask, need)?));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(q.mask, dice, rerolls, need)?;
    let p = options.best().map_or(dice_tables_reader::target::game_over_chance(need), |b| b.p);
    let options = options.iter().map(|o| (choice(o.action, o.points), o.p)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..reply(head, state, Valued::Reach(need), p) })
}
