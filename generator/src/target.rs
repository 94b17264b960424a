//! Writing target tables (`yazy-target`, `yatzy-target`, `yahtzee-target`):
//! every state's chances `P*(S, n)`, `n = 1, 2, ...`, in the layout of the
//! reader's `target` module.

use dice_tables_reader::target::{TargetParams, PLANES, UNITS, VALUE_CHUNK};
use dice_tables_reader::SectionSpec;

use crate::artifact::{le_bytes, Section};

/// A chance as stored: `round(p x UNITS)`.
pub fn quantize(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * f64::from(UNITS)).round() as u32
}

/// Every state's chances, stored: per state (first stored chance, ones)
/// and one more entry, and the drops of the stored chances.
#[derive(Debug, Default)]
pub struct Stored {
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
    pub fn new<'a>(curves: impl Iterator<Item = &'a [f64]>) -> Stored {
        let mut out = Stored::default();
        for curve in curves {
            let q: Vec<u32> = curve.iter().map(|&p| quantize(p)).collect();
            let ones = q.iter().take_while(|&&v| v == UNITS).count();
            let end = q.iter().rposition(|&v| v > 0).map_or(ones, |i| i + 1).max(ones);
            out.index.push(out.drops.len() as u32);
            out.index.push(ones as u32);
            let mut previous = UNITS;
            for &v in &q[ones..end] {
                if out.drops.len() % VALUE_CHUNK == 0 {
                    previous = UNITS;
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

    /// The sections, against the reader's specs: `state_index`, `p` (per
    /// chunk, byte planes of the drops) and `ev_distribution`.
    pub fn sections<P: TargetParams>(self, specs: &[SectionSpec<P>], params: &P, distribution: &[f64]) -> Vec<Section> {
        let mut planes = Vec::with_capacity(self.drops.len() * PLANES);
        for chunk in self.drops.chunks(VALUE_CHUNK) {
            for b in 0..PLANES {
                planes.extend(chunk.iter().map(|d| (d >> (8 * b)) as u8));
            }
        }
        vec![
            Section::of(&specs[0], params, le_bytes(&self.index, u32::to_le_bytes)),
            Section::of(&specs[1], params, planes),
            Section::of(&specs[2], params, le_bytes(distribution, f64::to_le_bytes)),
        ]
    }
}

/// The totals the generator reports a target table's chances at.
pub const REPORTED_TOTALS: [u32; 7] = [150, 200, 250, 300, 350, 400, 500];

/// The report's figures of a target table: at each of [`REPORTED_TOTALS`],
/// `P*(start, T)` beside `P_EV(final >= T)` under max-expected-score play.
/// `start` is the start state's `P*(n)` for `n = 1, 2, ...`; `distribution`
/// is P(final = s).
pub fn figures(start: &[f64], distribution: &[f64]) -> Vec<crate::Figure> {
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
        out.push(crate::Figure { key: best_key, value: best, text });
        out.push(crate::Figure { key: ev_key, value: ev, text: String::new() });
    }
    out
}
