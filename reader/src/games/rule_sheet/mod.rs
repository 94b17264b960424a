//! A score sheet of any rule set of the Yahtzee family, solved by the
//! generator's rules engine: the table carries its rules as canonical text
//! ([`crate::rules::RuleSet::to_text`]), so this one view answers a table
//! of any rule set, by the box names its file gives, with nothing about the
//! rule set compiled in.
//!
//! The table stores every turn start's expected score still to come under
//! optimal play (exact, f64): the open boxes, the upper total (capped at
//! the upper bonus's threshold) and which boxes whose points matter later
//! hold points ([`RuleSet::tracked_boxes`]). A roll's options are worked
//! out at lookup time from the values of the turn starts its moves lead to:
//! a few thousand additions, no stored decisions to trust.
//!
//! ```no_run
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::rule_sheet::TurnStarts;
//! use dice_tables_reader::Tables;
//! // A rule set's table is found in a tables directory by its name
//! // (`make tables` writes tables/yacht.dtab).
//! let tables = Tables::open_default()?;
//! let yacht = tables.rule_sheet("yacht")?;
//! let start = yacht.turn_start_value(yacht.all_open(), 0, 0)?;
//! assert!((start - 166.9550677).abs() < 1e-6);
//! assert_eq!(yacht.rules().boxes[11].name, "yacht");
//! // A roll's options, best first: 12345 with no rerolls left.
//! let roll = yacht.options(yacht.all_open(), 0, 0, "12345".parse()?, 0)?;
//! println!("{:?} is worth {}", roll.options[0].0, roll.value);
//! # Ok(()) }
//! ```

#[cfg(not(feature = "solitaire-only"))]
mod as_rules;
mod board;
pub mod duel;
mod duel_table;
mod parts;
mod table;
mod target;
mod turn;

use crate::error::TableError;
use crate::format::{DType, Encoding, Header};
use crate::game::{check_values_in_range, param_in, Checked, Game, SectionSpec};
use crate::rules::{Order, RuleSet, MOST_BOXES};

#[cfg(not(feature = "solitaire-only"))]
pub use as_rules::{own_rules_differ, AsRules, PresetValues};
pub use board::Board;
pub use duel_table::{duel_stem, DuelShape, RuleDuel, DUEL_ID, DUEL_SECTIONS};
pub use parts::{
    bonus_part, bonus_parts, live_parts, part_names, parts_stem, unzigzag, zigzag, Bonus, PartsShape, RuleParts,
    MOST_PARTS_SCALE, PARTS_DIFFERENCES, PARTS_ID, PARTS_SECTIONS,
};
pub use table::{target_stem, RuleTable};
pub use target::{RuleTarget, TargetShape, TargetTurn, TARGET_ID, TARGET_SECTIONS};
pub use turn::{Move, RollOptions, RuleChoice, TurnOptions, TurnPlan, TurnStarts};

/// The game id of every rule-set table's header: the rule set's own name is
/// in its rules, and names the file (`crag.dtab`).
pub const ID: &str = "rules";
/// The most bytes of a table's rules text.
pub const MOST_RULES_BYTES: i64 = 1 << 16;
/// The most upper totals a state tells apart (a threshold up to 999).
pub const MOST_TOTALS: i64 = 1000;
/// The most points still to come a stored value may hold.
pub const MOST_VALUE: f64 = 1e6;
/// Decoded bytes per chunk of the values: a lookup with dice reads the
/// value of every turn start its moves lead to, each in its own chunk, so
/// chunks are small (1024 values: yahtzee-no-joker's first roll decodes
/// 13 chunks of 8 KB where 64 KB ones cost 0.5 ms more a process).
pub const CHUNK_BYTES: u64 = 1 << 13;

/// The shape of a rule-set table, from its header: what its sections'
/// dimensions follow from, checked against its rules once they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Boxes on the sheet.
    pub boxes: u8,
    /// Boxes filled in sheet order (`1`) or in any order (`0`).
    pub fixed_order: bool,
    /// Ways the tracked boxes can hold points: `2^tracked`.
    pub flags: u32,
    /// Upper totals a state tells apart: the bonus's threshold plus one, 1 without a bonus.
    pub totals: u32,
    /// Bytes of the rules text.
    pub rules_bytes: u32,
    /// Rerolls a turn may save for later turns: the rules' rerolls where
    /// they save them, else 0 (and then not in the header).
    pub saving: u8,
}

impl Shape {
    /// The shape of a table of `rules`.
    pub fn of(rules: &RuleSet) -> Shape {
        Shape {
            boxes: rules.boxes.len() as u8,
            fixed_order: rules.order == Order::Fixed,
            flags: 1 << rules.tracked_boxes().len(),
            totals: rules.upper_bonus.map_or(1, |b| u32::from(b.at) + 1),
            rules_bytes: rules.to_text().len() as u32,
            saving: if rules.saved_rerolls { rules.rerolls } else { 0 },
        }
    }

    /// The sets of open boxes a table stores: every mask, or in sheet order
    /// the boxes from box `i` on (`i` from 0 to `boxes`).
    pub fn sheets(&self) -> usize {
        if self.fixed_order {
            usize::from(self.boxes) + 1
        } else {
            1 << self.boxes
        }
    }

    /// The open boxes of each sheet, in the order a table stores them:
    /// every mask, or in sheet order the boxes from box `i` on.
    pub fn masks(&self) -> Vec<u32> {
        let all = (1u32 << self.boxes) - 1;
        match self.fixed_order {
            true => (0..=self.boxes).map(|first| all & !((1u32 << first) - 1)).collect(),
            false => (0..=all).collect(),
        }
    }

    /// Turn starts a table stores: per sheet, every flag, count of
    /// rerolls saved ([`Shape::saved_counts`]) and upper total.
    pub fn states(&self) -> u64 {
        self.rows_before(self.sheets()) * u64::from(self.flags) * u64::from(self.totals)
    }

    /// Counts of rerolls saved a sheet with `open` boxes open can hold: 0
    /// to [`Shape::saving`] for each turn played.
    pub fn saved_counts(&self, open: u32) -> u32 {
        u32::from(self.saving) * (u32::from(self.boxes) - open) + 1
    }

    /// The saved counts of every sheet before sheet `sheet` (a mask, or in
    /// sheet order the first open box), added up: each filled box of each
    /// sheet before it saves up to `saving` (a sheet's place in a file of a
    /// few GB, found without a table).
    fn rows_before(&self, sheet: usize) -> u64 {
        let (sheet, saving, boxes) = (sheet as u64, u64::from(self.saving), u64::from(self.boxes));
        sheet + saving * (boxes * sheet - self.open_before(sheet))
    }

    /// The open boxes of every sheet before sheet `sheet`, added up, in
    /// closed form.
    pub(super) fn open_before(&self, sheet: u64) -> u64 {
        let boxes = u64::from(self.boxes);
        if self.fixed_order {
            // Sheet j has boxes - j open.
            return sheet * boxes - sheet * sheet.saturating_sub(1) / 2;
        }
        // The masks below `sheet` with bit i set: whole periods of 2^(i+1)
        // hold 2^i each, and the part period past 2^i the rest.
        (0..boxes).map(|i| (sheet >> (i + 1) << i) + (sheet & ((2 << i) - 1)).saturating_sub(1 << i)).sum()
    }

    /// The sheet of the boxes of `mask` open: the mask itself, or in sheet
    /// order its first open box (the full sheet last); `None` for a mask a
    /// fixed order never reaches.
    pub(super) fn sheet_of(&self, mask: u32) -> Option<u64> {
        if !self.fixed_order {
            return Some(u64::from(mask));
        }
        let first = if mask == 0 { u32::from(self.boxes) } else { mask.trailing_zeros() };
        let all = (1u32 << self.boxes) - 1;
        (mask == all & !((1u32 << first) - 1)).then_some(u64::from(first))
    }

    /// The shape a header gives (every table of a rule set has these parameters).
    fn from_header(header: &Header) -> Result<Shape, TableError> {
        Ok(Shape {
            boxes: param_in(header, "boxes", 1..=MOST_BOXES as i64)? as u8,
            fixed_order: param_in(header, "fixed_order", 0..=1)? == 1,
            flags: 1 << param_in(header, "tracked", 0..=4)?,
            totals: param_in(header, "totals", 1..=MOST_TOTALS)? as u32,
            rules_bytes: param_in(header, "rules_bytes", 1..=MOST_RULES_BYTES)? as u32,
            saving: match header.param("saving") {
                Some(_) => param_in(header, "saving", 1..=i64::from(crate::rules::MOST_REROLLS))? as u8,
                None => 0,
            },
        })
    }

    /// The header's parameters of this shape.
    fn header_params(&self) -> Vec<(&'static str, i64)> {
        let mut params = vec![
            ("boxes", i64::from(self.boxes)),
            ("fixed_order", i64::from(self.fixed_order)),
            ("tracked", i64::from(self.flags.trailing_zeros())),
            ("totals", i64::from(self.totals)),
            ("rules_bytes", i64::from(self.rules_bytes)),
        ];
        // Only where a turn saves rerolls: every other table's header is as it was.
        if self.saving > 0 {
            params.push(("saving", i64::from(self.saving)));
        }
        params
    }

    /// Where a turn start's value is in [`TURN_START`], no rerolls saved:
    /// `None` for a mask a fixed order never reaches.
    pub fn index(&self, mask: u32, upper: u32, flag: u32) -> Option<usize> {
        self.index_saved(mask, upper, flag, 0)
    }

    /// [`Shape::index`] with `saved` rerolls saved: `None` also for more
    /// than the sheet can hold ([`Shape::saved_counts`]).
    pub fn index_saved(&self, mask: u32, upper: u32, flag: u32, saved: u32) -> Option<usize> {
        let sheet = self.sheet_of(mask)? as usize;
        let counts = self.saved_counts(mask.count_ones());
        if saved >= counts {
            return None;
        }
        let row = self.rows_before(sheet) * u64::from(self.flags) + u64::from(flag * counts + saved);
        Some((row * u64::from(self.totals) + u64::from(upper.min(self.totals - 1))) as usize)
    }
}

/// The flags index of `held` (mask bits) over the `tracked` boxes (bit `j`
/// for the `j`-th, as [`TURN_START`] counts them): the generator's layout
/// and the reader's lookups use this one rule.
pub fn flag_index(tracked: &[usize], held: u32) -> usize {
    tracked.iter().enumerate().filter(|(_, &b)| held >> b & 1 == 1).fold(0, |f, (i, _)| f | 1 << i)
}

/// The boxes holding points (mask bits) of flags index `flag` over the
/// `tracked` boxes: the inverse of [`flag_index`].
pub fn held_of_flag(tracked: &[usize], flag: usize) -> u32 {
    tracked.iter().enumerate().filter(|(i, _)| flag >> i & 1 == 1).fold(0, |h, (_, &b)| h | 1 << b)
}

/// The rules, as canonical text (UTF-8): what the table was solved for.
pub const RULES: SectionSpec<Shape> =
    SectionSpec::new(0, "rules", DType::U8, Encoding::Raw, |s| vec![u64::from(s.rules_bytes)]);
/// The expected score still to come at each turn start: per (sheet, flags,
/// upper total); where a turn saves rerolls, one run of every turn start,
/// per sheet (flags, rerolls saved, upper total), each sheet's saved
/// counts its own ([`Shape::index_saved`]).
pub const TURN_START: SectionSpec<Shape> =
    SectionSpec::new(1, "turn_start", DType::F64, Encoding::Zstd, |s: &Shape| match s.saving {
        0 => vec![s.sheets() as u64, u64::from(s.flags), u64::from(s.totals)],
        _ => vec![s.states()],
    })
    .chunked(CHUNK_BYTES);

/// A table of any rule set's score sheet.
#[derive(Debug)]
pub struct RuleSheet {
    t: Checked<RuleSheet>,
    board: Board,
}

/// The sheet's rules and how states are told apart: [`Board`]'s methods
/// (`rules`, `parse_mask`, ...) are the table's.
impl std::ops::Deref for RuleSheet {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Game for RuleSheet {
    const ID: &'static str = ID;
    const BUILT_BY: &'static [&'static str] = &["rule-tables"];
    type Params = Shape;
    const SECTIONS: &'static [SectionSpec<Shape>] = &[RULES, TURN_START];

    fn params(header: &Header) -> Result<Shape, TableError> {
        Shape::from_header(header)
    }

    fn header_params(s: &Shape) -> Vec<(&'static str, i64)> {
        s.header_params()
    }

    /// The rules read and checked, and the header's shape theirs.
    fn check_contents(t: &Checked<RuleSheet>) -> Result<(), TableError> {
        Board::read(t.whole(&RULES)?, *t.params()).map(drop)
    }

    fn check_chunk(_: &Shape, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section == TURN_START.index {
            return check_values_in_range(TURN_START.name, bytes, MOST_VALUE);
        }
        Ok(())
    }

    fn from_checked(t: Checked<RuleSheet>) -> Result<RuleSheet, TableError> {
        let board = Board::read(t.whole(&RULES)?, *t.params())?;
        Ok(RuleSheet { t, board })
    }

    fn checked(&self) -> &Checked<RuleSheet> {
        &self.t
    }
}

impl RuleSheet {
    /// The expected score still to come at a turn start: `mask` the open
    /// boxes, `upper` the upper total so far, `held` the boxes holding
    /// points (mask bits; only the tracked ones count). A mask a fixed
    /// order never reaches is an error.
    pub fn turn_start_value(&self, mask: u32, upper: u32, held: u32) -> Result<f64, TableError> {
        self.turn_start_saved(mask, upper, held, 0)
    }

    /// [`RuleSheet::turn_start_value`] with `saved` rerolls saved (where
    /// the rules save them; more than the sheet's turns played could save
    /// is an error).
    pub fn turn_start_saved(&self, mask: u32, upper: u32, held: u32, saved: u32) -> Result<f64, TableError> {
        let Some(i) = self.index(mask, upper, held, saved) else {
            let why = match self.t.params().index(mask, 0, 0) {
                None => format!("holds no state with boxes {mask:#b} open"),
                Some(_) => format!("holds no state with boxes {mask:#b} open and {saved} rerolls saved"),
            };
            return Err(TableError::section(TURN_START.name, why));
        };
        self.t.f64_at(&TURN_START, i)
    }
}
