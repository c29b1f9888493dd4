//! Squared distances computed once per dataset and reused by every gamma.
//!
//! `K(x, z) = exp(-gamma ||x - z||^2)` depends on gamma only through the
//! final exponential, so the distances are computed once and every gamma
//! costs one `exp` per entry of one triangle. They are in the exact
//! floating-point form the solver and LIBSVM's training use, `D_ab =
//! ||x_a||^2 + ||x_b||^2 - 2 <x_a, x_b>` (LIBSVM's `Kernel::kernel_rbf`, the dot products of
//! [`KernelData::for_each_dot`]), so that kernel values are bit-identical
//! to those computed from scratch. The matrix is symmetric to the last bit
//! (the same products and sums in the same order), so only the upper
//! triangle is computed. (Held-out rows are predicted from these values
//! with an error bound, and from LIBSVM's prediction kernel where the bound
//! leaves a label unsure: [`crate::svm::cv::rounds::predict_rows`].)

use rayon::prelude::*;

use crate::svm::kernel::KernelData;

/// Bytes of the distance matrix and `kernels` kernel matrices (single
/// precision) for `n` rows.
pub fn bytes_needed(n: usize, kernels: usize) -> f64 {
    let n2 = (n as f64) * (n as f64);
    n2 * (8.0 + 4.0 * kernels as f64)
}

/// The training-form squared distances of a dataset (row-major, `n x n`).
#[derive(Debug)]
pub struct Distances {
    /// Number of rows.
    pub n: usize,
    /// Training-form squared distances.
    pub train: Vec<f64>,
    /// Dot products computed (pairs, `n (n + 1) / 2`).
    pub pairs: u64,
    /// The row of the caller's dataset at each position (`0..n` unless
    /// set: [`crate::svm::kernel::fold_order::distances`]).
    pub rows: Vec<usize>,
}

impl Distances {
    /// Compute the matrix over the rows of `kd` (in parallel on the current
    /// rayon pool when `parallel`).
    pub fn new(kd: &KernelData<'_>, parallel: bool) -> Distances {
        let n = kd.ds.n();
        let all: Vec<u32> = (0..n as u32).collect();
        let row = |a: usize| -> Vec<f64> {
            let mut tr = vec![0.0; n - a];
            let mut scratch = vec![0.0; kd.d()];
            kd.for_each_dot(a, &all[a..], &mut scratch, |k, dot| {
                tr[k] = kd.norms[a] + kd.norms[a + k] - 2.0 * dot;
            });
            tr
        };
        let tri: Vec<Vec<f64>> = if parallel {
            (0..n).into_par_iter().map(row).collect()
        } else {
            (0..n).map(row).collect()
        };
        // Row a of the full matrix: D_ab from row b's triangle for b < a,
        // from its own for b >= a.
        let mut train = vec![0.0; n * n];
        let full = |(a, out): (usize, &mut [f64])| {
            for (b, o) in out[..a].iter_mut().enumerate() {
                *o = tri[b][a - b];
            }
            out[a..].copy_from_slice(&tri[a]);
        };
        if parallel {
            train.par_chunks_mut(n.max(1)).enumerate().for_each(full);
        } else {
            train.chunks_mut(n.max(1)).enumerate().for_each(full);
        }
        Distances {
            n,
            train,
            pairs: (n as u64) * (n as u64 + 1) / 2,
            rows: (0..n).collect(),
        }
    }

    /// Row `a` of the training-form distances.
    pub fn train_row(&self, a: usize) -> &[f64] {
        &self.train[a * self.n..(a + 1) * self.n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::KernelKind;

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
    fn kernel_values_are_bit_identical_to_the_solvers() {
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
                    let direct = kd.norms[a] + kd.norms[r] - 2.0 * ds.row(a).dot_row(&ds.row(r));
                    assert_eq!(dist.train_row(a)[r].to_bits(), direct.to_bits());
                }
            }
        }
    }
}
