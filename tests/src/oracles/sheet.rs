//! An independent evaluator of yatzy and yahtzee, straight from the rules:
//! sorted arrays of faces, every lock pattern of the five dice, every
//! outcome of the rerolled dice, and memoised turn-start values. It shares
//! nothing with the generator's solver or the reader's turn solve (no keep
//! lattice, no upper-total lanes, no zero shortcut), and is slow on purpose.

use rustc_hash::FxHashMap as HashMap;

use crate::throw_outcomes;

/// The rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Yatzy,
    /// Yahtzee; `forced`: the official joker reading, else the free one.
    Yahtzee {
        forced: bool,
    },
}

/// One way to score a roll: (category, points now, points added to the
/// upper section, whether the yahtzee box holds 50 afterwards).
pub type Scoring = (usize, u32, u32, bool);

impl Rules {
    pub fn categories(self) -> usize {
        match self {
            Rules::Yatzy => 15,
            Rules::Yahtzee { .. } => 13,
        }
    }

    pub fn upper_bonus(self) -> f64 {
        match self {
            Rules::Yatzy => 50.0,
            Rules::Yahtzee { .. } => 35.0,
        }
    }

    /// Points of sorted `dice` in category `c` by the ordinary rules.
    pub fn points(self, dice: &[u8; 5], c: usize) -> u32 {
        let count = |f: u8| dice.iter().filter(|&&d| d == f).count() as u32;
        let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
        if c < 6 {
            return (c as u32 + 1) * count(c as u8 + 1);
        }
        // Faces showing at least n times, highest first.
        let with_at_least = |n: u32| (1..=6u8).rev().filter(move |&f| count(f) >= n).map(u32::from);
        let exactly = |n: u32| (1..=6u8).any(|f| count(f) == n);
        let distinct: Vec<u8> = {
            let mut d = dice.to_vec();
            d.dedup();
            d
        };
        let has_run = |len: usize| distinct.windows(len).any(|w| w.windows(2).all(|p| p[1] == p[0] + 1));
        match (self, c) {
            (Rules::Yatzy, 6) => with_at_least(2).next().map_or(0, |f| 2 * f),
            (Rules::Yatzy, 7) => {
                let pairs: Vec<u32> = with_at_least(2).collect();
                if pairs.len() >= 2 {
                    2 * (pairs[0] + pairs[1])
                } else {
                    0
                }
            }
            (Rules::Yatzy, 8) => with_at_least(3).next().map_or(0, |f| 3 * f),
            (Rules::Yatzy, 9) => with_at_least(4).next().map_or(0, |f| 4 * f),
            (Rules::Yatzy, 10) => u32::from(*dice == [1, 2, 3, 4, 5]) * 15,
            (Rules::Yatzy, 11) => u32::from(*dice == [2, 3, 4, 5, 6]) * 20,
            (Rules::Yatzy, 12) => u32::from(exactly(3) && exactly(2)) * sum,
            (Rules::Yatzy, 13) => sum,
            (Rules::Yatzy, 14) => u32::from(exactly(5)) * 50,
            (Rules::Yahtzee { .. }, 6) => u32::from(with_at_least(3).next().is_some()) * sum,
            (Rules::Yahtzee { .. }, 7) => u32::from(with_at_least(4).next().is_some()) * sum,
            (Rules::Yahtzee { .. }, 8) => u32::from(exactly(3) && exactly(2)) * 25,
            (Rules::Yahtzee { .. }, 9) => u32::from(has_run(4)) * 30,
            (Rules::Yahtzee { .. }, 10) => u32::from(has_run(5)) * 40,
            (Rules::Yahtzee { .. }, 11) => u32::from(exactly(5)) * 50,
            (Rules::Yahtzee { .. }, 12) => sum,
            _ => panic!("no category {c} in {self:?}"),
        }
    }

    /// Every legal way to score sorted `dice` with `mask` open and the
    /// yahtzee box holding 50 (`flag`).
    pub fn scorings(self, mask: u32, flag: bool, dice: &[u8; 5]) -> Vec<Scoring> {
        let open: Vec<usize> = (0..self.categories()).filter(|c| mask >> c & 1 == 1).collect();
        let upper_of = |c: usize, p: u32| if c < 6 { p } else { 0 };
        let Rules::Yahtzee { forced } = self else {
            return open.iter().map(|&c| (c, self.points(dice, c), upper_of(c, self.points(dice, c)), false)).collect();
        };
        let five = dice.iter().all(|&d| d == dice[0]);
        let yahtzee_box_open = mask >> 11 & 1 == 1;
        if !five || yahtzee_box_open {
            return open
                .iter()
                .map(|&c| {
                    let p = self.points(dice, c);
                    (c, p, upper_of(c, p), flag || (c == 11 && p == 50))
                })
                .collect();
        }
        // A joker.
        let bonus = if flag { 100 } else { 0 };
        let matching = usize::from(dice[0] - 1);
        let matching_open = mask >> matching & 1 == 1;
        let lower_open = open.iter().any(|&c| c >= 6);
        let full_value = |c: usize| match c {
            8 => 25,
            9 => 30,
            10 => 40,
            _ => self.points(dice, c),
        };
        open.iter()
            .filter(|&&c| {
                if !forced {
                    true
                } else if matching_open {
                    c == matching
                } else if lower_open {
                    c >= 6
                } else {
                    true
                }
            })
            .map(|&c| {
                // Full house and straights at full value only once the
                // matching upper box is filled.
                let p = if c >= 6 && !matching_open { full_value(c) } else { self.points(dice, c) };
                (c, p + bonus, upper_of(c, p), flag)
            })
            .collect()
    }
}

/// For each number of dice thrown, every outcome and its probability.
type Outcomes = Vec<Vec<(Vec<u8>, f64)>>;

/// Memoised exact turn-start values of one rule set.
pub struct BruteSheet {
    pub rules: Rules,
    outcomes: std::rc::Rc<Outcomes>,
    memo: HashMap<(u32, u32, bool), f64>,
    /// Dice of 0 to 5 dice (counts of each face as a base-6 number) to a
    /// dense index, for the per-turn memo arrays.
    dense: Vec<u16>,
}

/// Dice as a number: the count of each face in base 6.
fn dice_code(dice: &[u8]) -> usize {
    dice.iter().map(|&f| 6usize.pow(u32::from(f) - 1)).sum()
}

impl BruteSheet {
    pub fn new(rules: Rules) -> BruteSheet {
        let outcomes: Vec<Vec<(Vec<u8>, f64)>> = (0..=5).map(throw_outcomes).collect();
        let mut dense = vec![u16::MAX; 6usize.pow(6)];
        for (i, (dice, _)) in outcomes.iter().flatten().enumerate() {
            dense[dice_code(dice)] = i as u16;
        }
        BruteSheet { rules, outcomes: std::rc::Rc::new(outcomes), memo: HashMap::default(), dense }
    }

    fn index(&self, dice: &[u8]) -> usize {
        usize::from(self.dense[dice_code(dice)])
    }

    /// Expected points still to come at the start of a turn with `mask`
    /// open, `upper` points in the upper section (any total) and the
    /// yahtzee box holding 50 (`flag`).
    pub fn turn_start(&mut self, mask: u32, upper: u32, flag: bool) -> f64 {
        let upper = upper.min(63);
        if mask == 0 {
            return if upper >= 63 { self.rules.upper_bonus() } else { 0.0 };
        }
        if let Some(&v) = self.memo.get(&(mask, upper, flag)) {
            return v;
        }
        let mut turn = Turn::new();
        let outcomes = self.outcomes.clone();
        let v = outcomes[5].iter().map(|(dice, p)| p * self.roll_value(&mut turn, mask, upper, flag, dice, 2)).sum();
        self.memo.insert((mask, upper, flag), v);
        v
    }

    /// The value of scoring `s` now.
    pub fn score_value(&mut self, mask: u32, upper: u32, s: Scoring) -> f64 {
        f64::from(s.1) + self.turn_start(mask & !(1 << s.0), upper + s.2, s.3)
    }

    /// The value of sorted `dice` with `rerolls` left.
    fn roll_value(&mut self, turn: &mut Turn, mask: u32, upper: u32, flag: bool, dice: &[u8], rerolls: usize) -> f64 {
        let code = self.index(dice);
        if !turn.roll[rerolls][code].is_nan() {
            return turn.roll[rerolls][code];
        }
        let dice5: [u8; 5] = dice.try_into().expect("five dice");
        let v = if rerolls == 0 {
            let scorings = self.rules.scorings(mask, flag, &dice5);
            scorings.into_iter().map(|s| self.score_value(mask, upper, s)).fold(f64::NEG_INFINITY, f64::max)
        } else {
            let mut best = f64::NEG_INFINITY;
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice5[i]).collect();
                best = best.max(self.keep_value(turn, mask, upper, flag, &kept, rerolls));
            }
            best
        };
        turn.roll[rerolls][code] = v;
        v
    }

    /// Keeping `kept` (sorted) with `rerolls` left: the rest are thrown, and
    /// the dice then have one reroll fewer (keeping all five: the same roll).
    fn keep_value(&mut self, turn: &mut Turn, mask: u32, upper: u32, flag: bool, kept: &[u8], rerolls: usize) -> f64 {
        let code = self.index(kept);
        if !turn.keep[rerolls][code].is_nan() {
            return turn.keep[rerolls][code];
        }
        let outcomes = self.outcomes.clone();
        let mut v = 0.0;
        for (thrown, p) in &outcomes[5 - kept.len()] {
            let mut dice: Vec<u8> = kept.iter().chain(thrown).copied().collect();
            dice.sort_unstable();
            v += p * self.roll_value(turn, mask, upper, flag, &dice, rerolls - 1);
        }
        turn.keep[rerolls][code] = v;
        v
    }

    /// Every option of sorted `dice` with `rerolls` left: (kept dice or
    /// category, expected points still to come). Keeps are every distinct
    /// sub-multiset, as sorted faces.
    pub fn options(
        &mut self,
        mask: u32,
        upper: u32,
        flag: bool,
        dice: &[u8; 5],
        rerolls: usize,
    ) -> Vec<(Result<Vec<u8>, usize>, f64)> {
        let upper = upper.min(63);
        let mut turn = Turn::new();
        // Scoring now is an option whatever the rerolls left.
        let mut out: Vec<(Result<Vec<u8>, usize>, f64)> = self
            .rules
            .scorings(mask, flag, dice)
            .into_iter()
            .map(|s| (Err(s.0), self.score_value(mask, upper, s)))
            .collect();
        if rerolls == 0 {
            return out;
        }
        // Every keep of fewer than five dice.
        for lock in 0u32..31 {
            let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
            if out.iter().any(|(k, _)| k.as_ref() == Ok(&kept)) {
                continue;
            }
            let v = self.keep_value(&mut turn, mask, upper, flag, &kept, rerolls);
            out.push((Ok(kept), v));
        }
        out
    }
}

/// Options this close to the best are tied, the first in the tie order
/// played (as the exact solution's decisions are taken).
const TIE: f64 = 1e-9;

/// Memoised distributions of the points still to come under
/// max-expected-score play, decided from [`BruteSheet`]'s values: with no
/// rerolls left, the first category (in mask-bit order) within [`TIE`] of
/// the best; with rerolls left, keeping all five (deciding again with one
/// fewer, no dice thrown) if within [`TIE`] of the best, else the first
/// keep, larger first, within it. Mass moves forward through the turn,
/// then each way to score takes on the next state's distribution.
pub struct BruteRemaining {
    sheet: BruteSheet,
    memo: HashMap<(u32, u32, bool), std::rc::Rc<Vec<f64>>>,
}

impl BruteRemaining {
    pub fn new(rules: Rules) -> BruteRemaining {
        BruteRemaining { sheet: BruteSheet::new(rules), memo: HashMap::default() }
    }

    /// P(points still to come = x), x = 0, 1, ..., from the start of a turn
    /// (the upper bonus counted at the game's end).
    pub fn remaining(&mut self, mask: u32, upper: u32, flag: bool) -> std::rc::Rc<Vec<f64>> {
        let upper = upper.min(63);
        if mask == 0 {
            let bonus = if upper >= 63 { self.sheet.rules.upper_bonus() as usize } else { 0 };
            let mut out = vec![0.0; bonus + 1];
            out[bonus] = 1.0;
            return std::rc::Rc::new(out);
        }
        if let Some(r) = self.memo.get(&(mask, upper, flag)) {
            return r.clone();
        }
        let outcomes = self.sheet.outcomes.clone();
        let mut turn = Turn::new();
        let mut mass: HashMap<Vec<u8>, f64> = outcomes[5].iter().cloned().collect();
        let mut scored: HashMap<Scoring, f64> = HashMap::default();
        for rerolls in (0..=2).rev() {
            let mut next: HashMap<Vec<u8>, f64> = HashMap::default();
            for (dice, p) in mass {
                let dice5: [u8; 5] = dice[..].try_into().expect("five dice");
                if rerolls == 0 {
                    let scorings = self.sheet.rules.scorings(mask, flag, &dice5);
                    let values: Vec<f64> = scorings.iter().map(|&s| self.sheet.score_value(mask, upper, s)).collect();
                    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let first = values.iter().position(|&v| v >= best - TIE).expect("an option");
                    *scored.entry(scorings[first]).or_default() += p;
                    continue;
                }
                let stop = self.sheet.roll_value(&mut turn, mask, upper, flag, &dice, rerolls - 1);
                let keeps: Vec<(Vec<u8>, f64)> = partial_keeps(&dice5)
                    .into_iter()
                    .map(|k| {
                        let v = self.sheet.keep_value(&mut turn, mask, upper, flag, &k, rerolls);
                        (k, v)
                    })
                    .collect();
                let best = keeps.iter().map(|k| k.1).fold(stop, f64::max);
                if stop >= best - TIE {
                    *next.entry(dice).or_default() += p;
                    continue;
                }
                let kept = &keeps.iter().find(|k| k.1 >= best - TIE).expect("the best").0;
                for (thrown, q) in &outcomes[5 - kept.len()] {
                    let mut dice: Vec<u8> = kept.iter().chain(thrown).copied().collect();
                    dice.sort_unstable();
                    *next.entry(dice).or_default() += p * q;
                }
            }
            mass = next;
        }
        let mut out = Vec::new();
        for ((c, points, upper_points, flag_after), p) in scored {
            let after = self.remaining(mask & !(1 << c), upper + upper_points, flag_after);
            let shift = points as usize;
            if out.len() < shift + after.len() {
                out.resize(shift + after.len(), 0.0);
            }
            for (o, q) in out[shift..].iter_mut().zip(after.iter()) {
                *o += p * q;
            }
        }
        let out = std::rc::Rc::new(out);
        self.memo.insert((mask, upper, flag), out.clone());
        out
    }

    /// The expected points still to come, as [`BruteSheet::turn_start`].
    pub fn turn_start(&mut self, mask: u32, upper: u32, flag: bool) -> f64 {
        self.sheet.turn_start(mask, upper, flag)
    }
}

/// One turn solved directly for the value `leaf` gives each way to score:
/// every option of sorted `dice` with `rerolls` left, (kept dice or
/// category, the turn's value if it is taken), by every lock pattern and
/// every outcome of the thrown dice. With a leaf that is 1 for a win, 1/2
/// for a tie and 0 for a loss, the exact chance of winning a game's last
/// turn.
pub fn solve_turn_for(
    rules: Rules,
    mask: u32,
    flag: bool,
    dice: &[u8; 5],
    rerolls: usize,
    leaf: &dyn Fn(Scoring) -> f64,
) -> Vec<(Result<Vec<u8>, usize>, f64)> {
    let mut solve = LeafTurn::new(rules, mask, flag, leaf);
    let mut out: Vec<(Result<Vec<u8>, usize>, f64)> =
        rules.scorings(mask, flag, dice).into_iter().map(|s| (Err(s.0), leaf(s))).collect();
    if rerolls > 0 {
        for kept in partial_keeps(dice) {
            let v = solve.keep(&kept, rerolls);
            out.push((Ok(kept), v));
        }
    }
    out
}

/// The value of a turn solved as [`solve_turn_for`] solves it, before its
/// first roll (two rerolls to come).
pub fn turn_start_for(rules: Rules, mask: u32, flag: bool, leaf: &dyn Fn(Scoring) -> f64) -> f64 {
    // Keeping no dice with three rerolls left: all five thrown, two rerolls to come.
    LeafTurn::new(rules, mask, flag, leaf).keep(&[], 3)
}

/// One turn's memoised recursion for [`solve_turn_for`].
struct LeafTurn<'a> {
    rules: Rules,
    mask: u32,
    flag: bool,
    leaf: &'a dyn Fn(Scoring) -> f64,
    outcomes: Outcomes,
    memo: HashMap<(Vec<u8>, usize, bool), f64>,
}

impl<'a> LeafTurn<'a> {
    fn new(rules: Rules, mask: u32, flag: bool, leaf: &'a dyn Fn(Scoring) -> f64) -> LeafTurn<'a> {
        let outcomes = (0..=5).map(throw_outcomes).collect();
        LeafTurn { rules, mask, flag, leaf, outcomes, memo: HashMap::default() }
    }

    /// Sorted `dice` with `rerolls` left: the best of scoring now and every lock pattern.
    fn roll(&mut self, dice: &[u8], rerolls: usize) -> f64 {
        if let Some(&v) = self.memo.get(&(dice.to_vec(), rerolls, false)) {
            return v;
        }
        let dice5: [u8; 5] = dice.try_into().expect("five dice");
        let mut best = f64::NEG_INFINITY;
        for s in self.rules.scorings(self.mask, self.flag, &dice5) {
            best = best.max((self.leaf)(s));
        }
        if rerolls > 0 {
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice5[i]).collect();
                best = best.max(self.keep(&kept, rerolls));
            }
        }
        self.memo.insert((dice.to_vec(), rerolls, false), best);
        best
    }

    /// Keeping sorted `kept` with `rerolls` left and throwing the rest.
    fn keep(&mut self, kept: &[u8], rerolls: usize) -> f64 {
        if let Some(&v) = self.memo.get(&(kept.to_vec(), rerolls, true)) {
            return v;
        }
        let mut v = 0.0;
        for (thrown, p) in self.outcomes[5 - kept.len()].clone() {
            let mut dice: Vec<u8> = kept.iter().chain(&thrown).copied().collect();
            dice.sort_unstable();
            v += p * self.roll(&dice, rerolls - 1);
        }
        self.memo.insert((kept.to_vec(), rerolls, true), v);
        v
    }
}

/// The keeps of fewer than five of sorted `dice`, each once, in the tie
/// order: more dice first, then by the graded rank's order, higher first.
fn partial_keeps(dice: &[u8; 5]) -> Vec<Vec<u8>> {
    let mut keeps: Vec<(usize, Vec<u8>)> = Vec::new();
    for lock in 0u32..31 {
        let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
        let rank = dice_tables_reader::Dice::from_faces(&kept).expect("dice").graded_rank();
        if !keeps.iter().any(|(r, _)| *r == rank) {
            keeps.push((rank, kept));
        }
    }
    keeps.sort_by_key(|k| std::cmp::Reverse(k.0));
    keeps.into_iter().map(|(_, kept)| kept).collect()
}

/// The values of one turn's rolls and keeps, by rerolls left and dice
/// (dense index); NaN until known.
struct Turn {
    roll: [Vec<f64>; 3],
    keep: [Vec<f64>; 3],
}

impl Turn {
    fn new() -> Turn {
        let empty = || vec![f64::NAN; 462];
        Turn { roll: [empty(), empty(), empty()], keep: [empty(), empty(), empty()] }
    }
}

/// A state's best chances of scoring at least n more points, n = 1, 2, ...
/// (1 at n <= 0, 0 past the end), played for each n.
type Chances = std::rc::Rc<Vec<f64>>;

/// The chance at `n` of chances as [`Chances`] stores them.
fn chance_at(chances: &[f64], n: i64) -> f64 {
    if n <= 0 {
        1.0
    } else {
        chances.get(n as usize - 1).copied().unwrap_or(0.0)
    }
}

/// `into[i] += p * from[i]`, the shorter padded with zeros.
fn add_scaled(into: &mut Vec<f64>, p: f64, from: &[f64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0.0);
    }
    for (a, &b) in into.iter_mut().zip(from) {
        *a += p * b;
    }
}

/// `into[i] = max(into[i], from[i])`, the shorter padded with zeros.
fn max_into(into: &mut Vec<f64>, from: &[f64]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0.0);
    }
    for (a, &b) in into.iter_mut().zip(from) {
        *a = a.max(b);
    }
}

/// Memoised exact best chances of reaching every target at once, by the
/// same recursion as [`BruteSheet`] (every lock pattern, every outcome of
/// the thrown dice) over whole lists of chances, one per target: each
/// target is played for on its own, so each entry is that target's own
/// optimum.
pub struct BruteSheetTarget {
    sheet: BruteSheet,
    memo: HashMap<(u32, u32, bool), Chances>,
}

/// One turn's lists of chances of rolls and of keeps, by rerolls left and dice.
#[derive(Default)]
struct TargetTurn {
    roll: [HashMap<usize, Chances>; 3],
    keep: [HashMap<usize, Chances>; 3],
}

impl BruteSheetTarget {
    pub fn new(rules: Rules) -> BruteSheetTarget {
        BruteSheetTarget { sheet: BruteSheet::new(rules), memo: HashMap::default() }
    }

    /// The best chance of scoring at least `need` more points from the
    /// start of a turn with `mask` open, `upper` points in the upper
    /// section and the yahtzee box holding 50 (`flag`).
    pub fn chance(&mut self, mask: u32, upper: u32, flag: bool, need: i64) -> f64 {
        chance_at(&self.chances(mask, upper, flag), need)
    }

    /// Every target's best chance from the start of a turn.
    fn chances(&mut self, mask: u32, upper: u32, flag: bool) -> Chances {
        let upper = upper.min(63);
        if mask == 0 {
            // The upper bonus, if earned, is still to come.
            let bonus = if upper >= 63 { self.sheet.rules.upper_bonus() as usize } else { 0 };
            return std::rc::Rc::new(vec![1.0; bonus]);
        }
        if let Some(c) = self.memo.get(&(mask, upper, flag)) {
            return c.clone();
        }
        let mut turn: TargetTurn = Default::default();
        let outcomes = self.sheet.outcomes.clone();
        let mut out = Vec::new();
        for (dice, p) in &outcomes[5] {
            add_scaled(&mut out, *p, &self.roll_chances(&mut turn, mask, upper, flag, dice, 2));
        }
        let out = std::rc::Rc::new(out);
        self.memo.insert((mask, upper, flag), out.clone());
        out
    }

    /// Scoring `s` now: every target's chance.
    fn score_chances(&mut self, mask: u32, upper: u32, s: Scoring) -> Vec<f64> {
        let next = self.chances(mask & !(1 << s.0), upper + s.2, s.3);
        let points = s.1 as usize;
        (1..=points + next.len()).map(|n| chance_at(&next, (n - points) as i64)).collect()
    }

    /// Sorted `dice` with `rerolls` left: every target's best chance.
    fn roll_chances(
        &mut self,
        turn: &mut TargetTurn,
        mask: u32,
        upper: u32,
        flag: bool,
        dice: &[u8],
        rerolls: usize,
    ) -> Chances {
        let code = dice_code(dice);
        if let Some(c) = turn.roll[rerolls].get(&code) {
            return c.clone();
        }
        let dice5: [u8; 5] = dice.try_into().expect("five dice");
        let mut best = Vec::new();
        if rerolls == 0 {
            for s in self.sheet.rules.scorings(mask, flag, &dice5) {
                max_into(&mut best, &self.score_chances(mask, upper, s));
            }
        } else {
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice5[i]).collect();
                let v = self.keep_chances(turn, mask, upper, flag, &kept, rerolls);
                max_into(&mut best, &v);
            }
        }
        let best = std::rc::Rc::new(best);
        turn.roll[rerolls].insert(code, best.clone());
        best
    }

    /// Keeping sorted `kept` with `rerolls` left and throwing the rest
    /// (keeping all five: the same roll with one reroll fewer).
    fn keep_chances(
        &mut self,
        turn: &mut TargetTurn,
        mask: u32,
        upper: u32,
        flag: bool,
        kept: &[u8],
        rerolls: usize,
    ) -> Chances {
        let code = dice_code(kept);
        if let Some(c) = turn.keep[rerolls].get(&code) {
            return c.clone();
        }
        let outcomes = self.sheet.outcomes.clone();
        let mut out = Vec::new();
        for (thrown, p) in &outcomes[5 - kept.len()] {
            let mut dice: Vec<u8> = kept.iter().chain(thrown).copied().collect();
            dice.sort_unstable();
            add_scaled(&mut out, *p, &self.roll_chances(turn, mask, upper, flag, &dice, rerolls - 1));
        }
        let out = std::rc::Rc::new(out);
        turn.keep[rerolls].insert(code, out.clone());
        out
    }

    /// Every option of sorted `dice` with `rerolls` left: (kept dice or
    /// category, the best chance of scoring at least `need` more points,
    /// this turn's included).
    pub fn options(
        &mut self,
        mask: u32,
        upper: u32,
        flag: bool,
        need: i64,
        dice: &[u8; 5],
        rerolls: usize,
    ) -> Vec<(Result<Vec<u8>, usize>, f64)> {
        let upper = upper.min(63);
        // Scoring now is an option whatever the rerolls left.
        let mut out: Vec<(Result<Vec<u8>, usize>, f64)> = self
            .sheet
            .rules
            .scorings(mask, flag, dice)
            .into_iter()
            .map(|s| (Err(s.0), chance_at(&self.score_chances(mask, upper, s), need)))
            .collect();
        if rerolls == 0 {
            return out;
        }
        let mut turn: TargetTurn = Default::default();
        // Every keep of fewer than five dice.
        for lock in 0u32..31 {
            let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
            if out.iter().any(|(k, _)| k.as_ref() == Ok(&kept)) {
                continue;
            }
            let v = self.keep_chances(&mut turn, mask, upper, flag, &kept, rerolls);
            out.push((Ok(kept), chance_at(&v, need)));
        }
        out
    }
}
