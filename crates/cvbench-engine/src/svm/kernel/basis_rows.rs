//! The kernel values of the working-set rows that the batched solver does
//! not hold (a basis) against every query row, one `f32` row per basis row,
//! in jobs on the rayon pool whose shapes follow from the inputs alone (so
//! a value never depends on how many jobs run at once):
//!
//! - **Sparse** data whose basis rows are not dense
//!   ([`crate::svm::kernel::block::dense_enough`]): jobs of a step of
//!   consecutive queries, scattered into a dense feature-major matrix; each
//!   basis row adds `b_j * Q[j, :]` for its non-zero features `j` only:
//!   one product per query per stored value of the basis row, in vector
//!   lanes along the queries (a9a: 14 values per row, 123 features), so the
//!   values come out in the layout of the rows.
//! - **Dense** data and dense-enough sparse data: jobs of
//!   [`DENSE_QUERY_BLOCK`] queries, each one matrix product against the
//!   whole basis ([`KernelBlock`]).
//!
//! Every job writes its piece of every row in place.
//!
//! RBF values are `exp(-gamma (||q||^2 + ||b||^2 - 2 <q, b>))`, LIBSVM's
//! training formula, with [`crate::svm::kernel::fast_exp`] (within a few units in the last place
//! of `exp`, before the rounding to `f32`).

use std::mem::MaybeUninit;
use std::sync::Arc;

use rayon::prelude::*;

use crate::data::Features;
use crate::svm::kernel::block::{dense_enough, KernelBlock};
use crate::svm::kernel::fast_exp;
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::simd::sparse_lanes::{
    entries, query_step, step_exponents, values_in_place, with_queries, Entries,
};

/// Basis rows per pass of a sparse job (the exponents of a pass go through
/// `exp` together).
pub(in crate::svm) const BASIS_CHUNK: usize = 64;

/// Queries per job of the dense path (one matrix product each).
const DENSE_QUERY_BLOCK: usize = 512;

/// `K(b, q)` for every `b` of `basis` and `q` of `queries`, one row per
/// basis row, on the rayon pool in jobs of consecutive queries (a step:
/// [`query_step`] queries on sparse data, [`DENSE_QUERY_BLOCK`] on dense
/// data, one matrix product each), each writing its piece of every row in
/// place. Each job's shape follows from the inputs alone.
pub(in crate::svm) fn kernel_rows(
    kd: &KernelData<'_>,
    basis: &[u32],
    queries: &[usize],
) -> Vec<Arc<[f32]>> {
    if kd.kind.is_precomputed() {
        return crate::svm::kernel::precomputed::basis_rows(&kd.ds, basis, queries);
    }
    let s = basis.len();
    let mut rows: Vec<Arc<[MaybeUninit<f32>]>> = (0..s)
        .map(|_| Arc::new_uninit_slice(queries.len()))
        .collect();
    let sparse = match &kd.ds.x {
        Features::Sparse { d, indptr, .. } => !dense_enough(indptr, basis, *d),
        Features::Dense { .. } => false,
    };
    let step = if sparse {
        query_step(kd.d())
    } else {
        DENSE_QUERY_BLOCK
    };
    // Each step's piece of every row, so that the steps write in parallel.
    let mut pieces: Vec<Vec<&mut [MaybeUninit<f32>]>> = (0..queries.len().div_ceil(step))
        .map(|_| Vec::with_capacity(s))
        .collect();
    for row in rows.iter_mut() {
        let row = Arc::get_mut(row).expect("rows are not shared yet");
        for (piece, part) in pieces.iter_mut().zip(row.chunks_mut(step)) {
            piece.push(part);
        }
    }
    let jobs = pieces.into_par_iter().zip(queries.par_chunks(step));
    if sparse {
        let bnorms: Vec<f64> = basis.iter().map(|&b| kd.norms[b as usize]).collect();
        let basis: Vec<Entries<'_>> = basis.iter().map(|&b| entries(&kd.ds, b as usize)).collect();
        jobs.for_each_init(
            || vec![0.0f64; kd.d() * step],
            |qm, (mut out, q)| sparse_rows(kd, (&basis, &bnorms), q, qm, &mut out),
        );
    } else {
        let block = KernelBlock::new(kd, basis.to_vec());
        jobs.for_each(|(mut out, q)| {
            let mut e = vec![0.0f64; q.len() * s];
            block.exponents(q, &mut e);
            values_in_place(kd.kind, &mut e);
            for (k, part) in out.iter_mut().enumerate() {
                for (o, vals) in part.iter_mut().zip(e.chunks_exact(s)) {
                    o.write(vals[k] as f32);
                }
            }
        });
    }
    rows.into_iter()
        // SAFETY: the steps cover every query of every row.
        .map(|r| unsafe { r.assume_init() })
        .collect()
}

/// The sparse path's job: `K(b, q)` for every basis row `b` (its stored
/// entries and squared norm) and query `q` of a step, into the step's
/// piece of each row, on the calling thread.
///
/// The queries are scattered into a dense feature-major matrix `qm`
/// (`Q[j * m + i]`, all zero on entry and on return); each basis row adds
/// `b_j * Q[j, :]` for its non-zero features `j` only, so its values come
/// out along the queries, already in the layout of its row (no
/// transposition), [`BASIS_CHUNK`] basis rows at a time. Each dot product
/// sums the products of the features both rows store in index order (the
/// other terms are exact zeros), as the pairwise kernel does.
fn sparse_rows(
    kd: &KernelData<'_>,
    (basis, bnorms): (&[Entries<'_>], &[f64]),
    q: &[usize],
    qm: &mut [f64],
    out: &mut [&mut [MaybeUninit<f32>]],
) {
    let m = q.len();
    let qn: Vec<f64> = q.iter().map(|&r| kd.norms[r]).collect();
    let mut buf = vec![0.0f64; BASIS_CHUNK.min(basis.len()) * m];
    with_queries(&kd.ds, q, qm, |qm| {
        for ((b, bn), out) in basis
            .chunks(BASIS_CHUNK)
            .zip(bnorms.chunks(BASIS_CHUNK))
            .zip(out.chunks_mut(BASIS_CHUNK))
        {
            let e = &mut buf[..b.len() * m];
            step_exponents(kd.kind, (b, bn), (qm, &qn), e);
            if let KernelKind::Rbf { .. } = kd.kind {
                // `exp` and the narrowing to `f32` in one pass.
                for (part, ex) in out.iter_mut().zip(e.chunks_exact(m)) {
                    fast_exp::exp_narrow(ex, part);
                }
                continue;
            }
            values_in_place(kd.kind, e);
            for (part, vals) in out.iter_mut().zip(e.chunks_exact(m)) {
                crate::svm::batched::lanes::narrow(vals, part);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::simd::sparse_lanes::{sparse_test_set, SPARSE_TEST_KINDS};

    #[test]
    fn sparse_rows_are_the_blocks_values_to_the_bit() {
        // About one value in ten stored: the sparse path.
        let (ds, basis, queries) = sparse_test_set("synthetic-sparse-rows");
        for kind in SPARSE_TEST_KINDS {
            let kd = KernelData::new(&ds, kind);
            assert!(kd.ds.is_sparse(), "stored sparse: the sparse path");
            let got = kernel_rows(&kd, &basis, &queries);
            let mut want = vec![0.0; queries.len() * basis.len()];
            KernelBlock::new(&kd, basis.clone()).exponents(&queries, &mut want);
            values_in_place(kind, &mut want);
            assert_eq!(got.len(), basis.len());
            for (k, row) in got.iter().enumerate() {
                assert_eq!(row.len(), queries.len());
                for (i, &v) in row.iter().enumerate() {
                    let w = want[i * basis.len() + k] as f32;
                    assert_eq!(v.to_bits(), w.to_bits(), "{kind:?} basis {k} query {i}");
                }
            }
        }
    }
}
