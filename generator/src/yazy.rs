//! yazy (seed 004).
//!
//! Five dice, 11 turns. A turn: roll all five, then up to `rerolls` rerolls
//! (default 2), each keeping any sub-multiset; then score the dice in one of
//! the 11 categories still open: ones..sixes (face x count), three-kind and
//! four-kind (sum of all dice if some face shows 3 / 4+ times), full-house
//! (25 for exactly 3+2 of two faces), straight (40 for 1-5 or 2-6), yazy (50
//! for five of a kind). No bonuses. Maximise the expected total.
//!
//! The state is (mask of open categories, roll, rerolls left); the points
//! already scored do not matter, so each mask's turn is solved once, from the
//! turn-start values of the masks with one category fewer.

use dice_tables_reader::yazy::{
    Rules, Yazy, BEST_KEEP, CATEGORIES, CATEGORY_POINTS, KEEP_ALL, KEEP_VALUE, KEEP_VALUE_SCALE, MASKS, MASK_BLOCK,
    MASK_BLOCKS, NO_ACTION, PARTIAL_KEEPS, ROLLS, TURN_START,
};
use rayon::prelude::*;

use crate::artifact::{le_bytes, Section};
use crate::dice::{multisets, simd, KeepGraph, Simd, FACES, FIVE_DICE, NONE};
use crate::Solved;

/// The zstd level of yazy's compressed sections (see `into_sections`).
const YAZY_ZSTD_LEVEL: i32 = 17;

pub use dice_tables_reader::yazy::points;

/// Everything the table holds, laid out as its sections.
pub struct Solution {
    pub rerolls: u8,
    /// Per mask: the expected score still to come before the turn's roll.
    pub turn_start: Vec<f64>,
    /// Per (roll, category): points now.
    pub category_points: Vec<u8>,
    /// Per (rerolls left - 1, mask, roll): the best keep's graded rank, or KEEP_ALL.
    pub best_keep: Vec<u8>,
    /// Per (rerolls left - 1, block of masks, byte, partial keep, mask in the
    /// block): byte `byte` of the keep's value (solved in f64) times
    /// KEEP_VALUE_SCALE, rounded. Keep-major order and byte planes put
    /// similar bytes side by side, so they compress far better; blocks of
    /// masks let a lookup decode only its own.
    pub keep_value: Vec<u8>,
}

impl Solution {
    /// States of the full DP: every (mask, roll, rerolls left).
    pub fn states(&self) -> u64 {
        (MASKS * ROLLS * (usize::from(self.rerolls) + 1)) as u64
    }

    /// The table's sections. The three compressed ones take level 17: at
    /// 19 they were 3.0 % smaller together but took twice the time (0.92 s
    /// against 1.81 s of one core: `make tables` was mostly this).
    pub fn into_sections(self) -> Vec<Section> {
        let rules = Rules { rerolls: self.rerolls };
        vec![
            Section::of(&TURN_START, &rules, le_bytes(&self.turn_start, f64::to_le_bytes)),
            Section::of(&CATEGORY_POINTS, &rules, self.category_points),
            Section::of(&BEST_KEEP, &rules, self.best_keep).level(YAZY_ZSTD_LEVEL),
            Section::of(&KEEP_VALUE, &rules, self.keep_value).level(YAZY_ZSTD_LEVEL),
        ]
    }
}

/// The yazy table under `rules`.
pub fn solve_table(rules: &crate::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solution = solve(rules.yazy.rerolls, progress);
    Solved::new::<Yazy>(&rules.yazy, solution.states(), solution.into_sections())
}

/// Solves every state. Masks are solved in layers by the number of open
/// categories, each layer in parallel: a mask needs only masks with one
/// category fewer. Each mask is computed the same way whatever the thread,
/// so the output does not depend on the thread count.
pub fn solve(rerolls: u8, progress: impl FnMut(usize, usize)) -> Solution {
    solve_on(rerolls, progress, simd())
}

/// [`solve`], with the given vector instructions.
fn solve_on(rerolls: u8, mut progress: impl FnMut(usize, usize), simd: Simd) -> Solution {
    let rolls = multisets(5);
    let graph = &*FIVE_DICE;
    let category_points: Vec<u8> =
        rolls.iter().flat_map(|d| (0..CATEGORIES.len()).map(move |c| points(d, c))).collect();
    // Exact conversions, done once rather than in the inner loop.
    let points_f64: Vec<f64> = category_points.iter().map(|&p| f64::from(p)).collect();
    let r = usize::from(rerolls);
    let mut turn_start = vec![0.0; MASKS];
    // Every block as solved, and where each mask's lane is in them: the
    // sections are gathered from the blocks at the end, in parallel (no
    // mask-major copy of the 3.4 MB of keep values to fault in and transpose).
    let mut blocks: Vec<Block> = Vec::with_capacity(MASKS / W + CATEGORIES.len());
    let mut solved_at = vec![(usize::MAX, 0); MASKS];
    for open in 1..=CATEGORIES.len() {
        progress(open, CATEGORIES.len());
        let layer: Vec<usize> = (1..MASKS).filter(|m| m.count_ones() as usize == open).collect();
        // W masks at a time, as the lanes of one vector (the last block
        // repeats its last mask to fill its lanes).
        let solved: Vec<Block> = layer
            .par_chunks(W)
            .map_init(
                || Workspace::new(graph),
                |ws, masks| {
                    let lanes: [usize; W] = std::array::from_fn(|l| masks[l.min(masks.len() - 1)]);
                    let inputs = Inputs { rerolls, graph, category_points: &points_f64, turn_start: &turn_start, simd };
                    solve_turns(&lanes, &inputs, ws)
                },
            )
            .collect();
        for (masks, block) in layer.chunks(W).zip(solved) {
            for (l, &mask) in masks.iter().enumerate() {
                turn_start[mask] = block.turn_start[l];
                solved_at[mask] = (blocks.len(), l);
            }
            blocks.push(block);
        }
    }
    let solved = SolvedBlocks { blocks: &blocks, at: &solved_at };
    let mut best_keep = vec![0u8; r * MASKS * ROLLS];
    best_keep.par_chunks_mut(ROLLS).enumerate().for_each(|(row, out)| {
        match solved.best_keeps(row / MASKS, row % MASKS) {
            Some(keeps) => out.copy_from_slice(keeps),
            None => out.fill(NO_ACTION),
        }
    });
    let keep_value = keep_major(&solved, r);
    Solution { rerolls, turn_start, category_points, best_keep, keep_value }
}

/// The solved blocks, and per mask where its lane is (`usize::MAX` for
/// mask 0, never solved: nothing is left to score).
struct SolvedBlocks<'a> {
    blocks: &'a [Block],
    at: &'a [(usize, usize)],
}

impl SolvedBlocks<'_> {
    fn lane(&self, level: usize, mask: usize) -> Option<(&Block, usize)> {
        let (b, l) = self.at[mask];
        Some((self.blocks.get(b)?, level * W + l))
    }

    /// A mask's best keep of every roll with `level + 1` rerolls left.
    fn best_keeps(&self, level: usize, mask: usize) -> Option<&[u8]> {
        self.lane(level, mask).map(|(block, lane)| &block.best_keep[lane * ROLLS..][..ROLLS])
    }

    /// A mask's quantised keep values with `level + 1` rerolls left.
    fn keep_values(&self, level: usize, mask: usize) -> Option<&[u32]> {
        self.lane(level, mask).map(|(block, lane)| &block.keep_value[lane * PARTIAL_KEEPS..][..PARTIAL_KEEPS])
    }
}

/// The quantised keep values as the section's `[level][block][byte][keep]
/// [mask in block]` byte planes, one block of masks at a time (blocks in
/// parallel), a few masks at a time so both sides stay in cache.
fn keep_major(solved: &SolvedBlocks, levels: usize) -> Vec<u8> {
    const STEP: usize = 32;
    const PLANE: usize = PARTIAL_KEEPS * MASK_BLOCK;
    const UNSOLVED: [u32; PARTIAL_KEEPS] = [0; PARTIAL_KEEPS];
    let mut out = vec![0u8; levels * MASK_BLOCKS * 4 * PLANE];
    out.par_chunks_mut(4 * PLANE).enumerate().for_each(|(chunk, out)| {
        let (level, block) = (chunk / MASK_BLOCKS, chunk % MASK_BLOCKS);
        for first in (0..MASK_BLOCK).step_by(STEP) {
            let rows: [&[u32]; STEP] =
                std::array::from_fn(|i| solved.keep_values(level, block * MASK_BLOCK + first + i).unwrap_or(&UNSOLVED));
            for keep in 0..PARTIAL_KEEPS {
                let values: [u32; STEP] = std::array::from_fn(|i| rows[i][keep]);
                for plane in 0..4 {
                    let row = &mut out[plane * PLANE + keep * MASK_BLOCK + first..][..STEP];
                    for (b, v) in row.iter_mut().zip(values) {
                        *b = (v >> (8 * plane)) as u8;
                    }
                }
            }
        }
    });
    out
}

/// A non-negative value in units of 1 / KEEP_VALUE_SCALE, rounded to nearest
/// (adding a half and truncating: `f64::round` is a library call here).
fn quantise(value: f64) -> u32 {
    (value * KEEP_VALUE_SCALE + 0.5) as u32
}

/// The turns of `W` masks, solved together.
struct Block {
    turn_start: [f64; W],
    /// Per (rerolls left - 1, lane, roll).
    best_keep: Vec<u8>,
    /// Per (rerolls left - 1, lane, partial keep): the keep's value, quantised.
    keep_value: Vec<u32>,
}

/// Masks solved together: the lanes of a vector.
const W: usize = 8;

/// Buffers one thread reuses from block to block.
struct Workspace {
    /// Each roll's value with no rerolls left: score it in the best category.
    stop_value: Vec<[f64; W]>,
    values: Vec<[f64; W]>,
    best: Vec<[f64; W]>,
    keep: Vec<[f64; W]>,
    quantised: Vec<[u32; W]>,
}

impl Workspace {
    fn new(graph: &KeepGraph) -> Workspace {
        Workspace {
            stop_value: vec![[0.0; W]; ROLLS],
            values: vec![[0.0; W]; graph.keeps()],
            best: vec![[0.0; W]; graph.keeps()],
            keep: vec![[0.0; W]; graph.keeps()],
            quantised: vec![[0; W]; PARTIAL_KEEPS],
        }
    }
}

/// What every block of a solve reads.
struct Inputs<'a> {
    rerolls: u8,
    graph: &'a KeepGraph,
    /// Per (roll, category): the points, as f64.
    category_points: &'a [f64],
    /// Per mask: the turn-start values solved so far.
    turn_start: &'a [f64],
    /// The vector instructions the lanes run compiled for (the same results).
    simd: Simd,
}

/// The turns of `W` masks of one layer.
fn solve_turns(masks: &[usize; W], inputs: &Inputs, ws: &mut Workspace) -> Block {
    #[cfg(target_arch = "x86_64")]
    match inputs.simd {
        // SAFETY: `simd()` picks a level only when the CPU has it.
        Simd::Avx512 => return unsafe { solve_turns_avx512(masks, inputs, ws) },
        Simd::Avx2 => return unsafe { solve_turns_avx2(masks, inputs, ws) },
        Simd::Portable => {}
    }
    solve_turns_lanes(masks, inputs, ws)
}

/// [`solve_turns_lanes`] compiled for AVX2 (the same results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn solve_turns_avx2(masks: &[usize; W], inputs: &Inputs, ws: &mut Workspace) -> Block {
    solve_turns_lanes(masks, inputs, ws)
}

/// [`solve_turns_lanes`] compiled for AVX-512: the same operations on each
/// lane, in the same order, so the same results bit for bit.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn solve_turns_avx512(masks: &[usize; W], inputs: &Inputs, ws: &mut Workspace) -> Block {
    solve_turns_lanes(masks, inputs, ws)
}

#[inline(always)]
fn solve_turns_lanes(masks: &[usize; W], inputs: &Inputs, ws: &mut Workspace) -> Block {
    let Inputs { rerolls, graph, category_points, turn_start, .. } = *inputs;
    // Each lane's turn-start value after each category; -inf where the
    // category is closed, which never beats anything.
    let next: [[f64; W]; CATEGORIES.len()] = std::array::from_fn(|c| {
        std::array::from_fn(|l| {
            let mask = masks[l];
            if mask >> c & 1 == 1 {
                turn_start[mask & !(1 << c)]
            } else {
                f64::NEG_INFINITY
            }
        })
    });
    for (roll, points) in category_points.chunks_exact(CATEGORIES.len()).enumerate() {
        let mut best = [f64::NEG_INFINITY; W];
        for (c, next) in next.iter().enumerate() {
            for l in 0..W {
                // The reader finds the best category from these same sums, in
                // this order (a later category only when strictly better): keep
                // the expression and the order identical.
                let v = points[c] + next[l];
                best[l] = if v > best[l] { v } else { best[l] };
            }
        }
        ws.stop_value[roll] = best;
    }
    let levels = usize::from(rerolls);
    let mut block = Block {
        turn_start: [0.0; W],
        best_keep: vec![0; levels * W * ROLLS],
        keep_value: vec![0; levels * W * PARTIAL_KEEPS],
    };
    ws.values[graph.partial..].copy_from_slice(&ws.stop_value);
    for level in 0..levels {
        graph.keep_values_lanes(&mut ws.values, |sum| sum / FACES as f64);
        graph.best_keeps_lanes(&ws.values[..graph.partial], &ws.stop_value, &mut ws.best, &mut ws.keep);
        // Quantised a vector at a time, then split into the lanes' rows.
        for (q, v) in ws.quantised.iter_mut().zip(&ws.values[..graph.partial]) {
            *q = v.map(quantise);
        }
        let keep_values = block.keep_value[level * W * PARTIAL_KEEPS..].chunks_exact_mut(PARTIAL_KEEPS);
        let best_keeps = block.best_keep[level * W * ROLLS..].chunks_exact_mut(ROLLS);
        for (l, (values, keeps)) in keep_values.zip(best_keeps).take(W).enumerate() {
            for (v, q) in values.iter_mut().zip(&ws.quantised) {
                *v = q[l];
            }
            for (k, best) in keeps.iter_mut().zip(&ws.keep[graph.partial..]) {
                *k = match best[l] as u16 {
                    NONE => KEEP_ALL,
                    g => g as u8,
                };
            }
        }
        let (values, best) = (&mut ws.values, &ws.best);
        values[graph.partial..].copy_from_slice(&best[graph.partial..]);
    }
    block.turn_start = graph.fresh_roll_value_lanes(&ws.values[graph.partial..]);
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(dice: &str, category: &str) -> u8 {
        let c = CATEGORIES.iter().position(|&n| n == category).unwrap();
        points(&dice.parse().unwrap(), c)
    }

    #[test]
    fn scoring_rules() {
        assert_eq!(score("11135", "ones"), 3);
        assert_eq!(score("66634", "sixes"), 18);
        assert_eq!(score("22245", "three-kind"), 15);
        assert_eq!(score("22345", "three-kind"), 0);
        assert_eq!(score("33332", "four-kind"), 14);
        assert_eq!(score("33322", "four-kind"), 0);
        assert_eq!(score("33322", "full-house"), 25);
        assert_eq!(score("33333", "full-house"), 0);
        assert_eq!(score("12345", "straight"), 40);
        assert_eq!(score("65432", "straight"), 40);
        assert_eq!(score("12346", "straight"), 0);
        assert_eq!(score("44444", "yazy"), 50);
        assert_eq!(score("44444", "four-kind"), 20);
    }

    /// Every level of vector instructions this CPU has gives the same table.
    #[test]
    fn every_machine_solves_alike() {
        let here = solve(2, |_, _| {});
        for level in crate::dice::simd_levels() {
            let other = solve_on(2, |_, _| {}, level);
            assert_eq!(
                other.turn_start.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                here.turn_start.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{level:?}"
            );
            assert_eq!(other.best_keep, here.best_keep, "{level:?}");
            assert_eq!(other.keep_value, here.keep_value, "{level:?}");
        }
    }

    #[test]
    fn whole_game_values() {
        for (rerolls, expected) in [(0, 75.871021), (2, 165.7573187)] {
            let sol = solve(rerolls, |_, _| {});
            let v = sol.turn_start[MASKS - 1];
            assert!((v - expected).abs() < 1e-6, "rerolls {rerolls}: {v}");
        }
    }
}
