//! Writing target tables (`yazy-target`, `yatzy-target`, `yahtzee-target`):
//! every state's chances `P*(S, n)`, `n = 1, 2, ...`, in the layout of the
//! reader's `target` module.

use dice_tables_reader::target::{Coding, TargetParams, CHANCES, REMAINING, UNITS, VALUE_CHUNK};
use dice_tables_reader::SectionSpec;

use crate::artifact::{le_bytes, Section};

/// `P*(S, n)` from a state's stored chances (`n = 1, 2, ...`): 1 at or
/// below 0, 0 past the last stored.
#[inline(always)]
pub fn chance(values: &[f64], n: i64) -> f64 {
    match n {
        ..=0 => 1.0,
        _ => values.get(n as usize - 1).copied().unwrap_or(0.0),
    }
}

/// A state's chances for `n = 1, 2, ...`, `W` at a time from `block(first
/// n)`, until a block ends below `negligible`; the trailing ones below it
/// dropped (they never rise with `n`).
pub fn chances_until<const W: usize>(negligible: f64, mut block: impl FnMut(i64) -> [f64; W]) -> Box<[f64]> {
    let mut out: Vec<f64> = Vec::new();
    let mut first = 1i64;
    loop {
        let lanes = block(first);
        out.extend_from_slice(&lanes);
        if lanes[W - 1] < negligible {
            break;
        }
        first += W as i64;
    }
    while out.last().is_some_and(|&v| v < negligible) {
        out.pop();
    }
    out.into_boxed_slice()
}

/// A chance as stored: `round(p x UNITS)`.
pub fn quantize(p: f64) -> u32 {
    quantize_in(p, UNITS)
}

fn quantize_in(p: f64, units: u32) -> u32 {
    (p.clamp(0.0, 1.0) * f64::from(units)).round() as u32
}

/// Every state's chances, stored as `coding` says: per state (first
/// stored chance, ones) and one more entry, and the drops of the stored
/// chances.
#[derive(Debug)]
pub struct Stored {
    coding: Coding,
    /// Per state, two entries: where its stored chances start, and how
    /// many chances round to 1 before them.
    pub index: Vec<u32>,
    /// The drops of the stored chances.
    pub drops: Vec<u32>,
}

impl Stored {
    /// Stores `curves` (per state, `P*(S, n)` for `n = 1, 2, ...`, not
    /// increasing): the leading chances that round to 1 become `ones`, the
    /// trailing ones that round to 0 are dropped.
    pub fn new<C: AsRef<[f64]>>(coding: Coding, curves: impl Iterator<Item = C>) -> Stored {
        let mut out = Stored { coding, index: Vec::new(), drops: Vec::new() };
        let units = coding.units;
        for curve in curves {
            let q: Vec<u32> = curve.as_ref().iter().map(|&p| quantize_in(p, units)).collect();
            let ones = q.iter().take_while(|&&v| v == units).count();
            let end = q.iter().rposition(|&v| v > 0).map_or(ones, |i| i + 1).max(ones);
            out.index.push(out.drops.len() as u32);
            out.index.push(ones as u32);
            let mut previous = units;
            for &v in &q[ones..end] {
                if out.drops.len().is_multiple_of(VALUE_CHUNK) {
                    previous = units;
                }
                assert!(v <= previous, "chances never increase with the target");
                out.drops.push(previous - v);
                previous = v;
            }
        }
        out.index.push(out.drops.len() as u32);
        out.index.push(0);
        out
    }

    /// Chances stored.
    pub fn values(&self) -> u64 {
        self.drops.len() as u64
    }

    /// Per chunk, the byte planes of the drops.
    fn planes(&self) -> Vec<u8> {
        let planes = self.coding.planes;
        let mut out = Vec::with_capacity(self.drops.len() * planes);
        for chunk in self.drops.chunks(VALUE_CHUNK) {
            for b in 0..planes {
                out.extend(chunk.iter().map(|d| (d >> (8 * b)) as u8));
            }
        }
        out
    }
}

/// A target table's contents: every state's `P*(S, n)`, the start's
/// distribution of the final score under max-expected-score play, and
/// every state's distribution of the points still to come under that play.
pub struct TargetContents<'a> {
    /// `P*(S, n)` for `n = 1, 2, ...`, per state.
    pub chances: Stored,
    /// P(final score = s), s = 0 to the most.
    pub distribution: &'a [f64],
    /// `P(remaining >= n)` for `n = 1, 2, ...`, per state.
    pub remaining: Stored,
}

impl TargetContents<'_> {
    /// Stores per state `P*(S, n)` (`chances`) and P(remaining = x)
    /// (`remaining`, each turned into `P(remaining >= n)`).
    pub fn new<'a, 'c, 'r>(
        chances: impl Iterator<Item = &'c [f64]>,
        distribution: &'a [f64],
        remaining: impl Iterator<Item = &'r [f64]>,
    ) -> TargetContents<'a> {
        TargetContents {
            chances: Stored::new(CHANCES, chances),
            distribution,
            // Each state's at a time: the whole game's would be gigabytes.
            remaining: Stored::new(REMAINING, remaining.map(at_least_from_one)),
        }
    }

    /// The sections, against the reader's specs: `state_index`, `p` (per
    /// chunk, byte planes of the drops), `ev_distribution`,
    /// `remaining_index` and `remaining`.
    pub fn sections<P: TargetParams>(self, specs: &[SectionSpec<P>], params: &P) -> Vec<Section> {
        vec![
            Section::of(&specs[0], params, le_bytes(&self.chances.index, u32::to_le_bytes)),
            Section::of(&specs[1], params, self.chances.planes()),
            Section::of(&specs[2], params, le_bytes(self.distribution, f64::to_le_bytes)),
            Section::of(&specs[3], params, le_bytes(&self.remaining.index, u32::to_le_bytes)),
            Section::of(&specs[4], params, self.remaining.planes()),
        ]
    }
}

/// `P(X >= n)` for `n = 1, 2, ...` from `P(X = x)`, `x = 0, 1, ...`:
/// summed from the top down (the small chances first), each capped at 1.
fn at_least_from_one(p: &[f64]) -> Vec<f64> {
    let mut tail = 0.0;
    let mut out: Vec<f64> = p[1.min(p.len())..]
        .iter()
        .rev()
        .map(|&q| {
            tail += q;
            f64::min(tail, 1.0)
        })
        .collect();
    out.reverse();
    out
}

/// The totals the generator reports a target table's chances at.
pub const REPORTED_TOTALS: [u32; 7] = [150, 200, 250, 300, 350, 400, 500];

/// The report's figures of a target table: at each of [`REPORTED_TOTALS`],
/// `P*(start, T)` beside `P_EV(final >= T)` under max-expected-score play.
/// `start` is the start state's `P*(n)` for `n = 1, 2, ...`; `distribution`
/// is P(final = s).
pub fn figures(start: &[f64], distribution: &[f64]) -> Vec<crate::solved::Figure> {
    const KEYS: [(&str, &str); 7] = [
        ("p_best_150", "p_ev_150"),
        ("p_best_200", "p_ev_200"),
        ("p_best_250", "p_ev_250"),
        ("p_best_300", "p_ev_300"),
        ("p_best_350", "p_ev_350"),
        ("p_best_400", "p_ev_400"),
        ("p_best_500", "p_ev_500"),
    ];
    // The figures as the reader shows them (`reader curve`): the stored,
    // rounded chance, and P(final >= T) as the reader sums it.
    let at_least = dice_tables_reader::target::at_least_chances(distribution);
    let mut out = Vec::new();
    for (&t, (best_key, ev_key)) in REPORTED_TOTALS.iter().zip(KEYS) {
        let best = f64::from(quantize(start.get(t as usize - 1).copied().unwrap_or(0.0))) / f64::from(UNITS);
        let ev = at_least.get(t as usize).copied().unwrap_or(0.0);
        let text = format!("P*(start, {t}) {best:.7} vs {ev:.7} played for the average");
        out.push(crate::solved::Figure { key: best_key, value: best, text });
        out.push(crate::solved::Figure { key: ev_key, value: ev, text: String::new() });
    }
    out
}
