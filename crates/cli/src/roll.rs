//! What the five-dice keep/reroll games (yazy, combo) share on the command
//! line: the dice and rerolls arguments, and how a keep is shown.

use std::fmt::Write as _;

use clap::Args;
use dice_tables_lookup::parse::{parse_five_dice, parse_rerolls};
use dice_tables_reader::Dice;

/// The dice showing and the rerolls left.
#[derive(Args, Clone, Copy, Debug)]
pub struct Roll {
    /// The five dice showing, digits 1-6 in any order, spaces or commas
    /// between them allowed (without it: the value before the roll).
    #[arg(long, value_name = "D", value_parser = parse_five_dice, allow_hyphen_values = true)]
    pub dice: Option<Dice>,
    /// Rerolls left after this roll: 0 to 2 (0 to 5 for combo with the default rules; default: all of them).
    #[arg(long, value_name = "R", value_parser = parse_rerolls, allow_hyphen_values = true)]
    pub rerolls: Option<u8>,
}

/// A keep for people.
pub fn keep_text(keep: Dice) -> String {
    match keep.len() {
        5 => format!("keep {keep} (reroll none)"),
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
    pub text: String,
    pub ev: f64,
}

/// The text answer for a roll of a score-sheet game (yazy, yatzy,
/// yahtzee) worth `ev`: under the state's first line, the options best
/// first in a column `width` wide. `ev` and each option's value are what
/// `value` says: expected points, the best chance of reaching a target, or
/// the chance of winning.
pub struct RollAnswer<'a> {
    pub state_line: &'a str,
    pub dice: Dice,
    pub rerolls: u8,
    pub ev: f64,
    pub width: usize,
    pub value: Valued,
}

/// What a roll's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valued {
    /// Expected points still to come.
    Points,
    /// The best chance of scoring at least this many more points.
    Reach(i64),
    /// The chance of winning against an opponent, ties half.
    Winning,
    /// The opponent-aware advisor's estimate of the chance of winning,
    /// ties half.
    Estimate,
}

impl RollAnswer<'_> {
    /// The answer with these options, best first (none when no category is open).
    pub fn render(&self, options: Vec<OptionRow>) -> String {
        let (ev, width) = (self.ev, self.width);
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.state_line);
        let _ = writeln!(out, "dice {}, {}", self.dice, rerolls_text(self.rerolls));
        match self.value {
            Valued::Points => writeln!(out, "expected score still to come: {ev:.6}"),
            Valued::Reach(need) => writeln!(out, "best chance of scoring at least {need} more points: {ev:.7}"),
            Valued::Winning => writeln!(out, "chance of winning (ties half): {ev:.7}"),
            Valued::Estimate => writeln!(out, "chance of winning (ties half), the advisor's estimate: {ev:.7}"),
        }
        .expect("writing to a String");
        match options.first() {
            None => {
                let _ = writeln!(out, "no category is open: the game is over");
            }
            Some(best) => {
                let _ = writeln!(out, "best: {}", best.text);
                match self.value {
                    Valued::Points => writeln!(out, "actions, best first (expected score still to come):"),
                    Valued::Reach(need) => writeln!(out, "actions, best first (chance of at least {need} more):"),
                    Valued::Winning => writeln!(out, "actions, best first (chance of winning):"),
                    Valued::Estimate => writeln!(out, "actions, best first (estimated chance of winning):"),
                }
                .expect("writing to a String");
                for (i, o) in options.iter().enumerate() {
                    match self.value {
                        Valued::Points => writeln!(out, "{:>3}. {:<width$} {:>11.6}", i + 1, o.text, o.ev),
                        _ => writeln!(out, "{:>3}. {:<width$} {:>9.7}", i + 1, o.text, o.ev),
                    }
                    .expect("writing to a String");
                }
            }
        }
        out
    }
}
