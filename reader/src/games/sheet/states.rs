//! The turn-start states a target table stores, one per distinct future:
//! per (mask, flag) row, the upper totals the filled upper boxes can make,
//! except that every total from which the bonus is out of reach shares one
//! state (nothing to come depends on it).

use super::rules::{reachable_capped_totals, Scoring, BONUS_AT, UPPER_MASK, UPPER_TOTALS};
use crate::dice::FACES;

/// The states of one score-sheet game, numbered: masks ascending, then the
/// flag (yahtzee only: whether the yahtzee box holds 50, only where the box
/// is filled), then the upper total's stand-in ascending.
#[derive(Clone, Debug)]
pub struct SheetStates {
    flags: usize,
    /// Per filled-upper set (bit `f` for face `f + 1`): the stand-in totals (bit `u`).
    stand_ins: [u64; 64],
    /// Per filled-upper set: the highest total from which the bonus is out
    /// of reach (every total up to it stands in as it), or -1.
    flat: [i8; 64],
    /// Per row (mask * flags + flag): its first state's number; `u32::MAX`
    /// for a row no game reaches.
    row_first: Vec<u32>,
    states: usize,
}

impl SheetStates {
    /// The states of a game scored by `scoring`.
    pub fn new(scoring: &Scoring) -> SheetStates {
        let categories = scoring.categories.len();
        let flags = if scoring.joker.is_some() { 2 } else { 1 };
        let mut stand_ins = [0u64; 64];
        let mut flat = [-1i8; 64];
        for set in 0..64u32 {
            // Points the open upper boxes can still add: five of their face each.
            let still: i32 = (0..FACES as u32).filter(|f| set >> f & 1 == 0).map(|f| 5 * (f as i32 + 1)).sum();
            let f = i32::from(BONUS_AT) - 1 - still;
            flat[set as usize] = f.max(-1) as i8;
            let reachable = reachable_capped_totals(set);
            for u in (0..UPPER_TOTALS).filter(|u| reachable >> u & 1 == 1) {
                let stand_in = if (u as i32) <= f { f as usize } else { u };
                stand_ins[set as usize] |= 1 << stand_in;
            }
        }
        let mut row_first = Vec::with_capacity((1 << categories) * flags);
        let mut states = 0usize;
        for mask in 0..1u32 << categories {
            let set = (!mask & UPPER_MASK) as usize;
            for flag in 0..flags {
                let exists = flag == 0 || scoring.joker.is_some_and(|(b, _)| mask >> b & 1 == 0);
                if exists {
                    row_first.push(states as u32);
                    states += stand_ins[set].count_ones() as usize;
                } else {
                    row_first.push(u32::MAX);
                }
            }
        }
        SheetStates { flags, stand_ins, flat, row_first, states }
    }

    /// The states of a game scored by `scoring`, built once per process:
    /// they depend only on the game (yatzy, or yahtzee under either joker
    /// reading), and a lookup's open needs them twice.
    pub fn of(scoring: &Scoring) -> &'static SheetStates {
        static YATZY: std::sync::OnceLock<SheetStates> = std::sync::OnceLock::new();
        static YAHTZEE: std::sync::OnceLock<SheetStates> = std::sync::OnceLock::new();
        let cell = if scoring.joker.is_some() { &YAHTZEE } else { &YATZY };
        cell.get_or_init(|| SheetStates::new(scoring))
    }

    /// States in all.
    pub fn len(&self) -> usize {
        self.states
    }

    /// Whether there are none (never: mask 0 has a state).
    pub fn is_empty(&self) -> bool {
        self.states == 0
    }

    /// Flags a mask has: 2 for yahtzee, else 1.
    pub fn flags(&self) -> usize {
        self.flags
    }

    /// The number of state (mask, flag, capped upper total `upper`); `None`
    /// when no game reaches it.
    pub fn id(&self, mask: u32, flag: bool, upper: u8) -> Option<usize> {
        let row = *self.row_first.get(mask as usize * self.flags + usize::from(flag))?;
        let set = (!mask & UPPER_MASK) as usize;
        let reachable = reachable_capped_totals(set as u32);
        if row == u32::MAX || upper > BONUS_AT || reachable >> upper & 1 == 0 {
            return None;
        }
        Some(row as usize + self.rank(set, upper))
    }

    /// The number of a state reached in play, with no check: `upper` is a
    /// total the filled boxes can make, capped at 63.
    #[inline]
    pub fn id_unchecked(&self, mask: u32, flag: bool, upper: u8) -> usize {
        let row = self.row_first[mask as usize * self.flags + usize::from(flag)] as usize;
        row + self.rank((!mask & UPPER_MASK) as usize, upper)
    }

    /// The position of `upper`'s stand-in among its set's.
    #[inline]
    fn rank(&self, set: usize, upper: u8) -> usize {
        let stand_in =
            if i32::from(upper) <= i32::from(self.flat[set]) { self.flat[set] as u32 } else { u32::from(upper) };
        (self.stand_ins[set] & ((1u64 << stand_in) - 1)).count_ones() as usize
    }

    /// The stand-in totals of a row's states, ascending (each state's upper
    /// total as the solver takes it).
    pub fn row_totals(&self, mask: u32) -> impl Iterator<Item = u8> + '_ {
        let set = (!mask & UPPER_MASK) as usize;
        (0..UPPER_TOTALS as u8).filter(move |&u| self.stand_ins[set] >> u & 1 == 1)
    }

    /// The first state of row (mask, flag), if a game reaches it.
    pub fn row_first(&self, mask: u32, flag: bool) -> Option<usize> {
        let row = self.row_first[mask as usize * self.flags + usize::from(flag)];
        (row != u32::MAX).then_some(row as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::sheet::{yahtzee, Joker, YATZY};

    #[test]
    fn every_reachable_state_has_one_number() {
        for scoring in [YATZY, yahtzee(Joker::Forced)] {
            let states = SheetStates::new(&scoring);
            let mut seen = vec![false; states.len()];
            for mask in 0..1u32 << scoring.categories.len() {
                for flag in 0..states.flags() {
                    let Some(first) = states.row_first(mask, flag == 1) else { continue };
                    let count = states.row_totals(mask).count();
                    let reachable = reachable_capped_totals(!mask & UPPER_MASK);
                    for u in 0..64u8 {
                        let id = states.id(mask, flag == 1, u);
                        assert_eq!(id.is_some(), reachable >> u & 1 == 1, "mask {mask} u {u}");
                        if let Some(id) = id {
                            assert!(id >= first && id < first + count);
                            assert_eq!(states.id_unchecked(mask, flag == 1, u), id);
                            seen[id] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
