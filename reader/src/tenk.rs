//! Lookups in the 10000 table (`tenk`).
//!
//! 10000: six dice; each throw must keep at least one scoring die, kept dice
//! score, and the player throws the rest again or banks the turn score; a
//! throw with nothing scoring loses the turn score. Keeping every die thrown
//! gives hot dice (six again). A player not yet on the board may bank only
//! at 1000 or more in one turn.
//!
//! The table holds, exactly (f64): on the board, the expected banked points
//! of throwing d dice at turn score s and playing on optimally, for s up to
//! 30000; opening, the chance of reaching 1000 this turn, for s below 1000;
//! and every throw's legal keeps with their points. A throw's decision takes
//! one lookup per keep.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
//! # if !dir.join("tenk.dtab").exists() { return Ok(()); }
//! use dice_tables_reader::tenk::{Phase, Tenk, Then};
//! let tenk = Tenk::open(dir.join("tenk.dtab"))?;
//! assert!((tenk.turn_value(6, 0)? - 590.6578).abs() < 1e-4);
//! assert_eq!(tenk.bank_threshold(4), Some(1050));
//! let options = tenk.options("155".parse().unwrap(), 0, Phase::OnBoard)?;
//! let best = options.best().unwrap();
//! assert_eq!((best.keep.to_string().as_str(), best.points, best.then), ("155", 200, Then::Throw));
//! # Ok(()) }
//! ```

use std::path::Path;

use crate::dice::Dice;
use crate::error::Error;
use crate::format::{DType, ExpectedSection};
use crate::table::Table;
use crate::turn::{check_values_in_range, read_f64, read_u16, read_u32};

/// The game id in the header.
pub const GAME: &str = "tenk";
/// Dice in a full throw.
pub const DICE: usize = 6;
/// Turn scores are multiples of this.
pub const STEP: u32 = 50;
/// On-board scores in the table: 0, 50, ..., 30000.
pub const SCORE_STEPS: usize = 601;
/// The highest on-board score in the table.
pub const MAX_SCORE: u32 = STEP * (SCORE_STEPS as u32 - 1);
/// The score a player not yet on the board must reach in one turn to bank.
pub const ENTRY: u32 = 1000;
/// Opening scores in the table: 0, 50, ..., 950.
pub const OPENING_STEPS: usize = (ENTRY / STEP) as usize;
/// Throws (multisets of 0..=6 dice) by graded rank.
pub const THROWS: usize = 924;
/// The most keeps a table may list.
pub const MAX_OPTIONS: u64 = 1 << 20;
/// The most points one throw can score (six 1s).
pub const MAX_POINTS: u16 = 8000;
/// Above any expected banked points a table can hold.
const MAX_VALUE: f64 = 1e6;

/// Which table: on the board (expected points) or opening (reach 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// On the board: maximise expected banked points.
    OnBoard,
    /// Not yet on the board: maximise the chance of reaching 1000 this turn.
    Opening,
}

/// What to do after keeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// Bank the turn score.
    Bank,
    /// Throw the dice left.
    Throw,
}

/// One legal keep of a throw, what follows it, and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TenkOption {
    /// The dice kept.
    pub keep: Dice,
    /// What they score.
    pub points: u32,
    /// Dice to throw next (6 on hot dice).
    pub dice_left: u8,
    /// Bank or throw on, whichever is better.
    pub then: Then,
    /// Expected banked points (on the board) or chance of reaching 1000 (opening).
    pub value: f64,
}

/// Every keep of a throw, most points first, and the best; none on a bust.
#[derive(Clone, Debug, PartialEq)]
pub struct TenkOptions {
    list: Vec<TenkOption>,
    best: Option<usize>,
}

impl TenkOptions {
    /// The best keep (the first of the highest value, in list order), or
    /// `None` when the throw busts.
    pub fn best(&self) -> Option<&TenkOption> {
        self.best.map(|i| &self.list[i])
    }

    /// Every legal keep, most points first, then fewer dice kept.
    pub fn all(&self) -> &[TenkOption] {
        &self.list
    }

    /// True when nothing in the throw scores.
    pub fn bust(&self) -> bool {
        self.list.is_empty()
    }
}

/// The sections of a tenk table listing `options` keeps.
pub fn expected_sections(options: u64) -> Vec<ExpectedSection> {
    vec![
        ExpectedSection { name: "turn_value", dtype: DType::F64, dims: vec![DICE as u64, SCORE_STEPS as u64] },
        ExpectedSection { name: "reach", dtype: DType::F64, dims: vec![DICE as u64, OPENING_STEPS as u64] },
        ExpectedSection { name: "option_first", dtype: DType::U32, dims: vec![THROWS as u64 + 1] },
        ExpectedSection { name: "option_keep", dtype: DType::U16, dims: vec![options] },
        ExpectedSection { name: "option_points", dtype: DType::U16, dims: vec![options] },
    ]
}

/// The number of keeps a tenk header's option sections declare, checked
/// against the limit (the schema check then holds both sections to it).
pub(crate) fn header_options(header: &crate::format::Header) -> Result<u64, Error> {
    let n = header.section("option_keep").and_then(|s| s.dims.first().copied()).unwrap_or(0);
    if n > MAX_OPTIONS {
        return Err(Error::Limit { what: "tenk keeps", value: n, max: MAX_OPTIONS });
    }
    Ok(n)
}

/// Dice to throw next after keeping `kept` of `thrown` dice: all six on hot dice.
pub fn dice_left(thrown: usize, kept: usize) -> usize {
    if kept == thrown {
        DICE
    } else {
        thrown - kept
    }
}

/// Checks every value a lookup trusts: values finite and in range, keeps
/// that are nonempty parts of their throw scoring a positive multiple of 50.
pub(crate) fn check_contents(table: &Table) -> Result<(), Error> {
    let section = |name: &str| table.section(name).expect("schema checked on open").1;
    let bad = |name: &str, why: String| Err(Error::BadSection { name: name.into(), why });
    check_values_in_range("turn_value", section("turn_value"), MAX_VALUE)?;
    check_values_in_range("reach", section("reach"), 1.0)?;
    let (first, keeps, points) = (section("option_first"), section("option_keep"), section("option_points"));
    let count = keeps.len() / 2;
    if read_u32(first, 0) != 0 || read_u32(first, THROWS) as usize != count {
        return bad("option_first", format!("does not span the {count} keeps"));
    }
    for g in 0..THROWS {
        let (start, end) = (read_u32(first, g) as usize, read_u32(first, g + 1) as usize);
        if start > end || end > count {
            return bad("option_first", format!("is not increasing at throw {g}"));
        }
        let throw = Dice::graded_unrank(g).expect("graded rank < 924");
        for i in start..end {
            let keep = Dice::graded_unrank(usize::from(read_u16(keeps, i)));
            if !keep.is_some_and(|k| !k.is_empty() && k.is_subset_of(&throw)) {
                return bad("option_keep", format!("entry {i} is not a part of throw {throw}"));
            }
            let p = read_u16(points, i);
            if p == 0 || p > MAX_POINTS || u32::from(p) % STEP != 0 {
                return bad("option_points", format!("entry {i} holds {p}, not a multiple of 50 in 50..=8000"));
            }
        }
    }
    Ok(())
}

/// A verified 10000 table.
pub struct Tenk {
    table: Table,
    turn_value: usize,
    reach: usize,
    option_first: usize,
    option_keep: usize,
    option_points: usize,
    thresholds: [Option<u32>; DICE],
}

impl Tenk {
    /// Opens and verifies `tenk.dtab` (or any path holding a tenk table).
    pub fn open(path: impl AsRef<Path>) -> Result<Tenk, Error> {
        Tenk::from_table(Table::open(path)?)
    }

    /// Wraps an opened table; an error when it is not a tenk table.
    pub fn from_table(table: Table) -> Result<Tenk, Error> {
        if table.header().game != GAME {
            return Err(Error::WrongGame { found: table.header().game.clone(), expected: GAME });
        }
        let index = |name| table.section_index(name).expect("schema checked on open");
        let mut tenk = Tenk {
            turn_value: index("turn_value"),
            reach: index("reach"),
            option_first: index("option_first"),
            option_keep: index("option_keep"),
            option_points: index("option_points"),
            thresholds: [None; DICE],
            table,
        };
        for d in 1..=DICE as u8 {
            tenk.thresholds[usize::from(d) - 1] =
                (0..SCORE_STEPS as u32).map(|i| i * STEP).find(|&s| tenk.value_at(d, s) < f64::from(s));
        }
        Ok(tenk)
    }

    fn value_at(&self, dice: u8, score: u32) -> f64 {
        let i = (usize::from(dice) - 1) * SCORE_STEPS + (score / STEP) as usize;
        read_f64(self.table.section_bytes(self.turn_value), i)
    }

    fn reach_at(&self, dice: u8, score: u32) -> f64 {
        let i = (usize::from(dice) - 1) * OPENING_STEPS + (score / STEP) as usize;
        read_f64(self.table.section_bytes(self.reach), i)
    }

    fn check(dice: u8, score: u32, phase: Phase) -> Result<(), Error> {
        let invalid = |msg: String| Err(Error::InvalidArgument(msg));
        if !(1..=DICE as u8).contains(&dice) {
            return invalid(format!("{dice} dice: a throw is of 1 to 6 dice"));
        }
        if !score.is_multiple_of(STEP) {
            return invalid(format!("score {score} is not a multiple of 50"));
        }
        match phase {
            Phase::OnBoard if score > MAX_SCORE => invalid(format!(
                "score {score} is above the table's {MAX_SCORE} (banking is best for every number of dice long before)"
            )),
            Phase::Opening if score >= ENTRY => invalid(format!(
                "score {score} with --opening: opening scores are 0..950; at 1000 the player may bank and is on the board"
            )),
            _ => Ok(()),
        }
    }

    /// Expected banked points of throwing `dice` dice at turn score `score`
    /// and playing on optimally: s + R(d, s). Banking instead is worth `score`.
    pub fn turn_value(&self, dice: u8, score: u32) -> Result<f64, Error> {
        Tenk::check(dice, score, Phase::OnBoard)?;
        Ok(self.value_at(dice, score))
    }

    /// Whether banking beats throwing `dice` dice at `score` (R(d, s) < 0).
    pub fn should_bank(&self, dice: u8, score: u32) -> Result<bool, Error> {
        Ok(self.turn_value(dice, score)? < f64::from(score))
    }

    /// The smallest score at which banking beats throwing `dice` dice, if
    /// there is one in the table.
    pub fn bank_threshold(&self, dice: u8) -> Option<u32> {
        self.thresholds.get(usize::from(dice).checked_sub(1)?).copied().flatten()
    }

    /// The chance of reaching 1000 this turn when throwing `dice` dice at
    /// turn score `score` (0..950), not yet on the board.
    pub fn reach(&self, dice: u8, score: u32) -> Result<f64, Error> {
        Tenk::check(dice, score, Phase::Opening)?;
        Ok(self.reach_at(dice, score))
    }

    /// The value of having `score` after a keep with `dice_left` to throw:
    /// the better of banking and throwing, and which.
    fn after_keep(&self, score: u32, dice_left: u8, phase: Phase) -> (Then, f64) {
        match phase {
            Phase::OnBoard if score > MAX_SCORE => (Then::Bank, f64::from(score)),
            Phase::OnBoard => {
                let throw = self.value_at(dice_left, score);
                if throw > f64::from(score) {
                    (Then::Throw, throw)
                } else {
                    (Then::Bank, f64::from(score))
                }
            }
            Phase::Opening if score >= ENTRY => (Then::Bank, 1.0),
            Phase::Opening => (Then::Throw, self.reach_at(dice_left, score)),
        }
    }

    /// Every keep of `throw` (the 1-6 dice just thrown) at turn score `score`
    /// (before this throw), each with its value, and the best.
    pub fn options(&self, throw: Dice, score: u32, phase: Phase) -> Result<TenkOptions, Error> {
        let n = throw.len() as u8;
        Tenk::check(n, score, phase)?;
        let g = throw.graded_rank();
        let first = self.table.section_bytes(self.option_first);
        let (start, end) = (read_u32(first, g) as usize, read_u32(first, g + 1) as usize);
        let (keeps, points) =
            (self.table.section_bytes(self.option_keep), self.table.section_bytes(self.option_points));
        let mut list = Vec::with_capacity(end - start);
        for i in start..end {
            let keep = Dice::graded_unrank(usize::from(read_u16(keeps, i))).expect("checked on open");
            let p = u32::from(read_u16(points, i));
            let dice_left = dice_left(throw.len(), keep.len()) as u8;
            let (then, value) = self.after_keep(score + p, dice_left, phase);
            list.push(TenkOption { keep, points: p, dice_left, then, value });
        }
        let mut best: Option<usize> = None;
        for (i, o) in list.iter().enumerate() {
            if best.is_none_or(|b| o.value > list[b].value) {
                best = Some(i);
            }
        }
        Ok(TenkOptions { list, best })
    }
}
