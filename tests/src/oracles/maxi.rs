//! An independent evaluator of Maxi Yatzy, straight from the rules: sorted
//! arrays of six faces, every lock pattern of the six dice, every outcome
//! of the rerolled dice, and memoised turn-start values, with or without
//! saved rolls. It shares nothing with the generator's solver or the
//! reader's scoring (no keep lattice, no upper-total lanes, its own box
//! scoring), and is slow on purpose.

use rustc_hash::FxHashMap as HashMap;

use crate::throw_outcomes;

/// Boxes: ones to sixes, then one pair ... maxi yatzy (the reader's order).
pub const BOXES: usize = 20;

/// Points of sorted `dice` in box `b`.
pub fn points(dice: &[u8; 6], b: usize) -> u32 {
    let count = |f: u8| dice.iter().filter(|&&d| d == f).count();
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    // Faces showing exactly / at least n times, highest first.
    let at_least = |n: usize| (1..=6u8).rev().filter(move |&f| count(f) >= n).map(u32::from);
    let exactly = |n: usize| (1..=6u8).filter(move |&f| count(f) == n).count();
    let has = |faces: &[u8]| faces.iter().all(|f| dice.contains(f));
    match b {
        0..=5 => (b as u32 + 1) * count(b as u8 + 1) as u32,
        6 => at_least(2).next().map_or(0, |f| 2 * f),
        7 => {
            let pairs: Vec<u32> = at_least(2).collect();
            if pairs.len() >= 2 {
                2 * (pairs[0] + pairs[1])
            } else {
                0
            }
        }
        8 if exactly(2) == 3 => sum,
        9 => at_least(3).next().map_or(0, |f| 3 * f),
        10 => at_least(4).next().map_or(0, |f| 4 * f),
        11 => at_least(5).next().map_or(0, |f| 5 * f),
        12 if has(&[1, 2, 3, 4, 5]) => 15,
        13 if has(&[2, 3, 4, 5, 6]) => 20,
        14 if has(&[1, 2, 3, 4, 5, 6]) => 21,
        15 => {
            let mut best = 0;
            for t in at_least(3) {
                for p in at_least(2).filter(|&p| p != t) {
                    best = best.max(3 * t + 2 * p);
                }
            }
            best
        }
        16 if exactly(3) == 2 => sum,
        17 if exactly(4) == 1 && exactly(2) == 1 => sum,
        18 => sum,
        19 if exactly(6) == 1 => 100,
        _ => 0,
    }
}

/// A Maxi Yatzy game's rules, and its turn-start values as they are asked.
pub struct BruteMaxi {
    bonus_at: u32,
    bonus: f64,
    saved_rolls: bool,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    memo: HashMap<(u32, u32, u32), f64>,
    distributions: HashMap<(u32, u32), Vec<f64>>,
}

impl BruteMaxi {
    pub fn new(bonus_at: u32, bonus: u32, saved_rolls: bool) -> BruteMaxi {
        let outcomes = (0..=6).map(throw_outcomes).collect();
        BruteMaxi {
            bonus_at,
            bonus: f64::from(bonus),
            saved_rolls,
            outcomes,
            memo: HashMap::default(),
            distributions: HashMap::default(),
        }
    }

    /// The expected points still to come from the start of a turn with the
    /// boxes of `mask` open, `upper` points in the upper boxes and `saved`
    /// rerolls saved.
    pub fn turn_start(&mut self, mask: u32, upper: u32, saved: u32) -> f64 {
        let upper = upper.min(self.bonus_at);
        if mask == 0 {
            return if upper >= self.bonus_at { self.bonus } else { 0.0 };
        }
        if let Some(&v) = self.memo.get(&(mask, upper, saved)) {
            return v;
        }
        let rerolls = if self.saved_rolls { 2 + saved } else { 2 };
        let mut turn = Turn { mask, upper, memo: HashMap::default() };
        // The first throw: nothing kept, the rerolls still to come.
        let v = self.keep(&mut turn, &[], rerolls + 1);
        self.memo.insert((mask, upper, saved), v);
        v
    }

    /// Every option of sorted `dice` with `rerolls` left in the pool, at
    /// the given turn start: (Ok(kept dice) or Err(box), value).
    pub fn options(
        &mut self,
        mask: u32,
        upper: u32,
        dice: &[u8; 6],
        rerolls: u32,
    ) -> Vec<(Result<Vec<u8>, usize>, f64)> {
        let mut turn = Turn { mask, upper: upper.min(self.bonus_at), memo: HashMap::default() };
        let mut out = Vec::new();
        for b in (0..BOXES).filter(|b| mask >> b & 1 == 1) {
            out.push((Err(b), self.score(&turn, dice, b, rerolls)));
        }
        if rerolls > 0 {
            let mut seen = Vec::new();
            for lock in 0u32..63 {
                let kept: Vec<u8> = (0..6).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                if !seen.contains(&kept) {
                    let v = self.keep(&mut turn, &kept, rerolls);
                    seen.push(kept.clone());
                    out.push((Ok(kept), v));
                }
            }
        }
        out
    }

    /// The exact decision of sorted `dice` with `rerolls` left: the first
    /// option in the lookups' tie order (boxes in mask-bit order, then
    /// larger keeps first, higher graded ranks first) within 1e-9 of the
    /// best. Ok(kept dice) or Err(box).
    pub fn decision(&mut self, mask: u32, upper: u32, dice: &[u8; 6], rerolls: u32) -> Result<Vec<u8>, usize> {
        let mut turn = Turn { mask, upper: upper.min(self.bonus_at), memo: HashMap::default() };
        self.decide(&mut turn, dice, rerolls)
    }

    fn decide(&mut self, turn: &mut Turn, dice: &[u8; 6], rerolls: u32) -> Result<Vec<u8>, usize> {
        let mut options: Vec<(Result<Vec<u8>, usize>, f64)> = Vec::new();
        for b in (0..BOXES).filter(|b| turn.mask >> b & 1 == 1) {
            options.push((Err(b), self.score(turn, dice, b, rerolls)));
        }
        if rerolls > 0 {
            let mut keeps: Vec<Vec<u8>> =
                (0u32..63).map(|lock| (0..6).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect()).collect();
            keeps.sort_by_key(|k: &Vec<u8>| std::cmp::Reverse(graded_rank(k)));
            keeps.dedup();
            for kept in keeps {
                let v = self.keep(turn, &kept, rerolls);
                options.push((Ok(kept), v));
            }
        }
        let best = options.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
        options.into_iter().find(|o| o.1 >= best - 1e-9).expect("an option").0
    }

    /// P(points still to come = x), x = 0, 1, ..., the upper bonus
    /// included, from the start of a turn with the boxes of `mask` open and
    /// `upper` points in the upper boxes, every decision the exact one
    /// ([`decision`](BruteMaxi::decision)). Without saved rolls.
    pub fn remaining_distribution(&mut self, mask: u32, upper: u32) -> Vec<f64> {
        assert!(!self.saved_rolls, "the distribution is asked without saved rolls");
        let upper = upper.min(self.bonus_at);
        if mask == 0 {
            let bonus = if upper >= self.bonus_at { self.bonus as usize } else { 0 };
            let mut out = vec![0.0; bonus + 1];
            out[bonus] = 1.0;
            return out;
        }
        if let Some(d) = self.distributions.get(&(mask, upper)) {
            return d.clone();
        }
        let mut turn = Turn { mask, upper, memo: HashMap::default() };
        let mut rolls = HashMap::default();
        let mut out = Vec::new();
        for (thrown, p) in self.outcomes[6].clone() {
            let dice: [u8; 6] = thrown.try_into().expect("six dice");
            add_scaled(&mut out, &self.roll_distribution(&mut turn, &mut rolls, &dice, 2), p);
        }
        self.distributions.insert((mask, upper), out.clone());
        out
    }

    /// The points still to come from sorted `dice` with `rerolls` left in `turn`.
    fn roll_distribution(
        &mut self,
        turn: &mut Turn,
        rolls: &mut HashMap<(u32, u32), Vec<f64>>,
        dice: &[u8; 6],
        rerolls: u32,
    ) -> Vec<f64> {
        if let Some(d) = rolls.get(&(code(dice), rerolls)) {
            return d.clone();
        }
        let out = match self.decide(turn, dice, rerolls) {
            Err(b) => {
                let p = points(dice, b);
                let upper = if b < 6 { turn.upper + p } else { turn.upper };
                let after = self.remaining_distribution(turn.mask & !(1 << b), upper);
                let mut out = vec![0.0; p as usize];
                out.extend(after);
                out
            }
            Ok(kept) => {
                let mut out = Vec::new();
                for (thrown, p) in self.outcomes[6 - kept.len()].clone() {
                    let mut next: Vec<u8> = kept.iter().chain(&thrown).copied().collect();
                    next.sort_unstable();
                    let next: [u8; 6] = next.try_into().expect("six dice");
                    add_scaled(&mut out, &self.roll_distribution(turn, rolls, &next, rerolls - 1), p);
                }
                out
            }
        };
        rolls.insert((code(dice), rerolls), out.clone());
        out
    }

    /// Scoring `dice` in box `b` and saving what is left of the pool.
    fn score(&mut self, turn: &Turn, dice: &[u8; 6], b: usize, rerolls: u32) -> f64 {
        let p = points(dice, b);
        let upper = if b < 6 { turn.upper + p } else { turn.upper };
        let saved = if self.saved_rolls { rerolls } else { 0 };
        f64::from(p) + self.turn_start(turn.mask & !(1 << b), upper, saved)
    }

    /// Sorted `dice` with `rerolls` left: the best of scoring now and every lock pattern.
    fn roll(&mut self, turn: &mut Turn, dice: &[u8; 6], rerolls: u32) -> f64 {
        let key = (code(dice), rerolls, false);
        if let Some(&v) = turn.memo.get(&key) {
            return v;
        }
        let mut best = f64::NEG_INFINITY;
        for b in (0..BOXES).filter(|b| turn.mask >> b & 1 == 1) {
            best = best.max(self.score(turn, dice, b, rerolls));
        }
        if rerolls > 0 {
            for lock in 0u32..64 {
                let kept: Vec<u8> = (0..6).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                best = best.max(self.keep(turn, &kept, rerolls));
            }
        }
        turn.memo.insert(key, best);
        best
    }

    /// Keeping sorted `kept` with `rerolls` left and throwing the rest.
    fn keep(&mut self, turn: &mut Turn, kept: &[u8], rerolls: u32) -> f64 {
        let key = (code(kept), rerolls, true);
        if let Some(&v) = turn.memo.get(&key) {
            return v;
        }
        let mut v = 0.0;
        for (thrown, p) in self.outcomes[6 - kept.len()].clone() {
            let mut dice: Vec<u8> = kept.iter().chain(&thrown).copied().collect();
            dice.sort_unstable();
            v += p * self.roll(turn, &dice.try_into().expect("six dice"), rerolls - 1);
        }
        turn.memo.insert(key, v);
        v
    }
}

/// `out += p * d`, growing `out` as needed.
fn add_scaled(out: &mut Vec<f64>, d: &[f64], p: f64) {
    if out.len() < d.len() {
        out.resize(d.len(), 0.0);
    }
    for (o, q) in out.iter_mut().zip(d) {
        *o += p * q;
    }
}

/// The lookups' graded rank of sorted faces: the order of their tie rule.
fn graded_rank(kept: &[u8]) -> usize {
    dice_tables_reader::Dice::from_faces(kept).expect("at most six dice").graded_rank()
}

/// One turn's memo: (dice, rerolls left, kept or rolled) to value.
struct Turn {
    mask: u32,
    upper: u32,
    memo: HashMap<(u32, u32, bool), f64>,
}

/// Sorted faces as one number (base 7, a leading 1 for the length).
fn code(dice: &[u8]) -> u32 {
    dice.iter().fold(1, |c, &d| c * 7 + u32::from(d))
}
