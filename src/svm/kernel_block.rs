//! Batched kernel blocks: the kernel values of many query rows against one
//! fixed set of basis rows of a [`KernelData`], computed as blocks instead of
//! pair by pair.
//!
//! Everything outside the SMO loop that needs many kernel values at once goes
//! through a [`KernelBlock`]: prediction of a held-out fold (queries = the
//! fold, basis = the support vectors), the seeders' similarities (SIR's
//! `K(R, T)`), the seed's gradient update (queries = the next round's rows,
//! basis = the rows whose alpha changed) and the held-out sums of joining
//! rows.
//!
//! The dot products are computed by data shape:
//! - **sparse** data (CSR, e.g. a9a, w8a, MNIST): through a feature-major
//!   (inverted) index of the basis rows, so a query walks only the basis
//!   entries of its own non-zero features. For one (query, basis row) pair
//!   the products are those of the sparse·sparse merge, added in increasing
//!   feature order (the other terms are exact zeros), so every value is
//!   bit-identical to [`KernelData::eval`];
//! - **dense** data (e.g. madelon): a matrix product (faer, sequential inside
//!   one block of queries).
//!
//! Squared norms come from [`KernelData::norms`] (computed once per
//! dataset). Queries are cut into fixed blocks of [`QUERY_BLOCK`] rows that
//! run on rayon, and every sum over the basis runs in basis order inside one
//! block, so the results are bit-identical for any thread count.

use rayon::prelude::*;

use super::kernel::{KernelData, KernelKind};
use crate::data::{Features, Row};

/// Query rows per block (the unit of parallel work).
pub const QUERY_BLOCK: usize = 32;

/// The basis rows of a block in the layout that suits the data.
#[derive(Debug)]
enum Layout {
    /// Feature `f` holds entries `ptr[f]..ptr[f + 1]` of `(pos, val)`: the
    /// basis positions with a non-zero value of `f`, in increasing position.
    Inverted {
        ptr: Vec<usize>,
        pos: Vec<u32>,
        val: Vec<f64>,
    },
    /// The basis rows as the columns of a `d × s` matrix.
    Dense { bt: faer::Mat<f64> },
}

/// A fixed set of basis rows of a [`KernelData`], ready to give the kernel
/// values of any query rows against all of them (see the module doc).
#[derive(Debug)]
pub struct KernelBlock<'k> {
    kd: &'k KernelData<'k>,
    basis: Vec<u32>,
    basis_norms: Vec<f64>,
    /// Most non-zero values of one basis row (`d` for dense data).
    max_nnz: usize,
    layout: Layout,
}

/// Two weighted kernel sums of one query row over the basis, and a bound on
/// how far the first may be from the same sum computed with LIBSVM's
/// prediction kernel ([`super::kernel::k_function`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WeightedSums {
    /// `sum_k w1_k K(q, b_k)`.
    pub s1: f64,
    /// `sum_k w2_k K(q, b_k)` (0 without second weights).
    pub s2: f64,
    /// An upper bound on `|s1 - s1_libsvm|`.
    pub err1: f64,
}

impl<'k> KernelBlock<'k> {
    /// A block over `basis` (dataset rows of `kd`).
    pub fn new(kd: &'k KernelData<'k>, basis: Vec<u32>) -> KernelBlock<'k> {
        let basis_norms = basis.iter().map(|&b| kd.norms[b as usize]).collect();
        let (layout, max_nnz) = match &kd.ds.x {
            Features::Sparse {
                d,
                indptr,
                indices,
                values,
            } => {
                let mut count = vec![0usize; d + 1];
                let mut max_nnz = 0;
                for &b in &basis {
                    let (s, e) = (indptr[b as usize], indptr[b as usize + 1]);
                    max_nnz = max_nnz.max(e - s);
                    for &j in &indices[s..e] {
                        count[j as usize + 1] += 1;
                    }
                }
                for f in 0..*d {
                    count[f + 1] += count[f];
                }
                let nnz = count[*d];
                let mut next = count.clone();
                let (mut pos, mut val) = (vec![0u32; nnz], vec![0.0; nnz]);
                for (k, &b) in basis.iter().enumerate() {
                    let (s, e) = (indptr[b as usize], indptr[b as usize + 1]);
                    for (&j, &v) in indices[s..e].iter().zip(&values[s..e]) {
                        let slot = &mut next[j as usize];
                        pos[*slot] = k as u32;
                        val[*slot] = v;
                        *slot += 1;
                    }
                }
                (
                    Layout::Inverted {
                        ptr: count,
                        pos,
                        val,
                    },
                    max_nnz,
                )
            }
            Features::Dense { d, .. } => {
                let bt = faer::Mat::from_fn(*d, basis.len(), |j, k| {
                    match kd.ds.row(basis[k] as usize) {
                        Row::Dense(x) => x[j],
                        Row::Sparse(..) => 0.0,
                    }
                });
                (Layout::Dense { bt }, *d)
            }
        };
        KernelBlock {
            kd,
            basis,
            basis_norms,
            max_nnz,
            layout,
        }
    }

    /// The basis rows.
    pub fn basis(&self) -> &[u32] {
        &self.basis
    }

    /// Number of basis rows.
    pub fn len(&self) -> usize {
        self.basis.len()
    }

    /// Whether the basis is empty.
    pub fn is_empty(&self) -> bool {
        self.basis.is_empty()
    }

    /// `out[i * s + k] = <x_{queries[i]}, b_k>` for one block of queries.
    fn dots(&self, queries: &[usize], out: &mut [f64]) {
        let s = self.basis.len();
        debug_assert_eq!(out.len(), queries.len() * s);
        match &self.layout {
            Layout::Inverted { ptr, pos, val } => {
                for (i, &q) in queries.iter().enumerate() {
                    let acc = &mut out[i * s..(i + 1) * s];
                    acc.fill(0.0);
                    if let Row::Sparse(ix, vx) = self.kd.ds.row(q) {
                        for (&j, &x) in ix.iter().zip(vx) {
                            let (a, b) = (ptr[j as usize], ptr[j as usize + 1]);
                            for (&p, &v) in pos[a..b].iter().zip(&val[a..b]) {
                                acc[p as usize] += x * v;
                            }
                        }
                    }
                }
            }
            Layout::Dense { bt } => {
                let d = bt.nrows();
                let qm =
                    faer::Mat::from_fn(queries.len(), d, |i, j| match self.kd.ds.row(queries[i]) {
                        Row::Dense(x) => x[j],
                        Row::Sparse(..) => 0.0,
                    });
                let mut dst = faer::Mat::<f64>::zeros(queries.len(), s);
                faer::linalg::matmul::matmul(
                    dst.as_mut(),
                    faer::Accum::Replace,
                    qm.as_ref(),
                    bt.as_ref(),
                    1.0,
                    faer::Par::Seq,
                );
                for i in 0..queries.len() {
                    for k in 0..s {
                        out[i * s + k] = dst[(i, k)];
                    }
                }
            }
        }
    }

    /// Kernel values (LIBSVM's training formula) of one block of queries,
    /// row-major `queries.len() × s`.
    fn kernels(&self, queries: &[usize], out: &mut [f64]) {
        self.kd
            .count_block_evals((queries.len() * self.basis.len()) as u64);
        self.dots(queries, out);
        if let KernelKind::Rbf { gamma } = self.kd.kind {
            let s = self.basis.len();
            for (i, &q) in queries.iter().enumerate() {
                let nq = self.kd.norms[q];
                for (o, &nb) in out[i * s..(i + 1) * s].iter_mut().zip(&self.basis_norms) {
                    *o = (-gamma * (nq + nb - 2.0 * *o)).exp();
                }
            }
        }
    }

    /// The kernel matrix `K(queries, basis)`, row-major, computed in parallel
    /// blocks. Each value is bit-identical to [`KernelData::eval`] on sparse
    /// data.
    pub fn matrix(&self, queries: &[usize]) -> Vec<f64> {
        let s = self.basis.len();
        let mut out = vec![0.0; queries.len() * s];
        if s == 0 {
            return out;
        }
        out.par_chunks_mut(QUERY_BLOCK * s)
            .zip(queries.par_chunks(QUERY_BLOCK))
            .for_each(|(o, q)| self.kernels(q, o));
        out
    }

    /// For every query row, `sum_k w1_k K(q, b_k)` and `sum_k w2_k K(q, b_k)`
    /// summed in basis order, with the error bound of the first (see
    /// [`WeightedSums`]). `w1` and `w2` (if given) have one weight per basis
    /// row.
    pub fn weighted_sums(
        &self,
        queries: &[usize],
        w1: &[f64],
        w2: Option<&[f64]>,
    ) -> Vec<WeightedSums> {
        let s = self.basis.len();
        debug_assert_eq!(w1.len(), s);
        let mut out = vec![WeightedSums::default(); queries.len()];
        if s == 0 {
            return out;
        }
        out.par_chunks_mut(QUERY_BLOCK)
            .zip(queries.par_chunks(QUERY_BLOCK))
            .for_each_init(
                || vec![0.0; QUERY_BLOCK * s],
                |buf, (o, q)| {
                    let kv = &mut buf[..q.len() * s];
                    self.kernels(q, kv);
                    for (i, (os, &qr)) in o.iter_mut().zip(q).enumerate() {
                        let row = &kv[i * s..(i + 1) * s];
                        *os = self.sums_of_row(qr, row, w1, w2);
                    }
                },
            );
        out
    }

    /// The sums and bound of one query row from its kernel row.
    fn sums_of_row(&self, q: usize, row: &[f64], w1: &[f64], w2: Option<&[f64]>) -> WeightedSums {
        let nq = self.kd.norms[q];
        let (mut s1, mut s2, mut spread, mut mag) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for (k, (&kv, &w)) in row.iter().zip(w1).enumerate() {
            s1 += w * kv;
            let scale = match self.kd.kind {
                KernelKind::Rbf { .. } => kv.abs(),
                KernelKind::Linear => 1.0,
            };
            spread += w.abs() * scale * (nq + self.basis_norms[k]);
            mag += (w * kv).abs();
        }
        if let Some(w2) = w2 {
            for (&kv, &w) in row.iter().zip(w2) {
                s2 += w * kv;
            }
        }
        WeightedSums {
            s1,
            s2,
            err1: self.error_bound(q, spread, mag),
        }
    }

    /// A generous bound on the difference between a weighted kernel sum
    /// computed here (norms and dot products, any summation order) and the
    /// same sum computed with LIBSVM's prediction kernel (direct squared
    /// distance): both squared distances are within `(2m + 8) eps (||q||^2 +
    /// ||b||^2)` of the true one for `m` terms, the exponential adds a
    /// relative `gamma` times that, and each sum of `s` terms a relative
    /// `s eps`; the result is multiplied by 4 for safety.
    fn error_bound(&self, q: usize, spread: f64, mag: f64) -> f64 {
        let m = (match self.kd.ds.row(q) {
            Row::Sparse(ix, _) => ix.len(),
            Row::Dense(x) => x.len(),
        } + self.max_nnz) as f64;
        let eps = f64::EPSILON;
        let s = self.basis.len() as f64;
        let dist = 2.0 * (2.0 * m + 8.0) * eps * spread;
        let dist = match self.kd.kind {
            KernelKind::Rbf { gamma } => gamma * dist,
            KernelKind::Linear => dist,
        };
        4.0 * (dist + (4.0 + 2.0 * (s + 1.0)) * eps * mag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::k_function;

    fn sparse() -> Dataset {
        Dataset {
            name: "synthetic-block".into(),
            x: Features::Sparse {
                d: 6,
                indptr: vec![0, 2, 3, 5, 5, 8, 10],
                indices: vec![0, 2, 1, 0, 3, 0, 2, 4, 1, 5],
                values: vec![1.0, -0.5, 2.0, 0.25, 1.5, 0.1, 0.7, -3.0, 0.3, 0.9],
            },
            y: vec![1.0, -1.0, 1.0, 1.0, -1.0, 1.0],
        }
    }

    fn dense() -> Dataset {
        let rows: Vec<Vec<f64>> = (0..7)
            .map(|i| {
                (0..5)
                    .map(|j| ((i * 5 + j) as f64 * 0.37).sin() + 0.1)
                    .collect()
            })
            .collect();
        Dataset::from_dense_rows("synthetic-dense-block", &rows, vec![1.0; 7])
    }

    #[test]
    fn sparse_matrix_is_bit_identical_to_eval() {
        let ds = sparse();
        for kind in [KernelKind::Rbf { gamma: 0.4 }, KernelKind::Linear] {
            let kd = KernelData::new(&ds, kind);
            let block = KernelBlock::new(&kd, vec![4, 0, 3, 5]);
            let q = [0usize, 1, 2, 3, 4, 5];
            let m = block.matrix(&q);
            // Every value of the block is counted on the data.
            assert_eq!(kd.block_evals(), 24);
            block.weighted_sums(&q[..2], &[1.0; 4], None);
            assert_eq!(kd.block_evals(), 32);
            for (i, &a) in q.iter().enumerate() {
                for (k, &b) in block.basis().iter().enumerate() {
                    assert_eq!(m[i * 4 + k].to_bits(), kd.eval(a, b as usize).to_bits());
                }
            }
        }
    }

    #[test]
    fn dense_matrix_matches_eval_and_sums_bound_the_libsvm_sum() {
        let ds = dense();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.3 });
        assert!(!kd.ds.is_sparse());
        let block = KernelBlock::new(&kd, vec![1, 3, 6]);
        let q: Vec<usize> = (0..7).collect();
        let m = block.matrix(&q);
        let w = [0.5, -1.25, 2.0];
        let sums = block.weighted_sums(&q, &w, Some(&[1.0, 0.0, 1.0]));
        for &a in &q {
            let mut exact = 0.0;
            for (k, &b) in block.basis().iter().enumerate() {
                assert!((m[a * 3 + k] - kd.eval(a, b as usize)).abs() < 1e-12);
                exact += w[k] * k_function(kd.kind, ds.row(a), ds.row(b as usize));
            }
            assert!((sums[a].s1 - exact).abs() <= sums[a].err1);
            assert!(sums[a].err1 > 0.0 && sums[a].err1 < 1e-9);
            let s2 = m[a * 3] + m[a * 3 + 2];
            assert!((sums[a].s2 - s2).abs() < 1e-12);
        }
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let ds = sparse();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.4 });
        let block = KernelBlock::new(&kd, vec![0, 1, 2, 3, 4, 5]);
        let q: Vec<usize> = (0..200).map(|i| (i * 7) % 6).collect();
        let w: Vec<f64> = (0..6).map(|k| k as f64 - 2.5).collect();
        let run = |t: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
                .install(|| block.weighted_sums(&q, &w, None))
        };
        assert_eq!(run(1), run(3));
    }
}
