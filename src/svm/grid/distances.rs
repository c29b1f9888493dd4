//! Squared distances computed once per dataset and reused by every gamma.
//!
//! `K(x, z) = exp(-gamma ||x - z||^2)` depends on gamma only through the
//! final exponential, so the distances are computed once and every gamma
//! costs one `exp` per entry. Two matrices, each in the exact floating-point
//! form the solver and LIBSVM use, so that kernel values are bit-identical
//! to those computed from scratch:
//!
//! - **training** `D_ab = ||x_a||^2 + ||x_b||^2 - 2 <x_a, x_b>` (LIBSVM's
//!   `Kernel::kernel_rbf`, the form of [`KernelData::fill_column`]);
//! - **prediction** `E_ab = sum_j (x_aj - x_bj)^2` over the union of the two
//!   index sets in index order (LIBSVM's `k_function`, the form of
//!   [`crate::svm::kernel::k_function`]).
//!
//! Both are symmetric to the last bit (the same products and sums in the
//! same order), so only the upper triangle is computed.

use rayon::prelude::*;

use crate::data::{Features, Row};
use crate::svm::kernel::{direct_sq_dist, KernelData};

/// Bytes the distance blocks and one gamma's kernel matrix take for `n` rows.
pub fn bytes_needed(n: usize) -> f64 {
    let n2 = (n as f64) * (n as f64);
    n2 * (8.0 + 8.0 + 4.0)
}

/// The two distance matrices of a dataset (row-major, `n x n`).
#[derive(Debug)]
pub struct Distances {
    /// Number of rows.
    pub n: usize,
    /// Training-form squared distances.
    pub train: Vec<f64>,
    /// Prediction-form squared distances.
    pub predict: Vec<f64>,
    /// Dot products and direct distances computed (pairs, `n (n + 1) / 2` each).
    pub pairs: u64,
}

impl Distances {
    /// Compute both matrices over the rows of `kd` (in parallel on the
    /// current rayon pool when `parallel`).
    pub fn new(kd: &KernelData<'_>, parallel: bool) -> Distances {
        let n = kd.ds.n();
        let d = kd.d();
        let row = |a: usize| -> (Vec<f64>, Vec<f64>) {
            let mut tr = vec![0.0; n - a];
            let mut pr = vec![0.0; n - a];
            let mut scratch = vec![0.0; d];
            let ra = kd.ds.row(a);
            if let Row::Sparse(ia, va) = ra {
                for (&j, &v) in ia.iter().zip(va) {
                    scratch[j as usize] = v;
                }
            }
            for b in a..n {
                let rb = kd.ds.row(b);
                let dot = match (&kd.ds.x, ra) {
                    (
                        Features::Sparse {
                            indptr,
                            indices,
                            values,
                            ..
                        },
                        Row::Sparse(..),
                    ) => {
                        let (s, e) = (indptr[b], indptr[b + 1]);
                        let mut dot = 0.0;
                        for (&j, &v) in indices[s..e].iter().zip(&values[s..e]) {
                            dot += scratch[j as usize] * v;
                        }
                        dot
                    }
                    _ => ra.dot_row(&rb),
                };
                tr[b - a] = kd.norms[a] + kd.norms[b] - 2.0 * dot;
                pr[b - a] = direct_sq_dist(ra, rb);
            }
            (tr, pr)
        };
        let rows: Vec<(Vec<f64>, Vec<f64>)> = if parallel {
            (0..n).into_par_iter().map(row).collect()
        } else {
            (0..n).map(row).collect()
        };
        let mut train = vec![0.0; n * n];
        let mut predict = vec![0.0; n * n];
        for (a, (tr, pr)) in rows.into_iter().enumerate() {
            for (k, (t, p)) in tr.into_iter().zip(pr).enumerate() {
                let b = a + k;
                train[a * n + b] = t;
                train[b * n + a] = t;
                predict[a * n + b] = p;
                predict[b * n + a] = p;
            }
        }
        Distances {
            n,
            train,
            predict,
            pairs: (n as u64) * (n as u64 + 1) / 2,
        }
    }

    /// Row `a` of the training-form distances.
    pub fn train_row(&self, a: usize) -> &[f64] {
        &self.train[a * self.n..(a + 1) * self.n]
    }

    /// Row `a` of the prediction-form distances.
    pub fn predict_row(&self, a: usize) -> &[f64] {
        &self.predict[a * self.n..(a + 1) * self.n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::{k_function, KernelKind};

    /// Dense rows; the sparse variant has few enough non-zeros that
    /// `KernelData::new` stores it as CSR.
    fn data(sparse: bool) -> Dataset {
        let rows: Vec<Vec<f64>> = (0..23)
            .map(|i| {
                let t = i as f64;
                if sparse {
                    vec![
                        (t * 0.37).sin(),
                        0.0,
                        0.0,
                        if i % 3 == 0 { 0.0 } else { t / 7.0 },
                    ]
                } else {
                    vec![
                        (t * 0.37).sin(),
                        0.5 + t,
                        (t * 1.3).cos() * 0.2,
                        t / 7.0 + 0.1,
                    ]
                }
            })
            .collect();
        let y = (0..23)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        Dataset::from_dense_rows("synthetic-dist", &rows, y)
    }

    #[test]
    fn kernel_values_are_bit_identical_to_the_solvers_and_predictions() {
        for sparse in [false, true] {
            let ds = data(sparse);
            let gamma = 0.37;
            let kd = KernelData::new(&ds, KernelKind::Rbf { gamma });
            assert_eq!(kd.ds.is_sparse(), sparse);
            let dist = Distances::new(&kd, true);
            let n = ds.n();
            let rows: Vec<u32> = (0..n as u32).collect();
            let mut scratch = vec![0.0; kd.d()];
            for a in 0..n {
                let mut col = vec![0f32; n];
                kd.fill_column(a, 1, &rows, None, &mut col, &mut scratch);
                for (r, &cv) in col.iter().enumerate() {
                    let k = (-gamma * dist.train_row(a)[r]).exp() as f32;
                    assert_eq!(k.to_bits(), cv.to_bits(), "train {a},{r}");
                    let p = (-gamma * dist.predict_row(a)[r]).exp();
                    let q = k_function(kd.kind, kd.ds.row(a), kd.ds.row(r));
                    assert_eq!(p.to_bits(), q.to_bits(), "predict {a},{r}");
                }
            }
        }
    }
}
