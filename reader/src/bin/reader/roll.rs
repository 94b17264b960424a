//! What the five-dice keep/reroll games (yazy, combo) share on the command
//! line: the dice and rerolls arguments, and how a keep is shown.

use clap::Args;
use dice_tables_reader::Dice;
use serde::Serialize;

use crate::args::{parse_five_dice, parse_rerolls};
use std::fmt::Write as _;

use crate::output::{json_line, Num};

/// The dice showing and the rerolls left.
#[derive(Args, Debug)]
pub struct Roll {
    /// The five dice showing, digits 1-6 in any order (without it: the value
    /// before the roll: the turn start in yazy, the game start in combo).
    #[arg(long, value_name = "D", value_parser = parse_five_dice, allow_hyphen_values = true)]
    pub dice: Option<Dice>,
    /// Rerolls left: 0 to 2 for yazy, 0 to 5 for combo with the default rules (default: all of them).
    #[arg(long, value_name = "R", requires = "dice", value_parser = parse_rerolls, allow_hyphen_values = true)]
    pub rerolls: Option<u8>,
}

/// An action in JSON: `{"keep":"1245"}` or `{"category":"full-house"}`.
#[derive(Serialize, Debug, Clone)]
#[serde(rename_all = "lowercase")]
pub enum ActionJson {
    Keep(String),
    Category(&'static str),
}

/// A yazy or combo state in JSON: its value, the best action (`null` when
/// a yazy game is over) and every option, best first.
#[derive(Serialize, Debug)]
pub struct StateJson {
    pub game: &'static str,
    pub ev: Num,
    pub best: Option<ActionJson>,
    pub options: Vec<OptionJson>,
}

/// One option of a yazy or combo decision in JSON.
#[derive(Serialize, Debug)]
pub struct OptionJson {
    pub action: ActionJson,
    pub ev: Num,
}

/// A keep for people.
pub fn keep_text(keep: Dice) -> String {
    match keep.len() {
        5 => format!("keep {keep} (stop rerolling)"),
        0 => "reroll all five".to_string(),
        n => format!("keep {keep}, reroll {}", 5 - n),
    }
}

/// "s" for any number of rerolls but one.
pub fn rerolls_text(rerolls: u8) -> String {
    format!("{rerolls} reroll{} left", crate::output::plural(rerolls))
}

/// One option of a yazy, yatzy or yahtzee roll, ready to print.
pub struct OptionRow {
    pub json: ActionJson,
    pub text: String,
    pub ev: f64,
}

/// The answer for a roll of a score-sheet game (yazy, yatzy, yahtzee)
/// worth `ev`: JSON, or text under the state's first line with the options
/// best first in a column `width` wide.
pub struct RollAnswer<'a> {
    pub game: &'static str,
    pub state_line: &'a str,
    pub dice: Dice,
    pub rerolls: u8,
    pub ev: f64,
    pub width: usize,
}

impl RollAnswer<'_> {
    /// The answer with these options, best first (none when no category is open).
    pub fn render(&self, options: Vec<OptionRow>, json: bool) -> String {
        let (ev, width) = (self.ev, self.width);
        if json {
            let best = options.first().map(|o| o.json.clone());
            let options = options.into_iter().map(|o| OptionJson { action: o.json, ev: Num(o.ev) }).collect();
            return json_line(&StateJson { game: self.game, ev: Num(ev), best, options });
        }
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.state_line);
        let _ = writeln!(out, "dice {}, {}", self.dice, rerolls_text(self.rerolls));
        let _ = writeln!(out, "expected score still to come: {ev:.6}");
        match options.first() {
            None => {
                let _ = writeln!(out, "no category is open: the game is over");
            }
            Some(best) => {
                let _ = writeln!(out, "best: {}", best.text);
                let _ = writeln!(out, "actions, best first (expected score still to come):");
                for (i, o) in options.iter().enumerate() {
                    let _ = writeln!(out, "{:>3}. {:<width$} {:>11.6}", i + 1, o.text, o.ev);
                }
            }
        }
        out
    }
}
