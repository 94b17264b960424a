//! Why the best option is best, in words a player can follow: the
//! difference between two options split into what each box and bonus is
//! expected to score after each ([`TurnStarts::option_parts`], from the rule
//! set's parts table), the largest named first. The parts add up to the
//! difference, to rounding.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use dice_tables_lookup::reason::reason;
//! use dice_tables_reader::rule_sheet::{RuleChoice, TurnStarts};
//! use dice_tables_reader::rules::SheetState;
//! use dice_tables_reader::Tables;
//! let tables = Tables::open_default()?;
//! let (crag, parts) = (tables.rule_sheet("crag")?, tables.rule_parts("crag")?);
//! let start = SheetState { open: crag.all_open(), upper: 0, held: 0 };
//! let dice = "466".parse()?;
//! let roll = crag.options(start.open, 0, 0, dice, 1)?;
//! let (best, worst) = (roll.options[0], roll.options[roll.options.len() - 1]);
//! let why = reason(&*crag, &parts, start, dice, 1, best.0, worst.0)?;
//! let total: f64 = why.parts.iter().map(|(_, x)| x).sum();
//! assert!((total - (best.1 - worst.1)).abs() < 1e-9);
//! println!("{}", why.text);
//! # Ok(()) }
//! ```

use dice_tables_reader::rule_sheet::{part_names, Bonus, RuleChoice, RuleParts, TurnStarts};
use dice_tables_reader::rules::SheetState;
use dice_tables_reader::Dice;

use crate::error::LookupError;

/// Parts smaller than this (points) are left out of the words.
const NAMED_FROM: f64 = 0.005;

/// How many parts the words name at most.
const NAMED: usize = 3;

/// Why one option is better than another.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// Each part's difference (the better option's less the other's), by
    /// name, the largest (by size) first: they add up to the difference
    /// between the two options' values.
    pub parts: Vec<(String, f64)>,
    /// The largest few (at most three, each of 0.005 points or more) in
    /// words: `sixes +2.10, yatzy -0.90, upper bonus chance +4.0 % (+1.40)`,
    /// the upper bonus's chance beside its points.
    pub text: String,
}

/// Why `better` is better than `other` (options of `dice` with `rerolls`
/// left at turn start `at`, as [`TurnStarts::options`] gives them), from the
/// rule set's parts table `parts`.
pub fn reason(
    sheet: &dyn TurnStarts,
    parts: &RuleParts,
    at: SheetState,
    dice: Dice,
    rerolls: u8,
    better: RuleChoice,
    other: RuleChoice,
) -> Result<Reason, LookupError> {
    let of = |choice| sheet.option_parts(parts, at.open, at.upper, at.held, dice, rerolls, choice);
    let (a, b) = (of(better)?, of(other)?);
    let names = part_names(sheet.rules());
    let mut diff: Vec<(String, f64)> = names.into_iter().zip(a.iter().zip(&b).map(|(x, y)| x - y)).collect();
    diff.sort_by(|x, y| y.1.abs().total_cmp(&x.1.abs()));
    let bonus_points = sheet.rules().upper_bonus.map(|u| f64::from(u.points));
    let words: Vec<String> = diff
        .iter()
        .filter(|(_, x)| x.abs() >= NAMED_FROM)
        .take(NAMED)
        .map(|(name, x)| match bonus_points.filter(|&p| p > 0.0 && name == Bonus::Upper.name()) {
            Some(points) => format!("{name} chance {:+.1} % ({x:+.2})", 100.0 * x / points),
            None => format!("{name} {x:+.2}"),
        })
        .collect();
    let text = match words.is_empty() {
        true => format!("no box's or bonus's expected points differ by {NAMED_FROM} or more"),
        false => words.join(", "),
    };
    Ok(Reason { parts: diff, text })
}
