//! The kernel values of a few working-set rows (a basis of at most
//! [`BASIS_CHUNK`] rows) against every query row, one `f32` row per basis
//! row: the unit of work of the batched solver's row computation, run as
//! one job per chunk on the rayon pool (so a value never depends on how many
//! jobs run at once).
//!
//! - **Sparse** data whose basis rows are not dense
//!   ([`crate::svm::kernel_block::dense_enough`]): the basis is scattered
//!   into a small dense `d × s` matrix, feature-major, and each query adds
//!   `x_qj * B[j, :]` for its non-zero features `j` only: `s` products per
//!   stored value of the query, in vector lanes (a9a: 14 values per row, 123
//!   features).
//! - **Dense** data and dense-enough sparse data: a [`KernelBlock`] (a
//!   matrix product).
//!
//! RBF values are `exp(-gamma (||q||^2 + ||b||^2 - 2 <q, b>))`, LIBSVM's
//! training formula, with [`fast_exp`] (within a few units in the last place
//! of `exp`, before the rounding to `f32`).

use std::sync::Arc;

use crate::data::{Features, Row};
use crate::svm::fast_exp;
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::kernel_block::{dense_enough, KernelBlock};

/// Basis rows per job.
pub(super) const BASIS_CHUNK: usize = 64;

/// Queries per step of one job (the exponents of a step go through `exp`
/// together).
const QUERY_STEP: usize = 256;

/// `K(b, q)` for every `b` of `basis` (at most [`BASIS_CHUNK`] rows) and `q`
/// of `queries`, one row per basis row, computed on the calling thread.
pub(super) fn kernel_rows(
    kd: &KernelData<'_>,
    basis: &[u32],
    queries: &[usize],
) -> Vec<Arc<[f32]>> {
    let s = basis.len();
    // Allocated in place (no copy into the `Arc`).
    let mut rows: Vec<Arc<[f32]>> = (0..s)
        .map(|_| std::iter::repeat_n(0f32, queries.len()).collect())
        .collect();
    let mut buf = vec![0.0f64; QUERY_STEP * s];
    let sparse_basis = match &kd.ds.x {
        Features::Sparse { d, indptr, .. } if !dense_enough(indptr, basis, *d) => {
            Some(scatter_basis(kd, basis, *d))
        }
        _ => None,
    };
    let block = match sparse_basis {
        None => Some(KernelBlock::new(kd, basis.to_vec())),
        Some(_) => None,
    };
    let bnorms: Vec<f64> = basis.iter().map(|&b| kd.norms[b as usize]).collect();
    for (step, q) in queries.chunks(QUERY_STEP).enumerate() {
        let e = &mut buf[..q.len() * s];
        match (&sparse_basis, &block) {
            (Some(bm), _) => {
                dots_sparse(kd, bm, s, q, e);
                if let KernelKind::Rbf { gamma } = kd.kind {
                    for (i, &qr) in q.iter().enumerate() {
                        let nq = kd.norms[qr];
                        for (o, &nb) in e[i * s..(i + 1) * s].iter_mut().zip(&bnorms) {
                            *o = -gamma * (nq + nb - 2.0 * *o);
                        }
                    }
                }
            }
            (None, Some(b)) => b.exponents(q, e),
            (None, None) => unreachable!("one of the two layouts is built"),
        }
        match kd.kind {
            KernelKind::Rbf { .. } => fast_exp::exp_in_place(e),
            kind => e.iter_mut().for_each(|v| *v = kind.of_dot(*v)),
        }
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
