//! one-die: the smallest game, kept to test that a game joins every front
//! end through its registry lines alone (built with the feature
//! `example-game`; not a game anyone plays, and no table of it ships).
//!
//! Roll one six-sided die; up to `rerolls` times (the table's, 0 to
//! [`MAX_REROLLS`]) throw it again or stop; the last face is the score.
//! The table holds, for every face and number of rerolls left, the expected
//! score under optimal play (exact, f64), and the value before the roll.

use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError};
use crate::format::{DType, Encoding, Header};
use crate::game::{check_values_in_range, param_in, Checked, Game, SectionSpec};

/// The most rerolls a table may be solved for.
pub const MAX_REROLLS: i64 = 10;

/// The rules a one-die table was solved for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rerolls after the first roll (header parameter `rerolls`).
    pub rerolls: u8,
}

/// A face of the die, 1 to 6: made only by [`Face::new`], so a lookup's
/// index is always in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face(u8);

impl Face {
    /// The face `n`, if it is 1 to 6.
    pub fn new(n: u8) -> Option<Face> {
        (1..=6).contains(&n).then_some(Face(n))
    }

    /// Its number of pips.
    pub fn get(self) -> u8 {
        self.0
    }
}

/// The expected score before the first roll, exact.
pub const GAME_START: SectionSpec<Rules> = SectionSpec::new(0, "game_start", DType::F64, Encoding::Raw, |_| vec![1]);
/// The expected score with a face showing: per (rerolls left 0 to R, face - 1).
pub const FACE_VALUE: SectionSpec<Rules> =
    SectionSpec::new(1, "face_value", DType::F64, Encoding::Raw, |r| vec![u64::from(r.rerolls) + 1, 6]);

/// A one-die table.
#[derive(Debug)]
pub struct OneDie {
    t: Checked<OneDie>,
}

impl Game for OneDie {
    const ID: &'static str = "one-die";
    const ALIASES: &'static [&'static str] = &["die"];
    const BUILT_BY: &'static [&'static str] = &["example-game-test"];
    type Params = Rules;
    const SECTIONS: &'static [SectionSpec<Rules>] = &[GAME_START, FACE_VALUE];

    fn params(header: &Header) -> Result<Rules, TableError> {
        Ok(Rules { rerolls: param_in(header, "rerolls", 0..=MAX_REROLLS)? as u8 })
    }

    fn header_params(rules: &Rules) -> Vec<(&'static str, i64)> {
        vec![("rerolls", i64::from(rules.rerolls))]
    }

    fn check_contents(t: &Checked<OneDie>) -> Result<(), TableError> {
        for spec in Self::SECTIONS {
            t.whole(spec)?;
        }
        Ok(())
    }

    fn check_chunk(_: &Rules, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        check_values_in_range(Self::SECTIONS[section].name, bytes, 6.0)
    }

    fn from_checked(t: Checked<OneDie>) -> Result<OneDie, TableError> {
        Ok(OneDie { t })
    }

    fn checked(&self) -> &Checked<OneDie> {
        &self.t
    }
}

impl OneDie {
    /// The number of rerolls the table was solved for.
    pub fn rerolls(&self) -> u8 {
        self.t.params().rerolls
    }

    /// The expected score before the first roll, under optimal play.
    pub fn game_start_value(&self) -> Result<f64, Error> {
        Ok(self.t.f64_at(&GAME_START, 0)?)
    }

    /// The expected score with `face` showing and `rerolls` left.
    pub fn value(&self, face: Face, rerolls: u8) -> Result<f64, Error> {
        if rerolls > self.rerolls() {
            let (game, max) = (Self::ID.to_string(), self.rerolls());
            return Err(ArgumentError::from(ArgumentErrorKind::RerollsOverTable { game, given: rerolls, max }).into());
        }
        Ok(self.t.f64_at(&FACE_VALUE, usize::from(rerolls) * 6 + usize::from(face.get() - 1))?)
    }

    /// Whether to throw again with `face` showing and `rerolls` left: when
    /// a throw is worth more than the face (never with none left).
    pub fn reroll(&self, face: Face, rerolls: u8) -> Result<bool, Error> {
        Ok(self.value(face, rerolls)? > f64::from(face.get()))
    }
}
