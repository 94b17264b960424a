//! The parsers of the lookups' arguments as text: the command line's, the
//! Python package's and any other front end's. Each returns the value or a
//! one-line message naming what was wrong and the accepted form.

use dice_tables_reader::dice::ParseDiceError;
use dice_tables_reader::quoted;
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Mask;
use dice_tables_reader::{ArgumentError, Dice};

/// A whole number in `range`, or a message naming `what` and the range.
pub fn parse_in_range(s: &str, what: &str, range: std::ops::RangeInclusive<u8>) -> Result<u8, String> {
    match s.parse::<u8>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!("{what} {} is not a whole number {} to {}", quoted(s), range.start(), range.end())),
    }
}

/// Threes dice still to throw, 0 to 5.
pub fn parse_remaining(s: &str) -> Result<u8, String> {
    parse_in_range(s, "dice remaining", 0..=5)
}

/// Threes points kept so far, 0 to 30.
pub fn parse_points(s: &str) -> Result<u8, String> {
    parse_in_range(s, "points", 0..=30)
}

/// The lowest threes total of the players before, 0 to 30.
pub fn parse_record(s: &str) -> Result<u8, String> {
    parse_in_range(s, "record", 0..=30)
}

/// Threes players still to play after this one, 0 to 15.
pub fn parse_after(s: &str) -> Result<u8, String> {
    parse_in_range(s, "players after", 0..=15)
}

/// Dice as digits 1-6, as many as `count` allows, or a message saying
/// how many were given followed by `accepted`.
/// Spaces and commas between the digits are ignored (`3 3 3 5 6`, `1,5,5`).
fn parse_dice(s: &str, count: std::ops::RangeInclusive<usize>, accepted: &str) -> Result<Dice, String> {
    let digits = s.chars().filter(|&c| !dice_tables_reader::dice::is_dice_separator(c));
    // Too many dice, all of them faces: said in the game's own terms.
    if digits.clone().all(|c| ('1'..='6').contains(&c)) && !count.contains(&digits.clone().count()) {
        return Err(format!("{} dice given: {accepted}", digits.count()));
    }
    let dice: Dice = s.parse().map_err(|e: ParseDiceError| e.to_string())?;
    if !count.contains(&dice.len()) {
        return Err(format!("{} dice given: {accepted}", dice.len()));
    }
    Ok(dice)
}

/// A threes throw: 1 to 5 dice.
pub fn parse_throw(s: &str) -> Result<Dice, String> {
    parse_dice(s, 1..=5, "a threes throw is 1 to 5 dice, digits 1-6 like 31324")
}

/// A yazy mask: a number 0 to 2047, a comma list of category names, or `all`.
/// A yazy total so far: 0 to 280, the most a whole game scores.
pub fn parse_yazy_total(s: &str) -> Result<u32, String> {
    let most = dice_tables_reader::yazy::MOST_POINTS;
    match s.trim().parse::<i64>() {
        Ok(v) if (0..=most as i64).contains(&v) => Ok(v as u32),
        Ok(v) => Err(format!("total {v} is out of range: a yazy total so far is 0 to {most}")),
        Err(_) => Err(format!("total {} is not a whole number: a yazy total so far is 0 to {most}", quoted(s))),
    }
}

/// A yatzy total so far.
pub fn parse_yatzy_total(s: &str) -> Result<u32, String> {
    parse_sheet_total(
        s,
        "yatzy",
        <dice_tables_reader::sheet::YatzyGame as dice_tables_reader::sheet::SheetGame>::MAX_SCORE,
    )
}

/// A yahtzee total so far.
pub fn parse_yahtzee_total(s: &str) -> Result<u32, String> {
    let most = <dice_tables_reader::sheet::YahtzeeGame as dice_tables_reader::sheet::SheetGame>::MAX_SCORE;
    parse_sheet_total(s, "yahtzee", most)
}

fn parse_sheet_total(s: &str, game: &str, most: f64) -> Result<u32, String> {
    let most = most as u32;
    let form = format!("a {game} total so far (the upper bonus left out) is 0 to {most}");
    match s.trim().parse::<i64>() {
        Ok(v) if (0..=i64::from(most)).contains(&v) => Ok(v as u32),
        Ok(v) => Err(format!("total {v} is out of range: {form}")),
        Err(_) => Err(format!("total {} is not a whole number: {form}", quoted(s))),
    }
}

/// A rule set's total so far (the upper bonus left out), in a two-player
/// lookup: 0 to a million (more than any game scores).
pub fn parse_rule_total(s: &str) -> Result<u32, String> {
    let form = "a total so far (the upper bonus left out) is a whole number 0 to 1000000";
    match s.trim().parse::<i64>() {
        Ok(v) if (0..=1_000_000).contains(&v) => Ok(v as u32),
        Ok(v) => Err(format!("total {v} is out of range: {form}")),
        Err(_) => Err(format!("total {} is not a whole number: {form}", quoted(s))),
    }
}

/// A yazy mask.
pub fn parse_mask(s: &str) -> Result<Mask, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

/// Five dice, digits 1-6 in any order.
pub fn parse_five_dice(s: &str) -> Result<Dice, String> {
    parse_dice(s, 5..=5, "exactly five digits 1-6 are needed, like 12456")
}

/// The dice of a rule set's roll: 1 to 6 digits (the table checks they
/// are as many as its rules roll).
pub fn parse_some_dice(s: &str) -> Result<Dice, String> {
    parse_dice(s, 1..=6, "1 to 6 digits 1-6 are needed, as many as the rules roll, like 12456")
}

/// Rerolls left: a whole number (the table checks it is at most its rerolls).
pub fn parse_rerolls(s: &str) -> Result<u8, String> {
    s.parse::<u8>().map_err(|_| {
        format!("rerolls {} is not a whole number 0 to 2 (0 to N for a table solved with N rerolls)", quoted(s))
    })
}

/// How threes ties count: `win` or `lose`.
pub fn parse_ties(s: &str) -> Result<Ties, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

/// How later threes players play: `sequential` or `independent`.
pub fn parse_model(s: &str) -> Result<Model, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

/// A 10000 throw: 1 to 6 dice.
pub fn parse_tenk_throw(s: &str) -> Result<Dice, String> {
    parse_dice(s, 1..=6, "a 10000 throw is 1 to 6 dice, digits 1-6 like 155")
}

/// 10000 dice about to be thrown, 1 to 6.
pub fn parse_tenk_remaining(s: &str) -> Result<u8, String> {
    parse_in_range(s, "dice remaining", 1..=6)
}

/// The points still needed, for a lookup played to reach a target: a whole
/// number (0 or less: already reached).
pub fn parse_need(s: &str) -> Result<i64, String> {
    match s.trim().parse::<i64>() {
        Ok(v) if v.abs() <= 100_000 => Ok(v),
        Ok(v) => Err(format!("need {v} is out of range: give the points still needed, -100000 to 100000")),
        Err(_) => Err(format!("need {} is not a whole number: give the points still needed, like 150", quoted(s))),
    }
}

/// A 10000 turn score: a multiple of 50, 0 or more.
pub fn parse_score(s: &str) -> Result<u32, String> {
    match s.parse::<i64>() {
        Ok(v) if v < 0 => Err(format!("score {v} is negative: a turn score is 0, 50, 100, ...")),
        Ok(v) if v % 50 != 0 => Err(format!("score {v} is not a multiple of 50: a turn score is 0, 50, 100, ...")),
        Ok(v) if v > 1_000_000 => Err(format!("score {v} is too large: the table goes to 30000")),
        Ok(v) => Ok(v as u32),
        Err(_) => Err(format!("score {} is not a whole number: a turn score is 0, 50, 100, ...", quoted(s))),
    }
}

/// A banked total in a duel: a whole number, a multiple of 50 (the table
/// checks it is below the goal).
pub fn parse_total(s: &str) -> Result<u32, String> {
    match s.parse::<i64>() {
        Ok(v) if v < 0 => Err(format!("total {v} is negative: a banked total is 0, 50, 100, ... below the goal")),
        Ok(v) if v % 50 != 0 => Err(format!("total {v} is not a multiple of 50: a banked total is 0, 50, 100, ...")),
        Ok(v) if v > i64::from(u32::MAX) => Err(format!("total {v} is above any goal (at most 20000)")),
        Ok(v) => Ok(v as u32),
        Err(_) => Err(format!("total {} is not a whole number: a banked total is 0, 50, 100, ...", quoted(s))),
    }
}

/// A yatzy mask: a number 0 to 32767, a comma list of category names, or `all`.
pub fn parse_yatzy_mask(s: &str) -> Result<u32, String> {
    dice_tables_reader::Yatzy::parse_mask(s).map_err(|e| e.to_string())
}

/// A yahtzee mask: a number 0 to 8191, a comma list of category names, or `all`.
pub fn parse_yahtzee_mask(s: &str) -> Result<u32, String> {
    dice_tables_reader::Yahtzee::parse_mask(s).map_err(|e| e.to_string())
}

/// What a threes lookup optimises: `win` (the chance of success) or
/// `expected` (the lowest expected total); `true` for expected.
pub fn parse_objective(s: &str) -> Result<bool, String> {
    match s {
        "win" => Ok(false),
        "expected" => Ok(true),
        _ => Err(format!("objective {} is not win or expected", quoted(s))),
    }
}

/// Yahtzee's joker reading: `forced` or `free`.
pub fn parse_joker(s: &str) -> Result<dice_tables_reader::sheet::Joker, String> {
    dice_tables_reader::sheet::Joker::named(s)
        .ok_or_else(|| format!("joker reading {} is not forced or free", quoted(s)))
}

/// The two-player 10000 rules preset: `seed` or `cardgames`.
pub fn parse_duel_rules(s: &str) -> Result<crate::queries::DuelRules, String> {
    match s {
        "seed" => Ok(crate::queries::DuelRules::Seed),
        "cardgames" => Ok(crate::queries::DuelRules::Cardgames),
        _ => Err(format!("rules {} is not seed or cardgames", quoted(s))),
    }
}

/// Who plays the turn asked about: `me` or `opp`.
pub fn parse_to_move(s: &str) -> Result<crate::queries::ToMove, String> {
    match s {
        "me" => Ok(crate::queries::ToMove::Me),
        "opp" => Ok(crate::queries::ToMove::Opponent),
        _ => Err(format!("to-move {} is not me or opp", quoted(s))),
    }
}

/// Six dice, as a Maxi Yatzy roll.
pub fn parse_six_dice(s: &str) -> Result<Dice, String> {
    parse_dice(s, 6..=6, "maxi-yatzy needs exactly six digits 1-6, like 123456")
}

/// A Maxi Yatzy mask: a number 0 to 1048575, a comma list of box names, or `all`.
pub fn parse_maxi_mask(s: &str) -> Result<u32, String> {
    dice_tables_reader::maxi::parse_mask(s).map_err(|e| e.to_string())
}

/// Rerolls saved from earlier turns: a whole number (the table checks the state can hold them).
pub fn parse_saved(s: &str) -> Result<u32, String> {
    s.parse::<u32>().map_err(|_| {
        format!(
            "saved rerolls {} is not a whole number 0 or more (for each turn played, 0 to the rerolls a turn gives)",
            quoted(s)
        )
    })
}

/// Maxi Yatzy's rules: `finnish` or `swedish`.
pub fn parse_maxi_rules(s: &str) -> Result<crate::queries::MaxiRules, String> {
    match s {
        "finnish" => Ok(crate::queries::MaxiRules::Finnish),
        "swedish" => Ok(crate::queries::MaxiRules::Swedish),
        _ => Err(format!(
            "rules {} is not finnish (bonus 50 at 75) or swedish (bonus 100 at 84, saved rolls)",
            quoted(s)
        )),
    }
}

/// An upper-section total: any whole number from 0 (the table checks it can be made).
pub fn parse_upper(s: &str) -> Result<u32, String> {
    s.parse::<u32>().map_err(|_| {
        format!("upper total {} is not a whole number 0 or more (points in ones to sixes so far)", quoted(s))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `parse_inputs` fuzz target: a negative-looking mask with
    /// a newline in it was echoed raw, giving a two-line message.
    #[test]
    fn fuzz_regression_mask_message_is_one_line() {
        let msg = parse_mask("-yazyh\u{13}\0\0\0\u{1}\0\n\0\0ouz5").unwrap_err();
        assert!(!msg.contains('\n'), "{msg:?}");
    }

    /// Found by the `parse_inputs` fuzz target: a filled category before
    /// `all` was echoed whole, control characters and all.
    #[test]
    fn fuzz_regression_filled_category_message_is_one_line() {
        let hostile = format!("twopairs,-\u{b}{}\n\0\\,-6", "P".repeat(200));
        for parse in [parse_yatzy_mask, parse_yahtzee_mask] {
            let msg = parse(&hostile).unwrap_err();
            assert!(!msg.contains('\n') && msg.len() < 300, "{msg:?}");
        }
        let msg = parse_mask(&hostile).unwrap_err();
        assert!(!msg.contains('\n') && msg.len() < 300, "{msg:?}");
    }

    #[test]
    fn every_parser_error_is_one_line() {
        let long = "-".repeat(100_000);
        for s in ["", "\n", "-\n1", "1\n2", "0x\n", "ones,\ntwos", "7\n", "é", &long, &"9".repeat(100_000)] {
            let results = [
                parse_mask(s).err(),
                parse_five_dice(s).err(),
                parse_throw(s).err(),
                parse_rerolls(s).err(),
                parse_points(s).err(),
                parse_record(s).err(),
                parse_after(s).err(),
                parse_remaining(s).err(),
                parse_tenk_throw(s).err(),
                parse_tenk_remaining(s).err(),
                parse_score(s).err(),
                parse_ties(s).err(),
                parse_model(s).err(),
                parse_yatzy_mask(s).err(),
                parse_yahtzee_mask(s).err(),
                parse_upper(s).err(),
                parse_total(s).err(),
                parse_objective(s).err(),
                parse_duel_rules(s).err(),
            ];
            for msg in results.into_iter().flatten() {
                // One line, and a hostile value cannot make it long.
                assert!(!msg.is_empty() && !msg.contains('\n') && msg.len() < 300, "{s:?}: {msg:?}");
            }
        }
    }
}
