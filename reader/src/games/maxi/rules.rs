//! Maxi Yatzy's rules as numbers: the boxes, the presets, what each box
//! scores, and the upper totals a table stores.

use crate::dice::FACES;
use crate::error::ArgumentError;

/// Dice in a roll.
pub const DICE: usize = 6;

/// The boxes, in mask-bit order (bits 0 to 19).
pub const BOXES: [&str; 20] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "one-pair",
    "two-pairs",
    "three-pairs",
    "three-kind",
    "four-kind",
    "five-kind",
    "small-straight",
    "large-straight",
    "full-straight",
    "full-house",
    "villa",
    "tower",
    "chance",
    "maxi-yatzy",
];

/// What a Maxi Yatzy game's rules can set apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The upper total that earns the bonus.
    pub bonus_at: u8,
    /// The upper bonus.
    pub bonus: u8,
    /// Whether rerolls a turn leaves unused are saved for later turns.
    pub saved_rolls: bool,
}

impl Rules {
    /// Finland's rules: 50 at 75, no saved rolls (jokkebk/maxiyatzy's).
    pub const FINNISH: Rules = Rules { bonus_at: 75, bonus: 50, saved_rolls: false };
    /// Sweden's and Norway's rules: 100 at 84, unused rerolls saved.
    pub const SWEDISH: Rules = Rules { bonus_at: 84, bonus: 100, saved_rolls: true };

    /// Counts of saved rerolls a state with `open` boxes open can hold:
    /// `0..` this, two for each turn played (1 without saved rolls).
    pub fn saved_counts(&self, open: usize) -> usize {
        if self.saved_rolls {
            2 * (BOXES.len() - open.min(BOXES.len())) + 1
        } else {
            1
        }
    }

    /// The most rerolls a turn with `saved` saved can use: its two and those.
    pub fn turn_rerolls(&self, saved: usize) -> usize {
        REROLLS + saved
    }
}

/// Rerolls a turn brings.
pub const REROLLS: usize = 2;

/// The most the upper boxes can total: six of each face.
pub const MOST_UPPER: u32 = 6 * 21;

/// The upper totals the filled upper boxes (`filled`, mask bits) can make,
/// capped at `bonus_at` (1 to 126): bit `u` of the result.
pub fn reachable_capped_totals(filled: u32, bonus_at: u8) -> u128 {
    let mut reach: u128 = 1;
    for face in (0..FACES).filter(|f| filled >> f & 1 == 1) {
        let mut next = 0;
        for count in 0..=6 {
            next |= reach << (count * (face + 1));
        }
        reach = next;
    }
    let cap = u32::from(bonus_at);
    let below = reach & ((1u128 << cap) - 1);
    below | u128::from(reach >> cap != 0) << cap
}

/// The upper totals whose values a table stores for a mask: `(flat,
/// above)`. From every total up to `flat` the open upper boxes can no
/// longer reach the bonus, so all of them are worth the same (stored once,
/// for `flat`); `above` holds the reachable capped totals over `flat`, as
/// bits. Depends only on the mask's upper boxes.
pub fn stored_totals(mask: u32, bonus_at: u8) -> (u8, u128) {
    let reachable = reachable_capped_totals(!mask & UPPER_MASK, bonus_at);
    let highest = 127 - reachable.leading_zeros();
    let still_to_score: u32 = (0..FACES as u32).filter(|f| mask >> f & 1 == 1).map(|f| 6 * (f + 1)).sum();
    let flat = (u32::from(bonus_at) - 1).saturating_sub(still_to_score).min(highest);
    (flat as u8, reachable >> (flat + 1) << (flat + 1))
}

/// The points of a roll (face counts, six dice) in box `b` (a mask bit).
///
/// ```
/// use dice_tables_reader::maxi::{points, BOXES};
/// let counts = |dice: &str| {
///     let mut c = [0u8; 6];
///     dice.bytes().for_each(|d| c[usize::from(d - b'1')] += 1);
///     c
/// };
/// let full_house = BOXES.iter().position(|&b| b == "full-house").unwrap();
/// assert_eq!(points(&counts("344666"), full_house), 26);
/// ```
pub fn points(counts: &[u8; FACES], b: usize) -> u8 {
    // Faces from the highest down, each with how many show.
    let high = || (1..=FACES as u8).rev().map(|f| (f, counts[usize::from(f) - 1]));
    let highest_with = |n: u8| high().find(|&(_, c)| c >= n).map_or(0, |(f, _)| f);
    let sum: u8 = high().map(|(f, c)| f * c).sum();
    let shown = |run: std::ops::RangeInclusive<usize>| run.into_iter().all(|f| counts[f - 1] > 0);
    match b {
        0..=5 => (b as u8 + 1) * counts[b],
        6 => 2 * highest_with(2),
        7 => {
            let mut pairs = high().filter(|&(_, c)| c >= 2).map(|(f, _)| f);
            match (pairs.next(), pairs.next()) {
                (Some(a), Some(b)) => 2 * (a + b),
                _ => 0,
            }
        }
        8 if high().filter(|&(_, c)| c == 2).count() == 3 => sum,
        9 => 3 * highest_with(3),
        10 => 4 * highest_with(4),
        11 => 5 * highest_with(5),
        12 if shown(1..=5) => 15,
        13 if shown(2..=6) => 20,
        14 if shown(1..=6) => 21,
        15 => {
            // The best three and the best pair of another face.
            let best = high()
                .filter(|&(_, c)| c >= 3)
                .filter_map(|(t, _)| high().find(|&(p, c)| p != t && c >= 2).map(|(p, _)| 3 * t + 2 * p));
            best.max().unwrap_or(0)
        }
        16 if high().filter(|&(_, c)| c == 3).count() == 2 => sum,
        17 if high().any(|(_, c)| c == 4) && high().any(|(_, c)| c == 2) => sum,
        18 => sum,
        19 if counts.contains(&6) => 100,
        _ => 0,
    }
}

/// The upper boxes' bits.
pub const UPPER_MASK: u32 = (1 << FACES) - 1;

/// Every open box's bits.
pub const ALL: u32 = (1 << BOXES.len()) - 1;

/// Parses a mask of open boxes: a number (decimal, `0x..`, `0b..`), a comma
/// list of the open boxes' names (`none` for none), or `all` followed by
/// the filled ones, each after a minus (`all,-ones,-villa`). Names are read
/// as people write them: any case, spaces or `-` or `_` between words, and
/// the usual other spellings (`Full House`, `3 of a kind`, `Maxi Yatzy`).
///
/// ```
/// use dice_tables_reader::maxi::parse_mask;
/// assert_eq!(parse_mask("ones, Full House, maxi yatzy").unwrap(), 1 | 1 << 15 | 1 << 19);
/// assert_eq!(parse_mask("all,-chance").unwrap(), (1 << 20) - 1 - (1 << 18));
/// ```
pub fn parse_mask(s: &str) -> Result<u32, ArgumentError> {
    crate::five_dice::parse_mask(s, &BOXES)
}

/// Rolls of six dice.
pub const ROLLS: usize = 462;

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(dice: &str) -> [u8; FACES] {
        let mut c = [0u8; FACES];
        dice.bytes().for_each(|d| c[usize::from(d - b'1')] += 1);
        c
    }

    fn score(dice: &str, name: &str) -> u8 {
        points(&counts(dice), BOXES.iter().position(|&b| b == name).expect("a box"))
    }

    #[test]
    fn the_rules_examples() {
        assert_eq!(score("344666", "full-house"), 26);
        assert_eq!(score("222555", "villa"), 21);
        assert_eq!(score("336666", "tower"), 30);
        assert_eq!(score("213355", "two-pairs"), 16);
        assert_eq!(score("225566", "three-pairs"), 26);
        assert_eq!(score("123456", "small-straight"), 15);
        assert_eq!(score("123456", "large-straight"), 20);
        assert_eq!(score("123456", "full-straight"), 21);
        assert_eq!(score("666666", "maxi-yatzy"), 100);
        assert_eq!(score("666666", "villa"), 0);
    }

    #[test]
    fn more_dice_than_needed_still_qualify_but_not_as_different_faces() {
        // Six alike: a pair and three, four and five of a kind.
        for (name, points) in [("one-pair", 12), ("three-kind", 18), ("four-kind", 24), ("five-kind", 30)] {
            assert_eq!(score("666666", name), points, "{name}");
        }
        for name in ["two-pairs", "three-pairs", "full-house", "villa", "tower"] {
            assert_eq!(score("666666", name), 0, "{name}");
        }
        assert_eq!(score("666666", "chance"), 36);
        assert_eq!(score("666666", "sixes"), 36);
        // 4 + 2 is two pairs, a full house (3t + 2p) and a tower, not three pairs or a villa.
        assert_eq!(score("333366", "two-pairs"), 18);
        assert_eq!(score("333366", "full-house"), 21);
        assert_eq!(score("333366", "tower"), 24);
        assert_eq!(score("333366", "three-pairs"), 0);
        assert_eq!(score("333366", "villa"), 0);
        // 3 + 3: the better full house, two pairs, a villa.
        assert_eq!(score("222555", "full-house"), 19);
        assert_eq!(score("222555", "two-pairs"), 14);
        assert_eq!(score("222555", "tower"), 0);
        // Three pairs: the two highest for two pairs, the highest for one pair.
        assert_eq!(score("225566", "two-pairs"), 22);
        assert_eq!(score("225566", "one-pair"), 12);
        assert_eq!(score("225566", "full-house"), 0);
        // Five alike and one more: five of a kind and a full house only with a pair.
        assert_eq!(score("444445", "five-kind"), 20);
        assert_eq!(score("444445", "full-house"), 0);
        assert_eq!(score("444445", "tower"), 0);
        // Straights with the sixth die anything.
        assert_eq!(score("123455", "small-straight"), 15);
        assert_eq!(score("123455", "large-straight"), 0);
        assert_eq!(score("234566", "large-straight"), 20);
        assert_eq!(score("234566", "full-straight"), 0);
        assert_eq!(score("112345", "chance"), 16);
    }

    #[test]
    fn names_as_people_write_them() {
        assert_eq!(parse_mask("Three of a Kind,5 of a kind,3 pairs").unwrap(), 1 << 9 | 1 << 11 | 1 << 8);
        assert_eq!(parse_mask("one pair,Full Straight,maxiyatzy").unwrap(), 1 << 6 | 1 << 14 | 1 << 19);
        assert_eq!(parse_mask("all").unwrap(), ALL);
        assert!(parse_mask("yatzy").is_err());
        assert!(parse_mask(&(1u32 << 20).to_string()).is_err());
    }
}
