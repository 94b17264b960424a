//! CPU dispatch for every solver, in one place.
//!
//! The release build targets plain x86-64 (SSE2, two f64 a vector), so that
//! tables are the same bytes on every machine of the architecture; the
//! solvers' hot loops are compiled again for AVX2 and AVX-512 and picked at
//! run time. A [`Simd`] names a level this CPU has: only detection
//! ([`Simd::detect`], [`Simd::available`]) makes one beyond
//! [`Simd::PORTABLE`], so no caller can ask for instructions the CPU lacks.
//! A solver's loop is a `Kernel`, generic over the level's `Lanes`;
//! `Simd::run` runs it compiled for the level, through the one
//! `#[target_feature]` function per level below.
//!
//! Every level gives the same results bit for bit, which the solvers' tests
//! check: each lane gets the same operations in the same order, only more
//! lanes at a time, and no level fuses a multiply and an add (`fma` is
//! never enabled).

/// A level of vector instructions this CPU runs. Only detection makes one
/// beyond [`Simd::PORTABLE`]:
///
/// ```
/// use dice_tables_generator::cpu::Simd;
/// let widest = Simd::detect();
/// assert_eq!(Simd::available().last(), Some(&widest));
/// ```
///
/// and no caller can make one itself, since its field is private:
///
/// ```compile_fail
/// let forged = dice_tables_generator::cpu::Simd(unreachable!());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Simd(Level);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Portable,
    /// Four f64 a vector.
    Avx2,
    /// Eight f64 a vector.
    Avx512,
}

impl Simd {
    /// Plain code, which every CPU runs.
    pub const PORTABLE: Simd = Simd(Level::Portable);

    /// The widest level this CPU has.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Simd(Level::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd(Level::Avx2);
            }
        }
        Simd::PORTABLE
    }

    /// Every level this CPU has, narrowest first: for tests that compare them.
    pub fn available() -> Vec<Simd> {
        let best = Simd::detect();
        [Level::Portable, Level::Avx2, Level::Avx512].into_iter().map(Simd).filter(|&l| l <= best).collect()
    }

    /// This level, or AVX2 where it is wider: a narrower level than
    /// detected is always one the CPU has.
    pub fn at_most_avx2(self) -> Simd {
        Simd(self.0.min(Level::Avx2))
    }

    /// f64 a vector register holds at this level: 2 (SSE2), 4 or 8.
    pub fn f64_lanes(self) -> usize {
        match self.0 {
            Level::Portable => 2,
            Level::Avx2 => 4,
            Level::Avx512 => 8,
        }
    }

    /// Runs `kernel` compiled for this level, on this level's [`Lanes`].
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        match self.0 {
            // SAFETY: a Simd of level Avx512 is made only by `detect`, when
            // this CPU has AVX-512F.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { run_avx512(kernel) },
            // SAFETY: a Simd of level Avx2 is made only by `detect`, when
            // this CPU has AVX2 (or AVX-512F, which it implies here).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { run_avx2(kernel) },
            _ => kernel.run::<Portable>(),
        }
    }
}

/// A solver's hot loop, compiled once per level: [`run`](Kernel::run) is
/// `#[inline(always)]`, as is all it calls, so that it is compiled inside
/// the level's `#[target_feature]` function.
pub(crate) trait Kernel {
    /// What the loop computes.
    type Output;
    /// The loop, on lanes of type `L` (a kernel that does not use lanes
    /// ignores `L` and is simply compiled for the level's instructions).
    fn run<L: Lanes>(self) -> Self::Output;
}

/// # Safety
///
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<x86::Pair>()
}

/// # Safety
///
/// The CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn run_avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<x86::Wide>()
}

/// Lanes a kernel computes on, at once.
pub(crate) const W: usize = 8;

/// Eight lanes of f64 and the few operations the solvers make on them:
/// portable arrays, one AVX-512 register or two AVX2 ones (the compiler
/// does not turn a per-lane choice into a blend by itself).
///
/// # Safety
///
/// The methods execute the level's instructions: each is called only in a
/// kernel that [`Simd::run`] runs for a level this CPU has, which is what
/// `unsafe` at every call promises. (Only `Simd::run` picks the type.)
pub(crate) unsafe trait Lanes: Copy {
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn load(a: &[f64; W]) -> Self;
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn splat(x: f64) -> Self;
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn store(self, to: &mut [f64; W]);
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn add(self, other: Self) -> Self;
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn sub(self, other: Self) -> Self;
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn mul(self, other: Self) -> Self;
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn max(self, other: Self) -> Self;
    /// Where `value > best`, takes `value` and its slope.
    ///
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn take_greater(best: &mut Self, best_slope: &mut Self, value: Self, slope: Self);
    /// Bit l set where `a > b` in lane l.
    ///
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn greater_mask(a: Self, b: Self) -> u8;
    /// Where `bank >= throw`: bank (at most 1) and its carry, else throw and its carry.
    ///
    /// # Safety
    /// The CPU has this type's level.
    unsafe fn bank_or_throw(bank: Self, bank_carry: Self, throw: Self, throw_carry: Self) -> (Self, Self);
}

/// Eight f64 as an array: plain code, which every CPU runs.
#[derive(Clone, Copy)]
pub(crate) struct Portable([f64; W]);

// SAFETY: plain arithmetic, no instruction beyond the build's target.
unsafe impl Lanes for Portable {
    #[inline(always)]
    unsafe fn load(a: &[f64; W]) -> Self {
        Portable(*a)
    }
    #[inline(always)]
    unsafe fn splat(x: f64) -> Self {
        Portable([x; W])
    }
    #[inline(always)]
    unsafe fn store(self, to: &mut [f64; W]) {
        *to = self.0;
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        Portable(std::array::from_fn(|l| self.0[l] + other.0[l]))
    }
    #[inline(always)]
    unsafe fn sub(self, other: Self) -> Self {
        Portable(std::array::from_fn(|l| self.0[l] - other.0[l]))
    }
    #[inline(always)]
    unsafe fn mul(self, other: Self) -> Self {
        Portable(std::array::from_fn(|l| self.0[l] * other.0[l]))
    }
    #[inline(always)]
    unsafe fn max(self, other: Self) -> Self {
        Portable(std::array::from_fn(|l| self.0[l].max(other.0[l])))
    }
    #[inline(always)]
    unsafe fn take_greater(best: &mut Self, best_slope: &mut Self, value: Self, slope: Self) {
        for l in 0..W {
            if value.0[l] > best.0[l] {
                best.0[l] = value.0[l];
                best_slope.0[l] = slope.0[l];
            }
        }
    }
    #[inline(always)]
    unsafe fn greater_mask(a: Self, b: Self) -> u8 {
        (0..W).fold(0, |mask, l| mask | (u8::from(a.0[l] > b.0[l]) << l))
    }
    #[inline(always)]
    unsafe fn bank_or_throw(bank: Self, bank_carry: Self, throw: Self, throw_carry: Self) -> (Self, Self) {
        let banks = |l: usize| bank.0[l] >= throw.0[l];
        (
            Portable(std::array::from_fn(|l| if banks(l) { bank.0[l].min(1.0) } else { throw.0[l] })),
            Portable(std::array::from_fn(|l| if banks(l) { bank_carry.0[l] } else { throw_carry.0[l] })),
        )
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Lanes, W};
    use std::arch::x86_64::*;

    /// Eight f64 in one AVX-512 register.
    #[derive(Clone, Copy)]
    pub(crate) struct Wide(__m512d);

    // SAFETY: every method is `unsafe fn` whose contract is that the CPU
    // has AVX-512F, what each intrinsic below needs; loads and stores go
    // through references to eight f64.
    unsafe impl Lanes for Wide {
        #[inline(always)]
        unsafe fn load(a: &[f64; W]) -> Self {
            // SAFETY: AVX-512F (this fn's contract); `a` is eight f64.
            Wide(unsafe { _mm512_loadu_pd(a.as_ptr()) })
        }
        #[inline(always)]
        unsafe fn splat(x: f64) -> Self {
            // SAFETY: AVX-512F (this fn's contract).
            Wide(unsafe { _mm512_set1_pd(x) })
        }
        #[inline(always)]
        unsafe fn store(self, to: &mut [f64; W]) {
            // SAFETY: AVX-512F (this fn's contract); `to` is eight f64.
            unsafe { _mm512_storeu_pd(to.as_mut_ptr(), self.0) }
        }
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            // SAFETY: AVX-512F (this fn's contract).
            Wide(unsafe { _mm512_add_pd(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn sub(self, other: Self) -> Self {
            // SAFETY: AVX-512F (this fn's contract).
            Wide(unsafe { _mm512_sub_pd(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn mul(self, other: Self) -> Self {
            // SAFETY: AVX-512F (this fn's contract).
            Wide(unsafe { _mm512_mul_pd(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn max(self, other: Self) -> Self {
            // SAFETY: AVX-512F (this fn's contract).
            Wide(unsafe { _mm512_max_pd(self.0, other.0) })
        }
        #[inline(always)]
        unsafe fn take_greater(best: &mut Self, best_slope: &mut Self, value: Self, slope: Self) {
            // SAFETY: AVX-512F (this fn's contract).
            unsafe {
                let greater = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(value.0, best.0);
                best.0 = _mm512_mask_blend_pd(greater, best.0, value.0);
                best_slope.0 = _mm512_mask_blend_pd(greater, best_slope.0, slope.0);
            }
        }
        #[inline(always)]
        unsafe fn greater_mask(a: Self, b: Self) -> u8 {
            // SAFETY: AVX-512F (this fn's contract).
            unsafe { _mm512_cmp_pd_mask::<_CMP_GT_OQ>(a.0, b.0) }
        }
        #[inline(always)]
        unsafe fn bank_or_throw(bank: Self, bank_carry: Self, throw: Self, throw_carry: Self) -> (Self, Self) {
            // SAFETY: AVX-512F (this fn's contract).
            unsafe {
                let banks = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(bank.0, throw.0);
                let capped = _mm512_min_pd(bank.0, _mm512_set1_pd(1.0));
                (
                    Wide(_mm512_mask_blend_pd(banks, throw.0, capped)),
                    Wide(_mm512_mask_blend_pd(banks, throw_carry.0, bank_carry.0)),
                )
            }
        }
    }

    /// Eight f64 as two AVX2 registers.
    #[derive(Clone, Copy)]
    pub(crate) struct Pair([__m256d; 2]);

    // SAFETY: every method is `unsafe fn` whose contract is that the CPU
    // has AVX2, what each intrinsic below needs; loads and stores go
    // through references to eight f64 (two halves of four).
    unsafe impl Lanes for Pair {
        #[inline(always)]
        unsafe fn load(a: &[f64; W]) -> Self {
            // SAFETY: AVX2 (this fn's contract); `a` is eight f64, read as two halves.
            unsafe { Pair([_mm256_loadu_pd(a.as_ptr()), _mm256_loadu_pd(a.as_ptr().add(4))]) }
        }
        #[inline(always)]
        unsafe fn splat(x: f64) -> Self {
            // SAFETY: AVX2 (this fn's contract).
            unsafe { Pair([_mm256_set1_pd(x); 2]) }
        }
        #[inline(always)]
        unsafe fn store(self, to: &mut [f64; W]) {
            // SAFETY: AVX2 (this fn's contract); `to` is eight f64, written as two halves.
            unsafe {
                _mm256_storeu_pd(to.as_mut_ptr(), self.0[0]);
                _mm256_storeu_pd(to.as_mut_ptr().add(4), self.0[1]);
            }
        }
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            // SAFETY: AVX2 (this fn's contract).
            unsafe { Pair([_mm256_add_pd(self.0[0], other.0[0]), _mm256_add_pd(self.0[1], other.0[1])]) }
        }
        #[inline(always)]
        unsafe fn sub(self, other: Self) -> Self {
            // SAFETY: AVX2 (this fn's contract).
            unsafe { Pair([_mm256_sub_pd(self.0[0], other.0[0]), _mm256_sub_pd(self.0[1], other.0[1])]) }
        }
        #[inline(always)]
        unsafe fn mul(self, other: Self) -> Self {
            // SAFETY: AVX2 (this fn's contract).
            unsafe { Pair([_mm256_mul_pd(self.0[0], other.0[0]), _mm256_mul_pd(self.0[1], other.0[1])]) }
        }
        #[inline(always)]
        unsafe fn max(self, other: Self) -> Self {
            // SAFETY: AVX2 (this fn's contract).
            unsafe { Pair([_mm256_max_pd(self.0[0], other.0[0]), _mm256_max_pd(self.0[1], other.0[1])]) }
        }
        #[inline(always)]
        unsafe fn take_greater(best: &mut Self, best_slope: &mut Self, value: Self, slope: Self) {
            for h in 0..2 {
                // SAFETY: AVX2 (this fn's contract).
                unsafe {
                    let greater = _mm256_cmp_pd::<_CMP_GT_OQ>(value.0[h], best.0[h]);
                    best.0[h] = _mm256_blendv_pd(best.0[h], value.0[h], greater);
                    best_slope.0[h] = _mm256_blendv_pd(best_slope.0[h], slope.0[h], greater);
                }
            }
        }
        #[inline(always)]
        unsafe fn greater_mask(a: Self, b: Self) -> u8 {
            // SAFETY: AVX2 (this fn's contract).
            unsafe {
                let low = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(a.0[0], b.0[0]));
                let high = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(a.0[1], b.0[1]));
                (low | high << 4) as u8
            }
        }
        #[inline(always)]
        unsafe fn bank_or_throw(bank: Self, bank_carry: Self, throw: Self, throw_carry: Self) -> (Self, Self) {
            let (mut value, mut carry) = (throw, throw_carry);
            for h in 0..2 {
                // SAFETY: AVX2 (this fn's contract).
                unsafe {
                    let banks = _mm256_cmp_pd::<_CMP_GE_OQ>(bank.0[h], throw.0[h]);
                    let capped = _mm256_min_pd(bank.0[h], _mm256_set1_pd(1.0));
                    value.0[h] = _mm256_blendv_pd(throw.0[h], capped, banks);
                    carry.0[h] = _mm256_blendv_pd(throw_carry.0[h], bank_carry.0[h], banks);
                }
            }
            (value, carry)
        }
    }
}
