//! The Cholesky factor of a Newton step's `Q_FF + delta I`, kept across the
//! steps of an active-set pass: when a variable reaches a bound and leaves
//! the free set, its row and column are deleted from the factor by a
//! rank-one update of the trailing block (`O(m^2)`) instead of factoring
//! the smaller matrix anew (`O(m^3)`).
//!
//! Deleting index `k` from `A = L L^T`: with `L` split at `k` into `L11`,
//! the row `l21^T`, `L31`, the column `l32` and `L33`, the factor of `A`
//! without row and column `k` is `[L11 0; L31 L33']` with `L33' L33'^T =
//! L33 L33^T + l32 l32^T`, the classical rank-one update by rotations.
//! Everything is sequential and in a fixed order.

use faer::{Mat, Side};

/// A lower Cholesky factor (column-major) with the matrix it factors.
pub struct Factor {
    /// Order.
    pub m: usize,
    /// `L`, column-major, entries above the diagonal 0.
    l: Vec<f64>,
    /// The unregularised matrix `Q_FF` (column-major).
    pub q: Vec<f64>,
    /// The ridge in the factor: `L L^T = Q_FF + delta I`.
    pub delta: f64,
}

impl Factor {
    /// Factor `q + delta I` (`q` column-major `m x m`, symmetric); `None`
    /// when it is not numerically positive definite.
    pub fn new(q: Vec<f64>, m: usize, delta: f64) -> Option<Factor> {
        let a = Mat::from_fn(m, m, |i, j| {
            q[j * m + i] + if i == j && delta > 0.0 { delta } else { 0.0 }
        });
        let llt = a.llt(Side::Lower).ok()?;
        let lm = llt.L();
        let mut l = vec![0.0; m * m];
        for j in 0..m {
            for i in j..m {
                l[j * m + i] = lm[(i, j)];
            }
        }
        Some(Factor { m, l, q, delta })
    }

    /// `x` with `(Q_FF + delta I) x = b`.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let m = self.m;
        let mut z = b.to_vec();
        // L z = b, column by column.
        for j in 0..m {
            let col = &self.l[j * m..(j + 1) * m];
            z[j] /= col[j];
            let zj = z[j];
            for (zi, &lij) in z[j + 1..].iter_mut().zip(&col[j + 1..]) {
                *zi -= lij * zj;
            }
        }
        // L^T x = z, from the last row up.
        for j in (0..m).rev() {
            let col = &self.l[j * m..(j + 1) * m];
            let s: f64 = col[j + 1..]
                .iter()
                .zip(&z[j + 1..])
                .map(|(&a, &b)| a * b)
                .sum();
            z[j] = (z[j] - s) / col[j];
        }
        z
    }

    /// `Q_FF v`.
    pub fn q_mul(&self, v: &[f64]) -> Vec<f64> {
        let m = self.m;
        let mut out = vec![0.0; m];
        for (b, &vb) in v.iter().enumerate() {
            if vb != 0.0 {
                for (o, &q) in out.iter_mut().zip(&self.q[b * m..(b + 1) * m]) {
                    *o += q * vb;
                }
            }
        }
        out
    }

    /// Delete row and column `k` (of both the factor and `Q_FF`). `false`
    /// when the updated factor is not usable (a non-positive or non-finite
    /// pivot): factor anew then.
    pub fn delete(&mut self, k: usize) -> bool {
        let m = self.m;
        let n = m - 1;
        let keep = |i: usize| if i < k { i } else { i - 1 };
        let mut l = vec![0.0; n * n];
        let mut q = vec![0.0; n * n];
        for j in (0..m).filter(|&j| j != k) {
            let jj = keep(j);
            for i in (0..m).filter(|&i| i != k) {
                q[jj * n + keep(i)] = self.q[j * m + i];
                if i >= j {
                    l[jj * n + keep(i)] = self.l[j * m + i];
                }
            }
        }
        // The trailing block (from k on) absorbs the deleted column below
        // the diagonal.
        let mut x: Vec<f64> = self.l[k * m + k + 1..(k + 1) * m].to_vec();
        for t in 0..x.len() {
            let c = k + t;
            let d = l[c * n + c];
            let r = d.hypot(x[t]);
            if !(r > 0.0 && r.is_finite()) {
                return false;
            }
            let (cs, sn) = (r / d, x[t] / d);
            l[c * n + c] = r;
            let below = &mut l[c * n + c + 1..(c + 1) * n];
            for (lv, xu) in below.iter_mut().zip(&mut x[t + 1..]) {
                let v = (*lv + sn * *xu) / cs;
                *xu = cs * *xu - sn * v;
                *lv = v;
            }
        }
        self.m = n;
        self.l = l;
        self.q = q;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric positive definite matrix (a kernel-like Gram matrix).
    fn spd(m: usize) -> Vec<f64> {
        let x: Vec<f64> = (0..m).map(|i| (i as f64 * 0.77).sin() * 2.0).collect();
        let mut q = vec![0.0; m * m];
        for j in 0..m {
            for i in 0..m {
                q[j * m + i] = (-(x[i] - x[j]).powi(2)).exp() + if i == j { 0.1 } else { 0.0 };
            }
        }
        q
    }

    fn residual(f: &Factor, x: &[f64], b: &[f64]) -> f64 {
        let qx = f.q_mul(x);
        qx.iter()
            .zip(x)
            .zip(b)
            .map(|((&a, &xi), &bi)| (a + f.delta * xi - bi).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn deleting_rows_keeps_solving_the_smaller_system() {
        let m = 9;
        let mut f = Factor::new(spd(m), m, 1e-3).unwrap();
        let mut alive: Vec<usize> = (0..m).collect();
        let full = spd(m);
        for &k in &[4usize, 0, 6, 2] {
            assert!(f.delete(k));
            alive.remove(k);
            let n = alive.len();
            assert_eq!(f.m, n);
            // Q_FF is the original matrix restricted to the alive rows.
            for (jj, &j) in alive.iter().enumerate() {
                for (ii, &i) in alive.iter().enumerate() {
                    assert_eq!(f.q[jj * n + ii], full[j * m + i]);
                }
            }
            let b: Vec<f64> = (0..n).map(|i| i as f64 - 1.5).collect();
            let x = f.solve(&b);
            assert!(residual(&f, &x, &b) < 1e-10, "after deleting {k}");
            // The same as a fresh factor of the smaller matrix.
            let g = Factor::new(f.q.clone(), n, f.delta).unwrap();
            for (a, c) in x.iter().zip(g.solve(&b)) {
                assert!((a - c).abs() < 1e-10);
            }
        }
    }

    #[test]
    fn a_matrix_that_is_not_positive_definite_has_no_factor() {
        assert!(Factor::new(vec![1.0, 2.0, 2.0, 1.0], 2, 0.0).is_none());
    }
}
