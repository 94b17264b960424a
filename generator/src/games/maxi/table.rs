//! The Maxi Yatzy table: the solver's values, rounded to 1e-7 points and
//! packed as the reader's `maxi` module lays them out.

use dice_tables_reader::maxi::{
    encode_chunk, reachable_capped_totals, stored_totals, Layout, Maxi, MaxiParams, MaxiPreset, Rules, BOXES,
    CHUNK_BYTES, EXCEPTION_ACTION, EXCEPTION_KEY, LAYERS, SECTIONS, UNITS_PER_POINT, UPPER_MASK,
};
use rayon::prelude::*;

use crate::artifact::Section;
use crate::{Figure, Solved};

/// A value in the table's units.
pub fn units(value: f64) -> i64 {
    (value * UNITS_PER_POINT).round() as i64
}

/// The values a mask's row stores, from its value at each upper total:
/// the flat total's, then each reachable total's above it.
pub fn row_units(mask: u32, bonus_at: u8, value: impl Fn(usize) -> f64) -> impl Iterator<Item = i64> {
    let (flat, above) = stored_totals(mask, bonus_at);
    let totals =
        std::iter::once(usize::from(flat)).chain((0..=usize::from(bonus_at)).filter(move |&u| above >> u & 1 == 1));
    totals.map(move |u| units(value(u)))
}

/// Turn-start states the game can reach under `rules` (every count of
/// saved rerolls a state can hold, every reachable capped upper total).
pub fn reachable_states(rules: &Rules) -> u64 {
    (0u32..1 << BOXES.len())
        .filter(|&m| m != 0)
        .map(|m| {
            let totals = reachable_capped_totals(!m & UPPER_MASK, rules.bonus_at).count_ones() as u64;
            totals * rules.saved_counts(m.count_ones() as usize) as u64
        })
        .sum()
}

/// One layer's section: every chunk of the masks with `open` boxes open,
/// `rows(mask)` giving each mask's rows in units (saved counts x stored totals).
pub fn layer_section(params: &MaxiParams, open: usize, rows: impl Fn(u32) -> Vec<i64> + Sync) -> Section {
    let layout = &params.layout;
    let mut bytes = vec![0u8; layout.chunks(open) * CHUNK_BYTES];
    bytes.par_chunks_mut(CHUNK_BYTES).enumerate().for_each(|(c, out)| {
        let (masks, place) = layout.chunk_masks(open - 1, c).expect("a chunk of the layout");
        out.copy_from_slice(&encode_chunk(&place, |p| rows(masks[p])));
    });
    Section::of(&SECTIONS[open - 1], params, bytes).level(ZSTD_LEVEL)
}

/// The zstd level of the layers' chunks.
pub const ZSTD_LEVEL: i32 = 12;

/// The exceptions' sections (none yet listed).
pub fn exception_sections(params: &MaxiParams) -> Vec<Section> {
    vec![Section::of(&EXCEPTION_KEY, params, Vec::new()), Section::of(&EXCEPTION_ACTION, params, Vec::new())]
}

/// The table of preset `P` solved under `rules` without saved rolls.
pub fn solve_plain_table<P: MaxiPreset>(rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solved = super::solve(rules, progress);
    let params = MaxiParams { rules, exceptions: 0, layout: Layout::new(rules) };
    let mut sections: Vec<Section> = (1..=LAYERS)
        .map(|open| {
            layer_section(&params, open, |mask| row_units(mask, rules.bonus_at, |u| solved.get(mask, u)).collect())
        })
        .collect();
    sections.extend(exception_sections(&params));
    let mut table = Solved::new::<Maxi<P>>(&params, reachable_states(&rules), sections);
    table.figures.push(start_figure(solved.start()));
    table
}

/// The report's figure: the whole game's expected score.
fn start_figure(start: f64) -> Figure {
    Figure { key: "start_value", value: start, text: format!("expected score {start:.9}") }
}

/// The `maxi-yatzy` table, under `rules.maxi`.
pub fn solve_finnish_table(rules: &crate::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<dice_tables_reader::maxi::Finnish>(rules.maxi, progress)
}

/// The `maxi-yatzy-swedish` table, under `rules.maxi_swedish`.
pub fn solve_swedish_table(rules: &crate::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    solve_table::<dice_tables_reader::maxi::Swedish>(rules.maxi_swedish, progress)
}

/// The table of preset `P` under `rules`, with or without saved rolls.
pub fn solve_table<P: MaxiPreset>(rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    if rules.saved_rolls {
        solve_saved_table::<P>(rules, progress)
    } else {
        solve_plain_table::<P>(rules, progress)
    }
}

/// The table of preset `P` solved under `rules` with saved rolls: each
/// layer's section made as soon as the layer is solved.
pub fn solve_saved_table<P: MaxiPreset>(rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let params = MaxiParams { rules, exceptions: 0, layout: Layout::new(rules) };
    let mut sections = Vec::new();
    let start = super::solve_saved(rules, dice_tables_reader::maxi::ALL, progress, |layer| {
        let open = layer.masks.first().map_or(0, |m| m.count_ones() as usize);
        if open == 0 {
            return;
        }
        let index = |mask: u32| layer.masks.binary_search(&mask).expect("a mask of the layer");
        sections.push(layer_section(&params, open, |mask| {
            let i = index(mask);
            (0..layer.saved)
                .flat_map(|b| row_units(mask, rules.bonus_at, move |u| layer.get(i, b, u)).collect::<Vec<_>>())
                .collect()
        }));
    });
    sections.extend(exception_sections(&params));
    let mut table = Solved::new::<Maxi<P>>(&params, reachable_states(&rules), sections);
    table.figures.push(start_figure(start));
    table
}
