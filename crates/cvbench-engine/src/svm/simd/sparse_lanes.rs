//! Vector loops shared by the kernel blocks computed along a step of
//! queries (the batched solver's rows, [`crate::svm::batched`], and the weighted
//! sums of sparse kernel blocks, [`crate::svm::kernel::block`]): a step of `m`
//! queries is scattered into a dense feature-major matrix and each sparse
//! basis row adds its stored features' rows of it, so the values of one
//! basis row come out along the queries. Compiled for the widest vector
//! unit the CPU has (AVX-512, AVX2, or portable code), picked at run time by
//! [`crate::svm::simd`]; every lane computes the same expression in the same
//! order as the portable loop (no fused multiply-add), so the values are
//! bit-identical on every variant.

use crate::data::{Dataset, Row};
use crate::svm::kernel::fast_exp;
use crate::svm::kernel::KernelKind;
use crate::svm::simd::by_cpu;

/// Queries per step at most.
const STEP: usize = 256;

/// At most this many values in a step's dense matrix of queries (8 MB): on
/// data of many features a step takes fewer queries.
const STEP_VALUES: usize = 1 << 20;

/// Queries per step on data of `d` features (see [`STEP`], [`STEP_VALUES`]).
pub(crate) fn query_step(d: usize) -> usize {
    STEP.min((STEP_VALUES / d.max(1)).max(1))
}

/// A sparse row's stored features and values.
pub(crate) type Entries<'a> = (&'a [u32], &'a [f64]);

/// Row `r`'s stored features and values (none for a dense row, which the
/// sparse paths never see).
pub(crate) fn entries(ds: &Dataset, r: usize) -> Entries<'_> {
    match ds.row(r) {
        Row::Sparse(ix, vx) => (ix, vx),
        Row::Dense(_) => (&[][..], &[][..]),
    }
}

/// `f` of the queries `q` as a dense feature-major matrix (`Q[j * m + i]`,
/// `m = q.len()`, `d × m`), scattered into `qm`, which is all zero on entry
/// and is again on return.
pub(crate) fn with_queries<R>(
    ds: &Dataset,
    q: &[usize],
    qm: &mut [f64],
    f: impl FnOnce(&[f64]) -> R,
) -> R {
    let m = q.len();
    for (i, &r) in q.iter().enumerate() {
        let (ix, vx) = entries(ds, r);
        for (&j, &x) in ix.iter().zip(vx) {
            qm[j as usize * m + i] = x;
        }
    }
    let out = f(&qm[..ds.d() * m]);
    for (i, &r) in q.iter().enumerate() {
        for &j in entries(ds, r).0 {
            qm[j as usize * m + i] = 0.0;
        }
    }
    out
}

/// `acc[k] += x * b[k]`.
#[inline(always)]
fn axpy_body(acc: &mut [f64], x: f64, b: &[f64]) {
    for (a, &v) in acc.iter_mut().zip(b) {
        *a += x * v;
    }
}

/// Queries whose sums [`sparse_dots_body`] keeps in registers while it adds
/// a row's features (four AVX-512 vectors of `f64`); the matrix's columns of
/// these queries (`d × 32` values, 31 KB for a9a's 123 features) stay in the
/// first-level cache while every row is added.
const DOT_LANES: usize = 32;

/// For each sparse row of `rows` (its non-zero features and values), the
/// dot products with the `s` columns of the dense feature-major matrix `bm`
/// (`d × s`) into `out` (`rows × s`, row-major): each product is the row's
/// value times the matrix's, added in the row's feature order. [`DOT_LANES`]
/// queries at a time, every row's sums kept in registers across its
/// features (one store each, not one per feature).
#[inline(always)]
fn sparse_dots_body(rows: &[(&[u32], &[f64])], bm: &[f64], s: usize, out: &mut [f64]) {
    let whole = s - s % DOT_LANES;
    for lo in (0..whole).step_by(DOT_LANES) {
        for (acc, &(ix, vx)) in out.chunks_mut(s).zip(rows) {
            let mut sum = [0.0f64; DOT_LANES];
            for (&j, &x) in ix.iter().zip(vx) {
                let b = &bm[j as usize * s + lo..][..DOT_LANES];
                for (a, &v) in sum.iter_mut().zip(b) {
                    *a += x * v;
                }
            }
            acc[lo..lo + DOT_LANES].copy_from_slice(&sum);
        }
    }
    for (acc, &(ix, vx)) in out.chunks_mut(s).zip(rows) {
        let tail = &mut acc[whole..];
        tail.fill(0.0);
        for (&j, &x) in ix.iter().zip(vx) {
            let j = j as usize;
            axpy_body(tail, x, &bm[j * s + whole..(j + 1) * s]);
        }
    }
}

/// `e[k * m + i] = -gamma * (qn[i] + bn[k] - 2 e[k * m + i])` with
/// `m = qn.len()`: the RBF exponents of rows of dot products (LIBSVM's
/// training formula, the query's squared norm first).
#[inline(always)]
fn rbf_exponents_body(e: &mut [f64], qn: &[f64], bn: &[f64], gamma: f64) {
    for (row, &nb) in e.chunks_exact_mut(qn.len().max(1)).zip(bn) {
        for (o, &nq) in row.iter_mut().zip(qn) {
            *o = -gamma * (nq + nb - 2.0 * *o);
        }
    }
}

by_cpu!(
    /// See [`sparse_dots_body`].
    pub(crate) fn sparse_dots(rows: &[(&[u32], &[f64])], bm: &[f64], s: usize, out: &mut [f64]) =
        sparse_dots_body
);

by_cpu!(
    /// See [`rbf_exponents_body`].
    pub(crate) fn rbf_exponents(e: &mut [f64], qn: &[f64], bn: &[f64], gamma: f64) =
        rbf_exponents_body
);

/// For the sparse basis rows `basis` (squared norms `bnorms`) against a
/// step's `m` queries (`qm` of [`with_queries`], squared norms `qn`), the
/// RBF exponents `-gamma (||q||^2 + ||b||^2 - 2 <q, b>)` (LIBSVM's training
/// formula), or for another kernel the dot products, into `out`
/// (basis-major, `basis.len() × m`).
pub(crate) fn step_exponents(
    kind: KernelKind,
    (basis, bnorms): (&[Entries<'_>], &[f64]),
    (qm, qn): (&[f64], &[f64]),
    out: &mut [f64],
) {
    sparse_dots(basis, qm, qn.len(), out);
    if let KernelKind::Rbf { gamma } = kind {
        rbf_exponents(out, qn, bnorms, gamma);
    }
}

/// Kernel values from [`step_exponents`]' (or
/// [`crate::svm::kernel::block::KernelBlock::exponents`]') values, in place: the
/// RBF's through [`fast_exp`].
pub(crate) fn values_in_place(kind: KernelKind, e: &mut [f64]) {
    match kind {
        KernelKind::Rbf { .. } => fast_exp::exp_in_place(e),
        kind => e.iter_mut().for_each(|v| *v = kind.of_dot(*v)),
    }
}

/// The kernels the sparse paths are checked on with [`sparse_test_set`]:
/// RBF, linear and a cubic polynomial.
#[cfg(test)]
pub(crate) const SPARSE_TEST_KINDS: [KernelKind; 3] = [
    KernelKind::Rbf { gamma: 0.3 },
    KernelKind::Linear,
    KernelKind::Poly {
        gamma: 0.5,
        coef0: 1.0,
        degree: 3,
    },
];

/// A test set of which about one value in ten is stored (so stored sparse
/// and through the sparse paths): 300 rows of 40 features named `name`,
/// 100 basis rows (two chunks of 64) and the 300 rows as queries in reverse
/// order (two steps).
#[cfg(test)]
pub(crate) fn sparse_test_set(name: &str) -> (Dataset, Vec<u32>, Vec<usize>) {
    let rows: Vec<Vec<f64>> = (0..300)
        .map(|i| {
            (0..40)
                .map(|j| {
                    if (i * 7 + j * 3) % 10 == 0 {
                        ((i * 40 + j) as f64 * 0.37).sin() * 3.0
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let ds = Dataset::from_dense_rows(name, &rows, vec![1.0; 300]);
    let basis = (0..300).step_by(3).map(|b| b as u32).collect();
    let queries = (0..300).rev().collect();
    (ds, basis, queries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_equals_the_portable_loop() {
        // Fewer queries than the register lanes, and two lanes' worth and
        // a tail.
        for s in [7, 2 * DOT_LANES + 6] {
            let bm: Vec<f64> = (0..5 * s).map(|i| (i as f64 * 0.37).sin()).collect();
            let (ix, vx) = (vec![0u32, 2, 4], vec![0.5, -1.25, 3.0]);
            let rows = [(&ix[..], &vx[..]), (&ix[1..], &vx[1..])];
            let mut want = vec![0.0; 2 * s];
            sparse_dots_body(&rows, &bm, s, &mut want);
            let mut got = vec![9.0; 2 * s];
            sparse_dots(&rows, &bm, s, &mut got);
            assert_eq!(want, got);
            for i in [3, s - 1] {
                assert_eq!(want[s + i], -1.25 * bm[2 * s + i] + 3.0 * bm[4 * s + i]);
                let first = 0.5 * bm[i] + -1.25 * bm[2 * s + i] + 3.0 * bm[4 * s + i];
                assert_eq!(want[i], first);
            }
        }
        let (qn, bn) = ([0.3, 1.7, 2.5], [0.9, 0.1]);
        let mut want: Vec<f64> = (0..6).map(|i| (i as f64 * 0.71).cos()).collect();
        let mut got = want.clone();
        rbf_exponents_body(&mut want, &qn, &bn, 0.37);
        rbf_exponents(&mut got, &qn, &bn, 0.37);
        assert_eq!(want, got);
        assert_eq!(
            want[4],
            -0.37 * (qn[1] + bn[1] - 2.0 * (4.0f64 * 0.71).cos())
        );
    }
}
