//! What the five-dice keep/reroll games (yazy, combo, yatzy, yahtzee) share: the sizes of
//! their keep tables, the codes of a stored keep, and the check that a stored
//! keep is one the roll can make.

use crate::dice::Dice;
use crate::error::{quoted, ArgumentError, ArgumentErrorKind};

/// The value of a keep is the average over the next die's six faces, as a
/// multiplication by this (a division per keep would cost the solver more
/// than the rest of the turn); the solver and a lookup's turn solve agree.
pub const SIXTH: f64 = 1.0 / 6.0;
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

/// Per roll of five dice (by rank), the graded ranks of its partial keeps
/// in the order lookups break ties in: larger ranks first, so larger keeps
/// first (keeping all five comes before any of them). What a program that
/// plays as the lookups do must follow too.
pub fn partial_keeps_in_tie_order() -> Vec<arrayvec::ArrayVec<u8, 31>> {
    (0..ROLLS)
        .map(|r| {
            let roll = Dice::unrank(DICE, r).expect("rank < 252");
            let mut keeps: arrayvec::ArrayVec<u8, 31> =
                roll.sub_multisets().filter(|k| k.len() < DICE).map(|k| k.graded_rank() as u8).collect();
            keeps.sort_unstable();
            keeps.reverse();
            keeps
        })
        .collect()
}

/// Checks that `dice` is a roll of exactly five dice.
#[inline]
pub(crate) fn check_roll(dice: Dice, game: &str) -> Result<(), ArgumentError> {
    if dice.len() != DICE {
        return Err(not_five_dice(dice, game));
    }
    Ok(())
}

#[cold]
fn not_five_dice(dice: Dice, game: &str) -> ArgumentError {
    ArgumentErrorKind::NotFiveDice { game: game.to_string(), given: dice.len() }.into()
}

/// Checks a state: five dice, and no more rerolls than the table was solved for.
#[inline]
pub(crate) fn check_state(dice: Dice, rerolls: u8, table_rerolls: u8, game: &str) -> Result<(), ArgumentError> {
    check_roll(dice, game)?;
    if rerolls > table_rerolls {
        return Err(too_many_rerolls(rerolls, table_rerolls, game));
    }
    Ok(())
}

#[cold]
fn too_many_rerolls(rerolls: u8, table_rerolls: u8, game: &str) -> ArgumentError {
    ArgumentErrorKind::RerollsOverTable { game: game.to_string(), given: rerolls, max: table_rerolls }.into()
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

/// The keep lattice of a roll of `n` dice (five here; six for Maxi Yatzy):
/// for each partial keep the keeps with one die more, for each keep
/// (partial or whole roll) those with one die fewer, and an order that
/// visits smaller keeps first. What a turn solve needs to value every keep
/// of every roll with additions and maxima only. Keeps are indexed by
/// [`Dice::graded_rank`]: the keeps of fewer than `n` dice first (the
/// partial keeps), then the rolls in rank order.
#[derive(Debug)]
pub struct KeepLattice {
    /// Dice in a roll.
    pub dice: usize,
    /// Keeps of fewer than `dice` dice.
    pub partial: usize,
    /// For each partial keep, the keep with one more die of each face.
    pub plus_face: Vec<[u16; 6]>,
    /// For each keep, the keeps with one die fewer (one per face it shows,
    /// lowest face first), then unused entries.
    pub minus_face: Vec<[u16; 6]>,
    /// Every keep once, smaller keeps first, with how many faces it shows.
    pub order: Vec<(u16, u8)>,
}

/// Keeps of 0 to 5 dice: the 210 partial keeps, then the 252 rolls.
pub const KEEPS: usize = PARTIAL_KEEPS + ROLLS;

/// The keep lattice of five dice, built once.
pub static KEEP_LATTICE: std::sync::LazyLock<KeepLattice> = std::sync::LazyLock::new(|| KeepLattice::new(DICE));

impl KeepLattice {
    /// The lattice of a roll of `dice` dice, 1 to [`MAX_DICE`](crate::dice::MAX_DICE).
    ///
    /// # Panics
    ///
    /// When `dice` is 0 or more than [`MAX_DICE`](crate::dice::MAX_DICE).
    ///
    /// ```
    /// use dice_tables_reader::five_dice::KeepLattice;
    /// let six = KeepLattice::new(6);
    /// // 462 keeps of 0 to 5 dice, then the 462 rolls of six.
    /// assert_eq!((six.partial, six.minus_face.len()), (462, 924));
    /// ```
    pub fn new(dice: usize) -> KeepLattice {
        assert!((1..=crate::dice::MAX_DICE).contains(&dice), "1 to 6 dice, not {dice}");
        let partial: usize = (0..dice).map(crate::dice::multiset_count).sum();
        let keeps = partial + crate::dice::multiset_count(dice);
        let keep = |g: usize| Dice::graded_unrank(g).expect("graded rank of at most six dice");
        let plus_face = (0..partial)
            .map(|g| {
                std::array::from_fn(|f| keep(g).with(f as u8 + 1).expect("fewer than six dice").graded_rank() as u16)
            })
            .collect();
        let minus_face: Vec<[u16; 6]> = (0..keeps)
            .map(|g| {
                let k = keep(g);
                let mut minus = [0u16; 6];
                for (slot, face) in minus.iter_mut().zip((1..=6u8).filter(|&f| k.count(f) > 0)) {
                    let one = Dice::from_faces(&[face]).expect("a face");
                    *slot = k.without(&one).expect("the keep shows the face").graded_rank() as u16;
                }
                minus
            })
            .collect();
        let distinct = |g: usize| keep(g).counts().iter().filter(|&&c| c > 0).count() as u8;
        let mut order: Vec<(u16, u8)> = (0..keeps).map(|g| (g as u16, distinct(g))).collect();
        order.sort_by_cached_key(|&(g, d)| (keep(usize::from(g)).len(), d, g));
        KeepLattice { dice, partial, plus_face, minus_face, order }
    }
}

/// Parses a mask of open categories for a score-sheet game with these
/// category names: a number (decimal, `0x..`, `0b..`), a comma list of the
/// open categories' names (`none` for no category), or `all` followed by
/// the filled ones, each after a minus (`all,-ones,-chance`). Names are
/// read as people write them ([`category_index`]).
pub(crate) fn parse_mask(s: &str, categories: &[&str]) -> Result<u32, ArgumentError> {
    let max = (1u32 << categories.len()) - 1;
    let out_of_range =
        |given: String| ArgumentError::from(ArgumentErrorKind::MaskOutOfRange { given, max, game: None });
    let s = s.trim();
    let number = if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(u32::from_str_radix(hex, 16))
    } else if let Some(bin) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        Some(u32::from_str_radix(bin, 2))
    } else if is_signed_number(s) {
        Some(s.parse::<u32>())
    } else {
        None
    };
    match number {
        Some(Ok(bits)) if bits <= max => Ok(bits),
        Some(Ok(bits)) => Err(out_of_range(bits.to_string())),
        Some(Err(_)) if s.starts_with('-') => Err(out_of_range(quoted(s))),
        Some(Err(_)) => Err(ArgumentErrorKind::MaskNotNumber { given: s.to_string(), max }.into()),
        None if s.eq_ignore_ascii_case("none") => Ok(0),
        None => {
            let mut names = s.split(',');
            let first = names.next().unwrap_or("").trim();
            if first.eq_ignore_ascii_case("all") {
                // `all`, then the filled categories: `all,-ones,-chance`.
                return names.try_fold(max, |m, name| match name.trim().strip_prefix('-') {
                    Some(filled) => Ok(m & !(1 << category_index(filled, categories)?)),
                    None => Err(ArgumentErrorKind::OpenAfterAll { given: name.trim().to_string() }.into()),
                });
            }
            std::iter::once(first).chain(names).try_fold(0, |m, name| {
                if let Some(filled) = name.trim().strip_prefix('-') {
                    return Err(ArgumentErrorKind::FilledInOpenList { given: filled.trim().to_string() }.into());
                }
                Ok(m | 1 << category_index(name, categories)?)
            })
        }
    }
}

/// Whether `s` is a whole number with or without its sign: a mask given as
/// a number. Anything else is names, some of which start with a digit
/// (`3-kind`, `1s`) or a dash (`-ones`, a filled box without `all`).
fn is_signed_number(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A category name as people write it: its letters and digits in lower
/// case, with the usual other spellings mapped to the names used here.
fn category_key(name: &str) -> String {
    let key: String = name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
    let usual = match key.as_str() {
        "aces" | "1s" => "ones",
        "deuces" | "2s" => "twos",
        "treys" | "3s" => "threes",
        "4s" => "fours",
        "5s" => "fives",
        "6s" => "sixes",
        "onepair" | "1pair" => "pair",
        "twopair" | "2pairs" | "2pair" => "twopairs",
        "3kind" | "3ofakind" | "threeofakind" | "threeofkind" => "threekind",
        "4kind" | "4ofakind" | "fourofakind" | "fourofkind" => "fourkind",
        "5kind" | "5ofakind" | "fiveofakind" | "fiveofkind" => "fivekind",
        "3pairs" => "threepairs",
        "maxi" => "maxiyatzy",
        "fh" => "fullhouse",
        "smstraight" | "sstraight" | "smallstr" => "smallstraight",
        "lgstraight" | "lstraight" | "largestr" | "bigstraight" => "largestraight",
        _ => return key,
    };
    usual.to_string()
}

/// The mask bit of a category name, as people write it: in any case, with
/// spaces, `_` or `-` or nothing between words (`Full House`, `fullhouse`,
/// `small_straight`), and the usual other spellings (`3-kind`,
/// `three-of-a-kind`, `aces`, `1s`).
pub(crate) fn category_index(name: &str, categories: &[&str]) -> Result<u8, ArgumentError> {
    let name = name.trim();
    let key = category_key(name);
    categories.iter().position(|&c| category_key(c) == key).map(|i| i as u8).ok_or_else(|| {
        let categories = categories.iter().map(|c| c.to_string()).collect();
        ArgumentErrorKind::UnknownCategory { given: name.to_string(), categories }.into()
    })
}
/// Fills the value of every partial keep from the roll values
/// (expected points, or chances of reaching a target: any value a keep
/// averages) `values[lattice.partial..]`: the solver's arithmetic, keep by
/// keep, for five dice or six.
pub(crate) fn keep_values(lattice: &KeepLattice, values: &mut [f64]) {
    for g in (0..lattice.partial).rev() {
        let n = lattice.plus_face[g].map(usize::from);
        values[g] = (values[n[0]] + values[n[1]] + values[n[2]] + values[n[3]] + values[n[4]] + values[n[5]]) * SIXTH;
    }
}

/// Each roll's value with one more reroll: the best of keeping all its
/// dice (its value now) and every partial keep inside it, written over the
/// roll values. `scratch` holds `lattice.partial` values.
pub(crate) fn best_values(lattice: &KeepLattice, values: &mut [f64], scratch: &mut [f64]) {
    for &(g, distinct) in &lattice.order {
        let g = usize::from(g);
        let mut best = values[g];
        for &smaller in &lattice.minus_face[g][..usize::from(distinct)] {
            let other = scratch[usize::from(smaller)];
            best = if other > best { other } else { best };
        }
        if g < lattice.partial {
            scratch[g] = best;
        } else {
            values[g] = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_mask;

    const SHEET: [&str; 4] = ["ones", "twos", "three-kind", "full-house"];

    #[test]
    fn masks_are_numbers_or_names_even_names_that_start_with_a_digit() {
        assert_eq!(parse_mask("3-kind,1s", &SHEET).ok(), Some(0b101));
        assert_eq!(parse_mask("3 of a kind, Full House", &SHEET).ok(), Some(0b1100));
        assert_eq!(parse_mask("all,-2s", &SHEET).ok(), Some(0b1101));
        assert_eq!(parse_mask("0b11", &SHEET).ok(), Some(3));
        assert_eq!(parse_mask("+15", &SHEET).ok(), Some(15));
        assert!(parse_mask("16", &SHEET).unwrap_err().to_string().contains("out of range"));
        assert!(parse_mask("-1", &SHEET).unwrap_err().to_string().contains("out of range"));
        let filled_first = parse_mask("-ones", &SHEET).unwrap_err().to_string();
        assert!(!filled_first.contains("out of range"), "{filled_first}");
        assert!(parse_mask("12abc", &SHEET).unwrap_err().to_string().contains("unknown category"));
    }
}
