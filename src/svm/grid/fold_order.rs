//! The rows of a grid's dataset in fold order ([`FoldOrder`], defined with
//! the folds), and the kernel matrix of one gamma in that order.
//!
//! LIBSVM's `svm_cross_validation` trains fold `h` on the rows of the other
//! folds in fold order (`perm[0..begin]`, then `perm[end..l]`). With the
//! rows stored in that order, every fold's held-out rows are one contiguous
//! range and its training rows two, so a solve's kernel columns and a
//! prediction's held-out entries are read from contiguous memory instead of
//! gathered from across each column. The rows, their order inside every
//! training set and every kernel value are the same, so the solver runs the
//! same arithmetic: iterations, objective and rates are unchanged (the grid
//! tests compare them with `svm-train -v`).

use std::sync::Arc;

use rayon::prelude::*;

use super::distances::Distances;
use crate::svm::cache::SharedKernelCache;
use crate::svm::fast_exp::exp_to_f32;
pub use crate::svm::folds::FoldOrder;
use crate::svm::kernel::{KernelData, KernelKind};

/// The distances of `order`'s rows, computed in fold order (so that
/// [`fill_kernel`] reads them without gathering), on the current rayon pool
/// when `parallel`.
pub fn distances(order: &FoldOrder, kernel: KernelKind, parallel: bool) -> Distances {
    let kd = KernelData::new(&order.ds, kernel);
    Distances {
        rows: order.perm.clone(),
        ..Distances::new(&kd, parallel)
    }
}

/// The full kernel matrix `exp(-gamma D)` of one gamma, in single precision
/// (libm's values to the bit), in a shared cache that holds it all, its
/// entry `(p, q)` for the caller's rows `rows[p]` and `rows[q]` (the
/// distances may be in another order: [`Distances::rows`]).
pub fn fill_kernel(d: &Distances, gamma: f64, rows: &[usize], parallel: bool) -> SharedKernelCache {
    let n = d.n;
    let mb = (n as f64 * (n as f64 * 4.0 + 64.0)) / (1u64 << 20) as f64 + 1.0;
    // Every column from the start: its contents follow from the inputs.
    let sh = SharedKernelCache::new(n, mb).settled(true);
    // Positions of `rows` in the distances (none when they agree).
    let pos: Option<Vec<usize>> = (d.rows != rows).then(|| {
        let mut at = vec![0; n];
        for (p, &r) in d.rows.iter().enumerate() {
            at[r] = p;
        }
        rows.iter().map(|&r| at[r]).collect()
    });
    let col = |p: usize| -> Arc<[f32]> {
        let mut col: Arc<[f32]> = std::iter::repeat_n(0f32, n).collect();
        let dst = Arc::get_mut(&mut col).expect("a new column has one owner");
        match &pos {
            Some(pos) => {
                let row = d.train_row(pos[p]);
                let gathered: Vec<f64> = pos.iter().map(|&q| row[q]).collect();
                exp_to_f32(-gamma, &gathered, dst);
            }
            None => exp_to_f32(-gamma, d.train_row(p), dst),
        }
        col
    };
    let cols: Vec<Arc<[f32]>> = if parallel {
        (0..n).into_par_iter().map(col).collect()
    } else {
        (0..n).map(col).collect()
    };
    for (a, c) in cols.into_iter().enumerate() {
        sh.insert(a, c);
    }
    sh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::folds::Folds;

    #[test]
    fn folds_become_ranges_and_the_matrix_follows_the_rows() {
        let rows: Vec<Vec<f64>> = (0..17)
            .map(|i| vec![(i as f64 * 0.7).sin(), (i as f64 * 0.3).cos()])
            .collect();
        let y = (0..17)
            .map(|i| if i % 3 == 0 { 1.0 } else { -1.0 })
            .collect();
        let ds = Dataset::from_dense_rows("synthetic-order", &rows, y);
        let folds = Folds::libsvm(&ds, 4).unwrap();
        let fo = FoldOrder::new(&ds, &folds);
        fo.folds.validate().unwrap();
        for h in 0..4 {
            let orig: Vec<usize> = folds.train_rows(h);
            let now: Vec<usize> = fo.folds.train_rows(h).iter().map(|&p| fo.perm[p]).collect();
            assert_eq!(
                orig, now,
                "fold {h}: the same training rows in the same order"
            );
            let t = fo.folds.test_rows(h);
            assert!(t.windows(2).all(|w| w[1] == w[0] + 1), "one range");
        }
        for p in 0..ds.n() {
            assert_eq!(fo.ds.y[p], ds.y[fo.perm[p]]);
        }
        let gamma = 0.8;
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma });
        let d = Distances::new(&kd, false);
        let identity: Vec<usize> = (0..ds.n()).collect();
        let plain = fill_kernel(&d, gamma, &identity, false);
        // Gathered from the plain distances, or read from fold-ordered ones.
        let gathered = fill_kernel(&d, gamma, &fo.perm, true);
        let direct = fill_kernel(&distances(&fo, kd.kind, true), gamma, &fo.perm, false);
        for p in 0..ds.n() {
            let b = plain.peek(fo.perm[p]).unwrap();
            for m in [&gathered, &direct] {
                let a = m.peek(p).unwrap();
                for q in 0..ds.n() {
                    assert_eq!(a[q].to_bits(), b[fo.perm[q]].to_bits());
                }
            }
        }
    }
}
