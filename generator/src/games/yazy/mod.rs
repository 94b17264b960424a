//! yazy.
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

pub mod duel;
pub mod expected;
pub mod target;
pub mod versus;

use dice_tables_reader::yazy::{
    Rules, Yazy, BEST_KEEP, CATEGORIES, CATEGORY_POINTS, KEEP_ALL, KEEP_VALUE, KEEP_VALUE_SCALE, MASKS, MASK_BLOCK,
    MASK_BLOCKS, NO_ACTION, PARTIAL_KEEPS, ROLLS, TURN_START,
};
use std::sync::Mutex;
use std::thread::JoinHandle;

use crate::artifact::{le_bytes, Bytes, Section};
use crate::cpu::Simd;
use crate::dice::{multisets, NONE};
use crate::rule_engine::{Average, LaneStart, Options, RecordKeeps, W};
use crate::solved::Solved;

/// The zstd level of yazy's compressed sections (see `into_sections`).
const YAZY_ZSTD_LEVEL: i32 = 17;

pub use dice_tables_reader::yazy::points;

/// Everything the table holds, laid out as its sections.
pub struct Solution {
    /// The rerolls of the rules solved.
    pub rerolls: u8,
    /// Per mask: the expected score still to come before the turn's roll.
    pub turn_start: Vec<f64>,
    /// Per (roll, category): points now.
    pub category_points: Vec<u8>,
    /// Per (rerolls left - 1, mask, roll): the best keep's graded rank, or KEEP_ALL.
    pub best_keep: Bytes,
    /// Per (rerolls left - 1, block of masks, byte, partial keep, mask in the
    /// block): byte `byte` of the keep's value (solved in f64) times
    /// KEEP_VALUE_SCALE, rounded. Keep-major order and byte planes put
    /// similar bytes side by side, so they compress far better; blocks of
    /// masks let a lookup decode only its own.
    pub keep_value: Bytes,
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

/// The yazy table under `rules`, into the sections [`prepare`] made if it
/// was called.
pub fn solve_table(rules: &crate::rules::Rules, progress: &mut dyn FnMut(usize, usize)) -> Solved {
    let solution = solve_into(Output::prepared(rules.yazy.rerolls), progress, Simd::detect());
    Solved::new::<Yazy>(&rules.yazy, solution.states(), solution.into_sections())
}

/// Solves every state. Masks are solved in layers by the number of open
/// categories, each layer in parallel: a mask needs only masks with one
/// category fewer. Each mask is computed the same way whatever the thread,
/// so the output does not depend on the thread count.
pub fn solve(rerolls: u8, progress: impl FnMut(usize, usize)) -> Solution {
    solve_on(rerolls, progress, Simd::detect())
}

/// [`solve`], with the given vector instructions.
fn solve_on(rerolls: u8, progress: impl FnMut(usize, usize), simd: Simd) -> Solution {
    solve_into(Output::new(rerolls), progress, simd)
}

/// The best-keep and keep-value sections before a solve writes them (the
/// blocks write each mask's bytes as they solve it: no mask-major copy of
/// 3.4 MB of keep values to fault in, then transpose).
struct Output {
    rerolls: u8,
    best_keep: Bytes,
    keep_value: Bytes,
}

/// The sections [`prepare`] is making, if it was called.
static PREPARED: Mutex<Option<JoinHandle<Output>>> = Mutex::new(None);

/// Makes the sections of the next [`solve_table`] under `rerolls` on a
/// thread of its own, from now: the kernel's clearing of their pages (huge
/// pages where it has them) is a sixth of a cold solve, and several
/// milliseconds more when it must first gather huge pages. `generator`
/// calls this as it starts, beside its other set-up.
pub fn prepare(rerolls: u8) {
    let making = std::thread::spawn(move || Output::faulted_in(rerolls));
    *PREPARED.lock().unwrap_or_else(|e| e.into_inner()) = Some(making);
}

impl Output {
    /// Zeroed sections, but for mask 0's best keeps, which say no action:
    /// mask 0 is never solved (nothing is left to score) and keeps these.
    fn new(rerolls: u8) -> Output {
        let r = usize::from(rerolls);
        let mut best_keep = Bytes::zeroed(r * MASKS * ROLLS);
        for level in best_keep.chunks_exact_mut(MASKS * ROLLS) {
            level[..ROLLS].fill(NO_ACTION);
        }
        Output { rerolls, best_keep, keep_value: Bytes::zeroed(r * MASK_BLOCKS * 4 * PARTIAL_KEEPS * MASK_BLOCK) }
    }

    /// [`Output::new`] with a byte of every page written (the value it
    /// holds), so that the kernel has given every page.
    fn faulted_in(rerolls: u8) -> Output {
        let mut output = Output::new(rerolls);
        for bytes in [&mut output.best_keep, &mut output.keep_value] {
            for byte in bytes.iter_mut().step_by(4096) {
                // SAFETY: a valid, aligned byte of `bytes`; volatile so that
                // writing the value it holds is not left out.
                unsafe { std::ptr::write_volatile(byte, std::ptr::read_volatile(byte)) };
            }
        }
        output
    }

    /// The sections [`prepare`] made for `rerolls`, else new ones.
    fn prepared(rerolls: u8) -> Output {
        let making = PREPARED.lock().unwrap_or_else(|e| e.into_inner()).take();
        match making.map(JoinHandle::join) {
            Some(Ok(output)) if output.rerolls == rerolls => output,
            _ => Output::new(rerolls),
        }
    }
}

/// Solves every state into `output`: the rules engine solves yazy's
/// preset (averaging over six, as this table always has), and hands each
/// mask's keep values and best keeps to the sections as it finds them.
fn solve_into(output: Output, mut progress: impl FnMut(usize, usize), simd: Simd) -> Solution {
    let Output { rerolls, mut best_keep, mut keep_value } = output;
    let mut rules = crate::rule_sets::preset("yazy").expect("yazy is a preset");
    rules.rerolls = rerolls;
    let category_points: Vec<u8> =
        multisets(5).iter().flat_map(|d| (0..CATEGORIES.len()).map(move |c| points(d, c))).collect();
    let out = Out {
        best_keep: best_keep.as_mut_ptr(),
        best_keep_len: best_keep.len(),
        keep_value: keep_value.as_mut_ptr(),
        keep_value_len: keep_value.len(),
    };
    let options = Options { average: Average::OverSix, record: Some(&out), ..Options::default() };
    let (solution, _) = crate::rule_engine::solve_with(&rules, simd, options, &mut progress)
        .unwrap_or_else(|e| panic!("yazy's preset solves: {}", e.0));
    let turn_start =
        (0..MASKS as u32).map(|m| solution.turn_start(m, 0, 0).expect("every mask is a turn start")).collect();
    Solution { rerolls, turn_start, category_points, best_keep, keep_value }
}

/// Where the solve writes each mask's rows of the best-keep and keep-value
/// sections (laid out as [`Solution`] says).
struct Out {
    best_keep: *mut u8,
    best_keep_len: usize,
    keep_value: *mut u8,
    keep_value_len: usize,
}

// SAFETY: the solve records each mask from one block of one task (lanes
// repeating a mask write the same bytes from the same thread), the sections
// outlive the solve, and nothing reads them until it is done.
unsafe impl Sync for Out {}

impl RecordKeeps for Out {
    /// Writes the best keeps and quantised keep values of a block's masks
    /// with `rerolls` left. Every byte written is checked to be inside the
    /// sections.
    fn record(&self, rerolls: u8, lanes: &[LaneStart; W], keep_values: &[[f64; W]], best_keeps: &[[f64; W]]) {
        const PLANE: usize = PARTIAL_KEEPS * MASK_BLOCK;
        assert!(best_keeps.len() == ROLLS && keep_values.len() == PARTIAL_KEEPS && rerolls >= 1);
        let (level, masks) = (usize::from(rerolls) - 1, lanes.map(|l| l.mask as usize));
        let best_keep: [usize; W] = std::array::from_fn(|l| (level * MASKS + masks[l]) * ROLLS);
        let keep_value: [usize; W] =
            std::array::from_fn(|l| (level * MASK_BLOCKS + masks[l] / MASK_BLOCK) * 4 * PLANE + masks[l] % MASK_BLOCK);
        // Every byte below is inside the sections (checked once a call).
        for l in 0..W {
            assert!(masks[l] < MASKS && best_keep[l] + ROLLS <= self.best_keep_len);
            assert!(keep_value[l] + 3 * PLANE + (PARTIAL_KEEPS - 1) * MASK_BLOCK < self.keep_value_len);
        }
        for (roll, best) in best_keeps.iter().enumerate() {
            let codes: [u8; W] = best.map(|g| match g as u16 {
                NONE => KEEP_ALL,
                g => g as u8,
            });
            for l in 0..W {
                // SAFETY: inside the section (asserted above), alive and
                // this mask's own row, which no other thread writes (the
                // solve records each mask from one task).
                unsafe { *self.best_keep.add(best_keep[l] + roll) = codes[l] };
            }
        }
        // Row by row of the section (a keep's byte plane), each written by
        // every lane at once, so that a row's cache lines are fetched once.
        for (keep, value) in keep_values.iter().enumerate() {
            let value = value.map(quantise);
            for plane in 0..4 {
                let row = plane * PLANE + keep * MASK_BLOCK;
                for l in 0..W {
                    // SAFETY: inside the section (asserted above), alive and
                    // this mask's own byte, which no other thread writes.
                    unsafe { *self.keep_value.add(keep_value[l] + row) = (value[l] >> (8 * plane)) as u8 };
                }
            }
        }
    }
}

/// A non-negative value in units of 1 / KEEP_VALUE_SCALE, rounded to nearest
/// (adding a half and truncating: `f64::round` is a library call here).
fn quantise(value: f64) -> u32 {
    (value * KEEP_VALUE_SCALE + 0.5) as u32
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
        for level in Simd::available() {
            let other = solve_on(2, |_, _| {}, level);
            assert_eq!(
                other.turn_start.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                here.turn_start.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{level:?}"
            );
            assert_eq!(*other.best_keep, *here.best_keep, "{level:?}");
            assert_eq!(*other.keep_value, *here.keep_value, "{level:?}");
        }
    }

    /// The sections [`prepare`] makes give the same table; made for other
    /// rules, they are left for new ones.
    #[test]
    fn prepared_sections_solve_alike() {
        let here = solve(2, |_, _| {});
        for made_for in [2, 1] {
            prepare(made_for);
            let table = solve_table(&crate::rules::Rules::default(), &mut |_, _| {});
            let bytes = |name: &str| &table.sections.iter().find(|s| s.name == name).expect(name).bytes[..];
            assert_eq!(bytes("best_keep"), &here.best_keep[..], "prepared for {made_for}");
            assert_eq!(bytes("keep_value"), &here.keep_value[..], "prepared for {made_for}");
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
