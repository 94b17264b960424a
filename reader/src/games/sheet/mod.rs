//! What the score-sheet games with an upper bonus (yatzy, yahtzee) share:
//! their scoring, the joker rule, which states a game can reach, and the one
//! turn solve a lookup makes from the stored turn-start values.
//!
//! A state at the start of a turn is (open categories, upper-section points
//! so far capped at 63, and for yahtzee whether the yahtzee box holds 50).
//! The upper bonus is paid at the end of the game, so it counts as still to
//! come until then.
//!
//! Three parts: the rules (`rules.rs`: categories, scoring, the joker,
//! reachable upper totals), one turn's solve from turn-start values
//! (`turn.rs`, which the generator also runs to prove a table's decisions),
//! and here the tables and their views, [`Yatzy`] and [`Yahtzee`].
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

#[cfg(not(feature = "solitaire-only"))]
mod as_rules;
mod game;
mod rules;
mod states;
mod target;
mod turn;

use std::fmt;
use std::sync::OnceLock;

use crate::dice::{Dice, FACES};
use crate::error::{ArgumentError, Error, TableError};
use crate::five_dice::{parse_mask, DICE, ROLLS};
use crate::format::read_u32;
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::options::with_scoring_now;
use turn::Levels;

#[cfg(not(feature = "solitaire-only"))]
pub use as_rules::SheetAsRules;
pub(crate) use game::check_decision;
pub use game::*;
pub use rules::*;
pub use states::SheetStates;
pub use target::{SheetTarget, SheetTargetParams, TargetTurn, TARGET_SECTIONS};

/// A yatzy-target table.
pub type YatzyTarget = SheetTarget<YatzyGame>;
/// A yahtzee-target table (the forced joker reading).
pub type YahtzeeTarget = SheetTarget<YahtzeeGame>;
/// The yahtzee target table under the free joker reading.
pub type YahtzeeFreeTarget = SheetTarget<YahtzeeFreeGame>;
pub use turn::*;

// ---------------------------------------------------------------------------
// The tables and their lookups.

/// Masks of a game's open categories: `0..masks`.
const fn masks(categories: usize) -> usize {
    1 << categories
}

/// Rows of one upper-scored set: one per (lower categories' bits, flag).
const fn rows_per_set(categories: usize, flags: usize) -> usize {
    masks(categories) / UPPER_SETS * flags
}

/// Rows a chunk of the turn-start section holds: a lookup decodes the few
/// blocks of rows it reads, not whole sets (yatzy's start-of-game decision
/// reads rows of seven sets).
pub const ROW_BLOCK: usize = 128;

/// Bytes of a turn-start chunk: room for five byte planes of 64 totals of
/// `ROW_BLOCK` rows (a chunk uses five planes of its set's reachable totals
/// only, then zeros: see FORMAT.md).
const CHUNK_BYTES: usize = PLANES * ROW_BLOCK * UPPER_TOTALS;

/// The turn-start section's dimensions: (upper-scored set, block of rows,
/// chunk bytes).
const fn turn_start_dims(categories: usize, flags: usize) -> [u64; 3] {
    [UPPER_SETS as u64, (rows_per_set(categories, flags) / ROW_BLOCK) as u64, CHUNK_BYTES as u64]
}

/// yatzy: the Scandinavian rules.
#[derive(Debug)]
pub struct YatzyGame;

/// yatzy's turn-start values (see FORMAT.md): per upper-scored set and
/// block of 64 rows a chunk of byte planes of zigzag deltas along the
/// upper total.
pub const YATZY_TURN_START: SectionSpec<SheetParams> =
    SectionSpec::new(0, "turn_start", DType::U8, Encoding::Zstd, |_| turn_start_dims(15, 1).to_vec())
        .chunked(CHUNK_BYTES as u64);

impl SheetGame for YatzyGame {
    const ID: &'static str = "yatzy";
    const TARGET_ID: &'static str = "yatzy-target";
    const TARGET_BUILT_BY: &'static [&'static str] = &["yatzy-target", "target-tables"];
    const CATEGORIES: &'static [&'static str] = &YATZY_CATEGORIES;
    const FLAGS: usize = 1;
    const MAX_SCORE: f64 = 374.0;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = &[YATZY_TURN_START, EXCEPTION_KEY, EXCEPTION_ACTION];
    const JOKER: Option<Joker> = None;
}

/// yahtzee: the United States rules, a joker placed by the forced
/// (official) reading.
#[derive(Debug)]
pub struct YahtzeeGame;

/// yahtzee's turn-start values, as [`YATZY_TURN_START`] with two rows a mask.
pub const YAHTZEE_TURN_START: SectionSpec<SheetParams> =
    SectionSpec::new(0, "turn_start", DType::U8, Encoding::Zstd, |_| turn_start_dims(13, 2).to_vec())
        .chunked(CHUNK_BYTES as u64);

impl SheetGame for YahtzeeGame {
    const ID: &'static str = "yahtzee";
    const TARGET_ID: &'static str = "yahtzee-target";
    const TARGET_BUILT_BY: &'static [&'static str] = &["yahtzee-target", "target-tables"];
    const CATEGORIES: &'static [&'static str] = &YAHTZEE_CATEGORIES;
    const FLAGS: usize = 2;
    /// 375 on the sheet and twelve Yahtzee bonuses.
    const MAX_SCORE: f64 = 1575.0;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = &[YAHTZEE_TURN_START, EXCEPTION_KEY, EXCEPTION_ACTION];
    const JOKER: Option<Joker> = Some(Joker::Forced);
}

/// yahtzee under the free (Verhoeff's) joker reading: its own tables,
/// `yahtzee-free.dtab` and `yahtzee-free-target.dtab`, beside the forced
/// reading's.
#[derive(Debug)]
pub struct YahtzeeFreeGame;

impl SheetGame for YahtzeeFreeGame {
    const ID: &'static str = "yahtzee-free";
    const TARGET_ID: &'static str = "yahtzee-free-target";
    const BUILT_BY: &'static [&'static str] = &["yahtzee-free", "optional-tables"];
    const TARGET_BUILT_BY: &'static [&'static str] = &["yahtzee-free-target", "optional-tables"];
    const CATEGORIES: &'static [&'static str] = &YAHTZEE_CATEGORIES;
    const FLAGS: usize = 2;
    const MAX_SCORE: f64 = YahtzeeGame::MAX_SCORE;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = YahtzeeGame::SECTIONS;
    const JOKER: Option<Joker> = Some(Joker::Free);
}

/// The Yahtzee bonus that scoring `dice` in any category earns in `state`:
/// 100 for a Yahtzee rolled while the yahtzee box holds 50, else 0.
pub fn yahtzee_bonus_of(state: State, dice: Dice) -> u8 {
    let yahtzee = dice.len() == DICE && dice.counts().contains(&(DICE as u8));
    if state.yahtzee_bonus() && yahtzee {
        YAHTZEE_BONUS
    } else {
        0
    }
}

/// A yatzy table.
pub type Yatzy = ScoreSheet<YatzyGame>;
/// A yahtzee table.
pub type Yahtzee = ScoreSheet<YahtzeeGame>;
/// The yahtzee table under the free joker reading.
pub type YahtzeeFree = ScoreSheet<YahtzeeFreeGame>;

/// A yatzy or yahtzee table: the turn-start values, from which a lookup
/// solves the turn it is asked about.
pub struct ScoreSheet<G: SheetGame> {
    t: Checked<Self>,
    turn: TurnSolver,
    /// Per chunk of the turn-start section, its values decoded once, on
    /// first use: per (row, upper total) the value in points.
    decoded: Box<[OnceLock<Box<[f64]>>]>,
}

impl<G: SheetGame> fmt::Debug for ScoreSheet<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(G::ID).field("t", &self.t).finish_non_exhaustive()
    }
}

impl<G: SheetGame> Game for ScoreSheet<G> {
    const ID: &'static str = G::ID;
    const BUILT_BY: &'static [&'static str] = G::BUILT_BY;
    type Params = SheetParams;
    const SECTIONS: &'static [SectionSpec<SheetParams>] = G::SECTIONS;

    fn params(header: &Header) -> Result<SheetParams, TableError> {
        let exceptions = param_in(header, "exceptions", 0..=MAX_EXCEPTIONS)? as u64;
        Ok(SheetParams { rules: G::rules(header)?, exceptions })
    }

    fn param_value_name(name: &str, value: i64) -> Option<&'static str> {
        G::param_value_name(name, value)
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
        if actions.is_empty() {
            return Ok(());
        }
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
        let blocks = rows_per_set(G::CATEGORIES.len(), G::FLAGS) / ROW_BLOCK;
        let set = (start as usize / CHUNK_BYTES / blocks) % UPPER_SETS;
        let chunk = SetChunk::new(bytes, set, ROW_BLOCK);
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
        let chunks = UPPER_SETS * rows_per_set(G::CATEGORIES.len(), G::FLAGS) / ROW_BLOCK;
        Ok(ScoreSheet { t, turn, decoded: (0..chunks).map(|_| OnceLock::new()).collect() })
    }

    fn checked(&self) -> &Checked<Self> {
        &self.t
    }
}

/// One chunk of the turn-start section (a block of rows of one upper-scored
/// set): per row, the zigzag deltas of the values at the set's reachable
/// upper totals, in byte planes, then zeros.
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
        let row = (mask as usize >> FACES) * G::FLAGS + usize::from(flag);
        let blocks = rows_per_set(G::CATEGORIES.len(), G::FLAGS) / ROW_BLOCK;
        let c = (set * blocks + row / ROW_BLOCK) % self.decoded.len();
        let decoded = match self.decoded[c].get() {
            Some(d) => d,
            None => {
                let chunk = SetChunk::new(self.t.chunk(&G::SECTIONS[0], c)?, set, ROW_BLOCK);
                // Unreachable totals repeat the value before them; lookups
                // never ask for them.
                let mut values = vec![0.0; ROW_BLOCK * UPPER_TOTALS];
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
                let _ = self.decoded[c].set(values.into_boxed_slice());
                self.decoded[c].get().expect("set just above")
            }
        };
        Ok(&decoded[(row % ROW_BLOCK) * UPPER_TOTALS..][..UPPER_TOTALS])
    }

    /// Expected points still to come at the start of a turn, before the
    /// roll: the upper bonus and any Yahtzee bonuses included, to 1e-7.
    pub fn turn_start_value(&self, state: State) -> Result<f64, Error> {
        Ok(self.row(state.mask, state.flag)?[usize::from(state.upper)])
    }

    /// Every turn-start value, `[mask][flag][upper total]` in one list
    /// (flag: the yahtzee box holds 50, yahtzee only; upper totals 0 to 63,
    /// 63 meaning 63 or more). Totals that the filled upper boxes cannot
    /// make repeat the value of the reachable total below them. For
    /// analysis; a lookup reads one row.
    pub fn turn_start_values(&self) -> Result<Vec<f64>, TableError> {
        let masks = 1u32 << G::CATEGORIES.len();
        let mut out = Vec::with_capacity(masks as usize * G::FLAGS * UPPER_TOTALS);
        for mask in 0..masks {
            for flag in 0..G::FLAGS {
                out.extend_from_slice(self.row(mask, flag == 1)?);
            }
        }
        Ok(out)
    }

    /// The Yahtzee bonus that scoring `dice` in any category earns in
    /// `state`, which a category's [`Choice::points`](crate::Choice::points)
    /// includes: 100 for a Yahtzee rolled while the yahtzee box holds 50,
    /// else 0. A player writes the rest in the box and the bonus apart;
    /// only the rest counts towards the upper total.
    pub fn yahtzee_bonus(&self, state: State, dice: Dice) -> u8 {
        yahtzee_bonus_of(state, dice)
    }

    /// The value of a roll in `state` whose options ([`ScoreSheet::options`])
    /// are `options`: the best option's; with no category open (the game is
    /// over, no option) the state's turn-start value, the upper bonus still
    /// to come once earned, as the turn start counts it.
    pub fn roll_value(&self, state: State, options: &Choices) -> Result<f64, Error> {
        match options.best() {
            Some(best) => Ok(best.ev),
            None => self.turn_start_value(state),
        }
    }

    /// Every action of `dice` with `rerolls` rerolls left (0 to 2) in
    /// `state`, with its expected score still to come: the categories the
    /// dice may be scored in now, and while rerolls are left every partial
    /// keep. The exact solution's decision first, then from best to worst.
    /// Solves the turn from the stored turn-start values (values within
    /// 5e-8 of the exact ones); the decision is proved exact by the
    /// generator, which lists the few it is not as exceptions, followed here.
    ///
    /// The decision: options within [`EXACT_TIE`] of each other are tied,
    /// and the first in the tie order wins (categories in mask-bit order;
    /// keeping all five, then larger keeps first). Keeping all five with
    /// rerolls left is deciding again with one fewer: so a decision to
    /// score now, or, where that reroll is worth nothing, the partial keep
    /// decided with one fewer (equally optimal).
    pub fn options(&self, state: State, dice: Dice, rerolls: u8) -> Result<Choices, Error> {
        check_decision(dice, rerolls, G::ID)?;
        let levels = self.turn.solve(&|mask, flag| self.row(mask, flag), state, rerolls)?;
        Turn { sheet: self, levels }.options(dice, rerolls)
    }

    /// Solves the turn of `state` once, for every decision in it (see [`Turn`]).
    pub fn turn(&self, state: State) -> Result<Turn<'_, G>, Error> {
        let levels = self.turn.solve(&|mask, flag| self.row(mask, flag), state, 2)?;
        Ok(Turn { sheet: self, levels })
    }

    /// Makes the listed exact decision the best option, where the stored
    /// values would lead elsewhere.
    fn apply_exception(&self, options: &mut Choices, state: State, dice: Dice, rerolls: u8) -> Result<(), TableError> {
        if let Some(action) = self.exception(self.turn.decision_key(state, dice, rerolls))? {
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
        let i = crate::format::partition_point(count, |i| read_u32(keys, i) < key);
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
        Ok(with_scoring_now(
            rerolls,
            |r| self.decided(dice, r),
            |o| o.action,
            |o| matches!(o.action, Action::Keep(k) if k.len() == DICE),
            |o| o.ev,
        )?)
    }

    /// The options as the solver values them (keeping all five with
    /// rerolls left among them), the decision first.
    fn decided(&self, dice: Dice, rerolls: u8) -> Result<Choices, TableError> {
        let mut options = self.sheet.turn.choices(&self.levels, dice, rerolls, STORED_TIE);
        self.sheet.apply_exception(&mut options, self.levels.state, dice, rerolls)?;
        Ok(options)
    }
}

/// The decision of an exceptions' key: `None` for a key of no state the game can reach.
fn decision_of<G: SheetGame>(turn: &TurnSolver, key: u32) -> Option<(State, Dice, u8)> {
    let key = key as usize;
    let (rest, roll) = (key / ROLLS, key % ROLLS);
    let (rest, rerolls) = (rest / 3, (rest % 3) as u8);
    let (row, upper) = (rest / UPPER_TOTALS, rest % UPPER_TOTALS);
    let (mask, flag) = ((row / G::FLAGS) as u32, row % G::FLAGS == 1);
    let state = turn.capped_state(G::ID, mask, upper as u8, flag)?;
    (mask != 0).then_some((state, Dice::unrank(DICE, roll)?, rerolls))
}
