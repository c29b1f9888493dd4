//! The solver's per-iteration loops over the active rows, split over the
//! current rayon pool: the two scans of the working-set selection (WSS 3,
//! [`crate::svm::smo`]) and the gradient updates `G += Q_i da_i + Q_j da_j`,
//! `G_bar += s Q_i`.
//!
//! Long loops are cut into pieces by length alone (never by thread count).
//! Each value is computed by the same expression as in the one-piece loop,
//! and the pieces' choices are combined in row order with LIBSVM's tie rule
//! (the later index wins on equal values: its `>=` / `<=` comparisons), so
//! every chosen index and every gradient is bit-identical for any thread
//! count and any piece size — which is what lets a sequential round order
//! (SIR's chain) use more than one core without changing an iteration.

use rayon::prelude::*;

use crate::svm::simd::by_cpu;
use crate::svm::smo::lanes::{self as lanes, Pivot, SecondScan, NONE};

/// Rows per piece; loops over fewer than twice this many rows run in one
/// piece on the calling thread (a few microseconds of work, less than the
/// cost of handing a piece to another thread).
pub const ROW_PIECE: usize = 4096;

/// Run `leaf` over `0..len` in pieces and fold their results in row order.
fn over_pieces<T: Send>(
    lo: usize,
    hi: usize,
    leaf: &(impl Fn(usize, usize) -> T + Sync),
    combine: &(impl Fn(T, T) -> T + Sync),
) -> T {
    if hi - lo < 2 * ROW_PIECE {
        return leaf(lo, hi);
    }
    let mid = lo + (hi - lo) / 2;
    let (a, b) = rayon::join(
        || over_pieces(lo, mid, leaf, combine),
        || over_pieces(mid, hi, leaf, combine),
    );
    combine(a, b)
}

/// A variable's bound status in the solver: at 0.
pub(crate) const LOWER: u8 = 0;
/// At its upper bound `C_i`.
pub(crate) const UPPER: u8 = 1;
/// Strictly between the bounds.
pub(crate) const FREE: u8 = 2;

/// The rows the working-set selection reads.
pub(crate) struct Rows<'a> {
    /// Labels `±1`.
    pub y: &'a [i8],
    /// Bound status per row.
    pub status: &'a [u8],
    /// Gradient.
    pub g: &'a [f64],
}

/// `i = argmax { -y_t G_t : t in I_up }` over the first `n` rows: the
/// maximum and the last index attaining it (`(-inf, usize::MAX)` when
/// `I_up` is empty).
pub(crate) fn select_i(r: &Rows<'_>, n: usize) -> (f64, usize) {
    let leaf = |lo: usize, hi: usize| -> (f64, usize) {
        let (v, i) = lanes::first_scan(&r.y[lo..hi], &r.status[lo..hi], &r.g[lo..hi]);
        (v, if i == NONE { NONE } else { lo + i })
    };
    let combine = |a: (f64, usize), b: (f64, usize)| {
        if b.1 != NONE && b.0 >= a.0 {
            b
        } else {
            a
        }
    };
    over_pieces(0, n, &leaf, &combine)
}

/// See [`SecondScan`]: `qd` the diagonal, `qi` column `i` of `Q` (at least
/// `n` entries), `pivot` what the scan needs of the chosen `i`.
pub(crate) fn select_j(
    r: &Rows<'_>,
    qd: &[f64],
    qi: &[f32],
    n: usize,
    pivot: &Pivot,
) -> SecondScan {
    let leaf = |lo: usize, hi: usize| -> SecondScan {
        let mut s = lanes::second_scan(
            &r.y[lo..hi],
            &r.status[lo..hi],
            &r.g[lo..hi],
            &qd[lo..hi],
            &qi[lo..hi],
            pivot,
        );
        if s.j != NONE {
            s.j += lo;
        }
        s
    };
    let combine = |a: SecondScan, b: SecondScan| {
        let gmax2 = if b.gmax2 >= a.gmax2 { b.gmax2 } else { a.gmax2 };
        let (obj_diff_min, j) = if b.j != NONE && b.obj_diff_min <= a.obj_diff_min {
            (b.obj_diff_min, b.j)
        } else {
            (a.obj_diff_min, a.j)
        };
        SecondScan {
            gmax2,
            obj_diff_min,
            j,
        }
    };
    over_pieces(0, n, &leaf, &combine)
}

/// `g_k += Q_ik da_i + Q_jk da_j` for every `k` of `g`.
pub(crate) fn update_gradient(g: &mut [f64], qi: &[f32], qj: &[f32], dai: f64, daj: f64) {
    if g.len() < 2 * ROW_PIECE {
        update_leaf(g, qi, qj, dai, daj);
    } else {
        g.par_chunks_mut(ROW_PIECE)
            .zip(qi.par_chunks(ROW_PIECE))
            .zip(qj.par_chunks(ROW_PIECE))
            .for_each(|((g, qi), qj)| update_leaf(g, qi, qj, dai, daj));
    }
}

/// The loop of [`update_gradient`] over one piece.
#[inline(always)]
fn update_body(g: &mut [f64], qi: &[f32], qj: &[f32], dai: f64, daj: f64) {
    for ((g, &a), &b) in g.iter_mut().zip(qi).zip(qj) {
        *g += f64::from(a) * dai + f64::from(b) * daj;
    }
}

by_cpu!(
    /// [`update_body`], dispatched.
    fn update_leaf(g: &mut [f64], qi: &[f32], qj: &[f32], dai: f64, daj: f64) = update_body;
    variants update_avx512, update_avx2
);

/// `g_k += s Q_k` for every `k` of `g` (the `G_bar` update).
pub(crate) fn add_scaled(g: &mut [f64], q: &[f32], s: f64) {
    if g.len() < 2 * ROW_PIECE {
        add_scaled_leaf(g, q, s);
    } else {
        g.par_chunks_mut(ROW_PIECE)
            .zip(q.par_chunks(ROW_PIECE))
            .for_each(|(g, q)| add_scaled_leaf(g, q, s));
    }
}

/// The loop of [`add_scaled`] over one piece.
#[inline(always)]
fn add_scaled_body(g: &mut [f64], q: &[f32], s: f64) {
    for (g, &v) in g.iter_mut().zip(q) {
        *g += s * f64::from(v);
    }
}

by_cpu!(
    /// [`add_scaled_body`], dispatched.
    fn add_scaled_leaf(g: &mut [f64], q: &[f32], s: f64) = add_scaled_body;
    variants add_scaled_avx512, add_scaled_avx2
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatched gradient updates give the portable loops' bits.
    #[test]
    fn dispatched_updates_are_the_portable_loops() {
        for n in [0usize, 1, 7, 8, 9, 100, 1031] {
            let g0: Vec<f64> = (0..n).map(|k| (k as f64 * 0.31).sin() * 5.0).collect();
            let qi: Vec<f32> = (0..n).map(|k| (k as f32 * 0.77).cos()).collect();
            let qj: Vec<f32> = (0..n).map(|k| (k as f32 * 1.3).sin() * 0.5).collect();
            let (dai, daj) = (0.123_456_789, -3.987_654_321);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut want = g0.clone();
            update_body(&mut want, &qi, &qj, dai, daj);
            let mut want_s = g0.clone();
            add_scaled_body(&mut want_s, &qi, daj);
            let mut got = g0.clone();
            update_gradient(&mut got, &qi, &qj, dai, daj);
            assert_eq!(bits(&got), bits(&want));
            let mut got = g0.clone();
            add_scaled(&mut got, &qi, daj);
            assert_eq!(bits(&got), bits(&want_s));
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    let mut got = g0.clone();
                    // SAFETY: the CPU has AVX2 (checked).
                    unsafe { update_avx2(&mut got, &qi, &qj, dai, daj) };
                    assert_eq!(bits(&got), bits(&want));
                    let mut got = g0.clone();
                    // SAFETY: as above.
                    unsafe { add_scaled_avx2(&mut got, &qi, daj) };
                    assert_eq!(bits(&got), bits(&want_s));
                }
                if std::arch::is_x86_feature_detected!("avx512f") {
                    let mut got = g0.clone();
                    // SAFETY: the CPU has AVX-512F (checked).
                    unsafe { update_avx512(&mut got, &qi, &qj, dai, daj) };
                    assert_eq!(bits(&got), bits(&want));
                    let mut got = g0.clone();
                    // SAFETY: as above.
                    unsafe { add_scaled_avx512(&mut got, &qi, daj) };
                    assert_eq!(bits(&got), bits(&want_s));
                }
            }
        }
    }
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    /// The one-piece reference of both scans (LIBSVM's loops as written).
    fn reference(r: &Rows<'_>, qd: &[f64], qi: &[f32], n: usize) -> (f64, usize, f64, f64, usize) {
        let leaf_i = select_i_seq(r, n);
        let s = if leaf_i.1 == NONE {
            (f64::NEG_INFINITY, f64::INFINITY, NONE)
        } else {
            let yi = f64::from(r.y[leaf_i.1]);
            let mut gmax2 = f64::NEG_INFINITY;
            let mut m = f64::INFINITY;
            let mut jdx = NONE;
            for j in 0..n {
                let (in_low, gd, v, sign) = if r.y[j] == 1 {
                    (r.status[j] != LOWER, leaf_i.0 + r.g[j], r.g[j], -1.0)
                } else {
                    (r.status[j] != UPPER, leaf_i.0 - r.g[j], -r.g[j], 1.0)
                };
                if !in_low {
                    continue;
                }
                if v >= gmax2 {
                    gmax2 = v;
                }
                if gd > 0.0 {
                    let quad = qd[leaf_i.1] + qd[j] + sign * 2.0 * yi * f64::from(qi[j]);
                    let o = if quad > 0.0 {
                        -(gd * gd) / quad
                    } else {
                        -(gd * gd) / 1e-12
                    };
                    if o <= m {
                        m = o;
                        jdx = j;
                    }
                }
            }
            (gmax2, m, jdx)
        };
        (leaf_i.0, leaf_i.1, s.0, s.1, s.2)
    }

    fn select_i_seq(r: &Rows<'_>, n: usize) -> (f64, usize) {
        let (mut gmax, mut idx) = (f64::NEG_INFINITY, NONE);
        for t in 0..n {
            let (up, v) = if r.y[t] == 1 {
                (r.status[t] != UPPER, -r.g[t])
            } else {
                (r.status[t] != LOWER, r.g[t])
            };
            if up && v >= gmax {
                gmax = v;
                idx = t;
            }
        }
        (gmax, idx)
    }

    /// Many ties (gradients drawn from a few values), every status, lengths
    /// around the piece boundaries: the pieces choose exactly what the one
    /// loop chooses, on 1 and 2 threads.
    #[test]
    fn pieces_choose_what_one_loop_chooses() {
        let mut rng = Pcg64::seed_from_u64(7);
        for &n in &[
            1usize,
            100,
            2 * ROW_PIECE - 1,
            2 * ROW_PIECE,
            5 * ROW_PIECE + 17,
        ] {
            for rep in 0..4 {
                let y: Vec<i8> = (0..n)
                    .map(|_| if rng.random_bool(0.5) { 1 } else { -1 })
                    .collect();
                let status: Vec<u8> = (0..n).map(|_| rng.random_range(0..3u8)).collect();
                let levels = [-1.0, -0.5, 0.0, -0.0, 0.25, 1.0];
                let g: Vec<f64> = (0..n)
                    .map(|_| {
                        if rep % 2 == 0 {
                            levels[rng.random_range(0..levels.len())]
                        } else {
                            rng.random_range(-2.0..1.0)
                        }
                    })
                    .collect();
                let qd: Vec<f64> = (0..n).map(|_| rng.random_range(0.5..1.0)).collect();
                let qi: Vec<f32> = (0..n)
                    .map(|_| {
                        if rep == 3 {
                            1.0
                        } else {
                            rng.random_range(-1.0..1.0)
                        }
                    })
                    .collect();
                let r = Rows {
                    y: &y,
                    status: &status,
                    g: &g,
                };
                let want = reference(&r, &qd, &qi, n);
                for threads in [1, 2] {
                    let pool = crate::svm::cv::pool::build(threads).unwrap();
                    let got = pool.install(|| {
                        let (gmax, i) = select_i(&r, n);
                        if i == NONE {
                            return (gmax, i, f64::NEG_INFINITY, f64::INFINITY, NONE);
                        }
                        let pivot = Pivot {
                            gmax,
                            qd_i: qd[i],
                            yi: f64::from(y[i]),
                            tau: 1e-12,
                        };
                        let s = select_j(&r, &qd, &qi, n, &pivot);
                        (gmax, i, s.gmax2, s.obj_diff_min, s.j)
                    });
                    assert_eq!(got.1, want.1, "i, n = {n}");
                    assert_eq!(got.4, want.4, "j, n = {n}");
                    assert_eq!(got.0.to_bits(), want.0.to_bits(), "gmax, n = {n}");
                    assert_eq!(got.2.to_bits(), want.2.to_bits(), "gmax2, n = {n}");
                    assert_eq!(got.3.to_bits(), want.3.to_bits(), "obj, n = {n}");
                }
            }
        }
    }

    #[test]
    fn piecewise_updates_equal_the_one_loop() {
        let mut rng = Pcg64::seed_from_u64(3);
        let n = 3 * ROW_PIECE + 5;
        let g0: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let qi: Vec<f32> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let qj: Vec<f32> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let mut want = g0.clone();
        for k in 0..n {
            want[k] += f64::from(qi[k]) * 0.3 + f64::from(qj[k]) * -0.7;
            want[k] += 2.5 * f64::from(qj[k]);
        }
        let mut got = g0;
        update_gradient(&mut got, &qi, &qj, 0.3, -0.7);
        add_scaled(&mut got, &qj, 2.5);
        assert!(got
            .iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
