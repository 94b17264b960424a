//! 10000 against an opponent ("duel": the seed's scoring, entry 1000;
//! "duel-cardgames": a common online Farkle's scoring, no entry).
//!
//! Two players alternate whole turns of 10000 (see [`crate::games::tenk`]): keep
//! scoring dice, bank or throw the rest, hot dice, a bust loses the turn's
//! points. A player who has banked nothing may bank only with at least the
//! entry in that turn. The first whose bank reaches the goal wins at once.
//! Both maximise their chance of winning.
//!
//! W(a, b), the chance that the player to move with a banked wins against b,
//! depends on W(b, a + s) for the banks s > 0 (a larger sum of totals) and
//! on W(b, a) through a bust (the same sum): so the pairs are solved by
//! descending sum, and at each sum every pair with its partner (b, a) is a
//! fixed point in two unknowns. A turn's value is convex and piecewise
//! linear in the bust value (a maximum over strategies of affine functions),
//! so Newton's method on each pair, with the slope the solve carries beside
//! each value (the chance that the chosen strategy busts), lands on the
//! exact fixed point once the strategies stop changing: two or three passes
//! a sum. Each pass solves eight pairs' turns at once, one in each lane,
//! over the same outcome classes.

use dice_tables_reader::duel::{
    CardgamesDuel, Params, SeedDuel, BANK_FROM, OPTION_FIRST, OPTION_KEEP, OPTION_POINTS, WIN,
};
use dice_tables_reader::tenk::STEP;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::artifact::{le_bytes, Section};
use crate::cpu::{Kernel, Lanes, Simd, W};
use crate::games::tenk::{outcome_classes, KeepLists, Scoring, CARDGAMES, SEED};
use crate::solved::{Figure, Solved};

mod versus;
pub use versus::{versus_points, Versus};

/// Dice in a full throw.
const DICE: usize = 6;
/// Newton steps below this end a pair's iteration.
pub const TOLERANCE: f64 = 1e-15;
/// Passes at one sum before the solver gives up (it never needs more than a few).
const MAX_PASSES: usize = 60;

/// A duel's rules: the scoring, the entry and the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// What kept dice score.
    pub scoring: Scoring,
    /// The turn score a player on 0 needs to bank (0: none), a multiple of 50.
    pub entry: u32,
    /// The total that wins, a multiple of 50.
    pub goal: u32,
}

/// The `duel` table's rules.
pub const SEED_RULES: Rules = Rules { scoring: SEED, entry: 1000, goal: 10_000 };
/// The `duel-cardgames` table's rules.
pub const CARDGAMES_RULES: Rules = Rules { scoring: CARDGAMES, entry: 0, goal: 10_000 };

/// A preset with the entry and goal the command line set.
fn overridden(preset: Rules, overrides: &crate::rules::DuelOverrides) -> Rules {
    Rules { entry: overrides.entry.unwrap_or(preset.entry), goal: overrides.goal.unwrap_or(preset.goal), ..preset }
}

/// The `duel` table: [`SEED_RULES`] unless the command line says otherwise.
pub fn solve_seed_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<SeedDuel>(&overridden(SEED_RULES, &rules.duel), progress)
}

/// The `duel-cardgames` table: [`CARDGAMES_RULES`] unless the command line says otherwise.
pub fn solve_cardgames_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<CardgamesDuel>(&overridden(CARDGAMES_RULES, &rules.duel), progress)
}

fn solve_table<G: dice_tables_reader::Game<Params = Params>>(
    rules: &Rules,
    progress: &mut dyn FnMut(usize, usize),
) -> Solved {
    let solution = solve(rules, progress);
    let first = solution.win[0];
    let (head_start, at_head_start) = solution.fair_head_start();
    let n = solution.totals() as u64;
    // Head to head against the tenk table's points player (the seed's rules only).
    let started = std::time::Instant::now();
    let versus = versus_points(&solution, crate::games::tenk::solve, Simd::detect());
    let figures_time = started.elapsed();
    let (params, sections) = solution.into_sections();
    let mut solved = Solved::new::<G>(&params, n * n, sections);
    solved.figures_time = figures_time;
    solved.figures = vec![
        Figure { key: "first_player", value: first, text: format!("the first player wins {:.4}%", 100.0 * first) },
        Figure {
            key: "fair_head_start",
            value: f64::from(head_start),
            text: format!(
                "fair head start {head_start} (the second player starting on {head_start}: first player {:.4}%)",
                100.0 * at_head_start
            ),
        },
    ];
    if let Some(v) = versus {
        solved.figures.push(Figure {
            key: "versus_points",
            value: v.average(),
            text: format!(
                "against tenk's points player it wins {:.4}% ({:.4}% moving first, {:.4}% second)",
                100.0 * v.average(),
                100.0 * v.moving_first,
                100.0 * v.moving_second
            ),
        });
    }
    solved
}

/// The outcome classes of every number of dice, flattened for the lanes.
struct Outcomes {
    /// Per d in 1..=6: the range of its classes.
    by_dice: [(usize, usize); DICE + 1],
    /// (probability, options start, options end).
    classes: Vec<(f64, usize, usize)>,
    /// Each option as an offset into the after-keep rows: points / 50 * 6 + dice left - 1.
    options: Vec<usize>,
    /// The chance that d dice score nothing.
    bust: [f64; DICE + 1],
    /// The most points one keep scores, in steps of 50.
    max_steps: usize,
    /// Per d and per `REACH[i]`: the chance that d dice score, in a class
    /// whose keeps all add at most `REACH[i]` steps and more than the one
    /// before (the last: every other class).
    reach_chance: [[f64; REACH.len()]; DICE + 1],
    /// Per d: one past the last group of `reach_chance[d]` with a chance
    /// (the groups after it add nothing to the bound: 0 times a chance).
    reach_groups: [usize; DICE + 1],
    /// Whether the turn solve leaves out the throws that banking surely
    /// beats (off only to test that it changes nothing).
    skip_sure_banks: bool,
}

/// How far (steps) the keeps of a class may take the turn score, in the
/// classes' groups for the bound on a throw's value (see `turn_lanes`).
const REACH: [usize; 7] = [2, 4, 8, 16, 32, 64, usize::MAX];

/// What the bound on a throw's value adds, so that it stays above the
/// throw's value as computed: the stored chances are within 1e-12 of the
/// exact ones (tests/tests/integration/duel.rs), so neither a class's rows nor their
/// sums exceed the exact bound by more.
const BOUND_MARGIN: f64 = 1e-9;

impl Outcomes {
    fn new(scoring: &Scoring) -> Outcomes {
        let mut o = Outcomes {
            by_dice: [(0, 0); DICE + 1],
            classes: Vec::new(),
            options: Vec::new(),
            bust: [0.0; DICE + 1],
            max_steps: 0,
            reach_chance: [[0.0; REACH.len()]; DICE + 1],
            reach_groups: [0; DICE + 1],
            skip_sure_banks: true,
        };
        for d in 1..=DICE {
            let start = o.classes.len();
            let classes = outcome_classes(d, scoring);
            o.bust[d] = 1.0 - classes.iter().map(|c| c.probability).sum::<f64>();
            for class in classes {
                let reach = class.best.iter().map(|&(steps, _)| steps).max().expect("a scoring class has a keep");
                let group = REACH.iter().position(|&r| reach <= r).expect("the last reaches any");
                o.reach_chance[d][group] += class.probability;
                let first = o.options.len();
                for &(steps, left) in &class.best {
                    o.options.push(steps * DICE + left - 1);
                    o.max_steps = o.max_steps.max(steps);
                }
                o.classes.push((class.probability, first, o.options.len()));
            }
            o.by_dice[d] = (start, o.classes.len());
            o.reach_groups[d] = o.reach_chance[d].iter().rposition(|&p| p > 0.0).map_or(0, |g| g + 1);
        }
        o
    }
}

/// The solved game.
pub struct Solution {
    /// The rules solved.
    pub rules: Rules,
    /// At `a * n + b` (totals in steps of 50, n = goal / 50): W(a, b).
    pub win: Vec<f64>,
    /// At `a * n + b`: the slope of W(a, b) in the bust value (the chance
    /// that the mover's best strategy busts), which bounds how an error in
    /// the partner's chance carries into this one.
    pub bust_slope: Vec<f64>,
    /// At `a * n + b`: the turn scores (steps) from which the mover's best
    /// strategy always banks, rather than throw six dice and fewer: so a
    /// lookup solves the turn below them only.
    pub bank_from: Vec<[u16; 2]>,
    /// Passes over the pairs of each sum, in all.
    pub passes: usize,
    /// Pair turns solved, in all (a pass solves every pair of its sum not yet settled).
    pub turns_solved: usize,
    /// Throws of d dice at one turn score of a block of pairs' turns that
    /// banking surely beat in every pair, so left unsolved, in all.
    pub throws_left_out: usize,
}

impl Solution {
    /// Totals below the goal.
    pub fn totals(&self) -> usize {
        (self.rules.goal / STEP) as usize
    }

    /// W(a, b) for totals in points.
    pub fn win_chance(&self, a: u32, b: u32) -> f64 {
        self.win[(a / STEP) as usize * self.totals() + (b / STEP) as usize]
    }

    /// The second player's starting total (a multiple of 50 below the goal)
    /// that brings the first player's chance closest to one half, and that chance.
    pub fn fair_head_start(&self) -> (u32, f64) {
        let n = self.totals();
        (0..n)
            .map(|h| (h as u32 * STEP, self.win[h]))
            .min_by(|x, y| (x.1 - 0.5).abs().total_cmp(&(y.1 - 0.5).abs()))
            .expect("at least one total")
    }
}

/// One lane's pair: the mover's total a and the opponent's b (in steps),
/// and the bust value 1 - x(b, a) this pass assumes.
#[derive(Clone, Copy, Default)]
struct Lane {
    a: usize,
    b: usize,
    bust: f64,
}

/// A pass's buffers for one block of lanes.
struct Workspace {
    /// At `(s * 6 + d - 1)`: per lane, the chance of winning with turn score
    /// s and d dice to throw, banking or throwing, and beside it its slope in
    /// the bust value (together, as they are read together).
    after: Vec<Row>,
    /// At s: per lane, the chance of winning by banking s (-1 where not
    /// allowed; infinite at the goal, where the lane wins: read as 1).
    bank: Vec<[f64; W]>,
    /// At s: per lane, what a bank at s carries (see [`Carry`]).
    bank_carry: Vec<[f64; W]>,
    /// At s: per lane, the greatest after-keep value of the six rows at s
    /// (for the bound on a throw's value).
    best_row: Vec<[f64; W]>,
}

/// An after-keep row: per lane, a value and its slope, aligned to cache
/// lines so that no 32-byte load of one splits across two.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Row([[f64; W]; 2]);

impl Workspace {
    fn new() -> Workspace {
        Workspace { after: Vec::new(), bank: Vec::new(), bank_carry: Vec::new(), best_row: Vec::new() }
    }
}

/// The second quantity the turn solve carries beside each value, along the
/// strategy the values choose: what a bust, a bank at turn score s and
/// reaching the goal each contribute. The slope in the bust value (1, 0, 0)
/// for the solve; another player's chance for head-to-head evaluation.
struct Carry<'a> {
    bust: f64,
    bank: &'a (dyn Fn(&Lane, usize) -> f64 + Sync),
    goal: f64,
}

/// The slope of a turn's value in its bust value: the chance that the
/// chosen strategy busts.
const SLOPE: Carry<'static> = Carry { bust: 1.0, bank: &|_, _| 0.0, goal: 0.0 };

/// Solves the game.
pub fn solve(rules: &Rules, progress: &mut dyn FnMut(usize, usize)) -> Solution {
    solve_on(rules, progress, Simd::detect())
}

/// [`solve`], with the lanes built for the given vector instructions.
pub fn solve_on(rules: &Rules, progress: &mut dyn FnMut(usize, usize), simd: Simd) -> Solution {
    solve_with(rules, progress, simd, true)
}

/// [`solve_on`], leaving out the throws that banking surely beats or not.
fn solve_with(rules: &Rules, progress: &mut dyn FnMut(usize, usize), simd: Simd, skip_sure_banks: bool) -> Solution {
    assert!(
        rules.goal >= STEP
            && rules.goal.is_multiple_of(STEP)
            && rules.entry.is_multiple_of(STEP)
            && rules.entry <= rules.goal
    );
    let o = Outcomes { skip_sure_banks, ..Outcomes::new(&rules.scoring) };
    let n = (rules.goal / STEP) as usize;
    let entry = (rules.entry / STEP) as usize;
    let mut win = vec![f64::NAN; n * n];
    let mut bust_slope = vec![f64::NAN; n * n];
    let mut bank_from = vec![[0u16; 2]; n * n];
    let (mut passes, mut turns_solved, mut throws_left_out) = (0, 0, 0);
    let top_sum = 2 * (n - 1);
    for sum in (0..=top_sum).rev() {
        let first_a = sum.saturating_sub(n - 1);
        let pairs = sum.min(n - 1) + 1 - first_a;
        // x[i]: the current estimate of W(first_a + i, sum - first_a - i),
        // from the pairs one step up (more points never hurt, so W(a, b) lies
        // between W(a, b + 1) and W(a + 1, b)).
        let at = |win: &[f64], a: usize, b: usize| {
            if a >= n {
                1.0
            } else if b >= n {
                0.0
            } else {
                win[a * n + b]
            }
        };
        let mut x: Vec<f64> = (0..pairs)
            .map(|i| {
                let (a, b) = (first_a + i, sum - first_a - i);
                (at(&win, a + 1, b) + at(&win, a, b + 1) - at(&win, a + 1, b + 1))
                    .clamp(at(&win, a, b + 1), at(&win, a + 1, b))
            })
            .collect();
        let mut open: Vec<usize> = (0..pairs).collect();
        let mut value = vec![0.0; pairs];
        let mut slope = vec![0.0; pairs];
        let mut from = vec![[0u16; 2]; pairs];
        for pass in 0.. {
            assert!(pass < MAX_PASSES, "sum {sum}: no fixed point after {MAX_PASSES} passes");
            passes += 1;
            turns_solved += open.len();
            let lanes: Vec<Lane> = open
                .iter()
                .map(|&i| Lane { a: first_a + i, b: sum - first_a - i, bust: 1.0 - x[pairs - 1 - i] })
                .collect();
            let solved = par_blocks(&lanes, |block, ws| solve_block(&o, n, entry, &win, block, &SLOPE, ws, simd));
            throws_left_out += solved.iter().map(|t| t.left_out).sum::<usize>();
            for (k, &i) in open.iter().enumerate() {
                value[i] = solved[k / W].start[k % W];
                slope[i] = solved[k / W].carried[k % W];
                from[i] = solved[k / W].bank_from[k % W];
            }
            // Newton on each open pair (i, its partner pairs - 1 - i): the
            // linearised u = value_u + slope_u (1 - v - bust_u), and v alike.
            let mut next = x.clone();
            for &i in &open {
                let j = pairs - 1 - i;
                let (bu, bv) = (slope[i], slope[j]);
                let (au, av) = (value[i] - bu * (1.0 - x[j]), value[j] - bv * (1.0 - x[i]));
                next[i] = (au + bu * (1.0 - av - bv)) / (1.0 - bu * bv);
            }
            let step = |i: usize| (next[i] - x[i]).abs();
            let settled = |i: usize| step(i) <= TOLERANCE && step(pairs - 1 - i) <= TOLERANCE;
            open.retain(|&i| !settled(i));
            x = next;
            if open.is_empty() {
                break;
            }
        }
        for i in 0..pairs {
            win[(first_a + i) * n + sum - first_a - i] = value[i];
            bust_slope[(first_a + i) * n + sum - first_a - i] = slope[i];
            bank_from[(first_a + i) * n + sum - first_a - i] = from[i];
        }
        progress(top_sum - sum + 1, top_sum + 1);
    }
    Solution { rules: *rules, win, bust_slope, bank_from, passes, turns_solved, throws_left_out }
}

/// `solve` on each block of [`W`] lanes, on every thread of the pool, in
/// the blocks' order: each thread takes the next block as it finishes one.
/// The callers list the lanes by rising total, so the longest turns come
/// first and the last blocks taken are short; rayon's halving split leaves
/// a core idle while the other ends a long block, about 4% of the solve.
fn par_blocks<T: Send>(lanes: &[Lane], solve: impl Fn(&[Lane], &mut Workspace) -> T + Sync) -> Vec<T> {
    let blocks: Vec<&[Lane]> = lanes.chunks(W).collect();
    let next = AtomicUsize::new(0);
    let take_blocks = || {
        let mut ws = Workspace::new();
        let mut solved = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(block) = blocks.get(k) else { return solved };
            solved.push((k, solve(block, &mut ws)));
        }
    };
    let threads = rayon::current_num_threads().min(blocks.len());
    let mut solved = if threads <= 1 {
        take_blocks()
    } else {
        let all = Mutex::new(Vec::with_capacity(blocks.len()));
        rayon::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| {
                    let mine = take_blocks();
                    all.lock().expect("no thread panics holding the results").extend(mine);
                });
            }
        });
        all.into_inner().expect("no thread panics holding the results")
    };
    solved.sort_unstable_by_key(|&(k, _)| k);
    solved.into_iter().map(|(_, t)| t).collect()
}

/// Solves the turns of up to [`W`] pairs, one a lane: per lane, the chance
/// of winning at the turn's start and what the chosen strategy carries.
#[allow(clippy::too_many_arguments)]
fn solve_block(
    o: &Outcomes,
    n: usize,
    entry: usize,
    win: &[f64],
    block: &[Lane],
    carry: &Carry,
    ws: &mut Workspace,
    simd: Simd,
) -> Turns {
    let mut lanes = [Lane::default(); W];
    lanes[..block.len()].copy_from_slice(block);
    // Unused lanes repeat the first.
    lanes[block.len()..].fill(block[0]);
    // Steps of turn score that reach the goal, per lane, and the longest.
    let winning: [usize; W] = std::array::from_fn(|l| n - lanes[l].a);
    let longest = *winning.iter().max().expect("W lanes");
    let top = longest + o.max_steps + 1;
    ws.after.clear();
    ws.after.resize(top * DICE, Row([[1.0; W], [carry.goal; W]]));
    ws.best_row.clear();
    ws.best_row.resize(top, [1.0; W]);
    ws.bank.clear();
    ws.bank.extend((0..longest).map(|s| {
        std::array::from_fn(|l| {
            let Lane { a, b, .. } = lanes[l];
            if s >= winning[l] {
                f64::INFINITY
            } else if s == 0 || (a == 0 && s < entry) {
                -1.0
            } else {
                1.0 - win[b * n + a + s]
            }
        })
    }));
    ws.bank_carry.clear();
    ws.bank_carry.extend(
        (0..longest)
            .map(|s| std::array::from_fn(|l| if s >= winning[l] { carry.goal } else { (carry.bank)(&lanes[l], s) })),
    );
    let bust: [f64; W] = std::array::from_fn(|l| lanes[l].bust);
    simd.run(TurnLanes { o, longest, bust: &bust, bust_carry: carry.bust, ws })
}

/// [`turn_lanes`] as a kernel, compiled for each vector level.
struct TurnLanes<'a> {
    o: &'a Outcomes,
    longest: usize,
    bust: &'a [f64; W],
    bust_carry: f64,
    ws: &'a mut Workspace,
}

impl Kernel for TurnLanes<'_> {
    type Output = Turns;
    #[inline(always)]
    fn run<L: Lanes>(self) -> Turns {
        // SAFETY: `Simd::run` runs a kernel only on the lanes of a level
        // this CPU has.
        unsafe { turn_lanes::<L>(self.o, self.longest, self.bust, self.bust_carry, self.ws) }
    }
}

/// One block's turns: per lane, the chance of winning at the turn's start,
/// what the chosen strategy carries (see [`Carry`]), and the turn scores
/// (steps) from which the strategy banks rather than throw six dice, and
/// fewer: index 0 six dice, 1 fewer.
struct Turns {
    start: [f64; W],
    carried: [f64; W],
    bank_from: [[u16; 2]; W],
    /// Throws left out (see [`Solution::throws_left_out`]).
    left_out: usize,
}

/// The backward pass over the turn score: at each score, the chance of
/// winning by throwing d dice is the chance-weighted best of each outcome
/// class's keeps, plus the bust chance times the bust value; the slope
/// follows the keep chosen. Lanes past their goal read 1 (a win by banking).
///
/// # Safety
///
/// The CPU has `L`'s level (what [`Lanes`]' methods need).
#[inline(always)]
unsafe fn turn_lanes<L: Lanes>(
    o: &Outcomes,
    longest: usize,
    bust: &[f64; W],
    bust_carry: f64,
    ws: &mut Workspace,
) -> Turns {
    // Every block below that calls a method of `L` is sound because the CPU
    // has `L`'s level: this fn's contract.
    // SAFETY: `L`'s level (this fn's contract).
    let bust_value = unsafe { L::load(bust) };
    // Per lane, one past the highest turn score (steps) at which six dice
    // are thrown rather than banked, and fewer dice; 0 until one is seen.
    let mut bank_from = [[0u16; 2]; W];
    let mut left_out = 0;
    for s in (0..longest).rev() {
        // SAFETY: `L`'s level (this fn's contract).
        let zero = unsafe { L::splat(0.0) };
        let mut throw = [zero; DICE];
        let mut throw_slope = [zero; DICE];
        let after = &ws.after[s * DICE..];
        // SAFETY: `L`'s level (this fn's contract).
        let bank = unsafe { L::load(&ws.bank[s]) };
        // A bound on each throw's value, to leave out the throws that
        // banking beats in every lane (about a fifth of the work): a row is
        // worth no more at a lower turn score than at a higher one (more
        // points never hurt), so each class's keeps are worth at most
        // the best row `REACH[i]` steps on, for the first REACH[i] that
        // its keeps stay within. The best of a score's six rows is kept as
        // they are written (`best_row`), and the groups with no chance are
        // left out of the sum: neither changes the bound.
        let reach_best: [L; REACH.len()] = std::array::from_fn(|i| {
            // SAFETY: `L`'s level (this fn's contract).
            unsafe { L::load(&ws.best_row[s + REACH[i].min(o.max_steps)]) }
        });
        for d in 1..=DICE {
            if o.skip_sure_banks {
                // SAFETY: `L`'s level (this fn's contract).
                let banks_everywhere = unsafe {
                    let bound = (o.reach_chance[d][..o.reach_groups[d]].iter().zip(&reach_best))
                        .fold(L::splat(o.bust[d]).mul(bust_value), |sum, (&p, &best)| sum.add(L::splat(p).mul(best)))
                        .add(L::splat(BOUND_MARGIN));
                    L::greater_mask(bound, bank) == 0
                };
                if banks_everywhere {
                    // Banks in every lane: a throw below any bank says so.
                    // SAFETY: `L`'s level (this fn's contract).
                    throw[d - 1] = unsafe { L::splat(f64::NEG_INFINITY) };
                    left_out += 1;
                    continue;
                }
            }
            // SAFETY: `L`'s level, and `after` holds the rows from s to
            // top = longest + max_steps + 1 > s + max_steps (this fn's contract).
            (throw[d - 1], throw_slope[d - 1]) = unsafe { throw_value::<L>(o, d, after, bust_value, bust_carry) };
        }
        if s == 0 {
            let mut turns = Turns { start: [0.0; W], carried: [0.0; W], bank_from, left_out };
            // SAFETY: `L`'s level (this fn's contract).
            unsafe {
                throw[DICE - 1].store(&mut turns.start);
                throw_slope[DICE - 1].store(&mut turns.carried);
            }
            for from in turns.bank_from.iter_mut().flatten() {
                *from = (*from).max(1);
            }
            return turns;
        }
        // SAFETY: `L`'s level (this fn's contract).
        let bank_carry = unsafe { L::load(&ws.bank_carry[s]) };
        let mut best_row = zero;
        for d in 0..DICE {
            // SAFETY: `L`'s level (this fn's contract).
            let throws = unsafe { L::greater_mask(throw[d], bank) };
            let which = usize::from(d + 1 < DICE);
            for (l, from) in bank_from.iter_mut().enumerate() {
                if throws >> l & 1 == 1 && from[which] == 0 {
                    from[which] = s as u16 + 1;
                }
            }
            let Row([value, slope]) = &mut ws.after[s * DICE + d];
            // SAFETY: `L`'s level (this fn's contract).
            unsafe {
                let (a, da) = L::bank_or_throw(bank, bank_carry, throw[d], throw_slope[d]);
                best_row = best_row.max(a);
                a.store(value);
                da.store(slope);
            }
        }
        // SAFETY: `L`'s level (this fn's contract).
        unsafe { best_row.store(&mut ws.best_row[s]) };
    }
    unreachable!("a turn has at least one score step")
}

/// The value of throwing `d` dice (and its slope in the carried points)
/// from the rows `after` the turn score being solved: the bust, then each
/// scoring class at its best keep, summed as below.
///
/// # Safety
///
/// The CPU has `L`'s level, and `after` holds the rows from the turn score
/// being solved to `o.max_steps` past it.
#[inline(always)]
unsafe fn throw_value<L: Lanes>(o: &Outcomes, d: usize, after: &[Row], bust_value: L, bust_carry: f64) -> (L, L) {
    // SAFETY: `L`'s level (this fn's contract).
    let zero = unsafe { L::splat(0.0) };
    // The chance as a compensated sum (Knuth's TwoSum, no branch)
    // of plain partial sums of up to eight classes: small, so their
    // rounding is far below the total's; the table is then exact
    // to about one rounding, so that its fixed point checks to
    // 1e-15 (tests/tests/integration/duel.rs).
    // SAFETY: `L`'s level (this fn's contract).
    let (mut v, mut carry, mut dv) =
        unsafe { (L::splat(o.bust[d]).mul(bust_value), zero, L::splat(o.bust[d] * bust_carry)) };
    let (first, last) = o.by_dice[d];
    for group in o.classes[first..last].chunks(8) {
        let mut partial = zero;
        for &(p, start, end) in group {
            // A class's first option starts the maximum: every
            // after-keep value is a chance, at least 0, so this is
            // what taking the greater from -1 gave, one blend fewer.
            let (head, rest) = o.options[start..end].split_first().expect("a scoring class has a keep");
            // SAFETY: an option's offset is at most (max_steps + 1) *
            // DICE - 1 (`Outcomes::new`), inside the rows `after` holds
            // (this fn's contract).
            let row = |at: usize| unsafe { after.get_unchecked(at) };
            let Row([value, slope]) = row(*head);
            // SAFETY: `L`'s level (this fn's contract).
            let (mut best, mut best_slope) = unsafe { (L::load(value), L::load(slope)) };
            for &at in rest {
                let Row([value, slope]) = row(at);
                // SAFETY: `L`'s level (this fn's contract).
                unsafe { L::take_greater(&mut best, &mut best_slope, L::load(value), L::load(slope)) };
            }
            // SAFETY: `L`'s level (this fn's contract).
            unsafe {
                let p = L::splat(p);
                partial = partial.add(p.mul(best));
                dv = dv.add(p.mul(best_slope));
            }
        }
        // SAFETY: `L`'s level (this fn's contract).
        unsafe {
            let t = v.add(partial);
            let z = t.sub(v);
            carry = carry.add(v.sub(t.sub(z)).add(partial.sub(z)));
            v = t;
        }
    }
    // SAFETY: `L`'s level (this fn's contract).
    (unsafe { v.add(carry) }, dv)
}

impl Solution {
    /// The table's parameters and sections.
    pub fn into_sections(self) -> (Params, Vec<Section>) {
        let lists = KeepLists::of(&self.rules.scoring);
        let params = Params { goal: self.rules.goal, entry: self.rules.entry, options: lists.keep.len() as u64 };
        let sections = vec![
            Section::of(&WIN, &params, le_bytes(&self.win, f64::to_le_bytes)),
            Section::of(&BANK_FROM, &params, le_bytes(self.bank_from.as_flattened(), u16::to_le_bytes)),
            Section::of(&OPTION_FIRST, &params, le_bytes(&lists.first, u32::to_le_bytes)),
            Section::of(&OPTION_KEEP, &params, le_bytes(&lists.keep, u16::to_le_bytes)),
            Section::of(&OPTION_POINTS, &params, le_bytes(&lists.points, u16::to_le_bytes)),
        ];
        (params, sections)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level of vector instructions this CPU has gives the same
    /// bits, so the tables do not depend on the machine.
    #[test]
    fn every_machine_solves_alike() {
        for rules in [SEED_RULES, CARDGAMES_RULES] {
            let small = Rules { goal: 3000, ..rules };
            let bits = |s: &Solution| s.win.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            let here = bits(&solve(&small, &mut |_, _| {}));
            for level in Simd::available() {
                assert_eq!(bits(&solve_on(&small, &mut |_, _| {}, level)), here, "{level:?}");
            }
        }
    }

    /// Leaving out the throws that banking surely beats changes no bit, nor
    /// how the solve goes, under either scoring, with an entry or without.
    #[test]
    fn sure_banks_left_out_alike() {
        for rules in [SEED_RULES, CARDGAMES_RULES, Rules { entry: 500, ..CARDGAMES_RULES }] {
            let small = Rules { goal: 4000, ..rules };
            let bits = |s: &Solution| {
                let values = s.win.iter().chain(&s.bust_slope).map(|v| v.to_bits()).collect::<Vec<_>>();
                (values, s.bank_from.clone(), s.passes, s.turns_solved)
            };
            let skipping = solve_with(&small, &mut |_, _| {}, Simd::detect(), true);
            let whole = solve_with(&small, &mut |_, _| {}, Simd::detect(), false);
            assert_eq!(bits(&skipping), bits(&whole), "{rules:?}");
            assert_eq!(whole.throws_left_out, 0);
            assert!(skipping.throws_left_out > skipping.turns_solved, "{rules:?}: {}", skipping.throws_left_out);
        }
    }

    /// Six dice bust with 1-in-43.2 chance (the throws without a 1, a 5,
    /// three of a kind, a straight or three pairs: 2 x 540 of 46656 orders),
    /// one die two times in three.
    #[test]
    fn outcomes() {
        let o = Outcomes::new(&SEED);
        assert!((o.bust[6] - 1080.0 / 46656.0).abs() < 1e-14);
        assert!((o.bust[1] - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(o.max_steps, 8000 / 50);
        assert_eq!(Outcomes::new(&CARDGAMES).max_steps, 3000 / 50);
    }

    /// A goal one bank away: the mover on 0 must score 50 before busting
    /// (entry 0), so the first player's chance is the chance of not busting
    /// on six dice, over one minus both players busting in turn.
    #[test]
    fn one_step_goal() {
        let rules = Rules { scoring: SEED, entry: 0, goal: 50 };
        let w = solve(&rules, &mut |_, _| {}).win[0];
        let q = 1080.0 / 46656.0;
        assert!((w - (1.0 - q) / (1.0 - q * q)).abs() < 1e-15, "{w}");
    }
}
