//! Writes chances by lead as the two-player sheet tables store them
//! ([`dice_tables_reader::lead_chances`]): per pair of sheets, the mover's
//! chance at each lead, quantized, each as the zigzag code of its third
//! difference (wrapped to 24 bits), in three byte planes per chunk; and the
//! figures of a two-player game's start.

use dice_tables_reader::lead_chances::{wrap24, PLANES, UNITS, VALUE_CHUNK};
use rayon::prelude::*;

/// The zstd level of the values, each chunk's three planes compressed as
/// blocks of their own ([`crate::artifact::zstd_parts`]): level 6 stores
/// yazy's whole game in 178 MB; level 19 would take minutes for a few MB
/// less, level 3 writes more. One block for a chunk's three planes took
/// 182 MB (Generala's 407 MB where now 398).
pub const VALUE_LEVEL: i32 = 6;

/// Chunks [`ValuePlanes::push`] encodes and compresses at a time: 24 MB
/// of planes, enough to keep every core busy.
const BATCH_CHUNKS: usize = 256;

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
    /// the zigzag of each quantized value's third difference, wrapped to 24
    /// bits, the differences starting again at each pair's and each chunk's first
    /// value (see FORMAT.md); then compresses (at [`VALUE_LEVEL`]) each
    /// chunk the layer completes. A value that rounds below the one before
    /// it in its pair (float rounding where two leads are worth the same)
    /// is stored as that one, so that a sound table never decodes a falling
    /// chance.
    pub fn push(&mut self, values: &[f64], pair_starts: &[usize]) {
        self.push_batched(values, pair_starts, BATCH_CHUNKS);
    }

    /// [`ValuePlanes::push`], `batch` chunks at a time.
    fn push_batched(&mut self, values: &[f64], pair_starts: &[usize], batch: usize) {
        let end = self.at + values.len();
        assert!(end <= self.stored, "no more values than the table stores");
        if values.is_empty() {
            return;
        }
        // A batch of chunks at a time, so that a big layer is never held
        // encoded whole beside its values (crag's largest would be 2 GB).
        let layer_chunks = self.at / VALUE_CHUNK..(end - 1) / VALUE_CHUNK + 1;
        for from in layer_chunks.clone().step_by(batch) {
            let chunks = from..layer_chunks.end.min(from + batch);
            let window_end = self.chunk_byte(chunks.end) - self.chunk_byte(self.first);
            self.window.resize(window_end.max(self.window.len()), 0);
            encode_chunks(&mut self.window, (self.first, self.stored), (self.at, chunks.clone()), values, pair_starts);
            let complete = if end == self.stored { chunks.end } else { chunks.end.min(end / VALUE_CHUNK) };
            if complete > self.first {
                let cut = self.chunk_byte(complete) - self.chunk_byte(self.first);
                let compressed: Vec<crate::artifact::StoredChunk> = self.window[..cut]
                    .par_chunks(VALUE_CHUNK * PLANES)
                    .map(|decoded| {
                        (crate::artifact::zstd_parts(decoded, PLANES, VALUE_LEVEL), *blake3::hash(decoded).as_bytes())
                    })
                    .collect();
                self.chunks.extend(compressed);
                self.window.drain(..cut);
                self.first = complete;
            }
        }
        self.at = end;
    }

    /// The section of `spec` for a table with `params`, every value written.
    pub fn section<P>(self, spec: &dice_tables_reader::SectionSpec<P>, params: &P) -> crate::artifact::Section {
        assert_eq!(self.at, self.stored, "every stored value written");
        crate::artifact::Section::stored(spec, params, self.chunks)
    }
}

/// [`ValuePlanes::push`]'s encoding of a layer's values (the table's
/// `at..`, of a table storing `stored`) that fall in chunks `chunks`, into
/// `planes`, which holds the table's chunks from `first` on. Chunks are
/// written in parallel, each whole or the part of it the layer holds.
fn encode_chunks(
    planes: &mut [u8],
    (first, stored): (usize, usize),
    (at, chunks): (usize, std::ops::Range<usize>),
    values: &[f64],
    pair_starts: &[usize],
) {
    let end = at + values.len();
    let base = first * VALUE_CHUNK * PLANES;
    let bytes =
        &mut planes[chunks.start * VALUE_CHUNK * PLANES - base..stored.min(chunks.end * VALUE_CHUNK) * PLANES - base];
    bytes.par_chunks_mut(VALUE_CHUNK * PLANES).enumerate().for_each(|(k, chunk)| {
        let (first, len) = ((chunks.start + k) * VALUE_CHUNK, chunk.len() / PLANES);
        // The layer's values in this chunk, from the pair that holds the
        // first of them.
        let (lo, hi) = (at.max(first) - at, end.min(first + len) - at);
        let mut pair = pair_starts.partition_point(|&s| s <= lo) - 1;
        let (mut q, mut rise, mut bend) = (0i64, 0i64, 0i64);
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
                (q, rise, bend) = (0, 0, 0);
            }
            let next = quantize(v).max(last);
            last = next;
            let next_bend = next - q - rise;
            let delta = wrap24(next_bend - bend);
            (q, rise, bend) = (next, next - q, next_bend);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Layers of pairs of random lengths, values rising within each pair
    /// (with the odd float that falls a hair), written in batches of any
    /// size: the same chunks, each decoding (by the reader) to every
    /// value quantized, a falling one as the one before it.
    #[test]
    fn value_planes_store_every_layer_alike_in_any_batches() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = move |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        let mut layers = Vec::new();
        for _ in 0..5 {
            let (mut values, mut starts) = (Vec::new(), Vec::new());
            let pairs = 1 + next(3000) as usize;
            for _ in 0..pairs {
                starts.push(values.len());
                let len = 1 + next(90) as usize;
                // Some pairs leap from 0 to 1 (bends of ±UNITS, their
                // changes past 24 bits unwrapped).
                let mut v = if next(10) == 0 { 0.0 } else { next(1000) as f64 / 1e4 };
                for _ in 0..len {
                    values.push(v);
                    v = if next(20) == 0 { 1.0 } else { (v + next(300) as f64 / 1e5).min(1.0) };
                    if next(50) == 0 {
                        v -= 1e-12;
                    }
                }
            }
            layers.push((values, starts));
        }
        let stored: usize = layers.iter().map(|(v, _)| v.len()).sum();
        let written = |batch: usize| {
            let mut planes = ValuePlanes::new(stored);
            for (values, starts) in &layers {
                planes.push_batched(values, starts, batch);
            }
            assert_eq!(planes.at, stored);
            planes.chunks
        };
        let whole = written(usize::MAX / 2);
        assert_eq!(whole.len(), stored.div_ceil(VALUE_CHUNK));
        for batch in [1, 2, 3] {
            assert!(written(batch) == whole, "batches of {batch}");
        }
        // Each chunk decoded from each pair's (or the chunk's) start.
        let (values, starts): (Vec<f64>, Vec<usize>) =
            layers.iter().fold((vec![], vec![]), |(mut v, mut s), (lv, ls)| {
                s.extend(ls.iter().map(|&p| p + v.len()));
                v.extend(lv);
                (v, s)
            });
        let mut expected = Vec::with_capacity(stored);
        for (k, &p) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(stored);
            let mut last = 0;
            for &v in &values[p..end] {
                last = quantize(v).max(last);
                expected.push(last as u32);
            }
        }
        for (c, (compressed, hash)) in whole.iter().enumerate() {
            let chunk = zstd::bulk::decompress(compressed, VALUE_CHUNK * PLANES).unwrap();
            assert_eq!(*hash, *blake3::hash(&chunk).as_bytes());
            let first = c * VALUE_CHUNK;
            let len = chunk.len() / PLANES;
            let mut cuts: Vec<usize> =
                starts.iter().filter(|&&p| p > first && p < first + len).map(|&p| p - first).collect();
            cuts.insert(0, 0);
            cuts.push(len);
            for w in cuts.windows(2) {
                let mut got = Vec::new();
                dice_tables_reader::lead_chances::decode_segment(&chunk, w[0], w[1], |q| got.push(q)).unwrap();
                assert_eq!(got, expected[first + w[0]..first + w[1]], "chunk {c} at {}", w[0]);
            }
        }
    }
}
