//! The whole kernel matrix of a dataset, [`TILE`] rows at a time, into a
//! [`SharedKernelCache`] that holds every column.
//!
//! A cross-validation whose shared cache keeps every column (the class
//! pairs and folds of a one-vs-one run within `-m`) asks for most columns
//! sooner or later: on MNIST's first 10,000 digits its solves asked for
//! 62% of them, on letter for 86%. Computed on demand, each column walks
//! every row of the dataset once; computed here, [`TILE`] columns share one
//! walk ([`crate::svm::lane_tile`]), and the matrix's symmetry halves the
//! work (`K(a, b)` and `K(b, a)` are the same products summed in the same
//! order, so the same bits). Every value is the one
//! [`crate::svm::kernel::KernelData::fill_column`] computes, to the bit, so
//! the solves that read them are the same solves.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use rayon::prelude::*;

use super::cache::SharedKernelCache;
use super::kernel::KernelData;
use super::lane_tile::{Tile, TILE};

/// Kernel values the whole matrix of `n` rows costs: its upper triangle
/// with the diagonal, `n (n + 1) / 2`.
pub fn matrix_evals(n: usize) -> u64 {
    (n as u64) * (n as u64 + 1) / 2
}

/// Whether [`fill_all`] pays on `sh`: it keeps every column (so nothing is
/// evicted) and holds none yet.
pub fn worth_filling(sh: &SharedKernelCache) -> bool {
    sh.capacity_columns() >= sh.n() && sh.held() == 0
}

/// Compute every column of `kd`'s kernel matrix into `sh` (which must keep
/// all `n` of them), on the current rayon pool; the values count
/// [`matrix_evals`] in `sh`'s kernel evaluations. Bit-identical to the
/// columns its solves would compute, for any thread count.
pub fn fill_all(kd: &KernelData<'_>, sh: &SharedKernelCache) {
    let n = kd.ds.n();
    assert_eq!(sh.n(), n, "a cache for this dataset's rows");
    assert!(
        sh.capacity_columns() >= n,
        "a cache that keeps every column"
    );
    let tiles = n.div_ceil(TILE);
    let cols: Vec<Vec<Arc<[f32]>>> = if sh.budget_columns() >= n + n / 2 {
        // Room for half a matrix more: tile t's rows a0..a0 + TILE against
        // rows a0..n (lane-major, each row's part of the upper triangle
        // contiguous), then each tile's whole columns from its own part and
        // the earlier tiles' (rows before a0), TILE x TILE blocks at a time.
        let upper: Vec<Vec<f32>> = (0..tiles)
            .into_par_iter()
            .map(|t| lane_rows(kd, t * TILE, t * TILE))
            .collect();
        (0..tiles)
            .into_par_iter()
            .map(|t| tile_columns(&upper, n, t))
            .collect()
    } else {
        // Within the budget: every tile against every row (twice the
        // products, no more memory than the matrix).
        (0..tiles)
            .into_par_iter()
            .map(|t| {
                let full = lane_rows(kd, t * TILE, 0);
                full.chunks_exact(n).map(Arc::from).collect()
            })
            .collect()
    };
    sh.set_all(cols.into_iter().flatten().collect());
    sh.kernel_evals
        .fetch_add(matrix_evals(n), Ordering::Relaxed);
}

/// The whole columns of tile `t`'s rows from every tile's upper part
/// (`K(r, a) = K(a, r)`, the same bits).
fn tile_columns(upper: &[Vec<f32>], n: usize, t: usize) -> Vec<Arc<[f32]>> {
    let a0 = t * TILE;
    let lanes = TILE.min(n - a0);
    let mut cols = vec![0f32; lanes * n];
    for (lane, col) in cols.chunks_exact_mut(n).enumerate() {
        col[a0..].copy_from_slice(&upper[t][lane * (n - a0)..(lane + 1) * (n - a0)]);
    }
    for (u, upper) in upper.iter().enumerate().take(t) {
        // Rows r = u * TILE + lane_u: their entries for columns a0.. are
        // contiguous in their own part.
        let b0 = u * TILE;
        // A TILE x TILE block, read across (it stays in the first-level
        // cache) and written down each column.
        for (lane, col) in cols.chunks_exact_mut(n).enumerate() {
            for (lane_u, o) in col[b0..b0 + TILE].iter_mut().enumerate() {
                *o = upper[lane_u * (n - b0) + (a0 - b0) + lane];
            }
        }
    }
    cols.chunks_exact(n).map(Arc::from).collect()
}

/// `K(a, r)` for the tile's rows `a` (from `a0`) and every row `r >= from`,
/// lane-major (`out[lane * (n - from) + (r - from)]`).
fn lane_rows(kd: &KernelData<'_>, a0: usize, from: usize) -> Vec<f32> {
    let n = kd.ds.n();
    let mine: Vec<usize> = (a0..(a0 + TILE).min(n)).collect();
    let mut tile = Tile::new(kd.d());
    tile.load(&kd.ds, &mine);
    let m = n - from;
    let mut out = vec![0f32; mine.len() * m];
    // Targets a piece at a time, so that each lane's dot products are read
    // back from a buffer in cache.
    let mut dots = vec![0.0; TARGET_PIECE * TILE];
    let mut lane_dots = vec![0.0; TARGET_PIECE];
    let targets: Vec<usize> = (from..n).collect();
    for (p, piece) in targets.chunks(TARGET_PIECE).enumerate() {
        let dots = &mut dots[..piece.len() * TILE];
        tile.dots(&kd.ds, piece, dots);
        let from = p * TARGET_PIECE;
        for (lane, &a) in mine.iter().enumerate() {
            let lane_dots = &mut lane_dots[..piece.len()];
            for (o, chunk) in lane_dots.iter_mut().zip(dots.chunks_exact(TILE)) {
                *o = chunk[lane];
            }
            let at = lane * m + from;
            kd.values_of_dots(a, piece, lane_dots, &mut out[at..at + piece.len()]);
        }
    }
    out
}

/// Target rows per piece of [`lane_rows`] (its dot products: 64 KB).
const TARGET_PIECE: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::KernelKind;

    fn data(n: usize, sparse: bool) -> Dataset {
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..9)
                    .map(|j| {
                        let v = ((i * 9 + j) as f64 * 0.413).cos() * 0.9;
                        if sparse && (i * j) % 4 != 1 {
                            0.0
                        } else {
                            v
                        }
                    })
                    .collect()
            })
            .collect();
        Dataset::from_dense_rows("synthetic-matrix", &rows, vec![1.0; n])
    }

    #[test]
    fn every_column_is_fill_columns_to_the_bit() {
        for (n, sparse) in [
            (1usize, false),
            (31, true),
            (70, false),
            (70, true),
            (300, true),
        ] {
            let ds = data(n, sparse);
            for kind in [
                KernelKind::Rbf { gamma: 0.7 },
                KernelKind::Linear,
                KernelKind::Poly {
                    gamma: 0.3,
                    coef0: 1.0,
                    degree: 3,
                },
                KernelKind::Sigmoid {
                    gamma: 0.2,
                    coef0: -0.5,
                },
            ] {
                let kd = KernelData::new(&ds, kind);
                // A roomy cache (the symmetric fill) and, at n = 300, one
                // with less than half a matrix to spare (the direct fill).
                let sh = SharedKernelCache::new(n, if n == 300 { 0.43 } else { 10.0 });
                assert_eq!(n == 300, sh.budget_columns() < n + n / 2);
                assert!(worth_filling(&sh));
                fill_all(&kd, &sh);
                assert!(!worth_filling(&sh));
                assert_eq!(sh.kernel_evals(), matrix_evals(n));
                let rows: Vec<u32> = (0..n as u32).collect();
                let mut scratch = vec![0.0; kd.d()];
                for a in 0..n {
                    let mut want = vec![0f32; n];
                    kd.fill_column(a, 1, &rows, None, &mut want, &mut scratch);
                    let got = sh.peek(a).expect("every column is held");
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "n {n} sparse {sparse} {kind:?} col {a}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_cache_short_of_the_matrix_is_not_filled() {
        let sh = SharedKernelCache::new(5000, 1.0);
        assert!(!worth_filling(&sh));
    }
}
