//! Why a decision is best, in parts (`NAME-parts.dtab`, game id
//! `rules-parts`): for every turn start of a rule set, its value (the
//! expected score still to come under the table's best play) split into
//! what each open box is expected to score from there, then each bonus the
//! rules pay (the upper bonus, the extra bonus, the first-roll bonus), so
//! that the difference between two options splits the same way: "sixes
//! +2.1, yatzy −0.9, upper bonus −2.0".
//!
//! A turn start's parts are the chances of the turn's ends under the best
//! play, each end's points put to the box it scores, plus the parts of the
//! turn start it leads to; a part is the expected final points of one box
//! or bonus. They add up to the value: the table stores every part but the
//! first (the lowest open box, or at a full sheet the first bonus), in
//! fixed point, and the reader gives the first as the value less the
//! others, so the parts add up to the rule set's own table's value to the
//! last bit of rounding and each part is as exact as the fixed point (half
//! of `2^-scale` points, about 0.002 for the presets).
//!
//! A decision's parts come from one turn's play: an option's ends under
//! the best play of the rest of the turn, each end's points and the stored
//! parts of where it leads ([`TurnStarts::option_parts`]).
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::rule_sheet::TurnStarts;
//! use dice_tables_reader::Tables;
//! // `make tables` writes tables/yacht.dtab and tables/yacht-parts.dtab.
//! let tables = Tables::open_default()?;
//! let (yacht, parts) = (tables.rule_sheet("yacht")?, tables.rule_parts("yacht")?);
//! let all = yacht.all_open();
//! let start = yacht.parts_of(&parts, all, 0, 0)?;
//! let value = yacht.turn_start_value(all, 0, 0)?;
//! assert!((start.iter().sum::<f64>() - value).abs() < 1e-9);
//! for (name, part) in parts.part_names().iter().zip(&start) {
//!     println!("{name}: {part:.2}");
//! }
//! # Ok(()) }
//! ```

use super::turn::RuleChoice;
use super::{Board, Shape, TurnStarts};
use crate::dice::{multiset_count, Dice};
use crate::error::{ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind};
use crate::format::{DType, Encoding, Header};
use crate::game::{param_in, Checked, Game, SectionSpec};
use crate::rules::{RuleSet, SheetState};

/// The game id of every rule set's parts table.
pub const PARTS_ID: &str = "rules-parts";

/// The file stem of rule set `name`'s parts table: `NAME-parts`.
pub fn parts_stem(name: &str) -> String {
    format!("{name}-parts")
}

/// The most fractional bits a part is stored with.
pub const MOST_PARTS_SCALE: i64 = 15;

/// A stored part is the change from the same part one upper total below
/// (at total 0, from 0), wrapped to 16 bits and zigzag-coded
/// ([`zigzag`]): neighbouring totals' parts are close, and the totals no
/// game reaches repeat the one below, so most changes are small numbers
/// and compress to little. The header says it (`differences`, 1).
pub const PARTS_DIFFERENCES: i64 = 1;

/// The change from `below` to `part` (fixed-point parts), wrapped to 16
/// bits, zigzag-coded: small changes either way are small numbers.
///
/// ```
/// use dice_tables_reader::rule_sheet::{unzigzag, zigzag};
/// assert_eq!((zigzag(10, 10), zigzag(11, 10), zigzag(9, 10)), (0, 2, 1));
/// for (part, below) in [(0, 65535), (65535, 0), (40000, 3), (7, 7)] {
///     assert_eq!(unzigzag(zigzag(part, below), below), part);
/// }
/// ```
pub fn zigzag(part: u16, below: u16) -> u16 {
    let d = part.wrapping_sub(below) as i16;
    ((d << 1) ^ (d >> 15)) as u16
}

/// The part whose change from `below` is the zigzag code `z` ([`zigzag`]'s inverse).
pub fn unzigzag(z: u16, below: u16) -> u16 {
    below.wrapping_add(((z >> 1) as i16 ^ -((z & 1) as i16)) as u16)
}

/// Decoded bytes per chunk of the parts: a decision reads the parts of
/// every turn start its turn's ends lead to.
const CHUNK_BYTES: u64 = 1 << 13;

/// What a rule set's points come from, in the order its parts are given:
/// each box (sheet order), then the upper bonus, the extra bonus and the
/// first-roll bonus, each where the rules pay it.
pub fn part_names(rules: &RuleSet) -> Vec<String> {
    let mut names: Vec<String> = rules.boxes.iter().map(|b| b.name.clone()).collect();
    names.extend(bonus_parts(rules).iter().map(|b| b.name().to_string()));
    names
}

/// A bonus with a part of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    /// The upper bonus.
    Upper,
    /// The extra bonus of each further roll of all dice alike.
    Extra,
    /// The bonus for scoring a box with the turn's first roll.
    FirstRoll,
}

impl Bonus {
    /// Its name as a part.
    pub fn name(self) -> &'static str {
        match self {
            Bonus::Upper => "upper bonus",
            Bonus::Extra => "extra bonus",
            Bonus::FirstRoll => "first-roll bonus",
        }
    }
}

/// The bonuses of `rules` with parts of their own, in order.
pub fn bonus_parts(rules: &RuleSet) -> Vec<Bonus> {
    let mut bonuses = Vec::new();
    if rules.upper_bonus.is_some() {
        bonuses.push(Bonus::Upper);
    }
    if rules.extra_bonus.is_some_and(|e| e.points > 0) {
        bonuses.push(Bonus::Extra);
    }
    if rules.boxes.iter().any(|b| b.first_roll > 0) {
        bonuses.push(Bonus::FirstRoll);
    }
    bonuses
}

/// Where `bonus`'s part is among [`part_names`]; `None` where the rules do
/// not pay it.
pub fn bonus_part(rules: &RuleSet, bonus: Bonus) -> Option<usize> {
    bonus_parts(rules).iter().position(|&b| b == bonus).map(|i| rules.boxes.len() + i)
}

/// The parts live at a turn start with the boxes of `open` open, as
/// indexes into [`part_names`]: each open box, then every bonus. The
/// others are 0: a filled box scores nothing more.
pub fn live_parts(rules: &RuleSet, open: u32) -> impl Iterator<Item = usize> + '_ {
    let boxes = rules.boxes.len();
    (0..boxes).filter(move |&b| open >> b & 1 == 1).chain(boxes..boxes + bonus_parts(rules).len())
}

/// A parts table's parameters: its sheet's shape, its bonuses' parts and
/// the fixed point its parts are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartsShape {
    /// The sheet's shape, as the rule set's own table has it (no saved rerolls).
    pub shape: Shape,
    /// Parts of the bonuses ([`bonus_parts`]).
    pub bonuses: u8,
    /// A part `x` is stored as the u16 `round(x · 2^scale)`.
    pub scale: u8,
}

impl PartsShape {
    /// Parts stored per turn start with `open` boxes open: the live ones
    /// but the first.
    pub fn stored(&self, open: u32) -> u64 {
        (u64::from(open) + u64::from(self.bonuses)).saturating_sub(1)
    }

    /// Parts stored for the sheets before sheet `sheet` (in the order
    /// [`Shape::masks`] lists them), per flag and upper total: in closed
    /// form, as [`Shape`] places a sheet.
    fn stored_before(&self, sheet: u64) -> u64 {
        let s = &self.shape;
        // The full sheet, first with a free order and last with a fixed
        // one, is the only sheet that may have no live part.
        let empty_before = if s.fixed_order { sheet > u64::from(s.boxes) } else { sheet > 0 };
        let empty = u64::from(self.bonuses == 0 && empty_before);
        s.open_before(sheet) + sheet * u64::from(self.bonuses) - (sheet - empty)
    }

    /// Parts stored in all.
    pub fn len(&self) -> u64 {
        self.stored_before(self.shape.sheets() as u64) * u64::from(self.shape.flags) * u64::from(self.shape.totals)
    }

    /// Whether the table stores no part (a sheet of one box and no bonus).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where the stored parts of a turn start begin; `None` for a mask a
    /// fixed order never reaches.
    pub fn index(&self, mask: u32, upper: u32, flag: u32) -> Option<u64> {
        let s = &self.shape;
        let sheet = s.sheet_of(mask)?;
        let (flags, totals) = (u64::from(s.flags), u64::from(s.totals));
        let row = u64::from(flag) * totals + u64::from(upper.min(s.totals - 1));
        Some(self.stored_before(sheet) * flags * totals + row * self.stored(mask.count_ones()))
    }
}

/// The sections: the rules as canonical text, then the parts: per sheet
/// (in the rule set's own table's order), flag and upper total, the stored
/// parts ([`PartsShape::stored`]) in [`live_parts`]' order.
pub const PARTS_SECTIONS: [SectionSpec<PartsShape>; 2] = [
    SectionSpec::new(0, "rules", DType::U8, Encoding::Raw, |p: &PartsShape| vec![u64::from(p.shape.rules_bytes)]),
    SectionSpec::new(1, "parts", DType::U16, Encoding::Zstd, |p: &PartsShape| vec![p.len()]).chunked(CHUNK_BYTES),
];

/// A rule set's parts table.
#[derive(Debug)]
pub struct RuleParts {
    t: Checked<RuleParts>,
    board: Board,
}

/// The sheet's rules and how states are told apart: [`Board`]'s methods
/// (`rules`, `parse_mask`, ...) are the table's.
impl std::ops::Deref for RuleParts {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Game for RuleParts {
    const ID: &'static str = PARTS_ID;
    const BUILT_BY: &'static [&'static str] = &["rule-tables"];
    type Params = PartsShape;
    const SECTIONS: &'static [SectionSpec<PartsShape>] = &PARTS_SECTIONS;

    fn params(header: &Header) -> Result<PartsShape, TableError> {
        crate::lead_chances::check_differences_are(header, PARTS_DIFFERENCES)?;
        let shape = Shape::from_header(header)?;
        if shape.saving > 0 {
            let why = "is given: a parts table's rules save no rerolls".into();
            return Err(TableErrorKind::BadParam { name: "saving", why }.into());
        }
        Ok(PartsShape {
            shape,
            bonuses: param_in(header, "bonuses", 0..=3)? as u8,
            scale: param_in(header, "scale", 0..=MOST_PARTS_SCALE)? as u8,
        })
    }

    fn header_params(p: &PartsShape) -> Vec<(&'static str, i64)> {
        let mut out = p.shape.header_params();
        out.push(("bonuses", i64::from(p.bonuses)));
        out.push(("scale", i64::from(p.scale)));
        out.push(("differences", PARTS_DIFFERENCES));
        out
    }

    /// The rules read and checked, and the header's shape and bonuses theirs.
    fn check_contents(t: &Checked<RuleParts>) -> Result<(), TableError> {
        Self::read_board(t).map(drop)
    }

    fn from_checked(t: Checked<RuleParts>) -> Result<RuleParts, TableError> {
        let board = Self::read_board(&t)?;
        Ok(RuleParts { t, board })
    }

    fn checked(&self) -> &Checked<RuleParts> {
        &self.t
    }
}

impl RuleParts {
    fn read_board(t: &Checked<RuleParts>) -> Result<Board, TableError> {
        let board = Board::read(t.whole(&PARTS_SECTIONS[0])?, t.params().shape)?;
        let bonuses = bonus_parts(&board.rules).len();
        if bonuses != usize::from(t.params().bonuses) {
            let why = format!("is {}: the rules pay {bonuses} bonuses", t.params().bonuses);
            return Err(TableErrorKind::BadParam { name: "bonuses", why }.into());
        }
        Ok(board)
    }

    /// The parts' names ([`part_names`]).
    pub fn part_names(&self) -> Vec<String> {
        part_names(&self.rules)
    }

    /// The parts of a turn start whose value is `value` (the rule set's own
    /// table's), one per [`part_names`] entry, 0 for a filled box: the
    /// first live part is `value` less the others. Refused for an upper
    /// total the filled boxes cannot make ([`RuleSet::reachable_uppers`]),
    /// which no game reaches and the table does not hold.
    pub fn turn_start_parts(&self, value: f64, mask: u32, upper: u32, held: u32) -> Result<Vec<f64>, TableError> {
        let p = self.t.params();
        let totals = p.shape.totals;
        // The table holds no parts of a total no game reaches (see the format).
        if !self.rules.reachable_uppers(mask, totals as usize)[upper.min(totals - 1) as usize] {
            let why = format!("holds no state with boxes {mask:#b} open and upper total {upper}: no game reaches it");
            return Err(TableError::section(PARTS_SECTIONS[1].name, why));
        }
        let flag = super::flag_index(&self.tracked, held) as u32;
        let place = |upper| {
            p.index(mask, upper, flag).ok_or_else(|| {
                TableError::section(PARTS_SECTIONS[1].name, format!("holds no state with boxes {mask:#b} open"))
            })
        };
        let (bottom, at) = (place(0)?, place(upper)?);
        let unit = (-f64::from(p.scale)).exp2();
        let mut parts = vec![0.0; self.rules.boxes.len() + usize::from(p.bonuses)];
        let mut live = live_parts(&self.rules, mask);
        let Some(first) = live.next() else { return Ok(parts) };
        // Each part is its changes from total 0 up to this one added up.
        let stored = p.stored(mask.count_ones()) as usize;
        let run = self.stored_run(bottom as usize, (at - bottom) as usize + stored)?;
        let mut rest = 0.0;
        for (k, i) in live.enumerate() {
            let part = run[k..].iter().step_by(stored).fold(0, |below, &z| unzigzag(z, below));
            parts[i] = f64::from(part) * unit;
            rest += parts[i];
        }
        parts[first] = value - rest;
        Ok(parts)
    }

    /// `count` stored values from the `at`th on, a chunk's run at a time
    /// (a sheet's totals may cross a chunk's end).
    fn stored_run(&self, at: usize, count: usize) -> Result<Vec<u16>, TableError> {
        let per_chunk = CHUNK_BYTES as usize / 2;
        let mut run = Vec::with_capacity(count);
        let mut i = at;
        while run.len() < count {
            let n = (count - run.len()).min(per_chunk - i % per_chunk);
            let bytes = self.t.bytes(&PARTS_SECTIONS[1], i * 2, n * 2)?;
            run.extend(bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])));
            i += n;
        }
        Ok(run)
    }
}

/// [`TurnStarts::parts_of`].
pub(super) fn parts_of(
    sheet: &dyn TurnStarts,
    parts: &RuleParts,
    mask: u32,
    upper: u32,
    held: u32,
) -> Result<Vec<f64>, Error> {
    check_parts(sheet, parts)?;
    let value = sheet.turn_start_saved(mask, upper, held, 0)?;
    Ok(parts.turn_start_parts(value, mask, upper, held)?)
}

/// [`TurnStarts::option_parts`], at the turn start `(mask, upper, held)`.
pub(super) fn option_parts(
    sheet: &dyn TurnStarts,
    parts: &RuleParts,
    (mask, upper, held): (u32, u32, u32),
    dice: Dice,
    rerolls: u8,
    choice: RuleChoice,
) -> Result<Vec<f64>, Error> {
    check_parts(sheet, parts)?;
    sheet.check_roll(dice, rerolls, 0)?;
    let from = SheetState { open: mask, upper, held };
    let mut ends = Ends::new(sheet, parts, from);
    match choice {
        RuleChoice::Score(m) => {
            // Only the roll's ways to score: its keeps need no values here.
            let mut moves = Vec::new();
            sheet.moves(from, &dice.counts(), rerolls == sheet.rules.rerolls, &mut moves);
            if !moves.iter().any(|(x, _)| *x == m) {
                let given =
                    format!("scoring {} for {}", sheet.rules.boxes.get(m.box_index).map_or("?", |b| &b.name), m.points);
                return Err(not_an_option(given, dice, rerolls));
            }
            ends.add(m, 1.0)?;
        }
        RuleChoice::Keep(keep) => {
            if rerolls == 0 || !keep.is_subset_of(&dice) || keep.len() >= dice.len() {
                return Err(not_an_option(format!("keeping {keep}"), dice, rerolls));
            }
            let plan = sheet.turn_plan(mask, upper, held)?;
            let n = usize::from(sheet.rules.dice);
            // Each roll's chance, by rank, with `left` rerolls left.
            let mut mass = vec![0.0; multiset_count(n)];
            throw_onto(keep, n, 1.0, &mut mass);
            for left in (0..rerolls).rev() {
                let mut next = vec![0.0; mass.len()];
                for (rank, &p) in mass.iter().enumerate().filter(|(_, &p)| p > 0.0) {
                    let roll = Dice::unrank(n, rank).expect("a rank below the count");
                    match plan.best(roll, left).expect("a turn start with a box open") {
                        RuleChoice::Score(m) => ends.add(m, p)?,
                        RuleChoice::Keep(k) => throw_onto(k, n, p, &mut next),
                    }
                }
                mass = next;
            }
            debug_assert!(mass.iter().all(|&p| p == 0.0), "no reroll is left after the last");
        }
    }
    Ok(ends.parts)
}

/// Refuses a parts table of another rule set than `sheet`'s.
fn check_parts(sheet: &dyn TurnStarts, parts: &RuleParts) -> Result<(), Error> {
    if parts.rules != sheet.rules {
        let why = format!("are rule set {}'s, not {}'s", parts.rules.name, sheet.rules.name);
        return Err(TableError::section("rules", why).into());
    }
    Ok(())
}

fn not_an_option(given: String, dice: Dice, rerolls: u8) -> Error {
    ArgumentError::from(ArgumentErrorKind::NotAnOption { given, dice: dice.to_string(), rerolls }).into()
}

/// The chances of `keep` (of `n` dice once thrown) rerolled into each
/// roll, times `p`, added by rank to `mass`.
fn throw_onto(keep: Dice, n: usize, p: f64, mass: &mut [f64]) {
    let thrown = n - keep.len();
    for rank in 0..multiset_count(thrown) {
        let t = Dice::unrank(thrown, rank).expect("a rank below the count");
        let roll = t.faces().try_fold(keep, |d, f| d.with(f)).expect("as many dice as the rules throw");
        mass[roll.rank()] += p * t.probability();
    }
}

/// A turn's ends added up into parts: each end's points to its box (the
/// extra and first-roll bonuses to theirs), and the parts of the turn
/// start it leads to, each read once.
struct Ends<'a> {
    sheet: &'a dyn TurnStarts,
    table: &'a RuleParts,
    from: SheetState,
    parts: Vec<f64>,
    /// The extra bonus's part and the first-roll bonus's, where paid.
    bonus_slots: [Option<usize>; 2],
    after: Vec<(SheetState, Vec<f64>)>,
}

impl<'a> Ends<'a> {
    fn new(sheet: &'a dyn TurnStarts, table: &'a RuleParts, from: SheetState) -> Ends<'a> {
        let rules = &sheet.rules;
        let parts = vec![0.0; part_names(rules).len()];
        let bonus_slots = [bonus_part(rules, Bonus::Extra), bonus_part(rules, Bonus::FirstRoll)];
        Ends { sheet, table, from, parts, bonus_slots, after: Vec::new() }
    }

    /// Adds scoring `m` with chance `p`.
    fn add(&mut self, m: super::Move, p: f64) -> Result<(), Error> {
        let rules = &self.sheet.rules;
        self.parts[m.box_index] += p * f64::from(m.points);
        // A move pays a bonus only where the rules do.
        for (slot, points) in self.bonus_slots.into_iter().zip([m.bonus, m.first_roll]) {
            if let Some(slot) = slot.filter(|_| points > 0) {
                self.parts[slot] += p * f64::from(points);
            }
        }
        let mut after = rules.after_scoring(self.from, m.box_index, m.points);
        after.upper = after.upper.min(self.sheet.shape.totals - 1);
        let i = match self.after.iter().position(|(s, _)| *s == after) {
            Some(i) => i,
            None => {
                let parts = self.sheet.parts_of(self.table, after.open, after.upper, after.held)?;
                self.after.push((after, parts));
                self.after.len() - 1
            }
        };
        for (total, part) in self.parts.iter_mut().zip(&self.after[i].1) {
            *total += p * part;
        }
        Ok(())
    }
}
