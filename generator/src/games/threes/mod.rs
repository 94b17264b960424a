//! threes.
//!
//! Five dice; each is worth its face, a 3 worth 0; the lowest final total
//! wins. After each roll the player keeps the c lowest-worth dice just rolled
//! (c = 1..n, at least one) and rerolls the rest, until all five are kept.
//! A player knows the record (the lowest total before them, or none) and how
//! many players come after. Objectives: the lowest expected total, or the
//! best chance of success under a tie rule (`win`: at most the record and no
//! later player strictly below; `lose`: strictly below the record and no
//! later player at or below) and a model of the later players (`independent`:
//! each plays a fresh turn only to beat you; `sequential`: each plays this
//! same game optimally with their own players after them).
//!
//! Both models reduce to one turn DP per (record, players after) over states
//! (points, dice left), with the success of a final total t as the terminal
//! value: `[t beats the record] * survival(t)`. The models differ only in
//! survival, the chance that every later player fails to kill t.

use dice_tables_reader::threes::{
    best_choice, decode_chance, state_index, worth, Model, Params, Threes, Ties, AFTER, CHANCE, EXCEPTION_KEEP,
    EXCEPTION_KEY, EXPECTED, FACES_BY_WORTH, MAX_TOTAL, NO_RECORD, RECORDS, ROLL_STRIDE, TIE_EPSILON,
};
use rayon::prelude::*;

use crate::artifact::{le_bytes, Section};
use crate::dice::{multisets, Dice};
use crate::solved::Solved;

/// Dice in a turn.
const DICE: usize = 5;
/// Points reachable in a DP over points 0..=30 that keeps more dice: 30 + 30.
const POINTS_SPAN: usize = 2 * MAX_TOTAL + 1;
/// A state (points, dice left) in the DP's value arrays.
fn state(points: usize, dice: usize) -> usize {
    points * (DICE + 1) + dice
}

/// One node of the tree of rolls sorted lowest worth first: the dice of the
/// first `depth` positions are those of its parent plus one, `prefixes[c-1]`
/// is the worth of the c lowest (c = 1..=depth). Leaves (depth = dice thrown)
/// carry the roll's probability and rank. Walking the nodes in preorder lets a running best over "keep
/// the c lowest" share its work across every roll with the same c lowest dice.
#[derive(Clone, Copy)]
struct RollNode {
    depth: u8,
    /// Leaves: the roll's rank among rolls of its dice (`Dice::rank`).
    rank: u16,
    probability: f64,
    prefixes: [u8; DICE],
}

/// The roll trees of 1..=5 dice.
pub struct RollTrees(Vec<Vec<RollNode>>);

impl RollTrees {
    /// The trees of every roll of 1 to 5 dice.
    pub fn new() -> RollTrees {
        let mut trees = vec![Vec::new()];
        for n in 1..=DICE {
            // Sorted rolls by worth class: every nondecreasing sequence of classes.
            let mut nodes = Vec::new();
            fn walk(n: usize, depth: usize, start: usize, classes: &mut [usize; DICE], out: &mut Vec<RollNode>) {
                for class in start..FACES_BY_WORTH.len() {
                    classes[depth] = class;
                    let mut prefixes = [0u8; DICE];
                    for c in 0..=depth {
                        prefixes[c] = worth(FACES_BY_WORTH[classes[c]]) + if c > 0 { prefixes[c - 1] } else { 0 };
                    }
                    let (rank, probability) = if depth + 1 == n { leaf(&classes[..n]) } else { (0, 0.0) };
                    out.push(RollNode { depth: depth as u8 + 1, rank, probability, prefixes });
                    if depth + 1 < n {
                        walk(n, depth + 1, class, classes, out);
                    }
                }
            }
            walk(n, 0, 0, &mut [0; DICE], &mut nodes);
            trees.push(nodes);
        }
        RollTrees(trees)
    }
}

impl Default for RollTrees {
    fn default() -> RollTrees {
        RollTrees::new()
    }
}

/// The rank and probability of a sorted roll given by its worth classes.
fn leaf(classes: &[usize]) -> (u16, f64) {
    let faces: Vec<u8> = classes.iter().map(|&c| FACES_BY_WORTH[c]).collect();
    let dice = Dice::from_faces(&faces).expect("1-5 dice");
    (dice.rank() as u16, dice.probability())
}

/// A chance as the table stores it (see `decode_chance`).
/// Sums of probabilities can land a rounding error outside 0..=1: clamp.
pub fn encode_chance(p: f64) -> f32 {
    let p = p.clamp(0.0, 1.0);
    if p > 0.5 {
        -((1.0 - p) as f32)
    } else {
        p as f32
    }
}

/// A chance as a reader of the table sees it.
fn as_stored(p: f64) -> f64 {
    decode_chance(encode_chance(p).to_bits())
}

/// One number per record (0..=30, then none): every record's DP runs in
/// step, so the roll tree is walked once for all 32 and the arithmetic is
/// the same on every lane.
type Lanes = [f64; RECORDS];

/// Lanes per vector-friendly chunk.
const CHUNK: usize = 4;

/// The chance of success of each final total 0..POINTS_SPAN.
type Terminal = [f64; POINTS_SPAN];

/// A decision the reader's rule, applied to the chances it reads, would not
/// make: the keep count of the exact (f64) policy for this roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exception {
    /// The record, or the table's value for none.
    pub record: u8,
    /// Points kept before the roll.
    pub points: u8,
    /// Dice rolled.
    pub dice: u8,
    /// The roll's rank among rolls of that many dice.
    pub roll_rank: u16,
    /// The exact policy's keep count.
    pub keep: u8,
}

/// Values per (record, points 0..=30, dice 0..=5) of one (ties, model,
/// players after); per record t the chance that a player facing t ends below
/// it (ties win) or at or below it (ties lose), which the sequential model's
/// next layer needs; and the reader's exceptions.
struct Layer {
    values: Vec<f64>,
    kills: [f64; MAX_TOTAL + 1],
    exceptions: Vec<Exception>,
}

/// Entries of one layer: every (record, points, dice).
const LAYER: usize = RECORDS * (MAX_TOTAL + 1) * (DICE + 1);

/// Solves one (ties, players after) for every record, given the survival of
/// each final total against the players after.
///
/// The turn DP runs over states (points, dice left), points up to 60 since
/// the table also answers for unreachable points: success of a final total t
/// is `[t beats the record] * survival[t]`. With `EVENTS`, alongside it runs
/// the chance, under the same policy, of "ends below the record" (or at or
/// below, ties lose): with the record set to a player's total, the chance a
/// later player kills it. A state that cannot succeed (points past the record)
/// is worth 0 whatever is kept, so the fewer-dice rule keeps one die per
/// throw: its event chance is 0, except at points equal to the record under
/// ties lose, where it is the chance every throw shows a 3.
fn solve_layer<const EVENTS: bool>(trees: &RollTrees, ties: Ties, survival: &Terminal) -> Layer {
    let (mut value, mut stored, mut event) = final_states(ties, survival);
    let zero = [0.0; RECORDS];
    let all_threes = |dice: usize| (1..=dice).map(|m| 1.0 - (5.0f64 / 6.0).powi(m as i32)).product::<f64>();
    let mut exceptions = Vec::new();
    // The running best of "keep the c lowest" along the current path, per
    // record: exact chance, its event chance, the reader's chance, and whether
    // the two rules have chosen differently anywhere on the path.
    let mut best_value = [zero; DICE + 1];
    let mut best_event = [zero; DICE + 1];
    let mut best_stored = [zero; DICE + 1];
    let mut diverged = [zero; DICE + 1];
    best_value[0] = [f64::NEG_INFINITY; RECORDS];
    best_stored[0] = [f64::NEG_INFINITY; RECORDS];
    for dice in 1..=DICE {
        for points in 0..=MAX_TOTAL {
            // Records at or below `first` cannot succeed from these points.
            let first = match ties {
                Ties::Win => points,
                Ties::Lose => points + 1,
            };
            // Solve whole chunks of lanes.
            let lo = first.min(NO_RECORD) / CHUNK * CHUNK;
            let (mut v, mut e) = (zero, zero);
            for node in &trees.0[dice] {
                let d = usize::from(node.depth);
                let next = state(points + usize::from(node.prefixes[d - 1]), dice - d);
                let (next_value, next_stored, next_event) = (&value[next], &stored[next], &event[next]);
                let (before_value, here_value) = split(&mut best_value, d);
                let (before_stored, here_stored) = split(&mut best_stored, d);
                let (before_event, here_event) = split(&mut best_event, d);
                let (before_diverged, here_diverged) = split(&mut diverged, d);
                // Fixed-width chunks of lanes, so the compiler emits vector code.
                for chunk in lo / CHUNK..RECORDS / CHUNK {
                    for r in chunk * CHUNK..chunk * CHUNK + CHUNK {
                        // Keep more dice only when that is better by more than
                        // the tie tolerance: the model's fewer-dice rule.
                        // Selections by bit masks: branch-free, so vectorised.
                        let exact = mask(next_value[r] > before_value[r] + TIE_EPSILON);
                        let read = mask(next_stored[r] > before_stored[r] + TIE_EPSILON);
                        here_value[r] = select(exact, next_value[r], before_value[r]);
                        here_stored[r] = select(read, next_stored[r], before_stored[r]);
                        if EVENTS {
                            here_event[r] = select(exact, next_event[r], before_event[r]);
                        }
                        here_diverged[r] = select(exact ^ read, 1.0, before_diverged[r]);
                    }
                }
                if d == dice {
                    let mut any_diverged = 0u64;
                    for chunk in lo / CHUNK..RECORDS / CHUNK {
                        for r in chunk * CHUNK..chunk * CHUNK + CHUNK {
                            v[r] += node.probability * here_value[r];
                            if EVENTS {
                                e[r] += node.probability * here_event[r];
                            }
                            any_diverged |= here_diverged[r].to_bits();
                        }
                    }
                    if any_diverged != 0 {
                        // The two rules chose differently somewhere on this
                        // roll's path: compare their final choices.
                        let at = (points, dice, lo);
                        push_exceptions(&mut exceptions, node, at, here_diverged, &value, &stored);
                    }
                }
            }
            for r in lo..RECORDS {
                value[state(points, dice)][r] = v[r];
                stored[state(points, dice)][r] = as_stored(v[r]);
                event[state(points, dice)][r] = e[r];
            }
            if EVENTS && ties == Ties::Lose && points < lo {
                // Lanes below `lo` stay at chance 0; at points equal to the
                // record a tie-losing player can still end exactly on it.
                event[state(points, dice)][points] = all_threes(dice);
            }
        }
    }
    let by_state = (0..=MAX_TOTAL).flat_map(|points| (0..=DICE).map(move |dice| state(points, dice)));
    let values: Vec<f64> =
        (0..RECORDS).flat_map(|record| by_state.clone().map(move |i| (i, record))).map(|(i, r)| value[i][r]).collect();
    let kills = std::array::from_fn(|record| event[state(0, DICE)][record]);
    exceptions.sort_unstable();
    Layer { values, kills, exceptions }
}

/// The states past the turn: each final total's chance of success (it
/// beats the record and the player survives to it) and whether it kills
/// the record, for every record; past 30 every number of dice left ends
/// there at once.
fn final_states(ties: Ties, survival: &Terminal) -> (Vec<Lanes>, Vec<Lanes>, Vec<Lanes>) {
    let beats = |record: usize, total: usize| match (record == NO_RECORD, ties) {
        (true, _) => true,
        (false, Ties::Win) => total <= record,
        (false, Ties::Lose) => total < record,
    };
    let kills = |record: usize, total: usize| {
        record != NO_RECORD
            && match ties {
                Ties::Win => total < record,
                Ties::Lose => total <= record,
            }
    };
    let zero = [0.0; RECORDS];
    let states = POINTS_SPAN * (DICE + 1);
    let (mut value, mut stored, mut event) = (vec![zero; states], vec![zero; states], vec![zero; states]);
    for points in 0..POINTS_SPAN {
        for record in 0..RECORDS {
            let success = if beats(record, points) { survival[points] } else { 0.0 };
            let killed = if kills(record, points) { 1.0 } else { 0.0 };
            // Past 30 every final total is past 30: success is constant and
            // no record is beaten, whatever is kept.
            for dice in 0..=if points > MAX_TOTAL { DICE } else { 0 } {
                value[state(points, dice)][record] = success;
                stored[state(points, dice)][record] = as_stored(success);
                event[state(points, dice)][record] = killed;
            }
        }
    }
    (value, stored, event)
}

/// The decisions of a roll (`node`, at `points` with `dice` thrown, lanes
/// from `lo`) where the stored values keep other dice than the exact
/// ones, for each record whose path `diverged`.
fn push_exceptions(
    exceptions: &mut Vec<Exception>,
    node: &RollNode,
    (points, dice, lo): (usize, usize, usize),
    diverged: &Lanes,
    value: &[Lanes],
    stored: &[Lanes],
) {
    for r in (lo..RECORDS).filter(|&r| diverged[r] > 0.0) {
        let option = |c: usize| state(points + usize::from(node.prefixes[c - 1]), dice - c);
        let keep = best_choice((1..=dice).map(|c| value[option(c)][r])) + 1;
        if keep != best_choice((1..=dice).map(|c| stored[option(c)][r])) + 1 {
            exceptions.push(Exception {
                record: r as u8,
                points: points as u8,
                dice: dice as u8,
                roll_rank: node.rank,
                keep: keep as u8,
            });
        }
    }
}

/// All ones when `c`, else zero.
#[inline(always)]
fn mask(c: bool) -> u64 {
    (c as u64).wrapping_neg()
}

/// `a` where `mask` is all ones, else `b`.
#[inline(always)]
fn select(mask: u64, a: f64, b: f64) -> f64 {
    f64::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

/// The running best at depth `d - 1` (read) and at depth `d` (written).
fn split(path: &mut [Lanes; DICE + 1], d: usize) -> (&Lanes, &mut Lanes) {
    let (before, here) = path.split_at_mut(d);
    (&before[d - 1], &mut here[0])
}

/// Survival past 30 points: certain with nobody after, impossible otherwise
/// (any later turn ends at 30 or below).
fn survival_curve(after: usize, survive: impl Fn(usize) -> f64) -> Terminal {
    std::array::from_fn(|t| {
        if t <= MAX_TOTAL {
            survive(t)
        } else if after == 0 {
            1.0
        } else {
            0.0
        }
    })
}

/// Everything the table holds.
pub struct Solution {
    /// Success chance per state, record `NO_RECORD` = none, in the layout of
    /// the table's `chance` section (`state_index`).
    pub chance: Vec<f64>,
    /// The expected final worth of n fresh dice, n = 0..=5.
    pub expected: [f64; DICE + 1],
    /// The decisions the reader's rule gets wrong from f32 chances, as
    /// (state index in `chance` * 252 + roll rank, keep count), sorted.
    pub exceptions: Vec<(u32, u8)>,
}

/// Solves every table: both tie rules, both models, 0..16 players after.
pub fn solve() -> Solution {
    let trees = RollTrees::new();
    let ties_rules = [Ties::Win, Ties::Lose];
    // With nobody after, both models are the same game.
    let nobody_after: Vec<Layer> =
        ties_rules.par_iter().map(|&ties| solve_layer::<true>(&trees, ties, &survival_curve(0, |_| 1.0))).collect();
    // The independent model's later player only tries to beat t: the best
    // chance to end below t (ties win) is the nobody-after ties-lose value at
    // record t, and at or below t the ties-win value.
    let fresh_turn = |layer: &Layer, t: usize| layer.values[(t * (MAX_TOTAL + 1)) * (DICE + 1) + DICE];
    let layers: Vec<Vec<Layer>> = ties_rules
        .par_iter()
        .enumerate()
        .map(|(i, &ties)| {
            let other = &nobody_after[1 - i];
            let beaten: Vec<f64> = (0..=MAX_TOTAL).map(|t| fresh_turn(other, t)).collect();
            let independent: Vec<Layer> = (1..AFTER)
                .into_par_iter()
                .map(|after| {
                    let curve = survival_curve(after, |t| (1.0 - beaten[t]).powi(after as i32));
                    solve_layer::<false>(&trees, ties, &curve)
                })
                .collect();
            // Sequential: each layer's kill chances extend the survival of the next.
            let mut sequential = Vec::with_capacity(AFTER - 1);
            let mut survive = [1.0; MAX_TOTAL + 1];
            let mut previous = &nobody_after[i];
            for after in 1..AFTER {
                for (s, k) in survive.iter_mut().zip(previous.kills) {
                    *s *= 1.0 - k;
                }
                sequential.push(solve_layer::<true>(&trees, ties, &survival_curve(after, |t| survive[t])));
                previous = sequential.last().expect("just pushed");
            }
            independent.into_iter().chain(sequential).collect()
        })
        .collect();
    let mut chance = vec![0.0; 2 * 2 * AFTER * LAYER];
    let mut exceptions = Vec::new();
    for (i, ties_layers) in layers.iter().enumerate() {
        let ties = ties_rules[i];
        for model in [Model::Independent, Model::Sequential] {
            let range = match model {
                Model::Independent => 0..AFTER - 1,
                Model::Sequential => AFTER - 1..2 * (AFTER - 1),
            };
            for (after, layer) in std::iter::once(&nobody_after[i]).chain(&ties_layers[range]).enumerate() {
                // A layer's values are per (record, points, dice).
                for (j, &v) in layer.values.iter().enumerate() {
                    let per_record = (MAX_TOTAL + 1) * (DICE + 1);
                    let (record, points, dice) = (j / per_record, j / (DICE + 1) % (MAX_TOTAL + 1), j % (DICE + 1));
                    chance[state_index(ties, model, after, record, points, dice)] = v;
                }
                exceptions.extend(layer.exceptions.iter().map(|x| {
                    let (record, points, dice) = (usize::from(x.record), usize::from(x.points), usize::from(x.dice));
                    let state = state_index(ties, model, after, record, points, dice);
                    ((state * ROLL_STRIDE + usize::from(x.roll_rank)) as u32, x.keep)
                }));
            }
        }
    }
    exceptions.sort_unstable();
    Solution { chance, expected: expected_totals(), exceptions }
}

/// The expected final worth of n fresh dice, minimised: keeping c lowest of a
/// roll adds their worth and leaves n - c dice.
fn expected_totals() -> [f64; DICE + 1] {
    let mut expected = [0.0; DICE + 1];
    for n in 1..=DICE {
        expected[n] = multisets(n)
            .iter()
            .map(|roll| {
                let mut worths: Vec<u8> = roll.faces().map(worth).collect();
                worths.sort_unstable();
                let totals: Vec<f64> =
                    (1..=n).map(|c| worths[..c].iter().map(|&w| f64::from(w)).sum::<f64>() + expected[n - c]).collect();
                roll.probability() * totals[best_choice(totals.iter().map(|t| -t))]
            })
            .sum();
    }
    expected
}

impl Solution {
    /// States: every (ties, model, players after, record, points, dice left).
    pub fn states(&self) -> u64 {
        self.chance.len() as u64
    }

    /// The table's sections.
    pub fn into_sections(self) -> Vec<Section> {
        let params = self.params();
        let chances: Vec<f32> = self.chance.iter().map(|&p| encode_chance(p)).collect();
        let (keys, keeps): (Vec<u32>, Vec<u8>) = self.exceptions.into_iter().unzip();
        vec![
            Section::of(&CHANCE, &params, le_bytes(&chances, f32::to_le_bytes)),
            Section::of(&EXPECTED, &params, le_bytes(&self.expected, f64::to_le_bytes)),
            Section::of(&EXCEPTION_KEY, &params, le_bytes(&keys, u32::to_le_bytes)),
            Section::of(&EXCEPTION_KEEP, &params, keeps),
        ]
    }

    /// The sizes of the table.
    pub fn params(&self) -> Params {
        Params { exceptions: self.exceptions.len() as u64 }
    }
}

/// The threes table (its rules are fixed).
pub fn solve_table(_: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solution = solve();
    progress(1, 1);
    Solved::new::<Threes>(&solution.params(), solution.states(), solution.into_sections())
}
