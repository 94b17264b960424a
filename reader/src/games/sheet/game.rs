//! What a score-sheet game is to its tables: the trait that tells yatzy
//! and yahtzee apart, the rules and parameters a table records, and the
//! exception sections every sheet table has.

use std::fmt;

use super::rules::{yahtzee, Joker, Scoring, YATZY};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, TableError, TableErrorKind};
use crate::five_dice::check_roll;
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, SectionSpec};

/// Stored values are whole units of 1e-7 points (so a value prints exactly
/// to seven decimals).
pub const UNITS_PER_POINT: f64 = 1e7;
/// Bytes of a stored value: five byte planes of a zigzag delta.
pub const PLANES: usize = 5;
/// Upper-scored sets: `0..64`, bit `f` set when the box of face `f + 1` is filled.
pub const UPPER_SETS: usize = 64;

/// The rules a table was solved under: for yahtzee, the joker reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetRules {
    /// yahtzee's joker reading (header parameter `joker`: 0 forced, 1 free); `None` for yatzy.
    pub joker: Option<Joker>,
}

/// A table's parameters: its rules, and how many decisions it lists as
/// exceptions (header parameter `exceptions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetParams {
    /// The rules.
    pub rules: SheetRules,
    /// Decisions where the stored values would mislead a lookup, listed
    /// with the exact decision (see [`EXCEPTION_KEY`]).
    pub exceptions: u64,
}

/// The most exceptions a table may list.
pub const MAX_EXCEPTIONS: i64 = 1 << 20;

/// The decisions a lookup makes wrongly from the stored values, ascending:
/// ((row * 64 + upper total) * 3 + rerolls left) * 252 + roll rank, where
/// row = mask * flags + flag.
pub const EXCEPTION_KEY: SectionSpec<SheetParams> =
    SectionSpec::new(1, "exception_key", DType::U32, Encoding::Zstd, |p| vec![p.exceptions]);
/// The exact decision of each exception: a category's mask bit, a partial
/// keep's graded rank, or [`KEEP_ALL`](crate::five_dice::KEEP_ALL).
pub const EXCEPTION_ACTION: SectionSpec<SheetParams> =
    SectionSpec::new(2, "exception_action", DType::U8, Encoding::Zstd, |p| vec![p.exceptions]);

/// What tells yatzy and yahtzee apart for the table and its lookups.
pub trait SheetGame: fmt::Debug + Send + Sync + 'static {
    /// The game id.
    const ID: &'static str;
    /// The id of its target table.
    const TARGET_ID: &'static str;
    /// The make targets that build its table where `make tables` does not ([`Game::BUILT_BY`](crate::Game::BUILT_BY)).
    const BUILT_BY: &'static [&'static str] = &[];
    /// The make targets that build its target table.
    const TARGET_BUILT_BY: &'static [&'static str];
    /// Category names, in mask-bit order.
    const CATEGORIES: &'static [&'static str];
    /// Flag values a mask has: 2 for yahtzee (whether the yahtzee box holds 50), else 1.
    const FLAGS: usize;
    /// The most a whole game can score: stored values are checked against it.
    const MAX_SCORE: f64;
    /// The sections: the turn-start values, [`EXCEPTION_KEY`], [`EXCEPTION_ACTION`].
    const SECTIONS: &'static [SectionSpec<SheetParams>];
    /// yahtzee's joker reading, which each of its tables is solved under
    /// (and named after: `yahtzee`, `yahtzee-free`); `None` for yatzy.
    const JOKER: Option<Joker>;
    /// The rules in a header: the game's joker reading in its `joker`
    /// parameter, where it has one (a table of the other reading is
    /// another game's, in another file).
    fn rules(header: &Header) -> Result<SheetRules, TableError> {
        if let Some(joker) = Self::JOKER {
            let found = param_in(header, "joker", 0..=1)?;
            if found != joker.param() {
                let other = Joker::from_param(found).map_or("another", Joker::name);
                let why = format!("is {other}, but {} is solved under the {} joker reading", Self::ID, joker.name());
                return Err(TableErrorKind::BadParam { name: "joker", why }.into());
            }
        }
        Ok(SheetRules { joker: Self::JOKER })
    }
    /// The header parameters of these rules.
    fn rules_params(rules: &SheetRules) -> Vec<(&'static str, i64)> {
        rules.joker.map(|j| ("joker", j.param())).into_iter().collect()
    }
    /// The name of a rules parameter's value, where it has one (yahtzee's
    /// `joker`: `forced`, `free`).
    fn param_value_name(name: &str, value: i64) -> Option<&'static str> {
        (name == "joker").then(|| Joker::from_param(value)).flatten().map(Joker::name)
    }
    /// The scoring under these rules.
    fn scoring(rules: &SheetRules) -> Scoring {
        match rules.joker {
            Some(joker) => yahtzee(joker),
            None => YATZY,
        }
    }
}

/// Rerolls a turn after its first roll, in yatzy and yahtzee alike: what a
/// decision at a roll has left when the lookup does not say.
pub const REROLLS: u8 = 2;

/// Checks a decision's arguments: five dice, 0 to [`REROLLS`] rerolls.
pub(crate) fn check_decision(dice: Dice, rerolls: u8, game: &str) -> Result<(), ArgumentError> {
    check_roll(dice, game)?;
    if rerolls > REROLLS {
        return Err(ArgumentErrorKind::RerollsOverRules { game: game.to_string(), given: rerolls, max: REROLLS }.into());
    }
    Ok(())
}
