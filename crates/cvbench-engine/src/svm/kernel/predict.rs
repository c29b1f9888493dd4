//! The kernels of prediction, as LIBSVM's `k_function` computes them: the
//! Gaussian kernel from the squared distance summed directly over the two
//! rows (not from the squared norms the training formula of
//! [`crate::svm::kernel`] uses), so that decision values agree with
//! `svm-predict` to the last bit.

use crate::data::Row;
use crate::svm::kernel::kind::KernelKind;

/// The kernel between two rows as LIBSVM's `k_function` computes it at
/// prediction time: the RBF distance is summed directly over the union of
/// the two index sets, in index order; the precomputed kernel reads `x`'s
/// value at `y`'s serial number (`x` the row predicted, `y` the support
/// vector: [`crate::svm::kernel::precomputed::k`]).
pub fn k_function(kind: KernelKind, x: Row<'_>, y: Row<'_>) -> f64 {
    match kind {
        KernelKind::Rbf { gamma } => (-gamma * direct_sq_dist(x, y)).exp(),
        KernelKind::Precomputed => crate::svm::kernel::precomputed::k(x, y),
        kind => kind.of_dot(x.dot_row(&y)),
    }
}

/// `||x - y||^2` summed directly over the union of the two index sets, in
/// index order, as LIBSVM's `k_function` does at prediction time (zero-zero
/// terms of dense rows add exact zeros, so every row form gives the same sum).
pub fn direct_sq_dist(x: Row<'_>, y: Row<'_>) -> f64 {
    match (x, y) {
        (Row::Sparse(ia, va), Row::Sparse(ib, vb)) => {
            let (mut p, mut q, mut s) = (0usize, 0usize, 0.0f64);
            while p < ia.len() && q < ib.len() {
                match ia[p].cmp(&ib[q]) {
                    std::cmp::Ordering::Equal => {
                        let d = va[p] - vb[q];
                        s += d * d;
                        p += 1;
                        q += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        s += vb[q] * vb[q];
                        q += 1;
                    }
                    std::cmp::Ordering::Less => {
                        s += va[p] * va[p];
                        p += 1;
                    }
                }
            }
            for v in &va[p..] {
                s += v * v;
            }
            for v in &vb[q..] {
                s += v * v;
            }
            s
        }
        (Row::Dense(a), Row::Dense(b)) => {
            // Zero-zero pairs add exact zeros: same sum as the sparse merge.
            a.iter().zip(b).fold(0.0, |s, (u, v)| {
                let d = u - v;
                s + d * d
            })
        }
        (Row::Sparse(ia, va), Row::Dense(b)) | (Row::Dense(b), Row::Sparse(ia, va)) => {
            // Every index in order; indices in neither row add an
            // exact zero, so the sum equals the sparse merge's.
            let d = b.len().max(ia.last().map_or(0, |&j| j as usize + 1));
            let (mut p, mut s) = (0usize, 0.0f64);
            for j in 0..d {
                let u = if p < ia.len() && ia[p] as usize == j {
                    p += 1;
                    va[p - 1]
                } else {
                    0.0
                };
                let t = u - b.get(j).copied().unwrap_or(0.0);
                s += t * t;
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two rows as `(index, value)` pairs, every pair of row forms.
    #[test]
    fn every_row_form_gives_the_merges_sum_to_the_bit() {
        let (ia, va) = (vec![0u32, 2, 5], vec![1.5, -0.25, 3.0]);
        let (ib, vb) = (vec![1u32, 2, 3], vec![0.5, 0.75, -2.0]);
        let dense = |ix: &[u32], vx: &[f64]| {
            let mut v = vec![0.0; 6];
            for (&j, &x) in ix.iter().zip(vx) {
                v[j as usize] = x;
            }
            v
        };
        let (da, db) = (dense(&ia, &va), dense(&ib, &vb));
        // The merge's order: 0, 1, 2, 3, 5.
        let want = 1.5f64 * 1.5 + 0.5 * 0.5 + (-0.25f64 - 0.75).powi(2) + 4.0 + 9.0;
        let forms = [
            (Row::Sparse(&ia, &va), Row::Sparse(&ib, &vb)),
            (Row::Dense(&da), Row::Dense(&db)),
            (Row::Sparse(&ia, &va), Row::Dense(&db)),
            (Row::Dense(&da), Row::Sparse(&ib, &vb)),
        ];
        let kind = KernelKind::Rbf { gamma: 0.3 };
        for (x, y) in forms {
            assert_eq!(direct_sq_dist(x, y).to_bits(), want.to_bits());
            assert_eq!(direct_sq_dist(y, x).to_bits(), want.to_bits());
            assert_eq!(
                k_function(kind, x, y).to_bits(),
                (-0.3 * want).exp().to_bits()
            );
        }
    }
}
