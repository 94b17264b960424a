//! Where every mask's rows sit in a Maxi Yatzy table: the layers (one
//! section per count of open boxes), in each the masks grouped by their
//! open upper boxes and packed whole into chunks, computed from the rules
//! alone.

use super::codec::{Place, CHUNK_VALUES};
use super::rules::{stored_totals, Rules, BOXES, UPPER_MASK};
use crate::dice::FACES;

/// Open upper-box sets: bits 0 to 5 of a mask.
const UPPER_SETS: usize = 64;
/// The lower boxes: bits 6 to 19.
const LOWER_BOXES: usize = BOXES.len() - FACES;
/// Layers stored: 1 to 20 boxes open (with none open only the bonus is left).
pub const LAYERS: usize = BOXES.len();

/// Where every mask's rows sit: computed from the rules alone.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    rules: Rules,
    /// Per open upper set, the values a row holds.
    row_values: [u8; UPPER_SETS],
    /// Per layer (open boxes - 1) and open upper set, the group's first
    /// chunk in the layer's section; entry 64 the layer's chunk count.
    first_chunk: Vec<[u32; UPPER_SETS + 1]>,
}

/// Binomial coefficient, small arguments.
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The position of `lower` among the numbers with as many bits set, in
/// increasing order (colex rank).
fn colex_rank(mut lower: u32) -> usize {
    let (mut rank, mut t) = (0, 1);
    while lower != 0 {
        rank += choose(lower.trailing_zeros() as usize, t);
        lower &= lower - 1;
        t += 1;
    }
    rank
}

/// The number with `bits` bits set at position `rank` in increasing order.
fn colex_unrank(mut rank: usize, bits: usize) -> u32 {
    let mut out = 0;
    for t in (1..=bits).rev() {
        let mut p = t - 1;
        while choose(p + 1, t) <= rank {
            p += 1;
        }
        rank -= choose(p, t);
        out |= 1 << p;
    }
    out
}

impl Layout {
    /// The layout of a table under `rules`.
    pub fn new(rules: Rules) -> Layout {
        let row_values = std::array::from_fn(|upper_open| {
            let (_, above) = stored_totals(upper_open as u32, rules.bonus_at);
            1 + above.count_ones() as u8
        });
        let mut layout = Layout { rules, row_values, first_chunk: Vec::with_capacity(LAYERS) };
        for open in 1..=LAYERS {
            let mut first = [0u32; UPPER_SETS + 1];
            for upper in 0..UPPER_SETS {
                let masks = layout.group_masks(open, upper);
                first[upper + 1] = first[upper] + masks.div_ceil(layout.masks_per_chunk(open, upper).max(1)) as u32;
            }
            layout.first_chunk.push(first);
        }
        layout
    }

    /// Chunks of the section of masks with `open` boxes open.
    pub fn chunks(&self, open: usize) -> usize {
        self.first_chunk[open - 1][UPPER_SETS] as usize
    }

    /// Masks with `open` boxes open whose open upper boxes are `upper`.
    fn group_masks(&self, open: usize, upper: usize) -> usize {
        let lower = open.wrapping_sub(upper.count_ones() as usize);
        if lower > LOWER_BOXES {
            0
        } else {
            choose(LOWER_BOXES, lower)
        }
    }

    /// Whole masks a chunk of the group holds.
    fn masks_per_chunk(&self, open: usize, upper: usize) -> usize {
        let mask_values = self.rules.saved_counts(open) * usize::from(self.row_values[upper]);
        (CHUNK_VALUES / mask_values).max(1)
    }

    /// Where `mask`'s rows are (a mask with at least one box open).
    pub fn place(&self, mask: u32) -> Place {
        let open = mask.count_ones() as usize;
        let upper = (mask & UPPER_MASK) as usize;
        let rank = colex_rank(mask >> FACES);
        let per_chunk = self.masks_per_chunk(open, upper);
        let in_group = rank / per_chunk;
        let masks = per_chunk.min(self.group_masks(open, upper) - in_group * per_chunk);
        Place {
            section: open - 1,
            chunk: self.first_chunk[open - 1][upper] as usize + in_group,
            position: rank % per_chunk,
            masks,
            rows: self.rules.saved_counts(open),
            values: usize::from(self.row_values[upper]),
        }
    }

    /// The masks of chunk `chunk` of the section of layer `section`, in
    /// order, and their place: what a check of the chunk walks.
    pub fn chunk_masks(&self, section: usize, chunk: usize) -> Option<(Vec<u32>, Place)> {
        let first = self.first_chunk.get(section)?;
        let upper = (0..UPPER_SETS).find(|&u| (first[u]..first[u + 1]).contains(&(chunk as u32)))?;
        let open = section + 1;
        let per_chunk = self.masks_per_chunk(open, upper);
        let in_group = chunk - first[upper] as usize;
        let lower_bits = open - upper.count_ones() as usize;
        let start = in_group * per_chunk;
        let count = per_chunk.min(self.group_masks(open, upper) - start);
        let masks: Vec<u32> =
            (start..start + count).map(|r| colex_unrank(r, lower_bits) << FACES | upper as u32).collect();
        let place = self.place(masks[0]);
        Some((masks, place))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_are_positions_in_increasing_order() {
        for bits in 0..=LOWER_BOXES {
            let numbers: Vec<u32> = (0..1u32 << LOWER_BOXES).filter(|n| n.count_ones() as usize == bits).collect();
            assert_eq!(numbers.len(), choose(LOWER_BOXES, bits));
            for (rank, &n) in numbers.iter().enumerate().step_by(7) {
                assert_eq!(colex_rank(n), rank);
                assert_eq!(colex_unrank(rank, bits), n);
            }
        }
    }

    #[test]
    fn every_mask_has_one_place_and_chunks_fit() {
        for rules in [Rules::FINNISH, Rules::SWEDISH] {
            let layout = Layout::new(rules);
            let mut seen = std::collections::HashSet::new();
            for open in 1..=LAYERS {
                for chunk in 0..layout.chunks(open) {
                    let (masks, place) = layout.chunk_masks(open - 1, chunk).expect("a chunk");
                    assert!(place.chunk_values() <= CHUNK_VALUES);
                    for (position, &m) in masks.iter().enumerate() {
                        assert_eq!(m.count_ones() as usize, open);
                        assert_eq!(layout.place(m), Place { position, ..place });
                        assert!(seen.insert(m));
                    }
                }
            }
            assert_eq!(seen.len(), (1 << BOXES.len()) - 1);
        }
    }
}
