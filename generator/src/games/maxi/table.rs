//! The Maxi Yatzy table: the solver's values, rounded to 1.6e-7 points and
//! packed as the reader's `maxi` module lays them out, each layer's section
//! compressed as soon as the layer is solved; and the proof that a lookup
//! on the rounded values decides as the exact solution does.

use std::time::{Duration, Instant};

use dice_tables_reader::maxi::{
    action_code, decision_key, encode_chunk, reachable_capped_totals, state, stored_positions, stored_totals, Layout,
    MaskValues, Maxi, MaxiParams, MaxiPreset, MaxiTurn, Rules, BITS_AT, BOXES, DICE, EXCEPTIONS_PER_CHUNK,
    EXCEPTION_ACTION, EXCEPTION_INDEX, EXCEPTION_KEY, SECTIONS, UNITS_PER_POINT, UPPER_MASK,
};
use dice_tables_reader::sheet::{EXACT_TIE, STORED_TIE};
use dice_tables_reader::Dice;
use rayon::prelude::*;

use super::{Layer, NearTie};
use crate::artifact::{le_bytes, Section};
use crate::solved::{Figure, Solved};

/// The zstd level of the layers' chunks: 15 (binary-tree match finding)
/// takes the swedish table's values 2.2 % below level 12's, for twice the
/// compression time (about 90 s of CPU beside the solve's 22 minutes; the
/// levels above 15 gain nothing more on length bytes).
pub const ZSTD_LEVEL: i32 = 15;

/// A value in the table's units.
pub fn units(value: f64) -> i64 {
    (value * UNITS_PER_POINT).round() as i64
}

/// The upper totals a mask's rows store, in order: the flat one, then each
/// reachable one above it.
pub fn stored_total_list(mask: u32, bonus_at: u8) -> Vec<usize> {
    let (flat, above) = stored_totals(mask, bonus_at);
    std::iter::once(usize::from(flat)).chain((0..=usize::from(bonus_at)).filter(|&u| above >> u & 1 == 1)).collect()
}

/// Turn-start states the game can reach under `rules` (every count of
/// saved rerolls a state can hold, every reachable capped upper total).
pub fn reachable_states(rules: &Rules) -> u64 {
    (1u32..1 << BOXES.len())
        .map(|m| {
            let totals = reachable_capped_totals(!m & UPPER_MASK, rules.bonus_at).count_ones() as u64;
            totals * rules.saved_counts(m.count_ones() as usize) as u64
        })
        .sum()
}

/// One layer's section, compressed: every chunk of the layer's masks, each
/// mask's rows (saved counts x stored totals) in units.
fn layer_section(params: &MaxiParams, layer: &Layer) -> Section {
    let open = layer.masks[0].count_ones() as usize;
    let layout = &params.layout;
    let bonus_at = params.rules.bonus_at;
    let chunks = (0..layout.chunks(open)).into_par_iter().map(|c| {
        let (masks, place) = layout.chunk_masks(open - 1, c).expect("a chunk of the layout");
        encode_chunk(&place, |p| {
            let row = layer.row(layer.index(masks[p]).expect("a mask of the layer"));
            let list = stored_total_list(masks[p], bonus_at);
            row.chunks_exact(layer.totals).flat_map(|r| list.iter().map(|&u| units(r[u]))).collect()
        })
    });
    Section::compressed(&SECTIONS[open - 1], params, chunks, compress_chunk)
}

/// A layer's chunk as one zstd frame, at [`ZSTD_LEVEL`] with a 16 KB
/// window: a frame's blocks are then at most 16 KB, so the chunk's length
/// bytes (its first 16 KB) get a block, and a literals table, of their own
/// instead of sharing one with the bits below the leading ones, which are
/// noise (sharing cost the swedish table 0.15 bytes a value).
fn compress_chunk(decoded: &[u8]) -> Vec<u8> {
    let mut zstd = zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("a zstd compressor");
    zstd.set_parameter(zstd::zstd_safe::CParameter::WindowLog(BITS_AT.trailing_zeros())).expect("a zstd window");
    zstd.compress(decoded).expect("zstd compresses in memory")
}

/// A mask's values as a lookup decodes them from the table: each rounded
/// to 1.6e-7, every total up to the flat one reading the flat one's.
fn stored_values(mask: u32, bonus_at: u8, row: &[f64], totals: usize) -> Vec<f64> {
    let list = stored_total_list(mask, bonus_at);
    let positions = stored_positions(mask, bonus_at);
    row.chunks_exact(totals)
        .flat_map(|r| positions.iter().map(|&k| units(r[list[usize::from(k)]]) as f64 / UNITS_PER_POINT))
        .collect()
}

/// A decision a lookup would make wrongly from the stored values, and the
/// exact action: `key` as the reader's `EXCEPTION_KEY` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Exception {
    /// The decision.
    pub key: u64,
    /// The exact action's code (a box's mask bit, or `KEEP_CODE` plus a keep's graded rank).
    pub action: u16,
}

/// Settles a layer's near ties: runs the reader's turn solve on the exact
/// values of the layer below (ties within [`EXACT_TIE`]) and on the stored
/// ones (ties within [`STORED_TIE`]) at each near tie a game can reach.
/// Returns how many were settled and where the two disagree.
pub fn settle(rules: Rules, layer: &Layer, below: &Layer, mut near: Vec<NearTie>) -> (u64, Vec<Exception>) {
    near.sort_unstable();
    near.dedup();
    let groups: Vec<&[NearTie]> = near.chunk_by(|a, b| a.index == b.index && a.upper == b.upper).collect();
    let settled: Vec<(u64, Vec<Exception>)> = groups
        .par_iter()
        .map(|group| {
            let (mask, u) = (layer.masks[group[0].index as usize], group[0].upper);
            let reachable = reachable_capped_totals(!mask & UPPER_MASK, rules.bonus_at);
            if u > rules.bonus_at || reachable >> u & 1 == 0 {
                return (0, Vec::new());
            }
            let most = group.iter().map(|n| n.rerolls).max().expect("a group has a near tie");
            let state =
                state(&rules, mask, u32::from(u), u32::from(most).saturating_sub(2)).expect("a reachable state");
            let next = |stored: bool| {
                move |m: u32| -> Result<MaskValues, std::convert::Infallible> {
                    let row = below.row(below.index(m).expect("a mask of the layer below"));
                    let values =
                        if stored { stored_values(m, rules.bonus_at, row, below.totals) } else { row.to_vec() };
                    Ok(MaskValues::new(below.totals, values))
                }
            };
            let unwrap = |r: Result<MaxiTurn, std::convert::Infallible>| r.unwrap_or_else(|e| match e {});
            let exact = unwrap(MaxiTurn::solve(rules, state, most, next(false)));
            let stored = unwrap(MaxiTurn::solve(rules, state, most, next(true)));
            let mut exceptions = Vec::new();
            for n in group.iter() {
                let dice = Dice::unrank(DICE, usize::from(n.roll)).expect("a roll of six dice");
                let right = exact.choices(dice, n.rerolls, EXACT_TIE).best().map(|o| o.action);
                let looked_up = stored.choices(dice, n.rerolls, STORED_TIE).best().map(|o| o.action);
                if right != looked_up {
                    let action = action_code(right.expect("an open box"));
                    exceptions.push(Exception { key: decision_key(&rules, state, dice, n.rerolls), action });
                }
            }
            (group.len() as u64, exceptions)
        })
        .collect();
    let count = settled.iter().map(|(n, _)| n).sum();
    (count, settled.into_iter().flat_map(|(_, e)| e).collect())
}

/// The `maxi-yatzy` table, under `rules.maxi`.
pub fn solve_finnish_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<dice_tables_reader::maxi::Finnish>(rules.maxi, progress)
}

/// The `maxi-yatzy-swedish` table, under `rules.maxi_swedish`.
pub fn solve_swedish_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<dice_tables_reader::maxi::Swedish>(rules.maxi_swedish, progress)
}

/// Solves Maxi Yatzy under `rules` from the rules engine (the preset's
/// rules with `rules`' bonus and saved rerolls, two layers at a time),
/// proving: calls `each_layer(layer, below, near_ties)` with every layer
/// of one or more open boxes once solved, fewest open first. Returns the
/// game's expected score.
fn solve_layers_proving(
    rules: Rules,
    progress: &mut dyn FnMut(usize, usize),
    mut each_layer: impl FnMut(&Layer, &Layer, Vec<NearTie>),
) -> f64 {
    use crate::rule_engine::{Band, Coverage, Options};
    let (preset, _) = super::preset(rules, dice_tables_reader::maxi::ALL);
    let options = Options {
        coverage: Coverage::Reachable,
        band: Some(Band { tie: EXACT_TIE, band: super::BAND }),
        ..Options::default()
    };
    let totals = usize::from(rules.bonus_at) + 1;
    crate::rule_engine::solve_by_layer(&preset, crate::dice::simd(), options, progress, &mut |solved, below, near| {
        let (solved, below) = (Layer::of(solved, totals), Layer::of(below, totals));
        let near = near
            .into_iter()
            .map(|n| NearTie {
                index: solved.index(n.mask).expect("a mask of the layer") as u32,
                upper: n.upper as u8,
                rerolls: n.rerolls,
                roll: n.roll,
            })
            .collect();
        each_layer(&solved, &below, near);
    })
    .unwrap_or_else(|e| panic!("maxi-yatzy's preset solves: {}", e.0))
}

/// The table of preset `P` solved under `rules`, its decisions proved.
pub fn solve_table<P: MaxiPreset>(rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let layout = Layout::new(rules);
    let mut params = MaxiParams { rules, exceptions: 0, layout };
    let mut sections = Vec::new();
    let (mut exceptions, mut near_ties, mut prove_time) = (Vec::new(), 0, Duration::ZERO);
    let start = solve_layers_proving(rules, progress, |layer, below, near| {
        let proving = Instant::now();
        let (settled, found) = settle(rules, layer, below, near);
        prove_time += proving.elapsed();
        near_ties += settled;
        exceptions.extend(found);
        sections.push(layer_section(&params, layer));
    });
    exceptions.sort_unstable();
    params.exceptions = exceptions.len() as u64;
    let halves = |key: u64| [(key >> 32) as u32, key as u32];
    let keys: Vec<u32> = exceptions.iter().flat_map(|e| halves(e.key)).collect();
    let index: Vec<u32> = exceptions.chunks(EXCEPTIONS_PER_CHUNK).flat_map(|c| halves(c[0].key)).collect();
    let actions: Vec<u16> = exceptions.iter().map(|e| e.action).collect();
    sections.push(Section::of(&EXCEPTION_INDEX, &params, le_bytes(&index, u32::to_le_bytes)));
    sections.push(Section::of(&EXCEPTION_KEY, &params, le_bytes(&keys, u32::to_le_bytes)));
    sections.push(Section::of(&EXCEPTION_ACTION, &params, le_bytes(&actions, u16::to_le_bytes)));
    let mut table = Solved::new::<Maxi<P>>(&params, reachable_states(&rules), sections);
    table.prove_time = prove_time;
    table.figures.push(Figure { key: "start_value", value: start, text: format!("expected score {start:.9}") });
    table.figures.push(Figure {
        key: "near_ties",
        value: near_ties as f64,
        text: format!("{near_ties} near ties settled, {} exceptions", exceptions.len()),
    });
    table
}
