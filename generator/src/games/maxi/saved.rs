//! Maxi Yatzy with saved rolls: the rerolls a turn leaves unused are saved,
//! and a later turn may use its two and every saved one.
//!
//! The state gains `B`, the rerolls saved (at most two a turn played). A
//! roll's value with `r` rerolls left in the pool, `S_r`, does not depend on
//! how many of them were saved: stopping scores a box and saves the `r`
//! left (`stop_r`: points plus the next state's value with `B = r`), and
//! with `r > 0` a partial keep rerolls the rest, `K_r(k)` the average of
//! `S_{r-1}` over the rerolled dice. Rerolling no die is never better than
//! stopping, since more saved rerolls are never worth less. So
//! `S_0 = stop_0`, `S_r(roll) = max(stop_r(roll), max over the partial keeps
//! k inside it of K_r(k))`, and a turn with `B` saved starts with the fresh
//! roll's average of `S_{B + 2}`: one pass of `r` from 0 to the most rerolls
//! a turn can hold gives every `B` of a mask.
//!
//! Only two layers of masks are in memory at once (every state's values
//! take 15 GB at f64): the one being solved and the one it reads, each
//! mask's row `B`-major, then the upper totals `0..=bonus_at`.

use dice_tables_reader::five_dice::SIXTH;
use dice_tables_reader::maxi::{Rules, BOXES};
use rayon::prelude::*;

use super::{list_open_scores, stop_values, window, Context, Workspace, W};
use crate::cpu::{Kernel, Lanes, Simd};

/// One layer of masks (the same number of boxes open), solved: every
/// mask's value for each count of saved rerolls and each upper total.
#[derive(Clone, Debug)]
pub struct SavedLayer {
    /// The layer's masks, in increasing order.
    pub masks: Vec<u32>,
    /// Counts of saved rerolls a row holds: `0..saved`.
    pub saved: usize,
    /// Upper totals a row holds for each count: `0..=bonus_at`.
    pub totals: usize,
    /// Per (mask in `masks`, saved, upper total): the expected points still to come.
    pub values: Vec<f64>,
}

impl SavedLayer {
    /// The value of (the mask at `index` in `masks`, `saved` rerolls saved, upper total `u`).
    pub fn get(&self, index: usize, saved: usize, u: usize) -> f64 {
        self.values[(index * self.saved + saved) * self.totals + u.min(self.totals - 1)]
    }
}

/// Solves Maxi Yatzy with saved rolls under `rules` (`rules.saved_rolls`
/// must be true; [`super::solve`] solves the game without them), the game
/// played with the boxes of `universe`. Calls `each_layer` with every
/// layer once solved, from no box open up, and returns the whole game's
/// expected score.
pub fn solve_saved(
    rules: Rules,
    universe: u32,
    mut progress: impl FnMut(usize, usize),
    mut each_layer: impl FnMut(&SavedLayer),
) -> f64 {
    assert!(rules.saved_rolls, "the game without saved rolls is solved apart");
    let ctx = super::context(rules);
    let boxes = universe.count_ones() as usize;
    let totals = usize::from(rules.bonus_at) + 1;
    // A mask's index in its layer.
    let mut index = vec![0u32; 1 << BOXES.len()];
    let layer_masks = |open: usize| -> Vec<u32> {
        (0..1u32 << BOXES.len()).filter(|&m| m & !universe == 0 && m.count_ones() as usize == open).collect()
    };
    // No box open: every turn played, up to two rerolls saved a turn; the
    // upper bonus is all that is still to come.
    let saved = 2 * boxes + 1;
    let mut below = SavedLayer { masks: vec![0], saved, totals, values: vec![0.0; saved * totals] };
    for row in below.values.chunks_exact_mut(totals) {
        row[usize::from(rules.bonus_at)] = f64::from(rules.bonus);
    }
    each_layer(&below);
    let simd = Simd::detect();
    for open in 1..=boxes {
        progress(open, boxes);
        for (i, &m) in below.masks.iter().enumerate() {
            index[m as usize] = i as u32;
        }
        let masks = layer_masks(open);
        // Turns played before this layer's: `boxes - open`, each saving up to two.
        let saved = 2 * (boxes - open) + 1;
        let mut values = vec![0.0; masks.len() * saved * totals];
        values.par_chunks_mut(saved * totals).zip(masks.par_iter()).for_each_init(
            || Workspace::new(&ctx),
            |ws, (out, &mask)| {
                for b in (0..BOXES.len()).filter(|b| mask >> b & 1 == 1) {
                    let next = mask & !(1 << b);
                    ws.after[b] = index[next as usize] as usize * below.saved * totals;
                }
                list_open_scores(&ctx, mask as usize, ws);
                simd.run(SolveRow { ctx: &ctx, mask: mask as usize, below: &below, ws, out });
            },
        );
        below = SavedLayer { masks, saved, totals, values };
        each_layer(&below);
    }
    below.get(0, 0, 0)
}

/// One mask's row as a kernel, compiled for each vector level.
struct SolveRow<'a> {
    ctx: &'a Context,
    mask: usize,
    below: &'a SavedLayer,
    ws: &'a mut Workspace,
    out: &'a mut [f64],
}

impl Kernel for SolveRow<'_> {
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        solve_row(self.ctx, self.mask, self.below, self.ws, self.out)
    }
}

/// `W` upper totals from `start` of a row of `totals`, those past the cap
/// holding the capped one's value.
#[inline(always)]
fn block(row: &[f64], start: usize, totals: usize) -> [f64; W] {
    if start + W <= totals {
        row[start..start + W].try_into().expect("W lanes")
    } else {
        let mut v = [0.0; W];
        for (l, x) in v.iter_mut().enumerate() {
            *x = row[(start + l).min(totals - 1)];
        }
        v
    }
}

#[inline(always)]
fn solve_row(ctx: &Context, mask: usize, below: &SavedLayer, ws: &mut Workspace, out: &mut [f64]) {
    let graph = ctx.graph;
    let totals = below.totals;
    let saved = out.len() / totals;
    // Rerolls a turn can hold: its two and every one saved.
    let most = saved - 1 + 2;
    let (lowest, lanes) = window(mask, ctx.rules.bonus_at);
    for first in (lowest..lowest + lanes).step_by(W) {
        for r in 0..=most {
            if r > 0 {
                // K_r: the partial keeps' averages of S_{r-1}.
                graph.keep_values_lanes(&mut ws.values, |sum| sum * SIXTH);
            }
            // stop_r: the values after scoring with `r` rerolls left, saved.
            stop_values(ctx, mask, ws, |at, upper| {
                block(&below.values[at + r * totals..][..totals], first + upper, totals)
            });
            if r > 0 {
                // S_r: stopping, or the best partial keep inside the roll.
                graph.best_values_lanes(&mut ws.values, &mut ws.scratch);
            }
            if r >= 2 {
                let value = graph.fresh_roll_value_lanes(&ws.values[graph.partial..]);
                let row = &mut out[(r - 2) * totals..][..totals];
                let end = (first + W).min(totals);
                row[first..end].copy_from_slice(&value[..end - first]);
            }
        }
    }
    for row in out.chunks_exact_mut(totals) {
        let flat = row[lowest];
        row[..lowest].fill(flat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dice_tables_reader::maxi::parse_mask;

    /// A die's expected face with `r` rerolls, kept by the threshold rule.
    fn one_die(r: usize) -> f64 {
        (0..r).fold(3.5, |e, _| (1..=6).map(|f| f64::from(f).max(e)).sum::<f64>() / 6.0)
    }

    #[test]
    fn chance_last_with_saved_rerolls_uses_them_all() {
        let universe = parse_mask("ones,chance").unwrap();
        let chance = parse_mask("chance").unwrap();
        let mut layers = Vec::new();
        let start = solve_saved(Rules::SWEDISH, universe, |_, _| {}, |l| layers.push(l.clone()));
        let last = &layers[1];
        let at = last.masks.iter().position(|&m| m == chance).unwrap();
        assert_eq!(last.saved, 3);
        for saved in 0..3 {
            let expected = 6.0 * one_die(2 + saved);
            assert!((last.get(at, saved, 0) - expected).abs() < 1e-12, "{saved}: {}", last.get(at, saved, 0));
        }
        assert!(start > 6.0 * one_die(2), "{start}");
    }

    #[test]
    fn without_a_later_turn_saving_changes_nothing() {
        // One box: the only turn is the last, as without saved rolls.
        for name in ["chance", "sixes", "maxi-yatzy", "full-house"] {
            let universe = parse_mask(name).unwrap();
            let saved = solve_saved(Rules::SWEDISH, universe, |_, _| {}, |_| {});
            let rules = Rules { saved_rolls: false, ..Rules::SWEDISH };
            let plain = super::super::solve_within(rules, universe, |_, _| {}).get(universe, 0);
            assert!((saved - plain).abs() < 1e-12, "{name}: {saved} vs {plain}");
        }
    }
}
