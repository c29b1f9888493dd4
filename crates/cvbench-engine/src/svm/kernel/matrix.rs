//! The whole kernel matrix of a dataset, [`TILE`] rows at a time, into a
//! [`SharedKernelCache`] that holds every column.
//!
//! A cross-validation whose shared cache keeps every column (the class
//! pairs and folds of a one-vs-one run within `-m`) asks for most columns
//! sooner or later: on MNIST's first 10,000 digits its solves asked for
//! 62% of them, on letter for 86%. Computed on demand, each column walks
//! every row of the dataset once; computed here, [`TILE`] columns share one
//! walk ([`crate::svm::kernel::lane_tile`]), and the matrix's symmetry halves the
//! work (`K(a, b)` and `K(b, a)` are the same products summed in the same
//! order, so the same bits). With [`MatrixValues::Libsvm`] every value is
//! the one [`crate::svm::kernel::KernelData::fill_column`] computes, to the
//! bit, so the solves that read them are the same solves; the batched
//! solver's [`MatrixValues::Products`] computes dense rows' tiles as matrix
//! products instead ([`crate::svm::kernel::product_tiles`]).

use std::sync::atomic::Ordering;

use rayon::prelude::*;

use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::lane_tile::{Tile, TILE};
use crate::svm::kernel::product_tiles::{product_rows, row_matrix, PRODUCT_TILE};
use crate::svm::kernel::KernelData;

/// How the matrix's values are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixValues {
    /// svm-train's bits, through the lane tiles: the values
    /// [`KernelData::fill_column`] computes (the LIBSVM-identical SMO's).
    Libsvm,
    /// Matrix products with fused multiply-adds where the rows are dense
    /// enough ([`crate::svm::kernel::product_tiles`]), else the lane tiles: the batched
    /// solver's, which needs LIBSVM's optimum, not its bits.
    Products,
}

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

/// The largest share of a cache budget the whole kernel matrix may take
/// when it is held whole ([`whole_matrix_mb`]); the rest is the solves'.
pub const WHOLE_SHARE: f64 = 0.9;

/// The MB a shared cache needs to hold all `n` columns of an `n x n`
/// matrix, where that is at most [`WHOLE_SHARE`] of `budget_mb`; `None`
/// where the matrix does not fit.
pub fn whole_matrix_mb(n: usize, budget_mb: f64) -> Option<f64> {
    // A shared cache's column costs `4 n + 64` bytes; a millionth more
    // keeps the division in `SharedKernelCache::new` from rounding to n - 1.
    let need = n as f64 * (n as f64 * 4.0 + 64.0) / (1u64 << 20) as f64;
    (n > 0 && need <= WHOLE_SHARE * budget_mb).then_some(need * (1.0 + 1e-6))
}

/// The whole kernel matrix of `kd`'s rows in a shared cache, computed at
/// once where it takes at most [`WHOLE_SHARE`] of `cache_mb`
/// ([`whole_matrix_mb`]); `None` where it does not. A training from `alpha
/// = 0` asks for most columns of a small dataset (every support vector's
/// and every row that enters a working set): computed a tile at a time and
/// half of them by symmetry, they cost less than one at a time, with the
/// same bits.
pub fn prefilled(
    kd: &KernelData<'_>,
    cache_mb: f64,
    values: MatrixValues,
) -> Option<SharedKernelCache> {
    let mb = whole_matrix_mb(kd.ds.n(), cache_mb)?;
    let sh = SharedKernelCache::new(kd.ds.n(), mb);
    if sh.capacity_columns() < kd.ds.n() {
        return None;
    }
    let sh = sh.whole_columns(true);
    fill_all_into(kd, &sh, None, values);
    Some(sh)
}

/// Compute every column of `kd`'s kernel matrix into `sh` (which must keep
/// all `n` of them), on the current rayon pool; the values count
/// [`matrix_evals`] in `sh`'s kernel evaluations. Bit-identical to the
/// columns its solves would compute, for any thread count.
///
/// The matrix is one buffer, column after column: each tile of [`TILE`]
/// columns first computes its entries from its own first row down (the
/// upper triangle and the diagonal block), then copies the entries above
/// it from the earlier tiles' columns (`K(r, a) = K(a, r)`, the same bits).
pub fn fill_all(kd: &KernelData<'_>, sh: &SharedKernelCache) {
    fill_all_into(kd, sh, None, MatrixValues::Libsvm);
}

/// [`fill_all`] into `spare` where it can hold `n * n` values (a matrix
/// that is no longer needed: every value is written again), else into a
/// new one ([`spare_or_zeroed`]), with the `values` asked for (the
/// symmetry as in [`fill_all`]: each tile computes its columns from its
/// first row down).
pub fn fill_all_into(
    kd: &KernelData<'_>,
    sh: &SharedKernelCache,
    spare: Option<Vec<f32>>,
    values: MatrixValues,
) {
    let n = kd.ds.n();
    assert_eq!(sh.n(), n, "a cache for this dataset's rows");
    if kd.kind.is_precomputed() {
        // Every value read from the data: no products, no symmetry.
        assert!(
            sh.capacity_columns() >= n,
            "a cache that keeps every column"
        );
        let mut matrix = spare_or_zeroed(spare, n * n);
        crate::svm::kernel::precomputed::fill_matrix(&kd.ds, &mut matrix);
        sh.set_all(matrix);
        sh.kernel_evals
            .fetch_add((n as u64) * (n as u64), Ordering::Relaxed);
        return;
    }
    let products = match values {
        MatrixValues::Products => row_matrix(kd),
        MatrixValues::Libsvm => None,
    };
    match &products {
        Some(xt) => fill_symmetric(sh, spare, PRODUCT_TILE, |a0, cols| {
            product_rows(kd, xt, a0, cols, n)
        }),
        None => fill_symmetric(sh, spare, TILE, |a0, cols| lane_rows(kd, a0, cols, n)),
    }
    sh.kernel_evals
        .fetch_add(matrix_evals(n), Ordering::Relaxed);
}

/// A symmetric matrix of `sh.n()` rows into `sh` (which must keep every
/// column), written into `spare` where it can hold `n * n` values, else
/// into a new one: `tile(a0, cols)` computes the columns
/// `a0..a0 + tile_rows` from row `a0` down (`cols[lane * n + (r - a0)]`,
/// `cols` starting at column `a0`'s row `a0`), the tiles on the current
/// rayon pool, then each entry above a tile is copied
/// from the earlier tiles' columns (`K(r, a) = K(a, r)`, the same bits
/// where the tiles compute symmetric values). Counts no kernel values.
fn fill_symmetric(
    sh: &SharedKernelCache,
    spare: Option<Vec<f32>>,
    tile_rows: usize,
    tile: impl Fn(usize, &mut [f32]) + Sync,
) {
    let n = sh.n();
    assert!(
        sh.capacity_columns() >= n,
        "a cache that keeps every column"
    );
    sh.set_all(symmetric_matrix(n, spare, tile_rows, tile));
}

/// The symmetric `n x n` matrix of [`fill_symmetric`] (column after
/// column), written into `spare` where it can hold `n * n` values.
pub(crate) fn symmetric_matrix(
    n: usize,
    spare: Option<Vec<f32>>,
    tile_rows: usize,
    tile: impl Fn(usize, &mut [f32]) + Sync,
) -> Vec<f32> {
    assert!(
        tile_rows > 0 && tile_rows.is_multiple_of(TILE),
        "whole lane tiles"
    );
    // Every entry is written below.
    let mut matrix = spare_or_zeroed(spare, n * n);
    if n > 0 {
        let one = |(t, cols): (usize, &mut [f32])| {
            let a0 = t * tile_rows;
            tile(a0, &mut cols[a0..]);
        };
        matrix
            .par_chunks_mut(tile_rows * n)
            .enumerate()
            .for_each(one);
        let whole = SharedColumns(matrix.as_mut_ptr());
        (0..n.div_ceil(TILE))
            .into_par_iter()
            .for_each(|t| whole.fill_above(n, t));
    }
    matrix
}

/// The matrix buffer, written by every tile at once in
/// [`SharedColumns::fill_above`].
struct SharedColumns(*mut f32);

// SAFETY: the tiles read and write disjoint parts of the buffer (see
// `fill_above`), which outlives them (`fill_all` waits for every tile).
unsafe impl Sync for SharedColumns {}

impl SharedColumns {
    /// Entries `0..a0` of tile `t`'s columns (`a0 = t TILE`) from the
    /// earlier tiles' columns, whose entries from their own first row down
    /// are written. Tile `t` writes only its columns' entries above `a0`
    /// and reads only entries at rows `>= a0` of columns before `a0`, which
    /// lie below those columns' own tiles' first rows: no entry is both
    /// read and written by the tiles, which run at once.
    fn fill_above(&self, n: usize, t: usize) {
        let a0 = t * TILE;
        let lanes = TILE.min(n - a0);
        for b0 in (0..a0).step_by(TILE) {
            // A TILE x TILE block, read across (it stays in the first-level
            // cache) and written down each column.
            for lane in 0..lanes {
                for lane_b in 0..TILE {
                    // SAFETY: in bounds (rows and columns < n); column
                    // b0 + lane_b < a0 at row a0 + lane >= a0 is only read,
                    // column a0 + lane at row b0 + lane_b < a0 only written
                    // (see the doc above).
                    unsafe {
                        let v = *self.0.add((b0 + lane_b) * n + a0 + lane);
                        *self.0.add((a0 + lane) * n + b0 + lane_b) = v;
                    }
                }
            }
        }
    }
}

/// A buffer of `len` values for a matrix whose every entry the caller
/// writes: `spare` where it can hold them (the values it holds are stale),
/// else a new zeroed one, with `spare` freed *before* the new one is
/// allocated, so that the two never take memory at once (issue 58: the
/// pair blocks' budget counts one matrix).
pub(crate) fn spare_or_zeroed(spare: Option<Vec<f32>>, len: usize) -> Vec<f32> {
    match spare {
        Some(mut m) if m.capacity() >= len => {
            m.resize(len, 0.0);
            m
        }
        other => {
            drop(other);
            zeroed_matrix(len)
        }
    }
}

/// A zeroed buffer of `len` values for a matrix, backed by huge pages where
/// the system offers them on request (Linux's transparent huge pages in
/// `madvise` mode): a matrix of a gigabyte is then a few hundred page
/// faults instead of a quarter of a million. The buffer is reserved
/// untouched, advised, then zeroed on the current rayon pool, so that the first touch of its pages comes after the
/// advice whether the allocator maps fresh pages or reuses its heap.
fn zeroed_matrix(len: usize) -> Vec<f32> {
    const HUGE: usize = 2 << 20;
    let mut v: Vec<f32> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        let start = v.as_ptr() as usize;
        let (from, to) = (
            start.next_multiple_of(HUGE),
            (start + len * std::mem::size_of::<f32>()) / HUGE * HUGE,
        );
        if from < to {
            // SAFETY: advice on whole pages inside the buffer's own
            // allocation; it changes no value (failure is harmless).
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    let spare = &mut v.spare_capacity_mut()[..len];
    let zero = |c: &mut [std::mem::MaybeUninit<f32>]| c.fill(std::mem::MaybeUninit::new(0.0));
    spare.par_chunks_mut(HUGE / 4).for_each(zero);
    // SAFETY: the first `len` values were written just above.
    unsafe { v.set_len(len) };
    v
}

/// `K(a, r)` for the tile's rows `a` (from `a0`) and every row `r >= a0`,
/// into `out[lane * stride + (r - a0)]`.
fn lane_rows(kd: &KernelData<'_>, a0: usize, out: &mut [f32], stride: usize) {
    let n = kd.ds.n();
    let mine: Vec<usize> = (a0..(a0 + TILE).min(n)).collect();
    let targets: Vec<usize> = (a0..n).collect();
    lane_block(kd, &mine, &targets, out, stride);
}

/// `K(a, r)` for the rows `mine` (at most [`TILE`]) and the rows
/// `targets`, into `out[lane * stride + i]` for `targets[i]`: each value
/// [`KernelData::fill_column`]'s, to the bit.
pub(crate) fn lane_block(
    kd: &KernelData<'_>,
    mine: &[usize],
    targets: &[usize],
    out: &mut [f32],
    stride: usize,
) {
    let mut tile = Tile::new(kd.d());
    tile.load(&kd.ds, mine);
    // Targets a piece at a time, so that each lane's dot products are read
    // back from a buffer in cache.
    let mut dots = vec![0.0; TARGET_PIECE * TILE];
    let mut lane_dots = vec![0.0; TARGET_PIECE];
    for (p, piece) in targets.chunks(TARGET_PIECE).enumerate() {
        let dots = &mut dots[..piece.len() * TILE];
        tile.dots(&kd.ds, piece, dots);
        let from = p * TARGET_PIECE;
        for (lane, &a) in mine.iter().enumerate() {
            let lane_dots = &mut lane_dots[..piece.len()];
            for (o, chunk) in lane_dots.iter_mut().zip(dots.chunks_exact(TILE)) {
                *o = chunk[lane];
            }
            let at = lane * stride + from;
            // (The dot products become distances in place.)
            kd.values_of_dots(a, piece, lane_dots, &mut out[at..at + piece.len()]);
        }
    }
}

/// Target rows per piece of [`lane_rows`] (its dot products: 64 KB).
const TARGET_PIECE: usize = 256;

/// One kernel of each kind, for the tests of the matrix fills.
/// A kernel cache for the rounds of a CV (the pairs and folds of a
/// one-vs-one run, the folds of one function) over the rows
/// of `kd` within `mb` megabytes: where it keeps every column, the whole
/// kernel matrix, computed at once on the current rayon pool
/// ([`fill_all_into`] with `values`, the solver's: see
/// [`crate::svm::cv::strategy::SolverKind::matrix_values`]; each column serves every pair
/// and fold holding its row, see [`SharedKernelCache::whole_columns`]);
/// else columns on demand.
pub fn shared_cache(kd: &KernelData<'_>, mb: f64, values: MatrixValues) -> SharedKernelCache {
    shared_cache_into(kd, mb, None, values)
}

/// [`shared_cache`], its matrix written into `spare` where that can hold
/// it (the buffer of an earlier matrix,
/// [`SharedKernelCache::into_matrix`]).
pub fn shared_cache_into(
    kd: &KernelData<'_>,
    mb: f64,
    spare: Option<Vec<f32>>,
    values: MatrixValues,
) -> SharedKernelCache {
    let sh = SharedKernelCache::new(kd.ds.n(), mb);
    let all_fit = sh.capacity_columns() >= kd.ds.n();
    let sh = sh.whole_columns(all_fit);
    if all_fit && worth_filling(&sh) {
        fill_all_into(kd, &sh, spare, values);
    }
    sh
}

#[cfg(test)]
pub(crate) const TEST_KINDS: [crate::svm::kernel::KernelKind; 4] = [
    crate::svm::kernel::KernelKind::Rbf { gamma: 0.7 },
    crate::svm::kernel::KernelKind::Linear,
    crate::svm::kernel::KernelKind::Poly {
        gamma: 0.3,
        coef0: 1.0,
        degree: 3,
    },
    crate::svm::kernel::KernelKind::Sigmoid {
        gamma: 0.2,
        coef0: -0.5,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::KernelKind;

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
            for kind in TEST_KINDS {
                let kd = KernelData::new(&ds, kind);
                let sh = SharedKernelCache::new(n, 10.0);
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

    /// A matrix written into an earlier matrix's buffer (here full of NaN)
    /// is the matrix written into a fresh one.
    #[test]
    fn a_reused_buffer_is_written_whole() {
        let ds = data(70, true);
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.7 });
        let fresh = SharedKernelCache::new(70, 10.0);
        fill_all(&kd, &fresh);
        let reused = SharedKernelCache::new(70, 10.0);
        fill_all_into(
            &kd,
            &reused,
            Some(vec![f32::NAN; 70 * 70]),
            MatrixValues::Libsvm,
        );
        let bits = |sh: SharedKernelCache| {
            sh.into_matrix()
                .expect("no handle left")
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(reused), bits(fresh));
    }

    /// A training on the prefilled matrix is the solve without it, to the
    /// bit; a budget short of the matrix gives none.
    #[test]
    fn a_prefilled_training_is_the_same_solve() {
        use crate::svm::model::params::SvmParams;
        use crate::svm::model::solution::{train, train_with};
        let mut ds = data(120, true);
        ds.y = (0..120)
            .map(|i| if (i * 7) % 5 < 2 { 1.0 } else { -1.0 })
            .collect();
        let params = SvmParams::rbf(3.0, 0.9);
        let kd = KernelData::new(&ds, params.kernel);
        let values = MatrixValues::Libsvm;
        assert!(
            prefilled(&kd, 0.01, values).is_none(),
            "120 columns need 43 KB"
        );
        let sh = prefilled(&kd, 1.0, values).expect("the matrix fits");
        assert_eq!(sh.held(), 120);
        let rows: Vec<usize> = (0..120).collect();
        let with = train(&ds, &rows, &params, None).expect("a model");
        let checked = params.check().expect("valid parameters");
        let without = train_with(&kd, &rows, &checked, None, None).expect("a model");
        assert_eq!(with.stats.iterations, without.stats.iterations);
        assert_eq!(
            with.stats.objective.to_bits(),
            without.stats.objective.to_bits()
        );
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&with.model.sv_coef), bits(&without.model.sv_coef));
        assert_eq!(with.model.rho.to_bits(), without.model.rho.to_bits());
    }

    #[test]
    fn a_cache_short_of_the_matrix_is_not_filled() {
        let sh = SharedKernelCache::new(5000, 1.0);
        assert!(!worth_filling(&sh));
    }
}
