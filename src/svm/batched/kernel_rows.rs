//! The kernel values of the working-set rows that the batched solver does
//! not hold (a basis) against every query row, one `f32` row per basis row,
//! in jobs on the rayon pool whose shapes follow from the inputs alone (so
//! a value never depends on how many jobs run at once):
//!
//! - **Sparse** data whose basis rows are not dense
//!   ([`crate::svm::kernel_block::dense_enough`]): jobs of [`BASIS_CHUNK`]
//!   basis rows, each scattered into a small dense `d × s` matrix,
//!   feature-major; each query adds `x_qj * B[j, :]` for its non-zero
//!   features `j` only: `s` products per stored value of the query, in vector
//!   lanes (a9a: 14 values per row, 123 features).
//! - **Dense** data and dense-enough sparse data: jobs of
//!   [`DENSE_QUERY_BLOCK`] queries, each one matrix product against the
//!   whole basis ([`KernelBlock`]).
//!
//! RBF values are `exp(-gamma (||q||^2 + ||b||^2 - 2 <q, b>))`, LIBSVM's
//! training formula, with [`fast_exp`] (within a few units in the last place
//! of `exp`, before the rounding to `f32`).

use std::sync::Arc;

use rayon::prelude::*;

use crate::data::{Features, Row};
use crate::svm::fast_exp;
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::kernel_block::{dense_enough, KernelBlock};

/// Basis rows per job.
pub(super) const BASIS_CHUNK: usize = 64;

/// Queries per step of one job (the exponents of a step go through `exp`
/// together).
const QUERY_STEP: usize = 256;

/// Queries per job of the dense path (one matrix product each).
const DENSE_QUERY_BLOCK: usize = 512;

/// `K(b, q)` for every `b` of `basis` and `q` of `queries`, one row per
/// basis row, on the rayon pool: sparse data in jobs of [`BASIS_CHUNK`]
/// basis rows over all queries, dense data in jobs of
/// [`DENSE_QUERY_BLOCK`] queries against the whole basis (one matrix
/// product each, so the queries are packed once per basis, not once per
/// chunk). Each job's shape follows from the inputs alone.
pub(super) fn kernel_rows(
    kd: &KernelData<'_>,
    basis: &[u32],
    queries: &[usize],
) -> Vec<Arc<[f32]>> {
    let sparse = match &kd.ds.x {
        Features::Sparse { d, indptr, .. } => !dense_enough(indptr, basis, *d),
        Features::Dense { .. } => false,
    };
    if sparse {
        return basis
            .par_chunks(BASIS_CHUNK)
            .flat_map_iter(|chunk| sparse_rows(kd, chunk, queries))
            .collect();
    }
    let s = basis.len();
    let block = KernelBlock::new(kd, basis.to_vec());
    let parts: Vec<Vec<f32>> = queries
        .par_chunks(DENSE_QUERY_BLOCK)
        .map(|q| {
            let mut e = vec![0.0f64; q.len() * s];
            block.exponents(q, &mut e);
            to_values(kd.kind, &mut e);
            e.iter().map(|&v| v as f32).collect()
        })
        .collect();
    let mut rows: Vec<Arc<[f32]>> = (0..s)
        .map(|_| std::iter::repeat_n(0f32, queries.len()).collect())
        .collect();
    for (k, row) in rows.iter_mut().enumerate() {
        let row = Arc::get_mut(row).expect("rows are not shared yet");
        for (out, part) in row.chunks_mut(DENSE_QUERY_BLOCK).zip(&parts) {
            for (o, vals) in out.iter_mut().zip(part.chunks(s)) {
                *o = vals[k];
            }
        }
    }
    rows
}

/// Kernel values from [`KernelBlock::exponents`]' values, in place.
fn to_values(kind: KernelKind, e: &mut [f64]) {
    match kind {
        KernelKind::Rbf { .. } => fast_exp::exp_in_place(e),
        kind => e.iter_mut().for_each(|v| *v = kind.of_dot(*v)),
    }
}

/// The sparse path's job: `K(b, q)` for every `b` of `basis` (at most
/// [`BASIS_CHUNK`] rows) and `q` of `queries`, on the calling thread.
fn sparse_rows(kd: &KernelData<'_>, basis: &[u32], queries: &[usize]) -> Vec<Arc<[f32]>> {
    let s = basis.len();
    let d = kd.d();
    // Allocated in place (no copy into the `Arc`).
    let mut rows: Vec<Arc<[f32]>> = (0..s)
        .map(|_| std::iter::repeat_n(0f32, queries.len()).collect())
        .collect();
    let mut buf = vec![0.0f64; QUERY_STEP * s];
    let bm = scatter_basis(kd, basis, d);
    let bnorms: Vec<f64> = basis.iter().map(|&b| kd.norms[b as usize]).collect();
    for (step, q) in queries.chunks(QUERY_STEP).enumerate() {
        let e = &mut buf[..q.len() * s];
        dots_sparse(kd, &bm, s, q, e);
        if let KernelKind::Rbf { gamma } = kd.kind {
            for (i, &qr) in q.iter().enumerate() {
                let nq = kd.norms[qr];
                for (o, &nb) in e[i * s..(i + 1) * s].iter_mut().zip(&bnorms) {
                    *o = -gamma * (nq + nb - 2.0 * *o);
                }
            }
        }
        to_values(kd.kind, e);
        let lo = step * QUERY_STEP;
        for (k, row) in rows.iter_mut().enumerate() {
            let row = Arc::get_mut(row).expect("rows are not shared yet");
            for (o, vals) in row[lo..lo + q.len()].iter_mut().zip(e.chunks(s)) {
                *o = vals[k] as f32;
            }
        }
    }
    rows
}

/// The basis as a dense `d × s` matrix, feature-major (`B[j * s + k]`).
fn scatter_basis(kd: &KernelData<'_>, basis: &[u32], d: usize) -> Vec<f64> {
    let s = basis.len();
    let mut bm = vec![0.0; d * s];
    for (k, &b) in basis.iter().enumerate() {
        if let Row::Sparse(ix, vx) = kd.ds.row(b as usize) {
            for (&j, &v) in ix.iter().zip(vx) {
                bm[j as usize * s + k] = v;
            }
        }
    }
    bm
}

/// `out[i * s + k] = <x_{q_i}, b_k>` from the feature-major basis.
fn dots_sparse(kd: &KernelData<'_>, bm: &[f64], s: usize, queries: &[usize], out: &mut [f64]) {
    let rows: Vec<(&[u32], &[f64])> = queries
        .iter()
        .map(|&q| match kd.ds.row(q) {
            Row::Sparse(ix, vx) => (ix, vx),
            Row::Dense(_) => (&[][..], &[][..]),
        })
        .collect();
    super::lanes::sparse_dots(&rows, bm, s, out);
}
