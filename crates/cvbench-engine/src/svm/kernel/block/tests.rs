//! Tests of [`super::KernelBlock`]'s matrices and sums.

use super::*;
use crate::data::Dataset;
use crate::svm::kernel::k_function;

/// Sparse rows over 60 features (at most 3 non-zero: below
/// [`DENSE_BLOCK_DENSITY`], so on the inverted index).
fn sparse() -> Dataset {
    Dataset::from_csr(
        "synthetic-block",
        60,
        vec![0, 2, 3, 5, 5, 8, 10],
        vec![0, 2, 1, 0, 3, 0, 2, 4, 1, 5],
        vec![1.0, -0.5, 2.0, 0.25, 1.5, 0.1, 0.7, -3.0, 0.3, 0.9],
        vec![1.0, -1.0, 1.0, 1.0, -1.0, 1.0],
    )
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
        assert!(matches!(block.layout, Layout::Inverted { .. }));
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
    matrix_and_sums_hold(&kd, &block, &q, (&m, &w, &sums));
    for &a in &q {
        assert!(sums[a].err1 > 0.0 && sums[a].err1 < 1e-9);
        let s2 = m[a * 3] + m[a * 3 + 2];
        assert!((sums[a].s2 - s2).abs() < 1e-12);
    }
}

/// Every entry of the matrix `m` of queries `q` (row `a` at `a`) is
/// `eval`'s, and every first sum with weights `w` is within its bound of
/// LIBSVM's sum.
fn matrix_and_sums_hold(
    kd: &KernelData<'_>,
    block: &KernelBlock<'_>,
    q: &[usize],
    (m, w, sums): (&[f64], &[f64], &[WeightedSums]),
) {
    let s = block.len();
    for &a in q {
        let mut exact = 0.0;
        for (k, &b) in block.basis().iter().enumerate() {
            assert!((m[a * s + k] - kd.eval(a, b as usize)).abs() < 1e-12);
            exact += w[k] * k_function(kd.kind, kd.ds.row(a), kd.ds.row(b as usize));
        }
        assert!((sums[a].s1 - exact).abs() <= sums[a].err1);
    }
}

#[test]
fn dense_enough_sparse_rows_go_through_the_matrix_product() {
    // The dense rows stored as CSR (no zeros: density 1).
    let dense = dense();
    let (n, d) = (dense.n(), dense.d());
    let mut indptr = vec![0];
    let (mut indices, mut values) = (vec![], vec![]);
    for i in 0..n {
        for (j, &v) in dense.row(i).to_dense(d).iter().enumerate() {
            indices.push(j as u32);
            values.push(v);
        }
        indptr.push(indices.len());
    }
    let ds = Dataset::from_csr(
        "synthetic-dense-csr",
        d,
        indptr,
        indices,
        values,
        dense.y.clone(),
    );
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.3 });
    let block = KernelBlock::new(&kd, vec![1, 3, 6]);
    assert!(matches!(block.layout, Layout::Dense { .. }));
    let q: Vec<usize> = (0..n).collect();
    let m = block.matrix(&q);
    let w = [0.5, -1.25, 2.0];
    let sums = block.weighted_sums(&q, &w, None);
    matrix_and_sums_hold(&kd, &block, &q, (&m, &w, &sums));
    // Rows with 2 of 50 features non-zero (4%, below the threshold)
    // stay on the inverted index.
    let sp = Dataset::from_csr(
        "synthetic-sparse-wide",
        50,
        vec![0, 2, 4, 6],
        vec![0, 7, 3, 49, 7, 20],
        vec![1.0, 0.5, -2.0, 1.5, 0.25, 3.0],
        vec![1.0, -1.0, 1.0],
    );
    let kd = KernelData::new(&sp, KernelKind::Rbf { gamma: 0.3 });
    let block = KernelBlock::new(&kd, vec![0, 1, 2]);
    assert!(matches!(block.layout, Layout::Inverted { .. }));
}

#[test]
fn underflowed_values_are_exact_only_far_below_the_threshold() {
    // Squared distances 900 (exp(-900) is 0 in any arithmetic) and
    // 745.29 (0 here, but within rounding of a subnormal).
    let rows = vec![vec![0.0], vec![30.0], vec![745.29f64.sqrt()]];
    let ds = Dataset::from_dense_rows("synthetic-underflow", &rows, vec![1.0; 3]);
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 1.0 });
    let far = KernelBlock::new(&kd, vec![1]).weighted_sums(&[0], &[-2.0], None);
    assert_eq!(far[0].s1, 0.0);
    assert_eq!(far[0].err1, 0.0, "exactly 0 on both sides: no bound");
    let near = KernelBlock::new(&kd, vec![2]).weighted_sums(&[0], &[-2.0], None);
    assert_eq!(near[0].s1, 0.0);
    assert!(near[0].err1 > 0.0, "a possible subnormal must be bounded");
    let exact = -2.0 * k_function(kd.kind, ds.row(0), ds.row(2));
    assert!((near[0].s1 - exact).abs() <= near[0].err1);
    // A zero weight adds nothing.
    let none = KernelBlock::new(&kd, vec![2]).weighted_sums(&[0], &[0.0], None);
    assert_eq!(none[0].err1, 0.0);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let ds = sparse();
    let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.4 });
    let block = KernelBlock::new(&kd, vec![0, 1, 2, 3, 4, 5]);
    let q: Vec<usize> = (0..200).map(|i| (i * 7) % 6).collect();
    let w: Vec<f64> = (0..6).map(|k| k as f64 - 2.5).collect();
    let run = |t: usize| {
        crate::svm::cv::pool::build(t)
            .unwrap()
            .install(|| block.weighted_sums(&q, &w, None))
    };
    assert_eq!(run(1), run(3));
}
