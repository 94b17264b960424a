//! Lookups in the threes table.
//!
//! threes: five dice, each worth its face except a 3, worth 0; the lowest
//! final total wins. After each roll the player keeps the c lowest-worth dice
//! just rolled (at least one) and rerolls the rest, until all five are kept.
//! Players take turns one after another; each knows the record (the lowest
//! total before them, if any) and how many players come after.
//!
//! The table holds the chance of success of every state (tie rule, model of
//! the later players, record, points kept, dice left, players after) under
//! optimal play; a roll's decision takes one lookup per choice. The
//! `expected` objective (lowest expected total) needs only six numbers.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::threes::{Model, Situation, Threes};
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let threes = tables.get::<Threes>()?;
//! // Record 8, nobody after: with 3-1-3-2-4 showing, keep all five (total 7).
//! let situation = Situation { record: Some(8), model: Model::Independent, ..Situation::default() };
//! let options = threes.options(situation, "31324".parse()?)?;
//! let best = options.best().expect("a throw always has a choice");
//! assert_eq!((best.keep.to_string(), best.chance), ("33124".to_string(), 1.0));
//! // The lowest expected total instead: keep the 3s, throw three dice again.
//! let options = threes.expected_options(0, "31324".parse()?)?;
//! assert_eq!(options.best().map(|o| o.keep.to_string()), Some("33".to_string()));
//! # Ok(()) }
//! ```

use std::fmt;

use crate::dice::{multiset_count, Dice, FACES};
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError};
use crate::format::{read_f64, read_u32};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::options::Options;

/// Dice in a turn.
pub const DICE: usize = 5;
/// The highest final total: five sixes.
pub const MAX_TOTAL: usize = 30;
/// Players after: 0..AFTER.
pub const AFTER: usize = 16;
/// Records 0..=30, then "no record".
pub const RECORDS: usize = 32;
/// The record index meaning "no record yet" (the first player).
pub const NO_RECORD: usize = 31;
/// Choices whose chances differ by no more than this are equally good, and
/// the player keeps fewer dice. Part of the sequential model: later players'
/// totals depend on it.
pub const TIE_EPSILON: f64 = 1e-12;
/// The faces from lowest worth to highest: a 3 is worth 0. Kept dice are
/// always the lowest-worth ones, and are shown in this order.
pub const FACES_BY_WORTH: [u8; FACES] = [3, 1, 2, 4, 5, 6];

/// The index of the model's choice among option values, c = 1, 2, ... in
/// order: scanning them, a later option replaces the current choice only
/// when its value exceeds it by more than [`TIE_EPSILON`], so ties go to
/// fewer dice. (To minimise, pass the values negated.) Returns 0 for no
/// options.
pub fn best_choice(values: impl IntoIterator<Item = f64>) -> usize {
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, v) in values.into_iter().enumerate() {
        if v > best.0 + TIE_EPSILON {
            best = (v, i);
        }
    }
    best.1
}

/// What a die showing `face` is worth: its face, but 0 for a 3.
pub fn worth(face: u8) -> u8 {
    if face == 3 {
        0
    } else {
        face
    }
}

/// How a tie with the record or with a later player counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// A tie counts as a win: success is ending at most the record with no
    /// later player strictly below.
    Win,
    /// A tie counts as a loss: success is ending strictly below the record
    /// with no later player at or below.
    Lose,
}

/// How the players after you play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Each later player, independently, plays a fresh turn only to beat
    /// your total (the seed's model).
    Independent,
    /// Each later player plays optimally for their own success, facing your
    /// total as the record with their own players after them (exact).
    Sequential,
}

/// The chance a stored `f32` (as its bits) stands for. Chances at most 1/2
/// are stored as themselves; larger ones as the negated complement, `-(1 -
/// p)`, so that a chance close to 1 keeps the same relative precision as one
/// close to 0 (and -0.0 is exactly 1). The arithmetic is in f64, as every
/// reader must do it to decide as the table does.
pub fn decode_chance(bits: u32) -> f64 {
    let stored = f64::from(f32::from_bits(bits));
    if bits >> 31 == 1 {
        1.0 + stored
    } else {
        stored
    }
}

/// Points kept so far: 0..=MAX_TOTAL.
const POINTS: usize = MAX_TOTAL + 1;

/// The index of a state in the `chance` section: dimensions (model, players
/// after, record, ties, points, dice left), so that the two tie rules' very
/// similar chances lie side by side and a chunk of the section compresses on
/// its own. `record` is 0..=30 or [`NO_RECORD`].
pub fn state_index(ties: Ties, model: Model, after: usize, record: usize, points: usize, dice: usize) -> usize {
    ((((model as usize * AFTER + after) * RECORDS + record) * 2 + ties as usize) * POINTS + points) * (DICE + 1) + dice
}
/// Entries of the `chance` section.
pub const CHANCES: usize = 2 * 2 * AFTER * RECORDS * POINTS * (DICE + 1);
/// Rolls of at most five dice are ranked below this: the stride of a state in
/// an exception's key.
pub const ROLL_STRIDE: usize = 252;
/// The most exceptions a table may list.
pub const MAX_EXCEPTIONS: i64 = 1 << 24;

/// Where a player stands: everything but the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// How ties count.
    pub ties: Ties,
    /// How the later players play.
    pub model: Model,
    /// The lowest total before this player, 0..=30, or none.
    pub record: Option<u8>,
    /// Points kept so far, 0..=30.
    pub points: u8,
    /// Players still to play after this one, 0..=15.
    pub after: u8,
}

impl Default for Situation {
    /// The first player, nobody after, no points yet, ties win, sequential.
    fn default() -> Situation {
        Situation { ties: Ties::Win, model: Model::Sequential, record: None, points: 0, after: 0 }
    }
}

/// One choice after a roll: keep the `count` lowest-worth dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// How many dice are kept.
    pub count: u8,
    /// The dice kept; shown lowest worth first (3s first).
    pub dice: Dice,
    /// Points kept after this choice.
    pub points: u8,
    /// Dice left to throw after this choice.
    pub dice_left: u8,
}

impl fmt::Display for Keep {
    /// The kept dice as digits, lowest worth first: "33124".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for face in FACES_BY_WORTH {
            for _ in 0..self.dice.count(face) {
                write!(f, "{face}")?;
            }
        }
        Ok(())
    }
}

/// A choice and its chance of success.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceOption {
    /// The choice.
    pub keep: Keep,
    /// The chance of success after it, under optimal play.
    pub chance: f64,
}

/// A choice and the lowest expected final total after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedOption {
    /// The choice.
    pub keep: Keep,
    /// The expected final total after it, playing to minimise it.
    pub expected_total: f64,
}

/// Every choice of a roll by chance of success: keep 1, keep 2, ... (at most 5).
pub type ChanceOptions = Options<ChanceOption, DICE>;
/// Every choice of a roll by expected total: keep 1, keep 2, ... (at most 5).
pub type ExpectedOptions = Options<ExpectedOption, DICE>;

impl std::str::FromStr for Ties {
    type Err = ArgumentError;
    fn from_str(s: &str) -> Result<Ties, ArgumentError> {
        match s {
            "win" => Ok(Ties::Win),
            "lose" => Ok(Ties::Lose),
            _ => {
                Err(ArgumentErrorKind::NotOneOf { what: "ties", given: s.to_string(), accepted: &["win", "lose"] }
                    .into())
            }
        }
    }
}

impl std::str::FromStr for Model {
    type Err = ArgumentError;
    fn from_str(s: &str) -> Result<Model, ArgumentError> {
        match s {
            "independent" => Ok(Model::Independent),
            "sequential" => Ok(Model::Sequential),
            _ => Err(ArgumentErrorKind::NotOneOf {
                what: "model",
                given: s.to_string(),
                accepted: &["independent", "sequential"],
            }
            .into()),
        }
    }
}

/// The sizes of a threes table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Decisions listed as exceptions (header parameter `exceptions`).
    pub exceptions: u64,
}

/// Why a state is out of the table's range (one of [`Threes::state`]'s checks failed).
#[cold]
fn out_of_range(s: Situation, dice_left: u8) -> ArgumentError {
    let (what, given, accepted) = if usize::from(s.points) > MAX_TOTAL {
        ("points", s.points, "points kept so far are 0 to 30")
    } else if usize::from(s.after) >= AFTER {
        ("players after", s.after, "the table has 0 to 15")
    } else if let Some(r) = s.record.filter(|&r| usize::from(r) > MAX_TOTAL) {
        ("record", r, "a record is a total 0 to 30")
    } else {
        ("dice left", dice_left, "0 to 5")
    };
    ArgumentErrorKind::ThreesOutOfRange { what, given, accepted }.into()
}

/// The chance of success (encoded, see [`decode_chance`]): per (model,
/// players after, record, ties, points, dice left), see [`state_index`]; a
/// chunk for every two numbers of players after (95,232 bytes: 16 chunks
/// compress within 0.2 % of one).
pub const CHANCE: SectionSpec<Params> = SectionSpec::new(0, "chance", DType::F32, Encoding::Zstd, |_| {
    vec![2, AFTER as u64, RECORDS as u64, 2, POINTS as u64, DICE as u64 + 1]
})
.chunked((CHANCE_CHUNK * 4) as u64);
/// States in a chunk of [`CHANCE`]: two numbers of players after.
const CHANCE_CHUNK: usize = 2 * RECORDS * 2 * POINTS * (DICE + 1);
/// The lowest expected total still to come: per dice left.
pub const EXPECTED: SectionSpec<Params> =
    SectionSpec::new(1, "expected", DType::F64, Encoding::Raw, |_| vec![DICE as u64 + 1]);
/// Decisions the stored chances would get wrong, ascending: state x 252 + roll rank.
pub const EXCEPTION_KEY: SectionSpec<Params> =
    SectionSpec::new(2, "exception_key", DType::U32, Encoding::Zstd, |p| vec![p.exceptions]);
/// How many dice the exact policy keeps in each exception.
pub const EXCEPTION_KEEP: SectionSpec<Params> =
    SectionSpec::new(3, "exception_keep", DType::U8, Encoding::Zstd, |p| vec![p.exceptions]);

/// A threes table.
#[derive(Debug)]
pub struct Threes {
    t: Checked<Threes>,
}

impl Game for Threes {
    const ID: &'static str = "threes";
    type Params = Params;
    const SECTIONS: &'static [SectionSpec<Params>] = &[CHANCE, EXPECTED, EXCEPTION_KEY, EXCEPTION_KEEP];

    fn params(header: &Header) -> Result<Params, TableError> {
        Ok(Params { exceptions: param_in(header, "exceptions", 0..=MAX_EXCEPTIONS)? as u64 })
    }

    fn header_params(params: &Params) -> Vec<(&'static str, i64)> {
        vec![("exceptions", params.exceptions as i64)]
    }

    /// On open: expected totals in 0 to 30, exceptions sorted, each naming a
    /// roll and a keep that exist. (Chances are checked on first use.)
    fn check_contents(t: &Checked<Threes>) -> Result<(), TableError> {
        let bad = |spec: &SectionSpec<Params>, why: String| Err(TableError::section(spec.name, why));
        let expected = t.whole(&EXPECTED)?;
        if let Some(i) = (0..=DICE).find(|&i| !(0.0..=MAX_TOTAL as f64).contains(&read_f64(expected, i))) {
            return bad(&EXPECTED, format!("holds a total outside 0 to 30 at {i}"));
        }
        let (keys, keeps) = (t.whole(&EXCEPTION_KEY)?, t.whole(&EXCEPTION_KEEP)?);
        let mut previous = None;
        for (i, &keep) in keeps.iter().enumerate() {
            let key = read_u32(keys, i);
            let (state, roll) = (key as usize / ROLL_STRIDE, key as usize % ROLL_STRIDE);
            let dice = state % (DICE + 1);
            if previous.is_some_and(|p| p >= key) {
                return bad(&EXCEPTION_KEY, format!("is not strictly increasing at {i}"));
            }
            if state >= CHANCES || roll >= multiset_count(dice) || !(1..=dice).contains(&usize::from(keep)) {
                return bad(&EXCEPTION_KEEP, format!("entry {i} names no roll or keep of its state"));
            }
            previous = Some(key);
        }
        Ok(())
    }

    /// Chances in 0 to 1.
    fn check_chunk(_: &Params, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section != CHANCE.index {
            return Ok(());
        }
        match (0..bytes.len() / 4).find(|&i| !(0.0..=1.0).contains(&decode_chance(read_u32(bytes, i)))) {
            Some(i) => Err(TableError::section(
                CHANCE.name,
                format!("holds a chance outside 0 to 1 at {}", start / 4 + i as u64),
            )),
            None => Ok(()),
        }
    }

    fn from_checked(t: Checked<Threes>) -> Result<Threes, TableError> {
        Ok(Threes { t })
    }

    fn checked(&self) -> &Checked<Threes> {
        &self.t
    }
}

impl Threes {
    /// The index of a state in the `chance` section, its arguments checked.
    #[inline]
    fn state(&self, s: Situation, dice_left: u8) -> Result<usize, ArgumentError> {
        let in_range = usize::from(s.points) <= MAX_TOTAL
            && usize::from(s.after) < AFTER
            && s.record.is_none_or(|r| usize::from(r) <= MAX_TOTAL)
            && usize::from(dice_left) <= DICE;
        if !in_range {
            return Err(out_of_range(s, dice_left));
        }
        let record = s.record.map_or(NO_RECORD, usize::from);
        Ok(state_index(s.ties, s.model, usize::from(s.after), record, usize::from(s.points), usize::from(dice_left)))
    }

    /// The chance of success with `dice_left` dice still to throw (0: the
    /// turn is over with `s.points`, and this is the chance that total
    /// survives the players after).
    pub fn chance(&self, s: Situation, dice_left: u8) -> Result<f64, Error> {
        check_points_left(s.points, dice_left)?;
        let i = self.state(s, dice_left)?;
        // By its position in the section, not by chunk: the address then
        // does not wait on which chunk it is in (only the ready check does).
        Ok(decode_chance(self.t.u32_at(&CHANCE, i)?))
    }

    /// The chance of a state that may lie past 30 points: past 30 the total
    /// loses to any record and to any later player, and only the first of
    /// one player (no record, nobody after) is sure to succeed.
    fn chance_or_beyond(&self, s: Situation, dice_left: u8) -> Result<f64, Error> {
        if usize::from(s.points) > MAX_TOTAL {
            return Ok(if s.record.is_none() && s.after == 0 { 1.0 } else { 0.0 });
        }
        self.chance(s, dice_left)
    }

    /// The lowest expected final total from `points` with `dice_left` dice to throw.
    pub fn expected(&self, points: u8, dice_left: u8) -> Result<f64, Error> {
        check_points_left(points, dice_left)?;
        let s = Situation { points, ..Situation::default() };
        self.state(s, dice_left)?;
        Ok(f64::from(points) + self.t.f64_at(&EXPECTED, usize::from(dice_left))?)
    }

    /// Every choice for `roll` (the 1-5 dice just thrown) with its chance of
    /// success, keep 1 first, and the best.
    pub fn options(&self, s: Situation, roll: Dice) -> Result<ChanceOptions, Error> {
        let state = self.state(s, roll.len().min(DICE) as u8)?;
        let n = check_throw(s.points, roll)?;
        let mut out = ChanceOptions::new();
        for keep in keeps(s.points, roll) {
            let chance = self.chance_or_beyond(Situation { points: keep.points, ..s }, keep.dice_left)?;
            out.push(ChanceOption { keep, chance });
        }
        let mut best = best_choice(out.iter().map(|o| o.chance));
        // Where the chances as stored would choose otherwise than the exact
        // policy, the table lists the exact choice.
        if let Some(count) = self.exception(state * ROLL_STRIDE + roll.rank())? {
            best = usize::from(count).clamp(1, n) - 1;
        }
        out.set_best(best);
        Ok(out)
    }

    /// The exact policy's keep count for an exception key, if listed.
    fn exception(&self, key: usize) -> Result<Option<u8>, TableError> {
        let keys = self.t.whole(&EXCEPTION_KEY)?;
        let count = keys.len() / 4;
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if (read_u32(keys, mid) as usize) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo < count && read_u32(keys, lo) as usize == key {
            return Ok(Some(self.t.whole(&EXCEPTION_KEEP)?[lo]));
        }
        Ok(None)
    }

    /// Every choice for `roll` with the lowest expected final total after
    /// it, keep 1 first, and the best.
    pub fn expected_options(&self, points: u8, roll: Dice) -> Result<ExpectedOptions, Error> {
        self.expected(points, roll.len().min(DICE) as u8)?;
        check_throw(points, roll)?;
        let expected = self.t.whole(&EXPECTED)?;
        let mut out = ExpectedOptions::new();
        for keep in keeps(points, roll) {
            let expected_total = f64::from(keep.points) + read_f64(expected, usize::from(keep.dice_left));
            out.push(ExpectedOption { keep, expected_total });
        }
        out.set_best(best_choice(out.iter().map(|o| -o.expected_total)));
        Ok(out)
    }
}

/// Checks a throw of 1 to 5 dice after keeping `points`: the dice kept
/// before it (five less those thrown) are worth at most 6 each, so the
/// points cannot be more. Returns how many dice were thrown.
fn check_throw(points: u8, roll: Dice) -> Result<usize, ArgumentError> {
    let n = roll.len();
    if !(1..=DICE).contains(&n) {
        return Err(ArgumentErrorKind::ThreesThrowDice { given: n }.into());
    }
    check_kept_points(points, DICE - n, format_args!("with {n} dice thrown"))?;
    Ok(n)
}

/// Checks that the dice kept before `dice_left` remain can be worth `points`.
fn check_points_left(points: u8, dice_left: u8) -> Result<(), ArgumentError> {
    match DICE.checked_sub(usize::from(dice_left)) {
        Some(kept) => check_kept_points(points, kept, format_args!("with {dice_left} dice remaining")),
        None => Ok(()), // the state's own check names the count
    }
}

/// Checks that `kept` dice can be worth `points` (`when` says when, for
/// the message): each is worth 0 (a three), 1, 2, 4, 5 or 6, so one die is
/// never worth 3 and `kept` dice at most `6 * kept`. (`when` is formatted
/// only for the message: a lookup's check allocates nothing.)
#[inline]
pub fn check_kept_points(points: u8, kept: usize, when: std::fmt::Arguments) -> Result<(), ArgumentError> {
    if usize::from(points) <= 6 * kept && !(kept == 1 && points == 3) {
        return Ok(());
    }
    Err(kept_points_error(points, kept, when))
}

/// Why [`check_kept_points`] refused.
#[cold]
fn kept_points_error(points: u8, kept: usize, when: std::fmt::Arguments) -> ArgumentError {
    ArgumentErrorKind::KeptPoints { given: points, kept, when: when.to_string() }.into()
}

/// The choices of a roll from `points` kept before it: keep 1..=n of its
/// lowest-worth dice.
fn keeps(points: u8, roll: Dice) -> impl Iterator<Item = Keep> {
    let faces = FACES_BY_WORTH.into_iter().flat_map(move |f| std::iter::repeat_n(f, usize::from(roll.count(f))));
    let none = Keep { count: 0, dice: Dice::EMPTY, points, dice_left: roll.len() as u8 };
    faces.enumerate().scan(none, |keep, (i, face)| {
        *keep = Keep {
            count: i as u8 + 1,
            dice: keep.dice.with(face).expect("at most five dice"),
            points: keep.points + worth(face),
            dice_left: keep.dice_left - 1,
        };
        Some(*keep)
    })
}
