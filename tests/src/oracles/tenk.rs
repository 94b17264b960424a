//! 10000 by brute force: every keep of every throw, from the rules.

use crate::throw_outcomes;

/// The points of keeping exactly the dice `kept` from a throw of `thrown`
/// dice in 10000 (the seed's scoring), from the rules; `None` when that set
/// cannot be kept. (Both a special and plain groups can apply: the best is
/// returned.)
pub fn tenk_keep_points(kept: &[u8], thrown: usize) -> Option<u32> {
    keep_points_under(kept, thrown, TenkScoring::Seed)
}

/// The two scorings of the 10000 family the tables use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TenkScoring {
    /// The seed's (003): three of a kind doubled per extra die, straight 2000.
    Seed,
    /// cardgames.io's Farkle: four/five/six of a kind 1000/2000/3000,
    /// straight 2500, four of a kind and a pair count as three pairs.
    Cardgames,
}

/// [`tenk_keep_points`] under either scoring.
pub fn keep_points_under(kept: &[u8], thrown: usize, scoring: TenkScoring) -> Option<u32> {
    if kept.is_empty() {
        return None;
    }
    let mut count = [0u32; 7];
    for &f in kept {
        count[usize::from(f)] += 1;
    }
    let mut groups = Some(0u32);
    for (face, &n) in count.iter().enumerate().skip(1) {
        let three = if face == 1 { 1000 } else { 100 * face as u32 };
        let points = match (face, n) {
            (_, 0) => Some(0),
            (1, 1) | (1, 2) => Some(100 * n),
            (5, 1) | (5, 2) => Some(50 * n),
            (_, 1) | (_, 2) => None,
            (_, 3) => Some(three),
            (_, n) => Some(match scoring {
                TenkScoring::Seed => three * 2u32.pow(n - 3),
                TenkScoring::Cardgames => 1000 * (n - 3),
            }),
        };
        groups = match (groups, points) {
            (Some(g), Some(p)) => Some(g + p),
            _ => None,
        };
    }
    let mut special = None;
    if thrown == 6 && kept.len() == 6 {
        let mut shape: Vec<u32> = count.iter().copied().filter(|&c| c > 0).collect();
        shape.sort_unstable();
        if shape.len() == 6 {
            special = Some(if scoring == TenkScoring::Seed { 2000 } else { 2500 });
        }
        if shape == [2, 2, 2] || (scoring == TenkScoring::Cardgames && shape == [2, 4]) {
            special = Some(1500);
        }
    }
    match (groups, special) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Every distinct keep of a sorted throw, as (sorted dice kept, points, dice
/// left with hot dice as 6), by trying every subset of the dice's positions.
pub fn tenk_keeps(throw: &[u8]) -> Vec<(Vec<u8>, u32, usize)> {
    keeps_under(throw, TenkScoring::Seed)
}

/// [`tenk_keeps`] under either scoring.
pub fn keeps_under(throw: &[u8], scoring: TenkScoring) -> Vec<(Vec<u8>, u32, usize)> {
    let n = throw.len();
    let mut out: Vec<(Vec<u8>, u32, usize)> = Vec::new();
    for subset in 1u32..(1 << n) {
        let kept: Vec<u8> = (0..n).filter(|i| subset >> i & 1 == 1).map(|i| throw[i]).collect();
        if let Some(points) = keep_points_under(&kept, n, scoring) {
            let left = if kept.len() == n { 6 } else { n - kept.len() };
            if !out.iter().any(|o| o.0 == kept) {
                out.push((kept, points, left));
            }
        }
    }
    out
}

/// Brute-force 10000: every keep of every throw (not only the best per dice
/// left), scores to `cap`, banking assumed past it.
pub struct BruteTenk {
    pub cap: u32,
    /// At `[d][s / 50]`: expected banked points of throwing d dice at s.
    pub value: Vec<Vec<f64>>,
    /// At `[d][s / 50]`, s < 1000: the chance of reaching 1000 this turn.
    pub reach: Vec<Vec<f64>>,
}

impl BruteTenk {
    pub fn new(cap: u32) -> BruteTenk {
        let steps = (cap / 50) as usize + 1;
        type Keeps = Vec<(Vec<u8>, u32, usize)>;
        let throws: Vec<Vec<(Keeps, f64)>> =
            (0..=6).map(|d| throw_outcomes(d).into_iter().map(|(t, p)| (tenk_keeps(&t), p)).collect()).collect();
        // Both tables: a backward pass over the score, each keep worth what
        // `after_keep(table, score index after it, dice left)` says.
        type AfterKeep<'a> = &'a dyn Fn(&[Vec<f64>], usize, usize) -> f64;
        let solve = |steps: usize, after_keep: AfterKeep| {
            let mut table = vec![vec![0.0; steps]; 7];
            for i in (0..steps).rev() {
                for d in 1..=6 {
                    let mut total = 0.0;
                    for (keeps, p) in &throws[d] {
                        let best = keeps
                            .iter()
                            .map(|&(_, points, left)| after_keep(&table, i + (points / 50) as usize, left))
                            .fold(0.0, f64::max);
                        total += p * best;
                    }
                    table[d][i] = total;
                }
            }
            table
        };
        let value = solve(steps, &|table, j, left| {
            let bank = (j * 50) as f64;
            if j >= steps {
                bank
            } else {
                bank.max(table[left][j])
            }
        });
        let reach = solve(20, &|table, j, left| if j >= 20 { 1.0 } else { table[left][j] });
        BruteTenk { cap, value, reach }
    }
}
