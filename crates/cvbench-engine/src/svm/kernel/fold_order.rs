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

use rayon::prelude::*;

use crate::svm::cache::SharedKernelCache;
pub use crate::svm::cv::folds::FoldOrder;
use crate::svm::kernel::distances::Distances;
use crate::svm::kernel::fast_exp::exp_to_f32;
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
/// (libm's values to the bit), held whole by a shared cache
/// ([`SharedKernelCache::set_all`]), its entry `(p, q)` for the caller's
/// rows `rows[p]` and `rows[q]` (the distances may be in another order:
/// [`Distances::rows`]). The distances are symmetric to the last bit, so
/// each column's entries from the diagonal down are exponentiated and the
/// rest copied from the columns before it, tile by tile: half the `exp`s.
/// `buf` is storage to reuse (any length and contents: every entry is
/// written), such as an earlier matrix ([`SharedKernelCache::into_matrix`]).
pub fn fill_kernel(
    d: &Distances,
    gamma: f64,
    rows: &[usize],
    parallel: bool,
    buf: Vec<f32>,
) -> SharedKernelCache {
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
    let mut m = buf;
    m.resize(n * n, 0.0);
    // Column p's entries p.. (the diagonal and below).
    let lower = |(p, col): (usize, &mut [f32])| match &pos {
        Some(pos) => {
            let row = d.train_row(pos[p]);
            let gathered: Vec<f64> = pos[p..].iter().map(|&q| row[q]).collect();
            exp_to_f32(-gamma, &gathered, &mut col[p..]);
        }
        None => exp_to_f32(-gamma, &d.train_row(p)[p..], &mut col[p..]),
    };
    if n > 0 {
        if parallel {
            m.par_chunks_mut(n).enumerate().for_each(lower);
        } else {
            m.chunks_mut(n).enumerate().for_each(lower);
        }
    }
    mirror_upper(&mut m, n, parallel);
    sh.set_all(m);
    sh
}

/// Side of the square tiles [`mirror_upper`] copies (64 x 64 entries: a
/// tile's source and target lines stay in the first-level cache).
const TILE: usize = 64;

/// Fill the entries above the diagonal of the symmetric `n x n` matrix `m`
/// (column after column) from those below it: `m[p][q] = m[q][p]` for
/// `q < p`, in tiles of [`TILE`] columns.
fn mirror_upper(m: &mut [f32], n: usize, parallel: bool) {
    assert_eq!(m.len(), n * n, "an n x n matrix");
    // Each task writes the entries above the diagonal of its own columns
    // and reads only entries on or below the diagonal (of earlier columns),
    // which no task writes: disjoint, so the tasks may run at once.
    let base = SharedPtr(m.as_mut_ptr());
    let tile = |t: usize| {
        let (p0, p1) = (t * TILE, ((t + 1) * TILE).min(n));
        for q0 in (0..p1).step_by(TILE) {
            for q in q0..(q0 + TILE).min(p1) {
                for p in p0.max(q + 1)..p1 {
                    // SAFETY: `q < p < n`, so both indices are inside `m`;
                    // entry (q, p) of column p is written by this task only
                    // and entry (p, q) of column q (on or below its
                    // diagonal) is written by no task (see above).
                    unsafe {
                        let v = base.get().add(q * n + p).read();
                        base.get().add(p * n + q).write(v);
                    }
                }
            }
        }
    };
    let tiles = n.div_ceil(TILE);
    if parallel {
        (0..tiles).into_par_iter().for_each(tile);
    } else {
        (0..tiles).for_each(tile);
    }
}

/// A raw pointer the mirror's tasks share (see [`mirror_upper`]).
#[derive(Clone, Copy)]
struct SharedPtr(*mut f32);

impl SharedPtr {
    /// The pointer (a method, so that closures capture the whole wrapper).
    fn get(self) -> *mut f32 {
        self.0
    }
}

// SAFETY: the tasks write disjoint entries and read entries no task writes
// (see `mirror_upper`).
unsafe impl Send for SharedPtr {}
// SAFETY: as above.
unsafe impl Sync for SharedPtr {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::cv::folds::Folds;

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
        let plain = fill_kernel(&d, gamma, &identity, false, Vec::new());
        // Gathered from the plain distances, or read from fold-ordered ones
        // (into storage of other contents).
        let gathered = fill_kernel(&d, gamma, &fo.perm, true, vec![7.0; 5]);
        let direct = fill_kernel(
            &distances(&fo, kd.kind, true),
            gamma,
            &fo.perm,
            false,
            vec![-1.0; 17 * 17 + 3],
        );
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

    /// Over several tiles (a ragged last one), on one thread and two: every
    /// entry, above the diagonal as below, is libm's `exp` of its distance.
    #[test]
    fn mirrored_tiles_hold_every_entry() {
        let n = 2 * TILE + 23;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| vec![(i as f64 * 0.37).sin(), (i as f64 * 0.11).cos(), 0.5])
            .collect();
        let y = (0..n)
            .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let ds = Dataset::from_dense_rows("synthetic-tiles", &rows, y);
        let gamma = 0.7;
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma });
        let d = Distances::new(&kd, false);
        let identity: Vec<usize> = (0..n).collect();
        for parallel in [false, true] {
            let sh = fill_kernel(&d, gamma, &identity, parallel, vec![3.0; n * n]);
            for p in 0..n {
                let col = sh.peek(p).unwrap();
                for q in 0..n {
                    let want = ((-gamma) * d.train_row(p)[q]).exp() as f32;
                    assert_eq!(col[q].to_bits(), want.to_bits(), "({p}, {q})");
                }
            }
        }
    }
}
