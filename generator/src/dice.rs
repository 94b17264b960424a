//! Dice combinatorics shared by every game: the multisets of n dice in rank
//! order, how likely each is to come up, and the keep/reroll transition.
//! Ranks and parsing belong to the reader's `dice` module, which the tables are
//! indexed by; this module adds what only solving needs.

pub use dice_tables_reader::dice::{multiset_count, Dice, FACES, MAX_DICE};

/// The multisets of `n` dice, in rank order.
pub fn multisets(n: usize) -> Vec<Dice> {
    (0..multiset_count(n)).map(|r| Dice::unrank(n, r).expect("rank in range")).collect()
}

/// The probability that `n` fair dice thrown together show this multiset:
/// the multinomial `n! / prod(count_f!)` over `6^n`.
pub fn probability(dice: &Dice) -> f64 {
    let factorial = |k: u8| (1..=u64::from(k)).product::<u64>();
    let orderings = factorial(dice.len() as u8) / dice.counts().iter().map(|&c| factorial(c)).product::<u64>();
    orderings as f64 / 6f64.powi(dice.len() as i32)
}

/// The keep/reroll transition for games that keep any sub-multiset of a
/// fixed number of dice and reroll the rest (yazy, the combination game).
///
/// Keeps are indexed by graded rank (all keeps of 0 dice, then of 1, ...), so
/// the keeps of `dice - 1` or fewer dice are `0..partial`, and the whole
/// roll `r` is keep `partial + r`.
pub struct KeepGraph {
    /// Dice per roll.
    pub dice: usize,
    /// Keeps of fewer than `dice` dice.
    pub partial: usize,
    /// For each partial keep, the keep with one more die of each face.
    pub plus_face: Vec<[u16; FACES]>,
    /// For each roll (by rank), its distinct partial keeps.
    pub partial_keeps_of: Vec<Vec<u16>>,
    /// The probability of each roll of `dice` fresh dice.
    pub roll_probability: Vec<f64>,
}

impl KeepGraph {
    /// The graph for rolls of `dice` dice.
    pub fn new(dice: usize) -> KeepGraph {
        let partial: usize = (0..dice).map(multiset_count).sum();
        let plus_face = (0..partial)
            .map(|g| {
                let keep = Dice::graded_unrank(g).expect("graded rank in range");
                std::array::from_fn(|f| keep.with(f as u8 + 1).expect("fewer than six dice").graded_rank() as u16)
            })
            .collect();
        let rolls = multisets(dice);
        let partial_keeps_of = rolls
            .iter()
            .map(|roll| {
                roll.sub_multisets().filter(|k| k.len() < dice).map(|k| k.graded_rank() as u16).collect()
            })
            .collect();
        let roll_probability = rolls.iter().map(probability).collect();
        KeepGraph { dice, partial, plus_face, partial_keeps_of, roll_probability }
    }

    /// The expected value of every partial keep when the rerolled dice are
    /// thrown and `after_reroll[r]` is what roll `r` is then worth. A keep of
    /// k dice is the average over the next die's face of the keep of k + 1
    /// dice, so the whole table costs 6 additions a keep.
    pub fn keep_values(&self, after_reroll: &[f64], out: &mut [f64]) {
        debug_assert_eq!(after_reroll.len(), multiset_count(self.dice));
        debug_assert_eq!(out.len(), self.partial);
        let value = |out: &[f64], g: usize| if g < self.partial { out[g] } else { after_reroll[g - self.partial] };
        for g in (0..self.partial).rev() {
            let sum: f64 = self.plus_face[g].iter().map(|&next| value(out, usize::from(next))).sum();
            out[g] = sum / FACES as f64;
        }
    }

    /// For each roll, the best of keeping everything (worth `keep_all[r]`)
    /// and each partial keep (worth `keep_value[g]`): the value, and the best
    /// keep's graded rank (`None` = keep all). Ties go to keeping all, then to
    /// the first keep in sub-multiset order.
    pub fn best_keep(&self, roll: usize, keep_all: f64, keep_value: &[f64]) -> (f64, Option<u16>) {
        let mut best = (keep_all, None);
        for &g in &self.partial_keeps_of[roll] {
            let v = keep_value[usize::from(g)];
            if v > best.0 {
                best = (v, Some(g));
            }
        }
        best
    }

    /// The expected value of a fresh roll of all the dice.
    pub fn fresh_roll_value(&self, roll_value: &[f64]) -> f64 {
        self.roll_probability.iter().zip(roll_value).map(|(p, v)| p * v).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_sum_to_one() {
        for n in 0..=MAX_DICE {
            let total: f64 = multisets(n).iter().map(probability).sum();
            assert!((total - 1.0).abs() < 1e-12, "n = {n}: {total}");
        }
        assert_eq!(probability(&"11111".parse().unwrap()), 1.0 / 7776.0);
        assert_eq!(probability(&"12345".parse().unwrap()), 120.0 / 7776.0);
    }

    #[test]
    fn keep_values_average_over_rerolled_dice() {
        // Rolls worth their sum: keeping k dice is worth their sum plus 3.5 a rerolled die.
        let graph = KeepGraph::new(5);
        let sums: Vec<f64> = multisets(5).iter().map(|d| f64::from(d.sum())).collect();
        let mut kv = vec![0.0; graph.partial];
        graph.keep_values(&sums, &mut kv);
        for (g, v) in kv.iter().enumerate() {
            let keep = Dice::graded_unrank(g).unwrap();
            let expected = f64::from(keep.sum()) + 3.5 * (5 - keep.len()) as f64;
            assert!((v - expected).abs() < 1e-12, "{keep}: {v} vs {expected}");
        }
        assert_eq!(graph.partial, 210);
        assert_eq!(graph.partial_keeps_of[Dice::rank(&"12345".parse().unwrap())].len(), 31);
    }
}
