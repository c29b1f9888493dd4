//! Tests of [`crate::svm::kernel`]: kernel columns against pairwise values, the
//! compact copy of a fold, dense columns four rows at a time, sparse
//! columns over rows of very uneven lengths, and mostly-zero dense data
//! kept as CSR with identical kernel values.

use crate::data::Dataset;
use crate::svm::kernel::{k_function, sq_norm_ordered, to_csr, KernelData, KernelKind};

#[test]
fn column_matches_pairwise_eval() {
    let ds = Dataset::from_csr(
        "synthetic-k",
        4,
        vec![0, 2, 3, 5],
        vec![0, 2, 1, 0, 3],
        vec![1.0, -0.5, 2.0, 0.25, 1.5],
        vec![1.0, -1.0, 1.0],
    );
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
    let ds = Dataset::from_csr(
        "synthetic-k",
        5,
        vec![0, 2, 3, 5, 5, 8],
        vec![0, 2, 1, 0, 3, 0, 2, 4],
        vec![1.0, -0.5, 2.0, 0.25, 1.5, 0.1, 0.7, -3.0],
        vec![1.0, -1.0, 1.0, 1.0, -1.0],
    );
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

#[test]
fn dense_columns_four_rows_at_a_time_are_bit_identical_to_eval() {
    // 11 rows: two groups of four and a tail of three.
    let rows: Vec<Vec<f64>> = (0..11)
        .map(|i| {
            (0..37)
                .map(|j| ((i * 37 + j) as f64 * 0.731).sin() * 3.0)
                .collect()
        })
        .collect();
    let ds = Dataset::from_dense_rows("synthetic-dense", &rows, vec![1.0; 11]);
    for kind in [KernelKind::Rbf { gamma: 0.05 }, KernelKind::Linear] {
        let kd = KernelData::new(&ds, kind);
        assert!(!kd.ds.is_sparse());
        let order: Vec<u32> = (0..11).map(|k| (k * 5 % 11) as u32).collect();
        let ys: Vec<i8> = (0..11).map(|k| if k % 3 == 0 { -1 } else { 1 }).collect();
        for a in 0..11 {
            let mut out = vec![0f32; 11];
            kd.fill_column(a, -1, &order, Some(&ys), &mut out, &mut []);
            for (k, &r) in order.iter().enumerate() {
                let want = (f64::from(-ys[k]) * kd.eval(a, r as usize)) as f32;
                assert_eq!(out[k].to_bits(), want.to_bits(), "row {a} x {r}");
            }
        }
    }
}

/// A dense dataset with 70% zeros, and its CSR twin.
fn low_density() -> (Dataset, Dataset) {
    let rows: Vec<Vec<f64>> = (0..6)
        .map(|i| {
            (0..10)
                .map(|j| {
                    if (i * 7 + j * 3) % 10 < 3 {
                        0.1 * (i as f64 + 1.0) - 0.07 * j as f64
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let dense = Dataset::from_dense_rows("synthetic-low-density", &rows, vec![1.0; 6]);
    let sparse = to_csr(&dense);
    (dense, sparse)
}

#[test]
fn low_density_dense_data_is_kept_as_csr_with_identical_kernels() {
    let (dense, sparse) = low_density();
    let kind = KernelKind::Rbf { gamma: 0.7 };
    let kd = KernelData::new(&dense, kind);
    assert!(kd.ds.is_sparse(), "70% zeros must be stored as CSR");
    for a in 0..6 {
        for b in 0..6 {
            let (ra, rb) = (dense.row(a), dense.row(b));
            let dot = ra.dot_row(&rb);
            let na = sq_norm_ordered(ra);
            let nb = sq_norm_ordered(rb);
            let want = (-0.7 * (na + nb - 2.0 * dot)).exp();
            assert_eq!(kd.eval(a, b).to_bits(), want.to_bits());
            // Prediction kernel: dense-sparse and sparse-sparse agree to the bit.
            let ss = k_function(kind, sparse.row(a), sparse.row(b));
            assert_eq!(
                k_function(kind, dense.row(a), sparse.row(b)).to_bits(),
                ss.to_bits()
            );
            assert_eq!(
                k_function(kind, sparse.row(a), dense.row(b)).to_bits(),
                ss.to_bits()
            );
            assert_eq!(
                k_function(kind, dense.row(a), dense.row(b)).to_bits(),
                ss.to_bits()
            );
        }
    }
    // Mostly non-zero data stays dense (no copy).
    let full = Dataset::from_dense_rows(
        "synthetic-full",
        &[vec![1.0, 2.0], vec![3.0, 0.0]],
        vec![1.0, -1.0],
    );
    assert!(!KernelData::new(&full, kind).ds.is_sparse());
}

/// Sparse rows of very uneven lengths (none to 60 values, signs mixed):
/// every column, its rows in any order, is [`KernelData::eval`]'s to the
/// bit for every kernel that sums dot products, each dot product is
/// [`crate::data::Row::dot_row`]'s (the sum in index order) to the bit,
/// and the scratch vector is left zero.
#[test]
fn sparse_columns_of_uneven_rows_are_bit_identical_to_eval() {
    let d = 97;
    let rows: Vec<Vec<f64>> = (0..23)
        .map(|i| {
            let nnz = (i * 29 + 7) % 61;
            (0..d)
                .map(|j| {
                    let on = (j * 13 + i * 5) % d < nnz * d / 61 + usize::from(j == i);
                    let v = ((i * d + j) as f64 * 0.377).sin() * 2.3;
                    if on && nnz > 0 {
                        v
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let ds = to_csr(&Dataset::from_dense_rows(
        "synthetic-uneven",
        &rows,
        vec![1.0; 23],
    ));
    let lens: Vec<usize> = (0..23)
        .map(|r| match ds.row(r) {
            crate::data::Row::Sparse(idx, _) => idx.len(),
            crate::data::Row::Dense(_) => unreachable!("CSR rows"),
        })
        .collect();
    assert!(lens.iter().min() < Some(&3) && lens.iter().max() > Some(&40));
    let order: Vec<u32> = (0..23).map(|k| (k * 7 % 23) as u32).collect();
    let ys: Vec<i8> = (0..23).map(|k| if k % 3 == 0 { -1 } else { 1 }).collect();
    for kind in crate::svm::kernel::matrix::TEST_KINDS {
        let kd = KernelData::new(&ds, kind);
        assert!(kd.ds.is_sparse() && kd.exp_table.is_none());
        let mut scratch = vec![0.0; kd.d()];
        for a in 0..23 {
            let mut out = vec![0f32; 23];
            kd.fill_column(a, 1, &order, Some(&ys), &mut out, &mut scratch);
            for (k, &r) in order.iter().enumerate() {
                let want = (f64::from(ys[k]) * kd.eval(a, r as usize)) as f32;
                assert_eq!(out[k].to_bits(), want.to_bits(), "{kind:?}: row {a} x {r}");
            }
            assert!(scratch.iter().all(|&v| v == 0.0));
            // The dot products themselves, before the kernel and the
            // rounding to single precision hide a last-bit difference.
            kd.for_each_dot(a, &order, &mut scratch, |k, dot| {
                let want = kd.ds.row(a).dot_row(&kd.ds.row(order[k] as usize));
                assert_eq!(
                    dot.to_bits(),
                    want.to_bits(),
                    "dot of rows {a} x {}",
                    order[k]
                );
            });
        }
    }
}
