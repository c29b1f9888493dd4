//! Every producer of kernel values, and this module's [`KernelData`]: a
//! dataset with its precomputed squared norms.
//!
//! Modules:
//! - `kind`: [`KernelKind`], the kernels' LIBSVM names, `-t` codes,
//!   model-file lines and dot-product formulas.
//! - `predict`: the kernels of prediction, as LIBSVM's `k_function`.
//! - `exp_table`: the RBF kernel's values of integer-valued data as a table.
//! - `fast_exp`: a vectorisable `exp` for the kernel blocks.
//! - `feature_span`: a sparse dataset's features renumbered to the stored ones.
//! - `block`: batched kernel blocks, many query rows against a fixed basis.
//! - `basis_rows`: the batched solver's working-set rows against every row.
//! - `product_tiles`: the whole matrix's tiles as matrix products.
//! - `lane_tile`: kernel sums of up to `TILE` rows at once, one lane per row.
//! - `matrix`: the whole kernel matrix into a shared cache.
//! - `cached_sums`: weighted kernel sums read from a shared cache's columns.
//! - `distances`: squared distances computed once, reused by every gamma.
//! - `fold_order`: a grid's rows in fold order and one gamma's kernel matrix.
//! - `precomputed`: LIBSVM's precomputed kernel (`-t 4`), its values read
//!   from the data by serial number, and the checks of its files.
//! - `tests`: this module's unit tests.
//!
//! Where each kind of kernel value is computed (no common trait: each
//! producer keeps its own loop order, which the numbers depend on):
//! - one value in training: [`KernelData::eval`] (and [`KernelData::diagonal`]);
//! - a kernel row (a column of `Q` for the SMO's caches):
//!   [`KernelData::fill_column`], [`KernelData::fill_column_par`];
//! - a block (queries × basis): [`block::KernelBlock::matrix`] and its
//!   weighted sums [`block::KernelBlock::weighted_sums`]; the batched
//!   solver's rows `basis_rows::kernel_rows`; tiles
//!   [`product_tiles::product_rows`] and [`lane_tile::Tile`];
//! - the whole matrix: [`matrix::fill_all`]; a grid's, one gamma at a time,
//!   [`fold_order::fill_kernel`] from [`distances::Distances`];
//! - a prediction's kernel value: [`predict::k_function`] (re-exported here);
//! - kernel sums from cached columns: [`cached_sums::weighted_sums`].
//!
//! The precomputed kernel ([`KernelKind::Precomputed`]) is no function of
//! dot products: every producer above either reads its values through
//! [`precomputed`] (one value, a column, the whole matrix, a block, the
//! batched solver's rows, prediction) or is never taken for it (the lane
//! tiles and matrix products of [`matrix`], the exp tables, the grid's
//! distances, the one-vs-one tiles and cached votes; the blocks' error
//! bounds are infinite for it, so every held-out label is LIBSVM's
//! prediction kernel's).
//!
//! This module:
//! Training uses LIBSVM's formula for the Gaussian kernel,
//! `K(x_i, x_j) = exp(-gamma (||x_i||^2 + ||x_j||^2 - 2 <x_i, x_j>))`,
//! with the squared norms computed once per dataset. Prediction uses the
//! direct squared distance, as LIBSVM's `k_function` does
//! ([`crate::svm::kernel::predict`], re-exported here), so decision values agree
//! with `svm-predict` to the last bit in the usual case.
//!
//! Sparse columns are computed by scattering `x_i` into a dense scratch
//! vector and taking sparse·dense products: the products and their order are
//! those of the sparse·sparse merge (the extra terms are exact zeros), so
//! the values are identical to LIBSVM's while the inner loop has no branches.

pub mod basis_rows;
pub mod block;
pub mod cached_sums;
pub mod distances;
pub mod exp_table;
pub mod fast_exp;
pub mod feature_span;
pub mod fold_order;
pub mod kind;
pub mod lane_tile;
pub mod matrix;
pub mod precomputed;
pub mod predict;
pub mod product_tiles;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::Arc;

use crate::data::{Dataset, Features, Row};
use crate::svm::kernel::exp_table::ExpTable;
use crate::svm::kernel::feature_span::{compact_features, FeatureMap};
use crate::svm::smo::sample_weight::SampleWeights;

pub use crate::svm::kernel::kind::KernelKind;
pub use crate::svm::kernel::predict::{direct_sq_dist, k_function};

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
    /// Kernel values computed in batched blocks ([`crate::svm::kernel::block`])
    /// over this data: prediction, seeders' similarities, held-out sums.
    block_evals: std::sync::atomic::AtomicU64,
    /// [`KernelData::feature_overlap`], computed on first use.
    overlap: std::sync::OnceLock<f64>,
    /// `K(x_i, x_i)` of every row ([`KernelData::diagonal`]), computed on
    /// first use.
    diag: std::sync::OnceLock<Vec<f64>>,
    /// The RBF kernel's values by integer squared distance, where the data
    /// allows it ([`ExpTable`]).
    exp_table: Option<ExpTable>,
    /// The original feature numbering where `ds` holds its features
    /// renumbered ([`compact_features`]).
    features: Option<Arc<FeatureMap>>,
    /// Per-row weights of C, where a training has them
    /// ([`KernelData::with_sample_weights`]).
    sample_weights: Option<SampleWeights>,
}

impl<'a> KernelData<'a> {
    /// Precompute the squared norms of every row. Dense data with at most
    /// [`SPARSE_DENSITY`] non-zero values is copied to CSR first: LIBSVM
    /// works on sparse vectors, and a dot product over the non-zeros is
    /// bit-identical to the dense one (the skipped terms are exact zeros) but
    /// several times cheaper on data like MNIST (19% non-zero).
    ///
    /// Sparse data whose feature indices span far more than the features
    /// its rows store is renumbered first ([`compact_features`]: same
    /// bits, memory following the non-zeros); models trained on it leave
    /// through [`KernelData::restore_features`].
    pub fn new(ds: &'a Dataset, kind: KernelKind) -> KernelData<'a> {
        let ds = match &ds.x {
            Features::Dense { values, .. }
                if (values.iter().filter(|&&v| v != 0.0).count() as f64)
                    <= SPARSE_DENSITY * values.len() as f64 =>
            {
                Cow::Owned(to_csr(ds))
            }
            _ => Cow::Borrowed(ds),
        };
        // The precomputed kernel reads features by their numbers (serial
        // numbers): never renumbered.
        let compacted = match kind {
            KernelKind::Precomputed => None,
            _ => compact_features(&ds),
        };
        let (ds, features) = match compacted {
            Some((c, map)) => (Cow::Owned(c), Some(Arc::new(map))),
            None => (ds, None),
        };
        let norms: Vec<f64> = (0..ds.n()).map(|i| sq_norm_ordered(ds.row(i))).collect();
        let exp_table = match kind {
            KernelKind::Rbf { gamma } => ExpTable::new(&ds, &norms, gamma),
            _ => None,
        };
        KernelData {
            ds,
            kind,
            norms,
            block_evals: Default::default(),
            overlap: Default::default(),
            diag: Default::default(),
            exp_table,
            features,
            sample_weights: None,
        }
    }

    /// The same data with per-row weights of C (scikit-learn's
    /// `sample_weight`, indexed by row of `ds`): every solve on it bounds
    /// row `r` by its class's C times `weights.of(r)`.
    pub fn with_sample_weights(mut self, weights: SampleWeights) -> KernelData<'a> {
        self.sample_weights = Some(weights);
        self
    }

    /// The per-row weights of C, where given.
    pub fn sample_weights(&self) -> Option<&SampleWeights> {
        self.sample_weights.as_ref()
    }

    /// Rows of this data's numbering (support vectors of a model trained
    /// on it) renumbered to the dataset's own feature indices, in place:
    /// every model that leaves the engine goes through this.
    pub fn restore_features(&self, rows: &mut Dataset) {
        if let Some(map) = &self.features {
            map.restore(rows);
        }
    }

    /// On sparse data, the expected number of features two random rows both
    /// store: `sum_f p_f^2`, with `p_f` the share of rows storing feature
    /// `f` (what a pair costs on an inverted index); `d` on dense data.
    /// Computed once.
    pub fn feature_overlap(&self) -> f64 {
        *self.overlap.get_or_init(|| match &self.ds.x {
            Features::Sparse { d, indices, .. } => {
                let n = self.ds.n().max(1) as f64;
                let mut count = vec![0u64; *d];
                for &j in indices {
                    count[j as usize] += 1;
                }
                count.iter().map(|&c| (c as f64 / n).powi(2)).sum()
            }
            Features::Dense { .. } => self.d() as f64,
        })
    }

    /// Kernel values computed in batched blocks over this data so far.
    pub fn block_evals(&self) -> u64 {
        self.block_evals.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Count `n` kernel values computed in a batched block.
    pub(crate) fn count_block_evals(&self, n: u64) {
        self.block_evals
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
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
            block_evals: Default::default(),
            overlap: Default::default(),
            diag: Default::default(),
            exp_table: self.exp_table.clone(),
            features: self.features.clone(),
            sample_weights: self.sample_weights.as_ref().map(|w| w.subset(&idx)),
        }
    }

    /// Whether the RBF kernel's values come from an [`ExpTable`].
    pub fn has_exp_table(&self) -> bool {
        self.exp_table.is_some()
    }

    /// The same data computing every kernel value with `exp` (for tests and
    /// measurements of the [`ExpTable`]).
    pub fn without_exp_table(mut self) -> KernelData<'a> {
        self.exp_table = None;
        self
    }

    /// Number of features.
    pub fn d(&self) -> usize {
        self.ds.d()
    }

    /// `K(x_a, x_b)` for rows `a`, `b` of the dataset (training formula).
    #[inline]
    pub fn eval(&self, a: usize, b: usize) -> f64 {
        if let KernelKind::Precomputed = self.kind {
            return precomputed::k(self.ds.row(a), self.ds.row(b));
        }
        let dot = self.ds.row(a).dot_row(&self.ds.row(b));
        self.finish(a, b, dot)
    }

    /// `K(x_r, x_r)` as [`KernelData::eval`] computes it (LIBSVM's `QD`),
    /// every row's computed once and kept.
    pub fn diagonal(&self, r: usize) -> f64 {
        self.diag
            .get_or_init(|| (0..self.ds.n()).map(|i| self.eval(i, i)).collect())[r]
    }

    /// Turn a dot product into the kernel value (LIBSVM's operation order).
    #[inline(always)]
    fn finish(&self, a: usize, b: usize, dot: f64) -> f64 {
        match self.kind {
            KernelKind::Rbf { gamma } => {
                (-gamma * (self.norms[a] + self.norms[b] - 2.0 * dot)).exp()
            }
            kind => kind.of_dot(dot),
        }
    }

    /// `out[k] = K(x_a, x_{rows[k]})` as `f32` from the dot products
    /// `dots[k]` (the training form, as [`KernelData::for_each_dot`] gives
    /// them; overwritten): the numbers of [`KernelData::fill_column`]
    /// without signs. Never called for the precomputed kernel.
    pub(crate) fn values_of_dots(
        &self,
        a: usize,
        rows: &[usize],
        dots: &mut [f64],
        out: &mut [f32],
    ) {
        debug_assert!(!self.kind.is_precomputed(), "no dot products");
        match self.kind {
            KernelKind::Rbf { gamma } => {
                let na = self.norms[a];
                for (d, &r) in dots.iter_mut().zip(rows) {
                    *d = na + self.norms[r] - 2.0 * *d;
                }
                self.exp_f32(gamma, dots, out);
            }
            kind => {
                for (o, &dot) in out.iter_mut().zip(dots.iter()) {
                    *o = kind.of_dot(dot) as f32;
                }
            }
        }
    }

    /// `out[k] = exp(-gamma dists[k])` in single precision, as the training
    /// form makes it (libm's `exp` rounded, or the integer data's table).
    pub(crate) fn exp_f32(&self, gamma: f64, dists: &[f64], out: &mut [f32]) {
        match &self.exp_table {
            Some(table) => table.fill(gamma, dists, out),
            None => fast_exp::exp_to_f32(-gamma, dists, out),
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
        if let KernelKind::Precomputed = self.kind {
            precomputed::fill_column(&self.ds, a, ya, rows, ys, out);
            return;
        }
        let KernelKind::Rbf { gamma } = self.kind else {
            let kind = self.kind;
            self.for_each_dot(a, rows, scratch, |k, dot| {
                let sign = ys.map_or(1.0, |ys| f64::from(ya * ys[k]));
                out[k] = (sign * kind.of_dot(dot)) as f32;
            });
            return;
        };
        // The squared distances in pieces on the stack, each piece
        // exponentiated by `exp_to_f32` (libm's `exp` of the same product,
        // rounded to single precision, to the bit; or read from the same
        // values' table on integer data, [`ExpTable`]) and then signed: the
        // numbers of `(sign * finish(..)) as f32`, since a sign flip is exact.
        let na = self.norms[a];
        let mut buf = [0.0f64; FILL_PIECE];
        let mut start = 0;
        let mut flush = |end: usize, buf: &[f64], out: &mut [f32]| {
            let o = &mut out[start..end];
            match &self.exp_table {
                Some(table) => table.fill(gamma, &buf[..end - start], o),
                None => fast_exp::exp_to_f32(-gamma, &buf[..end - start], o),
            }
            if let Some(ys) = ys {
                for (v, &y) in o.iter_mut().zip(&ys[start..end]) {
                    if ya * y < 0 {
                        *v = -*v;
                    }
                }
            }
            start = end;
        };
        self.for_each_dot(a, rows, scratch, |k, dot| {
            let t = k % FILL_PIECE;
            buf[t] = na + self.norms[rows[k] as usize] - 2.0 * dot;
            if t + 1 == FILL_PIECE {
                flush(k + 1, &buf, out);
            }
        });
        if !rows.len().is_multiple_of(FILL_PIECE) {
            flush(rows.len(), &buf, out);
        }
    }

    /// Call `f(k, <x_a, x_{rows[k]}>)` for every `k`, each dot product in
    /// LIBSVM's arithmetic (the products of the features both rows store,
    /// summed in index order: [`Row::dot_row`]'s numbers). Sparse rows go
    /// through `scratch` (length `d`, all zeros; left all zeros); dense rows
    /// four at a time, four independent sums each in index order, so that
    /// the adds of one row do not wait on each other's latency.
    pub fn for_each_dot(
        &self,
        a: usize,
        rows: &[u32],
        scratch: &mut [f64],
        mut f: impl FnMut(usize, f64),
    ) {
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
                if self.exp_table.is_some() {
                    // Integer data with small norms: every partial sum is an
                    // exact integer, so any order gives the same dot product;
                    // four sums at once do not wait on each other's latency.
                    for (k, &r) in rows.iter().enumerate() {
                        let r = r as usize;
                        let (s, e) = (indptr[r], indptr[r + 1]);
                        f(k, dot_exact(&indices[s..e], &values[s..e], scratch));
                    }
                } else {
                    for (k, &r) in rows.iter().enumerate() {
                        let r = r as usize;
                        let (s, e) = (indptr[r], indptr[r + 1]);
                        let mut dot = 0.0;
                        for (&j, &v) in indices[s..e].iter().zip(&values[s..e]) {
                            dot += scratch[j as usize] * v;
                        }
                        f(k, dot);
                    }
                }
                for &j in ia {
                    scratch[j as usize] = 0.0;
                }
            }
            (Features::Dense { .. }, Row::Dense(xa)) => {
                let dense = |r: u32| match self.ds.row(r as usize) {
                    Row::Dense(x) => x,
                    Row::Sparse(..) => unreachable!("dense features give dense rows"),
                };
                let mut k = 0;
                while k + 4 <= rows.len() {
                    let (x0, x1, x2, x3) = (
                        dense(rows[k]),
                        dense(rows[k + 1]),
                        dense(rows[k + 2]),
                        dense(rows[k + 3]),
                    );
                    let mut s = [0.0f64; 4];
                    for ((((&a, &b0), &b1), &b2), &b3) in xa.iter().zip(x0).zip(x1).zip(x2).zip(x3)
                    {
                        s[0] += a * b0;
                        s[1] += a * b1;
                        s[2] += a * b2;
                        s[3] += a * b3;
                    }
                    for (t, &dot) in s.iter().enumerate() {
                        f(k + t, dot);
                    }
                    k += 4;
                }
                for (k, &r) in rows.iter().enumerate().skip(k) {
                    f(k, Row::Dense(xa).dot_row(&self.ds.row(r as usize)));
                }
            }
            (_, ra) => {
                for (k, &r) in rows.iter().enumerate() {
                    f(k, ra.dot_row(&self.ds.row(r as usize)));
                }
            }
        }
    }
}

impl KernelData<'_> {
    /// Rows per piece of a column filled on several threads (see
    /// [`PAR_PIECE`]): fixed for a dataset, whatever the thread count.
    pub fn par_piece(&self) -> usize {
        let nnz = match &self.ds.x {
            Features::Sparse { indptr, .. } => indptr[self.ds.n()] / self.ds.n().max(1),
            Features::Dense { .. } => self.d(),
        };
        (PAR_PIECE * PAR_PIECE_NNZ / nnz.max(1)).clamp(MIN_PAR_PIECE, PAR_PIECE)
    }

    /// [`KernelData::fill_column`] on several threads: a long column is cut
    /// into fixed pieces of [`KernelData::par_piece`] rows that run on rayon, each with
    /// its own scratch vector. Every entry is computed exactly as
    /// `fill_column` computes it, so the column is bit-identical for any
    /// thread count. Short columns, and data so wide that a scratch vector
    /// per piece would cost more than the piece, stay on the calling thread.
    pub fn fill_column_par(
        &self,
        a: usize,
        ya: i8,
        rows: &[u32],
        ys: Option<&[i8]>,
        out: &mut [f32],
        scratch: &mut [f64],
    ) {
        let piece = self.par_piece();
        if rows.len() < 2 * piece || (self.ds.is_sparse() && self.d() > PAR_PIECE * 4) {
            self.fill_column(a, ya, rows, ys, out, scratch);
            return;
        }
        use rayon::prelude::*;
        out.par_chunks_mut(piece)
            .zip(rows.par_chunks(piece))
            .enumerate()
            .for_each_init(
                || vec![0.0; self.d()],
                |sc, (p, (o, r))| {
                    let ys = ys.map(|ys| &ys[p * piece..p * piece + r.len()]);
                    self.fill_column(a, ya, r, ys, o, sc);
                },
            );
    }
}

/// `sum_t scratch[idx_t] * val_t` in four interleaved sums: exact, and so
/// equal to the sum in index order, only where every partial sum is an
/// integer below 2^53 (the data of an [`ExpTable`]).
#[inline(always)]
fn dot_exact(idx: &[u32], val: &[f64], scratch: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ic, it) = idx.split_at(idx.len() / 4 * 4);
    let (vc, vt) = val.split_at(ic.len());
    for (i4, v4) in ic.chunks_exact(4).zip(vc.chunks_exact(4)) {
        for l in 0..4 {
            acc[l] += scratch[i4[l] as usize] * v4[l];
        }
    }
    for (&j, &v) in it.iter().zip(vt) {
        acc[0] += scratch[j as usize] * v;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

/// Kernel values per piece of [`KernelData::fill_column`]'s stack buffer.
const FILL_PIECE: usize = 256;

/// Rows per piece of a column filled on several threads
/// ([`KernelData::fill_column_par`]) on data with at most
/// [`PAR_PIECE_NNZ`] values per row; wider rows get proportionally shorter
/// pieces (at least [`MIN_PAR_PIECE`] rows), so that a piece is about the
/// same work on any data.
pub const PAR_PIECE: usize = 4096;

/// Values per row up to which a piece has [`PAR_PIECE`] rows.
pub const PAR_PIECE_NNZ: usize = 16;

/// The fewest rows of a piece of a column filled on several threads.
pub const MIN_PAR_PIECE: usize = 64;

/// Dense data with at most this share of non-zero values is stored as CSR
/// for kernel computations (see [`KernelData::new`]).
pub const SPARSE_DENSITY: f64 = 0.5;

/// The same rows in CSR form (zeros dropped), same name and labels.
pub(super) fn to_csr(ds: &Dataset) -> Dataset {
    let d = ds.d();
    let mut indptr = Vec::with_capacity(ds.n() + 1);
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    indptr.push(0);
    for i in 0..ds.n() {
        if let Row::Dense(x) = ds.row(i) {
            for (j, &v) in x.iter().enumerate() {
                if v != 0.0 {
                    indices.push(j as u32);
                    values.push(v);
                }
            }
        }
        indptr.push(indices.len());
    }
    Dataset {
        index_base: ds.index_base,
        name: ds.name.clone(),
        x: Features::Sparse {
            d,
            indptr,
            indices,
            values,
        },
        y: ds.y.clone(),
    }
}

/// `||x||^2` summed in index order (as LIBSVM's `dot(x, x)`).
pub(super) fn sq_norm_ordered(r: Row<'_>) -> f64 {
    match r {
        Row::Dense(x) => x.iter().fold(0.0, |s, v| s + v * v),
        Row::Sparse(_, v) => v.iter().fold(0.0, |s, v| s + v * v),
    }
}
