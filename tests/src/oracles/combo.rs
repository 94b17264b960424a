//! combo by brute force: memoised over (sorted dice, rerolls left).

use rustc_hash::FxHashMap as HashMap;

use crate::{over_throws, throw_outcomes};

/// The final score of five combo dice, straight from the rules: the sum plus
/// 70 for five of a kind, 60 for 1-5 or 2-6, 50 for 3+2, 40 for 4+1, 30 for 3+1+1.
pub fn combo_score(dice: &[u8; 5]) -> f64 {
    let mut sorted = *dice;
    sorted.sort_unstable();
    let mut runs: Vec<usize> = Vec::new();
    for (i, d) in sorted.iter().enumerate() {
        if i > 0 && sorted[i - 1] == *d {
            *runs.last_mut().unwrap() += 1;
        } else {
            runs.push(1);
        }
    }
    runs.sort_unstable();
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let bonus = if runs == [5] {
        70
    } else if sorted == [1, 2, 3, 4, 5] || sorted == [2, 3, 4, 5, 6] {
        60
    } else if runs == [2, 3] {
        50
    } else if runs == [1, 4] {
        40
    } else if runs == [1, 1, 3] {
        30
    } else {
        0
    };
    f64::from(sum + bonus)
}

/// Brute-force combo: memoised recursion over (sorted dice, rerolls left),
/// every lock subset, every ordered outcome of the rerolled dice.
pub struct BruteCombo {
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    memo: HashMap<([u8; 5], u8), f64>,
}

impl Default for BruteCombo {
    fn default() -> Self {
        BruteCombo { outcomes: (0..=5).map(throw_outcomes).collect(), memo: HashMap::default() }
    }
}

impl BruteCombo {
    /// Expected final score of keeping `kept` and throwing the rest with
    /// `rerolls` left before the throw.
    pub fn keep_value(&mut self, kept: &[u8], rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5 - kept.len()].clone();
        over_throws(&outcomes, kept, |dice| self.value(dice, rerolls - 1))
    }

    /// Expected final score with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mut dice: [u8; 5], rerolls: u8) -> f64 {
        dice.sort_unstable();
        if let Some(&v) = self.memo.get(&(dice, rerolls)) {
            return v;
        }
        // Locking all five ends the game.
        let mut best = combo_score(&dice);
        if rerolls > 0 {
            for lock in 0u32..31 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                best = best.max(self.keep_value(&kept, rerolls));
            }
        }
        self.memo.insert((dice, rerolls), best);
        best
    }

    /// Expected final score before the initial roll.
    pub fn game_start(&mut self, rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5].clone();
        outcomes.iter().map(|(d, p)| p * self.value(d.as_slice().try_into().unwrap(), rerolls)).sum()
    }
}
