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
//! use dice_tables_reader::tenk::{Phase, Tenk, Then};
//! use dice_tables_reader::{Game, Tables};
//! let tenk = Tenk::open(Tables::default_dir().join("tenk.dtab"))?;
//! assert!((tenk.turn_value(6, 0)? - 590.6578).abs() < 1e-4);
//! assert_eq!(tenk.bank_threshold(4), Some(1050));
//! let options = tenk.options("155".parse()?, 0, Phase::OnBoard)?;
//! let best = options.best().expect("155 scores");
//! assert_eq!((best.keep.to_string().as_str(), best.points, best.then), ("155", 200, Then::Throw));
//! assert!(tenk.options("2346".parse()?, 0, Phase::OnBoard)?.is_empty()); // a bust
//! # Ok(()) }
//! ```

use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::format::{read_u16, read_u32};
use crate::format::{DType, Encoding, Header};
use crate::game::check_values_in_range;
use crate::game::{Checked, Game, SectionSpec};
use crate::options::Options;
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
/// The most keeps a table may list: every throw of 1 to 6 dice (923 of
/// them) with at most [`MAX_KEEPS_PER_THROW`] keeps; checked on the header,
/// before anything is decompressed.
pub const MAX_OPTIONS: u64 = (THROWS as u64 - 1) * MAX_KEEPS_PER_THROW as u64;
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

/// Every keep of a throw, most points first (then fewer dice kept), and the
/// best (the first of the highest value); empty when the throw busts. A throw
/// of six dice has at most 26 legal keeps.
pub type TenkOptions = Options<TenkOption, MAX_KEEPS_PER_THROW>;

/// The most legal keeps of one throw: the generator and the table check hold
/// every throw to it.
pub const MAX_KEEPS_PER_THROW: usize = 32;

/// The sizes of a tenk table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Keeps listed over all throws (the length of the option sections).
    pub options: u64,
}

/// Expected banked points of throwing d dice at turn score s, on the board:
/// per (d - 1, s / 50).
pub const TURN_VALUE: SectionSpec<Params> =
    SectionSpec::new(0, "turn_value", DType::F64, Encoding::Zstd, |_| vec![DICE as u64, SCORE_STEPS as u64]);
/// The chance of reaching 1000 this turn, opening: per (d - 1, s / 50).
pub const REACH: SectionSpec<Params> =
    SectionSpec::new(1, "reach", DType::F64, Encoding::Raw, |_| vec![DICE as u64, OPENING_STEPS as u64]);
/// Where each throw's keeps start in the option sections: per graded rank, and one past the last.
pub const OPTION_FIRST: SectionSpec<Params> = option_first(2);
/// Each keep's dice, as a graded rank.
pub const OPTION_KEEP: SectionSpec<Params> = option_keep(3);
/// Each keep's points.
pub const OPTION_POINTS: SectionSpec<Params> = option_points(4);

/// What the 10000 tables' parameters say about their keep lists: how many
/// keeps they list over all throws.
pub(crate) trait KeepCount: 'static {
    fn keeps(&self) -> u64;
}

impl KeepCount for Params {
    fn keeps(&self) -> u64 {
        self.options
    }
}

/// The section `option_first` of a 10000 table, at `index`: where each
/// throw's keeps start in the option sections, per graded rank, and one
/// past the last.
pub(crate) const fn option_first<P: KeepCount>(index: usize) -> SectionSpec<P> {
    SectionSpec::new(index, "option_first", DType::U32, Encoding::Zstd, |_| vec![THROWS as u64 + 1])
}

/// The section `option_keep` at `index`: each keep's dice, as a graded rank.
pub(crate) const fn option_keep<P: KeepCount>(index: usize) -> SectionSpec<P> {
    SectionSpec::new(index, "option_keep", DType::U16, Encoding::Zstd, |p| vec![p.keeps()])
}

/// The section `option_points` at `index`: each keep's points.
pub(crate) const fn option_points<P: KeepCount>(index: usize) -> SectionSpec<P> {
    SectionSpec::new(index, "option_points", DType::U16, Encoding::Zstd, |p| vec![p.keeps()])
}

/// The number of keeps a 10000 table of `game` lists (the length of its
/// `option_keep` section, which the schema check then holds both option
/// sections to), checked against the limit.
pub(crate) fn keep_count(header: &Header, game: &'static str) -> Result<u64, TableError> {
    let n = header.section("option_keep").and_then(|s| s.dims.first().copied()).unwrap_or(0);
    if n > MAX_OPTIONS {
        return Err(TableErrorKind::Limit { what: game, value: n, max: MAX_OPTIONS }.into());
    }
    Ok(n)
}

/// Checks every throw's keep lists (the decoded sections `option_first`,
/// `option_keep` and `option_points`, which the 10000 tables share): the
/// offsets span the keeps, increasing by at most [`MAX_KEEPS_PER_THROW`],
/// and each keep is a nonempty part of its throw scoring a positive multiple
/// of 50 up to [`MAX_POINTS`]. The error names the section (0, 1 or 2) and why.
pub(crate) fn check_keep_lists([first, keeps, points]: [&[u8]; 3]) -> Result<(), (usize, String)> {
    let count = keeps.len() / 2;
    if first.len() != (THROWS + 1) * 4 || points.len() != keeps.len() {
        return Err((0, format!("does not hold {} offsets for {count} keeps", THROWS + 1)));
    }
    if read_u32(first, 0) != 0 || read_u32(first, THROWS) as usize != count {
        return Err((0, format!("does not span the {count} keeps")));
    }
    for g in 0..THROWS {
        let (start, end) = (read_u32(first, g) as usize, read_u32(first, g + 1) as usize);
        if start > end || end > count || end - start > MAX_KEEPS_PER_THROW {
            return Err((0, format!("is not increasing by at most {MAX_KEEPS_PER_THROW} at throw {g}")));
        }
        let throw = Dice::graded_unrank(g).expect("graded rank < 924");
        for i in start..end {
            let keep = Dice::graded_unrank(usize::from(read_u16(keeps, i)));
            if !keep.is_some_and(|k| !k.is_empty() && k.is_subset_of(&throw)) {
                return Err((1, format!("entry {i} is not a part of throw {throw}")));
            }
            let p = read_u16(points, i);
            if p == 0 || p > MAX_POINTS || u32::from(p) % STEP != 0 {
                return Err((2, format!("entry {i} holds {p}, not a multiple of 50 from 50 to 8000")));
            }
        }
    }
    Ok(())
}

/// Dice to throw next after keeping `kept` of `thrown` dice: all six on hot dice.
pub fn dice_left(thrown: usize, kept: usize) -> usize {
    if kept == thrown {
        DICE
    } else {
        thrown - kept
    }
}

/// A 10000 table.
#[derive(Debug)]
pub struct Tenk {
    t: Checked<Tenk>,
    /// Per number of dice, the lowest score at which banking beats throwing.
    thresholds: [Option<u32>; DICE],
}

impl Game for Tenk {
    const ID: &'static str = "tenk";
    const ALIASES: &'static [&'static str] = &["10000"];
    type Params = Params;
    const SECTIONS: &'static [SectionSpec<Params>] = &[TURN_VALUE, REACH, OPTION_FIRST, OPTION_KEEP, OPTION_POINTS];

    /// The number of keeps, from the directory, checked against the limit
    /// (the schema check then holds both option sections to it).
    fn params(header: &Header) -> Result<Params, TableError> {
        Ok(Params { options: keep_count(header, "tenk keeps")? })
    }

    fn header_params(_: &Params) -> Vec<(&'static str, i64)> {
        vec![]
    }

    /// Every section is small: all checked on open. Keeps must be nonempty
    /// parts of their throw scoring a positive multiple of 50, at most
    /// [`MAX_KEEPS_PER_THROW`] a throw.
    fn check_contents(t: &Checked<Tenk>) -> Result<(), TableError> {
        for spec in [TURN_VALUE, REACH] {
            t.whole(&spec)?;
        }
        let lists = [t.whole(&OPTION_FIRST)?, t.whole(&OPTION_KEEP)?, t.whole(&OPTION_POINTS)?];
        check_keep_lists(lists)
            .map_err(|(i, why)| TableError::section([OPTION_FIRST, OPTION_KEEP, OPTION_POINTS][i].name, why))
    }

    /// Values finite and in range.
    fn check_chunk(_: &Params, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        match section {
            s if s == TURN_VALUE.index => check_values_in_range(TURN_VALUE.name, bytes, MAX_VALUE),
            s if s == REACH.index => check_values_in_range(REACH.name, bytes, 1.0),
            _ => Ok(()),
        }
    }

    fn from_checked(t: Checked<Tenk>) -> Result<Tenk, TableError> {
        let mut tenk = Tenk { t, thresholds: [None; DICE] };
        for d in 1..=DICE as u8 {
            let mut threshold = None;
            for s in (0..SCORE_STEPS as u32).map(|i| i * STEP) {
                if tenk.value_at(d, s)? < f64::from(s) {
                    threshold = Some(s);
                    break;
                }
            }
            tenk.thresholds[usize::from(d) - 1] = threshold;
        }
        Ok(tenk)
    }

    fn checked(&self) -> &Checked<Tenk> {
        &self.t
    }
}

impl Tenk {
    fn value_at(&self, dice: u8, score: u32) -> Result<f64, TableError> {
        let i = (usize::from(dice) - 1) * SCORE_STEPS + (score / STEP) as usize;
        self.t.f64_at(&TURN_VALUE, i)
    }

    fn reach_at(&self, dice: u8, score: u32) -> Result<f64, TableError> {
        let i = (usize::from(dice) - 1) * OPENING_STEPS + (score / STEP) as usize;
        self.t.f64_at(&REACH, i)
    }

    fn check(dice: u8, score: u32, phase: Phase) -> Result<(), ArgumentError> {
        let invalid = |kind: ArgumentErrorKind| Err(ArgumentError::from(kind));
        if !(1..=DICE as u8).contains(&dice) {
            return invalid(ArgumentErrorKind::ThrowDice { given: usize::from(dice), max: DICE });
        }
        if !score.is_multiple_of(STEP) {
            return invalid(ArgumentErrorKind::NotMultipleOf50 { what: "score".to_string(), given: score });
        }
        match phase {
            Phase::OnBoard if score > MAX_SCORE => {
                invalid(ArgumentErrorKind::ScoreAboveTable { given: score, max: MAX_SCORE })
            }
            Phase::Opening if score >= ENTRY => invalid(ArgumentErrorKind::ScoreWhileOpening { given: score }),
            _ => Ok(()),
        }
    }

    /// Expected banked points of throwing `dice` dice at turn score `score`
    /// and playing on optimally: s + R(d, s). Banking instead is worth `score`.
    pub fn turn_value(&self, dice: u8, score: u32) -> Result<f64, Error> {
        Tenk::check(dice, score, Phase::OnBoard)?;
        Ok(self.value_at(dice, score)?)
    }

    /// The value of the state before throwing `dice` dice at turn score
    /// `score`, on the board, under optimal play: the better of banking
    /// (`score`) and throwing ([`turn_value`](Tenk::turn_value)).
    pub fn value(&self, dice: u8, score: u32) -> Result<f64, Error> {
        Ok(self.turn_value(dice, score)?.max(f64::from(score)))
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
        Ok(self.reach_at(dice, score)?)
    }

    /// The value of having `score` after a keep with `dice_left` to throw:
    /// the better of banking and throwing, and which.
    fn after_keep(&self, score: u32, dice_left: u8, phase: Phase) -> Result<(Then, f64), TableError> {
        Ok(match phase {
            Phase::OnBoard if score > MAX_SCORE => (Then::Bank, f64::from(score)),
            Phase::OnBoard => {
                let throw = self.value_at(dice_left, score)?;
                if throw > f64::from(score) {
                    (Then::Throw, throw)
                } else {
                    (Then::Bank, f64::from(score))
                }
            }
            Phase::Opening if score >= ENTRY => (Then::Bank, 1.0),
            Phase::Opening => (Then::Throw, self.reach_at(dice_left, score)?),
        })
    }

    /// Every keep of `throw` (the 1-6 dice just thrown) at turn score `score`
    /// (before this throw), each with its value, and the best.
    pub fn options(&self, throw: Dice, score: u32, phase: Phase) -> Result<TenkOptions, Error> {
        let n = throw.len() as u8;
        Tenk::check(n, score, phase)?;
        let g = throw.graded_rank();
        let first = self.t.whole(&OPTION_FIRST)?;
        let (start, end) = (read_u32(first, g) as usize, read_u32(first, g + 1) as usize);
        let (keeps, points) = (self.t.whole(&OPTION_KEEP)?, self.t.whole(&OPTION_POINTS)?);
        let mut out = TenkOptions::new();
        let mut best: Option<(usize, f64)> = None;
        for i in start..end {
            let keep = Dice::graded_unrank(usize::from(read_u16(keeps, i))).expect("checked on open");
            let p = u32::from(read_u16(points, i));
            let dice_left = dice_left(throw.len(), keep.len()) as u8;
            let (then, value) = self.after_keep(score + p, dice_left, phase)?;
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((i - start, value));
            }
            out.push(TenkOption { keep, points: p, dice_left, then, value });
        }
        if let Some((i, _)) = best {
            out.set_best(i);
        }
        Ok(out)
    }
}
