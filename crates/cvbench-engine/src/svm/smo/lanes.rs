//! The two scans of WSS 3 over one piece of rows ([`crate::svm::smo::rows`]),
//! written branch-free over [`LANES`] interleaved lanes so that the
//! compiler vectorises them (compiled for AVX-512 and AVX2, chosen at run
//! time by [`crate::svm::simd`], with a portable fallback).
//!
//! Exactness: every value is computed by an expression that is
//! bit-identical to LIBSVM's (`-y_t G_t` as `(-y_t) * G_t`, a sign flip;
//! `gmax - G_t` as `gmax + (-G_t)`; `+ 2 y_i Q_it` as `- (2 y_i Q_it) *
//! (-1)`; no fused multiply-add, which Rust never introduces), each lane
//! keeps the later index on equal values (LIBSVM's `>=` / `<=`), and the
//! lanes are folded by value with ties to the later index, then the tail
//! continues LIBSVM's loop. So the chosen index and value are those of the
//! one-lane loop on any CPU (tested against it, every compiled variant).

use crate::svm::simd::by_cpu;

/// No index chosen.
pub(crate) const NONE: usize = usize::MAX;

/// The second scan of WSS 3 for a chosen `i`: `M(a)` (`gmax2`) and
/// `j = argmin { -b_it^2 / a_it : t in I_low, b_it > 0 }` (the last index
/// attaining the minimum; `usize::MAX` when none), over the rows scanned.
pub(crate) struct SecondScan {
    /// `max { y_t G_t : t in I_low }` (`-inf` when empty).
    pub gmax2: f64,
    /// The smallest objective decrease found.
    pub obj_diff_min: f64,
    /// Its row.
    pub j: usize,
}

/// Interleaved lanes (one AVX-512 register of `f64`, two of AVX2).
pub const LANES: usize = 8;

/// The second scan's lanes under AVX2: its four accumulators (two values,
/// two indices) of [`LANES`] lanes would take eight of AVX2's sixteen
/// registers and spill into masked stores to the stack (slow on AMD's
/// cores); four lanes keep them in registers. The lane count does not
/// change the result (each lane keeps the later index on equal values, and
/// the fold ties to the later index).
const AVX2_SECOND_LANES: usize = 4;

/// What the second scan needs of the chosen `i`.
pub(crate) struct Pivot {
    /// `-y_i G_i`.
    pub gmax: f64,
    /// `Q_ii`.
    pub qd_i: f64,
    /// `y_i` as a float.
    pub yi: f64,
    /// LIBSVM's floor of a non-positive curvature.
    pub tau: f64,
}

/// Fold lanes `(value, index)` (index [`NONE`]: empty lane): the value that
/// `better` prefers, ties to the later index; `(init, NONE)` when all empty.
#[inline(always)]
fn fold<const L: usize>(
    v: &[f64; L],
    ix: &[u64; L],
    init: f64,
    better: impl Fn(f64, f64) -> bool,
) -> (f64, usize) {
    let (mut best, mut bi) = (init, NONE);
    for l in 0..L {
        if ix[l] == NONE64 {
            continue;
        }
        let il = ix[l] as usize;
        if bi == NONE || better(v[l], best) || (v[l] == best && il > bi) {
            best = v[l];
            bi = il;
        }
    }
    (best, bi)
}

/// [`NONE`] in a lane of 64-bit indices.
const NONE64: u64 = u64::MAX;

/// `argmax { -y_t G_t : t in I_up }` over one piece (indices relative to
/// it): the maximum and the last index attaining it.
#[inline(always)]
fn first_body(y: &[i8], st: &[u8], g: &[f64]) -> (f64, usize) {
    let n = g.len();
    let (y, st) = (&y[..n], &st[..n]);
    let mut m = [f64::NEG_INFINITY; LANES];
    let mut ix = [NONE64; LANES];
    let full = n - n % LANES;
    let chunks = y[..full]
        .chunks_exact(LANES)
        .zip(st[..full].chunks_exact(LANES))
        .zip(g[..full].chunks_exact(LANES));
    for (c, ((yc, sc), gc)) in chunks.enumerate() {
        let yc: &[i8; LANES] = yc.try_into().expect("a full chunk");
        let sc: &[u8; LANES] = sc.try_into().expect("a full chunk");
        let gc: &[f64; LANES] = gc.try_into().expect("a full chunk");
        let base = (c * LANES) as u64;
        for l in 0..LANES {
            // y = +1: not at the upper bound (1); y = -1: not at 0.
            let v = -f64::from(yc[l]) * gc[l];
            let take = (sc[l] != u8::from(yc[l] == 1)) & (v >= m[l]);
            m[l] = if take { v } else { m[l] };
            ix[l] = if take { base + l as u64 } else { ix[l] };
        }
    }
    let (mut best, mut bi) = fold(&m, &ix, f64::NEG_INFINITY, |a, b| a > b);
    for k in full..n {
        let v = -f64::from(y[k]) * g[k];
        if st[k] != u8::from(y[k] == 1) && v >= best {
            best = v;
            bi = k;
        }
    }
    (best, bi)
}

/// One row of the second scan: whether it is in `I_low`, its `y_t G_t`,
/// `b_it` and objective decrease.
#[inline(always)]
fn second_row(yk: i8, sk: u8, gk: f64, qdk: f64, qk: f32, p: &Pivot) -> (bool, f64, f64, f64) {
    let yf = f64::from(yk);
    // y = +1: not at 0; y = -1: not at the upper bound (1).
    let low = sk != u8::from(yk != 1);
    let w = yf * gk;
    let grad_diff = p.gmax + w;
    let quad = p.qd_i + qdk - (2.0 * p.yi * f64::from(qk)) * yf;
    let den = if quad > 0.0 { quad } else { p.tau };
    (low, w, grad_diff, -(grad_diff * grad_diff) / den)
}

/// The second scan over one piece (indices relative to it) in `L`
/// interleaved lanes.
#[inline(always)]
fn second_lanes<const L: usize>(
    y: &[i8],
    st: &[u8],
    g: &[f64],
    qd: &[f64],
    qi: &[f32],
    p: &Pivot,
) -> SecondScan {
    let n = g.len();
    let (y, st, qd, qi) = (&y[..n], &st[..n], &qd[..n], &qi[..n]);
    let mut m2 = [f64::NEG_INFINITY; L];
    let mut i2 = [NONE64; L];
    let mut om = [f64::INFINITY; L];
    let mut oj = [NONE64; L];
    let full = n - n % L;
    let chunks = y[..full]
        .chunks_exact(L)
        .zip(st[..full].chunks_exact(L))
        .zip(g[..full].chunks_exact(L))
        .zip(qd[..full].chunks_exact(L))
        .zip(qi[..full].chunks_exact(L));
    for (c, ((((yc, sc), gc), dc), qc)) in chunks.enumerate() {
        let yc: &[i8; L] = yc.try_into().expect("a full chunk");
        let sc: &[u8; L] = sc.try_into().expect("a full chunk");
        let gc: &[f64; L] = gc.try_into().expect("a full chunk");
        let dc: &[f64; L] = dc.try_into().expect("a full chunk");
        let qc: &[f32; L] = qc.try_into().expect("a full chunk");
        let base = (c * L) as u64;
        for l in 0..L {
            let (low, w, gd, od) = second_row(yc[l], sc[l], gc[l], dc[l], qc[l], p);
            let t2 = low & (w >= m2[l]);
            m2[l] = if t2 { w } else { m2[l] };
            i2[l] = if t2 { base + l as u64 } else { i2[l] };
            let t = low & (gd > 0.0) & (od <= om[l]);
            om[l] = if t { od } else { om[l] };
            oj[l] = if t { base + l as u64 } else { oj[l] };
        }
    }
    let (mut gmax2, _) = fold(&m2, &i2, f64::NEG_INFINITY, |a, b| a > b);
    let (mut obj_diff_min, mut j) = fold(&om, &oj, f64::INFINITY, |a, b| a < b);
    for k in full..n {
        let (low, w, gd, od) = second_row(y[k], st[k], g[k], qd[k], qi[k], p);
        if low {
            if w >= gmax2 {
                gmax2 = w;
            }
            if gd > 0.0 && od <= obj_diff_min {
                obj_diff_min = od;
                j = k;
            }
        }
    }
    SecondScan {
        gmax2,
        obj_diff_min,
        j,
    }
}

by_cpu!(
    /// The first scan of WSS 3 over one piece (see [`first_body`]).
    pub(crate) fn first_scan(y: &[i8], st: &[u8], g: &[f64]) -> (f64, usize) = first_body;
    variants first_avx512, first_avx2
);

by_cpu!(
    /// The second scan of WSS 3 over one piece (see [`second_lanes`]; the
    /// portable and AVX-512 builds in [`LANES`] lanes, the AVX2 build in
    /// [`AVX2_SECOND_LANES`]).
    pub(crate) fn second_scan(
        y: &[i8],
        st: &[u8],
        g: &[f64],
        qd: &[f64],
        qi: &[f32],
        p: &Pivot,
    ) -> SecondScan = second_lanes::<LANES>, second_lanes::<AVX2_SECOND_LANES>;
    variants second_avx512, second_avx2
);

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    /// Every compiled variant against the portable body and LIBSVM's
    /// branchy loop (in `smo_rows`' tests), on tied values and signed zeros.
    #[test]
    fn every_variant_equals_the_portable_body() {
        let mut rng = Pcg64::seed_from_u64(11);
        let levels = [-1.0, -0.5, 0.0, -0.0, 0.25, 1.0, f64::INFINITY];
        for n in [0usize, 1, 3, 4, 5, 7, 8, 9, 63, 64, 1000] {
            for rep in 0..6 {
                let y: Vec<i8> = (0..n)
                    .map(|_| if rng.random_bool(0.5) { 1 } else { -1 })
                    .collect();
                let st: Vec<u8> = (0..n).map(|_| rng.random_range(0..3u8)).collect();
                let g: Vec<f64> = (0..n)
                    .map(|_| {
                        if rep % 2 == 0 {
                            levels[rng.random_range(0..levels.len() - 1)]
                        } else {
                            rng.random_range(-2.0..1.0)
                        }
                    })
                    .collect();
                // rep 4: curvatures from a few values too, so that whole
                // objective decreases tie across lanes and chunks.
                let qd: Vec<f64> = (0..n)
                    .map(|_| match rep {
                        4 => [0.5, 0.75][rng.random_range(0..2)],
                        _ => rng.random_range(0.0..1.0),
                    })
                    .collect();
                let qi: Vec<f32> = (0..n)
                    .map(|_| match rep {
                        4 => [1.0, 0.5, -0.5][rng.random_range(0..3)],
                        _ => rng.random_range(-1.0..1.0),
                    })
                    .collect();
                let p = Pivot {
                    gmax: if rep == 5 { 0.0 } else { 0.7 },
                    qd_i: 0.5,
                    yi: if rep % 3 == 0 { 1.0 } else { -1.0 },
                    tau: 1e-12,
                };
                let want1 = first_body(&y, &st, &g);
                let want2 = second_lanes::<LANES>(&y, &st, &g, &qd, &qi, &p);
                let mut got1 = vec![first_scan(&y, &st, &g)];
                let mut got2 = vec![second_scan(&y, &st, &g, &qd, &qi, &p)];
                #[cfg(target_arch = "x86_64")]
                {
                    if std::arch::is_x86_feature_detected!("avx2") {
                        // SAFETY: AVX2 is supported (checked above).
                        unsafe {
                            got1.push(first_avx2(&y, &st, &g));
                            got2.push(second_avx2(&y, &st, &g, &qd, &qi, &p));
                        }
                    }
                    if std::arch::is_x86_feature_detected!("avx512f") {
                        // SAFETY: AVX-512F is supported (checked above).
                        unsafe {
                            got1.push(first_avx512(&y, &st, &g));
                            got2.push(second_avx512(&y, &st, &g, &qd, &qi, &p));
                        }
                    }
                }
                for g1 in &got1 {
                    assert_eq!(g1.1, want1.1, "n = {n}");
                    assert_eq!(g1.0.to_bits(), want1.0.to_bits(), "n = {n}");
                }
                for g2 in &got2 {
                    assert_eq!(g2.j, want2.j, "n = {n}");
                    assert_eq!(g2.gmax2.to_bits(), want2.gmax2.to_bits(), "n = {n}");
                    assert_eq!(
                        g2.obj_diff_min.to_bits(),
                        want2.obj_diff_min.to_bits(),
                        "n = {n}"
                    );
                }
            }
        }
    }
}
