//! 10000 alone: expected banked points, or the chance of reaching 1000
//! (`opening`).

use super::arguments::{for_people, Argument};
use super::{GameQuery, GameTable, LookupInfo};
use crate::values::{read_values, section, StoredValues};

/// The turn score so far, as every 10000 lookup takes it.
pub(super) const SCORE: Argument =
    Argument::optional("score", "S", "The turn score so far (before this throw), a multiple of 50 (default: 0).");
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_score, parse_tenk_remaining, parse_tenk_throw};
use crate::queries::Query;
use crate::queries::TenkQuery;
use crate::reply::{text, value, Replied, Reply};
use dice_tables_reader::tenk::{Phase, Tenk, TenkOption, Then};
use dice_tables_reader::{Dice, Game, Tables};

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: Tenk::ID,
    aliases: Tenk::ALIASES,
    about: for_people("10000 (alias `10000`): expected banked points, or the chance of reaching 1000 with --opening. One of --dice and --remaining is needed."),
    arguments: &[
        Argument::optional("dice", "D", "The 1-6 dice just thrown, digits 1-6."),
        Argument::optional("remaining", "N", "Dice about to be thrown, 1 to 6."),
        SCORE,
        Argument::flag("opening", "Not yet on the board: maximise the chance of reaching 1000 this turn."),
    ],
    tables: &[GameTable { id: Tenk::ID, rules: None, values: read_values(values) }],
    categories: &[],
    parse,
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Tenk(|tables, name| {
        (name == Tenk::ID || Tenk::ALIASES.contains(&name)).then(|| {
            let tenk = tables.get::<Tenk>()?;
            Ok(Box::new(TenkAlone(tenk)) as super::OpenTenk<'_>)
        })
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// 10000 alone as a review reads it: each turn in expected banked points,
/// the table's play on the board.
#[cfg(not(feature = "solitaire-only"))]
struct TenkAlone<'a>(&'a Tenk);

#[cfg(not(feature = "solitaire-only"))]
impl crate::review::tenk::TenkValues for TenkAlone<'_> {
    fn measure(&self) -> crate::review::Measure {
        crate::review::Measure::Points
    }

    fn goal(&self) -> Option<(u32, u32)> {
        None
    }

    fn turn<'s>(&'s self, _: u32, _: u32) -> Result<Box<dyn crate::review::tenk::TenkTurn + 's>, LookupError> {
        Ok(Box::new(TenkAloneTurn { tenk: self.0, start: self.0.turn_value(6, 0)? }))
    }
}

/// A turn of 10000 alone: banking is worth the turn score, a bust nothing.
#[cfg(not(feature = "solitaire-only"))]
struct TenkAloneTurn<'a> {
    tenk: &'a Tenk,
    start: f64,
}

#[cfg(not(feature = "solitaire-only"))]
impl crate::review::tenk::TenkTurn for TenkAloneTurn<'_> {
    fn start(&self) -> f64 {
        self.start
    }

    fn bust(&self) -> f64 {
        0.0
    }

    fn keeps(&self, throw: Dice, score: u32) -> Result<Vec<crate::review::tenk::TenkKeep>, LookupError> {
        let options = self.tenk.options(throw, score, Phase::OnBoard)?;
        options
            .iter()
            .map(|o| {
                let after = score + o.points;
                // Past the table's turn scores its play banks.
                let throw = match after <= dice_tables_reader::tenk::MAX_SCORE {
                    true => Some(self.tenk.turn_value(o.dice_left, after)?),
                    false => None,
                };
                let (keep, points, dice_left, bank) = (o.keep, o.points, o.dice_left, Some(f64::from(after)));
                Ok(crate::review::tenk::TenkKeep { keep, points, dice_left, bank, throw })
            })
            .collect()
    }
}

/// The value of a turn's state: dice about to be thrown, turn score.
fn values(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    section::<Tenk>(tables, &dice_tables_reader::tenk::TURN_VALUE, vec!["dice", "score"])
}

fn parse(_: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Tenk(TenkQuery {
        dice: a.value("dice", parse_tenk_throw)?,
        remaining: a.value("remaining", parse_tenk_remaining)?,
        score: a.value("score", parse_score)?.unwrap_or(0),
        opening: a.flag("opening")?,
    }))
}

pub(super) fn then_name(t: Then) -> &'static str {
    match t {
        Then::Bank => "bank",
        Then::Throw => "throw",
    }
}

/// A 10000 keep, what follows it and its value (expected points, or a
/// chance), as every 10000 answer lists it (two-player 10000's too).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeepRow {
    pub keep: Dice,
    pub points: u32,
    pub dice_left: u8,
    pub then: Then,
    pub value: f64,
}

impl KeepRow {
    /// The keep's JSON fields, its value under `key` (`"ev"` or `"p"`).
    fn fields(&self) -> Vec<(&'static str, Json)> {
        vec![
            ("keep", text(self.keep)),
            ("points", Json::Int(self.points.into())),
            ("dice_left", Json::Int(self.dice_left.into())),
            ("then", text(then_name(self.then))),
        ]
    }
}

/// A throw's keeps after the answer's `head`: the best's value under
/// `key`, the best keep and every keep, best first (`rows` is not empty);
/// a bust (no keeps) is `{"bust":true,"options":[]}` after the head and
/// its value.
pub(super) fn keeps_json(
    mut head: Vec<(&'static str, Json)>,
    key: &'static str,
    bust_value: f64,
    rows: &[KeepRow],
) -> Json {
    let Some(best) = rows.first() else {
        head.extend([(key, Json::Num(bust_value)), ("bust", Json::Bool(true)), ("options", Json::List(vec![]))]);
        return Json::object(head);
    };
    let list = rows.iter().map(|r| {
        let mut f = r.fields();
        f.push((key, Json::Num(r.value)));
        Json::object(f)
    });
    head.extend([
        (key, Json::Num(best.value)),
        ("best", Json::object(best.fields())),
        ("options", Json::List(list.collect())),
    ]);
    Json::object(head)
}

/// The best keep's line (`best` names whose best it is, and its value is
/// `best_value`) and a row for every keep, each value as `show` writes it
/// (`rows` is not empty).
#[cfg(feature = "text")]
pub(super) fn write_keeps(
    out: &mut String,
    rows: &[KeepRow],
    (best_word, best_value): (&str, &str),
    show: impl Fn(f64) -> String,
) {
    use crate::text::dice_left_text;
    use std::fmt::Write as _;
    let best = &rows[0];
    let _ = writeln!(
        out,
        "{best_word}: keep {} for {} points, then {} ({}): {best_value}",
        best.keep,
        best.points,
        then_name(best.then),
        dice_left_text(best.dice_left)
    );
    let _ = writeln!(out, "keeps:");
    for (i, r) in rows.iter().enumerate() {
        let mark = if i == 0 { "  <- best" } else { "" };
        let _ = writeln!(
            out,
            "  keep {:<7} {:>5} points, {:<12} then {:<5} {:>12}{mark}",
            r.keep.to_string(),
            r.points,
            format!("{},", dice_left_text(r.dice_left)),
            then_name(r.then),
            show(r.value)
        );
    }
}

impl GameQuery for TenkQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        (Tenk::ID).into()
    }

    fn check(&self) -> Result<(), LookupError> {
        check_throw(self.dice, self.remaining, false)
    }

    fn reply(&self, tables: &Tables) -> Replied {
        let tenk = tables.get::<Tenk>()?;
        let (score, opening) = (self.score, self.opening);
        let Some(throw) = self.dice else {
            let Some(n) = self.remaining else { return Err(LookupError::ThrowOrRemaining { both: false }) };
            let before = if opening {
                let p = tenk.reach(n, score)?;
                Before { dice: n, value: p, throw_value: p, bank: false, bank_from: None }
            } else {
                Before {
                    dice: n,
                    value: tenk.value(n, score)?,
                    throw_value: tenk.turn_value(n, score)?,
                    bank: tenk.should_bank(n, score)?,
                    bank_from: tenk.bank_threshold(n),
                }
            };
            return Ok(Box::new(TenkReply { score, opening, at: Err(before) }));
        };
        let phase = if opening { Phase::Opening } else { Phase::OnBoard };
        let options = tenk.options(throw, score, phase)?;
        let rows = options.best_first(|o| o.value).into_iter().map(row).collect();
        Ok(Box::new(TenkReply { score, opening, at: Ok((throw, rows)) }))
    }
}

fn row(o: &TenkOption) -> KeepRow {
    KeepRow { keep: o.keep, points: o.points, dice_left: o.dice_left, then: o.then, value: o.value }
}

/// A 10000 answer alone: expected banked points, or in the opening the
/// chance of reaching 1000 this turn.
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct TenkReply {
    score: u32,
    opening: bool,
    /// A throw and its keeps, best first (none: a bust); or the moment
    /// before a throw.
    at: Result<(Dice, Vec<KeepRow>), Before>,
}

/// Before a throw of `dice` dice: its value, throwing's, whether to bank
/// and from which turn score banking is best with that many dice.
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct Before {
    dice: u8,
    value: f64,
    throw_value: f64,
    bank: bool,
    bank_from: Option<u32>,
}

impl Reply for TenkReply {
    fn json(&self) -> Json {
        let game = ("game", text(Tenk::ID));
        let key = value(self.opening, 0.0).0;
        match &self.at {
            Err(b) => Json::object(vec![
                game,
                value(self.opening, b.value),
                ("throw", Json::Num(b.throw_value)),
                ("bank", Json::Bool(b.bank)),
            ]),
            Ok((_, rows)) => keeps_json(vec![game], key, 0.0, rows),
        }
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        use crate::text::percent;
        use std::fmt::Write as _;
        let (score, opening) = (self.score, self.opening);
        // Opening: a chance of reaching 1000; on the board: expected points.
        let show = |v: f64| if opening { percent(v) } else { format!("{v:.4}") };
        let phase = if opening {
            "opening (chance of reaching 1000 this turn)"
        } else {
            "on the board (expected banked points)"
        };
        let mut out = String::new();
        let (throw, rows) = match &self.at {
            Err(b) => {
                let n = b.dice;
                let dice = if n == 1 { "die" } else { "dice" };
                let _ = writeln!(out, "10000, {phase}: turn score {score}, {n} {dice} to throw");
                if opening {
                    let _ = writeln!(out, "best: throw, {} (banking is not allowed below 1000)", show(b.value));
                } else {
                    let threshold = b.bank_from.map_or(String::new(), |t| format!("; with {n} {dice}, bank from {t}"));
                    let (best, other) = if b.bank {
                        ("bank", format!("throwing is worth {}", show(b.throw_value)))
                    } else {
                        ("throw", format!("banking is worth {score}"))
                    };
                    let _ = writeln!(out, "best: {best}, worth {} ({other}{threshold})", show(b.value));
                }
                return out;
            }
            Ok(at) => at,
        };
        let _ = writeln!(out, "10000, {phase}: throw {throw} at turn score {score}");
        let Some(best) = rows.first() else {
            let _ = writeln!(out, "bust: nothing scores, the turn score of {score} is lost");
            return out;
        };
        write_keeps(&mut out, rows, ("best", &show(best.value)), show);
        out
    }
}
