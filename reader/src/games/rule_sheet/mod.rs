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

mod turn;

use crate::error::{ArgumentError, ArgumentErrorKind, TableError, TableErrorKind};
use crate::five_dice::KeepLattice;
use crate::format::{DType, Encoding, Header};
use crate::game::{check_values_in_range, param_in, Checked, Game, SectionSpec};
use crate::rules::{Order, RuleSet, MOST_BOXES};

pub use turn::{Move, RollOptions, RuleChoice, TurnPlan};

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

    /// Where a turn start's value is in [`TURN_START`]: `None` for a mask
    /// a fixed order never reaches.
    pub fn index(&self, mask: u32, upper: u32, flag: u32) -> Option<usize> {
        let sheet = if self.fixed_order {
            let first = if mask == 0 { u32::from(self.boxes) } else { mask.trailing_zeros() };
            let all = (1u32 << self.boxes) - 1;
            (mask == all & !((1u32 << first) - 1)).then_some(first as usize)?
        } else {
            mask as usize
        };
        let upper = upper.min(self.totals - 1);
        Some((sheet * self.flags as usize + flag as usize) * self.totals as usize + upper as usize)
    }
}

/// The flags index of `held` (mask bits) over the `tracked` boxes (bit `j`
/// for the `j`-th, as [`TURN_START`] counts them): the generator's layout
/// and the reader's lookups use this one rule.
pub fn flag_index(tracked: &[usize], held: u32) -> usize {
    tracked.iter().enumerate().filter(|(_, &b)| held >> b & 1 == 1).fold(0, |f, (i, _)| f | 1 << i)
}

/// The rules, as canonical text (UTF-8): what the table was solved for.
pub const RULES: SectionSpec<Shape> =
    SectionSpec::new(0, "rules", DType::U8, Encoding::Raw, |s| vec![u64::from(s.rules_bytes)]);
/// The expected score still to come at each turn start: per (sheet, flags, upper total).
pub const TURN_START: SectionSpec<Shape> =
    SectionSpec::new(1, "turn_start", DType::F64, Encoding::Zstd, |s: &Shape| {
        vec![s.sheets() as u64, u64::from(s.flags), u64::from(s.totals)]
    })
    .chunked(CHUNK_BYTES);

/// A table of any rule set's score sheet.
#[derive(Debug)]
pub struct RuleSheet {
    t: Checked<RuleSheet>,
    rules: RuleSet,
    tracked: Vec<usize>,
    lattice: KeepLattice,
}

impl Game for RuleSheet {
    const ID: &'static str = ID;
    const BUILT_BY: &'static [&'static str] = &["rule-tables"];
    type Params = Shape;
    const SECTIONS: &'static [SectionSpec<Shape>] = &[RULES, TURN_START];

    fn params(header: &Header) -> Result<Shape, TableError> {
        Ok(Shape {
            boxes: param_in(header, "boxes", 1..=MOST_BOXES as i64)? as u8,
            fixed_order: param_in(header, "fixed_order", 0..=1)? == 1,
            flags: 1 << param_in(header, "tracked", 0..=4)?,
            totals: param_in(header, "totals", 1..=MOST_TOTALS)? as u32,
            rules_bytes: param_in(header, "rules_bytes", 1..=MOST_RULES_BYTES)? as u32,
        })
    }

    fn header_params(s: &Shape) -> Vec<(&'static str, i64)> {
        vec![
            ("boxes", i64::from(s.boxes)),
            ("fixed_order", i64::from(s.fixed_order)),
            ("tracked", i64::from(s.flags.trailing_zeros())),
            ("totals", i64::from(s.totals)),
            ("rules_bytes", i64::from(s.rules_bytes)),
        ]
    }

    /// The rules read and checked, and the header's shape theirs.
    fn check_contents(t: &Checked<RuleSheet>) -> Result<(), TableError> {
        read_rules(t).map(drop)
    }

    fn check_chunk(_: &Shape, section: usize, _: u64, bytes: &[u8]) -> Result<(), TableError> {
        if section == TURN_START.index {
            return check_values_in_range(TURN_START.name, bytes, MOST_VALUE);
        }
        Ok(())
    }

    fn from_checked(t: Checked<RuleSheet>) -> Result<RuleSheet, TableError> {
        let rules = read_rules(&t)?;
        let tracked = rules.tracked_boxes();
        let lattice = KeepLattice::new(usize::from(rules.dice));
        Ok(RuleSheet { t, rules, tracked, lattice })
    }

    fn checked(&self) -> &Checked<RuleSheet> {
        &self.t
    }
}

/// The rules a table carries: canonical text of a rule set this reader can
/// answer, whose shape is the header's.
fn read_rules(t: &Checked<RuleSheet>) -> Result<RuleSet, TableError> {
    let bad = |why: String| TableError::section(RULES.name, why);
    let text = std::str::from_utf8(t.whole(&RULES)?).map_err(|_| bad("is not UTF-8 text".into()))?.to_string();
    let rules = RuleSet::from_text(&text).map_err(|e| bad(format!("do not read: {e}")))?;
    rules.check().map_err(|e| bad(format!("are not a rule set this reader answers: {e}")))?;
    if rules.to_text() != text {
        return Err(bad("are not in canonical form (as the generator writes them)".into()));
    }
    if rules.saved_rerolls {
        return Err(bad("save rerolls, which a rule-set table does not hold".into()));
    }
    let shape = Shape::of(&rules);
    if shape != *t.params() {
        return Err(TableErrorKind::BadHeader(format!(
            "the header's shape {:?} is not its rules' {shape:?}",
            t.params()
        ))
        .into());
    }
    Ok(rules)
}

impl RuleSheet {
    /// The rules the table was solved for.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The boxes whose holding points is part of a state (mask bits of the
    /// `held` arguments that count).
    pub fn tracked(&self) -> &[usize] {
        &self.tracked
    }

    /// Every box open.
    pub fn all_open(&self) -> u32 {
        (1u32 << self.rules.boxes.len()) - 1
    }

    /// The box names, in mask-bit order.
    pub fn box_names(&self) -> Vec<&str> {
        self.rules.boxes.iter().map(|b| b.name.as_str()).collect()
    }

    /// Parses a mask of open boxes as every score-sheet lookup does: a
    /// number, a comma list of open box names, or `all,-name,...`.
    pub fn parse_mask(&self, given: &str) -> Result<u32, ArgumentError> {
        let names: Vec<&str> = self.box_names();
        let mask = crate::five_dice::parse_mask(given, &names)?;
        if self.rules.order == Order::Fixed && self.t.params().index(mask, 0, 0).is_none() {
            let next = (0..self.rules.boxes.len()).find(|&b| mask >> b & 1 == 1).unwrap_or(0);
            return Err(ArgumentErrorKind::NotInSheetOrder {
                given: given.to_string(),
                next: self.rules.boxes[next].name.clone(),
            }
            .into());
        }
        Ok(mask)
    }

    /// The `held` flags of the boxes named in `given` (a comma list; empty
    /// or `none` for none): filled boxes holding points, of those whose
    /// points matter later.
    pub fn parse_held(&self, given: &str, mask: u32) -> Result<u32, ArgumentError> {
        let names: Vec<&str> = self.tracked.iter().map(|&b| self.rules.boxes[b].name.as_str()).collect();
        let mut held = 0;
        for name in given.split(',').map(str::trim).filter(|n| !n.is_empty() && *n != "none") {
            let i = crate::five_dice::category_index(name, &names).map_err(|_| ArgumentErrorKind::NotHeldBox {
                given: name.to_string(),
                game: self.rules.name.clone(),
                boxes: names.iter().map(|n| n.to_string()).collect(),
            })?;
            let b = self.tracked[usize::from(i)];
            if mask >> b & 1 == 1 {
                return Err(ArgumentErrorKind::HeldWhileOpen { name: name.to_string() }.into());
            }
            held |= 1 << b;
        }
        Ok(held)
    }

    /// The upper total checked: at most what the rules' upper boxes make.
    pub fn check_upper(&self, upper: u32) -> Result<(), ArgumentError> {
        let most = self.rules.upper_bonus.map_or(0, |b| self.rules.most_faces_make(b.boxes));
        if upper > most {
            return Err(ArgumentErrorKind::UpperOverRules { given: upper, most, game: self.rules.name.clone() }.into());
        }
        Ok(())
    }

    /// The expected score still to come at a turn start: `mask` the open
    /// boxes, `upper` the upper total so far, `held` the boxes holding
    /// points (mask bits; only the tracked ones count). A mask a fixed
    /// order never reaches is an error.
    pub fn turn_start_value(&self, mask: u32, upper: u32, held: u32) -> Result<f64, TableError> {
        let shape = self.t.params();
        let Some(i) = shape.index(mask, upper, flag_index(&self.tracked, held) as u32) else {
            return Err(TableError::section(TURN_START.name, format!("holds no state with boxes {mask:#b} open")));
        };
        self.t.f64_at(&TURN_START, i)
    }
}
