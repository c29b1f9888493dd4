//! Kernels with precomputed squared norms.
//!
//! Training uses LIBSVM's formula for the Gaussian kernel,
//! `K(x_i, x_j) = exp(-gamma (||x_i||^2 + ||x_j||^2 - 2 <x_i, x_j>))`,
//! with the squared norms computed once per dataset. Prediction uses the
//! direct squared distance, as LIBSVM's `k_function` does, so decision
//! values agree with `svm-predict` to the last bit in the usual case.
//!
//! Sparse columns are computed by scattering `x_i` into a dense scratch
//! vector and taking sparse·dense products: the products and their order are
//! those of the sparse·sparse merge (the extra terms are exact zeros), so
//! the values are identical to LIBSVM's while the inner loop has no branches.

use std::borrow::Cow;

use crate::data::{Dataset, Features, Row};

/// The kernel function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KernelKind {
    /// `K(x, x') = <x, x'>` (`svm-train -t 0`).
    Linear,
    /// `K(x, x') = exp(-gamma ||x - x'||^2)` (`svm-train -t 2`, the default).
    Rbf {
        /// The width parameter gamma.
        gamma: f64,
    },
}

impl KernelKind {
    /// LIBSVM's `-t` code of this kernel (0 linear, 2 RBF).
    pub fn libsvm_code(&self) -> u8 {
        match self {
            KernelKind::Linear => 0,
            KernelKind::Rbf { .. } => 2,
        }
    }
}

/// A dataset with its precomputed squared norms, ready for kernel evaluations
/// by original row index. Shared (by reference) by every solve of a run.
#[derive(Debug)]
pub struct KernelData<'a> {
    /// The data (borrowed, or an owned compact copy, see
    /// [`KernelData::compact`]).
    pub ds: Cow<'a, Dataset>,
    /// The kernel.
    pub kind: KernelKind,
    /// `||x_i||^2` for every row of `ds`.
    pub norms: Vec<f64>,
}

impl<'a> KernelData<'a> {
    /// Precompute the squared norms of every row.
    pub fn new(ds: &'a Dataset, kind: KernelKind) -> KernelData<'a> {
        let norms = (0..ds.n()).map(|i| sq_norm_ordered(ds.row(i))).collect();
        KernelData {
            ds: Cow::Borrowed(ds),
            kind,
            norms,
        }
    }

    /// An owned copy holding only `rows`, stored contiguously in that order
    /// (row `k` of the copy is row `rows[k]` of `self`), with the same norms.
    ///
    /// A training fold is a scattered subset of the dataset. Filling a kernel
    /// column walks the fold's rows in solver order, and on sparse data with
    /// short rows a scattered walk costs a cache miss per row; on the compact
    /// copy it is a sequential scan (as when `svm-train` reads a fold file).
    /// Values are bit-identical: the same products in the same order.
    pub fn compact(&self, rows: &[u32]) -> KernelData<'static> {
        let idx: Vec<usize> = rows.iter().map(|&r| r as usize).collect();
        let ds = self.ds.subset(&idx, self.ds.name.clone());
        let norms = idx.iter().map(|&r| self.norms[r]).collect();
        KernelData {
            ds: Cow::Owned(ds),
            kind: self.kind,
            norms,
        }
    }

    /// Number of features.
    pub fn d(&self) -> usize {
        self.ds.d()
    }

    /// `K(x_a, x_b)` for rows `a`, `b` of the dataset (training formula).
    #[inline]
    pub fn eval(&self, a: usize, b: usize) -> f64 {
        let dot = self.ds.row(a).dot_row(&self.ds.row(b));
        self.finish(a, b, dot)
    }

    /// Turn a dot product into the kernel value (LIBSVM's operation order).
    #[inline(always)]
    fn finish(&self, a: usize, b: usize, dot: f64) -> f64 {
        match self.kind {
            KernelKind::Linear => dot,
            KernelKind::Rbf { gamma } => {
                (-gamma * (self.norms[a] + self.norms[b] - 2.0 * dot)).exp()
            }
        }
    }

    /// Fill `out[k] = sign_k * K(x_a, x_{rows[k]})` as `f32`, where
    /// `sign_k = ya * ys[k]` (`ys = None` means all signs +1). `scratch` must
    /// have length `d` and be all zeros; it is left all zeros.
    pub fn fill_column(
        &self,
        a: usize,
        ya: i8,
        rows: &[u32],
        ys: Option<&[i8]>,
        out: &mut [f32],
        scratch: &mut [f64],
    ) {
        debug_assert_eq!(rows.len(), out.len());
        match (&self.ds.x, self.ds.row(a)) {
            (
                Features::Sparse {
                    indptr,
                    indices,
                    values,
                    ..
                },
                Row::Sparse(ia, va),
            ) => {
                for (&j, &v) in ia.iter().zip(va) {
                    scratch[j as usize] = v;
                }
                for (k, (&r, o)) in rows.iter().zip(out.iter_mut()).enumerate() {
                    let r = r as usize;
                    let (s, e) = (indptr[r], indptr[r + 1]);
                    let mut dot = 0.0;
                    for (&j, &v) in indices[s..e].iter().zip(&values[s..e]) {
                        dot += scratch[j as usize] * v;
                    }
                    let kv = self.finish(a, r, dot);
                    let sign = ys.map_or(1.0, |ys| f64::from(ya * ys[k]));
                    *o = (sign * kv) as f32;
                }
                for &j in ia {
                    scratch[j as usize] = 0.0;
                }
            }
            (_, ra) => {
                for (k, (&r, o)) in rows.iter().zip(out.iter_mut()).enumerate() {
                    let r = r as usize;
                    let dot = ra.dot_row(&self.ds.row(r));
                    let kv = self.finish(a, r, dot);
                    let sign = ys.map_or(1.0, |ys| f64::from(ya * ys[k]));
                    *o = (sign * kv) as f32;
                }
            }
        }
    }
}

/// `||x||^2` summed in index order (as LIBSVM's `dot(x, x)`).
fn sq_norm_ordered(r: Row<'_>) -> f64 {
    match r {
        Row::Dense(x) => x.iter().fold(0.0, |s, v| s + v * v),
        Row::Sparse(_, v) => v.iter().fold(0.0, |s, v| s + v * v),
    }
}

/// The kernel between two rows as LIBSVM's `k_function` computes it at
/// prediction time: the RBF distance is summed directly over the union of
/// the two index sets, in index order.
pub fn k_function(kind: KernelKind, x: Row<'_>, y: Row<'_>) -> f64 {
    match kind {
        KernelKind::Linear => x.dot_row(&y),
        KernelKind::Rbf { gamma } => {
            let sum = match (x, y) {
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
                (a, b) => {
                    let d = a_len(a).max(a_len(b));
                    let (da, db) = (a.to_dense(d), b.to_dense(d));
                    da.iter().zip(&db).fold(0.0, |s, (u, v)| {
                        let d = u - v;
                        s + d * d
                    })
                }
            };
            (-gamma * sum).exp()
        }
    }
}

fn a_len(r: Row<'_>) -> usize {
    match r {
        Row::Dense(x) => x.len(),
        Row::Sparse(i, _) => i.last().map_or(0, |&j| j as usize + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_matches_pairwise_eval() {
        let ds = Dataset {
            name: "synthetic-k".into(),
            x: Features::Sparse {
                d: 4,
                indptr: vec![0, 2, 3, 5],
                indices: vec![0, 2, 1, 0, 3],
                values: vec![1.0, -0.5, 2.0, 0.25, 1.5],
            },
            y: vec![1.0, -1.0, 1.0],
        };
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.3 });
        let mut out = vec![0f32; 3];
        let mut scratch = vec![0.0; 4];
        kd.fill_column(0, 1, &[0, 1, 2], Some(&[1, -1, 1]), &mut out, &mut scratch);
        for (k, &o) in out.iter().enumerate() {
            let s = if k == 1 { -1.0 } else { 1.0 };
            assert_eq!(o, (s * kd.eval(0, k)) as f32);
            let direct = k_function(kd.kind, ds.row(0), ds.row(k));
            assert!((direct - kd.eval(0, k)).abs() < 1e-12);
        }
        assert!(scratch.iter().all(|&v| v == 0.0));
    }

    #[test]
    fn compact_copy_gives_bit_identical_columns() {
        let ds = Dataset {
            name: "synthetic-k".into(),
            x: Features::Sparse {
                d: 5,
                indptr: vec![0, 2, 3, 5, 5, 8],
                indices: vec![0, 2, 1, 0, 3, 0, 2, 4],
                values: vec![1.0, -0.5, 2.0, 0.25, 1.5, 0.1, 0.7, -3.0],
            },
            y: vec![1.0, -1.0, 1.0, 1.0, -1.0],
        };
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.3 });
        let rows = [4u32, 0, 3, 2];
        let local = kd.compact(&rows);
        let ys = [1i8, -1, 1, -1];
        let mut scratch = vec![0.0; 5];
        for (p, &a) in rows.iter().enumerate() {
            let (mut want, mut got) = (vec![0f32; 4], vec![0f32; 4]);
            kd.fill_column(a as usize, ys[p], &rows, Some(&ys), &mut want, &mut scratch);
            let lrows = [0u32, 1, 2, 3];
            local.fill_column(p, ys[p], &lrows, Some(&ys), &mut got, &mut scratch);
            assert_eq!(
                want.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                got.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!(local.norms[p].to_bits(), kd.norms[a as usize].to_bits());
        }
    }
}
