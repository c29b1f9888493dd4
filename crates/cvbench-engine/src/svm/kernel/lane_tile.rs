//! Kernel sums of up to [`TILE`] rows at once, one SIMD lane per row.
//!
//! A [`Tile`] holds up to [`TILE`] rows of a dataset feature-major and dense
//! (`x[k * TILE + lane]`). Against any other row `z` it gives, in one pass
//! over `z`, every lane's dot product `<x_lane, z>` (the training form of
//! LIBSVM's kernels: the products of the features `z` stores, summed in
//! index order, as [`crate::svm::kernel::KernelData::for_each_dot`] sums
//! them) or direct squared distance `||x_lane - z||^2` (the prediction form,
//! summed over every feature in index order, as
//! [`crate::svm::kernel::direct_sq_dist`] sums it). Each lane keeps its own
//! sum in LIBSVM's order and the extra terms of a dense walk are exact zeros,
//! so every value is LIBSVM's to the bit; only the lanes run side by side.
//! One pass serves [`TILE`] rows, where a kernel column walks `z` once per
//! row: the loads and the loop are shared, and the lanes are vector
//! registers (AVX-512, AVX2 or portable code, chosen at run time; no fused
//! multiply-add, which Rust never introduces).

use crate::data::{Dataset, Row};
use crate::svm::simd::by_cpu;

/// Rows per tile (four AVX-512 registers of `f64`).
pub const TILE: usize = 32;

/// Up to [`TILE`] rows, feature-major, zero-padded (see the module doc).
#[derive(Clone, Debug)]
pub struct Tile {
    d: usize,
    len: usize,
    x: Vec<f64>,
}

impl Tile {
    /// An empty tile for rows of `d` features.
    pub fn new(d: usize) -> Tile {
        Tile {
            d,
            len: 0,
            x: vec![0.0; d * TILE],
        }
    }

    /// Number of features.
    pub fn d(&self) -> usize {
        self.d
    }

    /// Number of rows loaded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no row is loaded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Load rows `rows` (at most [`TILE`]) of `ds`; lanes past them are zero.
    /// Features at or beyond `d` must not occur (checked).
    pub fn load(&mut self, ds: &Dataset, rows: &[usize]) {
        assert!(rows.len() <= TILE, "at most {TILE} rows in a tile");
        self.x.iter_mut().for_each(|v| *v = 0.0);
        for (lane, &r) in rows.iter().enumerate() {
            match ds.row(r) {
                Row::Dense(v) => {
                    assert!(v.len() <= self.d, "a row wider than the tile");
                    for (k, &x) in v.iter().enumerate() {
                        self.x[k * TILE + lane] = x;
                    }
                }
                Row::Sparse(idx, val) => {
                    for (&j, &x) in idx.iter().zip(val) {
                        assert!((j as usize) < self.d, "a feature beyond the tile");
                        self.x[j as usize * TILE + lane] = x;
                    }
                }
            }
        }
        self.len = rows.len();
    }

    /// `out[r * TILE + lane] = <x_lane, row rows[r] of ds>` (training form)
    /// for every row in `rows`.
    pub fn dots(&self, ds: &Dataset, rows: &[usize], out: &mut [f64]) {
        assert_eq!(out.len(), rows.len() * TILE);
        dots_any(&self.x, self.d, ds, rows, out);
    }

    /// `out[t * TILE + lane] = ||x_lane - z_t||^2` (prediction form) for the
    /// dense rows `z_t = zs[t * d .. (t + 1) * d]`.
    pub fn sq_dists(&self, zs: &[f64], out: &mut [f64]) {
        assert_eq!(zs.len() % self.d.max(1), 0);
        let m = zs.len().checked_div(self.d).unwrap_or(0);
        assert_eq!(out.len(), m * TILE);
        sq_dists_any(&self.x, self.d, zs, out);
    }

    /// `out[t * TILE + lane] = <x_lane, z_t>` (`z_t` as in
    /// [`Tile::sq_dists`], each product `x * z` as [`Row::dot_row`] takes it
    /// with the tile's row first).
    pub fn dense_dots(&self, zs: &[f64], out: &mut [f64]) {
        assert_eq!(zs.len() % self.d.max(1), 0);
        let m = zs.len().checked_div(self.d).unwrap_or(0);
        assert_eq!(out.len(), m * TILE);
        dense_dots_any(&self.x, self.d, zs, out);
    }
}

/// One lane group's view of feature `k`.
#[inline(always)]
fn lanes(x: &[f64], k: usize) -> &[f64; TILE] {
    x[k * TILE..(k + 1) * TILE]
        .try_into()
        .expect("a tile holds TILE lanes per feature")
}

/// Target rows four at a time, then two, then one: each row's sums stay in
/// their order (the same bits), the rows' independent chains of additions
/// keep the vector units busy where one row's would wait on each addition,
/// and each load of the tile's lanes serves every row of the pass.
#[inline(always)]
fn dots_body(x: &[f64], d: usize, ds: &Dataset, rows: &[usize], out: &mut [f64]) {
    let mut fours = rows.chunks_exact(4);
    let mut outs = out.chunks_exact_mut(4 * TILE);
    for (r, o) in fours.by_ref().zip(outs.by_ref()) {
        dots_pass::<4>(x, d, ds, r, o);
    }
    let (rows, out) = (fours.remainder(), outs.into_remainder());
    let mut pairs = rows.chunks_exact(2);
    let mut outs = out.chunks_exact_mut(2 * TILE);
    for (r, o) in pairs.by_ref().zip(outs.by_ref()) {
        dots_pass::<2>(x, d, ds, r, o);
    }
    for (r, o) in pairs
        .remainder()
        .chunks_exact(1)
        .zip(outs.into_remainder().chunks_exact_mut(TILE))
    {
        dots_pass::<1>(x, d, ds, r, o);
    }
}

/// One pass over `N` target rows: `out[r * TILE + lane]` for each.
#[inline(always)]
fn dots_pass<const N: usize>(x: &[f64], d: usize, ds: &Dataset, rows: &[usize], out: &mut [f64]) {
    let e: [Entries<'_>; N] = std::array::from_fn(|r| entries(ds, rows[r], d));
    let mut acc = [[0.0f64; TILE]; N];
    let common = e.iter().map(Entries::len).min().unwrap_or(0);
    for t in 0..common {
        for r in 0..N {
            let (j, v) = e[r].get(t);
            let xj = lanes(x, j);
            for l in 0..TILE {
                acc[r][l] += xj[l] * v;
            }
        }
    }
    for r in 0..N {
        for t in common..e[r].len() {
            let (j, v) = e[r].get(t);
            let xj = lanes(x, j);
            for l in 0..TILE {
                acc[r][l] += xj[l] * v;
            }
        }
    }
    for (o, a) in out.chunks_exact_mut(TILE).zip(&acc) {
        o.copy_from_slice(a);
    }
}

/// A row's stored entries `(feature, value)` in order.
enum Entries<'a> {
    Sparse(&'a [u32], &'a [f64]),
    Dense(&'a [f64]),
}

impl Entries<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        match self {
            Entries::Sparse(idx, _) => idx.len(),
            Entries::Dense(z) => z.len(),
        }
    }

    #[inline(always)]
    fn get(&self, t: usize) -> (usize, f64) {
        match self {
            Entries::Sparse(idx, val) => (idx[t] as usize, val[t]),
            Entries::Dense(z) => (t, z[t]),
        }
    }
}

/// Row `r`'s entries (a dense row's first `d`).
#[inline(always)]
fn entries<'a>(ds: &'a Dataset, r: usize, d: usize) -> Entries<'a> {
    match ds.row(r) {
        Row::Sparse(idx, val) => Entries::Sparse(idx, val),
        Row::Dense(z) => Entries::Dense(&z[..d.min(z.len())]),
    }
}

/// `out[t * TILE + lane] = sum_k term(x_lane[k], z_t[k])`, `k` in order,
/// for the dense rows `z_t` of `zs`.
#[inline(always)]
fn dense_body(x: &[f64], d: usize, zs: &[f64], out: &mut [f64], term: impl Fn(f64, f64) -> f64) {
    if d == 0 {
        out.iter_mut().for_each(|v| *v = 0.0);
        return;
    }
    for (z, o) in zs.chunks_exact(d).zip(out.chunks_exact_mut(TILE)) {
        let mut acc = [0.0f64; TILE];
        for (k, &v) in z.iter().enumerate() {
            let xk = lanes(x, k);
            for l in 0..TILE {
                acc[l] += term(xk[l], v);
            }
        }
        o.copy_from_slice(&acc);
    }
}

#[inline(always)]
fn sq_dists_body(x: &[f64], d: usize, zs: &[f64], out: &mut [f64]) {
    dense_body(x, d, zs, out, |a, v| {
        let t = a - v;
        t * t
    })
}

#[inline(always)]
fn dense_dots_body(x: &[f64], d: usize, zs: &[f64], out: &mut [f64]) {
    dense_body(x, d, zs, out, |a, v| a * v)
}

by_cpu!(dots_any, dots_body, (x: &[f64], d: usize, ds: &Dataset, rows: &[usize], out: &mut [f64]));
by_cpu!(sq_dists_any, sq_dists_body, (x: &[f64], d: usize, zs: &[f64], out: &mut [f64]));
by_cpu!(dense_dots_any, dense_dots_body, (x: &[f64], d: usize, zs: &[f64], out: &mut [f64]));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::kernel::direct_sq_dist;

    /// 45 rows, some sparse enough to be stored as CSR by the caller.
    fn rows(sparse: bool) -> Dataset {
        let rows: Vec<Vec<f64>> = (0..45)
            .map(|i| {
                (0..13)
                    .map(|j| {
                        let v = ((i * 13 + j) as f64 * 0.731).sin() * 1.7;
                        if sparse && (i + j) % 3 != 0 {
                            0.0
                        } else {
                            v
                        }
                    })
                    .collect()
            })
            .collect();
        Dataset::from_dense_rows("synthetic-tile", &rows, vec![1.0; 45])
    }

    #[test]
    fn every_lane_is_libsvms_sum_to_the_bit() {
        for sparse in [false, true] {
            let dense = rows(sparse);
            let kd =
                crate::svm::kernel::KernelData::new(&dense, crate::svm::kernel::KernelKind::Linear);
            let ds: &Dataset = &kd.ds;
            assert_eq!(ds.is_sparse(), sparse);
            let d = ds.d();
            let all: Vec<usize> = (0..ds.n()).collect();
            let zs: Vec<f64> = all.iter().flat_map(|&r| ds.row(r).to_dense(d)).collect();
            for chunk in all.chunks(TILE) {
                let mut tile = Tile::new(d);
                tile.load(ds, chunk);
                let mut dots = vec![0.0; all.len() * TILE];
                tile.dots(ds, &all, &mut dots);
                let mut sq = vec![0.0; all.len() * TILE];
                tile.sq_dists(&zs, &mut sq);
                let mut dd = vec![0.0; all.len() * TILE];
                tile.dense_dots(&zs, &mut dd);
                for (lane, &a) in chunk.iter().enumerate() {
                    let mut scratch = vec![0.0; d];
                    let all32: Vec<u32> = all.iter().map(|&b| b as u32).collect();
                    kd.for_each_dot(a, &all32, &mut scratch, |b, want| {
                        assert_eq!(dots[b * TILE + lane].to_bits(), want.to_bits(), "{a} {b}");
                    });
                    // The prediction forms (a sum of only zeros may be -0
                    // on one side and +0 on the other: equal as numbers).
                    for &b in &all {
                        let want = ds.row(a).dot_row(&ds.row(b));
                        assert!(dd[b * TILE + lane] == want, "{a} {b}");
                        let want = direct_sq_dist(ds.row(a), ds.row(b));
                        assert_eq!(sq[b * TILE + lane].to_bits(), want.to_bits(), "{a} {b}");
                    }
                }
                // Lanes past the loaded rows are zero rows.
                assert!(dots[chunk.len()..TILE].iter().all(|&v| v == 0.0));
            }
        }
    }
}
