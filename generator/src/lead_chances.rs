//! Writes chances by lead as the two-player sheet tables store them
//! ([`dice_tables_reader::lead_chances`]): per pair of sheets, the mover's
//! chance at each lead, quantized, each as the zigzag code of its second
//! difference, in three byte planes per chunk; and the figures of a
//! two-player game's start.

use dice_tables_reader::lead_chances::{PLANES, UNITS, VALUE_CHUNK};
use rayon::prelude::*;

/// The zstd level of the values: level 6 stores yazy's whole game in
/// 209 MB in 2.5 s of compression on two cores; level 19 would take
/// minutes for a few MB less, level 3 writes 214 MB.
pub const VALUE_LEVEL: i32 = 6;

/// The stored form of a value: `round(v x UNITS)`.
fn quantize(v: f64) -> i64 {
    (v * f64::from(UNITS)).round() as i64
}

/// A table's stored values, written layer by layer in the layout's order
/// and compressed chunk by chunk as each fills: only the chunks the latest
/// layer left unfinished are held decoded, so a big table never needs room
/// for all its planes at once (crag's would take 7 GB). The same chunks
/// and bytes as the whole planes compressed when the file is written.
pub struct ValuePlanes {
    /// Values the table stores, and values written so far.
    stored: usize,
    at: usize,
    /// The chunk `window` begins with; every one before it is compressed.
    first: usize,
    window: Vec<u8>,
    chunks: Vec<crate::artifact::StoredChunk>,
}

impl ValuePlanes {
    /// The planes of a table that stores `stored` values.
    pub fn new(stored: usize) -> ValuePlanes {
        ValuePlanes { stored, at: 0, first: 0, window: Vec::new(), chunks: Vec::new() }
    }

    /// The byte where chunk `chunk` begins, from the table's first.
    fn chunk_byte(&self, chunk: usize) -> usize {
        self.stored.min(chunk * VALUE_CHUNK) * PLANES
    }

    /// Writes the next stored layer's `values`, per pair (each beginning at
    /// one of `pair_starts`, positions in `values`, ascending, the first 0)
    /// the zigzag of each quantized value's second difference, both
    /// differences starting again at each pair's and each chunk's first
    /// value (see FORMAT.md); then compresses (at [`VALUE_LEVEL`]) each
    /// chunk the layer completes. A value that rounds below the one before
    /// it in its pair (float rounding where two leads are worth the same)
    /// is stored as that one, so that a sound table never decodes a falling
    /// chance.
    pub fn push(&mut self, values: &[f64], pair_starts: &[usize]) {
        let end = self.at + values.len();
        assert!(end <= self.stored, "no more values than the table stores");
        let begun = end.div_ceil(VALUE_CHUNK);
        let window_end = self.chunk_byte(begun) - self.chunk_byte(self.first);
        self.window.resize(window_end.max(self.window.len()), 0);
        encode_chunks(&mut self.window, (self.first, self.stored), self.at, values, pair_starts);
        self.at = end;
        let complete = if end == self.stored { begun } else { end / VALUE_CHUNK };
        if complete > self.first {
            let cut = self.chunk_byte(complete) - self.chunk_byte(self.first);
            let compressed: Vec<crate::artifact::StoredChunk> = self.window[..cut]
                .par_chunks(VALUE_CHUNK * PLANES)
                .map(|decoded| {
                    let stored = zstd::bulk::compress(decoded, VALUE_LEVEL).expect("zstd compresses in memory");
                    (stored, *blake3::hash(decoded).as_bytes())
                })
                .collect();
            self.chunks.extend(compressed);
            self.window.drain(..cut);
            self.first = complete;
        }
    }

    /// The section of `spec` for a table with `params`, every value written.
    pub fn section<P>(self, spec: &dice_tables_reader::SectionSpec<P>, params: &P) -> crate::artifact::Section {
        assert_eq!(self.at, self.stored, "every stored value written");
        crate::artifact::Section::stored(spec, params, self.chunks)
    }
}

/// [`ValuePlanes::push`]'s encoding of the values `at..` of a table
/// storing `stored`, into `planes`, which holds its chunks from `first` on.
/// Chunks are written in parallel, each whole or the part of it the layer
/// holds.
fn encode_chunks(planes: &mut [u8], (first, stored): (usize, usize), at: usize, values: &[f64], pair_starts: &[usize]) {
    let end = at + values.len();
    if at == end {
        return;
    }
    let chunks = at / VALUE_CHUNK..(end - 1) / VALUE_CHUNK + 1;
    let base = first * VALUE_CHUNK * PLANES;
    let bytes =
        &mut planes[chunks.start * VALUE_CHUNK * PLANES - base..stored.min(chunks.end * VALUE_CHUNK) * PLANES - base];
    bytes.par_chunks_mut(VALUE_CHUNK * PLANES).enumerate().for_each(|(k, chunk)| {
        let (first, len) = ((chunks.start + k) * VALUE_CHUNK, chunk.len() / PLANES);
        // The layer's values in this chunk, from the pair that holds the
        // first of them.
        let (lo, hi) = (at.max(first) - at, end.min(first + len) - at);
        let mut pair = pair_starts.partition_point(|&s| s <= lo) - 1;
        let (mut q, mut rise) = (0i64, 0i64);
        // The highest stored value of the pair so far, continued across a
        // chunk's start.
        let mut last = values[pair_starts[pair]..lo].iter().map(|&v| quantize(v)).max().unwrap_or(0);
        for (i, &v) in values[lo..hi].iter().enumerate() {
            let (p, j) = (lo + i, at + lo + i - first);
            while pair_starts.get(pair + 1).is_some_and(|&next| next <= p) {
                pair += 1;
            }
            if p == pair_starts[pair] {
                last = 0;
            }
            if p == pair_starts[pair] || j == 0 {
                (q, rise) = (0, 0);
            }
            let next = quantize(v).max(last);
            last = next;
            let delta = next - q - rise;
            (q, rise) = (next, next - q);
            let z = ((delta << 1) ^ (delta >> 63)) as u32;
            for (b, plane) in chunk.chunks_exact_mut(len).enumerate() {
                plane[j] = (z >> (8 * b)) as u8;
            }
        }
    });
}

/// The figures of the start of a game, from the first player's values at
/// every lead `-most..=most`: the first player's chance, and the fair head
/// start (the lead given to one player at the start that brings the first
/// player's chance closest to 1/2; the smaller head start where two are
/// as close).
pub fn start_figures(start_row: &[f64], most: i32) -> Vec<crate::solved::Figure> {
    let at = |d: i32| start_row[(d + most) as usize];
    let p = at(0);
    let mut leads: Vec<i32> = (-most..=most).collect();
    leads.sort_by_key(|d| (d.abs(), *d < 0));
    let fair = leads.into_iter().min_by(|&a, &b| (at(a) - 0.5).abs().total_cmp(&(at(b) - 0.5).abs())).unwrap_or(0);
    let points = |d: i32| if d.abs() == 1 { "1 point".to_string() } else { format!("{} points", d.abs()) };
    let whom = match fair {
        0 => "no head start".to_string(),
        d if d > 0 => format!("a head start of {} for the first player", points(d)),
        d => format!("a head start of {} for the second player", points(d)),
    };
    vec![
        crate::solved::Figure {
            key: "first_player",
            value: p,
            text: format!("the first player wins {:.7} (ties half)", p),
        },
        crate::solved::Figure {
            key: "fair_head_start",
            value: f64::from(fair),
            text: format!("fairest start: {whom}, the first player then wins {:.7}", at(fair)),
        },
        crate::solved::Figure { key: "first_player_after_head_start", value: at(fair), text: String::new() },
    ]
}
