//! Lookups in the combo table.
//!
//! combo: five dice, an initial roll, then up to `rerolls` rerolls (default
//! 5), keeping any sub-multiset each time; keeping all five ends the game.
//! The final dice score their sum plus a bonus (five of a kind +70, straight
//! +60, full house +50, four of a kind +40, three of a kind +30). The table
//! holds, for every roll and number of rerolls left, the expected final score
//! under optimal play (exact, f64) and the best keep.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
//! # if !dir.join("combo.dtab").exists() { return Ok(()); }
//! use dice_tables_reader::combo::Combo;
//! let combo = Combo::open(dir.join("combo.dtab"))?;
//! assert!((combo.game_start_value() - 68.412950).abs() < 1e-6);
//! // A full house with five rerolls to come: keep it? No, the table says
//! // going for five sixes is worth more.
//! let best = combo.best_keep("66622".parse().unwrap(), 5)?;
//! assert_eq!(best.to_string(), "666");
//! # Ok(()) }
//! ```

use std::path::Path;

use crate::dice::Dice;
use crate::error::Error;
use crate::format::{DType, ExpectedSection, Header};
use crate::table::Table;
use crate::turn::{
    check_roll, check_state, check_values_in_range, game_rerolls, partial_keep_dice, read_f64, rerolls_param,
    LegalKeeps,
};
pub use crate::turn::{DICE, KEEP_ALL, PARTIAL_KEEPS, ROLLS};

/// The game id in the header.
pub const GAME: &str = "combo";
/// The most rerolls a table may be solved for.
pub const MAX_REROLLS: i64 = 20;
/// The highest final score: five sixes, 30 + 70.
pub const MAX_SCORE: f64 = 100.0;

/// One keep and the expected final score if it is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeepChoice {
    /// The dice kept (all five = stop).
    pub keep: Dice,
    /// The expected final score.
    pub ev: f64,
}

/// The sections of a combo table with `rerolls` rerolls.
pub fn expected_sections(rerolls: u64) -> Vec<ExpectedSection> {
    let rolls = ROLLS as u64;
    vec![
        ExpectedSection { name: "game_start", dtype: DType::F64, dims: vec![1] },
        ExpectedSection { name: "final_score", dtype: DType::U8, dims: vec![rolls] },
        ExpectedSection { name: "roll_value", dtype: DType::F64, dims: vec![rerolls + 1, rolls] },
        ExpectedSection { name: "best_keep", dtype: DType::U8, dims: vec![rerolls, rolls] },
        ExpectedSection { name: "keep_value", dtype: DType::F64, dims: vec![rerolls, PARTIAL_KEEPS as u64] },
    ]
}

/// The number of rerolls in a combo header, checked.
pub(crate) fn header_rerolls(header: &Header) -> Result<u8, Error> {
    rerolls_param(header, MAX_REROLLS)
}

/// Checks every value a lookup trusts: legal keeps, finite scores in range.
pub(crate) fn check_contents(table: &Table) -> Result<(), Error> {
    let section = |name: &str| table.section(name).expect("schema checked on open").1;
    let bad = |name: &str, why: String| Err(Error::BadSection { name: name.into(), why });
    for name in ["game_start", "roll_value", "keep_value"] {
        check_values_in_range(name, section(name), MAX_SCORE)?;
    }
    let legal = LegalKeeps::new();
    for (i, &k) in section("best_keep").iter().enumerate() {
        if !legal.allows(i % ROLLS, k) {
            return bad("best_keep", format!("holds {k} for roll {}, which is not a legal keep", i % ROLLS));
        }
    }
    Ok(())
}

/// A verified combo table.
pub struct Combo {
    table: Table,
    rerolls: u8,
    partial_keeps: [Dice; PARTIAL_KEEPS],
    game_start: usize,
    final_score: usize,
    roll_value: usize,
    best_keep: usize,
    keep_value: usize,
}

impl Combo {
    /// Opens and verifies `combo.dtab` (or any path holding a combo table).
    pub fn open(path: impl AsRef<Path>) -> Result<Combo, Error> {
        Combo::from_table(Table::open(path)?)
    }

    /// Wraps an opened table; an error when it is not a combo table.
    pub fn from_table(table: Table) -> Result<Combo, Error> {
        let rerolls = game_rerolls(&table, GAME, MAX_REROLLS)?;
        let index = |name| table.section_index(name).expect("schema checked on open");
        Ok(Combo {
            rerolls,
            partial_keeps: partial_keep_dice(),
            game_start: index("game_start"),
            final_score: index("final_score"),
            roll_value: index("roll_value"),
            best_keep: index("best_keep"),
            keep_value: index("keep_value"),
            table,
        })
    }

    /// The number of rerolls the table was solved for.
    pub fn rerolls(&self) -> u8 {
        self.rerolls
    }

    /// The expected final score before the initial roll, under optimal play.
    pub fn game_start_value(&self) -> f64 {
        read_f64(self.table.section_bytes(self.game_start), 0)
    }

    /// The final score of five dice.
    pub fn final_score(&self, dice: Dice) -> Result<u8, Error> {
        check_roll(dice, GAME)?;
        Ok(self.table.section_bytes(self.final_score)[dice.rank()])
    }

    fn check_state(&self, dice: Dice, rerolls: u8) -> Result<(), Error> {
        check_state(dice, rerolls, self.rerolls, GAME)
    }

    /// The expected final score with `dice` showing and `rerolls` left (exact).
    pub fn value(&self, dice: Dice, rerolls: u8) -> Result<f64, Error> {
        self.check_state(dice, rerolls)?;
        Ok(read_f64(self.table.section_bytes(self.roll_value), usize::from(rerolls) * ROLLS + dice.rank()))
    }

    /// The dice to keep; all five means stop (always, with no rerolls left).
    pub fn best_keep(&self, dice: Dice, rerolls: u8) -> Result<Dice, Error> {
        self.check_state(dice, rerolls)?;
        if rerolls == 0 {
            return Ok(dice);
        }
        let k = self.table.section_bytes(self.best_keep)[usize::from(rerolls - 1) * ROLLS + dice.rank()];
        Ok(self.partial_keeps.get(usize::from(k)).copied().unwrap_or(dice))
    }

    /// Every keep (each distinct sub-multiset) with its expected final score,
    /// the stored best first, then from best to worst. With no rerolls left
    /// the only choice is to stop.
    pub fn choices(&self, dice: Dice, rerolls: u8) -> Result<Vec<KeepChoice>, Error> {
        let best = self.best_keep(dice, rerolls)?;
        let stop = f64::from(self.final_score(dice)?);
        if rerolls == 0 {
            return Ok(vec![KeepChoice { keep: dice, ev: stop }]);
        }
        let keep_values = self.table.section_bytes(self.keep_value);
        let mut out: Vec<KeepChoice> = dice
            .sub_multisets()
            .map(|keep| {
                let ev = if keep.len() == DICE {
                    stop
                } else {
                    read_f64(keep_values, usize::from(rerolls - 1) * PARTIAL_KEEPS + keep.graded_rank())
                };
                KeepChoice { keep, ev }
            })
            .collect();
        out.sort_by(|a, b| (b.keep == best).cmp(&(a.keep == best)).then(b.ev.total_cmp(&a.ev)));
        Ok(out)
    }
}
