//! Two-player 10000: the chance of winning, under the seed's rules
//! (`duel`) or a common online Farkle's (`duel-cardgames`).

use super::arguments::{for_people, Argument};
#[cfg(feature = "text")]
use super::tenk::write_keeps;
use super::tenk::{keeps_json, then_name, KeepRow};
use super::{GameQuery, GameTable, LookupInfo};
use crate::args::Args;
use crate::checks::check_throw;
use crate::error::LookupError;
use crate::json::Json;
use crate::parse::{parse_duel_rules, parse_score, parse_tenk_remaining, parse_tenk_throw, parse_to_move, parse_total};
use crate::queries::Query;
use crate::queries::{DuelQuery, DuelRules, ToMove};
use crate::reply::{text, Replied, Reply};
use crate::values::{read_values, section, StoredValues};
use dice_tables_reader::duel::{Cardgames, CardgamesDuel, Duel, DuelOption, Scoring, Seed, SeedDuel};
use dice_tables_reader::tenk::Then;
use dice_tables_reader::{Dice, Game, Tables};

/// The name under which a duel lookup reads the cardgames table: `duel`
/// with `rules` cardgames.
const CARDGAMES_DUEL: &str = CardgamesDuel::ID;

const ALIASES: [&str; 3] = super::joined(SeedDuel::ALIASES, &[CARDGAMES_DUEL]);

pub(super) const LOOKUP: LookupInfo = LookupInfo {
    game: SeedDuel::ID,
    aliases: &ALIASES,
    about: for_people("10000 against an opponent (aliases `10000-duel`, `tenk2`; `duel-cardgames` is `duel --rules cardgames`): the chance of winning of a throw's keeps, of throwing or banking, or at a turn's start."),
    arguments: &[
        Argument::required("me", "POINTS", "Your banked total, a multiple of 50 below the goal."),
        Argument::required("opp", "POINTS", "The opponent's banked total, a multiple of 50 below the goal."),
        Argument::optional(
            "to-move",
            "WHO",
            "Whose turn it is, `me` (default) or `opp`. The chance is always yours; on the opponent's turn the dice, turn score and keeps are theirs, their best first.",
        ),
        Argument::optional(
            "dice",
            "D",
            "The 1-6 dice just thrown, digits 1-6 (without it and --remaining: your chance at the start of the turn).",
        ),
        Argument::optional(
            "remaining",
            "N",
            "Dice about to be thrown, 1 to 6: the chance of winning if you throw and if you bank.",
        ),
        super::tenk::SCORE,
        Argument::optional(
            "rules",
            "R",
            "The rules: `seed` (default; the seed's scoring, entry 1000: duel.dtab) or `cardgames` (a common online Farkle's scoring, no entry: duel-cardgames.dtab).",
        ),
    ],
    tables: &[
        GameTable { id: SeedDuel::ID, rules: Some(Seed::NAME), values: read_values(values::<Seed>) },
        GameTable { id: CardgamesDuel::ID, rules: Some(Cardgames::NAME), values: read_values(values::<Cardgames>) },
    ],
    categories: &[],
    parse,
    curve: None,
    #[cfg(not(feature = "solitaire-only"))]
    review: Some(super::ReviewTables::Tenk(|tables, name| match name {
        CARDGAMES_DUEL => Some(tables.get::<CardgamesDuel>().map(|d| Box::new(d) as super::OpenTenk<'_>).map_err(Into::into)),
        _ if name == SeedDuel::ID || SeedDuel::ALIASES.contains(&name) => {
            Some(tables.get::<SeedDuel>().map(|d| Box::new(d) as super::OpenTenk<'_>).map_err(Into::into))
        }
        _ => None,
    })),
    #[cfg(feature = "solitaire-only")]
    review: None,
};

/// Two-player 10000 as a review reads it: each turn in its mover's chance
/// of winning, solved once.
#[cfg(not(feature = "solitaire-only"))]
impl<S: Scoring> crate::review::tenk::TenkValues for &Duel<S> {
    fn measure(&self) -> crate::review::Measure {
        crate::review::Measure::Win
    }

    fn goal(&self) -> Option<(u32, u32)> {
        Some((self.params().goal, self.params().entry))
    }

    fn turn<'s>(&'s self, me: u32, opp: u32) -> Result<Box<dyn crate::review::tenk::TenkTurn + 's>, LookupError> {
        let turn = Duel::turn(self, me, opp)?;
        // The turn's start as the table stores it: what the opponent's
        // last bank or bust left them is exactly 1 less it.
        let start = self.win_chance(me, opp)?;
        Ok(Box::new(DuelReviewTurn { turn, start }))
    }
}

#[cfg(not(feature = "solitaire-only"))]
struct DuelReviewTurn<'a, S: Scoring> {
    turn: dice_tables_reader::duel::DuelTurn<'a, S>,
    start: f64,
}

#[cfg(not(feature = "solitaire-only"))]
impl<S: Scoring> crate::review::tenk::TenkTurn for DuelReviewTurn<'_, S> {
    fn start(&self) -> f64 {
        self.start
    }

    fn bust(&self) -> f64 {
        self.turn.bust()
    }

    fn keeps(&self, throw: Dice, score: u32) -> Result<Vec<crate::review::tenk::TenkKeep>, LookupError> {
        let options = self.turn.options(throw, score)?;
        options
            .iter()
            .map(|o| {
                let after = score + o.points;
                let (keep, points, dice_left) = (o.keep, o.points, o.dice_left);
                let (bank, throw) = (self.turn.bank(after), Some(self.turn.before_throw(dice_left, after)?.throw));
                Ok(crate::review::tenk::TenkKeep { keep, points, dice_left, bank, throw })
            })
            .collect()
    }
}

/// The chance of winning at the start of a turn, every pair of totals.
fn values<S: Scoring>(tables: &Tables) -> Result<StoredValues<'_>, LookupError> {
    section::<Duel<S>>(tables, &dice_tables_reader::duel::WIN, vec!["me", "opp"])
}

fn parse(named: &str, a: &Args<'_>) -> Result<Query, LookupError> {
    Ok(Query::Duel(DuelQuery {
        me: a.required_with("me", &[], parse_total)?,
        opp: a.required_with("opp", &[], parse_total)?,
        to_move: a.value("to-move", parse_to_move)?.unwrap_or(ToMove::Me),
        dice: a.value("dice", parse_tenk_throw)?,
        remaining: a.value("remaining", parse_tenk_remaining)?,
        score: a.value("score", parse_score)?.unwrap_or(0),
        rules: match (named, a.value("rules", parse_duel_rules)?) {
            (CARDGAMES_DUEL, Some(DuelRules::Seed)) => return Err(LookupError::SeedRulesForCardgames),
            (CARDGAMES_DUEL, _) => DuelRules::Cardgames,
            (_, rules) => rules.unwrap_or(DuelRules::Seed),
        },
    }))
}

impl GameQuery for DuelQuery {
    fn lookup(&self) -> &'static LookupInfo {
        &LOOKUP
    }

    fn table(&self) -> std::borrow::Cow<'static, str> {
        match self.rules {
            DuelRules::Seed => SeedDuel::ID,
            DuelRules::Cardgames => CardgamesDuel::ID,
        }
        .into()
    }

    /// At most one of a throw and the dice to throw, and points scored
    /// this turn only with one of them.
    fn check(&self) -> Result<(), LookupError> {
        check_throw(self.dice, self.remaining, true)?;
        if self.dice.is_none() && self.remaining.is_none() && self.score != 0 {
            return Err(LookupError::ScoreWithoutThrow { score: self.score });
        }
        Ok(())
    }

    fn reply(&self, tables: &Tables) -> Replied {
        match self.rules {
            DuelRules::Seed => reply(tables.get::<SeedDuel>()?, self),
            DuelRules::Cardgames => reply(tables.get::<CardgamesDuel>()?, self),
        }
    }
}

fn reply<S: Scoring>(duel: &Duel<S>, q: &DuelQuery) -> Replied {
    let score = q.score;
    // The table holds the chance of the player to move: on the opponent's
    // turn that is theirs, and yours is the rest.
    let (mover, other) = match q.to_move {
        ToMove::Me => (q.me, q.opp),
        ToMove::Opponent => (q.opp, q.me),
    };
    let yours = |p: f64| if q.to_move == ToMove::Me { p } else { 1.0 - p };
    let at = if let Some(n) = q.remaining {
        let state = duel.before_throw(mover, other, n, score)?;
        At::BeforeThrow {
            dice: n,
            p: yours(state.p()),
            throw: yours(state.throw),
            bank: state.bank.map(yours),
            best: state.best,
        }
    } else if let Some(throw) = q.dice {
        let options = duel.options(mover, other, throw, score)?;
        let rows: Vec<KeepRow> =
            options.best_first(|o| o.p).into_iter().map(|o| KeepRow { value: yours(o.p), ..row(o) }).collect();
        // A bust passes the turn with nothing banked.
        let bust = if rows.is_empty() { yours(duel.turn(mover, other)?.bust()) } else { 0.0 };
        At::Throw { throw, rows, bust }
    } else {
        At::TurnStart { p: yours(duel.win_chance(mover, other)?) }
    };
    let params = duel.params();
    let (me, opp, to_move) = (q.me, q.opp, q.to_move);
    Ok(Box::new(DuelReply { rules: S::NAME, entry: params.entry, goal: params.goal, me, opp, to_move, score, at }))
}

fn row(o: &DuelOption) -> KeepRow {
    KeepRow { keep: o.keep, points: o.points, dice_left: o.dice_left, then: o.then, value: o.p }
}

/// A two-player 10000 answer: your chance of winning, on your turn or the
/// opponent's (whose throw, turn score and keeps it then is).
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
struct DuelReply {
    rules: &'static str,
    entry: u32,
    goal: u32,
    me: u32,
    opp: u32,
    to_move: ToMove,
    score: u32,
    at: At,
}

// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
enum At {
    /// The turn's start.
    TurnStart { p: f64 },
    /// Before a throw of `dice` dice: the chance if throwing, if banking
    /// (`None` where banking is not allowed) and the better.
    BeforeThrow { dice: u8, p: f64, throw: f64, bank: Option<f64>, best: Then },
    /// A throw's keeps, best first; none is a bust, whose chance is `bust`.
    Throw { throw: Dice, rows: Vec<KeepRow>, bust: f64 },
}

impl Reply for DuelReply {
    fn json(&self) -> Json {
        let mut head =
            vec![("game", text(SeedDuel::ID)), ("rules", text(self.rules)), ("to_move", text(self.to_move.name()))];
        match &self.at {
            At::TurnStart { p } => {
                head.push(("p", Json::Num(*p)));
                Json::object(head)
            }
            At::BeforeThrow { p, throw, bank, best, .. } => {
                head.extend([
                    ("p", Json::Num(*p)),
                    ("throw", Json::Num(*throw)),
                    ("bank", bank.map_or(Json::Null, Json::Num)),
                    ("best", text(then_name(*best))),
                ]);
                Json::object(head)
            }
            At::Throw { rows, bust, .. } => keeps_json(head, "p", *bust, rows),
        }
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        use crate::text::percent;
        use std::fmt::Write as _;
        let (me, opp, score) = (self.me, self.opp, self.score);
        let entry = if self.entry > 0 { format!("entry {}", self.entry) } else { "no entry".to_string() };
        let mut out =
            format!("10000 duel ({} rules, {entry}, goal {}): you {me}, opponent {opp}", self.rules, self.goal);
        // Your turn's lines say whose only where it starts.
        let (whose, theirs, best_word) = match self.to_move {
            ToMove::Me => ("your", "", "best"),
            ToMove::Opponent => ("the opponent's", "the opponent's ", "the opponent's best"),
        };
        match &self.at {
            At::TurnStart { p } => {
                let _ = writeln!(out, ", {whose} turn starts");
                let _ = writeln!(out, "you win {}", percent(*p));
            }
            At::BeforeThrow { dice: n, p, throw, bank, best } => {
                let dice = if *n == 1 { "die" } else { "dice" };
                let _ = writeln!(out, ", {theirs}turn score {score}, {n} {dice} to throw");
                let bank = match bank {
                    Some(b) => percent(*b),
                    None if score == 0 => "not allowed (nothing in the turn)".to_string(),
                    None => format!("not allowed (below the entry of {})", self.entry),
                };
                let _ = writeln!(out, "{best_word}: {}, you win {}", then_name(*best), percent(*p));
                let _ = writeln!(out, "  throw: {}", percent(*throw));
                let _ = writeln!(out, "  bank:  {bank}");
            }
            At::Throw { throw, rows, bust } => {
                let _ = writeln!(out, ", {theirs}throw {throw} at turn score {score}");
                match rows.first() {
                    None => {
                        let _ = writeln!(
                            out,
                            "bust: nothing scores, the turn passes with {score} lost; you win {}",
                            percent(*bust)
                        );
                    }
                    Some(best) => {
                        let best_value = format!("you win {}", percent(best.value));
                        write_keeps(&mut out, rows, (best_word, &best_value), percent);
                    }
                }
            }
        }
        out
    }
}
