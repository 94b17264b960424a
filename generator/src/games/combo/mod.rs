//! combo, the five-rerolls combination game.
//!
//! Five dice: an initial roll, then up to `rerolls` rerolls (default 5), each
//! keeping any sub-multiset; keeping all five ends the game. The final dice
//! score their sum plus a bonus: five of a kind +70, a straight (1-5 or 2-6)
//! +60, full house (3+2) +50, four of a kind (4+1) +40, three of a kind
//! (3+1+1) +30, anything else +0. Maximise the expected final score.
//!
//! It is one yazy turn with another score: the same [`KeepGraph`](crate::dice::KeepGraph) solves it.

use dice_tables_reader::combo::{
    Combo, Rules, BEST_KEEP, FINAL_SCORE, GAME_START, KEEP_ALL, KEEP_VALUE, ROLLS, ROLL_VALUE,
};
use dice_tables_reader::Dice;

use crate::artifact::{le_bytes, Section};
use crate::dice::{multisets, FIVE_DICE, NONE};
use crate::solved::Solved;

/// The final score of five dice.
pub fn final_score(dice: &Dice) -> u8 {
    let mut counts: Vec<u8> = dice.counts().into_iter().filter(|&c| c > 0).collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    let sum = dice.sum() as u8;
    let straight = counts.len() == 5 && (dice.count(1) == 0 || dice.count(6) == 0);
    let bonus = match counts.as_slice() {
        [5] => 70,
        _ if straight => 60,
        [3, 2] => 50,
        [4, 1] => 40,
        [3, 1, 1] => 30,
        _ => 0,
    };
    sum + bonus
}

/// Everything the table holds.
pub struct Solution {
    /// The rerolls of the rules solved.
    pub rerolls: u8,
    /// The expected final score before the initial roll.
    pub game_start: f64,
    /// Per roll: its final score (what stopping gives).
    pub final_score: Vec<u8>,
    /// Per (rerolls left, roll), rerolls left 0..=R: the expected final score.
    pub roll_value: Vec<f64>,
    /// Per (rerolls left - 1, roll): the best keep's graded rank, or KEEP_ALL.
    pub best_keep: Vec<u8>,
    /// Per (rerolls left - 1, partial keep): its expected final score.
    pub keep_value: Vec<f64>,
}

/// Solves every state: the reroll levels of one turn, from the final scores.
pub fn solve(rerolls: u8) -> Solution {
    let graph = &*FIVE_DICE;
    let final_score: Vec<u8> = multisets(5).iter().map(self::final_score).collect();
    let stop_value: Vec<f64> = final_score.iter().map(|&s| f64::from(s)).collect();
    let mut roll_value = stop_value.clone();
    let (mut best_keep, mut keep_value) = (Vec::new(), Vec::new());
    let mut buffers = graph.buffers();
    let start = graph.solve_rerolls(rerolls, &stop_value, &mut buffers, |keeps, values, best| {
        keep_value.extend_from_slice(keeps);
        roll_value.extend_from_slice(values);
        best_keep.extend(best.iter().map(|&g| if g == NONE { KEEP_ALL } else { g as u8 }));
    });
    let game_start = graph.fresh_roll_value(start);
    Solution { rerolls, game_start, final_score, roll_value, best_keep, keep_value }
}

impl Solution {
    /// States: every (roll, rerolls left).
    pub fn states(&self) -> u64 {
        (ROLLS * (usize::from(self.rerolls) + 1)) as u64
    }

    /// The table's sections.
    pub fn into_sections(self) -> Vec<Section> {
        let rules = Rules { rerolls: self.rerolls };
        vec![
            Section::of(&GAME_START, &rules, self.game_start.to_le_bytes().to_vec()),
            Section::of(&FINAL_SCORE, &rules, self.final_score),
            Section::of(&ROLL_VALUE, &rules, le_bytes(&self.roll_value, f64::to_le_bytes)),
            Section::of(&BEST_KEEP, &rules, self.best_keep),
            Section::of(&KEEP_VALUE, &rules, le_bytes(&self.keep_value, f64::to_le_bytes)),
        ]
    }
}

/// The combo table under `rules`.
pub fn solve_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solution = solve(rules.combo.rerolls);
    progress(1, 1);
    Solved::new::<Combo>(&rules.combo, solution.states(), solution.into_sections())
}

/// A player of combo: given the dice showing and the rerolls left (at least
/// one), the dice to keep; keeping all five stops.
pub trait Player {
    /// The dice to keep of `dice` with `rerolls_left` rerolls left.
    fn keep(&self, dice: Dice, rerolls_left: u8) -> Dice;
}

/// The exact distribution of the final score (index = score, 0..=100) when
/// `player` plays a game with `rerolls` rerolls: every roll and every reroll
/// outcome is followed with its probability, no sampling.
pub fn score_distribution(player: &impl Player, rerolls: u8) -> Vec<f64> {
    let mut dist = vec![0.0; 101];
    // Probability mass on each (roll, rerolls left) state, rerolls left from R down.
    let mut mass: Vec<(Dice, f64)> = multisets(5).into_iter().map(|d| (d, d.probability())).collect();
    for left in (0..=rerolls).rev() {
        let mut next: std::collections::BTreeMap<Dice, f64> = std::collections::BTreeMap::new();
        for (dice, p) in mass {
            let keep = if left == 0 { dice } else { player.keep(dice, left) };
            if keep.len() == 5 {
                dist[usize::from(final_score(&dice))] += p;
                continue;
            }
            for thrown in multisets(5 - keep.len()) {
                let mut counts = keep.counts();
                for (c, t) in counts.iter_mut().zip(thrown.counts()) {
                    *c += t;
                }
                let landed = Dice::from_counts(counts).expect("five dice");
                *next.entry(landed).or_default() += p * thrown.probability();
            }
        }
        mass = next.into_iter().collect();
    }
    dist
}

/// Mean, standard deviation and chance of scoring below `low` of a score distribution.
pub fn summary(dist: &[f64], low: usize) -> (f64, f64, f64) {
    let mean: f64 = dist.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
    let var: f64 = dist.iter().enumerate().map(|(s, p)| (s as f64 - mean).powi(2) * p).sum();
    (mean, var.sqrt(), dist[..low].iter().sum())
}

/// The seed's first hand-written strategy, as its text describes it (before
/// its "improvement"), played on the multiset of dice:
/// - five of a kind, full house, a straight: stop;
/// - four of a kind: reroll the odd die;
/// - three of a kind: reroll the two odd dice;
/// - two pairs: keep the higher pair and any die above it, reroll the rest;
/// - one pair: keep the pair, reroll the other three;
/// - five different with both 1 and 6: reroll the 1.
pub struct SeedHeuristic;

impl Player for SeedHeuristic {
    fn keep(&self, dice: Dice, _rerolls_left: u8) -> Dice {
        let counts = dice.counts();
        let faces_with = |n: u8| (1..=6u8).filter(move |&f| counts[usize::from(f - 1)] == n);
        let only = |face: u8| {
            Dice::from_counts(std::array::from_fn(|i| if i + 1 == usize::from(face) { counts[i] } else { 0 }))
        };
        let distinct = counts.iter().filter(|&&c| c > 0).count();
        match distinct {
            1 => dice,
            2 if faces_with(4).next().is_some() => only(faces_with(4).next().expect("four")).expect("dice"),
            2 => dice,
            3 if faces_with(3).next().is_some() => only(faces_with(3).next().expect("three")).expect("dice"),
            3 => {
                let high_pair = faces_with(2).max().expect("two pairs");
                let kept: Vec<u8> = dice.faces().filter(|&f| f >= high_pair).collect();
                Dice::from_faces(&kept).expect("dice")
            }
            4 => only(faces_with(2).next().expect("one pair")).expect("dice"),
            _ if dice.count(1) == 1 && dice.count(6) == 1 => {
                let kept: Vec<u8> = dice.faces().filter(|&f| f != 1).collect();
                Dice::from_faces(&kept).expect("dice")
            }
            _ => dice,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(d: &str) -> u8 {
        final_score(&d.parse().unwrap())
    }

    #[test]
    fn scoring_rules() {
        assert_eq!(score("66666"), 100);
        assert_eq!(score("12345"), 75);
        assert_eq!(score("65432"), 80);
        assert_eq!(score("12346"), 16);
        assert_eq!(score("33322"), 63);
        assert_eq!(score("44441"), 57);
        assert_eq!(score("11123"), 38);
        assert_eq!(score("11223"), 9);
        assert_eq!(score("11234"), 11);
    }

    #[test]
    fn published_values() {
        let expected = [26.736111, 40.605317, 50.747703, 58.208849, 63.892649, 68.412950, 72.168837];
        for (r, e) in expected.iter().enumerate() {
            let v = solve(r as u8).game_start;
            assert!((v - e).abs() < 1e-6, "{r} rerolls: {v} vs {e}");
        }
    }

    #[test]
    fn seed_heuristic_moves() {
        let keep = |d: &str| SeedHeuristic.keep(d.parse().unwrap(), 3).to_string();
        assert_eq!(keep("33333"), "33333");
        assert_eq!(keep("33332"), "3333");
        assert_eq!(keep("33322"), "22333");
        assert_eq!(keep("33312"), "333");
        assert_eq!(keep("22551"), "55");
        assert_eq!(keep("22336"), "336");
        assert_eq!(keep("12245"), "22");
        assert_eq!(keep("12346"), "2346");
        assert_eq!(keep("23456"), "23456");
    }
}

#[cfg(test)]
mod distribution_tests {
    use super::*;

    /// The policy in a solution, without going through a file.
    struct Solved<'a>(&'a Solution);

    impl Player for Solved<'_> {
        fn keep(&self, dice: Dice, left: u8) -> Dice {
            let code = self.0.best_keep[usize::from(left - 1) * ROLLS + dice.rank()];
            if code == KEEP_ALL {
                dice
            } else {
                Dice::graded_unrank(usize::from(code)).unwrap()
            }
        }
    }

    #[test]
    fn the_exact_distribution_of_optimal_play_has_the_table_mean() {
        let sol = solve(5);
        let dist = score_distribution(&Solved(&sol), 5);
        assert!((dist.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let (mean, sd, low) = summary(&dist, 38);
        assert!((mean - sol.game_start).abs() < 1e-9, "{mean} vs {}", sol.game_start);
        assert!(sd > 10.0 && sd < 30.0 && low > 0.0 && low < 0.2);
    }
}
