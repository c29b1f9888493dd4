//! Weighted kernel sums read from a shared kernel cache's columns where it
//! holds them, computed as a batched block ([`KernelBlock`]) where it does
//! not.
//!
//! A k-fold CV with a [`SharedKernelCache`] has, by the time it predicts a
//! held-out fold, usually cached the whole column `K(x_j, ·)` of most support
//! vectors `j` (the solver asked for them). Reading `K(x_j, x_q)` there costs
//! one memory read instead of a kernel evaluation: on dense data (MNIST,
//! madelon) it replaces `d` multiply-adds per value, on sparse data it wins
//! where rows share many features (a9a, not w8a: see [`prefers_cached`]).
//!
//! The cache holds single-precision values made with the training formula,
//! so these sums are not the block's numbers. Their error bound adds the
//! single-precision rounding to the block's, so a held-out label whose
//! decision value lies within it of 0 is decided by the block (and then
//! LIBSVM's prediction kernel) as before: the labels are LIBSVM's either
//! way. Where the sums are a seed's gradient, [`Source::Force`] takes every
//! value from the cache, so that they do not depend on what happened to be
//! cached (which can depend on timing when solves run in parallel).

use rayon::prelude::*;

use crate::svm::cache::runs::{few_runs, run_blocks, runs_of};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::block::{sum_error_bound, KernelBlock, WeightedSums};
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::simd::by_cpu;

/// Cached columns per parallel piece (fixed, so the sums do not depend on
/// the thread count).
const BASIS_PIECE: usize = 256;

/// Expected matching non-zero products per (query, basis row) pair from
/// which reading cached columns is preferred to computing kernel values on
/// sparse data (dense data always prefers the cache). On the inverted index
/// a pair costs its `exp` and `sum_f p_f^2` scattered multiply-adds
/// ([`KernelData::feature_overlap`]); a cached value costs one
/// read of a column that is streamed whole. Measured on this project's
/// machine (unseeded k = 10 CV, shared 2,000 MB cache, 2 threads,
/// prediction seconds over the ten rounds): a9a (`sum_f p_f^2` = 6.2) 3.22
/// s computed against 2.02 s read; w8a (1.3) 0.56 s against 0.68 s.
pub const CACHED_SUMS_MIN_OVERLAP: f64 = 3.0;

/// `2^-24`: the relative rounding error of a normal `f32`.
const F32_REL: f64 = 1.0 / 16_777_216.0;

/// Whether reading cached columns is expected to beat computing kernel
/// values on this data ([`CACHED_SUMS_MIN_OVERLAP`]).
pub fn prefers_cached(kd: &KernelData<'_>) -> bool {
    !kd.ds.is_sparse() || kd.feature_overlap() >= CACHED_SUMS_MIN_OVERLAP
}

/// Where the kernel values of [`weighted_sums`] come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A column the cache holds is read, the others' values are computed as
    /// a block: the cheapest, but which values are single precision depends
    /// on what happens to be cached (timing, when solves run in parallel),
    /// so only the sign of a decision value may be used.
    Peek,
    /// Every column comes from the cache, computed whole into it where
    /// missing: every value is the cache's single-precision training-formula
    /// value, whatever was cached before, so the sums are the same on any
    /// thread count (they are the numbers of a seed's gradient).
    Force,
}

/// Whether [`Source::Force`] suits this run: the data prefers the cache
/// ([`prefers_cached`]) and the cache holds every column of the dataset, so
/// that a column forced in is computed once and never evicted. (With a
/// smaller cache, measured on a9a with SIR: the columns of the rows joining
/// each round are missing, and computing them whole made seeding 25%
/// slower than the block.)
pub fn force_fits(kd: &KernelData<'_>, shared: &SharedKernelCache) -> bool {
    shared.capacity_columns() >= shared.n() && prefers_cached(kd)
}

/// Where sums that later arithmetic reads (a seed's gradient, the held-out
/// sums a chain passes on) may take their values from, so that they are the
/// same numbers on any thread count: every value from the cache where it
/// holds the whole dataset ([`force_fits`]); the columns it happens to hold
/// where that is a function of the run's inputs
/// ([`SharedKernelCache::is_settled`]) and the data prefers reading them
/// ([`prefers_cached`]); else none (a batched block).
pub fn exact_source(kd: &KernelData<'_>, shared: &SharedKernelCache) -> Option<Source> {
    if force_fits(kd, shared) {
        Some(Source::Force)
    } else if shared.is_settled() && prefers_cached(kd) {
        Some(Source::Peek)
    } else {
        None
    }
}

/// `sum_k w1_k K(q, b_k)` and `sum_k w2_k K(q, b_k)` for every query row,
/// with a bound on the first's distance from the same sum with LIBSVM's
/// prediction kernel ([`WeightedSums`]), the values taken from `shared` as
/// `source` says; with [`Source::Peek`] the terms of uncached basis rows
/// are computed as one [`KernelBlock`] and added.
pub fn weighted_sums(
    kd: &KernelData<'_>,
    shared: &SharedKernelCache,
    basis: &[u32],
    w1: &[f64],
    w2: Option<&[f64]>,
    queries: &[usize],
    source: Source,
) -> Vec<WeightedSums> {
    sums_of(kd, shared, (basis, w1, w2), queries, source, true)
}

/// [`weighted_sums`] without the bound (every `err1` infinite), for sums
/// that are a seed's gradient rather than a decision: the same `s1` and
/// `s2` to the bit, at about half the arithmetic per cached value.
pub fn gradient_sums(
    kd: &KernelData<'_>,
    shared: &SharedKernelCache,
    basis: &[u32],
    (w1, w2): (&[f64], &[f64]),
    queries: &[usize],
    source: Source,
) -> Vec<WeightedSums> {
    sums_of(kd, shared, (basis, w1, Some(w2)), queries, source, false)
}

/// [`weighted_sums`], with the bound where `bounds`.
fn sums_of(
    kd: &KernelData<'_>,
    shared: &SharedKernelCache,
    (basis, w1, w2): (&[u32], &[f64], Option<&[f64]>),
    queries: &[usize],
    source: Source,
    bounds: bool,
) -> Vec<WeightedSums> {
    debug_assert_eq!(basis.len(), w1.len());
    let weight2 = |k: usize| w2.map_or(0.0, |w| w[k]);
    let mut cols = Vec::new();
    let (mut missing, mut w1_missing, mut w2_missing) = (Vec::new(), Vec::new(), Vec::new());
    let mut scratch = vec![0.0; kd.d()];
    for (k, (&b, &wk)) in basis.iter().zip(w1).enumerate() {
        let col = match source {
            Source::Peek => shared.peek(b as usize),
            Source::Force => Some(shared.column(kd, b as usize, &mut scratch)),
        };
        match col {
            Some(col) => cols.push((b as usize, wk, weight2(k), col)),
            None => {
                missing.push(b);
                w1_missing.push(wk);
                w2_missing.push(weight2(k));
            }
        }
    }
    let computed = if missing.is_empty() {
        vec![WeightedSums::default(); queries.len()]
    } else if bounds {
        KernelBlock::new(kd, missing).weighted_sums(
            queries,
            &w1_missing,
            w2.map(|_| w2_missing.as_slice()),
        )
    } else {
        KernelBlock::new(kd, missing).unbounded_sums(queries, &w1_missing, &w2_missing)
    };
    let max_nnz = cols
        .iter()
        .map(|c| kd.ds.row(c.0).stored())
        .max()
        .unwrap_or(0);
    // Queries in increasing row order, so that each column is read forwards.
    let mut order: Vec<usize> = (0..queries.len()).collect();
    order.sort_unstable_by_key(|&i| queries[i]);
    let rows: Vec<usize> = order.iter().map(|&i| queries[i]).collect();
    // Per piece of columns and per query: sum w K, sum |w K|, sum |w K|
    // ||b||^2 and sum w2 K. Each column's entries for the queries are
    // gathered into a contiguous buffer (or read in place), then added lane
    // by lane (one lane per query, the columns in piece order). Pieces are
    // fixed by length, and added in piece order: the same sums on any
    // thread count.
    let has_w2 = w2.is_some();
    let tiles = query_tiles(&rows);
    let norms = &kd.norms;
    let pieces: Vec<[Vec<f64>; 4]> = cols
        .par_chunks(BASIS_PIECE)
        .map(|piece| piece_sums(piece, &rows, &tiles, norms, (has_w2, bounds)))
        .collect();
    // The linear kernel's spread does not depend on the values; every
    // weight counts once as a possible single-precision underflow.
    let (w_abs, w_abs_nb) = cols.iter().fold((0.0, 0.0), |(x, y), &(b, wk, _, _)| {
        (x + wk.abs(), y + wk.abs() * kd.norms[b])
    });
    let mut out = vec![WeightedSums::default(); queries.len()];
    for (p, (&i, &qr)) in order.iter().zip(&rows).enumerate() {
        let mut a = [0.0f64; 4];
        for piece in &pieces {
            for (x, y) in a.iter_mut().zip(piece) {
                *x += y[p];
            }
        }
        let [s1, mag, mag_nb, s2] = a;
        let comp = computed[i];
        let total = s1 + comp.s1;
        let err1 = if bounds {
            let mags = CachedMagnitudes {
                mag,
                mag_nb,
                w_abs,
                w_abs_nb,
            };
            let err = cached_error_bound(kd, qr, max_nnz, cols.len(), &mags);
            err + comp.err1 + 2.0 * f64::EPSILON * (s1.abs() + comp.s1.abs())
        } else {
            f64::INFINITY
        };
        out[i] = WeightedSums {
            s1: total,
            s2: s2 + comp.s2,
            err1: if total.is_finite() && err1.is_finite() {
                err1
            } else {
                f64::INFINITY
            },
        };
    }
    out
}

/// What the error bound of a weighted sum of cached kernel values needs of
/// its terms `w_k K(q, b_k)`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CachedMagnitudes {
    /// `sum_k |w_k K_k|`.
    pub mag: f64,
    /// `sum_k |w_k K_k| ||b_k||^2`.
    pub mag_nb: f64,
    /// `sum_k |w_k|`.
    pub w_abs: f64,
    /// `sum_k |w_k| ||b_k||^2`.
    pub w_abs_nb: f64,
}

/// A bound on the distance between a weighted sum of `s` cached kernel
/// values (single precision, training formula, any summation order) for
/// query row `q` over basis rows of at most `max_nnz` non-zeros and the same
/// sum with LIBSVM's prediction kernel (infinite for the polynomial and
/// sigmoid kernels).
pub(crate) fn cached_error_bound(
    kd: &KernelData<'_>,
    q: usize,
    max_nnz: usize,
    s: usize,
    m: &CachedMagnitudes,
) -> f64 {
    let nq = kd.norms[q];
    let spread = match kd.kind {
        KernelKind::Rbf { .. } => nq * m.mag + m.mag_nb,
        KernelKind::Linear => nq * m.w_abs + m.w_abs_nb,
        KernelKind::Poly { .. } | KernelKind::Sigmoid { .. } | KernelKind::Precomputed => 0.0, // bound: infinite
    };
    // Each cached value is within 2^-24 of the f64 training formula's
    // value (relative), or within f32's smallest normal where it is
    // below that; the training formula is within the block's bound of
    // LIBSVM's prediction kernel.
    let rel = 1.0 + 4.0 * F32_REL;
    sum_error_bound(kd, q, max_nnz, s, spread * rel, m.mag) * rel
        + 2.0 * F32_REL * m.mag
        + m.w_abs * f64::from(f32::MIN_POSITIVE)
}

/// A cached column for the sums: its basis row, both weights, the column.
type CachedCol = (usize, f64, f64, crate::svm::cache::column::Column);

/// Query rows per tile of [`piece_body`]: each tile's accumulators (up to
/// four `f64` per query) stay in the first-level cache while every column of
/// the piece is added to them.
const QUERY_TILE: usize = 512;

/// A tile of [`piece_body`]: the sorted queries at positions
/// `pos..pos + len`, and where they are consecutive rows (so read in place),
/// the first of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tile {
    pos: usize,
    len: usize,
    first: Option<usize>,
}

/// The sorted query rows cut into tiles of at most [`QUERY_TILE`]: where
/// they are few long runs of consecutive rows ([`few_runs`]: a
/// held-out fold is one run, a fold-ordered CV round's training rows two),
/// each run's tiles are read in place; else every tile is gathered.
fn query_tiles(rows: &[usize]) -> Vec<Tile> {
    let runs = runs_of(rows.iter().copied());
    let in_place = few_runs(&runs, rows.len());
    let all = [(0, rows.len())];
    run_blocks(if in_place { &runs } else { &all }, QUERY_TILE)
        .into_iter()
        .map(|(pos, len, first)| Tile {
            pos,
            len,
            first: in_place.then_some(first),
        })
        .collect()
}

/// The loop of [`piece_sums`]: tile by tile ([`query_tiles`]), each
/// column's entries for the tile's queries (in place where they are
/// consecutive rows, else gathered) are added lane by lane; the magnitudes
/// of the bound only where `bounds` (else they stay 0), the second sums where
/// `has_w2`. Each query's sums add the columns in piece order whatever the
/// tiling and the flags, so `s1` and `s2` do not depend on `bounds`.
#[inline(always)]
fn piece_body(
    piece: &[CachedCol],
    rows: &[usize],
    tiles: &[Tile],
    norms: &[f64],
    (has_w2, bounds): (bool, bool),
) -> [Vec<f64>; 4] {
    let m = rows.len();
    let mut acc: [Vec<f64>; 4] = std::array::from_fn(|_| vec![0.0f64; m]);
    let mut buf = vec![0.0f32; QUERY_TILE.min(m)];
    for &Tile {
        pos: lo,
        len,
        first,
    } in tiles
    {
        let hi = lo + len;
        let [s1, mag, mag_nb, s2] = &mut acc;
        let (s1, mag, mag_nb, s2) = (
            &mut s1[lo..hi],
            &mut mag[lo..hi],
            &mut mag_nb[lo..hi],
            &mut s2[lo..hi],
        );
        for &(b, wk, wk2, ref col) in piece {
            let vals: &[f32] = match first {
                Some(a) => &col[a..a + len],
                None => {
                    let buf = &mut buf[..hi - lo];
                    for (x, &qr) in buf.iter_mut().zip(&rows[lo..hi]) {
                        *x = col[qr];
                    }
                    buf
                }
            };
            if !bounds {
                if has_w2 {
                    // A seed's gradient: both sums in one pass.
                    for ((x1, x2), &kf) in s1.iter_mut().zip(s2.iter_mut()).zip(vals) {
                        let kv = f64::from(kf);
                        *x1 += wk * kv;
                        *x2 += wk2 * kv;
                    }
                } else {
                    for (x1, &kf) in s1.iter_mut().zip(vals) {
                        *x1 += wk * f64::from(kf);
                    }
                }
                continue;
            }
            let (wa, wnb) = (wk.abs(), wk.abs() * norms[b]);
            for (((x1, xm), xn), &kf) in s1
                .iter_mut()
                .zip(mag.iter_mut())
                .zip(mag_nb.iter_mut())
                .zip(vals)
            {
                let kv = f64::from(kf);
                let ak = kv.abs();
                *x1 += wk * kv;
                *xm += wa * ak;
                *xn += wnb * ak;
            }
            if has_w2 {
                for (x2, &kf) in s2.iter_mut().zip(vals) {
                    *x2 += wk2 * f64::from(kf);
                }
            }
        }
    }
    acc
}

by_cpu!(
    /// One piece's four sums per query ([`weighted_sums`]), the columns in
    /// piece order, compiled for the widest vector unit the CPU has.
    fn piece_sums(
        piece: &[CachedCol],
        rows: &[usize],
        tiles: &[Tile],
        norms: &[f64],
        flags: (bool, bool),
    ) -> [Vec<f64>; 4] = piece_body
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::k_function;

    /// 12 dense rows of 40 features (so [`prefers_cached`] holds).
    fn wide() -> Dataset {
        let rows: Vec<Vec<f64>> = (0..12)
            .map(|i| {
                (0..40)
                    .map(|j| ((i * 40 + j) as f64 * 0.61).sin() * 0.5)
                    .collect()
            })
            .collect();
        Dataset::from_dense_rows("synthetic-wide", &rows, vec![1.0; 12])
    }

    #[test]
    fn cached_and_computed_terms_are_within_their_bound_of_libsvm() {
        let ds = wide();
        for kind in [KernelKind::Rbf { gamma: 0.05 }, KernelKind::Linear] {
            let kd = KernelData::new(&ds, kind);
            assert!(prefers_cached(&kd));
            let shared = SharedKernelCache::new(ds.n(), 1.0);
            let mut scratch = vec![0.0; kd.d()];
            for a in [1usize, 4, 7] {
                shared.column(&kd, a, &mut scratch);
            }
            let (hits, evals) = (
                shared.hits.load(std::sync::atomic::Ordering::Relaxed),
                kd.block_evals(),
            );
            let basis = [1u32, 2, 4, 7, 9];
            let w = [0.75, -1.5, 2.0, -0.25, 1.0];
            let queries: Vec<usize> = (0..ds.n()).collect();
            let sums = weighted_sums(&kd, &shared, &basis, &w, None, &queries, Source::Peek);
            // Rows 2 and 9 are not cached: only they were computed, and
            // reading the cache changed neither its counts nor its order.
            assert_eq!(kd.block_evals() - evals, 2 * ds.n() as u64);
            assert_eq!(shared.hits.load(std::sync::atomic::Ordering::Relaxed), hits);
            for (&q, s) in queries.iter().zip(&sums) {
                let exact: f64 = basis
                    .iter()
                    .zip(&w)
                    .map(|(&b, &wk)| wk * k_function(kind, ds.row(q), ds.row(b as usize)))
                    .sum();
                assert!((s.s1 - exact).abs() <= s.err1, "{kind:?} row {q}");
                assert!(s.err1 > 0.0 && s.err1 < 1e-5 * (1.0 + exact.abs()));
            }
            // Forced: every column is computed into the cache, none as a
            // block, and the second weights give the second sums.
            let w2 = [1.0, 0.0, -1.0, 0.0, 0.5];
            let forced =
                weighted_sums(&kd, &shared, &basis, &w, Some(&w2), &queries, Source::Force);
            assert_eq!(kd.block_evals() - evals, 2 * ds.n() as u64, "no new block");
            assert!(basis.iter().all(|&b| shared.peek(b as usize).is_some()));
            for (&q, s) in queries.iter().zip(&forced) {
                let exact = |w: &[f64]| -> f64 {
                    basis
                        .iter()
                        .zip(w)
                        .map(|(&b, &wk)| wk * k_function(kind, ds.row(q), ds.row(b as usize)))
                        .sum()
                };
                assert!((s.s1 - exact(&w)).abs() <= s.err1, "{kind:?} row {q}");
                assert!((s.s2 - exact(&w2)).abs() <= 1e-5 * (1.0 + exact(&w2).abs()));
            }
        }
    }

    /// A seed's gradient sums are the bounded sums' `s1` and `s2` to the
    /// bit, cached and computed columns alike, with no bound.
    #[test]
    fn gradient_sums_are_the_weighted_sums_without_the_bound() {
        let ds = wide();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.05 });
        let shared = SharedKernelCache::new(ds.n(), 1.0).settled(true);
        let mut scratch = vec![0.0; kd.d()];
        for a in [0usize, 3, 5, 8] {
            shared.column(&kd, a, &mut scratch);
        }
        let basis = [0u32, 1, 3, 5, 6, 8];
        let w1 = [0.5, -1.25, 2.0, 0.75, -0.5, 1.0];
        let w2 = [1.0, 0.0, -1.0, 0.0, 0.25, 2.0];
        let queries: Vec<usize> = (0..ds.n()).rev().collect();
        for source in [Source::Peek, Source::Force] {
            let want = weighted_sums(&kd, &shared, &basis, &w1, Some(&w2), &queries, source);
            let got = gradient_sums(&kd, &shared, &basis, (&w1, &w2), &queries, source);
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(
                    (g.s1.to_bits(), g.s2.to_bits()),
                    (w.s1.to_bits(), w.s2.to_bits())
                );
                assert!(w.err1.is_finite() && g.err1 == f64::INFINITY);
            }
        }
    }

    #[test]
    fn sums_do_not_depend_on_the_thread_count_and_overflow_is_unsure() {
        let ds = wide();
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.05 });
        let shared = SharedKernelCache::new(ds.n(), 1.0);
        let mut scratch = vec![0.0; kd.d()];
        for a in 0..6 {
            shared.column(&kd, a, &mut scratch);
        }
        // More columns than one parallel piece holds (rows repeat).
        let basis: Vec<u32> = (0..3 * BASIS_PIECE as u32).map(|k| k % 12).collect();
        let w: Vec<f64> = (0..basis.len()).map(|k| (k % 13) as f64 - 5.5).collect();
        let q: Vec<usize> = (0..600).map(|i| (i * 5) % 12).collect();
        let run = |t: usize, source: Source| {
            crate::svm::cv::pool::build(t)
                .unwrap()
                .install(|| weighted_sums(&kd, &shared, &basis, &w, Some(&w), &q, source))
        };
        // Peeking first (forcing fills the cache, which peeking then reads).
        assert!(run(1, Source::Peek) == run(3, Source::Peek));
        assert!(run(1, Source::Force) == run(3, Source::Force));
        let huge = weighted_sums(
            &kd,
            &shared,
            &[0, 1],
            &[f64::MAX, f64::MAX],
            None,
            &[3],
            Source::Peek,
        );
        assert_eq!(huge[0].err1, f64::INFINITY, "a sum that overflowed");
    }

    #[test]
    fn sparse_rows_with_few_non_zeros_keep_the_block() {
        let ds = Dataset::from_csr(
            "synthetic-sparse",
            100,
            vec![0, 2, 3],
            vec![0, 9, 50],
            vec![1.0, 2.0, 3.0],
            vec![1.0, -1.0],
        );
        assert!(!prefers_cached(&KernelData::new(&ds, KernelKind::Linear)));
    }

    #[test]
    fn runs_are_read_in_place_with_the_gathered_bits() {
        // Two long runs (few_runs): tiles in place, cut at the
        // run's end and every QUERY_TILE rows.
        let rows: Vec<usize> = (3..3 + QUERY_TILE + 10).chain(900..1000).collect();
        let tiles = query_tiles(&rows);
        let t = |pos, len, first| Tile { pos, len, first };
        let second = QUERY_TILE + 10;
        assert_eq!(
            tiles,
            vec![
                t(0, QUERY_TILE, Some(3)),
                t(QUERY_TILE, 10, Some(3 + QUERY_TILE)),
                t(second, 100, Some(900))
            ]
        );
        // Scattered rows are gathered.
        let scattered: Vec<usize> = (0..200).map(|i| 3 * i).collect();
        assert!(query_tiles(&scattered).iter().all(|t| t.first.is_none()));
        // Both ways give the same bits, with and without the bound.
        let n = 1000;
        let cols: Vec<CachedCol> = (0..3)
            .map(|k| {
                let col: Vec<f32> = (0..n)
                    .map(|i| ((i * (k + 2)) as f32 * 0.01).sin())
                    .collect();
                let col: std::sync::Arc<[f32]> = col.into();
                (k, 0.5 - k as f64, 0.25 * k as f64, col.into())
            })
            .collect();
        let norms = vec![1.5; n];
        let gathered: Vec<Tile> = (0..rows.len())
            .step_by(QUERY_TILE)
            .map(|p| t(p, QUERY_TILE.min(rows.len() - p), None))
            .collect();
        for flags in [(true, true), (true, false), (false, false)] {
            let a = piece_sums(&cols, &rows, &tiles, &norms, flags);
            let b = piece_sums(&cols, &rows, &gathered, &norms, flags);
            for (x, y) in a.iter().zip(&b) {
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(x), bits(y), "{flags:?}");
            }
            let want: f64 = cols.iter().map(|c| c.1 * f64::from(c.3[905])).sum();
            assert!((a[0][second + 5] - want).abs() < 1e-12);
        }
    }
}
