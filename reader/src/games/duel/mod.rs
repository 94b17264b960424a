//! Lookups in the two-player 10000 tables (`duel`, alias `10000-duel`;
//! `duel-cardgames`): the exact chance of winning.
//!
//! Two players alternate whole turns of 10000 (six dice; each throw keeps at
//! least one scoring die, kept dice score, then bank the turn score or throw
//! the rest, all six again after keeping every die; a throw with nothing
//! scoring loses the turn score). A player who has banked nothing may bank
//! only with at least the entry (1000 in `duel`, none in `duel-cardgames`)
//! in that turn. The first whose bank brings their total to the goal
//! (10,000) wins at once. Both players maximise their chance of winning.
//!
//! The table holds, per pair of banked totals (multiples of 50 below the
//! goal), the chance that the player about to start a turn wins, and every
//! throw's legal keeps with their points under the table's scoring. A
//! decision inside a turn solves that one turn from the stored values at
//! query time, below the turn scores from which the table says banking is
//! best (every keep of a throw in 30 to 60 microseconds); a program playing
//! whole games solves each turn once ([`Duel::turn`]) and asks it every
//! decision.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::duel::SeedDuel;
//! use dice_tables_reader::tenk::Then;
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let duel = tables.get::<SeedDuel>()?;
//! let first = duel.win_chance(0, 0)?; // the first player's chance
//! assert!(first > 0.5 && first < 0.6);
//! // 9,950 against 0, six dice thrown, 50 in the turn: keep a 1 and bank.
//! let options = duel.options(9950, 0, "123446".parse()?, 50)?;
//! let best = options.best().expect("a 1 scores");
//! assert_eq!((best.then, best.p), (Then::Bank, 1.0));
//! # Ok(()) }
//! ```

use std::marker::PhantomData;

use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::format::{read_f64, read_u16, read_u32};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::games::tenk::{
    check_keep_lists, dice_left, keep_count, option_first, option_keep, option_points, KeepCount, Then, DICE,
    MAX_KEEPS_PER_THROW, STEP, THROWS,
};
use crate::options::Options;

/// The highest goal a table may have (its win section is then 400 x 400).
pub const MAX_GOAL: u32 = 20_000;

/// Which scoring a duel table uses: each has its own game id and file.
pub trait Scoring: Send + Sync + 'static {
    /// The game id.
    const ID: &'static str;
    /// Other names of the game.
    const ALIASES: &'static [&'static str];
    /// The preset's name (`reader lookup duel --rules NAME`).
    const NAME: &'static str;
}

/// The seed's scoring (the `tenk` table's), entry 1000: game `duel`.
#[derive(Debug)]
pub enum Seed {}
impl Scoring for Seed {
    const ID: &'static str = "duel";
    const ALIASES: &'static [&'static str] = &["10000-duel", "tenk2"];
    const NAME: &'static str = "seed";
}

/// A common online Farkle's scoring, no entry: game `duel-cardgames`.
#[derive(Debug)]
pub enum Cardgames {}
impl Scoring for Cardgames {
    const ID: &'static str = "duel-cardgames";
    const ALIASES: &'static [&'static str] = &["10000-duel-cardgames"];
    const NAME: &'static str = "cardgames";
}

/// The `duel` table (the seed's scoring).
pub type SeedDuel = Duel<Seed>;
/// The `duel-cardgames` table.
pub type CardgamesDuel = Duel<Cardgames>;

/// A table's rules and sizes (header parameters `goal` and `entry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// The total that wins, a multiple of 50 from 50 to [`MAX_GOAL`].
    pub goal: u32,
    /// The turn score a player who has banked nothing needs to bank (0 for
    /// none), a multiple of 50 up to the goal.
    pub entry: u32,
    /// Keeps listed over all throws (the length of the option sections).
    pub options: u64,
}

impl Params {
    /// Totals below the goal: 0, 50, ..., goal - 50.
    pub fn totals(&self) -> usize {
        (self.goal / STEP) as usize
    }
}

/// The chance that the player to move wins at the start of a turn: per (the
/// mover's banked total / 50, the opponent's / 50).
/// In chunks of 4 KB: a lookup verifies only the chunks it reads (one
/// row of the opponent's chances), not the whole section.
pub const WIN: SectionSpec<Params> =
    SectionSpec::new(0, "win", DType::F64, Encoding::Raw, |p: &Params| vec![p.totals() as u64, p.totals() as u64])
        .chunked(CHUNK as u64);
/// Per pair of totals as in [`WIN`]: the turn score / 50 from which the
/// mover's best strategy always banks rather than throw six dice, and
/// rather than throw fewer (so a lookup solves the turn below them only).
pub const BANK_FROM: SectionSpec<Params> = SectionSpec::new(1, "bank_from", DType::U16, Encoding::Raw, |p: &Params| {
    vec![p.totals() as u64, p.totals() as u64, 2]
})
.chunked(CHUNK as u64);

/// Bytes a chunk of the `win` and `bank_from` sections holds.
pub const CHUNK: usize = 4096;
/// Where each throw's keeps start in the option sections (as in `tenk`).
pub const OPTION_FIRST: SectionSpec<Params> = option_first(2);
/// Each keep's dice, as a graded rank.
pub const OPTION_KEEP: SectionSpec<Params> = option_keep(3);
/// Each keep's points.
pub const OPTION_POINTS: SectionSpec<Params> = option_points(4);

impl KeepCount for Params {
    fn keeps(&self) -> u64 {
        self.options
    }
}

/// One legal keep of a throw, what follows it, and the chance of winning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelOption {
    /// The dice kept.
    pub keep: Dice,
    /// What they score.
    pub points: u32,
    /// Dice to throw next (6 on hot dice).
    pub dice_left: u8,
    /// Bank or throw on, whichever wins more often (bank on a tie).
    pub then: Then,
    /// The chance of winning the game after this keep.
    pub p: f64,
}

/// Every keep of a throw, most points first (then fewer dice kept), and the
/// best (the first of the highest chance); empty when the throw busts.
pub type DuelOptions = Options<DuelOption, MAX_KEEPS_PER_THROW>;

/// A state before a throw: the chance of winning if the player throws, and
/// if they bank (`None` where they may not: nothing in the turn yet, or
/// below the entry), and which is better (bank on a tie).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeforeThrow {
    /// The chance of winning by throwing and playing on well.
    pub throw: f64,
    /// The chance of winning by banking now.
    pub bank: Option<f64>,
    /// The better.
    pub best: Then,
}

impl BeforeThrow {
    /// The chance of winning under the better choice.
    pub fn p(&self) -> f64 {
        match (self.best, self.bank) {
            (Then::Bank, Some(bank)) => bank,
            _ => self.throw,
        }
    }
}

/// The scoring outcomes of throwing d dice, grouped into classes of throws
/// with the same best points for each number of dice left, built from the
/// table's keep lists when it is opened (so the reader knows no scoring).
/// Classes come in runs with the same number of options, so that the turn
/// solve's inner loop has a fixed length (a loop whose length changes from
/// class to class costs a mispredicted branch at every change).
#[derive(Debug)]
struct Outcomes {
    /// Per d in 1..=6, the range of its runs.
    by_dice: [(usize, usize); DICE + 1],
    /// (options per class, classes start, classes end).
    runs: Vec<(usize, usize, usize)>,
    /// (probability, where its options start).
    classes: Vec<(f64, usize)>,
    /// Each option as an offset into a turn's after-keep values:
    /// points / 50 * 6 + dice left - 1.
    options: Vec<u32>,
    /// The chance that d dice score nothing.
    bust: [f64; DICE + 1],
}

impl Outcomes {
    fn new(first: &[u8], keeps: &[u8], points: &[u8]) -> Outcomes {
        // (d, per dice left the best points) -> probability.
        let mut map = std::collections::BTreeMap::<(usize, [u16; DICE]), f64>::new();
        let mut bust = [0.0; DICE + 1];
        for g in 0..THROWS {
            let throw = Dice::graded_unrank(g).expect("graded rank < 924");
            let d = throw.len();
            if d == 0 {
                continue;
            }
            let mut best = [0u16; DICE];
            for i in read_u32(first, g) as usize..read_u32(first, g + 1) as usize {
                let kept = Dice::graded_unrank(usize::from(read_u16(keeps, i))).expect("checked on open").len();
                let left = dice_left(d, kept);
                best[left - 1] = best[left - 1].max(read_u16(points, i) / STEP as u16);
            }
            let p = throw.probability();
            if best == [0; DICE] {
                bust[d] += p;
            } else {
                *map.entry((d, best)).or_insert(0.0) += p;
            }
        }
        let mut o =
            Outcomes { by_dice: [(0, 0); DICE + 1], runs: Vec::new(), classes: Vec::new(), options: Vec::new(), bust };
        for d in 1..=DICE {
            let mut classes: Vec<([u16; DICE], f64)> =
                map.range((d, [0; DICE])..=(d, [u16::MAX; DICE])).map(|(&(_, best), &p)| (best, p)).collect();
            let options_of = |best: &[u16; DICE]| best.iter().filter(|&&steps| steps > 0).count();
            classes.sort_by_key(|(best, _)| options_of(best));
            let first_run = o.runs.len();
            for (best, p) in classes {
                let k = options_of(&best);
                if o.runs.last().is_none_or(|&(len, ..)| len != k) || o.runs.len() == first_run {
                    o.runs.push((k, o.classes.len(), o.classes.len()));
                }
                o.classes.push((p, o.options.len()));
                for (l, &steps) in best.iter().enumerate().filter(|(_, &steps)| steps > 0) {
                    // Points are at most 8000 (checked on open): 160 steps, within the window.
                    o.options.push(u32::from(steps) * DICE as u32 + l as u32);
                }
                o.runs.last_mut().expect("a run").2 = o.classes.len();
            }
            o.by_dice[d] = (first_run, o.runs.len());
        }
        o
    }

    /// The chance of winning by throwing d dice with after-keep values
    /// `window` (from the turn score on) and bust value `bust`.
    #[inline(always)]
    fn throw_value(&self, d: usize, window: &[f64; WINDOW], bust: f64) -> f64 {
        // A compensated sum (TwoSum) of plain partial sums of at most
        // GROUP classes: the partial sums are small, so their rounding is
        // far below the total's, and the chance is exact to about one
        // rounding, so that a table's fixed point checks to 1e-15
        // (tests/tests/integration/duel.rs).
        let mut sum = (self.bust[d] * bust, 0.0);
        let (start, end) = self.by_dice[d];
        for &(k, first, last) in &self.runs[start..end] {
            for group in self.classes[first..last].chunks(GROUP) {
                let partial = match k {
                    1 => self.partial::<1>(group, window),
                    2 => self.partial::<2>(group, window),
                    3 => self.partial::<3>(group, window),
                    4 => self.partial::<4>(group, window),
                    5 => self.partial::<5>(group, window),
                    _ => self.partial::<6>(group, window),
                };
                let (t, e) = two_sum(sum.0, partial);
                sum = (t, sum.1 + e);
            }
        }
        sum.0 + sum.1
    }

    /// The sum of each class's chance times its best option's value, for
    /// classes of K options.
    #[inline(always)]
    fn partial<const K: usize>(&self, classes: &[(f64, usize)], window: &[f64; WINDOW]) -> f64 {
        let best = |first: usize| -> f64 {
            let options: &[u32; K] = self.options[first..first + K].try_into().expect("K options");
            let mut best = 0.0;
            for &at in options {
                let a = window[at as usize & (WINDOW - 1)];
                best = if a > best { a } else { best };
            }
            best
        };
        // Two classes a step, into two sums, so the additions overlap.
        let (mut v0, mut v1) = (0.0, 0.0);
        let mut pairs = classes.chunks_exact(2);
        for pair in &mut pairs {
            v0 += pair[0].0 * best(pair[0].1);
            v1 += pair[1].0 * best(pair[1].1);
        }
        if let [(p, first)] = pairs.remainder() {
            v0 += p * best(*first);
        }
        v0 + v1
    }
}

/// Classes summed plainly before their sum joins the compensated total.
const GROUP: usize = 8;

/// A two-player 10000 table.
pub struct Duel<S: Scoring> {
    t: Checked<Duel<S>>,
    outcomes: Outcomes,
    scoring: PhantomData<S>,
}

impl<S: Scoring> std::fmt::Debug for Duel<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Duel").field("t", &self.t).finish_non_exhaustive()
    }
}

impl<S: Scoring> Game for Duel<S> {
    const ID: &'static str = S::ID;
    const ALIASES: &'static [&'static str] = S::ALIASES;
    type Params = Params;
    const SECTIONS: &'static [SectionSpec<Params>] = &[WIN, BANK_FROM, OPTION_FIRST, OPTION_KEEP, OPTION_POINTS];

    fn params(header: &Header) -> Result<Params, TableError> {
        let goal = param_in(header, "goal", i64::from(STEP)..=i64::from(MAX_GOAL))? as u32;
        let entry = param_in(header, "entry", 0..=i64::from(goal))? as u32;
        for (name, value) in [("goal", goal), ("entry", entry)] {
            if !value.is_multiple_of(STEP) {
                return Err(TableErrorKind::BadParam { name, why: format!("is {value}, not a multiple of 50") }.into());
            }
        }
        Ok(Params { goal, entry, options: keep_count(header, "duel keeps")? })
    }

    fn header_params(p: &Params) -> Vec<(&'static str, i64)> {
        vec![("goal", i64::from(p.goal)), ("entry", i64::from(p.entry))]
    }

    /// The keep lists, as in `tenk`.
    fn check_contents(t: &Checked<Self>) -> Result<(), TableError> {
        let lists = [t.whole(&OPTION_FIRST)?, t.whole(&OPTION_KEEP)?, t.whole(&OPTION_POINTS)?];
        check_keep_lists(lists)
            .map_err(|(i, why)| TableError::section([OPTION_FIRST, OPTION_KEEP, OPTION_POINTS][i].name, why))
    }

    /// The chances all lie in 0..=1; the turn scores from which the mover
    /// banks lie from the first at which banking is allowed (50, or the
    /// entry on 0) to the goal.
    fn check_chunk(p: &Params, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        match section {
            s if s == WIN.index => crate::game::check_values_in_range(WIN.name, bytes, 1.0),
            s if s == BANK_FROM.index => {
                let (n, entry) = (p.totals(), (p.entry / STEP) as usize);
                for (j, from) in bytes.chunks_exact(2).enumerate() {
                    let pair = (start as usize / 2 + j) / 2;
                    let (a, b) = (pair / n, pair % n);
                    let lowest = if a == 0 { entry.max(1) } else { 1 };
                    let from = usize::from(read_u16(from, 0));
                    if !(lowest..=n - a).contains(&from) {
                        return Err(TableError::section(
                            BANK_FROM.name,
                            format!("holds {from} at ({a}, {b}), outside {lowest} to {}", n - a),
                        ));
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        let outcomes = Outcomes::new(t.whole(&OPTION_FIRST)?, t.whole(&OPTION_KEEP)?, t.whole(&OPTION_POINTS)?);
        Ok(Duel { t, outcomes, scoring: PhantomData })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

impl<S: Scoring> Duel<S> {
    /// The table's rules and sizes.
    pub fn params(&self) -> &Params {
        self.t.params()
    }

    /// Checks a banked total: a multiple of 50 below the goal.
    fn check_total(&self, total: u32, whose: &str) -> Result<usize, ArgumentError> {
        let goal = self.params().goal;
        if !total.is_multiple_of(STEP) {
            return Err(ArgumentErrorKind::NotMultipleOf50 { what: format!("{whose} total"), given: total }.into());
        }
        if total >= goal {
            return Err(ArgumentErrorKind::TotalWon { whose: whose.to_string(), given: total, goal, step: STEP }.into());
        }
        Ok((total / STEP) as usize)
    }

    /// The chance that the player to move wins, at the start of their turn
    /// with `me` banked against the opponent's `opp` (multiples of 50 below
    /// the goal).
    pub fn win_chance(&self, me: u32, opp: u32) -> Result<f64, Error> {
        let (me, opp) = (self.check_total(me, "your")?, self.check_total(opp, "the opponent's")?);
        Ok(self.win_at(me, opp)?)
    }

    fn win_at(&self, me: usize, opp: usize) -> Result<f64, TableError> {
        self.t.f64_at(&WIN, me * self.params().totals() + opp)
    }

    /// The turn of the player with `me` banked against `opp`, solved from
    /// the stored chances for every turn score; a program playing whole games
    /// solves each turn once and asks it every decision.
    pub fn turn(&self, me: u32, opp: u32) -> Result<DuelTurn<'_, S>, Error> {
        self.turn_from(me, opp, 0)
    }

    /// The turn solved for turn scores from `score` up only.
    fn turn_from(&self, me: u32, opp: u32, score: u32) -> Result<DuelTurn<'_, S>, Error> {
        let (me, opp) = (self.check_total(me, "your")?, self.check_total(opp, "the opponent's")?);
        check_score(score)?;
        Ok(DuelTurn::solve(self, me, opp, (score / STEP) as usize)?)
    }

    /// Every keep of `throw` (the 1-6 dice just thrown) at turn score `score`
    /// (before this throw), `me` banked against `opp`, with the chance of
    /// winning after each; empty when the throw busts (the chance is then
    /// [`DuelTurn::bust`]).
    pub fn options(&self, me: u32, opp: u32, throw: Dice, score: u32) -> Result<DuelOptions, Error> {
        check_throw(throw.len(), score)?;
        self.turn_from(me, opp, score)?.options(throw, score)
    }

    /// Before throwing `dice` dice at turn score `score`: the chance of
    /// winning by throwing and by banking, and the better.
    pub fn before_throw(&self, me: u32, opp: u32, dice: u8, score: u32) -> Result<BeforeThrow, Error> {
        check_throw(usize::from(dice), score)?;
        self.turn_from(me, opp, score)?.before_throw(dice, score)
    }
}

fn check_score(score: u32) -> Result<(), ArgumentError> {
    if !score.is_multiple_of(STEP) {
        return Err(ArgumentErrorKind::NotMultipleOf50 { what: "turn score".to_string(), given: score }.into());
    }
    Ok(())
}

/// A throw of `dice` dice at turn score `score` must be one a turn can reach.
fn check_throw(dice: usize, score: u32) -> Result<(), ArgumentError> {
    if !(1..=DICE).contains(&dice) {
        return Err(ArgumentErrorKind::ThrowDice { given: dice, max: DICE }.into());
    }
    check_score(score)?;
    if score == 0 && dice < DICE {
        return Err(ArgumentErrorKind::FewerDiceAtStart { given: dice }.into());
    }
    Ok(())
}

/// The after-keep values one throw can reach, from its turn score on: more
/// than the most points a keep scores (8000, 160 steps of 50) times six.
const WINDOW: usize = 1024;

/// `a + b` and its rounding error (Knuth's TwoSum, without a branch).
#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let t = a + b;
    let z = t - a;
    (t, (a - (t - z)) + (b - z))
}

/// One turn solved from the stored chances: for every turn score from the
/// lowest asked for up, the chance of winning by throwing d dice, and after
/// a keep (the better of banking and throwing on).
pub struct DuelTurn<'a, S: Scoring> {
    duel: &'a Duel<S>,
    me: usize,
    opp: usize,
    /// The opponent's row of the win section: their chance at the start of
    /// their turn, per total of ours.
    row: Vec<f64>,
    /// The lowest turn score solved, in steps of 50.
    lowest: usize,
    /// Steps of turn score that reach the goal.
    winning: usize,
    /// The chance of winning after a bust: the opponent's turn starts.
    bust: f64,
    /// From these turn scores (steps) on, the strategy banks rather than
    /// throw six dice, and fewer ([`BANK_FROM`]).
    bank_from: [usize; 2],
    /// At `s * 6 + d - 1`, s below `winning`: the chance of winning by throwing d dice.
    throw: Vec<f64>,
    /// At `s * 6 + d - 1`: the chance of winning with turn score s and d dice to throw, banking or throwing.
    after: Vec<f64>,
}

impl<S: Scoring> std::fmt::Debug for DuelTurn<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DuelTurn").field("me", &self.me).field("opp", &self.opp).finish_non_exhaustive()
    }
}

impl<'a, S: Scoring> DuelTurn<'a, S> {
    fn solve(duel: &'a Duel<S>, me: usize, opp: usize, lowest: usize) -> Result<DuelTurn<'a, S>, TableError> {
        let n = duel.params().totals();
        // The opponent's row, from the one or two chunks that hold it.
        let mut row = Vec::with_capacity(n);
        let (mut at, end) = (opp * n * 8, (opp + 1) * n * 8);
        while at < end {
            let len = end.min((at / CHUNK + 1) * CHUNK) - at;
            row.extend(duel.t.bytes(&WIN, at, len)?.chunks_exact(8).map(|b| read_f64(b, 0)));
            at += len;
        }
        let winning = n - me;
        let lowest = lowest.min(winning);
        let bust = 1.0 - row[me];
        let o = &duel.outcomes;
        let mut turn = DuelTurn {
            duel,
            me,
            opp,
            row,
            lowest,
            winning,
            bust,
            bank_from: [0; 2],
            throw: vec![f64::NAN; winning * DICE],
            after: vec![1.0; winning * DICE + WINDOW],
        };
        for (k, from) in turn.bank_from.iter_mut().enumerate() {
            *from = usize::from(duel.t.u16_at(&BANK_FROM, (me * n + opp) * 2 + k)?);
        }
        for s in (lowest..winning).rev() {
            // The after-keep values a throw at s can reach, as a fixed-size
            // window: offsets masked into it need no bounds check.
            let window: &[f64; WINDOW] = turn.after[s * DICE..][..WINDOW].try_into().expect("WINDOW values");
            let mut values = [f64::NAN; DICE];
            for (d, value) in (1..=DICE).zip(&mut values) {
                // From bank_from on the strategy banks: no throw to solve.
                if s < turn.bank_from_of(d) {
                    *value = o.throw_value(d, window, turn.bust);
                }
            }
            turn.throw[s * DICE..][..DICE].copy_from_slice(&values);
            let bank = turn.bank_at(s).unwrap_or(-1.0);
            for (a, v) in turn.after[s * DICE..][..DICE].iter_mut().zip(values) {
                // (A NaN throw, above bank_from, compares false: bank.)
                *a = if v > bank { v } else { bank };
            }
        }
        Ok(turn)
    }

    /// The turn score (steps) from which the strategy banks with `d` dice.
    fn bank_from_of(&self, d: usize) -> usize {
        self.bank_from[usize::from(d < DICE)]
    }

    /// The chance of winning after this turn busts (the opponent's turn
    /// starts with the totals unchanged).
    pub fn bust(&self) -> f64 {
        self.bust
    }

    /// The chance of winning by banking `score` now; `None` where banking is
    /// not allowed (no turn score, or below the entry while on 0).
    pub fn bank(&self, score: u32) -> Option<f64> {
        self.bank_at((score / STEP) as usize)
    }

    fn bank_at(&self, s: usize) -> Option<f64> {
        let entry = (self.duel.params().entry / STEP) as usize;
        if s == 0 || (self.me == 0 && s < entry) {
            None
        } else if s >= self.winning {
            Some(1.0)
        } else {
            Some(1.0 - self.row[self.me + s])
        }
    }

    fn check_solved(&self, score: u32) -> Result<usize, ArgumentError> {
        check_score(score)?;
        let s = (score / STEP) as usize;
        if s < self.lowest {
            let lowest = self.lowest as u32 * STEP;
            return Err(ArgumentErrorKind::BelowSolvedTurn { given: score, lowest }.into());
        }
        Ok(s)
    }

    /// The chance of winning by throwing `dice` dice at turn score `score`
    /// (at the goal or past it: nearly 1, though banking wins outright).
    fn throw_value(&self, dice: usize, s: usize) -> f64 {
        if s < self.winning && s < self.bank_from_of(dice) {
            self.throw[s * DICE + dice - 1]
        } else if s < self.winning {
            // Not solved (banking is best): solved now, from the values above.
            let window: &[f64; WINDOW] = self.after[s * DICE..][..WINDOW].try_into().expect("WINDOW values");
            self.duel.outcomes.throw_value(dice, window, self.bust)
        } else {
            let bust = self.duel.outcomes.bust[dice];
            (1.0 - bust) + bust * self.bust
        }
    }

    /// Before throwing `dice` dice at turn score `score`.
    pub fn before_throw(&self, dice: u8, score: u32) -> Result<BeforeThrow, Error> {
        check_throw(usize::from(dice), score)?;
        let s = self.check_solved(score)?;
        let throw = self.throw_value(usize::from(dice), s);
        let bank = self.bank(score);
        let best = if bank.is_some_and(|b| b >= throw) { Then::Bank } else { Then::Throw };
        Ok(BeforeThrow { throw, bank, best })
    }

    /// Every keep of `throw` at turn score `score` (before this throw).
    pub fn options(&self, throw: Dice, score: u32) -> Result<DuelOptions, Error> {
        check_throw(throw.len(), score)?;
        let s = self.check_solved(score)?;
        let t = &self.duel.t;
        let g = throw.graded_rank();
        let first = t.whole(&OPTION_FIRST)?;
        let (keeps, points) = (t.whole(&OPTION_KEEP)?, t.whole(&OPTION_POINTS)?);
        let mut out = DuelOptions::new();
        let mut best: Option<(usize, f64)> = None;
        for i in read_u32(first, g) as usize..read_u32(first, g + 1) as usize {
            let keep = Dice::graded_unrank(usize::from(read_u16(keeps, i))).expect("checked on open");
            let points = u32::from(read_u16(points, i));
            let dice_left = dice_left(throw.len(), keep.len());
            let after = s + (points / STEP) as usize;
            // The value the turn's solve used, and what it came from.
            let p = self.after[after.min(self.winning) * DICE + dice_left - 1];
            let then = match self.bank_at(after) {
                Some(bank) if bank >= p => Then::Bank,
                _ => Then::Throw,
            };
            if best.is_none_or(|(_, v)| p > v) {
                best = Some((out.len(), p));
            }
            out.push(DuelOption { keep, points, dice_left: dice_left as u8, then, p });
        }
        if let Some((i, _)) = best {
            out.set_best(i);
        }
        Ok(out)
    }
}
