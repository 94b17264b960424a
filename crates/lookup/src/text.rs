//! The pieces every game's text answer is made of: keeps, boxes scored,
//! rerolls and dice left, percentages, plurals.

use dice_tables_reader::Dice;

/// A chance as a percentage for people.
pub(crate) fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct < 1e-4 {
        format!("{pct:.3e} %")
    } else {
        format!("{pct:.6} %")
    }
}

/// "s" unless there is one.
pub(crate) fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// Keeping `keep` of a roll of `dice` dice, for people.
pub(crate) fn keep_text(keep: Dice, dice: usize) -> String {
    match keep.len() {
        0 => format!("reroll all {}", ["", "one", "two", "three", "four", "five", "six"].get(dice).unwrap_or(&"")),
        n if n == dice => format!("keep {keep} (reroll none)"),
        n => format!("keep {keep}, reroll {}", dice - n),
    }
}

/// Scoring a box, for people: `score ones for 1 point`, `score yazy for 50 points`.
pub(crate) fn score_text(name: &str, points: u16) -> String {
    format!("score {name} for {points} point{}", plural(points))
}

/// "2 rerolls left", "1 reroll left".
pub(crate) fn rerolls_text(rerolls: u8) -> String {
    format!("{rerolls} reroll{} left", plural(rerolls))
}

/// "1 die left", "3 dice left".
pub(crate) fn dice_left_text(n: u8) -> String {
    format!("{n} {} left", if n == 1 { "die" } else { "dice" })
}

/// "1 point", "7 points".
pub(crate) fn points_text(points: impl Into<u64> + Copy) -> String {
    format!("{} point{}", points.into(), plural(points))
}
