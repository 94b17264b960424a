//! The rules of the score-sheet games: categories, scoring, the joker, and
//! which upper totals a game can reach.

use crate::dice::{Dice, FACES};

/// Upper-section points at which the bonus is earned; totals from here on
/// are one state.
pub const BONUS_AT: u8 = 63;
/// Upper totals a table distinguishes: 0 to 63.
pub const UPPER_TOTALS: usize = BONUS_AT as usize + 1;
/// The most an upper total can be before capping: five sixes, fives, ... ones.
pub const MAX_UPPER_POINTS: u8 = 105;
/// The extra points of each further Yahtzee while the yahtzee box holds 50.
pub const YAHTZEE_BONUS: u8 = 100;

/// Where a Yahtzee rolled with the yahtzee box already filled may be scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Joker {
    /// The official reading: the matching upper box if it is open; else any
    /// open lower box (full house, straights at full value); else a zero in
    /// an open upper box.
    Forced,
    /// Any open box (Verhoeff's rules): the upper boxes as usual, the lower
    /// ones as usual too while the matching upper box is open, at full
    /// value once it is filled.
    Free,
}

impl Joker {
    /// Both readings.
    pub const ALL: [Joker; 2] = [Joker::Forced, Joker::Free];

    /// Its name, as people and the command lines write it: `forced` or `free`.
    pub fn name(self) -> &'static str {
        match self {
            Joker::Forced => "forced",
            Joker::Free => "free",
        }
    }

    /// Its value as the header's `joker` parameter records it: 0 or 1.
    pub fn param(self) -> i64 {
        match self {
            Joker::Forced => 0,
            Joker::Free => 1,
        }
    }

    /// The reading a header's `joker` parameter records.
    pub fn from_param(value: i64) -> Option<Joker> {
        Joker::ALL.into_iter().find(|j| j.param() == value)
    }

    /// The reading of this name (`forced` or `free`).
    pub fn named(name: &str) -> Option<Joker> {
        Joker::ALL.into_iter().find(|j| j.name() == name)
    }
}

/// The scoring of one score-sheet game: categories `0..6` are ones to sixes
/// (face times count) and count towards the upper bonus.
#[derive(Clone, Copy, Debug)]
pub struct Scoring {
    /// Category names in mask-bit order.
    pub categories: &'static [&'static str],
    /// The upper bonus, paid when the upper total reaches [`BONUS_AT`].
    pub upper_bonus: u8,
    /// The points of a roll (face counts) in a lower category (index 6 and up).
    lower_points: fn(&[u8; FACES], usize) -> u8,
    /// yahtzee: the yahtzee box's index and the joker reading.
    pub joker: Option<(usize, Joker)>,
}

/// One way to score a roll: the category, the points it scores now (any
/// Yahtzee bonus included), and the state it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// The category filled.
    pub category: usize,
    /// Points now, a Yahtzee bonus included.
    pub points: u8,
    /// Points added to the upper total (the points of an upper category, else 0).
    pub upper: u8,
    /// Whether the yahtzee box holds 50 afterwards.
    pub bonus_flag: bool,
}

/// The upper categories' bits.
pub const UPPER_MASK: u32 = (1 << FACES) - 1;

impl Scoring {
    /// The points of `dice` in category `c` by the ordinary rules (no joker).
    pub fn points(&self, counts: &[u8; FACES], c: usize) -> u8 {
        if c < FACES {
            (c as u8 + 1) * counts[c]
        } else {
            (self.lower_points)(counts, c)
        }
    }

    /// Every way to score `dice` with the categories of `mask` open and the
    /// yahtzee box holding 50 (`bonus_flag`), in category order, passed to `each`.
    #[inline]
    pub fn scores(&self, mask: u32, bonus_flag: bool, dice: &Dice, mut each: impl FnMut(Score)) {
        let counts = dice.counts();
        let yahtzee_face = counts.iter().position(|&n| n == 5);
        let joker = match (self.joker, yahtzee_face) {
            (Some((box_, reading)), Some(face)) if mask >> box_ & 1 == 0 => Some((reading, face)),
            _ => None,
        };
        let Some((reading, face)) = joker else {
            for c in (0..self.categories.len()).filter(|&c| mask >> c & 1 == 1) {
                let points = self.points(&counts, c);
                let upper = if c < FACES { points } else { 0 };
                let flag = bonus_flag || (Some(c) == self.joker.map(|j| j.0) && points > 0);
                each(Score { category: c, points, upper, bonus_flag: flag });
            }
            return;
        };
        // A joker: the yahtzee box is filled, so the flag cannot change.
        let bonus = if bonus_flag { YAHTZEE_BONUS } else { 0 };
        let lower_open = mask & !UPPER_MASK != 0;
        for c in (0..self.categories.len()).filter(|&c| mask >> c & 1 == 1) {
            let allowed = match reading {
                Joker::Free => true,
                Joker::Forced if mask >> face & 1 == 1 => c == face,
                Joker::Forced => (c >= FACES) == lower_open,
            };
            if allowed {
                // Full house and the straights take a joker at full value only
                // once the matching upper box is filled (under the forced
                // reading the only lower boxes allowed are then).
                let full_value = c >= FACES && mask >> face & 1 == 0;
                let points = if full_value { joker_points(&counts, c) } else { self.points(&counts, c) };
                let upper = if c < FACES { points } else { 0 };
                each(Score { category: c, points: points + bonus, upper, bonus_flag });
            }
        }
    }
}

/// A Yahtzee's points in yahtzee's lower category `c` as a joker.
fn joker_points(counts: &[u8; FACES], c: usize) -> u8 {
    // Three and four of a kind and chance score the sum, as without a joker.
    match c {
        HZ_FULL_HOUSE => 25,
        HZ_SMALL_STRAIGHT => 30,
        HZ_LARGE_STRAIGHT => 40,
        _ => yahtzee_lower_points(counts, c),
    }
}

/// The face counts' sum.
fn sum(counts: &[u8; FACES]) -> u8 {
    counts.iter().enumerate().map(|(f, &n)| (f as u8 + 1) * n).sum()
}

/// The longest run of consecutive faces showing.
fn longest_run(counts: &[u8; FACES]) -> usize {
    let (mut best, mut run) = (0, 0);
    for &n in counts {
        run = if n > 0 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// yatzy's categories in mask-bit order.
pub const YATZY_CATEGORIES: [&str; 15] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "pair",
    "two-pairs",
    "three-kind",
    "four-kind",
    "small-straight",
    "large-straight",
    "full-house",
    "chance",
    "yatzy",
];

fn yatzy_lower_points(counts: &[u8; FACES], c: usize) -> u8 {
    // Indices as in YATZY_CATEGORIES. Faces from the highest down, so the
    // first match is the highest.
    let highest_with = |n: u8| (0..FACES).rev().find(|&f| counts[f] >= n).map(|f| f as u8 + 1);
    match c {
        6 => highest_with(2).map_or(0, |f| 2 * f),
        7 => {
            let mut pairs = (0..FACES).rev().filter(|&f| counts[f] >= 2).map(|f| f as u8 + 1);
            match (pairs.next(), pairs.next()) {
                (Some(a), Some(b)) => 2 * (a + b),
                _ => 0,
            }
        }
        8 => highest_with(3).map_or(0, |f| 3 * f),
        9 => highest_with(4).map_or(0, |f| 4 * f),
        10 => {
            if counts[..5] == [1; 5] {
                15
            } else {
                0
            }
        }
        11 => {
            if counts[1..] == [1; 5] {
                20
            } else {
                0
            }
        }
        12 => {
            if counts.contains(&3) && counts.contains(&2) {
                sum(counts)
            } else {
                0
            }
        }
        13 => sum(counts),
        14 => {
            if counts.contains(&5) {
                50
            } else {
                0
            }
        }
        _ => unreachable!("yatzy has 15 categories"),
    }
}

/// yatzy (Scandinavian): upper bonus 50.
pub const YATZY: Scoring =
    Scoring { categories: &YATZY_CATEGORIES, upper_bonus: 50, lower_points: yatzy_lower_points, joker: None };

/// yahtzee's categories in mask-bit order.
pub const YAHTZEE_CATEGORIES: [&str; 13] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three-kind",
    "four-kind",
    "full-house",
    "small-straight",
    "large-straight",
    "yahtzee",
    "chance",
];

/// The yahtzee box's mask bit.
pub const YAHTZEE_BOX: usize = 11;
const HZ_FULL_HOUSE: usize = 8;
const HZ_SMALL_STRAIGHT: usize = 9;
const HZ_LARGE_STRAIGHT: usize = 10;

fn yahtzee_lower_points(counts: &[u8; FACES], c: usize) -> u8 {
    let most = *counts.iter().max().expect("six faces");
    let run = longest_run(counts);
    let worth = |yes: bool, points: u8| if yes { points } else { 0 };
    match c {
        6 => worth(most >= 3, sum(counts)),
        7 => worth(most >= 4, sum(counts)),
        HZ_FULL_HOUSE => worth(counts.contains(&3) && counts.contains(&2), 25),
        HZ_SMALL_STRAIGHT => worth(run >= 4, 30),
        HZ_LARGE_STRAIGHT => worth(run >= 5, 40),
        YAHTZEE_BOX => worth(most == 5, 50),
        12 => sum(counts),
        _ => unreachable!("yahtzee has 13 categories"),
    }
}

/// yahtzee (United States) under a joker reading: upper bonus 35, Yahtzee bonuses.
pub const fn yahtzee(reading: Joker) -> Scoring {
    Scoring {
        categories: &YAHTZEE_CATEGORIES,
        upper_bonus: 35,
        lower_points: yahtzee_lower_points,
        joker: Some((YAHTZEE_BOX, reading)),
    }
}

/// The upper totals (uncapped, bit `t` of the result for total `t`) a game
/// can have reached when exactly the upper categories in `scored` (bits
/// 0..6) are filled: each filled box holds 0 to 5 times its face.
pub fn reachable_upper_totals(scored: u32) -> u128 {
    let mut reach = 1u128;
    for face in (1..=FACES as u32).filter(|&f| scored >> (f - 1) & 1 == 1) {
        let mut next = 0;
        for n in 0..=5 {
            next |= reach << (n * face);
        }
        reach = next;
    }
    reach
}

/// The capped upper totals (bit `u` for 0..=63) reachable with `scored` filled.
pub fn reachable_capped_totals(scored: u32) -> u64 {
    let reach = reachable_upper_totals(scored);
    let low = reach as u64 & ((1 << BONUS_AT) - 1);
    low | u64::from(reach >> BONUS_AT != 0) << BONUS_AT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::five_dice::parse_mask;

    fn points(scoring: &Scoring, dice: &str, category: &str) -> u8 {
        let c = scoring.categories.iter().position(|&n| n == category).unwrap();
        scoring.points(&dice.parse::<Dice>().unwrap().counts(), c)
    }

    #[test]
    fn yatzy_scoring_on_tricky_rolls() {
        let y = &YATZY;
        // Four of a kind is not two pairs; a full house is.
        assert_eq!(points(y, "44443", "two-pairs"), 0);
        assert_eq!(points(y, "44443", "four-kind"), 16);
        assert_eq!(points(y, "44443", "pair"), 8);
        assert_eq!(points(y, "33322", "two-pairs"), 10);
        assert_eq!(points(y, "33322", "full-house"), 13);
        assert_eq!(points(y, "66554", "two-pairs"), 22);
        assert_eq!(points(y, "66554", "pair"), 12);
        // Five of a kind is not a full house.
        assert_eq!(points(y, "55555", "full-house"), 0);
        assert_eq!(points(y, "55555", "yatzy"), 50);
        assert_eq!(points(y, "55555", "four-kind"), 20);
        assert_eq!(points(y, "55555", "two-pairs"), 0);
        // The straights are exactly 1-5 and 2-6.
        assert_eq!(points(y, "12345", "small-straight"), 15);
        assert_eq!(points(y, "12345", "large-straight"), 0);
        assert_eq!(points(y, "23456", "large-straight"), 20);
        assert_eq!(points(y, "12344", "small-straight"), 0);
        assert_eq!(points(y, "12345", "chance"), 15);
        assert_eq!(points(y, "66612", "three-kind"), 18);
        assert_eq!(points(y, "66612", "sixes"), 18);
    }

    #[test]
    fn yahtzee_scoring_on_tricky_rolls() {
        let y = &yahtzee(Joker::Forced);
        assert_eq!(points(y, "33332", "four-kind"), 14);
        assert_eq!(points(y, "33332", "three-kind"), 14);
        assert_eq!(points(y, "33332", "full-house"), 0);
        assert_eq!(points(y, "33322", "full-house"), 25);
        // Straights with a pair.
        assert_eq!(points(y, "12344", "small-straight"), 30);
        assert_eq!(points(y, "34566", "small-straight"), 30);
        assert_eq!(points(y, "12344", "large-straight"), 0);
        assert_eq!(points(y, "12456", "small-straight"), 0);
        assert_eq!(points(y, "23456", "large-straight"), 40);
        // Without a joker, five of a kind is no full house or straight.
        assert_eq!(points(y, "55555", "full-house"), 0);
        assert_eq!(points(y, "55555", "small-straight"), 0);
        assert_eq!(points(y, "55555", "yahtzee"), 50);
        assert_eq!(points(y, "55555", "chance"), 25);
    }

    /// The ways to score `dice` with `open` categories, as (name, points, flag after).
    fn scores(scoring: &Scoring, open: &str, flag: bool, dice: &str) -> Vec<(&'static str, u8, bool)> {
        let mask = parse_mask(open, scoring.categories).unwrap();
        let mut out = Vec::new();
        scoring.scores(mask, flag, &dice.parse().unwrap(), |s| {
            out.push((scoring.categories[s.category], s.points, s.bonus_flag))
        });
        out
    }

    #[test]
    fn joker_cases_under_both_readings() {
        let (forced, free) = (&yahtzee(Joker::Forced), &yahtzee(Joker::Free));
        // The yahtzee box open: no joker; a Yahtzee there sets the flag.
        assert_eq!(
            scores(forced, "fours,full-house,yahtzee", false, "44444"),
            [("fours", 20, false), ("full-house", 0, false), ("yahtzee", 50, true)]
        );
        // Forced: the matching upper box if open (with the bonus while the box holds 50) ...
        assert_eq!(scores(forced, "twos,fours,full-house,chance", true, "44444"), [("fours", 120, true)]);
        // ... else an open lower box at full value ...
        assert_eq!(
            scores(forced, "twos,full-house,large-straight,chance", false, "44444"),
            [("full-house", 25, false), ("large-straight", 40, false), ("chance", 20, false)]
        );
        // ... else a zero in an open upper box.
        assert_eq!(scores(forced, "twos,sixes", true, "44444"), [("twos", 100, true), ("sixes", 100, true)]);
        // Free: any open box; full value only once the matching upper box is filled.
        assert_eq!(
            scores(free, "twos,fours,full-house,chance", true, "44444"),
            [("twos", 100, true), ("fours", 120, true), ("full-house", 100, true), ("chance", 120, true)]
        );
        assert_eq!(
            scores(free, "twos,full-house,small-straight", false, "44444"),
            [("twos", 0, false), ("full-house", 25, false), ("small-straight", 30, false)]
        );
        // Not five of a kind: no joker, whatever the box holds.
        assert_eq!(scores(forced, "twos,full-house", true, "44442"), [("twos", 2, true), ("full-house", 0, true)]);
    }

    #[test]
    fn reachable_totals() {
        assert_eq!(reachable_upper_totals(0), 1);
        assert_eq!(reachable_upper_totals(1), 0b111111);
        assert_eq!(reachable_capped_totals(UPPER_MASK), reachable_capped_totals(UPPER_MASK) | 1 << 63);
        let sixes = reachable_upper_totals(1 << 5);
        assert_eq!(sixes, (0..=5).fold(0u128, |a, n| a | 1 << (6 * n)));
        // Every total of some choice of counts, by brute force.
        for scored in 0..64u32 {
            let mut reach = 0u128;
            for code in 0..6u32.pow(6) {
                let counts: Vec<u32> = (0..6).map(|f| code / 6u32.pow(f) % 6).collect();
                if (0..6).all(|f| counts[f] == 0 || scored >> f & 1 == 1) {
                    reach |= 1 << (0..6).map(|f| counts[f as usize] * (f + 1)).sum::<u32>();
                }
            }
            assert_eq!(reachable_upper_totals(scored), reach, "scored {scored:b}");
        }
    }
}
