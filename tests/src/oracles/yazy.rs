//! yazy by brute force: expected points and the chance of reaching a
//! target, memoised over (open categories, sorted dice, rerolls left).

use rustc_hash::FxHashMap as HashMap;

use crate::{over_throws, throw_outcomes};

/// Brute-force yazy: memoised recursion over (mask, sorted dice, rerolls left).
pub struct BruteYazy {
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<u16, f64>,
    state: HashMap<(u16, [u8; 5], u8), f64>,
    keep: HashMap<(u16, Vec<u8>, u8), f64>,
}

/// Brute-force yazy played to reach a target: the best chance that the
/// points from a state to the game's end are at least `need`, by memoised
/// recursion over (mask, need, sorted dice, rerolls left), every lock of
/// the five dice tried. Shares no solving code with the generator.
pub struct BruteYazyTarget {
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<(u16, i64), f64>,
    state: HashMap<(u16, i64, [u8; 5], u8), f64>,
    keep: HashMap<(u16, i64, Vec<u8>, u8), f64>,
}

impl BruteYazyTarget {
    pub fn new(rerolls: u8) -> BruteYazyTarget {
        BruteYazyTarget {
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::default(),
            state: HashMap::default(),
            keep: HashMap::default(),
        }
    }

    /// The best chance of scoring at least `need` from a turn's start.
    pub fn turn_start(&mut self, mask: u16, need: i64) -> f64 {
        if need <= 0 {
            return 1.0;
        }
        if mask == 0 {
            return 0.0;
        }
        if let Some(&v) = self.turn.get(&(mask, need)) {
            return v;
        }
        let v = self.keep_value(mask, need, &[], self.rerolls + 1);
        self.turn.insert((mask, need), v);
        v
    }

    /// Keeping `kept` and throwing the rest, `rerolls` counted before the throw.
    pub fn keep_value(&mut self, mask: u16, need: i64, kept: &[u8], rerolls: u8) -> f64 {
        let mut key_dice = kept.to_vec();
        key_dice.sort_unstable();
        let key = (mask, need, key_dice, rerolls);
        if let Some(&v) = self.keep.get(&key) {
            return v;
        }
        let outcomes = self.outcomes[5 - kept.len()].clone();
        let total = over_throws(&outcomes, kept, |dice| self.value(mask, need, dice, rerolls - 1));
        self.keep.insert(key, total);
        total
    }

    /// Scoring category `c` with `dice` now.
    pub fn score_value(&mut self, mask: u16, need: i64, dice: &[u8; 5], c: usize) -> f64 {
        self.turn_start(mask & !(1 << c), need - yazy_points(dice, c) as i64)
    }

    /// The best chance with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mask: u16, need: i64, mut dice: [u8; 5], rerolls: u8) -> f64 {
        if need <= 0 {
            return 1.0;
        }
        if mask == 0 {
            return 0.0;
        }
        dice.sort_unstable();
        if let Some(&v) = self.state.get(&(mask, need, dice, rerolls)) {
            return v;
        }
        let mut best = 0.0f64;
        if rerolls == 0 {
            for c in (0..11).filter(|c| mask >> c & 1 == 1) {
                best = best.max(self.score_value(mask, need, &dice, c));
            }
        } else {
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                let v = if kept.len() == 5 {
                    self.value(mask, need, dice, 0)
                } else {
                    self.keep_value(mask, need, &kept, rerolls)
                };
                best = best.max(v);
            }
        }
        self.state.insert((mask, need, dice, rerolls), best);
        best
    }
}

/// Brute-force two-player yazy: the mover's chance of winning (ties half),
/// `V(M, O, D)`, by memoised recursion over (mover's open categories,
/// opponent's, lead, sorted dice, rerolls left), every lock of the five
/// dice tried, with no settled leads (every lead is played out to the full
/// sheets). Shares no solving code with the generator.
pub struct BruteYazyDuel {
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<(u16, u16, i32), f64>,
    state: HashMap<(u16, u16, i32, [u8; 5], u8), f64>,
    keep: HashMap<(u16, u16, i32, Vec<u8>, u8), f64>,
}

impl BruteYazyDuel {
    pub fn new(rerolls: u8) -> BruteYazyDuel {
        BruteYazyDuel {
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::default(),
            state: HashMap::default(),
            keep: HashMap::default(),
        }
    }

    /// The mover's chance at a turn's start: `m` the mover's open
    /// categories, `o` the opponent's, `d` the lead.
    pub fn turn_start(&mut self, m: u16, o: u16, d: i32) -> f64 {
        if m == 0 {
            assert_eq!(o, 0, "the mover never has fewer categories open");
            return match d.cmp(&0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        if let Some(&v) = self.turn.get(&(m, o, d)) {
            return v;
        }
        let v = self.keep_value(m, o, d, &[], self.rerolls + 1);
        self.turn.insert((m, o, d), v);
        v
    }

    /// Keeping `kept` and throwing the rest, `rerolls` counted before the throw.
    pub fn keep_value(&mut self, m: u16, o: u16, d: i32, kept: &[u8], rerolls: u8) -> f64 {
        let mut key_dice = kept.to_vec();
        key_dice.sort_unstable();
        let key = (m, o, d, key_dice, rerolls);
        if let Some(&v) = self.keep.get(&key) {
            return v;
        }
        let outcomes = self.outcomes[5 - kept.len()].clone();
        let total = over_throws(&outcomes, kept, |dice| self.value(m, o, d, dice, rerolls - 1));
        self.keep.insert(key, total);
        total
    }

    /// Scoring category `c` with `dice` now: the opponent moves next.
    pub fn score_value(&mut self, m: u16, o: u16, d: i32, dice: &[u8; 5], c: usize) -> f64 {
        1.0 - self.turn_start(o, m & !(1 << c), -(d + yazy_points(dice, c) as i32))
    }

    /// The mover's best chance with `dice` showing and `rerolls` left.
    pub fn value(&mut self, m: u16, o: u16, d: i32, mut dice: [u8; 5], rerolls: u8) -> f64 {
        dice.sort_unstable();
        if let Some(&v) = self.state.get(&(m, o, d, dice, rerolls)) {
            return v;
        }
        let mut best = 0.0f64;
        if rerolls == 0 {
            for c in (0..11).filter(|c| m >> c & 1 == 1) {
                best = best.max(self.score_value(m, o, d, &dice, c));
            }
        } else {
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                let v = if kept.len() == 5 {
                    self.value(m, o, d, dice, 0)
                } else {
                    self.keep_value(m, o, d, &kept, rerolls)
                };
                best = best.max(v);
            }
        }
        self.state.insert((m, o, d, dice, rerolls), best);
        best
    }
}

/// Points of five dice in yazy category `c` (0 ones .. 5 sixes, 6 three-kind,
/// 7 four-kind, 8 full-house, 9 straight, 10 yazy), straight from the rules.
pub fn yazy_points(dice: &[u8; 5], c: usize) -> f64 {
    let count = |face: u8| dice.iter().filter(|&&d| d == face).count();
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let max_same = (1..=6).map(count).max().unwrap();
    let p = match c {
        0..=5 => (c as u32 + 1) * count(c as u8 + 1) as u32,
        6 => {
            if max_same >= 3 {
                sum
            } else {
                0
            }
        }
        7 => {
            if max_same >= 4 {
                sum
            } else {
                0
            }
        }
        8 => {
            let three = (1..=6).any(|f| count(f) == 3);
            let two = (1..=6).any(|f| count(f) == 2);
            if three && two {
                25
            } else {
                0
            }
        }
        9 => {
            let mut s = *dice;
            s.sort_unstable();
            if s == [1, 2, 3, 4, 5] || s == [2, 3, 4, 5, 6] {
                40
            } else {
                0
            }
        }
        10 => {
            if max_same == 5 {
                50
            } else {
                0
            }
        }
        _ => panic!("no category {c}"),
    };
    f64::from(p)
}

impl BruteYazy {
    pub fn new(rerolls: u8) -> BruteYazy {
        BruteYazy {
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::default(),
            state: HashMap::default(),
            keep: HashMap::default(),
        }
    }

    /// Expected score still to come at the start of a turn.
    pub fn turn_start(&mut self, mask: u16) -> f64 {
        if mask == 0 {
            return 0.0;
        }
        if let Some(&v) = self.turn.get(&mask) {
            return v;
        }
        let v = self.keep_value(mask, &[], self.rerolls + 1);
        self.turn.insert(mask, v);
        v
    }

    /// Value of scoring category `c` now: points plus the next turn's start.
    pub fn score_value(&mut self, mask: u16, dice: &[u8; 5], c: usize) -> f64 {
        yazy_points(dice, c) + self.turn_start(mask & !(1 << c))
    }

    /// Value of keeping `kept` and throwing the rest, with `rerolls` counted
    /// before the throw (so the dice land with `rerolls - 1` left).
    pub fn keep_value(&mut self, mask: u16, kept: &[u8], rerolls: u8) -> f64 {
        let mut key_dice = kept.to_vec();
        key_dice.sort_unstable();
        let key = (mask, key_dice, rerolls);
        if let Some(&v) = self.keep.get(&key) {
            return v;
        }
        let outcomes = self.outcomes[5 - kept.len()].clone();
        let total = over_throws(&outcomes, kept, |dice| self.value(mask, dice, rerolls - 1));
        self.keep.insert(key, total);
        total
    }

    /// Expected score still to come with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mask: u16, mut dice: [u8; 5], rerolls: u8) -> f64 {
        if mask == 0 {
            return 0.0;
        }
        dice.sort_unstable();
        if let Some(&v) = self.state.get(&(mask, dice, rerolls)) {
            return v;
        }
        let mut best = f64::NEG_INFINITY;
        if rerolls == 0 {
            for c in (0..11).filter(|c| mask >> c & 1 == 1) {
                best = best.max(self.score_value(mask, &dice, c));
            }
        } else {
            // Every lock subset of the five dice; locking all five stops rerolling.
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                let v = if kept.len() == 5 { self.value(mask, dice, 0) } else { self.keep_value(mask, &kept, rerolls) };
                best = best.max(v);
            }
        }
        self.state.insert((mask, dice, rerolls), best);
        best
    }
}

/// How a player decides in [`BruteVersus`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BruteWay {
    /// As yazy's table's lookups (`best_action`): the max-expected-score player.
    Expected,
    /// As the two-player lookups, from the brute-force two-player values
    /// ([`BruteYazyDuel`]).
    Table,
    /// The best response: the most of every option for the evaluation.
    Best,
    /// As the opponent-aware advisor: after scoring, with `m` open and the
    /// lead `d`, the opponent `o` to move, its value is the sum over k of
    /// R(o, k) x (P*(m, k - d + 1) + P*(m, k - d)) / 2, R the
    /// max-expected-score player's points to come (played here from yazy's
    /// lookups) and P* the brute-force target chances
    /// ([`BruteYazyTarget`]); a turn's options then the most of it.
    Advisor,
}

/// Brute-force two-player yazy between fixed ways of playing: player A's
/// chance of winning (ties half) against player B, by memoised recursion
/// over (A's open categories, B's, A's lead, who moves, sorted dice,
/// rerolls left). A player deciding by values takes the first option,
/// categories in mask-bit order then keeps of fewer dice by descending
/// graded rank, within 1e-7 of the highest. Shares no solving code with
/// the generator.
pub struct BruteVersus<'a> {
    yazy: &'a dice_tables_reader::yazy::Yazy,
    duel: BruteYazyDuel,
    target: BruteYazyTarget,
    ways: [BruteWay; 2],
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<(u16, u16, i32, bool), f64>,
    state: HashMap<VersusState, f64>,
    remaining: HashMap<u16, Vec<f64>>,
    advised: HashMap<(u16, u16, i32, [u8; 5], u8), f64>,
}

/// A's and B's open categories, A's lead, whether A moves, sorted dice, rerolls left.
type VersusState = (u16, u16, i32, bool, [u8; 5], u8);

impl<'a> BruteVersus<'a> {
    /// A against `yazy`'s player; A plays the best response when `best`,
    /// else the two-player table's decisions.
    pub fn new(yazy: &'a dice_tables_reader::yazy::Yazy, best: bool) -> BruteVersus<'a> {
        BruteVersus::between(yazy, if best { BruteWay::Best } else { BruteWay::Table }, BruteWay::Expected)
    }

    /// A playing `a`'s way against B playing `b`'s (`yazy`: the
    /// max-expected-score player's table).
    pub fn between(yazy: &'a dice_tables_reader::yazy::Yazy, a: BruteWay, b: BruteWay) -> BruteVersus<'a> {
        let rerolls = yazy.rerolls();
        BruteVersus {
            yazy,
            duel: BruteYazyDuel::new(rerolls),
            target: BruteYazyTarget::new(rerolls),
            ways: [a, b],
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::default(),
            state: HashMap::default(),
            remaining: HashMap::default(),
            advised: HashMap::default(),
        }
    }

    /// A's chance at a turn's start: `a` and `b` the open categories, `d`
    /// A's total minus B's, `a_moves` whose turn it is.
    pub fn turn_start(&mut self, a: u16, b: u16, d: i32, a_moves: bool) -> f64 {
        if a == 0 && b == 0 {
            return match d.cmp(&0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        if let Some(&v) = self.turn.get(&(a, b, d, a_moves)) {
            return v;
        }
        let v = self.keep_value(a, b, d, a_moves, &[], self.rerolls + 1);
        self.turn.insert((a, b, d, a_moves), v);
        v
    }

    fn keep_value(&mut self, a: u16, b: u16, d: i32, a_moves: bool, kept: &[u8], rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5 - kept.len()].clone();
        over_throws(&outcomes, kept, |dice| self.value(a, b, d, a_moves, dice, rerolls - 1))
    }

    fn value(&mut self, a: u16, b: u16, d: i32, a_moves: bool, mut dice: [u8; 5], rerolls: u8) -> f64 {
        dice.sort_unstable();
        let key = (a, b, d, a_moves, dice, rerolls);
        if let Some(&v) = self.state.get(&key) {
            return v;
        }
        let v = self.decide(a, b, d, a_moves, dice, rerolls);
        self.state.insert(key, v);
        v
    }

    /// A's chance after the mover's decision with `dice` and `rerolls` left.
    fn decide(&mut self, a: u16, b: u16, d: i32, a_moves: bool, dice: [u8; 5], rerolls: u8) -> f64 {
        use dice_tables_reader::yazy::{Action, Mask};
        let way = self.ways[usize::from(!a_moves)];
        let (mover, opponent, lead) = if a_moves { (a, b, d) } else { (b, a, -d) };
        // A's chance after the mover scores `c`.
        let scored = |s: &mut Self, c: usize| {
            let points = yazy_points(&dice, c) as i32;
            if a_moves {
                s.turn_start(a & !(1 << c), b, d + points, false)
            } else {
                s.turn_start(a, b & !(1 << c), d - points, true)
            }
        };
        if way == BruteWay::Expected {
            let roll = dice_tables_reader::Dice::from_faces(&dice).unwrap();
            return match self.yazy.best_action(Mask::new(u32::from(mover)).unwrap(), roll, rerolls).unwrap() {
                Some(Action::Score(c)) => scored(self, usize::from(c.index())),
                Some(Action::Keep(k)) => self.keep_value(a, b, d, a_moves, &k.faces().collect::<Vec<_>>(), rerolls),
                None => unreachable!("the mover has a category open"),
            };
        }
        // The options in the tie order, each (the mover's value, A's chance).
        let mover_chance = |chance: f64| if a_moves { chance } else { 1.0 - chance };
        let mut options = Vec::new();
        for c in (0..11).filter(|c| mover >> c & 1 == 1) {
            let chance = scored(self, c);
            let value = match way {
                BruteWay::Best => mover_chance(chance),
                BruteWay::Table => self.duel.score_value(mover, opponent, lead, &dice, c),
                _ => self.advisor_after(mover & !(1 << c), opponent, lead + yazy_points(&dice, c) as i32),
            };
            options.push((value, chance));
        }
        if rerolls > 0 {
            for kept in keeps_in_tie_order(&dice) {
                let chance = self.keep_value(a, b, d, a_moves, &kept, rerolls);
                let value = match way {
                    BruteWay::Best => mover_chance(chance),
                    BruteWay::Table => self.duel.keep_value(mover, opponent, lead, &kept, rerolls),
                    _ => self.advisor_keep(mover, opponent, lead, &kept, rerolls),
                };
                options.push((value, chance));
            }
        }
        let top = options.iter().map(|o| o.0).fold(f64::NEG_INFINITY, f64::max);
        options.iter().find(|o| o.0 >= top - 1e-7).expect("an option").1
    }

    /// The advisor's value after scoring: `m` still open, the lead `d`, the
    /// opponent `o` to move.
    fn advisor_after(&mut self, m: u16, o: u16, d: i32) -> f64 {
        let remaining = self.remaining(o);
        let mut total = 0.0;
        for (k, &p) in remaining.iter().enumerate() {
            let n = k as i64 - i64::from(d);
            total += p * (self.target.turn_start(m, n + 1) + self.target.turn_start(m, n));
        }
        total / 2.0
    }

    /// The advisor's value of a roll: the most of its options.
    fn advisor_value(&mut self, m: u16, o: u16, d: i32, mut dice: [u8; 5], rerolls: u8) -> f64 {
        dice.sort_unstable();
        if let Some(&v) = self.advised.get(&(m, o, d, dice, rerolls)) {
            return v;
        }
        let mut best = f64::NEG_INFINITY;
        for c in (0..11).filter(|c| m >> c & 1 == 1) {
            best = best.max(self.advisor_after(m & !(1 << c), o, d + yazy_points(&dice, c) as i32));
        }
        if rerolls > 0 {
            for kept in keeps_in_tie_order(&dice) {
                best = best.max(self.advisor_keep(m, o, d, &kept, rerolls));
            }
        }
        self.advised.insert((m, o, d, dice, rerolls), best);
        best
    }

    fn advisor_keep(&mut self, m: u16, o: u16, d: i32, kept: &[u8], rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5 - kept.len()].clone();
        over_throws(&outcomes, kept, |dice| self.advisor_value(m, o, d, dice, rerolls - 1))
    }

    /// P(the max-expected-score player with `o` open scores k more), k from 0.
    fn remaining(&mut self, o: u16) -> Vec<f64> {
        if o == 0 {
            return vec![1.0];
        }
        if let Some(r) = self.remaining.get(&o) {
            return r.clone();
        }
        let mut out = Vec::new();
        self.remaining_after_keep(o, &[], self.rerolls + 1, 1.0, &mut out);
        self.remaining.insert(o, out.clone());
        out
    }

    /// Adds `weight` times the points to come after keeping `kept` and
    /// throwing the rest into `out`.
    fn remaining_after_keep(&mut self, o: u16, kept: &[u8], rerolls: u8, weight: f64, out: &mut Vec<f64>) {
        use dice_tables_reader::yazy::{Action, Mask};
        for (thrown, p) in self.outcomes[5 - kept.len()].clone() {
            let mut dice = [0u8; 5];
            dice[..kept.len()].copy_from_slice(kept);
            dice[kept.len()..].copy_from_slice(&thrown);
            let roll = dice_tables_reader::Dice::from_faces(&dice).unwrap();
            match self.yazy.best_action(Mask::new(u32::from(o)).unwrap(), roll, rerolls - 1).unwrap() {
                Some(Action::Score(c)) => {
                    let c = usize::from(c.index());
                    let points = yazy_points(&dice, c) as usize;
                    let after = self.remaining(o & !(1 << c));
                    if out.len() < points + after.len() {
                        out.resize(points + after.len(), 0.0);
                    }
                    for (k, q) in after.iter().enumerate() {
                        out[points + k] += weight * p * q;
                    }
                }
                Some(Action::Keep(k)) => {
                    let kept: Vec<u8> = k.faces().collect();
                    self.remaining_after_keep(o, &kept, rerolls - 1, weight * p, out);
                }
                None => unreachable!("a category is open"),
            }
        }
    }
}

/// The keeps of fewer than five of `dice`, each once, larger graded ranks first.
fn keeps_in_tie_order(dice: &[u8; 5]) -> Vec<Vec<u8>> {
    let mut keeps: Vec<(usize, Vec<u8>)> = Vec::new();
    for lock in 0u32..31 {
        let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
        let rank = dice_tables_reader::Dice::from_faces(&kept).unwrap().graded_rank();
        if !keeps.iter().any(|(r, _)| *r == rank) {
            keeps.push((rank, kept));
        }
    }
    keeps.sort_by_key(|k| std::cmp::Reverse(k.0));
    keeps.into_iter().map(|(_, kept)| kept).collect()
}
