//! Brute-force two-player 10000, sharing no code with the generator: every
//! keep of every throw (from the rules, by trying every subset of the dice),
//! each turn a memo over (dice, turn score), and each pair of totals with its
//! partner solved by regula falsi (the Illinois variant) on the partner's
//! chance, pairs taken by descending sum of totals.

use crate::{keeps_under, throw_outcomes, TenkScoring};

type Keeps = Vec<(Vec<u8>, u32, usize)>;

/// A solved duel: `win[a * n + b]`, totals in steps of 50.
pub struct BruteDuel {
    scoring: TenkScoring,
    pub goal: u32,
    pub entry: u32,
    n: usize,
    /// Per d: every throw's keeps and its chance.
    throws: Vec<Vec<(Keeps, f64)>>,
    pub win: Vec<f64>,
}

impl BruteDuel {
    pub fn solve(scoring: TenkScoring, goal: u32, entry: u32) -> BruteDuel {
        let throws = (0..=6)
            .map(|d| throw_outcomes(d).into_iter().map(|(t, p)| (keeps_under(&t, scoring), p)).collect())
            .collect();
        let n = (goal / 50) as usize;
        let mut duel = BruteDuel { scoring, goal, entry, n, throws, win: vec![f64::NAN; n * n] };
        for sum in (0..=2 * (n - 1)).rev() {
            for a in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
                let b = sum - a;
                if a > b {
                    continue;
                }
                // The mover's chance at (a, b) given the partner's chance v at (b, a).
                let u_of = |duel: &BruteDuel, v: f64| duel.turn(a, b, 1.0 - v).start;
                let (u, v) = if a == b {
                    let u = illinois(|u| u_of(&duel, u) - u);
                    (u, u)
                } else {
                    let v = illinois(|v| duel.turn(b, a, 1.0 - u_of(&duel, v)).start - v);
                    (u_of(&duel, v), v)
                };
                duel.win[a * n + b] = u;
                duel.win[b * n + a] = v;
            }
        }
        duel
    }

    /// An evaluator of turns over given chances (a table's, to check its
    /// lookups inside turns where solving every pair here would take long).
    pub fn over(scoring: TenkScoring, goal: u32, entry: u32, win: Vec<f64>) -> BruteDuel {
        let throws = (0..=6)
            .map(|d| throw_outcomes(d).into_iter().map(|(t, p)| (keeps_under(&t, scoring), p)).collect())
            .collect();
        let n = (goal / 50) as usize;
        assert_eq!(win.len(), n * n);
        BruteDuel { scoring, goal, entry, n, throws, win }
    }

    /// The chance that the mover wins at the start of a turn, totals in points.
    pub fn win_chance(&self, a: u32, b: u32) -> f64 {
        self.win[(a / 50) as usize * self.n + (b / 50) as usize]
    }

    /// The turn of pair (a, b) with bust value `bust`, from the chances of
    /// the pairs with a larger sum.
    fn turn(&self, a: usize, b: usize, bust: f64) -> BruteTurn {
        let winning = self.n - a;
        let mut throw = vec![[0.0; 7]; winning];
        let mut turn = BruteTurn { a, b, winning, start: 0.0, throw: Vec::new() };
        for s in (0..winning).rev() {
            for d in 1..=6 {
                let mut total = 0.0;
                for (keeps, p) in &self.throws[d] {
                    let best = keeps
                        .iter()
                        .map(|&(_, points, left)| self.after_keep(&turn, &throw, s + (points / 50) as usize, left))
                        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
                    total += p * best.unwrap_or(bust);
                }
                throw[s][d] = total;
            }
        }
        turn.start = throw[0][6];
        turn.throw = throw;
        turn
    }

    /// With turn score s (steps) after a keep and `left` dice to throw: the
    /// better of banking (where allowed) and throwing on.
    fn after_keep(&self, turn: &BruteTurn, throw: &[[f64; 7]], s: usize, left: usize) -> f64 {
        if s >= turn.winning {
            return 1.0;
        }
        let throw_on = throw[s][left];
        if turn.a == 0 && (s as u32) * 50 < self.entry {
            return throw_on;
        }
        throw_on.max(1.0 - self.win[turn.b * self.n + turn.a + s])
    }

    /// Every keep of a throw (sorted faces) at turn score `score` with totals
    /// a and b (points), with the chance of winning after it.
    pub fn options(&self, a: u32, b: u32, throw: &[u8], score: u32) -> Vec<(Vec<u8>, f64)> {
        let (a, b) = ((a / 50) as usize, (b / 50) as usize);
        let turn = self.turn(a, b, 1.0 - self.win[b * self.n + a]);
        let mut sorted = throw.to_vec();
        sorted.sort_unstable();
        keeps_under(&sorted, self.scoring)
            .into_iter()
            .map(|(kept, points, left)| {
                let v = self.after_keep(&turn, &turn.throw, ((score + points) / 50) as usize, left);
                (kept, v)
            })
            .collect()
    }
}

/// One turn's memo: per turn score below the goal and dice, the chance of winning by throwing.
struct BruteTurn {
    a: usize,
    b: usize,
    winning: usize,
    start: f64,
    throw: Vec<[f64; 7]>,
}

/// The root in [0, 1] of a decreasing function with f(0) >= 0 >= f(1), to
/// the rounding of its evaluation.
fn illinois(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1.0);
    let (mut f_lo, mut f_hi) = (f(lo), f(hi));
    assert!(f_lo >= 0.0 && f_hi <= 0.0, "no root in [0, 1]: f(0) = {f_lo}, f(1) = {f_hi}");
    let mut best = if f_lo.abs() < f_hi.abs() { (lo, f_lo) } else { (hi, f_hi) };
    let mut side = 0;
    for _ in 0..100 {
        if best.1.abs() <= 2e-16 || hi - lo <= 1e-16 || f_hi == f_lo {
            break;
        }
        let x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        let fx = f(x);
        if fx.abs() < best.1.abs() {
            best = (x, fx);
        }
        if fx > 0.0 {
            (lo, f_lo) = (x, fx);
            if side == 1 {
                f_hi /= 2.0;
            }
            side = 1;
        } else {
            (hi, f_hi) = (x, fx);
            if side == -1 {
                f_lo /= 2.0;
            }
            side = -1;
        }
    }
    assert!(best.1.abs() < 1e-13, "regula falsi stopped at f({}) = {}", best.0, best.1);
    best.0
}
