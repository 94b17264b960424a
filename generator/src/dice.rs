//! Dice combinatorics shared by every game: the multisets of n dice in rank
//! order (how likely each is to come up: [`Dice::probability`]), and the
//! keep/reroll transition.
//! Ranks and parsing belong to the reader's `dice` module, which the tables are
//! indexed by; this module adds what only solving needs.

pub use dice_tables_reader::dice::{multiset_count, Dice, FACES, MAX_DICE};
use dice_tables_reader::five_dice::{KeepLattice, KEEP_LATTICE};

/// The multisets of `n` dice, in rank order.
pub fn multisets(n: usize) -> Vec<Dice> {
    (0..multiset_count(n)).map(|r| Dice::unrank(n, r).expect("rank in range")).collect()
}

/// The keep/reroll transition for games that keep any sub-multiset of a
/// roll and reroll the rest (five dice: yazy, the combination game, yatzy,
/// yahtzee; six: Maxi Yatzy): the reader's keep lattice (which a lookup's
/// turn solve walks too), with what solving adds.
///
/// What a lattice pass carries beside each pick: `None`, its keep; else
/// the value in another evaluation of each partial keep and of each roll's own option.
type Tags<'a, const W: usize> = Option<(&'a [[f64; W]], &'a [[f64; W]])>;

/// Keeps are indexed by graded rank (all keeps of 0 dice, then of 1, ...), so
/// the keeps of fewer dice than a roll are `0..partial`, and the whole roll
/// `r` is keep `partial + r`.
pub struct KeepGraph {
    /// Keeps of fewer dice than a roll.
    pub partial: usize,
    /// For each partial keep, the keep with one more die of each face.
    plus_face: &'static [[u16; FACES]],
    /// For each keep (partial or whole roll), the keeps with one die fewer,
    /// one per face it shows, lowest face first, then unused entries.
    minus_face: &'static [[u16; FACES]],
    /// Every keep once, in an order the best-keep pass can follow: smaller
    /// keeps first, and within a size grouped by how many faces the keep
    /// shows, so the inner loop's length rarely changes. With that count.
    lattice_order: &'static [(u16, u8)],
    /// `lattice_order`'s runs of keeps showing the same number of faces:
    /// (start, end, faces).
    lattice_runs: Vec<(usize, usize, u8)>,
    /// The probability of each roll of five fresh dice.
    pub roll_probability: Vec<f64>,
}

pub use crate::cpu::Simd;

/// The widest [`Simd`] level this CPU has ([`Simd::detect`]).
pub fn simd() -> Simd {
    Simd::detect()
}

/// Every [`Simd`] level this CPU has ([`Simd::available`]).
pub fn simd_levels() -> Vec<Simd> {
    Simd::available()
}

/// The keep graph of five dice, built once.
pub static FIVE_DICE: std::sync::LazyLock<KeepGraph> = std::sync::LazyLock::new(|| KeepGraph::new(&KEEP_LATTICE));

/// The keep lattice of six dice, built once.
static SIX_DICE_LATTICE: std::sync::LazyLock<KeepLattice> = std::sync::LazyLock::new(|| KeepLattice::new(6));

/// The keep graph of six dice (Maxi Yatzy), built once.
pub static SIX_DICE: std::sync::LazyLock<KeepGraph> = std::sync::LazyLock::new(|| KeepGraph::new(&SIX_DICE_LATTICE));

/// The keep lattices of three and four dice (crag, reduced games), built once.
static FEW_DICE_LATTICES: [std::sync::LazyLock<KeepLattice>; 2] =
    [std::sync::LazyLock::new(|| KeepLattice::new(3)), std::sync::LazyLock::new(|| KeepLattice::new(4))];
static FEW_DICE: [std::sync::LazyLock<KeepGraph>; 2] = [
    std::sync::LazyLock::new(|| KeepGraph::new(&FEW_DICE_LATTICES[0])),
    std::sync::LazyLock::new(|| KeepGraph::new(&FEW_DICE_LATTICES[1])),
];

/// The keep graph of `dice` dice, 3 to 6, built once.
pub fn keep_graph(dice: usize) -> &'static KeepGraph {
    match dice {
        3 | 4 => &FEW_DICE[dice - 3],
        5 => &FIVE_DICE,
        6 => &SIX_DICE,
        _ => panic!("3 to 6 dice, not {dice}"),
    }
}

/// Reusable buffers for one turn's solve: see [`KeepGraph::solve_rerolls`].
pub struct TurnBuffers {
    values: Vec<f64>,
    scratch: Vec<(f64, u16)>,
    roll_value: Vec<f64>,
    roll_keep: Vec<u16>,
}

/// The better of two (value, choice) pairs, `a` on a tie. The comparison is
/// data-dependent: as a branch it mispredicts often enough to dominate the
/// solve, so ask for a branch-free select.
#[inline(always)]
pub fn first_max<T: Copy>(a: (f64, T), b: (f64, T)) -> (f64, T) {
    std::hint::select_unpredictable(b.0 > a.0, b, a)
}

/// Folds a (best, best more than `tie` below it) pair `(ob, ox)` into `(b, x)`.
#[inline(always)]
pub fn fold_best_and_below<const W: usize>(b: &mut [f64; W], x: &mut [f64; W], ob: &[f64; W], ox: &[f64; W], tie: f64) {
    for l in 0..W {
        let top = if ob[l] > b[l] { ob[l] } else { b[l] };
        let floor = top - tie;
        // Each pair's `below` is under its own best less `tie`, so under the new one's.
        let mut y = if ox[l] > x[l] { ox[l] } else { x[l] };
        let lower = if ob[l] > b[l] { b[l] } else { ob[l] };
        // The lower of the two when more than `tie` below the top: the same
        // as `lower < floor && lower > y`, one operation fewer.
        let kept = if lower < floor { lower } else { f64::NEG_INFINITY };
        y = if kept > y { kept } else { y };
        (b[l], x[l]) = (top, y);
    }
}

/// Lowers each lane of `least` to the gap between `best` and `below` where
/// that is smaller (the proof's test for near ties, lane by lane).
#[inline(always)]
pub fn fold_least_gap<const W: usize>(least: &mut [f64; W], best: &[f64; W], below: &[f64; W]) {
    for l in 0..W {
        let gap = best[l] - below[l];
        least[l] = if gap < least[l] { gap } else { least[l] };
    }
}

/// Each roll's own best and best not tied with it, by roll: what
/// [`KeepGraph::best_and_below_over_lanes`] starts a roll from.
type RollStart<'a, const W: usize> = (&'a [[f64; W]], &'a [[f64; W]]);

/// No keep: "keep all" as a best keep.
pub const NONE: u16 = u16::MAX;

impl KeepGraph {
    fn new(lattice: &'static KeepLattice) -> KeepGraph {
        let partial = lattice.partial;
        // Smaller keeps first: the partial ones, then the rolls.
        debug_assert!(lattice.order.iter().enumerate().all(|(i, &(g, _))| (i < partial) == (usize::from(g) < partial)));
        let mut lattice_runs: Vec<(usize, usize, u8)> = Vec::new();
        for (i, &(_, d)) in lattice.order.iter().enumerate() {
            match lattice_runs.last_mut() {
                Some(run) if run.2 == d => run.1 = i + 1,
                _ => lattice_runs.push((i, i + 1, d)),
            }
        }
        KeepGraph {
            partial,
            plus_face: &lattice.plus_face,
            minus_face: &lattice.minus_face,
            lattice_order: &lattice.order,
            lattice_runs,
            roll_probability: multisets(lattice.dice).iter().map(Dice::probability).collect(),
        }
    }

    /// Keeps in all, partial ones and whole rolls: the length of the buffer
    /// [`keep_values`](KeepGraph::keep_values) fills.
    pub fn keeps(&self) -> usize {
        self.minus_face.len()
    }

    /// The expected value of every keep when the rerolled dice are thrown
    /// and roll `r` is then worth `values[partial + r]` (filled by the
    /// caller): fills `values[..partial]`. A keep of k dice is the average
    /// over the next die's face of the keep of k + 1 dice, so the whole
    /// table costs 6 additions a keep.
    pub fn keep_values(&self, values: &mut [f64]) {
        debug_assert_eq!(values.len(), self.keeps());
        for g in (0..self.partial).rev() {
            let sum: f64 = self.plus_face[g].iter().map(|&next| values[usize::from(next)]).sum();
            values[g] = sum / FACES as f64;
        }
    }

    /// For each roll, the best of stopping (keeping all the dice, worth
    /// `stop_value[r]`) and each partial keep inside it (worth `values[g]`):
    /// writes the value and the best keep's graded rank ([`NONE`] = stop).
    /// `scratch` holds `keeps()` entries.
    ///
    /// Any proper sub-multiset of a keep misses some die, so the best keep
    /// inside a keep is itself or the best inside one of the keeps with one
    /// die fewer: one pass up the lattice, smaller keeps first, with
    /// branch-free picks (the comparisons are data-dependent and would
    /// mispredict). Ties go to the larger keep (stopping first), then to the
    /// lower face removed.
    pub fn best_keeps(
        &self,
        values: &[f64],
        stop_value: &[f64],
        scratch: &mut [(f64, u16)],
        best_value: &mut [f64],
        best_keep: &mut [u16],
    ) {
        for &(g, distinct) in self.lattice_order {
            let g = usize::from(g);
            let own = if g < self.partial { (values[g], g as u16) } else { (stop_value[g - self.partial], NONE) };
            let mut best = own;
            for &smaller in &self.minus_face[g][..usize::from(distinct)] {
                best = first_max(best, scratch[usize::from(smaller)]);
            }
            scratch[g] = best;
        }
        for (roll, &(v, arg)) in scratch[self.partial..self.keeps()].iter().enumerate() {
            best_value[roll] = v;
            best_keep[roll] = arg;
        }
    }

    /// Buffers for [`solve_rerolls`](KeepGraph::solve_rerolls), reusable from turn to turn.
    pub fn buffers(&self) -> TurnBuffers {
        let rolls = self.keeps() - self.partial;
        TurnBuffers {
            values: vec![0.0; self.keeps()],
            scratch: vec![(0.0, 0); self.keeps()],
            roll_value: vec![0.0; rolls],
            roll_keep: vec![0; rolls],
        }
    }

    /// Solves the rerolls of one turn by backward induction. `stop_value[r]`
    /// is what roll `r` is worth when the player stops (keeps every die, or
    /// has no rerolls left). For each number of rerolls left, 1 to
    /// `rerolls`, calls `each_level(keep_values, best_keep)` with the
    /// expected value of every partial keep (thrown with that many rerolls
    /// left, counting the throw), each roll's value with that many rerolls
    /// left, and each roll's best keep ([`NONE`] = stop). Returns each roll's
    /// value with `rerolls` left.
    pub fn solve_rerolls<'b>(
        &self,
        rerolls: u8,
        stop_value: &[f64],
        buffers: &'b mut TurnBuffers,
        mut each_level: impl FnMut(&[f64], &[f64], &[u16]),
    ) -> &'b [f64] {
        let TurnBuffers { values, scratch, roll_value, roll_keep } = buffers;
        values[self.partial..].copy_from_slice(stop_value);
        for _ in 0..rerolls {
            self.keep_values(values);
            self.best_keeps(values, stop_value, scratch, roll_value, roll_keep);
            each_level(&values[..self.partial], roll_value, roll_keep);
            values[self.partial..].copy_from_slice(roll_value);
        }
        &values[self.partial..]
    }

    /// Rerolls every partial keep's chance: on entry `thrown[g]` is the
    /// chance the dice of keep `g` are kept and the rest thrown (and
    /// `thrown[partial + r]` that roll `r` is kept whole); on return
    /// `thrown[partial..]` holds each roll's chance once the throw lands.
    /// Each kept set gains one die at a time, smaller keeps first.
    pub fn reroll_mass(&self, thrown: &mut [f64]) {
        debug_assert_eq!(thrown.len(), self.keeps());
        for g in 0..self.partial {
            let p = thrown[g] * dice_tables_reader::five_dice::SIXTH;
            if p != 0.0 {
                for &n in &self.plus_face[g] {
                    thrown[usize::from(n)] += p;
                }
            }
        }
    }

    /// [`reroll_mass`](KeepGraph::reroll_mass) for `W` lanes at once, each
    /// lane's sums in the one-lane order (a lane with no chance at a keep
    /// adds zeros, which change no sum).
    #[inline(always)]
    pub fn reroll_mass_lanes<const W: usize>(&self, thrown: &mut [[f64; W]]) {
        debug_assert_eq!(thrown.len(), self.keeps());
        for g in 0..self.partial {
            let mut p = thrown[g];
            for x in &mut p {
                *x *= dice_tables_reader::five_dice::SIXTH;
            }
            for &n in &self.plus_face[g] {
                let to = &mut thrown[usize::from(n)];
                for l in 0..W {
                    to[l] += p[l];
                }
            }
        }
    }

    /// The expected value of a fresh roll of all the dice.
    pub fn fresh_roll_value(&self, roll_value: &[f64]) -> f64 {
        self.roll_probability.iter().zip(roll_value).map(|(p, v)| p * v).sum()
    }

    /// [`keep_values`](KeepGraph::keep_values) for `W` independent lanes at
    /// once (upper totals, or masks), with `average` turning the sum over
    /// the next die's six faces into the keep's value. Lanes never mix, so
    /// each lane gets exactly the arithmetic of a one-lane solve.
    #[inline(always)]
    pub fn keep_values_lanes<const W: usize>(&self, values: &mut [[f64; W]], average: impl Fn(f64) -> f64) {
        debug_assert_eq!(values.len(), self.keeps());
        for g in (0..self.partial).rev() {
            let plus = &self.plus_face[g];
            let next = [
                &values[usize::from(plus[0])],
                &values[usize::from(plus[1])],
                &values[usize::from(plus[2])],
                &values[usize::from(plus[3])],
                &values[usize::from(plus[4])],
                &values[usize::from(plus[5])],
            ];
            // Summed in face order, as `keep_values` does. A loop, not
            // `array::from_fn` or `map`: those are functions of their own,
            // compiled without the caller's vector instructions.
            let mut keep = [0.0; W];
            for (l, v) in keep.iter_mut().enumerate() {
                *v = average(next[0][l] + next[1][l] + next[2][l] + next[3][l] + next[4][l] + next[5][l]);
            }
            values[g] = keep;
        }
    }

    /// Each roll's best value over keeping all its dice (`values[partial +
    /// roll]` on entry: what the roll is worth with one reroll fewer) and
    /// every partial keep inside it (`values[..partial]`), for `W` lanes:
    /// written over `values[partial..]`. The value half of
    /// [`best_keeps`](KeepGraph::best_keeps). `scratch` holds `partial` entries.
    #[inline(always)]
    pub fn best_values_lanes<const W: usize>(&self, values: &mut [[f64; W]], scratch: &mut [[f64; W]]) {
        self.best_values_with::<W, false>(values, scratch, &[]);
    }

    /// [`best_values_lanes`](KeepGraph::best_values_lanes) with each roll's
    /// own value read from `start` (by roll) instead of `values[partial..]`,
    /// which it overwrites all the same.
    #[inline(always)]
    pub fn best_values_over_lanes<const W: usize>(
        &self,
        values: &mut [[f64; W]],
        scratch: &mut [[f64; W]],
        start: &[[f64; W]],
    ) {
        self.best_values_with::<W, true>(values, scratch, start);
    }

    #[inline(always)]
    fn best_values_with<const W: usize, const OVER: bool>(
        &self,
        values: &mut [[f64; W]],
        scratch: &mut [[f64; W]],
        start: &[[f64; W]],
    ) {
        let (keep_values, roll_values) = values.split_at_mut(self.partial);
        for &(first, end, distinct) in &self.lattice_runs {
            let run = &self.lattice_order[first..end];
            // One loop per count of faces, so the inner loop's length is a
            // constant the compiler unrolls.
            match distinct {
                0 => self.best_values_run::<W, 0, OVER>(run, keep_values, scratch, roll_values, start),
                1 => self.best_values_run::<W, 1, OVER>(run, keep_values, scratch, roll_values, start),
                2 => self.best_values_run::<W, 2, OVER>(run, keep_values, scratch, roll_values, start),
                3 => self.best_values_run::<W, 3, OVER>(run, keep_values, scratch, roll_values, start),
                4 => self.best_values_run::<W, 4, OVER>(run, keep_values, scratch, roll_values, start),
                5 => self.best_values_run::<W, 5, OVER>(run, keep_values, scratch, roll_values, start),
                _ => self.best_values_run::<W, 6, OVER>(run, keep_values, scratch, roll_values, start),
            }
        }
    }

    /// [`best_values_lanes`](KeepGraph::best_values_lanes) over a run of
    /// keeps that each show `D` faces.
    #[inline(always)]
    fn best_values_run<const W: usize, const D: usize, const OVER: bool>(
        &self,
        run: &[(u16, u8)],
        keep_values: &[[f64; W]],
        scratch: &mut [[f64; W]],
        roll_values: &mut [[f64; W]],
        start: &[[f64; W]],
    ) {
        for &(g, _) in run {
            let g = usize::from(g);
            let mut best = if g < self.partial {
                keep_values[g]
            } else if OVER {
                start[g - self.partial]
            } else {
                roll_values[g - self.partial]
            };
            let minus = &self.minus_face[g];
            for &smaller in &minus[..D] {
                let other = &scratch[usize::from(smaller)];
                for l in 0..W {
                    best[l] = if other[l] > best[l] { other[l] } else { best[l] };
                }
            }
            if g < self.partial {
                scratch[g] = best;
            } else {
                roll_values[g - self.partial] = best;
            }
        }
    }

    /// [`best_keeps`](KeepGraph::best_keeps) for `W` lanes: the same picks
    /// (a later keep only when strictly better), lane by lane. `values`
    /// holds the partial keeps' values, `stop_value` the rolls'; writes
    /// every keep's best value and keep into `best` and `keep` (rolls at
    /// `partial..`). A keep is its graded rank as an f64, [`NONE`] as
    /// `f64::from(NONE)`: one type for both halves of a pick, so that the
    /// picks compile to vector blends.
    #[inline(always)]
    pub fn best_keeps_lanes<const W: usize>(
        &self,
        values: &[[f64; W]],
        stop_value: &[[f64; W]],
        best: &mut [[f64; W]],
        keep: &mut [[f64; W]],
    ) {
        let (best, roll_best) = best.split_at_mut(self.partial);
        let (keep, roll_keep) = keep.split_at_mut(self.partial);
        self.best_tagged_lanes((values, stop_value, None), (best, keep), (roll_best, roll_keep));
    }

    /// [`best_keeps_lanes`](KeepGraph::best_keeps_lanes) carrying, in
    /// place of each pick's keep, its value in another evaluation, and in
    /// place: `values` and `carried` hold every keep (partial keeps read,
    /// rolls written with their picks), a roll's own option is worth
    /// `stop_value` and carries `stop_carried`, and the partial keeps' best
    /// go to `scratch` and `scratch_carried` (`partial` entries each). The
    /// value of a way of playing that picks as `values` say.
    #[inline(always)]
    pub fn best_carrying_lanes<const W: usize>(
        &self,
        (values, carried): (&mut [[f64; W]], &mut [[f64; W]]),
        (stop_value, stop_carried): (&[[f64; W]], &[[f64; W]]),
        (scratch, scratch_carried): (&mut [[f64; W]], &mut [[f64; W]]),
    ) {
        let (values, roll_best) = values.split_at_mut(self.partial);
        let (carried, roll_carried) = carried.split_at_mut(self.partial);
        let input = (&*values, stop_value, Some((&*carried, stop_carried)));
        self.best_tagged_lanes(input, (scratch, scratch_carried), (roll_best, roll_carried));
    }

    /// The pass of both: each pick tagged by its keep (`tags` `None`) or by
    /// what `tags` carries; the partial keeps' picks into `partial_out`,
    /// the rolls' into `roll_out`.
    #[inline(always)]
    fn best_tagged_lanes<const W: usize>(
        &self,
        input: (&[[f64; W]], &[[f64; W]], Tags<'_, W>),
        partial_out: (&mut [[f64; W]], &mut [[f64; W]]),
        roll_out: (&mut [[f64; W]], &mut [[f64; W]]),
    ) {
        let (p, r) = (partial_out, roll_out);
        for &(start, end, distinct) in &self.lattice_runs {
            let run = &self.lattice_order[start..end];
            // One loop per count of faces, so the inner loop's length is a
            // constant the compiler unrolls.
            match distinct {
                0 => self.best_keeps_run::<W, 0>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                1 => self.best_keeps_run::<W, 1>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                2 => self.best_keeps_run::<W, 2>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                3 => self.best_keeps_run::<W, 3>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                4 => self.best_keeps_run::<W, 4>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                5 => self.best_keeps_run::<W, 5>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
                _ => self.best_keeps_run::<W, 6>(run, input, (&mut *p.0, &mut *p.1), (&mut *r.0, &mut *r.1)),
            }
        }
    }

    /// [`best_keeps_lanes`](KeepGraph::best_keeps_lanes) over a run of keeps
    /// that each show `D` faces.
    #[inline(always)]
    fn best_keeps_run<const W: usize, const D: usize>(
        &self,
        run: &[(u16, u8)],
        (values, stop_value, tags): (&[[f64; W]], &[[f64; W]], Tags<'_, W>),
        (best, keep): (&mut [[f64; W]], &mut [[f64; W]]),
        (roll_best, roll_keep): (&mut [[f64; W]], &mut [[f64; W]]),
    ) {
        for &(g, _) in run {
            let g = usize::from(g);
            let (mut b, mut k) = match (g < self.partial, tags) {
                (true, None) => (values[g], [g as f64; W]),
                (false, None) => (stop_value[g - self.partial], [f64::from(NONE); W]),
                (true, Some((carried, _))) => (values[g], carried[g]),
                (false, Some((_, stop_carried))) => (stop_value[g - self.partial], stop_carried[g - self.partial]),
            };
            // Every keep one face smaller is a partial keep.
            for &smaller in &self.minus_face[g][..D] {
                let (ob, ok) = (&best[usize::from(smaller)], &keep[usize::from(smaller)]);
                // A loop, not `array::from_fn`: that is a function of its
                // own, compiled without the caller's vector instructions.
                for l in 0..W {
                    let better = ob[l] > b[l];
                    b[l] = if better { ob[l] } else { b[l] };
                    k[l] = if better { ok[l] } else { k[l] };
                }
            }
            if g < self.partial {
                (best[g], keep[g]) = (b, k);
            } else {
                (roll_best[g - self.partial], roll_keep[g - self.partial]) = (b, k);
            }
        }
    }

    /// For each roll, for `W` lanes, the best value of its options (keeping
    /// all its dice, worth `values[partial + roll]`, and each partial keep
    /// inside it, `values[..partial]`) and the best value of those more than
    /// `tie` below it (`NEG_INFINITY` if none). Values within `tie` of the
    /// best are tied with it, so a keep reached along two paths needs no
    /// identity: one pass up the lattice. Every keep's pair is written, the
    /// best over its value in `values` (in place, so the pass touches two
    /// buffers, not three) and the other into `below`. Returns each lane's
    /// least gap between a roll's two, so that a caller looking for small
    /// gaps reads the rolls again only where there is one.
    #[inline(always)]
    pub fn best_and_below_lanes<const W: usize>(
        &self,
        values: &mut [[f64; W]],
        tie: f64,
        below: &mut [[f64; W]],
    ) -> [f64; W] {
        self.best_and_below_with(values, tie, below, None)
    }

    /// [`best_and_below_lanes`](KeepGraph::best_and_below_lanes) where each
    /// roll's own value, `start[roll]`, is already a best over options of
    /// its own, with their best more than `tie` below it in
    /// `start_below[roll]` (Maxi Yatzy's boxes, scored with rerolls left).
    #[inline(always)]
    pub fn best_and_below_over_lanes<const W: usize>(
        &self,
        values: &mut [[f64; W]],
        tie: f64,
        below: &mut [[f64; W]],
        start: &[[f64; W]],
        start_below: &[[f64; W]],
    ) -> [f64; W] {
        self.best_and_below_with(values, tie, below, Some((start, start_below)))
    }

    #[inline(always)]
    fn best_and_below_with<const W: usize>(
        &self,
        values: &mut [[f64; W]],
        tie: f64,
        below: &mut [[f64; W]],
        start: Option<RollStart<'_, W>>,
    ) -> [f64; W] {
        let mut least = [f64::INFINITY; W];
        for &(first, end, distinct) in &self.lattice_runs {
            let run = &self.lattice_order[first..end];
            // One loop per count of faces, so the inner loop's length is a
            // constant the compiler unrolls.
            let l = &mut least;
            match distinct {
                0 => self.best_and_below_run::<W, 0>(run, values, tie, below, start, l),
                1 => self.best_and_below_run::<W, 1>(run, values, tie, below, start, l),
                2 => self.best_and_below_run::<W, 2>(run, values, tie, below, start, l),
                3 => self.best_and_below_run::<W, 3>(run, values, tie, below, start, l),
                4 => self.best_and_below_run::<W, 4>(run, values, tie, below, start, l),
                5 => self.best_and_below_run::<W, 5>(run, values, tie, below, start, l),
                _ => self.best_and_below_run::<W, 6>(run, values, tie, below, start, l),
            }
        }
        least
    }

    /// [`best_and_below_lanes`](KeepGraph::best_and_below_lanes) over a run
    /// of keeps that each show `D` faces: each keep's pair written, each
    /// roll's gap folded into `least`.
    #[inline(always)]
    fn best_and_below_run<const W: usize, const D: usize>(
        &self,
        run: &[(u16, u8)],
        values: &mut [[f64; W]],
        tie: f64,
        below: &mut [[f64; W]],
        start: Option<RollStart<'_, W>>,
        least: &mut [f64; W],
    ) {
        for &(g, _) in run {
            let g = usize::from(g);
            let mut x = [f64::NEG_INFINITY; W];
            if g >= self.partial {
                if let Some((value, value_below)) = start {
                    values[g] = value[g - self.partial];
                    x = value_below[g - self.partial];
                }
            }
            let mut b = values[g];
            for &smaller in &self.minus_face[g][..D] {
                let c = usize::from(smaller);
                fold_best_and_below(&mut b, &mut x, &values[c], &below[c], tie);
            }
            (values[g], below[g]) = (b, x);
            if g >= self.partial {
                fold_least_gap(least, &b, &x);
            }
        }
    }

    /// A fresh roll's value for `W` lanes, each roll's value with no
    /// rerolls left given at `values[partial..]`: `rerolls` rounds of the
    /// keeps' values ([`keep_values_lanes`](KeepGraph::keep_values_lanes),
    /// with `average`) and each roll's best keep, then the fresh roll.
    #[inline(always)]
    pub fn turn_start_lanes<const W: usize>(
        &self,
        values: &mut [[f64; W]],
        scratch: &mut [[f64; W]],
        rerolls: usize,
        average: impl Fn(f64) -> f64,
    ) -> [f64; W] {
        // Keeping all five dice with r rerolls left is worth what the roll
        // is worth with r - 1 left.
        for _ in 0..rerolls {
            self.keep_values_lanes(values, &average);
            self.best_values_lanes(values, scratch);
        }
        self.fresh_roll_value_lanes(&values[self.partial..])
    }

    /// [`fresh_roll_value`](KeepGraph::fresh_roll_value) for `W` lanes.
    #[inline(always)]
    pub fn fresh_roll_value_lanes<const W: usize>(&self, roll_value: &[[f64; W]]) -> [f64; W] {
        let mut total = [0.0; W];
        for (p, v) in self.roll_probability.iter().zip(roll_value) {
            for l in 0..W {
                total[l] += p * v[l];
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_sum_to_one() {
        for n in 0..=MAX_DICE {
            let total: f64 = multisets(n).iter().map(Dice::probability).sum();
            assert!((total - 1.0).abs() < 1e-12, "n = {n}: {total}");
        }
        assert_eq!("11111".parse::<Dice>().unwrap().probability(), 1.0 / 7776.0);
    }

    #[test]
    fn keep_values_average_over_rerolled_dice() {
        for (n, graph, partial) in [(5, &*FIVE_DICE, 210), (6, &*SIX_DICE, 462)] {
            // Rolls worth their sum: keeping k dice is worth their sum plus 3.5 a rerolled die.
            let mut kv = vec![0.0; graph.keeps()];
            for (r, d) in multisets(n).iter().enumerate() {
                kv[graph.partial + r] = f64::from(d.sum());
            }
            graph.keep_values(&mut kv);
            for (g, v) in kv[..graph.partial].iter().enumerate() {
                let keep = Dice::graded_unrank(g).unwrap();
                let expected = f64::from(keep.sum()) + 3.5 * (n - keep.len()) as f64;
                assert!((v - expected).abs() < 1e-12, "{keep}: {v} vs {expected}");
            }
            assert_eq!((graph.partial, graph.keeps()), (partial, partial + multiset_count(n)));
        }
    }

    #[test]
    fn best_keeps_is_the_max_over_every_sub_multiset() {
        for (n, graph) in [(5, &*FIVE_DICE), (6, &*SIX_DICE)] {
            let keeps = graph.keeps();
            // Distinct values (7919 is prime to 462 and 924), so the maximum is unique.
            let values: Vec<f64> = (0..keeps).map(|g| ((g * 7919) % keeps) as f64).collect();
            let rolls = multiset_count(n);
            let mut best = vec![(0.0, 0); keeps];
            let (mut bv, mut bk) = (vec![0.0; rolls], vec![0; rolls]);
            graph.best_keeps(&values, &values[graph.partial..], &mut best, &mut bv, &mut bk);
            // The same picks for eight lanes at once, each lane its own values.
            let lanes: Vec<[f64; 8]> = values.iter().map(|&v| std::array::from_fn(|l| v + l as f64)).collect();
            let (mut lane_best, mut lane_keep) = (vec![[0.0; 8]; keeps], vec![[0.0; 8]; keeps]);
            graph.best_keeps_lanes(&lanes[..graph.partial], &lanes[graph.partial..], &mut lane_best, &mut lane_keep);
            for (r, roll) in multisets(n).iter().enumerate() {
                let (v, g) = roll
                    .sub_multisets()
                    .map(|k| (values[k.graded_rank()], if k.len() == n { NONE } else { k.graded_rank() as u16 }))
                    .fold((f64::MIN, 0), |a, b| if b.0 > a.0 { b } else { a });
                assert_eq!((bv[r], bk[r]), (v, g), "{n} dice, roll {roll}");
                for l in 0..8 {
                    let at = graph.partial + r;
                    assert_eq!((lane_best[at][l], lane_keep[at][l]), (v + l as f64, f64::from(g)), "roll {roll}");
                }
            }
        }
    }
}
