//! Dice as multisets, and their ranks.
//!
//! Every table is indexed by the *multiset* of dice showing, never by an
//! ordered roll: "62451" and "12456" are the same state. A multiset of `n`
//! six-sided dice is stored as the count of each face, and its index (its
//! *rank*) among the `C(n + 5, 5)` multisets of that size is given by the
//! combinatorial number system:
//!
//! sort the faces ascending as `f_0 <= f_1 <= ... <= f_{n-1}` (0-based, so a
//! printed 1 is face 0), then `rank = sum_i C(f_i + i, i + 1)`.
//!
//! The formula is written out in `FORMAT.md` so that a program in another
//! language indexes the tables the same way.
//!
//! ```
//! use dice_tables_reader::Dice;
//! let roll: Dice = "62451".parse().unwrap();
//! assert_eq!(roll, "12456".parse().unwrap());
//! assert_eq!(roll.len(), 5);
//! assert_eq!(roll.to_string(), "12456");
//! assert_eq!(roll.rank(), 172); // the worked example in FORMAT.md
//! assert_eq!(Dice::unrank(5, roll.rank()), Some(roll));
//! ```

use std::fmt;
use std::str::FromStr;

/// Faces on a die.
pub const FACES: usize = 6;
/// The most dice any game here uses (10000 throws six).
pub const MAX_DICE: usize = 6;

/// `BINOMIAL[n][k] = C(n, k)` for the small arguments the ranks need.
const BINOMIAL: [[u32; MAX_DICE + 2]; MAX_DICE + FACES] = binomial_table();

const fn binomial_table() -> [[u32; MAX_DICE + 2]; MAX_DICE + FACES] {
    let mut t = [[0u32; MAX_DICE + 2]; MAX_DICE + FACES];
    let mut n = 0;
    while n < MAX_DICE + FACES {
        t[n][0] = 1;
        let mut k = 1;
        while k < MAX_DICE + 2 {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `RANK_PART[f][p][c]`: what `c` dice of 0-based face `f` add to a rank when
/// `p` dice of lower faces come before them: the sum over `j < c` of
/// `C(f + p + j, p + j + 1)`.
const RANK_PART: [[[u16; MAX_DICE + 1]; MAX_DICE + 1]; FACES] = rank_part_table();

const fn rank_part_table() -> [[[u16; MAX_DICE + 1]; MAX_DICE + 1]; FACES] {
    let mut t = [[[0u16; MAX_DICE + 1]; MAX_DICE + 1]; FACES];
    let mut f = 0;
    while f < FACES {
        let mut p = 0;
        while p <= MAX_DICE {
            let mut c = 1;
            while c + p <= MAX_DICE {
                let i = p + c - 1;
                t[f][p][c] = t[f][p][c - 1] + BINOMIAL[f + i][i + 1] as u16;
                c += 1;
            }
            p += 1;
        }
        f += 1;
    }
    t
}

/// How many multisets of `n` dice there are: `C(n + 5, 5)` (1, 6, 21, 56, 126, 252, 462).
pub const fn multiset_count(n: usize) -> usize {
    BINOMIAL[n + FACES - 1][FACES - 1] as usize
}

/// A multiset of up to six dice: how many of each face, 1 to 6.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Dice {
    counts: [u8; FACES],
}

impl Dice {
    /// No dice.
    pub const EMPTY: Dice = Dice { counts: [0; FACES] };

    /// The multiset with `counts[f]` dice showing face `f + 1`; `None` when
    /// there are more than six dice in all.
    pub fn from_counts(counts: [u8; FACES]) -> Option<Dice> {
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        (total as usize <= MAX_DICE).then_some(Dice { counts })
    }

    /// The multiset of the given faces (each 1 to 6); `None` for a face out of
    /// range or more than six dice.
    pub fn from_faces(faces: &[u8]) -> Option<Dice> {
        if faces.len() > MAX_DICE {
            return None;
        }
        let mut counts = [0u8; FACES];
        for &f in faces {
            if !(1..=FACES as u8).contains(&f) {
                return None;
            }
            counts[usize::from(f - 1)] += 1;
        }
        Some(Dice { counts })
    }

    /// How many dice show each face: index 0 is face 1.
    pub fn counts(&self) -> [u8; FACES] {
        self.counts
    }

    /// How many dice show `face` (1 to 6; 0 for any other number).
    pub fn count(&self, face: u8) -> u8 {
        match face {
            1..=6 => self.counts[usize::from(face - 1)],
            _ => 0,
        }
    }

    /// The number of dice.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// The chance that this many fair dice thrown together show this
    /// multiset: the multinomial `n! / prod(count_f!)` over `6^n`.
    ///
    /// ```
    /// use dice_tables_reader::Dice;
    /// let straight: Dice = "12345".parse().unwrap();
    /// assert_eq!(straight.probability(), 120.0 / 7776.0);
    /// ```
    pub fn probability(&self) -> f64 {
        let factorial = |k: u8| (1..=u64::from(k)).product::<u64>();
        let orderings = factorial(self.len() as u8) / self.counts.iter().map(|&c| factorial(c)).product::<u64>();
        orderings as f64 / (FACES as f64).powi(self.len() as i32)
    }

    /// True for no dice.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sum of the faces.
    pub fn sum(&self) -> u32 {
        self.faces().map(u32::from).sum()
    }

    /// The faces in ascending order, each 1 to 6.
    pub fn faces(&self) -> impl Iterator<Item = u8> + '_ {
        (0..FACES).flat_map(move |f| std::iter::repeat_n(f as u8 + 1, usize::from(self.counts[f])))
    }

    /// This multiset with one more die showing `face` (1 to 6); `None` past six dice.
    pub fn with(&self, face: u8) -> Option<Dice> {
        if !(1..=FACES as u8).contains(&face) || self.len() >= MAX_DICE {
            return None;
        }
        let mut counts = self.counts;
        counts[usize::from(face - 1)] += 1;
        Some(Dice { counts })
    }

    /// True when every die of `self` is also in `other`.
    pub fn is_subset_of(&self, other: &Dice) -> bool {
        self.counts.iter().zip(other.counts.iter()).all(|(a, b)| a <= b)
    }

    /// The dice of `self` that are not in `part` (`part` must be a sub-multiset).
    pub fn without(&self, part: &Dice) -> Option<Dice> {
        if !part.is_subset_of(self) {
            return None;
        }
        let mut counts = self.counts;
        for (c, p) in counts.iter_mut().zip(part.counts.iter()) {
            *c -= p;
        }
        Some(Dice { counts })
    }

    /// This multiset's index among the multisets of its size, `0..multiset_count(len)`.
    pub fn rank(&self) -> usize {
        // This is on every lookup's path: one table read a face, no
        // data-dependent loop.
        let (mut rank, mut before) = (0usize, 0usize);
        for (f, &count) in self.counts.iter().enumerate() {
            let count = usize::from(count).min(MAX_DICE);
            rank += RANK_PART[f][before.min(MAX_DICE)][count] as usize;
            before += count;
        }
        rank
    }

    /// This multiset's index among all multisets of at most six dice, smaller
    /// multisets first: `multiset_count(0) + .. + multiset_count(len - 1) + rank`.
    /// The keep tables use it: the 210 keeps of 0 to 4 dice are indices 0..210.
    pub fn graded_rank(&self) -> usize {
        (0..self.len()).map(multiset_count).sum::<usize>() + self.rank()
    }

    /// The multiset with the given [`graded_rank`](Dice::graded_rank); `None` when out of range.
    pub fn graded_unrank(mut index: usize) -> Option<Dice> {
        for n in 0..=MAX_DICE {
            if index < multiset_count(n) {
                return Dice::unrank(n, index);
            }
            index -= multiset_count(n);
        }
        None
    }

    /// The multiset of `n` dice with the given rank; `None` when out of range.
    pub fn unrank(n: usize, rank: usize) -> Option<Dice> {
        if n > MAX_DICE || rank >= multiset_count(n) {
            return None;
        }
        let mut rest = rank;
        let mut counts = [0u8; FACES];
        // Greedy decoding of the combinatorial number system, last die first.
        for i in (0..n).rev() {
            let mut c = i;
            while c + 1 < i + FACES && BINOMIAL[c + 1][i + 1] as usize <= rest {
                c += 1;
            }
            rest -= BINOMIAL[c][i + 1] as usize;
            counts[c - i] += 1;
        }
        Some(Dice { counts })
    }

    /// Every distinct sub-multiset (including the empty one and `self`), with no
    /// allocation: at most 32 for five dice, 64 for six.
    pub fn sub_multisets(&self) -> SubMultisets {
        SubMultisets { whole: self.counts, next: Some([0; FACES]) }
    }
}

/// The iterator of [`Dice::sub_multisets`]: smallest counts first, face 1 varying fastest.
#[derive(Clone, Debug)]
pub struct SubMultisets {
    whole: [u8; FACES],
    next: Option<[u8; FACES]>,
}

impl Iterator for SubMultisets {
    type Item = Dice;
    fn next(&mut self) -> Option<Dice> {
        let current = self.next?;
        // Odometer step over 0..=whole[f] for each face.
        let mut step = current;
        let mut f = 0;
        loop {
            if f == FACES {
                self.next = None;
                break;
            }
            if step[f] < self.whole[f] {
                step[f] += 1;
                self.next = Some(step);
                break;
            }
            step[f] = 0;
            f += 1;
        }
        Some(Dice { counts: current })
    }
}

impl fmt::Display for Dice {
    /// The faces as ascending digits, "" for no dice.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for face in self.faces() {
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dice(\"{self}\")")
    }
}

/// Why a dice string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseDiceError {
    /// A character other than the digits 1 to 6.
    BadDigit(char),
    /// More than six dice.
    TooMany(usize),
}

impl fmt::Display for ParseDiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseDiceError::BadDigit(c) => {
                write!(f, "{c:?} is not a die: dice are written as digits 1-6, like 12456")
            }
            ParseDiceError::TooMany(n) => {
                write!(f, "{n} dice is too many: at most {MAX_DICE} digits 1-6, like 12456")
            }
        }
    }
}

impl std::error::Error for ParseDiceError {}

/// What may stand between dice written out: a space or a comma.
pub fn is_dice_separator(c: char) -> bool {
    c == ' ' || c == ','
}

impl FromStr for Dice {
    type Err = ParseDiceError;
    /// Digits 1 to 6 in any order, at most six of them ("" is no dice),
    /// spaces and commas between them ignored (`"3 3 3 5 6"`, `"1,5,5"`).
    fn from_str(s: &str) -> Result<Dice, ParseDiceError> {
        let mut counts = [0u8; FACES];
        let mut n = 0usize;
        for c in s.chars().filter(|&c| !is_dice_separator(c)) {
            match c {
                '1'..='6' => counts[(c as u8 - b'1') as usize] += 1,
                _ => return Err(ParseDiceError::BadDigit(c)),
            }
            n += 1;
            if n > MAX_DICE {
                return Err(ParseDiceError::TooMany(s.chars().filter(|&c| !is_dice_separator(c)).count()));
            }
        }
        Ok(Dice { counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_multisets() {
        let expected = [1, 6, 21, 56, 126, 252, 462];
        for (n, &e) in expected.iter().enumerate() {
            assert_eq!(multiset_count(n), e, "n = {n}");
        }
    }

    #[test]
    fn rank_is_a_bijection_onto_the_range() {
        for n in 0..=MAX_DICE {
            for r in 0..multiset_count(n) {
                let d = Dice::unrank(n, r).unwrap();
                assert_eq!(d.len(), n);
                assert_eq!(d.rank(), r);
            }
            assert_eq!(Dice::unrank(n, multiset_count(n)), None);
        }
    }

    #[test]
    fn graded_rank_is_a_bijection() {
        let total: usize = (0..=MAX_DICE).map(multiset_count).sum();
        for g in 0..total {
            assert_eq!(Dice::graded_unrank(g).unwrap().graded_rank(), g);
        }
        assert_eq!(Dice::graded_unrank(total), None);
        assert_eq!(Dice::unrank(5, 0).unwrap().graded_rank(), 210);
    }

    #[test]
    fn parse_and_print() {
        let d: Dice = "62451".parse().unwrap();
        assert_eq!(d.to_string(), "12456");
        assert_eq!("".parse::<Dice>().unwrap(), Dice::EMPTY);
        assert_eq!("1270".parse::<Dice>(), Err(ParseDiceError::BadDigit('7')));
        assert_eq!("1111111".parse::<Dice>(), Err(ParseDiceError::TooMany(7)));
        assert_eq!("3 3 3 5 6".parse::<Dice>(), "33356".parse::<Dice>());
        assert_eq!("1,5,5".parse::<Dice>(), "155".parse::<Dice>());
        assert_eq!(", 1 ,5".parse::<Dice>(), "15".parse::<Dice>());
    }

    #[test]
    fn sub_multisets_are_distinct_and_complete() {
        let d: Dice = "11223".parse().unwrap();
        let subs: Vec<Dice> = d.sub_multisets().collect();
        assert_eq!(subs.len(), 3 * 3 * 2);
        let mut sorted = subs.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), subs.len());
        assert!(subs.iter().all(|s| s.is_subset_of(&d)));
        assert_eq!("".parse::<Dice>().unwrap().sub_multisets().count(), 1);
    }
}
