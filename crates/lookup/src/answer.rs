//! Each game's answer as JSON: the fields README.md documents for
//! `reader lookup G --json`.

use crate::error::LookupError;
use crate::json::Json;
use crate::queries::{ComboQuery, DuelQuery, DuelRules, MaxiQuery, SheetQuery, TenkQuery, ThreesQuery, YazyQuery};
use dice_tables_reader::duel::{CardgamesDuel, Duel, DuelOption, Scoring, SeedDuel};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame};
use dice_tables_reader::tenk::{Phase, Tenk, TenkOption, Then};
use dice_tables_reader::threes::{Model, Threes, Ties};
use dice_tables_reader::yazy::Yazy;
use dice_tables_reader::ArgumentErrorKind;
use dice_tables_reader::{Dice, Tables};

type Answer = Result<Json, LookupError>;

fn text(s: impl ToString) -> Json {
    Json::Str(s.to_string())
}

/// A value under the key that says what it is: `"p"` for a chance, `"ev"`
/// for an expected score or total.
fn value(chance: bool, v: f64) -> (&'static str, Json) {
    (if chance { "p" } else { "ev" }, Json::Num(v))
}

/// `{"game":..,"ev":..}`: a value before any dice are shown.
fn start(game: &'static str, ev: f64) -> Json {
    Json::object(vec![("game", text(game)), ("ev", Json::Num(ev))])
}

/// A score-sheet game's answer as the lookups write it: a table of the free
/// joker reading answers as yahtzee, saying so (`"joker":"free"` after the
/// game); the forced reading, yahtzee's default, goes unsaid.
fn reading<G: SheetGame>(answer: Json) -> Json {
    use dice_tables_reader::sheet::{Joker, YahtzeeGame};
    match (G::JOKER, answer) {
        (Some(Joker::Free), Json::Object(mut fields)) => {
            fields[0].1 = text(YahtzeeGame::ID);
            fields.insert(1, ("joker".into(), text(Joker::Free.name())));
            Json::Object(fields)
        }
        (_, answer) => answer,
    }
}

/// `--rerolls` counts from a roll, so it needs the dice.
pub(super) fn check_rerolls(dice: Option<Dice>, rerolls: Option<u8>) -> Result<(), LookupError> {
    match (dice, rerolls) {
        (None, Some(rerolls)) => Err(LookupError::RerollsWithoutDice { rerolls, dice: "five" }),
        _ => Ok(()),
    }
}

/// The upper total may be left out only while ones to sixes are all open
/// (then it can only be 0).
pub(super) fn check_upper(game: &'static str, q: &SheetQuery) -> Result<(), LookupError> {
    let upper_open = dice_tables_reader::sheet::UPPER_MASK;
    match q.upper {
        None if q.mask & upper_open != upper_open => Err(LookupError::UpperNeeded { game, argument: "upper" }),
        _ => match (q.opp_mask, q.opp_upper) {
            (Some(m), None) if m & upper_open != upper_open => {
                Err(LookupError::UpperNeeded { game, argument: "opp-upper" })
            }
            _ => Ok(()),
        },
    }
}

/// `--rerolls` counts from a six-dice roll, so it needs the dice.
pub(super) fn check_maxi_rerolls(q: &MaxiQuery) -> Result<(), LookupError> {
    match (q.dice, q.rerolls) {
        (None, Some(rerolls)) => Err(LookupError::RerollsWithoutDice { rerolls, dice: "six" }),
        _ => Ok(()),
    }
}

/// The Maxi Yatzy upper total may be left out only while ones to sixes are all open.
pub(super) fn check_maxi_upper(q: &MaxiQuery) -> Result<(), LookupError> {
    let upper_open = dice_tables_reader::maxi::UPPER_MASK;
    match q.upper {
        None if q.mask & upper_open != upper_open => {
            Err(LookupError::UpperNeeded { game: "maxi-yatzy", argument: "upper" })
        }
        _ => Ok(()),
    }
}

/// A yatzy or yahtzee lookup against an opponent has the opponent's sheet
/// and both totals, and no target; the opponent's other arguments need
/// their sheet.
pub(super) fn check_sheet_opponent(q: &SheetQuery) -> Result<(), LookupError> {
    let Some(opp_mask) = q.opp_mask else {
        if q.me.is_some() || q.opp.is_some() || q.opp_upper.is_some() || q.opp_yahtzee_bonus {
            return Err(LookupError::TwoPlayer { missing: "opp-mask" });
        }
        return Ok(());
    };
    check_opponent(q.mask.count_ones(), opp_mask.count_ones(), q.need.is_some(), q.me, q.opp)
}

/// Against an opponent: no target, the turn order kept (the player to move
/// has as many categories open as the opponent, or one more) and both
/// totals given. (Totals are not checked against the filled categories: a
/// head start is a lead no sheet made.)
fn check_opponent(mover: u32, opponent: u32, need: bool, me: Option<u32>, opp: Option<u32>) -> Result<(), LookupError> {
    if need {
        return Err(LookupError::TwoPlayer { missing: "need" });
    }
    if mover != opponent && mover != opponent + 1 {
        let e: dice_tables_reader::ArgumentError = ArgumentErrorKind::TurnOrder { mover, opponent }.into();
        return Err(LookupError::Refused(e));
    }
    match (me, opp) {
        (None, _) => Err(LookupError::TwoPlayer { missing: "me" }),
        (_, None) => Err(LookupError::TwoPlayer { missing: "opp" }),
        _ => Ok(()),
    }
}

/// Exactly one of a throw (`--dice`) and the dice about to be thrown
/// (`--remaining`), or at most one when `optional`.
pub(super) fn check_throw(dice: Option<Dice>, remaining: Option<u8>, optional: bool) -> Result<(), LookupError> {
    match (dice, remaining) {
        (Some(_), Some(_)) => Err(LookupError::ThrowOrRemaining { both: true }),
        (None, None) if !optional => Err(LookupError::ThrowOrRemaining { both: false }),
        _ => Ok(()),
    }
}

/// The combinations of arguments a threes query may not have.
pub(super) fn check_threes(q: &ThreesQuery) -> Result<(), LookupError> {
    check_throw(q.dice, q.remaining, false)?;
    if q.expected {
        let given = [
            ("record", q.record.is_some()),
            ("after", q.after.is_some()),
            ("ties", q.ties.is_some()),
            ("model", q.model.is_some()),
        ];
        if let Some(&(argument, _)) = given.iter().find(|(_, g)| *g) {
            return Err(LookupError::NotWithExpected { argument });
        }
    }
    Ok(())
}

/// The combinations of arguments a duel query may not have.
pub(super) fn check_duel(q: &DuelQuery) -> Result<(), LookupError> {
    check_throw(q.dice, q.remaining, true)?;
    if q.dice.is_none() && q.remaining.is_none() && q.score != 0 {
        return Err(LookupError::ScoreWithoutThrow { score: q.score });
    }
    Ok(())
}

/// A two-player yazy lookup has the opponent's sheet and both totals, and
/// no target; `advisor` needs the opponent.
pub(super) fn check_yazy_opponent(q: &YazyQuery) -> Result<(), LookupError> {
    let Some(opp_mask) = q.opp_mask else {
        if q.me.is_some() || q.opp.is_some() {
            return Err(LookupError::TwoPlayer { missing: "opp-mask" });
        }
        if q.advisor {
            return Err(LookupError::TwoPlayer { missing: "advisor" });
        }
        return Ok(());
    };
    check_opponent(q.mask.bits().count_ones(), opp_mask.bits().count_ones(), q.need.is_some(), q.me, q.opp)
}

/// A yazy, yatzy or yahtzee roll: its value, the best action (`null` when
/// the game is over) and every option, best first.
fn roll(game: &'static str, ev: f64, options: Vec<(Json, f64)>) -> Json {
    let best = options.first().map_or(Json::Null, |(action, _)| action.clone());
    let options = options.into_iter().map(|(action, ev)| Json::object(vec![("action", action), ("ev", Json::Num(ev))]));
    Json::object(vec![
        ("game", text(game)),
        ("ev", Json::Num(ev)),
        ("best", best),
        ("options", Json::List(options.collect())),
    ])
}

fn keep(d: Dice) -> Json {
    Json::object(vec![("keep", text(d))])
}

/// Scoring a category, with the points the dice score there.
fn category(name: &'static str, points: u8) -> Json {
    Json::object(vec![("category", text(name)), ("points", Json::Int(points.into()))])
}

pub(super) fn yazy(tables: &Tables, q: &YazyQuery) -> Answer {
    let yazy = tables.get::<Yazy>()?;
    let Some(dice) = q.dice else { return Ok(start("yazy", yazy.turn_start_value(q.mask)?)) };
    let rerolls = q.rerolls.unwrap_or(yazy.rerolls());
    let ev = yazy.value(q.mask, dice, rerolls)?;
    let options = yazy.options(q.mask, dice, rerolls)?;
    Ok(roll("yazy", ev, options.iter().map(|o| (yazy_action(o.action, o.points), o.ev)).collect()))
}

/// A roll played to reach a target: the best chance, the decision and
/// every option with its chance, best first.
#[cfg(not(dice_tables_solitaire_only))]
fn target_roll(game: &'static str, need: i64, p: f64, options: Vec<(Json, f64)>) -> Json {
    chance_roll(game, ("need", need), p, options)
}

/// A roll's chance (of reaching a target, or of winning), with `known`
/// (the need, or the lead) after the game, the decision and every option
/// with its chance, best first.
#[cfg(not(dice_tables_solitaire_only))]
fn chance_roll(game: &'static str, known: (&'static str, i64), p: f64, options: Vec<(Json, f64)>) -> Json {
    let best = options.first().map_or(Json::Null, |(action, _)| action.clone());
    let options = options.into_iter().map(|(action, p)| Json::object(vec![("action", action), ("p", Json::Num(p))]));
    Json::object(vec![
        ("game", text(game)),
        (known.0, Json::Int(known.1)),
        ("p", Json::Num(p)),
        ("best", best),
        ("options", Json::List(options.collect())),
    ])
}

/// Two-player yazy in a build without it (the static site's module, see
/// the reader's registry).
#[cfg(dice_tables_solitaire_only)]
pub(super) fn yazy_duel(_: &Tables, _: &YazyQuery) -> Answer {
    Err(LookupError::NotInBuild { what: "two-player yazy (the yazy-duel table)" })
}

/// Two-player yazy from the `yazy-duel` table: the chance of winning (ties
/// half) at the turn's start, or a roll's options each with its chance.
#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn yazy_duel(tables: &Tables, q: &YazyQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let lead = q.lead();
    let table = tables.get::<dice_tables_reader::yazy::duel::YazyDuel>()?;
    let Some(dice) = q.dice else {
        let p = table.chance(q.mask, opp_mask, lead)?;
        return Ok(versus_start("yazy", lead, p, true));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(q.mask, opp_mask, lead, dice, rerolls)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.chance(q.mask, opp_mask, lead)?,
    };
    let options = options.iter().map(|o| (yazy_action(o.action, o.points), o.p)).collect();
    Ok(versus_roll("yazy", lead, p, true, options))
}

/// A yazy action as the lookups write it.
fn yazy_action(a: dice_tables_reader::yazy::Action, points: u8) -> Json {
    match a {
        dice_tables_reader::yazy::Action::Keep(d) => keep(d),
        dice_tables_reader::yazy::Action::Score(c) => category(c.name(), points),
    }
}

#[cfg(not(dice_tables_solitaire_only))]
/// Against an opponent, before the roll: the lead, the chance of winning
/// (ties half) and whether it is exact (the two-player table's) or the
/// advisor's estimate.
fn versus_start(game: &'static str, lead: i64, p: f64, exact: bool) -> Json {
    Json::object(vec![
        ("game", text(game)),
        ("lead", Json::Int(lead)),
        ("p", Json::Num(p)),
        ("exact", Json::Bool(exact)),
    ])
}

#[cfg(not(dice_tables_solitaire_only))]
/// Against an opponent, a roll: as [`versus_start`], then the decision and
/// every option with its chance, best first.
fn versus_roll(game: &'static str, lead: i64, p: f64, exact: bool, options: Vec<(Json, f64)>) -> Json {
    let Json::Object(mut fields) = chance_roll(game, ("lead", lead), p, options) else {
        unreachable!("a roll's answer is an object")
    };
    fields.insert(3, ("exact".into(), Json::Bool(exact)));
    Json::Object(fields)
}

/// Lookups against an opponent in a build without them (the static site's
/// module, which plays alone: see the reader's registry).
#[cfg(dice_tables_solitaire_only)]
const NO_ADVISOR: LookupError = LookupError::NotInBuild { what: "the opponent-aware advisor (lookups with opp-mask)" };

/// Target lookups in a build without the target tables (the static site's).
#[cfg(dice_tables_solitaire_only)]
const NO_TARGET: LookupError = LookupError::NotInBuild { what: "playing to reach a target (lookups with need)" };

#[cfg(dice_tables_solitaire_only)]
pub(super) fn yazy_target(_: &Tables, _: &YazyQuery) -> Answer {
    Err(NO_TARGET)
}

#[cfg(dice_tables_solitaire_only)]
pub(super) fn sheet_target<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Answer {
    Err(NO_TARGET)
}

#[cfg(dice_tables_solitaire_only)]
pub(super) fn yazy_advisor(_: &Tables, _: &YazyQuery) -> Answer {
    Err(NO_ADVISOR)
}

/// Yazy against an opponent as the opponent-aware advisor plays it (the
/// `yazy-target` table): its estimate of the chance of winning (ties
/// half), not exact.
#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn yazy_advisor(tables: &Tables, q: &YazyQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let lead = q.lead();
    let table = tables.get::<dice_tables_reader::yazy::target::YazyTarget>()?;
    let opponent = table.opponent(opp_mask, lead)?;
    let Some(dice) = q.dice else {
        return Ok(versus_start("yazy", lead, table.versus_chance(q.mask, &opponent)?, false));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.versus_options(q.mask, dice, rerolls, &opponent)?;
    let p = match options.best() {
        Some(b) => b.p,
        None => table.versus_chance(q.mask, &opponent)?,
    };
    let options = options.iter().map(|o| (yazy_action(o.action, o.points), o.p)).collect();
    Ok(versus_roll("yazy", lead, p, false, options))
}

#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn yazy_target(tables: &Tables, q: &YazyQuery) -> Answer {
    let need = q.need.expect("a target lookup");
    let table = tables.get::<dice_tables_reader::yazy::target::YazyTarget>()?;
    let Some(dice) = q.dice else {
        let p = table.chance(q.mask, need)?;
        return Ok(Json::object(vec![("game", text("yazy")), ("need", Json::Int(need)), ("p", Json::Num(p))]));
    };
    let rerolls = q.rerolls.unwrap_or(table.rules().rerolls);
    let options = table.options(q.mask, dice, rerolls, need)?;
    let p = options.best().map_or(dice_tables_reader::target::game_over_chance(need), |b| b.p);
    Ok(target_roll("yazy", need, p, options.iter().map(|o| (yazy_action(o.action, o.points), o.p)).collect()))
}

pub(super) fn yazy_value(tables: &Tables, q: &YazyQuery) -> Result<f64, LookupError> {
    let yazy = tables.get::<Yazy>()?;
    Ok(match q.dice {
        None => yazy.turn_start_value(q.mask)?,
        Some(dice) => yazy.value(q.mask, dice, q.rerolls.unwrap_or(yazy.rerolls()))?,
    })
}

pub(super) fn combo_value(tables: &Tables, q: &ComboQuery) -> Result<f64, LookupError> {
    let combo = tables.get::<dice_tables_reader::combo::Combo>()?;
    Ok(match q.dice {
        None => combo.game_start_value()?,
        Some(dice) => combo.value(dice, q.rerolls.unwrap_or(combo.rerolls()))?,
    })
}

pub(super) fn combo(tables: &Tables, q: &ComboQuery) -> Answer {
    let combo = tables.get::<dice_tables_reader::combo::Combo>()?;
    let Some(dice) = q.dice else { return Ok(start("combo", combo.game_start_value()?)) };
    let rerolls = q.rerolls.unwrap_or(combo.rerolls());
    let ev = combo.value(dice, rerolls)?;
    let best = combo.best_keep(dice, rerolls)?;
    let options = combo.options(dice, rerolls)?;
    let options = options.iter().map(|o| Json::object(vec![("action", keep(o.keep)), ("ev", Json::Num(o.ev))]));
    Ok(Json::object(vec![
        ("game", text("combo")),
        ("ev", Json::Num(ev)),
        ("best", keep(best)),
        ("options", Json::List(options.collect())),
    ]))
}

/// A threes chance to 10 significant digits: the table stores chances as
/// f32, about 7 digits from the nearer of 0 and 1.
fn rounded(v: f64) -> f64 {
    format!("{v:.9e}").parse().unwrap_or(v)
}

pub(super) fn threes(tables: &Tables, q: &ThreesQuery) -> Answer {
    let expected = q.expected;
    let threes = tables.get::<Threes>()?;
    let s = dice_tables_reader::threes::Situation {
        ties: q.ties.unwrap_or(Ties::Win),
        model: q.model.unwrap_or(Model::Sequential),
        record: q.record,
        points: q.points,
        after: q.after.unwrap_or(0),
    };
    // Chances are stored to about 7 digits; expected totals are exact.
    let v = |v: f64| if expected { value(false, v) } else { value(true, rounded(v)) };
    let game = ("game", text("threes"));
    let Some(d) = q.dice else {
        let Some(n) = q.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
        let headline = if expected { threes.expected(s.points, n)? } else { threes.chance(s, n)? };
        return Ok(Json::object(vec![game, v(headline)]));
    };
    let (list, best): (Vec<(dice_tables_reader::threes::Keep, f64)>, usize) = if expected {
        let o = threes.expected_options(s.points, d)?;
        (o.iter().map(|o| (o.keep, o.expected_total)).collect(), o.best_index().unwrap_or(0))
    } else {
        let o = threes.options(s, d)?;
        (o.iter().map(|o| (o.keep, o.chance)).collect(), o.best_index().unwrap_or(0))
    };
    // Every throw can keep a die; an empty list would be a library bug, said in words.
    let Some(&(best_keep, best_value)) = list.get(best) else {
        return Err(LookupError::NoChoice { throw: d.to_string() });
    };
    let options = list.iter().map(|(k, x)| Json::object(vec![("keep", text(k)), v(*x)]));
    Ok(Json::object(vec![
        game,
        v(best_value),
        ("best", Json::object(vec![("keep", text(best_keep))])),
        ("options", Json::List(options.collect())),
    ]))
}

fn then_name(t: Then) -> &'static str {
    match t {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

/// A 10000 keep and what follows it, as every 10000 lookup answers it.
fn keep_fields(keep: Dice, points: u32, dice_left: u8, then: Then) -> Vec<(&'static str, Json)> {
    vec![
        ("keep", text(keep)),
        ("points", Json::Int(points.into())),
        ("dice_left", Json::Int(dice_left.into())),
        ("then", text(then_name(then))),
    ]
}

/// `{"bust":true,"options":[]}` after the fields before them.
fn bust(mut fields: Vec<(&'static str, Json)>) -> Json {
    fields.extend([("bust", Json::Bool(true)), ("options", Json::List(vec![]))]);
    Json::object(fields)
}

pub(super) fn tenk(tables: &Tables, q: &TenkQuery) -> Answer {
    let tenk = tables.get::<Tenk>()?;
    // Opening: a chance of reaching 1000; on the board: expected points.
    let (score, opening) = (q.score, q.opening);
    let game = ("game", text("tenk"));
    let Some(throw) = q.dice else {
        let Some(n) = q.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
        let (v, throw_value, bank) = if opening {
            let p = tenk.reach(n, score)?;
            (p, p, false)
        } else {
            (tenk.value(n, score)?, tenk.turn_value(n, score)?, tenk.should_bank(n, score)?)
        };
        return Ok(Json::object(vec![
            game,
            value(opening, v),
            ("throw", Json::Num(throw_value)),
            ("bank", Json::Bool(bank)),
        ]));
    };
    let phase = if opening { Phase::Opening } else { Phase::OnBoard };
    let options = tenk.options(throw, score, phase)?;
    let Some(best) = options.best() else { return Ok(bust(vec![game, value(opening, 0.0)])) };
    let fields = |o: &TenkOption| keep_fields(o.keep, o.points, o.dice_left, o.then);
    let list = options.best_first(|o| o.value).into_iter().map(|o| {
        let mut f = fields(o);
        f.push(value(opening, o.value));
        Json::object(f)
    });
    Ok(Json::object(vec![
        game,
        value(opening, best.value),
        ("best", Json::object(fields(best))),
        ("options", Json::List(list.collect())),
    ]))
}

pub(super) fn sheet<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    sheet_answer::<G>(tables, q).map(reading::<G>)
}

fn sheet_answer<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let state = sheet.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let Some(dice) = q.dice else { return Ok(start(G::ID, sheet.turn_start_value(state)?)) };
    let options = sheet.options(state, dice, q.rerolls.unwrap_or(2))?;
    let ev = sheet.roll_value(state, &options)?;
    let action = sheet_action::<G>(sheet.yahtzee_bonus(state, dice));
    Ok(roll(G::ID, ev, options.iter().map(|o| (action(o.action, o.points), o.ev)).collect()))
}

/// A score-sheet action as the lookups write it: in yahtzee a category
/// carries its Yahtzee bonus (`bonus`, from the roll) apart, as a player writes it.
fn sheet_action<G: SheetGame>(bonus: u8) -> impl Fn(dice_tables_reader::sheet::Action, u8) -> Json {
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

#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn sheet_target<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    sheet_target_answer::<G>(tables, q).map(reading::<G>)
}

#[cfg(not(dice_tables_solitaire_only))]
fn sheet_target_answer<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let need = q.need.expect("a target lookup");
    let table = tables.get::<dice_tables_reader::sheet::SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let Some(dice) = q.dice else {
        let p = table.chance(state, need)?;
        return Ok(Json::object(vec![("game", text(G::ID)), ("need", Json::Int(need)), ("p", Json::Num(p))]));
    };
    let options = table.options(state, dice, q.rerolls.unwrap_or(2), need)?;
    let p = table.roll_chance(state, need, &options)?;
    let action = sheet_action::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    Ok(target_roll(G::ID, need, p, options.iter().map(|o| (action(o.action, o.points), o.p)).collect()))
}

#[cfg(dice_tables_solitaire_only)]
pub(super) fn sheet_versus<G: SheetGame>(_: &Tables, _: &SheetQuery) -> Answer {
    Err(NO_ADVISOR)
}

#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn sheet_versus<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    sheet_versus_answer::<G>(tables, q).map(reading::<G>)
}

/// Yatzy or yahtzee against an opponent, as the opponent-aware advisor
/// plays it (the target table): its estimate of the chance of winning
/// (ties half), not exact.
#[cfg(not(dice_tables_solitaire_only))]
fn sheet_versus_answer<G: SheetGame>(tables: &Tables, q: &SheetQuery) -> Answer {
    let opp_mask = q.opp_mask.expect("a two-player lookup");
    let table = tables.get::<dice_tables_reader::sheet::SheetTarget<G>>()?;
    let state = table.state(q.mask, q.upper_total(), q.yahtzee_bonus)?;
    let opponent_state = table.state(opp_mask, q.opp_upper_total(), q.opp_yahtzee_bonus)?;
    let lead = q.lead();
    let opponent = table.opponent(opponent_state, lead)?;
    let Some(dice) = q.dice else {
        return Ok(versus_start(G::ID, lead, table.versus_chance(state, &opponent)?, false));
    };
    let options = table.versus_options(state, dice, q.rerolls.unwrap_or(2), &opponent)?;
    let p = table.versus_roll_chance(state, &opponent, &options)?;
    let action = sheet_action::<G>(dice_tables_reader::sheet::yahtzee_bonus_of(state, dice));
    Ok(versus_roll(G::ID, lead, p, false, options.iter().map(|o| (action(o.action, o.points), o.p)).collect()))
}

pub(super) fn duel(tables: &Tables, q: &DuelQuery) -> Answer {
    match q.rules {
        DuelRules::Seed => duel_with(tables.get::<SeedDuel>()?, q),
        DuelRules::Cardgames => duel_with(tables.get::<CardgamesDuel>()?, q),
    }
}

fn duel_with<S: Scoring>(duel: &Duel<S>, q: &DuelQuery) -> Answer {
    let (me, opp, score) = (q.me, q.opp, q.score);
    let head = || vec![("game", text("duel")), ("rules", text(S::NAME))];
    if let Some(n) = q.remaining {
        let state = duel.before_throw(me, opp, n, score)?;
        let mut fields = head();
        fields.extend([
            ("p", Json::Num(state.p())),
            ("throw", Json::Num(state.throw)),
            ("bank", state.bank.map_or(Json::Null, Json::Num)),
            ("best", text(then_name(state.best))),
        ]);
        return Ok(Json::object(fields));
    }
    let Some(throw) = q.dice else {
        let mut fields = head();
        fields.push(("p", Json::Num(duel.win_chance(me, opp)?)));
        return Ok(Json::object(fields));
    };
    let options = duel.options(me, opp, throw, score)?;
    let Some(best) = options.best() else {
        let mut fields = head();
        fields.push(("p", Json::Num(duel.turn(me, opp)?.bust())));
        return Ok(bust(fields));
    };
    let fields = |o: &DuelOption| keep_fields(o.keep, o.points, o.dice_left, o.then);
    let list = options.best_first(|o| o.p).into_iter().map(|o| {
        let mut f = fields(o);
        f.push(("p", Json::Num(o.p)));
        Json::object(f)
    });
    let mut out = head();
    out.extend([
        ("p", Json::Num(best.p)),
        ("best", Json::object(fields(best))),
        ("options", Json::List(list.collect())),
    ]);
    Ok(Json::object(out))
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

#[cfg(dice_tables_solitaire_only)]
pub(super) fn maxi(_: &Tables, _: &MaxiQuery) -> Answer {
    Err(LookupError::NotInBuild { what: "Maxi Yatzy" })
}

#[cfg(not(dice_tables_solitaire_only))]
pub(super) fn maxi(tables: &Tables, q: &MaxiQuery) -> Answer {
    match q.rules {
        crate::queries::MaxiRules::Finnish => maxi_answer(tables.get::<dice_tables_reader::maxi::MaxiYatzy>()?, q),
        crate::queries::MaxiRules::Swedish => {
            maxi_answer(tables.get::<dice_tables_reader::maxi::MaxiYatzySwedish>()?, q)
        }
    }
}

#[cfg(not(dice_tables_solitaire_only))]
fn maxi_answer<P: dice_tables_reader::maxi::MaxiPreset>(
    table: &dice_tables_reader::maxi::Maxi<P>,
    q: &MaxiQuery,
) -> Answer {
    use dice_tables_reader::maxi::{MaxiAction, BOXES};
    let state = table.state(q.mask, q.upper.unwrap_or(0), q.saved.unwrap_or(0))?;
    let head = |ev: f64| {
        vec![("game", text("maxi-yatzy")), ("rules", text(maxi_rules_name(table.rules()))), ("ev", Json::Num(ev))]
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
