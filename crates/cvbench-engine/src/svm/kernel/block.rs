//! Batched kernel blocks: the kernel values of many query rows against one
//! fixed set of basis rows of a [`KernelData`], computed as blocks instead of
//! pair by pair.
//!
//! Everything outside the SMO loop that needs many kernel values at once goes
//! through a [`KernelBlock`]: prediction of a held-out fold (queries = the
//! fold, basis = the support vectors), the seeders' similarities (SIR's
//! `K(R, T)`), the seed's gradient update (queries = the next round's rows,
//! basis = the rows whose alpha changed) and the held-out sums of joining
//! rows. (With a shared kernel cache, the held-out labels of data with many
//! non-zeros per row read the cached columns instead:
//! [`crate::svm::kernel::cached_sums`].)
//!
//! The dot products are computed by data shape:
//! - **sparse** data (CSR, e.g. a9a, w8a): through a feature-major
//!   (inverted) index of the basis rows, so a query walks only the basis
//!   entries of its own non-zero features, and for weighted sums along a
//!   step of queries ([`along`]). For one (query, basis row) pair the
//!   products are those of the sparse·sparse merge, added in increasing
//!   feature order (the other terms are exact zeros), so every value is
//!   bit-identical to [`KernelData::eval`];
//! - **dense** data (e.g. madelon), and sparse basis rows with more than
//!   [`DENSE_BLOCK_DENSITY`] of their values non-zero (e.g. MNIST): a matrix product
//!   (faer, sequential inside one block of queries).
//!
//! Squared norms come from [`KernelData::norms`] (computed once per
//! dataset). Queries are cut into fixed blocks of [`QUERY_BLOCK`] rows that
//! run on rayon, and every sum over the basis runs in basis order inside one
//! block, so the results are bit-identical for any thread count.

use rayon::prelude::*;

mod along;

use crate::data::{Features, Row};
use crate::svm::kernel::fast_exp::{self, FAST_EXP_REL_ERROR};
use crate::svm::kernel::{precomputed, KernelData, KernelKind};

/// Query rows per block (the unit of parallel work).
pub const QUERY_BLOCK: usize = 32;

/// `exp(x)` is exactly 0 for every `x` below this (the smallest subnormal is
/// `exp(-744.44)`; values below `exp(-745.14)` round to 0), with a margin.
const EXP_ZERO_BELOW: f64 = -746.0;

/// Sparse basis rows with more than this share of non-zero values (of `d`)
/// go through a dense matrix product: the inverted index's scattered adds
/// cost about `d rho^2` per (query, basis) pair against the product's `d`
/// vectorised multiply-adds. Measured on this project's machine (SIR, shared
/// cache, k = 10, 2 threads): at a9a's 11% the inverted index is twice as
/// fast (seeding 3.1 s against 6.3 s), at MNIST's 19% the product is faster
/// (prediction 0.41 s against 0.70 s, seeding 0.79 s against 1.05 s).
pub const DENSE_BLOCK_DENSITY: f64 = 0.15;

/// Whether sparse basis rows are dense enough for the matrix product
/// ([`DENSE_BLOCK_DENSITY`]).
pub(crate) fn dense_enough(indptr: &[usize], basis: &[u32], d: usize) -> bool {
    let nnz: usize = basis
        .iter()
        .map(|&b| indptr[b as usize + 1] - indptr[b as usize])
        .sum();
    nnz as f64 > DENSE_BLOCK_DENSITY * (d * basis.len()) as f64
}

/// Write a row into a zeroed dense slice of length `d`.
pub(crate) fn scatter_row(row: Row<'_>, out: &mut [f64]) {
    match row {
        Row::Dense(x) => out[..x.len()].copy_from_slice(x),
        Row::Sparse(ix, vx) => {
            for (&j, &v) in ix.iter().zip(vx) {
                out[j as usize] = v;
            }
        }
    }
}

/// A bound on any zero or subnormal kernel value (above the largest
/// subnormal).
const SUBNORMAL_BOUND: f64 = f64::MIN_POSITIVE;

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
    /// The precomputed kernel: each basis row's serial number, at which a
    /// query's value is read ([`crate::svm::kernel::precomputed`]).
    Precomputed { serials: Vec<usize> },
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
/// prediction kernel ([`crate::svm::kernel::k_function`]).
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
            _ if kd.kind.is_precomputed() => {
                let serials = basis
                    .iter()
                    .map(|&b| precomputed::serial(kd.ds.row(b as usize)))
                    .collect();
                (Layout::Precomputed { serials }, 0)
            }
            Features::Sparse {
                d,
                indptr,
                indices,
                values,
            } if !dense_enough(indptr, &basis, *d) => {
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
            _ => {
                let d = kd.d();
                let mut bt = faer::Mat::<f64>::zeros(d, basis.len());
                for (k, &b) in basis.iter().enumerate() {
                    scatter_row(
                        kd.ds.row(b as usize),
                        bt.col_mut(k)
                            .try_as_col_major_mut()
                            .expect("a fresh matrix is column-major")
                            .as_slice_mut(),
                    );
                }
                (Layout::Dense { bt }, d)
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

    /// `out[i * s + k] = <x_{queries[i]}, b_k>` for one block of queries
    /// (the precomputed kernel: `K(x_{queries[i]}, b_k)` itself).
    fn dots(&self, queries: &[usize], out: &mut [f64]) {
        let s = self.basis.len();
        debug_assert_eq!(out.len(), queries.len() * s);
        match &self.layout {
            Layout::Precomputed { serials } => {
                for (i, &q) in queries.iter().enumerate() {
                    let xq = self.kd.ds.row(q);
                    for (o, &sb) in out[i * s..(i + 1) * s].iter_mut().zip(serials) {
                        *o = precomputed::value_at(xq, sb);
                    }
                }
            }
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
                // Queries as the columns of a `d × q` matrix (a contiguous
                // copy per query), multiplied transposed.
                let mut qt = faer::Mat::<f64>::zeros(d, queries.len());
                for (i, &q) in queries.iter().enumerate() {
                    scatter_row(
                        self.kd.ds.row(q),
                        qt.col_mut(i)
                            .try_as_col_major_mut()
                            .expect("a fresh matrix is column-major")
                            .as_slice_mut(),
                    );
                }
                let qm = qt.transpose();
                let mut dst = faer::Mat::<f64>::zeros(queries.len(), s);
                faer::linalg::matmul::matmul(
                    dst.as_mut(),
                    faer::Accum::Replace,
                    qm,
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

    /// One block of queries, row-major `queries.len() × s`: for the RBF
    /// kernel the exponent `-gamma (||q||^2 + ||b||^2 - 2 <q, b>)` of every
    /// kernel value (LIBSVM's training formula; the caller applies `exp`),
    /// for the linear kernel the kernel value itself.
    pub(crate) fn exponents(&self, queries: &[usize], out: &mut [f64]) {
        self.kd
            .count_block_evals((queries.len() * self.basis.len()) as u64);
        self.dots(queries, out);
        if let KernelKind::Rbf { gamma } = self.kd.kind {
            let s = self.basis.len();
            for (i, &q) in queries.iter().enumerate() {
                let nq = self.kd.norms[q];
                for (o, &nb) in out[i * s..(i + 1) * s].iter_mut().zip(&self.basis_norms) {
                    *o = -gamma * (nq + nb - 2.0 * *o);
                }
            }
        }
    }

    /// The kernel value of an entry of [`KernelBlock::exponents`] (libm's
    /// `exp` for the RBF kernel).
    #[inline(always)]
    pub fn value(&self, e: f64) -> f64 {
        match self.kd.kind {
            KernelKind::Rbf { .. } => e.exp(),
            KernelKind::Precomputed => e,
            kind => kind.of_dot(e),
        }
    }

    /// [`KernelBlock::matrix`] before the kernel function: the RBF exponents
    /// or the dot products, row-major, computed in parallel blocks
    /// ([`KernelBlock::value`] of an entry is the matrix's).
    pub fn exponent_matrix(&self, queries: &[usize]) -> Vec<f64> {
        let s = self.basis.len();
        let mut out = vec![0.0; queries.len() * s];
        if s > 0 {
            out.par_chunks_mut(QUERY_BLOCK * s)
                .zip(queries.par_chunks(QUERY_BLOCK))
                .for_each(|(o, q)| self.exponents(q, o));
        }
        out
    }

    /// The kernel matrix `K(queries, basis)`, row-major, computed in parallel
    /// blocks. Each value is bit-identical to [`KernelData::eval`] on sparse
    /// data.
    pub fn matrix(&self, queries: &[usize]) -> Vec<f64> {
        let mut out = self.exponent_matrix(queries);
        out.par_iter_mut().for_each(|v| *v = self.value(*v));
        out
    }

    /// [`KernelBlock::weighted_sums`] without the bound (every `err1`
    /// infinite), for sums that are a seed's gradient rather than a
    /// decision: the same `s1` and `s2` to the bit, on sparse data without
    /// the bound's terms.
    pub fn unbounded_sums(&self, queries: &[usize], w1: &[f64], w2: &[f64]) -> Vec<WeightedSums> {
        let mut out = if matches!(self.layout, Layout::Inverted { .. }) && !self.basis.is_empty() {
            self.weighted_sums_along(queries, w1, Some(w2), false)
        } else {
            self.weighted_sums(queries, w1, Some(w2))
        };
        out.iter_mut().for_each(|o| o.err1 = f64::INFINITY);
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
        if matches!(self.layout, Layout::Inverted { .. }) {
            return self.weighted_sums_along(queries, w1, w2, true);
        }
        out.par_chunks_mut(QUERY_BLOCK)
            .zip(queries.par_chunks(QUERY_BLOCK))
            .for_each_init(
                || (vec![0.0; QUERY_BLOCK * s], vec![0.0; QUERY_BLOCK * s]),
                |(ebuf, vbuf), (o, q)| {
                    let (ex, kv) = (&mut ebuf[..q.len() * s], &mut vbuf[..q.len() * s]);
                    self.exponents(q, ex);
                    kv.copy_from_slice(ex);
                    match self.kd.kind {
                        KernelKind::Rbf { .. } => fast_exp::exp_in_place(kv),
                        KernelKind::Precomputed => {}
                        kind => kv.iter_mut().for_each(|v| *v = kind.of_dot(*v)),
                    }
                    for (i, (os, &qr)) in o.iter_mut().zip(q).enumerate() {
                        let rows = i * s..(i + 1) * s;
                        *os = self.sums_of_row(qr, &ex[rows.clone()], &kv[rows], w1, w2);
                    }
                },
            );
        out
    }

    /// The sums and bound of one query row from its row of
    /// [`KernelBlock::exponents`] and the kernel values made from them (with
    /// [`fast_exp`], whose error the bound includes).
    ///
    /// An RBF value that is zero or subnormal here may be a (different)
    /// subnormal in LIBSVM's arithmetic; it adds a bound of its own unless
    /// its exponent lies so far below `exp`'s underflow threshold, beyond the
    /// exponent's own error, that both computations give exactly 0. So a
    /// bound of exactly 0 means the sum is LIBSVM's to the bit.
    fn sums_of_row(
        &self,
        q: usize,
        exps: &[f64],
        vals: &[f64],
        w1: &[f64],
        w2: Option<&[f64]>,
    ) -> WeightedSums {
        let nq = self.kd.norms[q];
        let (mut s1, mut s2, mut spread, mut mag, mut tiny) =
            (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let dist_eps = 4.0 * self.dist_rel_error(q);
        for (k, ((&e, &kv), &w)) in exps.iter().zip(vals).zip(w1).enumerate() {
            s1 += w * kv;
            if let Some(w2) = w2 {
                s2 += w2[k] * kv;
            }
            let scale = match self.kd.kind {
                KernelKind::Rbf { gamma } => {
                    if kv < f64::MIN_POSITIVE
                        && w != 0.0
                        && e >= EXP_ZERO_BELOW - gamma * dist_eps * (nq + self.basis_norms[k])
                    {
                        tiny += w.abs() * SUBNORMAL_BOUND;
                    }
                    kv.abs()
                }
                _ => 1.0,
            };
            spread += w.abs() * scale * (nq + self.basis_norms[k]);
            mag += (w * kv).abs();
        }
        WeightedSums {
            s1,
            s2,
            err1: self.error_bound(q, spread, mag) + tiny,
        }
    }

    /// See [`dist_rel_error`].
    fn dist_rel_error(&self, q: usize) -> f64 {
        dist_rel_error(self.kd, q, self.max_nnz)
    }

    /// See [`sum_error_bound`].
    fn error_bound(&self, q: usize, spread: f64, mag: f64) -> f64 {
        sum_error_bound(self.kd, q, self.max_nnz, self.basis.len(), spread, mag)
            + FAST_EXP_REL_ERROR * mag
    }
}

/// `2 (2m + 8) eps` for the `m` terms of a squared distance between query
/// `q` and a basis row with at most `max_nnz` non-zero values: times
/// `||q||^2 + ||b||^2`, a bound on the error of that distance in either
/// computation.
fn dist_rel_error(kd: &KernelData<'_>, q: usize, max_nnz: usize) -> f64 {
    let m = (kd.ds.row(q).stored() + max_nnz) as f64;
    2.0 * (2.0 * m + 8.0) * f64::EPSILON
}

/// A generous bound on the difference between a weighted sum of `s` kernel
/// values over basis rows of at most `max_nnz` non-zeros, computed from
/// norms and dot products in any summation order, and the same sum computed
/// with LIBSVM's prediction kernel (direct squared distance): both squared
/// distances are within `(2m + 8) eps (||q||^2 + ||b||^2)` of the true one
/// for `m` terms, the exponential adds a relative `gamma` times that
/// (`spread` = `sum_k |w_k K_k| (||q||^2 + ||b_k||^2)`, or without `K_k` for
/// the linear kernel), and each sum of `s` terms a relative `s eps` of
/// `mag` = `sum_k |w_k K_k|`; the result is multiplied by 4 for safety.
pub(crate) fn sum_error_bound(
    kd: &KernelData<'_>,
    q: usize,
    max_nnz: usize,
    s: usize,
    spread: f64,
    mag: f64,
) -> f64 {
    let eps = f64::EPSILON;
    let dist = dist_rel_error(kd, q, max_nnz) * spread;
    let dist = match kd.kind {
        KernelKind::Rbf { gamma } => gamma * dist,
        KernelKind::Linear => dist,
        // No bound for these: every label is recomputed with LIBSVM's kernel.
        KernelKind::Poly { .. } | KernelKind::Sigmoid { .. } | KernelKind::Precomputed => {
            return f64::INFINITY
        }
    };
    4.0 * (dist + (4.0 + 2.0 * (s as f64 + 1.0)) * eps * mag)
}

#[cfg(test)]
mod tests;
