//! A vectorisable `exp` for the batched kernel blocks.
//!
//! The blocks ([`crate::svm::kernel::block`]) exponentiate millions of values per
//! cross-validation round (prediction, the seeds' gradient updates), where
//! libm's scalar `exp` is about a third of their time. [`exp_in_place`]
//! computes `exp` over a slice with one branch-free loop that the compiler
//! vectorises (AVX-512 or AVX2 where the CPU has it, SSE2 otherwise):
//!
//! - `k = round(x / ln 2)` by the add-and-subtract trick, `r = x - k ln 2`
//!   with `ln 2` split in two (Cody and Waite), so `|r| <= ln(2) / 2`;
//! - `e^r` by its Taylor polynomial to degree 13 (truncation below `1e-17`
//!   relative), in Horner form;
//! - times `2^k`, built from its bits.
//!
//! Its error is within [`FAST_EXP_REL_ERROR`] of the exact value (a test
//! checks it against libm's). Both code paths do the same IEEE operations in
//! the same order (no fused multiply-add), so the results are bit-identical
//! on every CPU and thread count. Arguments outside `[-708, 709]` (where
//! `2^k` would not be a normal number), and NaN, go to libm's `exp`.
//!
//! The SMO's own kernel columns keep libm's `exp` (LIBSVM's arithmetic).

use std::mem::MaybeUninit;

use crate::svm::simd::by_cpu;

/// A bound on the relative error of [`exp_in_place`] (checked by a test
/// with a margin of 4).
pub const FAST_EXP_REL_ERROR: f64 = 16.0 * f64::EPSILON;

const LOG2E: f64 = std::f64::consts::LOG2_E;
/// `ln 2` in two parts: the first has 32 significant bits, so `k * LN2_HI`
/// is exact for every `|k| < 2^21`.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// `1.5 * 2^52`: adding and subtracting it rounds to the nearest integer,
/// and the low bits of the sum hold that integer.
const ROUND: f64 = 6_755_399_441_055_744.0;
const LOW: f64 = -708.0;
const HIGH: f64 = 709.0;

/// `1 / j!` for `j = 2..=13`, highest first.
const COEF: [f64; 12] = [
    1.0 / 6_227_020_800.0,
    1.0 / 479_001_600.0,
    1.0 / 39_916_800.0,
    1.0 / 3_628_800.0,
    1.0 / 362_880.0,
    1.0 / 40_320.0,
    1.0 / 5_040.0,
    1.0 / 720.0,
    1.0 / 120.0,
    1.0 / 24.0,
    1.0 / 6.0,
    1.0 / 2.0,
];

/// `exp` of one in-range argument (the loop body).
#[inline(always)]
fn exp_core(x: f64) -> f64 {
    let xc = x.clamp(LOW, HIGH);
    let t = xc * LOG2E + ROUND;
    let k = t - ROUND;
    let r = (xc - k * LN2_HI) - k * LN2_LO;
    let mut p = COEF[0];
    for &c in &COEF[1..] {
        p = p * r + c;
    }
    p = p * r + 1.0;
    p = p * r + 1.0;
    // The integer k sits in the low bits of t's mantissa.
    let ki = (t.to_bits() as i64).wrapping_sub(ROUND.to_bits() as i64);
    let scale = f64::from_bits(((ki + 1023) as u64) << 52);
    p * scale
}

/// Replace every `v` of `xs` by `exp(v)` (see the module doc).
pub fn exp_in_place(xs: &mut [f64]) {
    // The rare arguments outside [LOW, HIGH] (or NaN) get libm's value.
    let outside = |v: &f64| !(LOW..=HIGH).contains(v);
    // A test of every value without an early exit (it vectorises).
    let any = xs.iter().fold(false, |any, v| any | outside(v));
    let libm: Vec<(usize, f64)> = if any {
        xs.iter()
            .enumerate()
            .filter(|(_, v)| outside(v))
            .map(|(i, v)| (i, v.exp()))
            .collect()
    } else {
        Vec::new()
    };
    exp_any(xs);
    for (i, v) in libm {
        xs[i] = v;
    }
}

/// A relative distance from libm's `exp` that [`exp_to_f32`] treats as
/// possibly changing the single-precision rounding: [`FAST_EXP_REL_ERROR`]
/// plus libm's own error (under one unit in the last place), doubled.
const F32_CHECK_REL: f64 = 2.0 * (FAST_EXP_REL_ERROR + f64::EPSILON);

/// Values per piece of [`exp_to_f32`] (a stack buffer).
const F32_PIECE: usize = 256;

/// The fast value `v = exp(arg)` rounded to `f32`, and whether that is
/// certainly libm's value rounded (the interval `v (1 +- r)` rounds to one
/// `f32`, `arg` in range).
#[inline(always)]
fn narrowed(v: f64, arg: f64) -> (f32, bool) {
    let f = v as f32;
    let lo = (v * (1.0 - F32_CHECK_REL)) as f32;
    let hi = (v * (1.0 + F32_CHECK_REL)) as f32;
    (f, (lo == f) & (hi == f) & (LOW..=HIGH).contains(&arg))
}

/// [`exp_to_f32`]'s loop: per piece, the fast values and their check in
/// one vectorised pass, then libm's value where the check failed (rare).
#[inline(always)]
fn to_f32_body(scale: f64, xs: &[f64], out: &mut [f32]) {
    assert_eq!(xs.len(), out.len(), "one output per argument");
    let mut buf = [0.0f64; F32_PIECE];
    for (xp, op) in xs.chunks(F32_PIECE).zip(out.chunks_mut(F32_PIECE)) {
        let y = &mut buf[..xp.len()];
        for (b, &x) in y.iter_mut().zip(xp) {
            *b = scale * x;
        }
        exp_loop(y);
        // Branch-free (`&`, not `&&`), so that it vectorises.
        let mut unsure = false;
        for ((o, &v), &x) in op.iter_mut().zip(y.iter()).zip(xp) {
            let (f, ok) = narrowed(v, scale * x);
            unsure |= !ok;
            *o = f;
        }
        if unsure {
            for ((o, &v), &x) in op.iter_mut().zip(y.iter()).zip(xp) {
                if !narrowed(v, scale * x).1 {
                    *o = (scale * x).exp() as f32;
                }
            }
        }
    }
}

by_cpu!(
    /// `out[i] = exp(scale * xs[i]) as f32`, bit-identical to libm's `exp`
    /// of the same product rounded to single precision, at
    /// [`exp_in_place`]'s speed: where the fast value `y` could round
    /// differently from libm's (the interval `y (1 +- r)`, `r` =
    /// [`F32_CHECK_REL`], holds a point where the single-precision rounding
    /// changes, which happens about once in tens of millions), libm's `exp`
    /// is taken instead. Works in pieces of [`F32_PIECE`] values on the
    /// stack, so that each argument is read once and each result written
    /// once.
    ///
    /// # Panics
    /// If `xs` and `out` differ in length.
    pub fn exp_to_f32(scale: f64, xs: &[f64], out: &mut [f32]) = to_f32_body
);

/// [`exp_narrow`]'s loop: `LANES` values at a time, the out-of-range test
/// folded into the same pass; the rare arguments outside `[LOW, HIGH]` (or
/// NaN) are redone with libm's `exp` afterwards.
#[inline(always)]
fn narrow_body(xs: &[f64], out: &mut [MaybeUninit<f32>]) {
    assert_eq!(xs.len(), out.len(), "one output per argument");
    let mut outside = false;
    let mut chunks = xs.chunks_exact(LANES).zip(out.chunks_exact_mut(LANES));
    for (x, o) in &mut chunks {
        let x: &[f64; LANES] = x.try_into().expect("chunks of LANES");
        let v = exp_lanes(*x);
        for l in 0..LANES {
            outside |= !(LOW..=HIGH).contains(&x[l]);
            o[l].write(v[l] as f32);
        }
    }
    let done = xs.len() - xs.len() % LANES;
    for (&x, o) in xs[done..].iter().zip(&mut out[done..]) {
        outside |= !(LOW..=HIGH).contains(&x);
        o.write(exp_core(x) as f32);
    }
    if outside {
        for (&x, o) in xs.iter().zip(out.iter_mut()) {
            if !(LOW..=HIGH).contains(&x) {
                o.write(x.exp() as f32);
            }
        }
    }
}

by_cpu!(
    /// `out[i] = exp(xs[i]) as f32` with [`exp_in_place`]'s values (the
    /// same bits as [`exp_in_place`] followed by a conversion to `f32`), in
    /// one pass: the batched solver's kernel rows.
    ///
    /// # Panics
    /// If `xs` and `out` differ in length.
    pub fn exp_narrow(xs: &[f64], out: &mut [MaybeUninit<f32>]) = narrow_body
);

by_cpu!(
    /// [`exp_loop`] compiled for the widest vector unit the CPU has.
    fn exp_any(xs: &mut [f64]) = exp_loop;
    variants exp_avx512, exp_avx2
);

/// Values per step of [`exp_loop`]: several vectors' worth, so that their
/// polynomial chains overlap instead of waiting on each other.
const LANES: usize = 16;

/// The branch-free loop (arguments clamped into `[LOW, HIGH]`).
#[inline(always)]
fn exp_loop(xs: &mut [f64]) {
    let mut chunks = xs.chunks_exact_mut(LANES);
    for c in &mut chunks {
        let c: &mut [f64; LANES] = c.try_into().expect("chunks of LANES");
        *c = exp_lanes(*c);
    }
    for v in chunks.into_remainder() {
        *v = exp_core(*v);
    }
}

/// [`exp_core`] on `LANES` values at once, step by step across the lanes.
#[inline(always)]
fn exp_lanes(x: [f64; LANES]) -> [f64; LANES] {
    let mut t = [0.0; LANES];
    let mut r = [0.0; LANES];
    for l in 0..LANES {
        let xc = x[l].clamp(LOW, HIGH);
        t[l] = xc * LOG2E + ROUND;
        let k = t[l] - ROUND;
        r[l] = (xc - k * LN2_HI) - k * LN2_LO;
    }
    let mut p = [COEF[0]; LANES];
    for &c in &COEF[1..] {
        for l in 0..LANES {
            p[l] = p[l] * r[l] + c;
        }
    }
    for _ in 0..2 {
        for l in 0..LANES {
            p[l] = p[l] * r[l] + 1.0;
        }
    }
    let mut out = [0.0; LANES];
    for l in 0..LANES {
        let ki = (t[l].to_bits() as i64).wrapping_sub(ROUND.to_bits() as i64);
        out[l] = p[l] * f64::from_bits(((ki + 1023) as u64) << 52);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<f64> {
        let mut xs = vec![
            0.0, -0.0, 1.0, -1.0, LOW, HIGH, -707.9, 708.9, 1e-20, -1e-20,
        ];
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            xs.push(match i % 3 {
                0 => -750.0 * u,
                1 => -2.0 * u,
                _ => 1500.0 * u - 760.0,
            });
        }
        xs.extend([
            -745.2,
            -746.0,
            -1e5,
            710.0,
            f64::NEG_INFINITY,
            f64::INFINITY,
        ]);
        xs
    }

    #[test]
    fn narrowed_values_are_the_in_place_values_to_the_bit() {
        let xs = samples();
        for len in [xs.len(), 37, 5] {
            let xs = &xs[xs.len() - len..];
            let mut want = xs.to_vec();
            exp_in_place(&mut want);
            let mut got = vec![MaybeUninit::new(0f32); len];
            exp_narrow(xs, &mut got);
            for ((g, w), x) in got.iter().zip(&want).zip(xs) {
                // SAFETY: every entry was written above.
                let g = unsafe { g.assume_init() };
                assert_eq!(g.to_bits(), (*w as f32).to_bits(), "exp({x})");
            }
        }
    }

    #[test]
    fn single_precision_values_are_libms_to_the_bit() {
        let mut xs = samples();
        // Arguments whose exp lies next to a single-precision rounding
        // point: the logarithm of the midpoint between two neighbouring
        // single-precision values.
        for i in 1..2000 {
            let f = (1.0 - i as f64 * 1e-4) as f32;
            let next = f32::from_bits(f.to_bits() + 1);
            let mid = (f64::from(f) + f64::from(next)) / 2.0;
            xs.push(mid.ln());
            xs.push((mid * 1e-30).ln());
        }
        let mut out = vec![0f32; xs.len()];
        exp_to_f32(1.0, &xs, &mut out);
        let mut fixed = 0;
        for (&x, &o) in xs.iter().zip(&out) {
            let want = x.exp() as f32;
            assert!(
                o.to_bits() == want.to_bits() || (o.is_nan() && want.is_nan()),
                "exp({x:e}): {o:e} != {want:e}"
            );
            let y = x.exp();
            fixed += usize::from(
                ((y * (1.0 - F32_CHECK_REL)) as f32) != ((y * (1.0 + F32_CHECK_REL)) as f32),
            );
        }
        // The near-rounding-point arguments did reach the libm fallback.
        assert!(fixed > 100, "{fixed}");
    }

    #[test]
    fn within_the_stated_error_of_libm_everywhere() {
        let xs = samples();
        let mut ys = xs.clone();
        exp_in_place(&mut ys);
        for (&x, &y) in xs.iter().zip(&ys) {
            let want = x.exp();
            if (LOW..=HIGH).contains(&x) {
                let rel = ((y - want) / want).abs();
                assert!(
                    rel <= FAST_EXP_REL_ERROR / 4.0,
                    "exp({x}) = {y}, libm {want}"
                );
            } else {
                assert_eq!(y.to_bits(), want.to_bits(), "out of range: libm's value");
            }
        }
        let mut nan = [f64::NAN];
        exp_in_place(&mut nan);
        assert!(nan[0].is_nan());
    }

    #[test]
    fn every_code_path_and_length_gives_the_same_bits() {
        let xs = samples();
        let mut vector = xs.clone();
        exp_in_place(&mut vector);
        let mut scalar = xs.clone();
        exp_loop(&mut scalar);
        for (s, &x) in scalar.iter_mut().zip(&xs) {
            if !(LOW..=HIGH).contains(&x) {
                *s = x.exp();
            }
        }
        assert_eq!(
            vector.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            scalar.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        #[cfg(target_arch = "x86_64")]
        {
            let mut variants = Vec::new();
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut avx2 = xs.clone();
                // SAFETY: AVX2 is supported (checked above).
                unsafe { exp_avx2(&mut avx2) };
                variants.push(avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                let mut avx512 = xs.clone();
                // SAFETY: AVX-512F is supported (checked above).
                unsafe { exp_avx512(&mut avx512) };
                variants.push(avx512);
            }
            for v in variants {
                for ((a, s), &x) in v.iter().zip(&scalar).zip(&xs) {
                    if (LOW..=HIGH).contains(&x) {
                        assert_eq!(a.to_bits(), s.to_bits());
                    }
                }
            }
        }
        // Element by element (the remainder path) too.
        for (i, &x) in xs.iter().enumerate().take(5000) {
            let mut one = [x];
            exp_in_place(&mut one);
            assert_eq!(one[0].to_bits(), vector[i].to_bits());
        }
    }
}
