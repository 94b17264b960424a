//! What the score-sheet games with an upper bonus (yatzy, yahtzee) share:
//! their scoring, the joker rule, which states a game can reach, and the one
//! turn solve a lookup makes from the stored turn-start values.
//!
//! A state at the start of a turn is (open categories, upper-section points
//! so far capped at 63, and for yahtzee whether the yahtzee box holds 50).
//! The upper bonus is paid at the end of the game, so it counts as still to
//! come until then.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::sheet::Action;
//! use dice_tables_reader::{Tables, Yahtzee, Yatzy};
//! let tables = Tables::open_default()?;
//! let yatzy = tables.get::<Yatzy>()?;
//! let start = yatzy.state(Yatzy::parse_mask("all")?, 0, false)?;
//! assert!((yatzy.turn_start_value(start)? - 248.4399894).abs() < 1e-7);
//!
//! // yahtzee: only ones and chance left, 40 upper points, a Yahtzee scored;
//! // 1-6-6-6-6 with one reroll to come: go for a fifth 6 (a joker worth 130).
//! let yahtzee = tables.get::<Yahtzee>()?;
//! let state = yahtzee.state(Yahtzee::parse_mask("ones,chance")?, 40, true)?;
//! let options = yahtzee.options(state, "66661".parse()?, 1)?;
//! assert_eq!(options.best().map(|o| o.action), Some(Action::Keep("6666".parse()?)));
//! // A program playing whole games solves each turn once.
//! let turn = yahtzee.turn(state)?;
//! assert_eq!(turn.options("66661".parse()?, 1)?.as_slice(), options.as_slice());
//! # Ok(()) }
//! ```

use std::fmt;
use std::sync::OnceLock;

use crate::dice::{Dice, FACES};
use crate::error::{ArgumentError, Error, TableError};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::options::Options;
use crate::turn::{
    check_roll, parse_mask, read_u32, KeepLattice, DICE, KEEPS, KEEP_ALL, KEEP_LATTICE, PARTIAL_KEEPS,
    PARTIAL_KEEP_DICE, ROLLS,
};

/// Upper-section points at which the bonus is earned; totals from here on
/// are one state.
pub const BONUS_AT: u8 = 63;
/// Upper totals a table distinguishes: 0 to 63.
pub const UPPER_TOTALS: usize = BONUS_AT as usize + 1;
/// The most an upper total can be before capping: five sixes, fives, ... ones.
pub const MAX_UPPER_POINTS: u8 = 105;
/// The extra points of each further Yahtzee while the yahtzee box holds 50.
pub const YAHTZEE_BONUS: u8 = 100;

/// Where a Yahtzee rolled with the yahtzee box already filled may be scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Joker {
    /// The official reading: the matching upper box if it is open; else any
    /// open lower box (full house, straights at full value); else a zero in
    /// an open upper box.
    Forced,
    /// Any open box (Verhoeff's rules): the upper boxes as usual, the lower
    /// ones as usual too while the matching upper box is open, at full
    /// value once it is filled.
    Free,
}

/// The scoring of one score-sheet game: categories `0..6` are ones to sixes
/// (face times count) and count towards the upper bonus.
#[derive(Clone, Copy, Debug)]
pub struct Scoring {
    /// Category names in mask-bit order.
    pub categories: &'static [&'static str],
    /// The upper bonus, paid when the upper total reaches [`BONUS_AT`].
    pub upper_bonus: u8,
    /// The points of a roll (face counts) in a lower category (index 6 and up).
    lower_points: fn(&[u8; FACES], usize) -> u8,
    /// yahtzee: the yahtzee box's index and the joker reading.
    pub joker: Option<(usize, Joker)>,
}

/// One way to score a roll: the category, the points it scores now (any
/// Yahtzee bonus included), and the state it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// The category filled.
    pub category: usize,
    /// Points now, a Yahtzee bonus included.
    pub points: u8,
    /// Points added to the upper total (the points of an upper category, else 0).
    pub upper: u8,
    /// Whether the yahtzee box holds 50 afterwards.
    pub bonus_flag: bool,
}

/// The upper categories' bits.
pub const UPPER_MASK: u32 = (1 << FACES) - 1;

impl Scoring {
    /// The points of `dice` in category `c` by the ordinary rules (no joker).
    pub fn points(&self, counts: &[u8; FACES], c: usize) -> u8 {
        if c < FACES {
            (c as u8 + 1) * counts[c]
        } else {
            (self.lower_points)(counts, c)
        }
    }

    /// Every way to score `dice` with the categories of `mask` open and the
    /// yahtzee box holding 50 (`bonus_flag`), in category order, passed to `each`.
    #[inline]
    pub fn scores(&self, mask: u32, bonus_flag: bool, dice: &Dice, mut each: impl FnMut(Score)) {
        let counts = dice.counts();
        let yahtzee_face = counts.iter().position(|&n| n == 5);
        let joker = match (self.joker, yahtzee_face) {
            (Some((box_, reading)), Some(face)) if mask >> box_ & 1 == 0 => Some((reading, face)),
            _ => None,
        };
        let Some((reading, face)) = joker else {
            for c in (0..self.categories.len()).filter(|&c| mask >> c & 1 == 1) {
                let points = self.points(&counts, c);
                let upper = if c < FACES { points } else { 0 };
                let flag = bonus_flag || (Some(c) == self.joker.map(|j| j.0) && points > 0);
                each(Score { category: c, points, upper, bonus_flag: flag });
            }
            return;
        };
        // A joker: the yahtzee box is filled, so the flag cannot change.
        let bonus = if bonus_flag { YAHTZEE_BONUS } else { 0 };
        let lower_open = mask & !UPPER_MASK != 0;
        for c in (0..self.categories.len()).filter(|&c| mask >> c & 1 == 1) {
            let allowed = match reading {
                Joker::Free => true,
                Joker::Forced if mask >> face & 1 == 1 => c == face,
                Joker::Forced => (c >= FACES) == lower_open,
            };
            if allowed {
                // Full house and the straights take a joker at full value only
                // once the matching upper box is filled (under the forced
                // reading the only lower boxes allowed are then).
                let full_value = c >= FACES && mask >> face & 1 == 0;
                let points = if full_value { joker_points(&counts, c) } else { self.points(&counts, c) };
                let upper = if c < FACES { points } else { 0 };
                each(Score { category: c, points: points + bonus, upper, bonus_flag });
            }
        }
    }
}

/// A Yahtzee's points in yahtzee's lower category `c` as a joker.
fn joker_points(counts: &[u8; FACES], c: usize) -> u8 {
    // Three and four of a kind and chance score the sum, as without a joker.
    match c {
        HZ_FULL_HOUSE => 25,
        HZ_SMALL_STRAIGHT => 30,
        HZ_LARGE_STRAIGHT => 40,
        _ => yahtzee_lower_points(counts, c),
    }
}

/// The face counts' sum.
fn sum(counts: &[u8; FACES]) -> u8 {
    counts.iter().enumerate().map(|(f, &n)| (f as u8 + 1) * n).sum()
}

/// The longest run of consecutive faces showing.
fn longest_run(counts: &[u8; FACES]) -> usize {
    let (mut best, mut run) = (0, 0);
    for &n in counts {
        run = if n > 0 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// yatzy's categories in mask-bit order.
pub const YATZY_CATEGORIES: [&str; 15] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "pair",
    "two-pairs",
    "three-kind",
    "four-kind",
    "small-straight",
    "large-straight",
    "full-house",
    "chance",
    "yatzy",
];

fn yatzy_lower_points(counts: &[u8; FACES], c: usize) -> u8 {
    // Indices as in YATZY_CATEGORIES. Faces from the highest down, so the
    // first match is the highest.
    let highest_with = |n: u8| (0..FACES).rev().find(|&f| counts[f] >= n).map(|f| f as u8 + 1);
    match c {
        6 => highest_with(2).map_or(0, |f| 2 * f),
        7 => {
            let mut pairs = (0..FACES).rev().filter(|&f| counts[f] >= 2).map(|f| f as u8 + 1);
            match (pairs.next(), pairs.next()) {
                (Some(a), Some(b)) => 2 * (a + b),
                _ => 0,
            }
        }
        8 => highest_with(3).map_or(0, |f| 3 * f),
        9 => highest_with(4).map_or(0, |f| 4 * f),
        10 => {
            if counts[..5] == [1; 5] {
                15
            } else {
                0
            }
        }
        11 => {
            if counts[1..] == [1; 5] {
                20
            } else {
                0
            }
        }
        12 => {
            if counts.contains(&3) && counts.contains(&2) {
                sum(counts)
            } else {
                0
            }
        }
        13 => sum(counts),
        14 => {
            if counts.contains(&5) {
                50
            } else {
                0
            }
        }
        _ => unreachable!("yatzy has 15 categories"),
    }
}

/// yatzy (Scandinavian): upper bonus 50.
pub const YATZY: Scoring =
    Scoring { categories: &YATZY_CATEGORIES, upper_bonus: 50, lower_points: yatzy_lower_points, joker: None };

/// yahtzee's categories in mask-bit order.
pub const YAHTZEE_CATEGORIES: [&str; 13] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three-kind",
    "four-kind",
    "full-house",
    "small-straight",
    "large-straight",
    "yahtzee",
    "chance",
];

/// The yahtzee box's mask bit.
pub const YAHTZEE_BOX: usize = 11;
const HZ_FULL_HOUSE: usize = 8;
const HZ_SMALL_STRAIGHT: usize = 9;
const HZ_LARGE_STRAIGHT: usize = 10;

fn yahtzee_lower_points(counts: &[u8; FACES], c: usize) -> u8 {
    let most = *counts.iter().max().expect("six faces");
    let run = longest_run(counts);
    let worth = |yes: bool, points: u8| if yes { points } else { 0 };
    match c {
        6 => worth(most >= 3, sum(counts)),
        7 => worth(most >= 4, sum(counts)),
        HZ_FULL_HOUSE => worth(counts.contains(&3) && counts.contains(&2), 25),
        HZ_SMALL_STRAIGHT => worth(run >= 4, 30),
        HZ_LARGE_STRAIGHT => worth(run >= 5, 40),
        YAHTZEE_BOX => worth(most == 5, 50),
        12 => sum(counts),
        _ => unreachable!("yahtzee has 13 categories"),
    }
}

/// yahtzee (United States) under a joker reading: upper bonus 35, Yahtzee bonuses.
pub const fn yahtzee(reading: Joker) -> Scoring {
    Scoring {
        categories: &YAHTZEE_CATEGORIES,
        upper_bonus: 35,
        lower_points: yahtzee_lower_points,
        joker: Some((YAHTZEE_BOX, reading)),
    }
}

/// The upper totals (uncapped, bit `t` of the result for total `t`) a game
/// can have reached when exactly the upper categories in `scored` (bits
/// 0..6) are filled: each filled box holds 0 to 5 times its face.
pub fn reachable_upper_totals(scored: u32) -> u128 {
    let mut reach = 1u128;
    for face in (1..=FACES as u32).filter(|&f| scored >> (f - 1) & 1 == 1) {
        let mut next = 0;
        for n in 0..=5 {
            next |= reach << (n * face);
        }
        reach = next;
    }
    reach
}

/// The capped upper totals (bit `u` for 0..=63) reachable with `scored` filled.
pub fn reachable_capped_totals(scored: u32) -> u64 {
    let reach = reachable_upper_totals(scored);
    let low = reach as u64 & ((1 << BONUS_AT) - 1);
    low | u64::from(reach >> BONUS_AT != 0) << BONUS_AT
}

// ---------------------------------------------------------------------------
// The tables and their lookups.

/// Stored values are whole units of 1e-7 points (so a value prints exactly
/// to seven decimals).
pub const UNITS_PER_POINT: f64 = 1e7;
/// Bytes of a stored value: five byte planes of a zigzag delta.
pub const PLANES: usize = 5;
/// Upper-scored sets: `0..64`, bit `f` set when the box of face `f + 1` is filled.
pub const UPPER_SETS: usize = 64;

/// Options whose exact values differ by less than this are tied: both are
/// optimal (a difference this small is float rounding, or no difference at
/// all, as between keeping a 3 or a 4 that no open category wants), and the
/// first in the tie order is the decision.
pub const EXACT_TIE: f64 = 1e-9;
/// The tie tolerance of a lookup, on stored values (each within 5e-8 of the
/// exact one): wide enough that every exactly optimal option is inside it,
/// so a lookup decides as the exact solution does, except where some worse
/// option lies within about 2.2e-7 of the best; the generator lists those
/// decisions as exceptions.
pub const STORED_TIE: f64 = 1.2e-7;

/// The value of a keep is the average over the next die's six faces, as a
/// multiplication by this (a division per keep would cost the solver more
/// than the rest of the turn); the solver and a lookup's turn solve agree.
pub const SIXTH: f64 = 1.0 / 6.0;

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
/// keep's graded rank, or [`KEEP_ALL`].
pub const EXCEPTION_ACTION: SectionSpec<SheetParams> =
    SectionSpec::new(2, "exception_action", DType::U8, Encoding::Zstd, |p| vec![p.exceptions]);

/// What tells yatzy and yahtzee apart for the table and its lookups.
pub trait SheetGame: fmt::Debug + Send + Sync + 'static {
    /// The game id.
    const ID: &'static str;
    /// Category names, in mask-bit order.
    const CATEGORIES: &'static [&'static str];
    /// Flag values a mask has: 2 for yahtzee (whether the yahtzee box holds 50), else 1.
    const FLAGS: usize;
    /// The most a whole game can score: stored values are checked against it.
    const MAX_SCORE: f64;
    /// The sections: the turn-start values, [`EXCEPTION_KEY`], [`EXCEPTION_ACTION`].
    const SECTIONS: &'static [SectionSpec<SheetParams>];
    /// The rules in a header.
    fn rules(header: &Header) -> Result<SheetRules, TableError>;
    /// The header parameters of these rules.
    fn rules_params(rules: &SheetRules) -> Vec<(&'static str, i64)>;
    /// The scoring under these rules.
    fn scoring(rules: &SheetRules) -> Scoring;
}

/// Masks of a game's open categories: `0..masks`.
const fn masks(categories: usize) -> usize {
    1 << categories
}

/// Rows of one upper-scored set's chunk: one per (lower categories' bits, flag).
const fn rows_per_set(categories: usize, flags: usize) -> usize {
    masks(categories) / UPPER_SETS * flags
}

/// The turn-start section's dimensions: a chunk of bytes per upper-scored
/// set, room for five byte planes of every row's 64 totals (a set uses
/// five planes of its reachable totals only, then zeros: see FORMAT.md).
const fn turn_start_dims(categories: usize, flags: usize) -> [u64; 2] {
    [UPPER_SETS as u64, (PLANES * rows_per_set(categories, flags) * UPPER_TOTALS) as u64]
}

/// yatzy: the Scandinavian rules.
#[derive(Debug)]
pub struct YatzyGame;

/// yatzy's turn-start values (see FORMAT.md): per upper-scored set a chunk
/// of byte planes of zigzag deltas along the upper total.
pub const YATZY_TURN_START: SectionSpec<SheetParams> =
    SectionSpec::new(0, "turn_start", DType::U8, Encoding::Zstd, |_| turn_start_dims(15, 1).to_vec())
        .chunked((PLANES * rows_per_set(15, 1) * UPPER_TOTALS) as u64);

impl SheetGame for YatzyGame {
    const ID: &'static str = "yatzy";
    const CATEGORIES: &'static [&'static str] = &YATZY_CATEGORIES;
    const FLAGS: usize = 1;
    const MAX_SCORE: f64 = 374.0;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = &[YATZY_TURN_START, EXCEPTION_KEY, EXCEPTION_ACTION];
    fn rules(_: &Header) -> Result<SheetRules, TableError> {
        Ok(SheetRules { joker: None })
    }
    fn rules_params(_: &SheetRules) -> Vec<(&'static str, i64)> {
        Vec::new()
    }
    fn scoring(_: &SheetRules) -> Scoring {
        YATZY
    }
}

/// yahtzee: the United States rules.
#[derive(Debug)]
pub struct YahtzeeGame;

/// yahtzee's turn-start values, as [`YATZY_TURN_START`] with two rows a mask.
pub const YAHTZEE_TURN_START: SectionSpec<SheetParams> =
    SectionSpec::new(0, "turn_start", DType::U8, Encoding::Zstd, |_| turn_start_dims(13, 2).to_vec())
        .chunked((PLANES * rows_per_set(13, 2) * UPPER_TOTALS) as u64);

impl SheetGame for YahtzeeGame {
    const ID: &'static str = "yahtzee";
    const CATEGORIES: &'static [&'static str] = &YAHTZEE_CATEGORIES;
    const FLAGS: usize = 2;
    /// 375 on the sheet and twelve Yahtzee bonuses.
    const MAX_SCORE: f64 = 1575.0;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = &[YAHTZEE_TURN_START, EXCEPTION_KEY, EXCEPTION_ACTION];
    fn rules(header: &Header) -> Result<SheetRules, TableError> {
        let joker = match param_in(header, "joker", 0..=1)? {
            0 => Joker::Forced,
            _ => Joker::Free,
        };
        Ok(SheetRules { joker: Some(joker) })
    }
    fn rules_params(rules: &SheetRules) -> Vec<(&'static str, i64)> {
        vec![("joker", i64::from(rules.joker == Some(Joker::Free)))]
    }
    fn scoring(rules: &SheetRules) -> Scoring {
        yahtzee(rules.joker.unwrap_or(Joker::Forced))
    }
}

/// A yatzy table.
pub type Yatzy = ScoreSheet<YatzyGame>;
/// A yahtzee table.
pub type Yahtzee = ScoreSheet<YahtzeeGame>;

/// A turn-start state: the open categories, the upper total so far (capped
/// at 63) and whether the yahtzee box holds 50. Built by
/// [`ScoreSheet::state`], which refuses states no game can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    mask: u32,
    upper: u8,
    flag: bool,
}

impl State {
    /// The open categories' bits.
    pub fn mask(self) -> u32 {
        self.mask
    }
    /// The upper total, capped at 63.
    pub fn upper(self) -> u8 {
        self.upper
    }
    /// Whether the yahtzee box holds 50.
    pub fn yahtzee_bonus(self) -> bool {
        self.flag
    }
}

/// What to do with a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Keep these dice and reroll the rest (all five: stop rerolling).
    Keep(Dice),
    /// Score the dice in the category with this mask bit.
    Score(u8),
}

/// One legal action and the expected score still to come if it is taken.
pub type Choice = crate::options::Choice<Action>;

/// Every legal action of a roll, the optimal first, then from best to
/// worst: at most 32 keeps or 15 categories.
pub type Choices = Options<Choice, 32>;

/// A yatzy or yahtzee table: the turn-start values, from which a lookup
/// solves the turn it is asked about.
pub struct ScoreSheet<G: SheetGame> {
    t: Checked<Self>,
    turn: TurnSolver,
    /// Per upper-scored set, its chunk's values decoded once, on first use:
    /// per (row, upper total) the value in points.
    decoded: Box<[OnceLock<Box<[f64]>>]>,
}

impl<G: SheetGame> fmt::Debug for ScoreSheet<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(G::ID).field("t", &self.t).finish_non_exhaustive()
    }
}

impl<G: SheetGame> Game for ScoreSheet<G> {
    const ID: &'static str = G::ID;
    type Params = SheetParams;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = G::SECTIONS;

    fn params(header: &Header) -> Result<SheetParams, TableError> {
        let exceptions = param_in(header, "exceptions", 0..=MAX_EXCEPTIONS)? as u64;
        Ok(SheetParams { rules: G::rules(header)?, exceptions })
    }

    fn header_params(params: &SheetParams) -> Vec<(&'static str, i64)> {
        let mut out = G::rules_params(&params.rules);
        out.push(("exceptions", params.exceptions as i64));
        out
    }

    /// On open: the exceptions are ascending, each a decision of a state
    /// the game can reach, naming an action that decision has.
    fn check_contents(t: &Checked<Self>) -> Result<(), TableError> {
        let (keys, actions) = (t.whole(&EXCEPTION_KEY)?, t.whole(&EXCEPTION_ACTION)?);
        let turn = TurnSolver::new(G::scoring(&t.params().rules));
        let mut previous = None;
        for (i, &action) in actions.iter().enumerate() {
            let key = read_u32(keys, i);
            let bad = |why: String| Err(TableError::section(EXCEPTION_KEY.name, format!("entry {i} ({key}) {why}")));
            if previous.is_some_and(|p| key <= p) {
                return bad("is not above the one before".into());
            }
            previous = Some(key);
            let Some((state, dice, rerolls)) = decision_of::<G>(&turn, key) else {
                return bad("is no decision of a state the game can reach".into());
            };
            if turn.action_of(state, dice, rerolls, action).is_none() {
                return bad(format!("names action {action}, which that decision does not have"));
            }
        }
        Ok(())
    }

    /// Every row decodes to values from 0 to the game's maximum, and the
    /// chunk's tail past its values is zero.
    fn check_chunk(_: &SheetParams, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section != 0 {
            return Ok(());
        }
        let set = (start / G::SECTIONS[0].chunk_len) as usize % UPPER_SETS;
        let chunk = SetChunk::new(bytes, set, rows_per_set(G::CATEGORIES.len(), G::FLAGS));
        let max = (G::MAX_SCORE * UNITS_PER_POINT) as i64;
        for row in 0..chunk.rows {
            let mut value = 0i64;
            for k in 0..chunk.totals.len() {
                value += chunk.delta(row, k);
                if !(0..=max).contains(&value) {
                    let why = format!(
                        "decodes to {value} units for upper total {} in chunk {set}, outside 0 to {max}",
                        chunk.totals[k]
                    );
                    return Err(TableError::section("turn_start", why));
                }
            }
        }
        if bytes[PLANES * chunk.rows * chunk.totals.len()..].iter().any(|&b| b != 0) {
            return Err(TableError::section("turn_start", format!("chunk {set} has bytes past its values")));
        }
        Ok(())
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        let turn = TurnSolver::new(G::scoring(&t.params().rules));
        Ok(ScoreSheet { t, turn, decoded: (0..UPPER_SETS).map(|_| OnceLock::new()).collect() })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

/// One upper-scored set's chunk of the turn-start section: per row, the
/// zigzag deltas of the values at the set's reachable upper totals, in byte
/// planes, then zeros.
struct SetChunk<'a> {
    bytes: &'a [u8],
    rows: usize,
    /// The reachable upper totals, ascending.
    totals: arrayvec::ArrayVec<u8, UPPER_TOTALS>,
}

impl<'a> SetChunk<'a> {
    fn new(bytes: &'a [u8], set: usize, rows: usize) -> SetChunk<'a> {
        let reachable = reachable_capped_totals(set as u32);
        SetChunk { bytes, rows, totals: (0..UPPER_TOTALS as u8).filter(|&u| reachable >> u & 1 == 1).collect() }
    }

    /// The delta stored for a row's `k`-th reachable total.
    fn delta(&self, row: usize, k: usize) -> i64 {
        let n = self.totals.len();
        let at = row * n + k;
        let zigzag = (0..PLANES).fold(0u64, |z, b| z | u64::from(self.bytes[b * self.rows * n + at]) << (8 * b));
        (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64)
    }
}

impl<G: SheetGame> ScoreSheet<G> {
    /// The rules the table was solved under.
    pub fn rules(&self) -> SheetRules {
        self.t.params().rules
    }

    /// The scoring under the table's rules.
    pub fn scoring(&self) -> &Scoring {
        &self.turn.scoring
    }

    /// The turn solver a lookup uses (the generator proves its decisions).
    pub fn turn_solver(&self) -> &TurnSolver {
        &self.turn
    }

    /// The state with the categories of `mask` open, `upper` points in the
    /// upper section so far (any total: 63 and above are one state) and the
    /// yahtzee box holding 50 or not; an error for a state no game can
    /// reach (an upper total the filled upper boxes cannot make, the flag
    /// while the yahtzee box is open or in yatzy).
    pub fn state(&self, mask: u32, upper: u32, yahtzee_bonus: bool) -> Result<State, ArgumentError> {
        self.turn.state(G::ID, mask, upper, yahtzee_bonus)
    }

    /// The stored row of turn-start values of (mask, flag), by upper total.
    fn row(&self, mask: u32, flag: bool) -> Result<&[f64], TableError> {
        let set = (!mask & UPPER_MASK) as usize;
        let rows = rows_per_set(G::CATEGORIES.len(), G::FLAGS);
        let decoded = match self.decoded[set].get() {
            Some(d) => d,
            None => {
                let chunk = SetChunk::new(self.t.chunk(&G::SECTIONS[0], set)?, set, rows);
                // Unreachable totals repeat the value before them; lookups
                // never ask for them.
                let mut values = vec![0.0; rows * UPPER_TOTALS];
                for (row, out) in values.chunks_exact_mut(UPPER_TOTALS).enumerate() {
                    let mut units = 0i64;
                    let mut value = 0.0;
                    let mut next = chunk.totals.iter().enumerate().peekable();
                    for (u, v) in out.iter_mut().enumerate() {
                        if let Some((k, _)) = next.next_if(|&(_, &t)| usize::from(t) == u) {
                            units += chunk.delta(row, k);
                            value = units as f64 / UNITS_PER_POINT;
                        }
                        *v = value;
                    }
                }
                let _ = self.decoded[set].set(values.into_boxed_slice());
                self.decoded[set].get().expect("set just above")
            }
        };
        let row = (mask as usize >> FACES) * G::FLAGS + usize::from(flag);
        Ok(&decoded[row * UPPER_TOTALS..][..UPPER_TOTALS])
    }

    /// Expected points still to come at the start of a turn, before the
    /// roll: the upper bonus and any Yahtzee bonuses included, to 1e-7.
    pub fn turn_start_value(&self, state: State) -> Result<f64, Error> {
        Ok(self.row(state.mask, state.flag)?[usize::from(state.upper)])
    }

    /// Every action of `dice` with `rerolls` rerolls left (0 to 2) in
    /// `state`, with its expected score still to come: keeps while rerolls
    /// are left (keeping all five is worth the roll with one reroll fewer),
    /// else the categories the dice may be scored in. The exact solution's
    /// decision first (options within [`EXACT_TIE`] of each other are tied,
    /// and the first in the tie order wins: categories in mask-bit order;
    /// keeping all five, then larger keeps first), then from best to worst.
    /// Solves the turn from the stored turn-start values (values within
    /// 5e-8 of the exact ones); the decision is proved exact by the
    /// generator, which lists the few it is not as exceptions, followed here.
    pub fn options(&self, state: State, dice: Dice, rerolls: u8) -> Result<Choices, Error> {
        check_decision(dice, rerolls, G::ID)?;
        let mut options = self.turn.options(&|mask, flag| self.row(mask, flag), state, dice, rerolls)?;
        self.apply_exception(&mut options, state, dice, rerolls)?;
        Ok(options)
    }

    /// Solves the turn of `state` once, for every decision in it (see [`Turn`]).
    pub fn turn(&self, state: State) -> Result<Turn<'_, G>, Error> {
        let levels = self.turn.solve(&|mask, flag| self.row(mask, flag), state, 2)?;
        Ok(Turn { sheet: self, levels })
    }

    /// Makes the listed exact decision the best option, where the stored
    /// values would lead elsewhere.
    fn apply_exception(&self, options: &mut Choices, state: State, dice: Dice, rerolls: u8) -> Result<(), TableError> {
        if let Some(action) = self.exception(decision_key::<G>(state, dice, rerolls))? {
            let exact = self.turn.action_of(state, dice, rerolls, action);
            options.rank(|c| Some(c.action) == exact, |c| c.ev);
        }
        Ok(())
    }

    /// The exact decision listed for a key, if any.
    fn exception(&self, key: u32) -> Result<Option<u8>, TableError> {
        if self.t.params().exceptions == 0 {
            return Ok(None);
        }
        let keys = self.t.whole(&EXCEPTION_KEY)?;
        let count = keys.len() / 4;
        let i = partition_point(count, |i| read_u32(keys, i) < key);
        if i < count && read_u32(keys, i) == key {
            return Ok(Some(self.t.u8_at(&EXCEPTION_ACTION, i)?));
        }
        Ok(None)
    }

    /// The name of category `c` (a mask bit).
    pub fn category_name(c: u8) -> &'static str {
        G::CATEGORIES[usize::from(c)]
    }

    /// A mask of open categories: a number (decimal, `0x..`, `0b..`; bit
    /// `i` set when category `i` is open) or a comma list of category names
    /// (`all` and `none` also work).
    pub fn parse_mask(s: &str) -> Result<u32, ArgumentError> {
        parse_mask(s, G::CATEGORIES)
    }

    /// The open categories of `mask` as a comma list ("none" for none).
    pub fn mask_names(mask: u32) -> String {
        let names: Vec<&str> =
            (0..G::CATEGORIES.len()).filter(|c| mask >> c & 1 == 1).map(|c| G::CATEGORIES[c]).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(",")
        }
    }
}

/// One turn's solve from turn-start values, wherever they come from: a
/// lookup gives it the table's, the generator the exact ones, to prove that
/// the table's values lead to the exact decisions.
#[derive(Debug)]
pub struct TurnSolver {
    scoring: Scoring,
    /// Per roll, the categories it scores points in without a joker:
    /// (category, points, points added to the upper total).
    scoring_points: Vec<arrayvec::ArrayVec<(u8, f64, u8), 16>>,
    /// Bit `roll` set for five of a kind.
    five_of_a_kind: u128,
    /// Per roll, its partial keeps' graded ranks in the tie order (larger first).
    keeps: Vec<arrayvec::ArrayVec<u8, 31>>,
}

impl TurnSolver {
    /// The solver of a game scored by `scoring`.
    pub fn new(scoring: Scoring) -> TurnSolver {
        let rolls: Vec<Dice> = (0..ROLLS).map(|r| Dice::unrank(DICE, r).expect("roll < 252")).collect();
        let scoring_points = rolls
            .iter()
            .map(|d| {
                let counts = d.counts();
                (0..scoring.categories.len())
                    .map(|c| (c as u8, scoring.points(&counts, c)))
                    .filter(|&(_, p)| p > 0)
                    .map(|(c, p)| (c, f64::from(p), if usize::from(c) < FACES { p } else { 0 }))
                    .collect()
            })
            .collect();
        let five_of_a_kind =
            rolls.iter().enumerate().filter(|(_, d)| d.counts().contains(&5)).fold(0, |m, (r, _)| m | 1 << r);
        let keeps = rolls
            .iter()
            .map(|d| {
                let mut keeps: arrayvec::ArrayVec<u8, 31> =
                    d.sub_multisets().filter(|k| k.len() < DICE).map(|k| k.graded_rank() as u8).collect();
                keeps.sort_unstable_by(|a, b| b.cmp(a));
                keeps
            })
            .collect();
        TurnSolver { scoring, scoring_points, five_of_a_kind, keeps }
    }

    /// The scoring.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// The action an exception's code names in a decision, if the decision
    /// has it: a category the dice may be scored in (no rerolls left), or a
    /// keep of the dice (a partial keep's graded rank, or [`KEEP_ALL`]).
    pub fn action_of(&self, state: State, dice: Dice, rerolls: u8, code: u8) -> Option<Action> {
        if rerolls == 0 {
            let mut found = None;
            self.scoring.scores(state.mask, state.flag, &dice, |s| {
                if s.category == usize::from(code) {
                    found = Some(Action::Score(code));
                }
            });
            return found;
        }
        if code == KEEP_ALL {
            return Some(Action::Keep(dice));
        }
        let keep = Dice::graded_unrank(usize::from(code)).filter(|k| k.len() < DICE && k.is_subset_of(&dice))?;
        Some(Action::Keep(keep))
    }

    /// The state with the categories of `mask` open, `upper` points in the
    /// upper section so far (any total: 63 and above are one state) and the
    /// yahtzee box holding 50 or not; an error for a state no game can
    /// reach (an upper total the filled upper boxes cannot make, the flag
    /// while the yahtzee box is open or in yatzy).
    pub fn state(&self, game: &str, mask: u32, upper: u32, yahtzee_bonus: bool) -> Result<State, ArgumentError> {
        let categories = self.scoring.categories.len();
        if mask >= 1 << categories {
            return Err(ArgumentError::new(format!(
                "mask {mask} is out of range: a {} mask is 0 to {} (bit i set when category i is open) or a comma list of categories",
                game,
                (1u32 << categories) - 1
            )));
        }
        let scored_upper = !mask & UPPER_MASK;
        let reachable = reachable_upper_totals(scored_upper);
        if upper > u32::from(MAX_UPPER_POINTS) || reachable >> upper & 1 == 0 {
            let filled: Vec<&str> =
                (0..FACES).filter(|f| scored_upper >> f & 1 == 1).map(|f| self.scoring.categories[f]).collect();
            let filled = if filled.is_empty() { "none".to_string() } else { filled.join(",") };
            return Err(ArgumentError::new(format!(
                "upper total {upper} cannot be made with the upper boxes filled ({filled}): each filled box holds 0 to 5 times its face"
            )));
        }
        if yahtzee_bonus {
            match self.scoring.joker {
                None => return Err(ArgumentError::new(format!("{game} has no Yahtzee bonus"))),
                Some((b, _)) if mask >> b & 1 == 1 => {
                    return Err(ArgumentError::new(
                        "the yahtzee box cannot hold 50 while it is open: drop --yahtzee-bonus or close yahtzee in the mask"
                            .to_string(),
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(State { mask, upper: upper.min(u32::from(BONUS_AT)) as u8, flag: yahtzee_bonus })
    }

    /// Every action of five `dice` with `rerolls` (0 to 2) rerolls left in
    /// `state`, given the turn-start values of every (mask, flag) row: see
    /// [`ScoreSheet::options`]. The best is the first in the tie order of
    /// those within [`STORED_TIE`] of the highest value.
    pub fn options<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        dice: Dice,
        rerolls: u8,
    ) -> Result<Choices, E> {
        self.options_with_ties(rows, state, dice, rerolls, STORED_TIE)
    }

    /// [`options`](TurnSolver::options) with options within `tie` of the
    /// highest value counted as tied with it (the generator's proof uses
    /// [`EXACT_TIE`] on the exact values).
    pub fn options_with_ties<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        dice: Dice,
        rerolls: u8,
        tie: f64,
    ) -> Result<Choices, E> {
        if rerolls == 0 {
            // Scoring needs only the next turn-start values, not the keeps'.
            let next = NextRows::new(self, rows, state)?;
            return Ok(self.score_choices(&next, state, dice, tie));
        }
        let turn = self.solve(rows, state, rerolls)?;
        Ok(self.choices(&turn, dice, rerolls, tie))
    }

    /// Solves a turn in `state` as far as a decision with `rerolls` left needs.
    fn solve<'a, E>(
        &self,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
        rerolls: u8,
    ) -> Result<Levels<'a>, E> {
        let next = NextRows::new(self, rows, state)?;
        let mut levels = Levels { state, next, solved: 0, values: [[0.0; KEEPS]; 2] };
        if state.mask == 0 || rerolls == 0 {
            return Ok(levels);
        }
        let lattice = &*KEEP_LATTICE;
        let [one, two] = &mut levels.values;
        levels.next.stop_values(self, state, &mut one[PARTIAL_KEEPS..]);
        keep_values(lattice, one);
        levels.solved = 1;
        if rerolls >= 2 {
            *two = *one;
            best_values(lattice, two, &mut [0.0; PARTIAL_KEEPS]);
            keep_values(lattice, two);
            levels.solved = 2;
        }
        Ok(levels)
    }

    /// The categories `dice` may be scored in, the best the first in the
    /// tie order within `tie` of the highest value.
    fn score_choices(&self, next: &NextRows, state: State, dice: Dice, tie: f64) -> Choices {
        let mut out = Choices::new();
        if state.mask == 0 {
            return out;
        }
        self.scoring.scores(state.mask, state.flag, &dice, |s| {
            let ev = f64::from(s.points) + next.value(s);
            out.push(Choice { action: Action::Score(s.category as u8), ev, points: s.points });
        });
        let best = first_within(out.iter().map(|c| c.ev), tie).map(|i| out_action(&out, i));
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        out
    }

    /// The options of `dice` with `rerolls` left in a solved turn, the best
    /// the first in the tie order within `tie` of the highest value.
    fn choices(&self, turn: &Levels, dice: Dice, rerolls: u8, tie: f64) -> Choices {
        if rerolls == 0 {
            return self.score_choices(&turn.next, turn.state, dice, tie);
        }
        let mut out = Choices::new();
        if turn.state.mask == 0 {
            return out;
        }
        debug_assert!(rerolls <= turn.solved);
        // Keep values with `rerolls` left, and each roll's value with one fewer.
        let values = &turn.values[usize::from(rerolls) - 1];
        // Keeping all five first, then larger keeps first: the tie order.
        let roll = dice.rank();
        out.push(Choice { action: Action::Keep(dice), ev: values[PARTIAL_KEEPS + roll], points: 0 });
        for &g in &self.keeps[roll] {
            let keep = PARTIAL_KEEP_DICE[usize::from(g)];
            out.push(Choice { action: Action::Keep(keep), ev: values[usize::from(g)], points: 0 });
        }
        let best = first_within(out.iter().map(|c| c.ev), tie).map(|i| out_action(&out, i));
        out.rank(|c| Some(c.action) == best, |c| c.ev);
        out
    }
}

/// A turn solved as far as some decision needs: per rerolls left (1, 2),
/// the value of every partial keep and of every roll with one reroll fewer.
struct Levels<'a> {
    state: State,
    next: NextRows<'a>,
    /// How many rerolls' values are solved (0 to 2).
    solved: u8,
    values: [[f64; KEEPS]; 2],
}

/// One turn of a yatzy or yahtzee game, solved once: every decision of the
/// turn (any roll, any rerolls left) is then a few dozen comparisons. For
/// programs that play whole games; [`ScoreSheet::options`] solves the turn
/// for each call.
pub struct Turn<'a, G: SheetGame> {
    sheet: &'a ScoreSheet<G>,
    levels: Levels<'a>,
}

impl<G: SheetGame> fmt::Debug for Turn<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn").field("state", &self.levels.state).finish_non_exhaustive()
    }
}

impl<G: SheetGame> Turn<'_, G> {
    /// The options of five `dice` with `rerolls` (0 to 2) left, as
    /// [`ScoreSheet::options`] gives them.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Result<Choices, Error> {
        check_decision(dice, rerolls, G::ID)?;
        let mut options = self.sheet.turn.choices(&self.levels, dice, rerolls, STORED_TIE);
        self.sheet.apply_exception(&mut options, self.levels.state, dice, rerolls)?;
        Ok(options)
    }
}

/// Checks a decision's arguments: five dice, 0 to 2 rerolls.
fn check_decision(dice: Dice, rerolls: u8, game: &str) -> Result<(), ArgumentError> {
    check_roll(dice, game)?;
    if rerolls > 2 {
        return Err(ArgumentError::new(format!("rerolls {rerolls} is out of range: {game} allows 0 to 2")));
    }
    Ok(())
}

/// The exceptions' key of a decision (see [`EXCEPTION_KEY`]).
pub fn decision_key<G: SheetGame>(state: State, dice: Dice, rerolls: u8) -> u32 {
    let row = state.mask as usize * G::FLAGS + usize::from(state.flag);
    ((((row * UPPER_TOTALS + usize::from(state.upper)) * 3 + usize::from(rerolls)) * ROLLS) + dice.rank()) as u32
}

/// The decision of an exceptions' key: `None` for a key of no state the game can reach.
fn decision_of<G: SheetGame>(turn: &TurnSolver, key: u32) -> Option<(State, Dice, u8)> {
    let key = key as usize;
    let (rest, roll) = (key / ROLLS, key % ROLLS);
    let (rest, rerolls) = (rest / 3, (rest % 3) as u8);
    let (row, upper) = (rest / UPPER_TOTALS, rest % UPPER_TOTALS);
    let (mask, flag) = ((row / G::FLAGS) as u32, row % G::FLAGS == 1);
    // 63 stands for every total from 63 up: try one the filled boxes make.
    let totals = reachable_upper_totals(!mask & UPPER_MASK);
    let made = (upper..=usize::from(MAX_UPPER_POINTS)).find(|&t| totals >> t & 1 == 1)?;
    if made != upper && upper != UPPER_TOTALS - 1 {
        return None;
    }
    let state = turn.state(G::ID, mask, made as u32, flag).ok()?;
    (mask != 0).then_some((state, Dice::unrank(DICE, roll)?, rerolls))
}

/// The first index in `0..count` where `below` is false (it is true then false).
fn partition_point(count: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

fn out_action(out: &Choices, i: usize) -> Action {
    out.as_slice()[i].action
}

/// The position of the first value within `tie` of the highest.
fn first_within(values: impl Iterator<Item = f64> + Clone, tie: f64) -> Option<usize> {
    let highest = values.clone().fold(f64::NEG_INFINITY, f64::max);
    values.into_iter().position(|v| v >= highest - tie)
}

/// The rows of turn-start values a turn in `state` can lead to: for each
/// open category, the row after filling it with the flag as it is, and for
/// the yahtzee box the row with the flag set. A closed category's row is
/// all `-inf`, so scoring it is never the best.
struct NextRows<'a> {
    same_flag: [&'a [f64]; 16],
    /// The row after scoring points: for the yahtzee box (open, so 50
    /// points), the one with the flag set.
    after_points: [&'a [f64]; 16],
    upper: usize,
}

/// The row of a closed category.
static CLOSED: [f64; UPPER_TOTALS] = [f64::NEG_INFINITY; UPPER_TOTALS];

impl<'a> NextRows<'a> {
    fn new<E>(
        turn: &TurnSolver,
        rows: &dyn Fn(u32, bool) -> Result<&'a [f64], E>,
        state: State,
    ) -> Result<NextRows<'a>, E> {
        let mut same_flag: [&[f64]; 16] = [&CLOSED; 16];
        let mut after_points: [&[f64]; 16] = [&CLOSED; 16];
        for c in (0..turn.scoring.categories.len()).filter(|c| state.mask >> c & 1 == 1) {
            let after = state.mask & !(1 << c);
            same_flag[c] = rows(after, state.flag)?;
            after_points[c] = same_flag[c];
            if turn.scoring.joker.is_some_and(|(b, _)| b == c) {
                after_points[c] = rows(after, true)?;
            }
        }
        Ok(NextRows { same_flag, after_points, upper: usize::from(state.upper) })
    }

    /// The turn-start value after score `s`.
    fn value(&self, s: Score) -> f64 {
        let row = if s.bonus_flag { self.after_points[s.category] } else { self.same_flag[s.category] };
        row[(self.upper + usize::from(s.upper)).min(UPPER_TOTALS - 1)]
    }

    /// Every roll's value with no rerolls left: its best score. As the
    /// solver computes it: a zero in the best open category, or points in
    /// a category that gives some (a joker: only where its rules allow).
    fn stop_values(&self, turn: &TurnSolver, state: State, out: &mut [f64]) {
        let mut zero = f64::NEG_INFINITY;
        for row in &self.same_flag[..turn.scoring.categories.len()] {
            let v = row[self.upper];
            zero = zero.max(v);
        }
        let joker_possible = turn.scoring.joker.is_some_and(|(b, _)| state.mask >> b & 1 == 0);
        for (roll, out) in out.iter_mut().enumerate().take(ROLLS) {
            if joker_possible && turn.five_of_a_kind >> roll & 1 == 1 {
                let dice = Dice::unrank(DICE, roll).expect("roll < 252");
                let mut best = f64::NEG_INFINITY;
                turn.scoring.scores(state.mask, state.flag, &dice, |s| {
                    let v = f64::from(s.points) + self.value(s);
                    best = best.max(v);
                });
                *out = best;
                continue;
            }
            // Closed categories' rows are -inf: no branch on the mask.
            let mut best = zero;
            for &(c, points, upper) in &turn.scoring_points[roll] {
                let row = self.after_points[usize::from(c)];
                let v = points + row[(self.upper + usize::from(upper)).min(UPPER_TOTALS - 1)];
                best = best.max(v);
            }
            *out = best;
        }
    }
}

/// Fills the value of every partial keep from the roll values
/// `values[PARTIAL_KEEPS..]`: the solver's arithmetic, keep by keep.
fn keep_values(lattice: &KeepLattice, values: &mut [f64; KEEPS]) {
    for g in (0..PARTIAL_KEEPS).rev() {
        let n = lattice.plus_face[g].map(usize::from);
        values[g] = (values[n[0]] + values[n[1]] + values[n[2]] + values[n[3]] + values[n[4]] + values[n[5]]) * SIXTH;
    }
}

/// Each roll's value with one more reroll: the best of keeping all five
/// (its value now) and every partial keep inside it, written over the roll values.
fn best_values(lattice: &KeepLattice, values: &mut [f64; KEEPS], scratch: &mut [f64; PARTIAL_KEEPS]) {
    for &(g, distinct) in &lattice.order {
        let g = usize::from(g);
        let mut best = values[g];
        for &smaller in &lattice.minus_face[g][..usize::from(distinct)] {
            let other = scratch[usize::from(smaller)];
            best = best.max(other);
        }
        if g < PARTIAL_KEEPS {
            scratch[g] = best;
        } else {
            values[g] = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(scoring: &Scoring, dice: &str, category: &str) -> u8 {
        let c = scoring.categories.iter().position(|&n| n == category).unwrap();
        scoring.points(&dice.parse::<Dice>().unwrap().counts(), c)
    }

    #[test]
    fn yatzy_scoring_on_tricky_rolls() {
        let y = &YATZY;
        // Four of a kind is not two pairs; a full house is.
        assert_eq!(points(y, "44443", "two-pairs"), 0);
        assert_eq!(points(y, "44443", "four-kind"), 16);
        assert_eq!(points(y, "44443", "pair"), 8);
        assert_eq!(points(y, "33322", "two-pairs"), 10);
        assert_eq!(points(y, "33322", "full-house"), 13);
        assert_eq!(points(y, "66554", "two-pairs"), 22);
        assert_eq!(points(y, "66554", "pair"), 12);
        // Five of a kind is not a full house.
        assert_eq!(points(y, "55555", "full-house"), 0);
        assert_eq!(points(y, "55555", "yatzy"), 50);
        assert_eq!(points(y, "55555", "four-kind"), 20);
        assert_eq!(points(y, "55555", "two-pairs"), 0);
        // The straights are exactly 1-5 and 2-6.
        assert_eq!(points(y, "12345", "small-straight"), 15);
        assert_eq!(points(y, "12345", "large-straight"), 0);
        assert_eq!(points(y, "23456", "large-straight"), 20);
        assert_eq!(points(y, "12344", "small-straight"), 0);
        assert_eq!(points(y, "12345", "chance"), 15);
        assert_eq!(points(y, "66612", "three-kind"), 18);
        assert_eq!(points(y, "66612", "sixes"), 18);
    }

    #[test]
    fn yahtzee_scoring_on_tricky_rolls() {
        let y = &yahtzee(Joker::Forced);
        assert_eq!(points(y, "33332", "four-kind"), 14);
        assert_eq!(points(y, "33332", "three-kind"), 14);
        assert_eq!(points(y, "33332", "full-house"), 0);
        assert_eq!(points(y, "33322", "full-house"), 25);
        // Straights with a pair.
        assert_eq!(points(y, "12344", "small-straight"), 30);
        assert_eq!(points(y, "34566", "small-straight"), 30);
        assert_eq!(points(y, "12344", "large-straight"), 0);
        assert_eq!(points(y, "12456", "small-straight"), 0);
        assert_eq!(points(y, "23456", "large-straight"), 40);
        // Without a joker, five of a kind is no full house or straight.
        assert_eq!(points(y, "55555", "full-house"), 0);
        assert_eq!(points(y, "55555", "small-straight"), 0);
        assert_eq!(points(y, "55555", "yahtzee"), 50);
        assert_eq!(points(y, "55555", "chance"), 25);
    }

    /// The ways to score `dice` with `open` categories, as (name, points, flag after).
    fn scores(scoring: &Scoring, open: &str, flag: bool, dice: &str) -> Vec<(&'static str, u8, bool)> {
        let mask = parse_mask(open, scoring.categories).unwrap();
        let mut out = Vec::new();
        scoring.scores(mask, flag, &dice.parse().unwrap(), |s| {
            out.push((scoring.categories[s.category], s.points, s.bonus_flag))
        });
        out
    }

    #[test]
    fn joker_cases_under_both_readings() {
        let (forced, free) = (&yahtzee(Joker::Forced), &yahtzee(Joker::Free));
        // The yahtzee box open: no joker; a Yahtzee there sets the flag.
        assert_eq!(
            scores(forced, "fours,full-house,yahtzee", false, "44444"),
            [("fours", 20, false), ("full-house", 0, false), ("yahtzee", 50, true)]
        );
        // Forced: the matching upper box if open (with the bonus while the box holds 50) ...
        assert_eq!(scores(forced, "twos,fours,full-house,chance", true, "44444"), [("fours", 120, true)]);
        // ... else an open lower box at full value ...
        assert_eq!(
            scores(forced, "twos,full-house,large-straight,chance", false, "44444"),
            [("full-house", 25, false), ("large-straight", 40, false), ("chance", 20, false)]
        );
        // ... else a zero in an open upper box.
        assert_eq!(scores(forced, "twos,sixes", true, "44444"), [("twos", 100, true), ("sixes", 100, true)]);
        // Free: any open box; full value only once the matching upper box is filled.
        assert_eq!(
            scores(free, "twos,fours,full-house,chance", true, "44444"),
            [("twos", 100, true), ("fours", 120, true), ("full-house", 100, true), ("chance", 120, true)]
        );
        assert_eq!(
            scores(free, "twos,full-house,small-straight", false, "44444"),
            [("twos", 0, false), ("full-house", 25, false), ("small-straight", 30, false)]
        );
        // Not five of a kind: no joker, whatever the box holds.
        assert_eq!(scores(forced, "twos,full-house", true, "44442"), [("twos", 2, true), ("full-house", 0, true)]);
    }

    #[test]
    fn reachable_totals() {
        assert_eq!(reachable_upper_totals(0), 1);
        assert_eq!(reachable_upper_totals(1), 0b111111);
        assert_eq!(reachable_capped_totals(UPPER_MASK), reachable_capped_totals(UPPER_MASK) | 1 << 63);
        let sixes = reachable_upper_totals(1 << 5);
        assert_eq!(sixes, (0..=5).fold(0u128, |a, n| a | 1 << (6 * n)));
        // Every total of some choice of counts, by brute force.
        for scored in 0..64u32 {
            let mut reach = 0u128;
            for code in 0..6u32.pow(6) {
                let counts: Vec<u32> = (0..6).map(|f| code / 6u32.pow(f) % 6).collect();
                if (0..6).all(|f| counts[f] == 0 || scored >> f & 1 == 1) {
                    reach |= 1 << (0..6).map(|f| counts[f as usize] * (f + 1)).sum::<u32>();
                }
            }
            assert_eq!(reachable_upper_totals(scored), reach, "scored {scored:b}");
        }
    }
}
