//! What the five-dice keep/reroll games (yazy, combo) share: the sizes of
//! their keep tables, the codes of a stored keep, and the check that a stored
//! keep is one the roll can make.

use crate::dice::Dice;
use crate::error::{ArgumentError, TableError};

/// Dice in a roll.
pub const DICE: usize = 5;
/// Rolls of five dice: `0..ROLLS` by [`Dice::rank`].
pub const ROLLS: usize = 252;
/// Keeps of 0 to 4 dice, by [`Dice::graded_rank`]: 1 + 6 + 21 + 56 + 126.
pub const PARTIAL_KEEPS: usize = 210;
/// Stored best keep: keep all five dice (stop rerolling).
pub const KEEP_ALL: u8 = 254;
/// Stored best action: none (in yazy, no category is open).
pub const NO_ACTION: u8 = 255;

/// Checks that `dice` is a roll of exactly five dice.
pub(crate) fn check_roll(dice: Dice, game: &str) -> Result<(), ArgumentError> {
    if dice.len() != DICE {
        return Err(ArgumentError::new(format!(
            "{} dice given: {game} needs exactly five digits 1-6, like 12456",
            dice.len()
        )));
    }
    Ok(())
}

/// Checks a state: five dice, and no more rerolls than the table was solved for.
pub(crate) fn check_state(dice: Dice, rerolls: u8, table_rerolls: u8, game: &str) -> Result<(), ArgumentError> {
    check_roll(dice, game)?;
    if rerolls > table_rerolls {
        return Err(ArgumentError::new(format!(
            "rerolls {rerolls} is out of range: this {game} table allows 0 to {table_rerolls}"
        )));
    }
    Ok(())
}

/// Checks every value of an f64 section lies in `0..=max` (so none is NaN):
/// lookups add these and print them as JSON numbers.
pub(crate) fn check_values_in_range(section: &str, bytes: &[u8], max: f64) -> Result<(), TableError> {
    match (0..bytes.len() / 8).map(|i| (i, read_f64(bytes, i))).find(|&(_, v)| !(0.0..=max).contains(&v)) {
        Some((i, v)) => Err(TableError::section(section, format!("holds {v} at {i}, outside 0 to {max}"))),
        None => Ok(()),
    }
}

/// For each roll, the set of partial keeps (graded ranks) it can make:
/// built once, for the checks of every chunk of every table.
pub(crate) static LEGAL_KEEPS: std::sync::LazyLock<LegalKeeps> = std::sync::LazyLock::new(LegalKeeps::new);

/// For each roll, the set of partial keeps (graded ranks) it can make.
#[derive(Debug)]
pub(crate) struct LegalKeeps(Vec<[u64; 4]>);

impl LegalKeeps {
    fn new() -> LegalKeeps {
        let sets = (0..ROLLS)
            .map(|roll| {
                let mut set = [0u64; 4];
                let dice = Dice::unrank(DICE, roll).expect("roll < 252");
                for keep in dice.sub_multisets().filter(|k| k.len() < DICE) {
                    let g = keep.graded_rank();
                    set[g / 64] |= 1 << (g % 64);
                }
                set
            })
            .collect();
        LegalKeeps(sets)
    }

    /// True when stored keep code `k` is a partial keep of `roll` or KEEP_ALL.
    pub(crate) fn allows(&self, roll: usize, k: u8) -> bool {
        k == KEEP_ALL || (usize::from(k) < PARTIAL_KEEPS && self.0[roll][usize::from(k) / 64] >> (k % 64) & 1 == 1)
    }
}

/// The dice of each partial keep, by graded rank: a stored keep code to dice in O(1).
pub(crate) static PARTIAL_KEEP_DICE: std::sync::LazyLock<[Dice; PARTIAL_KEEPS]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|g| Dice::graded_unrank(g).expect("graded rank < 210")));

/// Element `i` of a little-endian u16 section.
pub(crate) fn read_u16(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes(bytes[i * 2..i * 2 + 2].try_into().expect("2 bytes"))
}

/// Element `i` of a little-endian u32 section.
pub(crate) fn read_u32(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().expect("4 bytes"))
}

/// Element `i` of a little-endian f64 section.
pub(crate) fn read_f64(bytes: &[u8], i: usize) -> f64 {
    f64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
}
