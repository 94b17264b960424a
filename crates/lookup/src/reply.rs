//! An answer held as its values, before it is written: as JSON for every
//! front end ([`Reply::json`]), or as text for people ([`Reply::text`],
//! `reader lookup` without `--json`). Both are written from the same
//! values, read from the tables once, so the two can never disagree.
//!
//! What the score-sheet games (yazy, yatzy, yahtzee, Maxi Yatzy) share is
//! [`SheetReply`]; each other game's reply is in its file under `games/`.

use crate::json::Json;
use crate::queries::ToMove;
#[cfg(feature = "text")]
use crate::text::{keep_text, rerolls_text, score_text};
use dice_tables_reader::Dice;

/// A game's answer, ready to be written.
pub(crate) trait Reply {
    /// The answer as JSON: what `reader lookup ... --json` prints.
    fn json(&self) -> Json;
    /// The answer as text for people, ending in a newline.
    #[cfg(feature = "text")]
    fn text(&self) -> String;
}

pub(crate) type Replied = Result<Box<dyn Reply>, crate::error::LookupError>;

/// A JSON string.
pub(crate) fn text(s: impl ToString) -> Json {
    Json::Str(s.to_string())
}

/// A value under the key that says what it is: `"p"` for a chance, `"ev"`
/// for an expected score or total.
pub(crate) fn value(chance: bool, v: f64) -> (&'static str, Json) {
    (if chance { "p" } else { "ev" }, Json::Num(v))
}

/// Lookups against an opponent in a build without them (the static site's
/// module, which plays alone: see the reader's registry).
#[cfg(feature = "solitaire-only")]
pub(crate) const NO_ADVISOR: crate::error::LookupError =
    crate::error::LookupError::NotInBuild { what: "the opponent-aware advisor (lookups with opp-mask)" };

/// Target lookups in a build without the target tables (the static site's).
#[cfg(feature = "solitaire-only")]
pub(crate) const NO_TARGET: crate::error::LookupError =
    crate::error::LookupError::NotInBuild { what: "playing to reach a target (lookups with need)" };

/// What a score-sheet answer's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "solitaire-only", allow(dead_code))]
pub(crate) enum Valued {
    /// Expected points still to come (`"ev"`).
    Points,
    /// The best chance of scoring at least this many more points (`"p"`).
    Reach(i64),
    /// Your chance of winning against an opponent, ties half (`"p"`), exact
    /// (the two-player table's) or the opponent-aware advisor's estimate
    /// (`"exact"` says which), on the turn of `to_move` (the options are
    /// that player's).
    Winning { exact: bool, to_move: ToMove },
}

/// One option of a roll: a keep, or a box scored for its points.
#[derive(Clone, Debug)]
pub(crate) enum Choice {
    /// Keep these dice and reroll the rest.
    Keep(Dice),
    /// Score the box `name` for `points`; in a game with Yahtzee bonuses
    /// (`bonus` given) the roll's bonus is said apart, as a player writes
    /// it, and so is a first-roll bonus (`first_roll`, where the rules
    /// have one and the roll earns it), and a box that wins a two-player
    /// game at once when so scored (`wins`: Generala's served generala).
    Score { name: std::borrow::Cow<'static, str>, points: u16, bonus: Option<u16>, first_roll: u16, wins: bool },
}

impl Choice {
    /// Scoring the box `name` for `points`, with the Yahtzee bonus said
    /// apart where the game has one.
    pub(crate) fn score(name: &'static str, points: u8, bonus: Option<u8>) -> Choice {
        Choice::Score {
            name: name.into(),
            points: points.into(),
            bonus: bonus.map(u16::from),
            first_roll: 0,
            wins: false,
        }
    }

    fn json(&self) -> Json {
        match self {
            Choice::Keep(d) => Json::object(vec![("keep", text(d))]),
            Choice::Score { name, points, bonus, first_roll, wins } => {
                let mut fields = vec![("category", text(name)), ("points", Json::Int((*points).into()))];
                if let Some(bonus) = bonus {
                    fields.push(("bonus", Json::Int((*bonus).into())));
                }
                if *first_roll > 0 {
                    fields.push(("first_roll", Json::Int((*first_roll).into())));
                }
                if *wins {
                    fields.push(("wins", Json::Bool(true)));
                }
                Json::object(fields)
            }
        }
    }

    #[cfg(feature = "text")]
    fn text(&self, dice: usize) -> String {
        let served = |first_roll: u16, wins: bool| {
            let bonus = if first_roll > 0 { format!(" + {first_roll} for the first roll") } else { String::new() };
            let wins = if wins { " (served: wins a two-player game at once)" } else { "" };
            format!("{bonus}{wins}")
        };
        match self {
            Choice::Keep(d) => keep_text(*d, dice),
            Choice::Score { name, points, bonus: Some(bonus), first_roll, wins } if *bonus > 0 => {
                format!("score {name} for {points} + {bonus} bonus points{}", served(*first_roll, *wins))
            }
            Choice::Score { name, points, first_roll, wins, .. } => {
                format!("{}{}", score_text(name, *points), served(*first_roll, *wins))
            }
        }
    }
}

/// A roll of a score-sheet game: the dice, the rerolls left and every
/// option with its value, best first (none when no box is open).
#[derive(Clone, Debug)]
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
pub(crate) struct SheetRoll {
    pub dice: Dice,
    pub rerolls: u8,
    pub options: Vec<(Choice, f64)>,
}

/// A score-sheet game's answer: before the roll, or a roll's options.
#[derive(Clone, Debug)]
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
pub(crate) struct SheetReply {
    /// The JSON fields before the value: the game, then what else the
    /// answer is of (the joker reading, the rules, the need or the lead).
    pub head: Vec<(&'static str, Json)>,
    /// The state for people: the text's first line (or lines).
    pub state: String,
    pub valued: Valued,
    /// The best value: of the roll, or before it.
    pub value: f64,
    /// `None` for the value before this turn's roll.
    pub roll: Option<SheetRoll>,
    /// The text's layout: how many dice the game rolls, the options'
    /// column width, and what the sheet calls a box.
    pub layout: Layout,
}

/// How a score-sheet game's text is laid out.
#[derive(Clone, Copy, Debug)]
// Some fields are read only by the text (not in builds without it).
#[cfg_attr(not(feature = "text"), allow(dead_code))]
pub(crate) struct Layout {
    pub dice: usize,
    pub width: usize,
    pub box_word: &'static str,
}

impl Reply for SheetReply {
    fn json(&self) -> Json {
        let mut fields = self.head.clone();
        fields.push((if self.valued == Valued::Points { "ev" } else { "p" }, Json::Num(self.value)));
        if let Valued::Winning { exact, .. } = self.valued {
            fields.push(("exact", Json::Bool(exact)));
        }
        if let Some(roll) = &self.roll {
            let key = if self.valued == Valued::Points { "ev" } else { "p" };
            let best = roll.options.first().map_or(Json::Null, |(c, _)| c.json());
            let options =
                roll.options.iter().map(|(c, v)| Json::object(vec![("action", c.json()), (key, Json::Num(*v))]));
            fields.push(("best", best));
            fields.push(("options", Json::List(options.collect())));
        }
        Json::object(fields)
    }

    #[cfg(feature = "text")]
    fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = format!("{}\n", self.state);
        let v = self.value;
        let opponents = matches!(self.valued, Valued::Winning { to_move: ToMove::Opponent, .. });
        let Some(roll) = &self.roll else {
            let before = if opponents { "the opponent's roll" } else { "this turn's roll" };
            let _ = writeln!(out, "{}, before {before}: {v:.7}", self.value_words());
            return out;
        };
        let whose = if opponents { "the opponent's turn: " } else { "" };
        let _ = writeln!(out, "{whose}dice {}, {}", roll.dice, rerolls_text(roll.rerolls));
        let digits = if self.valued == Valued::Points { 6 } else { 7 };
        let _ = writeln!(out, "{}: {v:.digits$}", self.value_words());
        let Some((best, _)) = roll.options.first() else {
            let _ = writeln!(out, "no {} is open: the game is over", self.layout.box_word);
            return out;
        };
        let Layout { dice, width, .. } = self.layout;
        let (best_word, actions) = if opponents {
            ("the opponent's best", "the opponent's actions, their best first")
        } else {
            ("best", "actions, best first")
        };
        let _ = writeln!(out, "{best_word}: {}", best.text(dice));
        let column = match self.valued {
            Valued::Points => "expected score still to come".to_string(),
            Valued::Reach(need) => format!("chance of at least {need} more"),
            Valued::Winning { exact: true, to_move: ToMove::Me } => "chance of winning".to_string(),
            Valued::Winning { exact: true, to_move: ToMove::Opponent } => "your chance of winning".to_string(),
            Valued::Winning { exact: false, .. } => "estimated chance of winning".to_string(),
        };
        let _ = writeln!(out, "{actions} ({column}):");
        for (i, (choice, v)) in roll.options.iter().enumerate() {
            let _ = match self.valued {
                Valued::Points => writeln!(out, "{:>3}. {:<width$} {:>11.6}", i + 1, choice.text(dice), v),
                _ => writeln!(out, "{:>3}. {:<width$} {:>9.7}", i + 1, choice.text(dice), v),
            };
        }
        out
    }
}

impl SheetReply {
    /// What the answer's value is, for people.
    #[cfg(feature = "text")]
    fn value_words(&self) -> String {
        match self.valued {
            Valued::Points => "expected score still to come".to_string(),
            Valued::Reach(need) => format!("best chance of scoring at least {need} more points"),
            Valued::Winning { exact: true, to_move: ToMove::Me } => "chance of winning (ties half)".to_string(),
            Valued::Winning { exact: true, to_move: ToMove::Opponent } => {
                "your chance of winning (ties half), the opponent playing their best".to_string()
            }
            Valued::Winning { exact: false, .. } => "chance of winning (ties half), the advisor's estimate".to_string(),
        }
    }
}
