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
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
//! # if !dir.join("threes.dtab").exists() { return Ok(()); }
//! use dice_tables_reader::threes::{Model, Situation, Threes};
//! let threes = Threes::open(dir.join("threes.dtab"))?;
//! // Record 8, nobody after: with 3-1-3-2-4 showing, keep all five (total 7).
//! let situation = Situation { record: Some(8), model: Model::Independent, ..Situation::default() };
//! let options = threes.options(situation, "31324".parse().unwrap())?;
//! assert_eq!(options.best().keep, "33124");
//! assert_eq!(options.best().chance, 1.0);
//! # Ok(()) }
//! ```

use std::path::Path;

use crate::dice::{multiset_count, Dice};
use crate::error::Error;
use crate::format::{DType, ExpectedSection, Header};
use crate::table::Table;
use crate::turn::{read_f64, read_u32};

/// The game id in the header.
pub const GAME: &str = "threes";
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
/// Faces in worth order, lowest first: a 3 is worth 0.
pub const CLASS_FACE: [u8; 6] = [3, 1, 2, 4, 5, 6];
/// The worth of each face in [`CLASS_FACE`] order.
pub const CLASS_WORTH: [u8; 6] = [0, 1, 2, 4, 5, 6];

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
#[derive(Clone, Debug, PartialEq)]
pub struct KeepOption {
    /// How many dice are kept.
    pub count: u8,
    /// The dice kept as digits, lowest worth first (3s first).
    pub keep: String,
    /// Points kept after this choice.
    pub points: u8,
    /// Dice left to throw after this choice.
    pub dice_left: u8,
    /// The chance of success after this choice (`win`), or the expected
    /// final total (`expected`).
    pub chance: f64,
}

/// Every choice of a roll, fewest dice kept first, and the best one.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    list: Vec<KeepOption>,
    best: usize,
}

impl Options {
    /// The best choice: the model's (the highest chance, or the lowest
    /// expected total; on a tie within [`TIE_EPSILON`], fewer dice).
    pub fn best(&self) -> &KeepOption {
        &self.list[self.best]
    }

    /// Every choice, keep 1, keep 2, ...
    pub fn all(&self) -> &[KeepOption] {
        &self.list
    }
}

impl Ties {
    fn index(self) -> usize {
        self as usize
    }
}

impl Model {
    fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for Ties {
    type Err = Error;
    fn from_str(s: &str) -> Result<Ties, Error> {
        match s {
            "win" => Ok(Ties::Win),
            "lose" => Ok(Ties::Lose),
            _ => Err(Error::InvalidArgument(format!("ties {s:?} is not one of: win, lose"))),
        }
    }
}

impl std::str::FromStr for Model {
    type Err = Error;
    fn from_str(s: &str) -> Result<Model, Error> {
        match s {
            "independent" => Ok(Model::Independent),
            "sequential" => Ok(Model::Sequential),
            _ => Err(Error::InvalidArgument(format!("model {s:?} is not one of: independent, sequential"))),
        }
    }
}

/// The sections of a threes table listing `exceptions` exceptions.
pub fn expected_sections(exceptions: u64) -> Vec<ExpectedSection> {
    vec![
        ExpectedSection {
            name: "chance",
            dtype: DType::F32,
            dims: vec![2, 2, AFTER as u64, RECORDS as u64, POINTS as u64, DICE as u64 + 1],
        },
        ExpectedSection { name: "expected", dtype: DType::F64, dims: vec![DICE as u64 + 1] },
        ExpectedSection { name: "exception_key", dtype: DType::U32, dims: vec![exceptions] },
        ExpectedSection { name: "exception_keep", dtype: DType::U8, dims: vec![exceptions] },
    ]
}

/// The number of exceptions a threes header declares, checked.
pub(crate) fn header_exceptions(header: &Header) -> Result<u64, Error> {
    let n = header.param("exceptions").ok_or(Error::BadParam { name: "exceptions", why: "is missing".into() })?;
    if !(0..=MAX_EXCEPTIONS).contains(&n) {
        return Err(Error::BadParam { name: "exceptions", why: format!("is {n}, not 0..={MAX_EXCEPTIONS}") });
    }
    Ok(n as u64)
}

/// Checks every value a lookup trusts: chances in 0..=1, expected totals in
/// 0..=30, exceptions sorted, each naming a roll and a keep that exist.
pub(crate) fn check_contents(table: &Table) -> Result<(), Error> {
    let section = |name: &str| table.section(name).expect("schema checked on open").1;
    let bad = |name: &str, why: String| Err(Error::BadSection { name: name.into(), why });
    let chances = section("chance");
    if let Some(i) = (0..CHANCES).find(|&i| !(0.0..=1.0).contains(&decode_chance(read_u32(chances, i)))) {
        return bad("chance", format!("holds a chance outside 0..=1 at {i}"));
    }
    let expected = section("expected");
    if let Some(i) = (0..=DICE).find(|&i| !(0.0..=MAX_TOTAL as f64).contains(&read_f64(expected, i))) {
        return bad("expected", format!("holds a total outside 0..=30 at {i}"));
    }
    let (keys, keeps) = (section("exception_key"), section("exception_keep"));
    let mut previous = None;
    for (i, &keep) in keeps.iter().enumerate() {
        let key = read_u32(keys, i);
        let (state, roll) = (key as usize / ROLL_STRIDE, key as usize % ROLL_STRIDE);
        let dice = state % (DICE + 1);
        if previous.is_some_and(|p| p >= key) {
            return bad("exception_key", format!("is not strictly increasing at {i}"));
        }
        if state >= CHANCES || roll >= multiset_count(dice) || !(1..=dice).contains(&usize::from(keep)) {
            return bad("exception_keep", format!("entry {i} names no roll or keep of its state"));
        }
        previous = Some(key);
    }
    Ok(())
}

/// A verified threes table.
pub struct Threes {
    table: Table,
    chance: usize,
    expected: usize,
    exception_key: usize,
    exception_keep: usize,
}

impl Threes {
    /// Opens and verifies `threes.dtab` (or any path holding a threes table).
    pub fn open(path: impl AsRef<Path>) -> Result<Threes, Error> {
        Threes::from_table(Table::open(path)?)
    }

    /// Wraps an opened table; an error when it is not a threes table.
    pub fn from_table(table: Table) -> Result<Threes, Error> {
        if table.header().game != GAME {
            return Err(Error::WrongGame { found: table.header().game.clone(), expected: GAME });
        }
        let index = |name| table.section_index(name).expect("schema checked on open");
        Ok(Threes {
            chance: index("chance"),
            expected: index("expected"),
            exception_key: index("exception_key"),
            exception_keep: index("exception_keep"),
            table,
        })
    }

    /// The index of a state in the `chance` section, its arguments checked.
    fn state(&self, s: Situation, dice_left: u8) -> Result<usize, Error> {
        let invalid = |what: String| Err(Error::InvalidArgument(what));
        if usize::from(s.points) > MAX_TOTAL {
            return invalid(format!("points {} is out of range: points kept so far are 0..=30", s.points));
        }
        if usize::from(s.after) >= AFTER {
            return invalid(format!("players after {} is out of range: the table has 0..=15", s.after));
        }
        if s.record.is_some_and(|r| usize::from(r) > MAX_TOTAL) {
            return invalid(format!("record {} is out of range: a record is a total 0..=30", s.record.unwrap_or(0)));
        }
        if usize::from(dice_left) > DICE {
            return invalid(format!("{dice_left} dice left is out of range: 0..=5"));
        }
        let record = s.record.map_or(NO_RECORD, usize::from);
        let layer = (s.ties.index() * 2 + s.model.index()) * AFTER + usize::from(s.after);
        Ok(((layer * RECORDS + record) * POINTS + usize::from(s.points)) * (DICE + 1) + usize::from(dice_left))
    }

    /// The chance of success with `dice_left` dice still to throw (0: the
    /// turn is over with `s.points`, and this is the chance that total
    /// survives the players after).
    pub fn chance(&self, s: Situation, dice_left: u8) -> Result<f64, Error> {
        let i = self.state(s, dice_left)?;
        Ok(decode_chance(read_u32(self.table.section_bytes(self.chance), i)))
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
        let s = Situation { points, ..Situation::default() };
        self.state(s, dice_left)?;
        Ok(f64::from(points) + read_f64(self.table.section_bytes(self.expected), usize::from(dice_left)))
    }

    /// Every choice for `roll` (the 1-5 dice just thrown) and the best, by
    /// chance of success.
    pub fn options(&self, s: Situation, roll: Dice) -> Result<Options, Error> {
        let n = check_throw(roll)?;
        let state = self.state(s, n as u8)?;
        let mut list = keep_options(s.points, roll);
        for o in &mut list {
            o.chance = self.chance_or_beyond(Situation { points: o.points, ..s }, o.dice_left)?;
        }
        let mut best = best_choice(list.iter().map(|o| o.chance));
        // Where the chances as stored would choose otherwise than the exact
        // policy, the table lists the exact choice.
        let key = (state * ROLL_STRIDE + roll.rank()) as u32;
        let keys = self.table.section_bytes(self.exception_key);
        let count = keys.len() / 4;
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if read_u32(keys, mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo < count && read_u32(keys, lo) == key {
            best = usize::from(self.table.section_bytes(self.exception_keep)[lo]).min(n).max(1) - 1;
        }
        Ok(Options { list, best })
    }

    /// Every choice for `roll` and the best, by expected final total (here
    /// `KeepOption::chance` holds the expected total).
    pub fn expected_options(&self, points: u8, roll: Dice) -> Result<Options, Error> {
        let n = check_throw(roll)?;
        self.expected(points, n as u8)?;
        let mut list = keep_options(points, roll);
        let expected = self.table.section_bytes(self.expected);
        for o in &mut list {
            o.chance = f64::from(o.points) + read_f64(expected, usize::from(o.dice_left));
        }
        let best = best_choice(list.iter().map(|o| -o.chance));
        Ok(Options { list, best })
    }
}

/// Checks a throw: 1 to 5 dice. Returns how many.
fn check_throw(roll: Dice) -> Result<usize, Error> {
    if !(1..=DICE).contains(&roll.len()) {
        return Err(Error::InvalidArgument(format!(
            "{} dice given: threes throws 1 to 5 dice, digits 1-6 like 31324",
            roll.len()
        )));
    }
    Ok(roll.len())
}

/// The choices of a roll, keep 1..=n lowest-worth dice, chances not filled in.
fn keep_options(points: u8, roll: Dice) -> Vec<KeepOption> {
    let mut faces: Vec<u8> = roll.faces().collect();
    faces.sort_by_key(|&f| (worth(f), f));
    (1..=faces.len())
        .map(|c| KeepOption {
            count: c as u8,
            keep: faces[..c].iter().map(|f| char::from(b'0' + f)).collect(),
            points: points + faces[..c].iter().map(|&f| worth(f)).sum::<u8>(),
            dice_left: (faces.len() - c) as u8,
            chance: 0.0,
        })
        .collect()
}
