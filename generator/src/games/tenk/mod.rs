//! 10000 ("tenk").
//!
//! Six dice. Each throw must keep at least one scoring die (any set of them);
//! kept dice score, the rest may be thrown again, or the player banks the
//! turn score. A throw with nothing scoring busts: the turn score is lost.
//! Keeping every die thrown gives hot dice: the next throw is of six again.
//! Scoring of one throw's kept dice, face by face: 1 = 100, 1-1 = 200,
//! 5 = 50, 5-5 = 100; three of a kind 100 x face (1s: 1000), doubled for
//! each die beyond three; other faces only in threes or more. With all six
//! thrown: 1-2-3-4-5-6 = 2000, three pairs = 1500. Not yet on the board, a
//! player may bank only at 1000 or more.
//!
//! Tables: on the board, the expected banked points of throwing d dice at
//! turn score s; opening, the chance of reaching 1000 this turn. Both are
//! one backward pass over the score, since every keep adds points.

use dice_tables_reader::tenk::{
    dice_left, Params, Tenk, ENTRY, MAX_KEEPS_PER_THROW, OPENING_STEPS, OPTION_FIRST, OPTION_KEEP, OPTION_POINTS,
    REACH, SCORE_STEPS, STEP, THROWS, TURN_VALUE,
};

use crate::artifact::{le_bytes, Section};
use crate::dice::{multisets, Dice};
use crate::solved::Solved;

/// Dice in a full throw.
const DICE: usize = 6;

/// A legal keep of a throw and what it scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeepOption {
    /// The dice kept.
    pub keep: Dice,
    /// What they score.
    pub points: u32,
}

/// How kept dice score: the house rules of the 10000 family. Each face's
/// kept dice form one group; groups of one throw add up; a whole throw of
/// six may also score as a straight or three pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Four, five and six of a kind: `None` doubles three of a kind's points
    /// for each die beyond three; `Some` gives these points whatever the face.
    pub of_a_kind: Option<[u32; 3]>,
    /// 1-2-3-4-5-6 in one throw of six.
    pub straight: u32,
    /// Three pairs in one throw of six.
    pub three_pairs: u32,
    /// Whether four of a kind and a pair also count as three pairs.
    pub four_and_pair: bool,
}

/// The seed's scoring (003), the existing 10000 table's: 1 = 100, 5 = 50,
/// three of a kind 100 x face (1s: 1000) doubled for each die beyond three,
/// straight 2000, three pairs 1500.
pub const SEED: Scoring = Scoring { of_a_kind: None, straight: 2000, three_pairs: 1500, four_and_pair: false };

/// A common online Farkle's (cardgames.io): 1 = 100, 5 = 50, three of a kind
/// 100 x face (1s: 1000), four, five, six of a kind 1000, 2000, 3000 of any
/// face, three pairs 1500 (four of a kind and a pair count), straight 2500.
pub const CARDGAMES: Scoring =
    Scoring { of_a_kind: Some([1000, 2000, 3000]), straight: 2500, three_pairs: 1500, four_and_pair: true };

impl Scoring {
    /// The points of `k` dice of `face` kept together from one throw; `None`
    /// where they cannot be kept (one or two of a face other than 1 and 5).
    pub fn group_points(&self, face: u8, k: u8) -> Option<u32> {
        match (face, k) {
            (_, 0) => Some(0),
            (1, 1) => Some(100),
            (1, 2) => Some(200),
            (5, 1) => Some(50),
            (5, 2) => Some(100),
            (_, 1 | 2) => None,
            (1, 3) => Some(1000),
            (face, 3) => Some(100 * u32::from(face)),
            (face, k) => Some(match self.of_a_kind {
                Some(points) => points[usize::from(k) - 4],
                None => self.group_points(face, 3)? << (k - 3),
            }),
        }
    }

    /// Every legal keep of a throw: any nonempty combination of scoring
    /// groups, and with six dice thrown the straight and three pairs. Most
    /// points first, then fewer dice kept: the order the reader lists them in
    /// and breaks ties by.
    pub fn keep_options(&self, throw: &Dice) -> Vec<KeepOption> {
        let counts = throw.counts();
        let mut options: Vec<KeepOption> =
            vec![KeepOption { keep: Dice::from_counts([0; 6]).expect("empty"), points: 0 }];
        for face in 1..=6u8 {
            let mut next = Vec::new();
            for o in &options {
                for k in 0..=counts[usize::from(face - 1)] {
                    if let Some(points) = self.group_points(face, k) {
                        let mut kept = o.keep.counts();
                        kept[usize::from(face - 1)] = k;
                        next.push(KeepOption {
                            keep: Dice::from_counts(kept).expect("a sub-throw"),
                            points: o.points + points,
                        });
                    }
                }
            }
            options = next;
        }
        options.retain(|o| o.points > 0);
        // The straight and three pairs keep the whole throw; where the groups
        // can keep it whole too (four 1s and two 5s), both are listed, and
        // the fewer points never matter.
        if throw.len() == DICE {
            let mut shape: Vec<u8> = counts.iter().copied().filter(|&c| c > 0).collect();
            shape.sort_unstable();
            if shape == [1; 6] {
                options.push(KeepOption { keep: *throw, points: self.straight });
            }
            if shape == [2, 2, 2] || (self.four_and_pair && shape == [2, 4]) {
                options.push(KeepOption { keep: *throw, points: self.three_pairs });
            }
        }
        options.sort_by(|a, b| {
            (b.points, a.keep.len(), a.keep.graded_rank()).cmp(&(a.points, b.keep.len(), b.keep.graded_rank()))
        });
        options
    }
}

/// The throws of d dice that score, grouped by their best outcomes: the most
/// points for each number of dice left (1..=6, 6 meaning hot dice). Keeps
/// with the same dice left and fewer points are never better (more points
/// are worth at least as much in both tables), so only these matter.
pub struct OutcomeClass {
    /// The chance of a throw of the class.
    pub probability: f64,
    /// (points in steps of 50, dice left) per dice-left count that can be reached.
    pub best: Vec<(usize, usize)>,
}

/// The outcome classes of a throw of d dice (busts are in none).
pub fn outcome_classes(d: usize, scoring: &Scoring) -> Vec<OutcomeClass> {
    let mut classes: Vec<OutcomeClass> = Vec::new();
    for throw in multisets(d) {
        let mut best = [0u32; DICE + 1];
        for option in scoring.keep_options(&throw) {
            let left = dice_left(d, option.keep.len());
            best[left] = best[left].max(option.points);
        }
        let best: Vec<(usize, usize)> =
            (1..=DICE).filter(|&l| best[l] > 0).map(|l| ((best[l] / STEP) as usize, l)).collect();
        let p = throw.probability();
        if best.is_empty() {
            continue;
        }
        if let Some(class) = classes.iter_mut().find(|c| c.best == best) {
            class.probability += p;
        } else {
            classes.push(OutcomeClass { probability: p, best });
        }
    }
    classes
}

/// Every throw's legal keeps under a scoring, as the tables store them: by
/// graded rank of the throw, where its keeps start (and one past the last),
/// and per keep the graded rank of the dice kept and its points.
pub struct KeepLists {
    /// Per throw: where its keeps start; one more entry ends the last.
    pub first: Vec<u32>,
    /// Per keep: the graded rank of the dice kept.
    pub keep: Vec<u16>,
    /// Per keep: its points.
    pub points: Vec<u16>,
}

impl KeepLists {
    /// The keep lists of every throw under `scoring`.
    pub fn of(scoring: &Scoring) -> KeepLists {
        let mut lists = KeepLists { first: vec![0], keep: Vec::new(), points: Vec::new() };
        for g in 0..THROWS {
            let throw = Dice::graded_unrank(g).expect("graded rank of at most six dice");
            let options = scoring.keep_options(&throw);
            // The reader holds a throw's keeps in a fixed-capacity list.
            assert!(options.len() <= MAX_KEEPS_PER_THROW, "throw {throw} has {} keeps", options.len());
            for option in options {
                lists.keep.push(option.keep.graded_rank() as u16);
                lists.points.push(option.points as u16);
            }
            lists.first.push(lists.keep.len() as u32);
        }
        lists
    }
}

/// Everything the table holds.
pub struct Solution {
    /// At `[d-1][i]`: expected banked points of throwing d dice at turn score
    /// 50 i and playing on optimally (the whole-turn value s + R(d, s)).
    pub turn_value: Vec<f64>,
    /// At `[d-1][i]`, i < 20: the chance of reaching 1000 this turn.
    pub reach: Vec<f64>,
    /// Every throw's legal keeps (by graded rank of the throw): offsets, and
    /// per keep the graded rank of the dice kept and its points.
    pub option_first: Vec<u32>,
    /// Per keep: the graded rank of the dice kept.
    pub option_keep: Vec<u16>,
    /// Per keep: its points.
    pub option_points: Vec<u16>,
}

/// One table by a backward pass over the score: at `[d-1][i]`, the
/// chance-weighted best, over each class's outcomes, of what keeping them is
/// worth, `after_keep(table, score index after, dice left)`; a bust is worth
/// 0. Generic, not `dyn`: `after_keep` is the inner loop.
fn backward(classes: &[Vec<OutcomeClass>], steps: usize, after_keep: impl Fn(&[f64], usize, usize) -> f64) -> Vec<f64> {
    let mut table = vec![0.0; DICE * steps];
    for i in (0..steps).rev() {
        for d in 1..=DICE {
            let v: f64 = classes[d]
                .iter()
                .map(|c| {
                    let best = c.best.iter().map(|&(a, left)| after_keep(&table, i + a, left));
                    c.probability * best.fold(f64::NEG_INFINITY, f64::max)
                })
                .sum();
            table[(d - 1) * steps + i] = v;
        }
    }
    table
}

/// Solves both tables and lists every throw's keeps.
pub fn solve() -> Solution {
    let classes: Vec<Vec<OutcomeClass>> = (0..=DICE).map(|d| outcome_classes(d, &SEED)).collect();
    // On the board: the better of banking and throwing on; past the table's
    // top score, banking is taken as best (the test checks throwing stopped
    // paying long before).
    let turn_value = backward(&classes, SCORE_STEPS, |table, i, left| {
        let banked = (i as u32 * STEP) as f64;
        if i >= SCORE_STEPS {
            banked
        } else {
            banked.max(table[(left - 1) * SCORE_STEPS + i])
        }
    });
    // Opening: reaching 1000 is success; below it the player must throw on.
    let entry = (ENTRY / STEP) as usize;
    let reach = backward(
        &classes,
        OPENING_STEPS,
        |table, i, left| {
            if i >= entry {
                1.0
            } else {
                table[(left - 1) * OPENING_STEPS + i]
            }
        },
    );
    let KeepLists { first: option_first, keep: option_keep, points: option_points } = KeepLists::of(&SEED);
    Solution { turn_value, reach, option_first, option_keep, option_points }
}

impl Solution {
    /// States: every (dice, score) of both tables.
    pub fn states(&self) -> u64 {
        (self.turn_value.len() + self.reach.len()) as u64
    }

    /// The table's sections.
    pub fn into_sections(self) -> Vec<Section> {
        let params = self.params();
        vec![
            Section::of(&TURN_VALUE, &params, le_bytes(&self.turn_value, f64::to_le_bytes)),
            Section::of(&REACH, &params, le_bytes(&self.reach, f64::to_le_bytes)),
            Section::of(&OPTION_FIRST, &params, le_bytes(&self.option_first, u32::to_le_bytes)),
            Section::of(&OPTION_KEEP, &params, le_bytes(&self.option_keep, u16::to_le_bytes)),
            Section::of(&OPTION_POINTS, &params, le_bytes(&self.option_points, u16::to_le_bytes)),
        ]
    }

    /// The sizes of the table.
    pub fn params(&self) -> Params {
        Params { options: self.option_keep.len() as u64 }
    }
}

/// The 10000 table (its rules are fixed).
pub fn solve_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solution = solve();
    progress(1, 1);
    Solved::new::<Tenk>(&solution.params(), solution.states(), solution.into_sections())
}
