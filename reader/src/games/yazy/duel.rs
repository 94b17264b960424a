//! `yazy-duel`: yazy for two players, the exact chance of winning against a
//! perfect opponent, for every state of both sheets.
//!
//! Two players alternate whole yazy turns, the first player then the
//! second, until both sheets are full; the higher total wins and a tie
//! counts half. At a turn's start the player to move has the open
//! categories `M`, the opponent `O`, and the lead `D` (the mover's total
//! minus the opponent's); the mover is the first player when `|M| = |O|`
//! and the second when `|M| = |O| + 1`. `V(M, O, D)` is the mover's
//! P(win) + P(tie) / 2 when both play to maximise their own: scoring `s`
//! points in `c` leads to `1 - V(O, M - c, -(D + s))`; with both sheets
//! full it is 1, 1/2 or 0 by the sign of `D`. A lead the trailing side
//! cannot make up is settled: 1 when `D > most(O)`, 0 when `-D > most(M)`.
//!
//! The table stores the second player's turn starts only (`|M| = |O| + 1`):
//! a first player's turn start is one turn solved from them, since every
//! first player's turn ends in a second player's turn start. See FORMAT.md.
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::yazy::{duel::YazyDuel, Action, Mask};
//! use dice_tables_reader::{Game, Tables};
//! let duel = YazyDuel::open(Tables::default_dir().join("yazy-duel.dtab"))?;
//! // The first player's chance of winning a whole game.
//! let p = duel.chance(Mask::ALL, Mask::ALL, 0)?;
//! assert!((p - 0.4939703).abs() < 1e-7);
//! // Every option of a roll, with its chance of winning.
//! let options = duel.options(Mask::ALL, Mask::ALL, 0, "66612".parse()?, 2)?;
//! assert_eq!(options.best().map(|o| o.action), Some(Action::Keep("666".parse()?)));
//! # Ok(()) }
//! ```

use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use super::target::ROLL_POINTS;
use super::{Action, Category, Mask, Rules, CATEGORIES, MASKS, MAX_REROLLS};
use crate::dice::Dice;
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::five_dice::check_state;
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::target::{self, KeepLevels, TargetChoice, TargetChoices};

pub use crate::lead_chances::{decode_segment, PLANES, UNITS, VALUE_CHUNK};
/// Options whose chances (computed from stored values, each within 6.2e-8 of
/// exact) differ by less than this are tied: the first in the tie order is
/// the decision, within 2.3e-7 of the best exact chance.
pub const DUEL_TIE: f64 = target::TARGET_TIE;

/// The most points each category can score (the highest of its points over
/// every roll), in mask-bit order.
pub static CATEGORY_MOST: std::sync::LazyLock<[u32; CATEGORIES.len()]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| ROLL_POINTS.iter().map(|p| u32::from(p[c])).max().unwrap_or(0))
});

/// The most points the open categories of `mask` can still score.
pub fn most(mask: u16) -> i32 {
    (0..CATEGORIES.len()).filter(|c| mask >> c & 1 == 1).map(|c| CATEGORY_MOST[c] as i32).sum()
}

/// Every distinct number of points a roll can score in each category, ascending.
static CATEGORY_SCORES: std::sync::LazyLock<[Vec<u8>; CATEGORIES.len()]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|c| {
        let mut s: Vec<u8> = ROLL_POINTS.iter().map(|p| p[c]).collect();
        s.sort_unstable();
        s.dedup();
        s
    })
});

/// Where each stored pair of sheets lies in section `v`: the pairs `(m, o)`
/// with `|m| = |o| + 1`, both inside the universe, ordered by `|o|`, then
/// `m`, then `o` (masks as numbers); a pair stores its unsettled leads
/// `-most(m)` to `most(o)`, lowest first.
pub struct Layout {
    universe: u16,
    /// Per mask inside the universe: its rank among the masks of its size.
    rank: Vec<u32>,
    /// Per mask: `most` summed over the masks of its size before it.
    most_before: Vec<u64>,
    /// Per mover mask: where its pairs begin.
    block: Vec<u64>,
    /// The masks inside the universe of each size, ascending.
    by_size: Vec<Vec<u16>>,
    /// Each mover's first value and the mover, in section order.
    blocks: Vec<(u64, u16)>,
    values: u64,
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout").field("universe", &self.universe).field("values", &self.values).finish()
    }
}

impl Layout {
    /// The layout of a game played with the categories of `universe`.
    pub fn new(universe: u16) -> Layout {
        let n = universe.count_ones() as usize;
        let mut by_size = vec![Vec::new(); n + 1];
        let (mut rank, mut most_before) = (vec![0; MASKS], vec![0; MASKS]);
        let mut total_most = vec![0u64; n + 1];
        for m in (0..MASKS as u16).filter(|m| m & !universe == 0) {
            let k = m.count_ones() as usize;
            rank[usize::from(m)] = by_size[k].len() as u32;
            most_before[usize::from(m)] = total_most[k];
            total_most[k] += most(m) as u64;
            by_size[k].push(m);
        }
        let (mut block, mut blocks, mut at) = (vec![0; MASKS], Vec::new(), 0u64);
        for k in 0..n {
            for &m in &by_size[k + 1] {
                block[usize::from(m)] = at;
                blocks.push((at, m));
                at += by_size[k].len() as u64 * (most(m) as u64 + 1) + total_most[k];
            }
        }
        Layout { universe, rank, most_before, block, by_size, blocks, values: at }
    }

    /// The categories both sheets use.
    pub fn universe(&self) -> u16 {
        self.universe
    }

    /// Values stored in all.
    pub fn values(&self) -> u64 {
        self.values
    }

    /// Where pair `(m, o)` begins (`|m| = |o| + 1`, both in the universe).
    pub fn start(&self, m: u16, o: u16) -> u64 {
        let (m, o) = (usize::from(m), usize::from(o));
        self.block[m] + u64::from(self.rank[o]) * (most(m as u16) as u64 + 1) + self.most_before[o]
    }

    /// How many leads pair `(m, o)` stores.
    pub fn leads(m: u16, o: u16) -> u64 {
        (most(m) + most(o) + 1) as u64
    }

    /// The pair whose values hold position `at` (below [`values`](Self::values)).
    fn pair_at(&self, at: u64) -> (u16, u16) {
        let b = self.blocks.partition_point(|&(start, _)| start <= at) - 1;
        let m = self.blocks[b].1;
        let opponents = &self.by_size[m.count_ones() as usize - 1];
        let i = opponents.partition_point(|&o| self.start(m, o) <= at) - 1;
        (m, opponents[i])
    }

    /// The pair after `(m, o)` in section order.
    fn next_pair(&self, m: u16, o: u16) -> Option<(u16, u16)> {
        let opponents = &self.by_size[m.count_ones() as usize - 1];
        let i = self.rank[usize::from(o)] as usize + 1;
        if let Some(&o) = opponents.get(i) {
            return Some((m, o));
        }
        let b = self.blocks.partition_point(|&(start, _)| start <= self.block[usize::from(m)]);
        self.blocks.get(b).map(|&(_, m)| (m, self.by_size[m.count_ones() as usize - 1][0]))
    }

    /// The pairs that hold positions `lo..hi`, each with the positions of
    /// its own in that range.
    fn segments(&self, lo: u64, hi: u64) -> Vec<(u16, u16, u64, u64)> {
        let mut out = Vec::new();
        if lo >= hi {
            return out;
        }
        let mut pair = Some(self.pair_at(lo));
        let mut at = lo;
        while let Some((m, o)) = pair.filter(|_| at < hi) {
            let end = (self.start(m, o) + Layout::leads(m, o)).min(hi);
            out.push((m, o, at, end));
            at = end;
            pair = self.next_pair(m, o);
        }
        out
    }
}

/// A yazy-duel table's parameters.
#[derive(Clone, Debug)]
pub struct YazyDuelParams {
    /// The rules (header parameter `rerolls`).
    pub rules: Rules,
    /// Where each pair's values lie, from header parameter `universe` (the
    /// categories both sheets use: 2047, all 11, but for a reduced game).
    pub layout: Arc<Layout>,
}

impl PartialEq for YazyDuelParams {
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules && self.layout.universe == other.layout.universe
    }
}

/// The dimensions of `v`: three bytes per stored value.
fn value_dims(p: &YazyDuelParams) -> Vec<u64> {
    vec![p.layout.values * PLANES as u64]
}

/// The one section: every stored value, encoded (see [`decode_segment`]).
pub const VALUES: SectionSpec<YazyDuelParams> =
    SectionSpec::new(0, crate::lead_chances::SECTION, DType::U8, Encoding::Zstd, value_dims)
        .chunked((VALUE_CHUNK * PLANES) as u64);

/// A yazy-duel table.
pub struct YazyDuel {
    t: Checked<Self>,
}

impl fmt::Debug for YazyDuel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("YazyDuel").field("t", &self.t).finish()
    }
}

impl Game for YazyDuel {
    const ID: &'static str = "yazy-duel";
    const BUILT_BY: &'static [&'static str] = &["yazy-duel", "optional-tables"];
    type Params = YazyDuelParams;
    const SECTIONS: &'static [SectionSpec<YazyDuelParams>] = &[VALUES];

    fn params(header: &Header) -> Result<YazyDuelParams, TableError> {
        crate::lead_chances::check_differences(header)?;
        let rerolls = param_in(header, "rerolls", 0..=MAX_REROLLS)? as u8;
        let universe = param_in(header, "universe", 1..=(MASKS - 1) as i64)? as u16;
        let layout = Layout::new(universe);
        let values = param_in(header, "values", 0..=i64::MAX)? as u64;
        if values != layout.values {
            let why = format!("is {values}, where a game with universe {universe} stores {}", layout.values);
            return Err(TableErrorKind::BadParam { name: "values", why }.into());
        }
        Ok(YazyDuelParams { rules: Rules { rerolls }, layout: Arc::new(layout) })
    }

    fn header_params(p: &YazyDuelParams) -> Vec<(&'static str, i64)> {
        vec![
            ("rerolls", i64::from(p.rules.rerolls)),
            ("universe", i64::from(p.layout.universe)),
            ("values", p.layout.values as i64),
            ("differences", crate::lead_chances::DIFFERENCES),
        ]
    }

    fn check_contents(_: &Checked<Self>) -> Result<(), TableError> {
        Ok(())
    }

    /// Every value of the chunk decoded: none falls as the lead grows within
    /// its pair, none is above 1.
    fn check_chunk(p: &YazyDuelParams, _: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        let first = start / PLANES as u64;
        for (_, _, lo, hi) in p.layout.segments(first, first + (bytes.len() / PLANES) as u64) {
            decode_segment(bytes, (lo - first) as usize, (hi - first) as usize, |_| ())?;
        }
        Ok(())
    }

    fn from_checked(t: Checked<Self>) -> Result<Self, TableError> {
        Ok(YazyDuel { t })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

/// Which turn a pair of sheets is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// The first player to move (`|M| = |O|`, some open).
    First,
    /// The second player to move (`|M| = |O| + 1`): stored.
    Second,
    /// Both sheets full.
    Over,
}

impl YazyDuel {
    /// The rules the table was solved for.
    pub fn rules(&self) -> Rules {
        self.t.params().rules
    }

    /// The categories both sheets use (all 11 but in a reduced game).
    pub fn universe(&self) -> Mask {
        Mask::new(u32::from(self.t.params().layout.universe)).expect("checked at open")
    }

    /// The turn the sheets are at: an error for sheets no game reaches.
    fn turn_of(&self, mover: Mask, opponent: Mask) -> Result<Turn, ArgumentError> {
        let universe = self.t.params().layout.universe;
        for mask in [mover, opponent] {
            if mask.bits() & !universe != 0 {
                return Err(ArgumentErrorKind::OutsideUniverse {
                    table: Self::ID.to_string(),
                    given: mask.to_string(),
                    universe: self.universe().to_string(),
                }
                .into());
            }
        }
        let (m, o) = (mover.bits().count_ones(), opponent.bits().count_ones());
        match (m, o) {
            (0, 0) => Ok(Turn::Over),
            _ if m == o => Ok(Turn::First),
            _ if m == o + 1 => Ok(Turn::Second),
            _ => Err(ArgumentErrorKind::TurnOrder { mover: m, opponent: o }.into()),
        }
    }

    /// `V(mover, opponent, lead)`: the chance of winning (ties half) of the
    /// player to move, at the start of a turn, with `lead` = their total
    /// minus the opponent's.
    pub fn chance(&self, mover: Mask, opponent: Mask, lead: i64) -> Result<f64, Error> {
        self.turn_of(mover, opponent)?;
        Ok(Rows::new(self).turn_start(mover.bits(), opponent.bits(), clamp_lead(lead))?)
    }

    /// Every option of `dice` with `rerolls` left, with the mover's chance
    /// of winning if it is taken: scoring now in each open category and,
    /// while rerolls are left, every partial keep. The decision first (the
    /// first in the tie order within [`DUEL_TIE`] of the best: categories
    /// in mask-bit order, then larger keeps first), then by descending chance.
    pub fn options(
        &self,
        mover: Mask,
        opponent: Mask,
        lead: i64,
        dice: Dice,
        rerolls: u8,
    ) -> Result<TargetChoices<Action>, Error> {
        check_state(dice, rerolls, self.rules().rerolls, Self::ID)?;
        self.turn(mover, opponent, lead)?.options(dice, rerolls)
    }

    /// The turn of the player to move, solved once from the stored values:
    /// every roll's options then cost a lookup each (what a program playing
    /// whole turns asks; a second player's turn solves about a hundred first
    /// player's turn starts).
    pub fn turn(&self, mover: Mask, opponent: Mask, lead: i64) -> Result<DuelTurn, Error> {
        let rerolls = self.rules().rerolls;
        if self.turn_of(mover, opponent)? == Turn::Over {
            return Ok(DuelTurn { rerolls, after: None, levels: None });
        }
        let after = Rows::new(self).after(mover.bits(), opponent.bits(), clamp_lead(lead))?;
        let levels = (rerolls > 0).then(|| KeepLevels::solve(&|roll| after.stop(roll), rerolls));
        Ok(DuelTurn { rerolls, after: Some(after), levels })
    }
}

/// One turn of the player to move ([`YazyDuel::turn`]).
pub struct DuelTurn {
    rerolls: u8,
    after: Option<After>,
    levels: Option<KeepLevels>,
}

impl fmt::Debug for DuelTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DuelTurn").field("over", &self.after.is_none()).finish_non_exhaustive()
    }
}

impl DuelTurn {
    /// [`YazyDuel::options`] of a roll in this turn.
    pub fn options(&self, dice: Dice, rerolls: u8) -> Result<TargetChoices<Action>, Error> {
        check_state(dice, rerolls, self.rerolls, YazyDuel::ID)?;
        let mut out = TargetChoices::new();
        let Some(after) = &self.after else { return Ok(out) };
        for &c in &after.open {
            let points = ROLL_POINTS[dice.rank()][usize::from(c.index())];
            out.push(TargetChoice { action: Action::Score(c), p: after.get(c, points), points });
        }
        if let (Some(levels), true) = (&self.levels, rerolls > 0) {
            levels.push_partial_keeps(&mut out, dice, rerolls, Action::Keep);
        }
        target::rank(&mut out);
        Ok(out)
    }
}

/// A lead far past any game's (280 points) settles as any such lead does.
fn clamp_lead(lead: i64) -> i32 {
    lead.clamp(-1000, 1000) as i32
}

/// One stored pair's values: `stored` at the leads `lowest..=highest`.
struct Row {
    lowest: i32,
    highest: i32,
    stored: Vec<f64>,
}

impl Row {
    fn at(&self, d: i32) -> f64 {
        value_at(&self.stored, self.lowest, self.highest, d)
    }
}

/// `V` at lead `d` of a pair whose unsettled leads `lowest..=highest` hold
/// `stored`: 1 past the highest, 0 below the lowest (settled).
#[inline]
pub fn value_at(stored: &[f64], lowest: i32, highest: i32, d: i32) -> f64 {
    if d > highest {
        1.0
    } else if d < lowest {
        0.0
    } else {
        stored[(d - lowest) as usize]
    }
}

/// The mover's chance after scoring each number of points in each open
/// category: what a turn is solved from.
struct After {
    open: Vec<Category>,
    /// Per category (mask-bit index), per points scored.
    p: Vec<[f64; 51]>,
}

impl After {
    fn get(&self, c: Category, points: u8) -> f64 {
        self.p[usize::from(c.index())][usize::from(points)]
    }

    /// A roll's chance with no rerolls left: its best category's.
    fn stop(&self, roll: usize) -> f64 {
        let points = &ROLL_POINTS[roll];
        self.open.iter().map(|&c| self.get(c, points[usize::from(c.index())])).fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The stored pairs one lookup reads, each decoded once (sorted by pair:
/// a lookup reads at most 121).
struct Rows<'a> {
    duel: &'a YazyDuel,
    decoded: Vec<((u16, u16), Rc<Row>)>,
}

impl<'a> Rows<'a> {
    fn new(duel: &'a YazyDuel) -> Rows<'a> {
        Rows { duel, decoded: Vec::new() }
    }

    /// The stored values of pair `(m, o)` (`|m| = |o| + 1`).
    fn row(&mut self, m: u16, o: u16) -> Result<Rc<Row>, TableError> {
        let slot = match self.decoded.binary_search_by_key(&(m, o), |d| d.0) {
            Ok(i) => return Ok(self.decoded[i].1.clone()),
            Err(i) => i,
        };
        let t = &self.duel.t;
        let layout = &t.params().layout;
        let start = layout.start(m, o);
        let end = start + Layout::leads(m, o);
        let mut stored = Vec::with_capacity((end - start) as usize);
        let mut at = start;
        while at < end {
            // A pair's values may run over chunks: each restarts from 0.
            let c = at / VALUE_CHUNK as u64;
            let chunk = t.chunk(&VALUES, c as usize)?;
            let lo = (at - c * VALUE_CHUNK as u64) as usize;
            let hi = ((end - c * VALUE_CHUNK as u64) as usize).min(chunk.len() / PLANES);
            decode_segment(chunk, lo, hi, |q| stored.push(f64::from(q) / f64::from(UNITS)))?;
            at += (hi - lo) as u64;
        }
        let row = Rc::new(Row { lowest: -most(m), highest: most(o), stored });
        self.decoded.insert(slot, ((m, o), row.clone()));
        Ok(row)
    }

    /// `V(m, o, d)` at a turn's start.
    fn turn_start(&mut self, m: u16, o: u16, d: i32) -> Result<f64, TableError> {
        if d > most(o) {
            return Ok(1.0);
        }
        if d < -most(m) {
            return Ok(0.0);
        }
        if m == 0 {
            // Both sheets full, the lead 0 (the only unsettled one).
            return Ok(0.5);
        }
        if m.count_ones() == o.count_ones() + 1 {
            return Ok(self.row(m, o)?.at(d));
        }
        let after = self.after(m, o, d)?;
        Ok(KeepLevels::turn_start(&|roll| after.stop(roll), self.duel.rules().rerolls))
    }

    /// The mover's chance after scoring, for every category open in `m` and
    /// every number of points a roll scores in it: `1 - V(o, m - c, -(d + s))`.
    fn after(&mut self, m: u16, o: u16, d: i32) -> Result<After, TableError> {
        let open: Vec<Category> = Mask::new(u32::from(m)).expect("a mask").categories().collect();
        let mut p = vec![[f64::NAN; 51]; CATEGORIES.len()];
        for &c in &open {
            let next = m & !(1 << c.index());
            for &s in &CATEGORY_SCORES[usize::from(c.index())] {
                let lead = -(d + i32::from(s));
                p[usize::from(c.index())][usize::from(s)] = 1.0 - self.turn_start(o, next, lead)?;
            }
        }
        Ok(After { open, p })
    }
}
