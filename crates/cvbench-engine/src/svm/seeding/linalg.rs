//! The dense linear algebra of ATO and MIR, on faer: kernel blocks, a
//! least-squares solve through the normal equations (Wen et al. eq. 18) and
//! a pseudo-inverse solve (Greville's pseudo-inverse where the matrix of
//! eq. 10 or 18 is singular), from a thin SVD.
//!
//! faer runs sequentially here (`Par::Seq`): a parallel reduction could sum
//! in a thread-dependent order, and the seeds (hence iteration counts) must
//! not depend on the thread count.

use faer::linalg::solvers::Solve;
use faer::{Mat, Par, Side};

use crate::svm::kernel::KernelData;

/// `K(x_a, x_b)` for `a` in `rows_a`, `b` in `rows_b`, signed by
/// `y_a y_b` when `y` is given (that is, `Q`).
pub fn kernel_block(
    kd: &KernelData<'_>,
    rows_a: &[usize],
    rows_b: &[usize],
    y: Option<&[i8]>,
) -> Mat<f64> {
    Mat::from_fn(rows_a.len(), rows_b.len(), |i, j| {
        let (a, b) = (rows_a[i], rows_b[j]);
        let k = kd.eval(a, b);
        match y {
            Some(y) => f64::from(y[a] * y[b]) * k,
            None => k,
        }
    })
}

/// The minimum-norm least-squares solution of `a x = b` through the thin
/// SVD of `a`: `x = V S^+ U^T b`, singular values below
/// `max(m, n) * eps * s_max` treated as zero.
pub fn pinv_solve(a: &Mat<f64>, b: &[f64]) -> Vec<f64> {
    faer::set_global_parallelism(Par::Seq);
    let (m, n) = (a.nrows(), a.ncols());
    if m == 0 || n == 0 {
        return vec![0.0; n];
    }
    let Ok(svd) = a.thin_svd() else {
        return vec![0.0; n];
    };
    let (u, s, v) = (svd.U(), svd.S().column_vector(), svd.V());
    let r = s.nrows();
    let smax = (0..r).map(|i| s[i]).fold(0.0f64, f64::max);
    let cut = m.max(n) as f64 * f64::EPSILON * smax;
    let mut x = vec![0.0; n];
    for k in 0..r {
        if s[k] <= cut || s[k] == 0.0 {
            continue;
        }
        let mut ub = 0.0;
        for i in 0..m {
            ub += u[(i, k)] * b[i];
        }
        let w = ub / s[k];
        for (j, xj) in x.iter_mut().enumerate() {
            *xj += v[(j, k)] * w;
        }
    }
    x
}

/// The least-squares solution of the tall system `a x = b`, as eq. 18 writes
/// it: `x = (a^T a)^{-1} a^T b`, by Cholesky, or through the pseudo-inverse
/// of `a^T a` when it is singular.
pub fn lstsq_normal(a: &Mat<f64>, b: &[f64]) -> Vec<f64> {
    faer::set_global_parallelism(Par::Seq);
    let n = a.ncols();
    if n == 0 {
        return Vec::new();
    }
    let ata: Mat<f64> = a.transpose() * a;
    let atb = Mat::from_fn(n, 1, |j, _| {
        (0..a.nrows()).map(|i| a[(i, j)] * b[i]).sum::<f64>()
    });
    if let Ok(llt) = ata.llt(Side::Lower) {
        let x = llt.solve(&atb);
        let out: Vec<f64> = (0..n).map(|j| x[(j, 0)]).collect();
        if out.iter().all(|v| v.is_finite()) {
            return out;
        }
    }
    let rhs: Vec<f64> = (0..n).map(|j| atb[(j, 0)]).collect();
    pinv_solve(&ata, &rhs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinv_solves_regular_and_singular_systems() {
        let a = Mat::from_fn(2, 2, |i, j| [[2.0, 1.0], [1.0, 3.0]][i][j]);
        let x = pinv_solve(&a, &[3.0, 5.0]);
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        // Singular: rows equal; the minimum-norm solution of x0 + x1 = 2.
        let s = Mat::from_fn(2, 2, |_, _| 1.0);
        let x = pinv_solve(&s, &[2.0, 2.0]);
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn normal_equations_fit_an_overdetermined_line() {
        // y = 1 + 2 t at t = 0, 1, 2, 3, exactly.
        let a = Mat::from_fn(4, 2, |i, j| if j == 0 { 1.0 } else { i as f64 });
        let x = lstsq_normal(&a, &[1.0, 3.0, 5.0, 7.0]);
        assert!((x[0] - 1.0).abs() < 1e-10 && (x[1] - 2.0).abs() < 1e-10);
        // Rank deficient (two equal columns): falls back to the pseudo-inverse.
        let d = Mat::from_fn(3, 2, |i, _| i as f64 + 1.0);
        let x = lstsq_normal(&d, &[2.0, 4.0, 6.0]);
        assert!((x[0] + x[1] - 2.0).abs() < 1e-8);
    }
}
