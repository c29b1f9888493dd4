//! The whole kernel matrix's tiles as matrix products, for the batched
//! solver: `K(a, r)` for a tile of rows `a` against every row `r` from the
//! tile's first row down, the dot products of a tile as one product
//! `X_piece X_tile^T` (faer, fused multiply-adds, sequential inside a tile),
//! then the kernel values as the lane tiles make them
//! ([`KernelData::values_of_dots`]).
//!
//! The values are not svm-train's bits: a product sums a dot product in its
//! own order with fused multiply-adds, where LIBSVM (and
//! [`crate::svm::kernel::lane_tile`]) adds plain products feature by feature. After
//! the rounding to `f32` the two nearly always agree; the batched solver,
//! whose optimum is LIBSVM's to the stopping tolerance rather than its
//! iterations, takes them (on madelon's 2,000 x 500 rows the matrix costs
//! about half the lane tiles' time). The LIBSVM-identical SMO never does.
//! Each tile's shape follows from the inputs alone, so the values do not
//! depend on the thread count.

use faer::{Accum, Mat, Par};

use crate::data::Features;
use crate::svm::kernel::block::{dense_enough, scatter_row};
use crate::svm::kernel::KernelData;

/// Target rows per product of a tile (its dot products: 1 MB at
/// [`PRODUCT_TILE`] lanes).
const TARGET_PIECE: usize = 1024;

/// Rows per tile of the products (a multiple of
/// [`crate::svm::kernel::lane_tile::TILE`]).
pub const PRODUCT_TILE: usize = 128;

/// The rows of `kd` as the columns of a `d x n` matrix, where they are
/// dense enough for products (dense rows, or sparse rows of which more
/// than [`crate::svm::kernel::block::DENSE_BLOCK_DENSITY`] are stored);
/// `None` for sparser data, whose lane tiles skip the zeros.
pub fn row_matrix(kd: &KernelData<'_>) -> Option<Mat<f64>> {
    let n = kd.ds.n();
    if let Features::Sparse { d, indptr, .. } = &kd.ds.x {
        let all: Vec<u32> = (0..n as u32).collect();
        if !dense_enough(indptr, &all, *d) {
            return None;
        }
    }
    let mut xt = Mat::<f64>::zeros(kd.d(), n);
    for i in 0..n {
        scatter_row(
            kd.ds.row(i),
            xt.col_mut(i)
                .try_as_col_major_mut()
                .expect("a fresh matrix is column-major")
                .as_slice_mut(),
        );
    }
    Some(xt)
}

/// `K(a, r)` for the tile's rows `a` (from `a0`, at most [`PRODUCT_TILE`])
/// and every row `r >= a0`, into `out[lane * stride + (r - a0)]`, on the
/// calling thread; `xt` is [`row_matrix`]`(kd)`.
pub fn product_rows(kd: &KernelData<'_>, xt: &Mat<f64>, a0: usize, out: &mut [f32], stride: usize) {
    let n = kd.ds.n();
    let lanes = PRODUCT_TILE.min(n - a0);
    let tile = xt.as_ref().subcols(a0, lanes);
    let mut dots = Mat::<f64>::zeros(TARGET_PIECE.min(n - a0), lanes);
    let targets: Vec<usize> = (a0..n).collect();
    for (p, piece) in targets.chunks(TARGET_PIECE).enumerate() {
        let m = piece.len();
        let mut dst = dots.as_mut().subrows_mut(0, m);
        faer::linalg::matmul::matmul(
            dst.as_mut(),
            Accum::Replace,
            xt.as_ref().subcols(piece[0], m).transpose(),
            tile,
            1.0,
            Par::Seq,
        );
        let from = p * TARGET_PIECE;
        for lane in 0..lanes {
            let lane_dots = dst
                .as_mut()
                .col_mut(lane)
                .try_as_col_major_mut()
                .expect("a column of a column-major matrix")
                .as_slice_mut();
            let at = lane * stride + from;
            kd.values_of_dots(a0 + lane, piece, lane_dots, &mut out[at..at + m]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::cache::SharedKernelCache;
    use crate::svm::kernel::matrix::{fill_all_into, MatrixValues, TEST_KINDS as KINDS};

    /// `n` rows of `d` features; `stored` of every 10 values non-zero.
    fn data(n: usize, d: usize, stored: usize) -> Dataset {
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..d)
                    .map(|j| {
                        if (i * 7 + j * 3) % 10 < stored {
                            ((i * d + j) as f64 * 0.413).cos() * 0.9
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        Dataset::from_dense_rows("synthetic-products", &rows, vec![1.0; n])
    }

    fn matrix(kd: &KernelData<'_>, values: MatrixValues, threads: usize) -> Vec<u32> {
        let n = kd.ds.n();
        let sh = SharedKernelCache::new(n, 64.0).whole_columns(true);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(|| fill_all_into(kd, &sh, None, values));
        let m = sh.into_matrix().expect("no handle left");
        m.iter().map(|v| v.to_bits()).collect()
    }

    /// Products give svm-train's values to within the rounding of `f32`
    /// (a few units in its last place), a symmetric matrix, the same bits
    /// on one thread and two; several tiles and target pieces are crossed.
    #[test]
    fn products_are_the_lane_tiles_values_to_rounding_for_any_thread_count() {
        for (n, d, stored) in [(1usize, 5usize, 10usize), (300, 9, 10), (1200, 12, 6)] {
            let ds = data(n, d, stored);
            for kind in KINDS {
                let kd = KernelData::new(&ds, kind);
                assert!(row_matrix(&kd).is_some(), "rows dense enough for products");
                let one = matrix(&kd, MatrixValues::Products, 1);
                assert_eq!(one, matrix(&kd, MatrixValues::Products, 2), "{kind:?}");
                let want = matrix(&kd, MatrixValues::Libsvm, 2);
                let mut differ = 0;
                for a in 0..n {
                    for r in 0..n {
                        let (p, l) = (
                            f32::from_bits(one[a * n + r]),
                            f32::from_bits(want[a * n + r]),
                        );
                        assert_eq!(one[a * n + r], one[r * n + a], "symmetric");
                        assert!(
                            (p - l).abs() <= 4.0 * f32::EPSILON * l.abs().max(1.0),
                            "n {n} {kind:?} ({a}, {r}): {p} against {l}"
                        );
                        differ += usize::from(p != l);
                    }
                }
                // Most values round to the same f32.
                assert!(differ * 20 <= n * n, "{differ} of {} differ", n * n);
            }
        }
    }

    /// Rows too sparse for products keep the lane tiles: svm-train's bits.
    #[test]
    fn sparse_rows_keep_svm_trains_bits() {
        let ds = data(200, 40, 1);
        for kind in KINDS {
            let kd = KernelData::new(&ds, kind);
            assert!(row_matrix(&kd).is_none());
            assert_eq!(
                matrix(&kd, MatrixValues::Products, 2),
                matrix(&kd, MatrixValues::Libsvm, 2)
            );
        }
    }
}
