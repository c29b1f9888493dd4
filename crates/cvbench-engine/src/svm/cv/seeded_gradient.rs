//! A seeded start's gradient from one kernel mat-vec (the fast start of
//! the seeded formulation CVs).
//!
//! LIBSVM's `init_gradient` adds one whole `Q` column per non-zero
//! variable into `G` (and a second time into `G_bar` for those at their
//! bound): for a seeded start with most variables non-zero that is about
//! one `Q`-sized pass per round, and for the SVRs (`2l` variables) four
//! times the `l x l` kernel. Every formulation's `Q` is the kernel of the
//! training rows with signs, `Q_st = sign_s sign_t K(x_idx(s), x_idx(t))`
//! (C-SVC's and nu-SVC's `SVC_Q`: `idx = s`, `sign = y`; `ONE_CLASS_Q`:
//! `sign = +1`; `SVR_Q`: `idx(k) = idx(k + l) = k`, `sign = +1, -1`), so
//!
//! ```text
//!   (Q a)_t = sign_t (K w)_idx(t),      w_k    = sum_{idx(s) = k} sign_s a_s
//!   G_bar_t = sign_t (K wb)_idx(t),     wb_k   = sum_{idx(s) = k, a_s >= C_s} sign_s C_s
//! ```
//!
//! one product of the `l x l` kernel with two vectors (`beta = a - a*` for
//! the SVRs), reading only the columns of rows with a non-zero weight. Each
//! entry is one sum over those rows in their order, whatever the thread
//! that computes it, and a kernel value read from the shared whole-data
//! cache is the value computed, so the gradient is the same on any thread
//! count (where the shared cache can hold all of a round's columns, the
//! missing ones are computed whole into it, counted by the cache, so the
//! solve that follows finds them); it equals `init_gradient`'s up to rounding (the tests compare
//! them). The unseeded solves never come here (`init_gradient` as LIBSVM).

use rayon::prelude::*;

use crate::svm::cache::runs::{few_runs, runs_of};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::KernelData;
use crate::svm::simd::by_cpu;
use crate::svm::smo::general::StartGradient;

/// Rows per parallel piece of the mat-vec.
const PIECE: usize = 64;

/// The gradient of the start `alpha` (bounds `c`) of a problem whose
/// variable `s` is training row `rows[index[s]]` with sign `sign[s]` (see
/// the module doc), the kernel values read from `shared` where it holds
/// the column, else computed.
pub(crate) fn start_gradient(
    kd: &KernelData<'_>,
    rows: &[u32],
    index: &[u32],
    sign: &[i8],
    alpha: &[f64],
    c: &[f64],
    shared: Option<&SharedKernelCache>,
) -> StartGradient {
    let t0 = std::time::Instant::now();
    let l = rows.len();
    let mut w = vec![0.0; l];
    let mut wb = vec![0.0; l];
    for (s, (&a, &cs)) in alpha.iter().zip(c).enumerate() {
        let (k, sg) = (index[s] as usize, f64::from(sign[s]));
        if a > 0.0 {
            w[k] += sg * a;
        }
        if a >= cs {
            wb[k] += sg * cs;
        }
    }
    let nz: Vec<usize> = (0..l).filter(|&k| w[k] != 0.0 || wb[k] != 0.0).collect();
    let nz_rows: Vec<u32> = nz.iter().map(|&k| rows[k]).collect();
    let (wn, wbn): (Vec<f64>, Vec<f64>) = nz.iter().map(|&k| (w[k], wb[k])).unzip();
    // Where the shared cache holds a whole round's columns, the missing
    // ones are computed whole into it (the solve reads them next); else
    // only the entries needed here, the cache left as it is.
    let keep = shared.is_some_and(|sh| sh.capacity_columns() >= l);
    // Runs of consecutive dataset rows `(first, len)` and their first
    // position, where the columns can be read in place at them.
    let runs = runs_of(rows.iter().map(|&r| r as usize));
    let in_place: Option<Vec<(usize, usize, usize)>> = few_runs(&runs, l).then(|| {
        let mut at = 0;
        runs.iter()
            .map(|&(first, len)| {
                at += len;
                (at - len, first, len)
            })
            .collect()
    });
    let mut u = vec![0.0; l];
    let mut ub = vec![0.0; l];
    let evals: u64 = u
        .par_chunks_mut(PIECE)
        .zip(ub.par_chunks_mut(PIECE))
        .enumerate()
        .map(|(piece, (u, ub))| {
            let mut buf = vec![0f32; nz.len()];
            let mut scratch = vec![0.0; kd.d()];
            let mut evals = 0u64;
            for (j, (ut, ubt)) in u.iter_mut().zip(ub.iter_mut()).enumerate() {
                let r = rows[piece * PIECE + j] as usize;
                let col = shared.and_then(|sh| {
                    if keep {
                        Some(sh.column(kd, r, &mut scratch))
                    } else {
                        sh.peek(r)
                    }
                });
                if let (Some(col), Some(runs)) = (&col, &in_place) {
                    let (mut a, mut b) = (0.0, 0.0);
                    for &(p, first, len) in runs {
                        let (x, y) =
                            dot2(&w[p..p + len], &wb[p..p + len], &col[first..first + len]);
                        a += x;
                        b += y;
                    }
                    *ut = a;
                    *ubt = b;
                    continue;
                }
                match &col {
                    Some(col) => {
                        for (b, &q) in buf.iter_mut().zip(&nz_rows) {
                            *b = col[q as usize];
                        }
                    }
                    None => {
                        kd.fill_column(r, 1, &nz_rows, None, &mut buf, &mut scratch);
                        evals += nz.len() as u64;
                    }
                }
                let (mut a, mut b) = (0.0, 0.0);
                for ((&k, &x), &y) in buf.iter().zip(&wn).zip(&wbn) {
                    let k = f64::from(k);
                    a += x * k;
                    b += y * k;
                }
                *ut = a;
                *ubt = b;
            }
            evals
        })
        .sum();
    let q_alpha = index
        .iter()
        .zip(sign)
        .map(|(&k, &s)| f64::from(s) * u[k as usize])
        .collect();
    let g_bar = index
        .iter()
        .zip(sign)
        .map(|(&k, &s)| f64::from(s) * ub[k as usize])
        .collect();
    StartGradient {
        q_alpha,
        g_bar,
        kernel_evals: evals,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// Lanes of [`dot2`]'s sums.
const LANES: usize = 8;

/// `(sum_i w_i k_i, sum_i wb_i k_i)`, each in [`LANES`] partial sums (lane
/// `j` takes the terms `i = j mod LANES` in order) added in lane order, then
/// the tail in order: the same expression on every vector unit.
#[inline(always)]
fn dot2_body(w: &[f64], wb: &[f64], k: &[f32]) -> (f64, f64) {
    let (mut a, mut b) = ([0.0f64; LANES], [0.0f64; LANES]);
    let n = k.len() / LANES * LANES;
    for ((wc, wbc), kc) in w[..n]
        .chunks_exact(LANES)
        .zip(wb[..n].chunks_exact(LANES))
        .zip(k[..n].chunks_exact(LANES))
    {
        for j in 0..LANES {
            let kj = f64::from(kc[j]);
            a[j] += wc[j] * kj;
            b[j] += wbc[j] * kj;
        }
    }
    let (mut sa, mut sb) = (0.0, 0.0);
    for j in 0..LANES {
        sa += a[j];
        sb += b[j];
    }
    for i in n..k.len() {
        let ki = f64::from(k[i]);
        sa += w[i] * ki;
        sb += wb[i] * ki;
    }
    (sa, sb)
}

by_cpu!(
    /// See [`dot2_body`].
    fn dot2(w: &[f64], wb: &[f64], k: &[f32]) -> (f64, f64) = dot2_body
);

/// [`start_gradient`] of the SVRs' `2l` variables (`a_1..a_l, a*_1..a*_l`).
pub(crate) fn svr_start_gradient(
    kd: &KernelData<'_>,
    rows: &[u32],
    alpha: &[f64],
    c: f64,
    shared: Option<&SharedKernelCache>,
) -> StartGradient {
    let l = rows.len();
    let index: Vec<u32> = (0..l as u32).chain(0..l as u32).collect();
    let sign: Vec<i8> = std::iter::repeat_n(1i8, l)
        .chain(std::iter::repeat_n(-1i8, l))
        .collect();
    start_gradient(kd, rows, &index, &sign, alpha, &vec![c; 2 * l], shared)
}

/// [`start_gradient`] of `l` variables with signs `sign` (one-class: all
/// `+1`; nu-SVC: the labels) and bound `c`.
pub(crate) fn signed_start_gradient(
    kd: &KernelData<'_>,
    rows: &[u32],
    sign: &[i8],
    alpha: &[f64],
    c: f64,
    shared: Option<&SharedKernelCache>,
) -> StartGradient {
    let index: Vec<u32> = (0..rows.len() as u32).collect();
    start_gradient(kd, rows, &index, sign, alpha, &vec![c; rows.len()], shared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::cache::qmatrix::SvcQ;
    use crate::svm::formulation::one_class_q::OneClassQ;
    use crate::svm::formulation::svr_q::SvrQ;
    use crate::svm::kernel::KernelKind;
    use crate::svm::smo::general::libsvm_start_gradient;

    fn data() -> Dataset {
        let n = 40;
        let x: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                let t = i as f64;
                vec![(t * 0.37).sin(), (t * 0.11).cos(), t / n as f64]
            })
            .collect();
        let y: Vec<f64> = (0..n)
            .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        Dataset::from_dense_rows("toy", &x, y)
    }

    fn close(a: &[f64], b: &[f64]) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= 1e-9 * (1.0 + y.abs()), "{x} vs {y}");
        }
    }

    #[test]
    fn the_mat_vec_gradient_is_init_gradients_up_to_rounding() {
        let ds = data();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.7 });
        let rows: Vec<u32> = (3..37).rev().collect();
        let l = rows.len();
        let c = 2.0;
        // SVR: a start with pairs at the bound, free and zero.
        let mut a2 = vec![0.0; 2 * l];
        for k in 0..l {
            match k % 4 {
                0 => a2[k] = c,
                1 => a2[k + l] = 0.5,
                2 => a2[k + l] = c,
                _ => {}
            }
        }
        let sg = svr_start_gradient(&kd, &rows, &a2, c, None);
        let (g, gb) = libsvm_start_gradient(
            SvrQ::new(&kd, rows.clone(), 1.0, None),
            vec![0.0; 2 * l],
            {
                let mut y = vec![1i8; l];
                y.extend(vec![-1i8; l]);
                y
            },
            a2.clone(),
            vec![c; 2 * l],
        );
        close(&sg.q_alpha, &g);
        close(&sg.g_bar, &gb);
        // nu-SVC's SVC_Q and one-class's ONE_CLASS_Q.
        let y: Vec<i8> = rows
            .iter()
            .map(|&r| if r % 3 == 0 { 1 } else { -1 })
            .collect();
        let a: Vec<f64> = (0..l).map(|k| [0.0, 1.0, 0.3][k % 3]).collect();
        let sg = signed_start_gradient(&kd, &rows, &y, &a, 1.0, None);
        let q = SvcQ::new(&kd, rows.clone(), y.clone(), 1.0, None);
        let (g, gb) = libsvm_start_gradient(q, vec![0.0; l], y.clone(), a.clone(), vec![1.0; l]);
        close(&sg.q_alpha, &g);
        close(&sg.g_bar, &gb);
        let ones = vec![1i8; l];
        let sg = signed_start_gradient(&kd, &rows, &ones, &a, 1.0, None);
        let (g, gb) = libsvm_start_gradient(
            OneClassQ::new(&kd, rows.clone(), 1.0, None),
            vec![0.0; l],
            ones,
            a,
            vec![1.0; l],
        );
        close(&sg.q_alpha, &g);
        close(&sg.g_bar, &gb);
    }

    #[test]
    fn the_in_place_sums_are_the_gathered_ones_up_to_rounding() {
        // Rows in two long runs (a fold-ordered CV round) read the cached
        // columns in place; scattered rows gather them.
        let n = 400;
        let x: Vec<Vec<f64>> = (0..n)
            .map(|i| vec![(i as f64 * 0.13).sin(), (i as f64 * 0.07).cos()])
            .collect();
        let ds = Dataset::from_dense_rows("synthetic", &x, vec![1.0; n]);
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.5 });
        let runs: Vec<u32> = (0..150).chain(230..n as u32).collect();
        let l = runs.len();
        let a: Vec<f64> = (0..2 * l)
            .map(|k| [0.0, 1.0, 0.25, 0.6, 0.0][k % 5])
            .collect();
        let plain = svr_start_gradient(&kd, &runs, &a, 1.0, None);
        let sh = SharedKernelCache::new(n, 100.0);
        let cached = svr_start_gradient(&kd, &runs, &a, 1.0, Some(&sh));
        close(&cached.q_alpha, &plain.q_alpha);
        close(&cached.g_bar, &plain.g_bar);
        let w: Vec<f64> = (0..37).map(|i| (i as f64 * 0.3).sin()).collect();
        let k: Vec<f32> = (0..37).map(|i| (i as f32 * 0.2).cos()).collect();
        let wb: Vec<f64> = w.iter().map(|v| -0.5 * v).collect();
        let (sa, sb) = dot2(&w, &wb, &k);
        assert_eq!((sa, sb), dot2_body(&w, &wb, &k));
        let direct: f64 = w.iter().zip(&k).map(|(a, &b)| a * f64::from(b)).sum();
        assert!((sa - direct).abs() < 1e-12 && (sb + 0.5 * direct).abs() < 1e-12);
    }

    #[test]
    fn a_shared_cache_gives_the_same_gradient() {
        let ds = data();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.7 });
        let rows: Vec<u32> = (0..30).collect();
        let a: Vec<f64> = (0..60).map(|k| [0.0, 1.0, 0.25, 0.6][k % 4]).collect();
        let plain = svr_start_gradient(&kd, &rows, &a, 1.0, None);
        let sh = SharedKernelCache::new(ds.n(), 100.0);
        let mut scratch = vec![0.0; kd.d()];
        for r in (0..ds.n()).step_by(2) {
            sh.column(&kd, r, &mut scratch);
        }
        let cached = svr_start_gradient(&kd, &rows, &a, 1.0, Some(&sh));
        assert_eq!(plain.q_alpha, cached.q_alpha);
        assert_eq!(plain.g_bar, cached.g_bar);
        assert!(
            cached.kernel_evals < plain.kernel_evals,
            "{} {} {}",
            cached.kernel_evals,
            plain.kernel_evals,
            sh.held()
        );
    }
}
