//! The parsers of the reader's arguments. Each returns the value or the
//! one-line message clap prints. They depend on nothing but the library, so
//! the `parse_inputs` fuzz target (`reader/fuzz`) compiles this file as is.

use dice_tables_reader::dice::ParseDiceError;
use dice_tables_reader::threes::{Model, Ties};
use dice_tables_reader::yazy::Mask;
use dice_tables_reader::{ArgumentError, Dice};

/// A whole number in `range`, or a message naming `what` and the range.
pub fn parse_in_range(s: &str, what: &str, range: std::ops::RangeInclusive<u8>) -> Result<u8, String> {
    match s.parse::<u8>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(format!("{what} {s:?} is not a whole number {} to {}", range.start(), range.end())),
    }
}

pub fn parse_remaining(s: &str) -> Result<u8, String> {
    parse_in_range(s, "dice remaining", 0..=5)
}

pub fn parse_points(s: &str) -> Result<u8, String> {
    parse_in_range(s, "points", 0..=30)
}

pub fn parse_record(s: &str) -> Result<u8, String> {
    parse_in_range(s, "record", 0..=30)
}

pub fn parse_after(s: &str) -> Result<u8, String> {
    parse_in_range(s, "players after", 0..=15)
}

/// Dice as digits 1-6, as many as `count` allows, or a message saying
/// how many were given followed by `accepted`.
fn parse_dice(s: &str, count: std::ops::RangeInclusive<usize>, accepted: &str) -> Result<Dice, String> {
    let dice: Dice = s.parse().map_err(|e: ParseDiceError| e.to_string())?;
    if !count.contains(&dice.len()) {
        return Err(format!("{} dice given: {accepted}", s.chars().count()));
    }
    Ok(dice)
}

pub fn parse_throw(s: &str) -> Result<Dice, String> {
    parse_dice(s, 1..=5, "threes throws 1 to 5 dice, digits 1-6 like 31324")
}

pub fn parse_mask(s: &str) -> Result<Mask, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

pub fn parse_five_dice(s: &str) -> Result<Dice, String> {
    parse_dice(s, 5..=5, "exactly five digits 1-6 are needed, like 12456")
}

pub fn parse_rerolls(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .map_err(|_| format!("rerolls {s:?} is not a whole number 0 to 2 (0 to N for a table solved with N rerolls)"))
}

pub fn parse_ties(s: &str) -> Result<Ties, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

pub fn parse_model(s: &str) -> Result<Model, String> {
    s.parse().map_err(|e: ArgumentError| e.to_string())
}

pub fn parse_tenk_throw(s: &str) -> Result<Dice, String> {
    parse_dice(s, 1..=6, "a 10000 throw is 1 to 6 dice, digits 1-6 like 155")
}

pub fn parse_tenk_remaining(s: &str) -> Result<u8, String> {
    parse_in_range(s, "dice remaining", 1..=6)
}

pub fn parse_score(s: &str) -> Result<u32, String> {
    match s.parse::<i64>() {
        Ok(v) if v < 0 => Err(format!("score {v} is negative: a turn score is 0, 50, 100, ...")),
        Ok(v) if v % 50 != 0 => Err(format!("score {v} is not a multiple of 50: a turn score is 0, 50, 100, ...")),
        Ok(v) if v > 1_000_000 => Err(format!("score {v} is too large: the table goes to 30000")),
        Ok(v) => Ok(v as u32),
        Err(_) => Err(format!("score {s:?} is not a whole number: a turn score is 0, 50, 100, ...")),
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
        Err(_) => Err(format!("total {s:?} is not a whole number: a banked total is 0, 50, 100, ...")),
    }
}

pub fn parse_yatzy_mask(s: &str) -> Result<u32, String> {
    dice_tables_reader::Yatzy::parse_mask(s).map_err(|e| e.to_string())
}

pub fn parse_yahtzee_mask(s: &str) -> Result<u32, String> {
    dice_tables_reader::Yahtzee::parse_mask(s).map_err(|e| e.to_string())
}

/// An upper-section total: any whole number from 0 (the table checks it can be made).
pub fn parse_upper(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .map_err(|_| format!("upper total {s:?} is not a whole number 0 or more (points in ones to sixes so far)"))
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

    #[test]
    fn every_parser_error_is_one_line() {
        for s in ["", "\n", "-\n1", "1\n2", "0x\n", "ones,\ntwos", "7\n", "é"] {
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
            ];
            for msg in results.into_iter().flatten() {
                assert!(!msg.is_empty() && !msg.contains('\n'), "{s:?}: {msg:?}");
            }
        }
    }
}
