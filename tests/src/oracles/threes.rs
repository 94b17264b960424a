//! threes by brute force, from the rules alone.

use crate::throw_outcomes;

/// Brute-force threes, from the rules alone: a turn DP over (points, dice
/// left) that tries every keep count on every outcome of every throw, and
/// the survival of a final total against the later players built from it.
pub struct BruteThrees {
    ties_win: bool,
    sequential: bool,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    /// Per players after j (sequential) or 0 (independent): the chance a
    /// later player kills each total 0..=30.
    kill: Vec<[f64; 31]>,
}

/// A turn solved for every (points 0..=60, dice 0..=5): (chance of success,
/// chance of the event) per state, at `points * 6 + dice`.
pub struct BruteTurn(Vec<(f64, f64)>);

impl BruteTurn {
    pub fn get(&self, points: u8, dice: u8) -> (f64, f64) {
        self.0[usize::from(points) * 6 + usize::from(dice)]
    }
}

/// A die's worth in threes.
pub fn threes_worth(face: u8) -> u8 {
    if face == 3 {
        0
    } else {
        face
    }
}

impl BruteThrees {
    pub fn new(ties_win: bool, sequential: bool) -> BruteThrees {
        let mut brute =
            BruteThrees { ties_win, sequential, outcomes: (0..=5).map(throw_outcomes).collect(), kill: vec![] };
        if !sequential {
            // A later player plays a fresh turn only to end below t (ties
            // win) or at or below t (ties lose), as likely as possible.
            let kill = std::array::from_fn(|t| {
                let target = |u: u8| if (ties_win && u < t as u8) || (!ties_win && u <= t as u8) { 1.0 } else { 0.0 };
                brute.turn(&target, &|_| 0.0).get(0, 5).0
            });
            brute.kill.push(kill);
        }
        brute
    }

    /// The chance that `after` later players all fail to kill a final `total`.
    pub fn survival(&mut self, after: u8, total: u8) -> f64 {
        if total > 30 {
            return if after == 0 { 1.0 } else { 0.0 };
        }
        if !self.sequential {
            return (1.0 - self.kill[0][usize::from(total)]).powi(i32::from(after));
        }
        while self.kill.len() < usize::from(after) {
            let j = self.kill.len() as u8;
            // The next player after has j players after them and faces t.
            let kill = std::array::from_fn(|t| self.solve(Some(t as u8), j).get(0, 5).1);
            self.kill.push(kill);
        }
        (0..usize::from(after)).map(|j| 1.0 - self.kill[j][usize::from(total)]).product()
    }

    /// Solves a player facing `record` with `after` players after: success
    /// chances, and the chance of ending where a record of `record` is
    /// killed (below it, ties win; at or below, ties lose).
    pub fn solve(&mut self, record: Option<u8>, after: u8) -> BruteTurn {
        let ties_win = self.ties_win;
        let survival: Vec<f64> = (0..=60).map(|t| self.survival(after, t)).collect();
        let success = |t: u8| {
            let beats = match record {
                None => true,
                Some(r) => (ties_win && t <= r) || (!ties_win && t < r),
            };
            if beats {
                survival[usize::from(t)]
            } else {
                0.0
            }
        };
        let event = |t: u8| match record {
            Some(r) if (ties_win && t < r) || (!ties_win && t <= r) => 1.0,
            _ => 0.0,
        };
        self.turn(&success, &event)
    }

    fn turn(&self, success: &dyn Fn(u8) -> f64, event: &dyn Fn(u8) -> f64) -> BruteTurn {
        let mut table = vec![(0.0, 0.0); 61 * 6];
        for dice in 0..=5usize {
            for points in (0..=60usize).rev() {
                // Past 30 points nothing more can change, whatever is kept.
                table[points * 6 + dice] = if dice == 0 || points > 30 {
                    (success(points as u8), event(points as u8))
                } else {
                    let mut total = (0.0, 0.0);
                    for (faces, p) in &self.outcomes[dice] {
                        let (_, chosen) = self.choose(&table, points as u8, faces);
                        total.0 += p * chosen.0;
                        total.1 += p * chosen.1;
                    }
                    total
                };
            }
        }
        BruteTurn(table)
    }

    /// The model's choice for a throw: keep the c lowest-worth dice for the
    /// best chance, c = 1.., a larger c only when better by more than 1e-12.
    /// Returns c and the chosen (success, event).
    fn choose(&self, table: &[(f64, f64)], points: u8, faces: &[u8]) -> (usize, (f64, f64)) {
        let mut worths: Vec<u8> = faces.iter().map(|&f| threes_worth(f)).collect();
        worths.sort_unstable();
        let mut best = (0, (f64::NEG_INFINITY, 0.0));
        let mut kept = points;
        for c in 1..=worths.len() {
            kept += worths[c - 1];
            let option = if kept > 60 { (0.0, 0.0) } else { table[usize::from(kept) * 6 + worths.len() - c] };
            if option.0 > best.1 .0 + 1e-12 {
                best = (c, option);
            }
        }
        best
    }

    /// The model's keep count for `faces` thrown at `points`, in a solved turn.
    pub fn best_keep(&self, turn: &BruteTurn, points: u8, faces: &[u8]) -> usize {
        self.choose(&turn.0, points, faces).0
    }
}
