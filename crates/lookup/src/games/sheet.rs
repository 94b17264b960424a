//! Yatzy and Yahtzee: five dice, two rerolls, a 15- or 13-box sheet; alone,
//! for a target, or against an opponent as the advisor estimates it.
//! Yahtzee's joker reading picks its table (forced by default).

use super::arguments::{for_people, Argument, FIVE_DICE, REROLLS_LEFT};
use super::{GameQuery, GameTable, LookupInfo};
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
use crate::reply::{text, Choice, Layout, Replied, SheetReply, SheetRoll, Valued};
use crate::values::{decoded, read_values, StoredValues};
#[cfg(not(feature = "solitaire-only"))]
use dice_tables_reader::sheet::SheetTarget;
use dice_tables_reader::sheet::{
    Joker, ScoreSheet, SheetGame, YahtzeeFreeGame, YahtzeeGame, YatzyGame, REROLLS, UPPER_MASK,
};
#[cfg(not(feature = "solitaire-only"))]
use dice_tables_reader::target::CurveRow;
use dice_tables_reader::{Game, Tables};

pub(super) const YATZY: LookupInfo = LookupInfo {
    game: YatzyGame::ID,
    aliases: <ScoreSheet<YatzyGame> as Game>::ALIASES,
    about: for_people("yatzy (Scandinavian): the options of a roll, or the turn-start value of a state."),
    arguments: &[
        MASK,
        UPPER,
        FIVE_DICE,
        REROLLS_LEFT,
        Argument::optional(
            "need",
            "N",
            "Play to win: the best chance of scoring at least N more points (this turn's included), from the yatzy-target table (`make yatzy-target`). 0 or less: already reached.",
        ),
        Argument::optional(
            "opp-mask",
            "O",
            "Play against an opponent whose open categories are O (the same forms as --mask): the opponent-aware advisor's estimate of your chance of winning, ties half, from the yatzy-target table (`make yatzy-target`). Needs --me and --opp.",
        ),
        OPP_UPPER,
        Argument::optional(
            "me",
            "S",
            "Your total so far, 0 to 374, the upper bonus left out (it counts at the game's end); only --me minus --opp matters.",
        ),
        OPP,
    ],
    tables: &[GameTable { id: YatzyGame::ID, rules: None, values: read_values(values::<YatzyGame>) }],
    categories: YatzyGame::CATEGORIES,
    parse: |_, a| Ok(Query::Yatzy(parse(a, YatzyGame::CATEGORIES, parse_yatzy_mask, parse_yatzy_total)?)),
    #[cfg(not(feature = "solitaire-only"))]
    curve: Some(curve::<YatzyGame>),
    #[cfg(feature = "solitaire-only")]
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Sheet(|tables, name| {
        (name == YatzyGame::ID).then(|| review_source::<YatzyGame>(tables))
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

pub(super) const YAHTZEE: LookupInfo = LookupInfo {
    game: YahtzeeGame::ID,
    aliases: <ScoreSheet<YahtzeeGame> as Game>::ALIASES,
    about: for_people("yahtzee (United States): the options of a roll, or the turn-start value of a state."),
    arguments: &[
        MASK,
        UPPER,
        Argument::flag("yahtzee-bonus", "The yahtzee box holds 50 (each further Yahtzee scores 100 more)."),
        FIVE_DICE,
        REROLLS_LEFT,
        Argument::optional(
            "need",
            "N",
            "Play to win: the best chance of scoring at least N more points (this turn's included), from the yahtzee-target table (`make yahtzee-target`). 0 or less: already reached.",
        ),
        Argument::optional(
            "joker",
            "READING",
            "Where a Yahtzee rolled with the yahtzee box filled may go: `forced` (the official reading; yahtzee.dtab, the default) or `free` (any open box, Verhoeff's; yahtzee-free.dtab from `make yahtzee-free`, and yahtzee-free-target.dtab from `make yahtzee-free-target` for --need).",
        ),
        Argument::optional(
            "opp-mask",
            "O",
            "Play against an opponent whose open categories are O (the same forms as --mask): the opponent-aware advisor's estimate of your chance of winning, ties half, from the yahtzee-target table (`make yahtzee-target`). Needs --me and --opp.",
        ),
        OPP_UPPER,
        Argument::flag("opp-yahtzee-bonus", "The opponent's yahtzee box holds 50."),
        Argument::optional(
            "me",
            "S",
            "Your total so far, 0 to 1575, Yahtzee bonuses included and the upper bonus left out (it counts at the game's end); only --me minus --opp matters.",
        ),
        OPP,
    ],
    tables: &[GameTable { id: YahtzeeGame::ID, rules: None, values: read_values(values::<YahtzeeGame>) }],
    categories: YahtzeeGame::CATEGORIES,
    parse: |_, a| Ok(Query::Yahtzee(parse(a, YahtzeeGame::CATEGORIES, parse_yahtzee_mask, parse_yahtzee_total)?)),
    #[cfg(not(feature = "solitaire-only"))]
    curve: Some(curve::<YahtzeeGame>),
    #[cfg(feature = "solitaire-only")]
    curve: None,
    // `yahtzee-free` names the free joker reading's tables.
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Sheet(|tables, name| match name {
        YahtzeeGame::ID => Some(review_source::<YahtzeeGame>(tables)),
        YahtzeeFreeGame::ID => Some(review_source::<YahtzeeFreeGame>(tables)),
        _ => None,
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// A game of `G` as a review reads it: its table as its preset's rule
/// set's, under the rules of the preset's parts table (`make tables`
/// writes yatzy-parts.dtab and yahtzee-parts.dtab), which gives the reasons.
#[cfg(not(feature = "solitaire-only"))]
fn review_source<G: SheetGame>(tables: &Tables) -> Result<crate::review::ReviewSource<'_>, LookupError> {
    let table = tables.get::<ScoreSheet<G>>().map_err(LookupError::Table)?;
    let parts = tables.rule_parts(G::ID).map_err(LookupError::Table)?;
    let target: crate::review::OpenTarget<'_> = Box::new(move || {
        let chances = tables.get::<SheetTarget<G>>().map_err(LookupError::Table)?;
        Ok(Box::new(SheetChances(chances)) as Box<dyn crate::review::TargetChances>)
    });
    crate::review::ReviewSource::preset(tables, table, parts, Some(target), None)
}

/// A built-in game's target table in its preset's states, for a review.
#[cfg(not(feature = "solitaire-only"))]
struct SheetChances<'a, G: SheetGame>(&'a SheetTarget<G>);

#[cfg(not(feature = "solitaire-only"))]
impl<G: SheetGame> SheetChances<'_, G> {
    /// The game's state of the preset's sheet `at`: its yahtzee box
    /// holding points is the game's flag, an upper total from the bonus's
    /// threshold up is one state.
    fn state(
        &self,
        at: dice_tables_reader::rules::SheetState,
    ) -> Result<dice_tables_reader::sheet::State, LookupError> {
        use dice_tables_reader::sheet::{BONUS_AT, YAHTZEE_BOX};
        let flag = G::FLAGS > 1 && at.held >> YAHTZEE_BOX & 1 == 1;
        Ok(self.0.state(at.open, at.upper.min(u32::from(BONUS_AT)), flag)?)
    }
}

#[cfg(not(feature = "solitaire-only"))]
impl<G: SheetGame> crate::review::TargetChances for SheetChances<'_, G> {
    fn chance(&self, at: dice_tables_reader::rules::SheetState, need: i64) -> Result<f64, LookupError> {
        Ok(self.0.chance(self.state(at)?, need)?)
    }

    fn chances(
        &self,
        at: dice_tables_reader::rules::SheetState,
        dice: dice_tables_reader::Dice,
        rerolls: u8,
        need: i64,
        legal: &[dice_tables_reader::rule_sheet::RuleChoice],
    ) -> Result<Vec<f64>, LookupError> {
        use dice_tables_reader::rule_sheet::RuleChoice;
        use dice_tables_reader::sheet::Action;
        let options = self.0.options(self.state(at)?, dice, rerolls, need)?;
        crate::review::legal_chances(G::ID, dice, &options, legal, |choice| match choice {
            RuleChoice::Keep(kept) => Action::Keep(kept),
            RuleChoice::Score(m) => Action::Score(m.box_index as u8),
        })
    }
}

/// The turn-start value of every state: mask, (yahtzee box), upper total.
fn values<G: SheetGame>(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let values = sheet.turn_start_values()?;
    let mut shape = vec![1usize << G::CATEGORIES.len()];
    let mut axes = vec!["mask"];
    if G::FLAGS > 1 {
        shape.push(G::FLAGS);
        axes.push("yahtzee_bonus");
    }
    shape.push(values.len() / shape.iter().product::<usize>());
    axes.push("upper");
    Ok(decoded(&values, shape, axes))
}

const MASK: Argument = Argument::required("mask", "M", "Open categories: {mask}.");

const UPPER: Argument = Argument::optional(
    "upper",
    "N",
    "Upper-section points so far (ones to sixes; any total from 63 up that the filled boxes can make is one state). Needed once an upper box is filled; left out, 0.",
);

const OPP_UPPER: Argument =
    Argument::optional("opp-upper", "N", "The opponent's upper-section points so far, as --upper.");

const OPP: Argument = Argument::optional("opp", "T", "The opponent's total so far, counted as --me.");

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
#[cfg(not(feature = "solitaire-only"))]
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

    fn table(&self) -> std::borrow::Cow<'static, str> {
        (table::<YatzyGame>(self.0)).into()
    }

    fn check(&self) -> Result<(), LookupError> {
        check::<YatzyGame>(self.0)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        reply::<YatzyGame>(tables, self.0)
    }
}

impl GameQuery for Yahtzee<'_> {
    fn lookup(&self) -> &'static LookupInfo {
        &YAHTZEE
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        match self.0.joker {
            Some(Joker::Free) => table::<YahtzeeFreeGame>(self.0),
            _ => table::<YahtzeeGame>(self.0),
        }
        .into()
    }

    fn check(&self) -> Result<(), LookupError> {
        check::<YahtzeeGame>(self.0)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        match self.0.joker {
            Some(Joker::Free) => reply::<YahtzeeFreeGame>(tables, self.0),
            _ => reply::<YahtzeeGame>(tables, self.0),
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

fn check<G: SheetGame>(q: &SheetQuery) -> Result<(), LookupError> {
    check_rerolls(q.dice, q.rerolls)?;
    check_upper(G::ID, q)?;
    check_sheet_opponent(q, (1u32 << G::CATEGORIES.len()) - 1)
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

/// A lookup against an opponent has the opponent's sheet, both totals
/// (unless both sheets are `all` open) and no target; the opponent's other
/// arguments need their sheet.
fn check_sheet_opponent(q: &SheetQuery, all: u32) -> Result<(), LookupError> {
    let Some(opp_mask) = q.opp_mask else {
        if q.me.is_some() || q.opp.is_some() || q.opp_upper.is_some() || q.opp_yahtzee_bonus {
            return Err(LookupError::TwoPlayer { missing: "opp-mask" });
        }
        return Ok(());
    };
    let open = (q.mask.count_ones(), opp_mask.count_ones());
    let untouched = q.mask == all && opp_mask == all;
    check_opponent(open, None, q.need.is_some(), (q.me, q.opp), untouched)
}

fn reply<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Replied {
    let reply = if q.opp_mask.is_some() {
        versus::<G>(tables, q)
    } else if q.need.is_some() {
        target::<G>(tables, q)
    } else {
        solitaire::<G>(tables, q)
    };
    Ok(Box::new(reply?))
}

/// The text's layout: five dice, options in a column 38 wide.
const LAYOUT: Layout = Layout { dice: 5, width: 38, box_word: "category" };

/// The answer's first fields: the game, and for a table of the free joker
/// reading, yahtzee's, that reading (`"joker":"free"`); the forced
/// reading, yahtzee's default, goes unsaid.
fn head<G: SheetGame>() -> Vec<(&'static str, Json)> {
    match G::JOKER {
        Some(Joker::Free) => vec![("game", text(YahtzeeGame::ID)), ("joker", text(Joker::Free.name()))],
        _ => vec![("game", text(G::ID))],
    }
}

/// A sheet for people: its open boxes, upper total and yahtzee box.
fn sheet_line<G: SheetGame>(mask: u32, upper: u32, yahtzee_bonus: bool) -> String {
    let mut line = format!("open: {} (mask {mask}), upper total {upper}", ScoreSheet::<G>::mask_names(mask));
    if yahtzee_bonus {
        line.push_str(", yahtzee box holds 50");
    }
    line
}

/// The text's first line: the game and the player's sheet.
fn state_line<G: SheetGame>(q: &SheetQuery) -> String {
    let game = match G::JOKER {
        Some(Joker::Free) => "yahtzee (free joker reading)",
        _ => G::ID,
    };
    format!("{game}, {}", sheet_line::<G>(q.mask, q.upper_total(), q.yahtzee_bonus))
}

/// An answer before the roll.
fn reply_before(head: Vec<(&'static str, Json)>, state: String, valued: Valued, value: f64) -> SheetReply {
    SheetReply { head, state, valued, value, roll: None, layout: LAYOUT }
}

fn solitaire<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Result<SheetReply, LookupError> {
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let state = sheet.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let before = |value| reply_before(head::<G>(), state_line::<G>(q), Valued::Points, value);
    let Some(dice) = q.dice else { return Ok(before(sheet.turn_start_value(state)?)) };
    let rerolls = q.rerolls.unwrap_or(REROLLS);
    let options = sheet.options(state, dice, rerolls)?;
    let ev = sheet.roll_value(state, &options)?;
    let choice = choice::<G>(sheet.yahtzee_bonus(state, dice));
    let options = options.iter().map(|o| (choice(o.action, o.points), o.ev)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..before(ev) })
}

/// A score-sheet action as the answers give it: in yahtzee a category
/// carries its Yahtzee bonus (`bonus`, from the roll) apart, as a player writes it.
fn choice<G: SheetGame>(bonus: u8) -> impl Fn(dice_tables_reader::sheet::Action, u8) -> Choice {
    move |a, points| match a {
        dice_tables_reader::sheet::Action::Keep(d) => Choice::Keep(d),
        dice_tables_reader::sheet::Action::Score(c) => {
            Choice::score(ScoreSheet::<G>::category_name(c), points - bonus, G::JOKER.map(|_| bonus))
        }
    }
}

#[cfg(feature = "solitaire-only")]
#[allow(clippy::extra_unused_type_parameters)] // the full build's signature
fn target<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Result<SheetReply, LookupError> {
    Err(crate::reply::NO_TARGET)
}

#[cfg(feature = "solitaire-only")]
#[allow(clippy::extra_unused_type_parameters)] // the full build's signature
fn versus<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Result<SheetReply, LookupError> {
    Err(crate::reply::NO_ADVISOR)
}

#[cfg(not(feature = "solitaire-only"))]
fn target<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Result<SheetReply, LookupError> {
    let need = q.need.expect("a target lookup");
    let table = tables.get::<SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let mut head = head::<G>();
    head.push(("need", Json::Int(need)));
    let line = format!("{}, needing {need} more points", state_line::<G>(q));
    let before = |value| reply_before(head.clone(), line.clone(), Valued::Reach(need), value);
    let Some(dice) = q.dice else { return Ok(before(table.chance(state, need)?)) };
    let rerolls = q.rerolls.unwrap_or(REROLLS);
    let options = table.options(state, dice, rerolls, need)?;
    let p = table.roll_chance(state, need, &options)?;
    let choice = choice::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    let options = options.iter().map(|o| (choice(o.action, o.points), o.p)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..before(p) })
}

/// Against an opponent, as the opponent-aware advisor plays it (the target
/// table): its estimate of the chance of winning (ties half), not exact.
#[cfg(not(feature = "solitaire-only"))]
fn versus<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Result<SheetReply, LookupError> {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let table = tables.get::<SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let opponent_state = table.state(opp_mask, q.opp_upper_total(), q.opp_yahtzee_bonus)?;
    let lead = q.lead();
    let opponent = table.opponent(opponent_state, lead)?;
    let mut head = head::<G>();
    head.push(("lead", Json::Int(lead)));
    let line = format!(
        "{}\nthe opponent's {}; lead {lead}",
        state_line::<G>(q),
        sheet_line::<G>(opp_mask, q.opp_upper_total(), q.opp_yahtzee_bonus)
    );
    let valued = Valued::Winning { exact: false, to_move: crate::queries::ToMove::Me };
    let before = |value| reply_before(head.clone(), line.clone(), valued, value);
    let Some(dice) = q.dice else { return Ok(before(table.versus_chance(state, &opponent)?)) };
    let rerolls = q.rerolls.unwrap_or(REROLLS);
    let options = table.versus_options(state, dice, rerolls, &opponent)?;
    let p = table.versus_roll_chance(state, &opponent, &options)?;
    let choice = choice::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    let options = options.iter().map(|o| (choice(o.action, o.points), o.p)).collect();
    Ok(SheetReply { roll: Some(SheetRoll { dice, rerolls, options }), ..before(p) })
}
