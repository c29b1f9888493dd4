//! Kernel rows of the working set, computed as blocks and kept in a store
//! with least-recently-used eviction, and the block products that update the
//! gradient (`G += Q_{:,B} d_B`).
//!
//! A row here is `K(x_b, x_t)` for one working-set variable `b` and every
//! training row `t` (unsigned, `f32` as LIBSVM's `Qfloat`). Missing rows are
//! computed as blocks on the rayon pool ([`crate::svm::kernel::basis_rows`]: a dense
//! feature-major basis on sparse data, matrix products on dense data),
//! or taken from a kernel cache shared across solves (whole dataset
//! columns), into which the rows computed here go back. Where the training
//! rows are a few runs of consecutive dataset rows (a CV round's rows in
//! fold order are two), a row is the cache's dataset column itself, read at
//! each position's dataset row ([`RowLayout`]); else it is gathered at the
//! training rows. Products run over fixed blocks of training rows, each
//! summing over the working set in its order, so every value is
//! bit-identical for any thread count and either layout.

use std::sync::Arc;

use rayon::prelude::*;

use crate::svm::cache::column::Column;
use crate::svm::cache::runs::{few_runs, run_blocks, runs_of};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::basis_rows::kernel_rows;
use crate::svm::kernel::KernelData;

/// Training rows per block of the parallel products.
const ROW_BLOCK: usize = 2048;

/// Where a training position's value sits in the rows a [`RowStore`] hands
/// out, and the blocks of positions of the block products.
pub(super) struct RowLayout<'a> {
    /// `None`: entry `t` of a row is position `t`; else the dataset row of
    /// each position (the rows are the shared cache's dataset columns).
    pub at: Option<&'a [u32]>,
    /// `(first position, length, its entry in a row)`: consecutive
    /// positions whose entries are consecutive too, at most [`ROW_BLOCK`]
    /// long, in order, covering every position (with `mirror`, those of
    /// the first half).
    pub blocks: Vec<(usize, usize, usize)>,
    /// `Some(h)`: positions `t` and `t + h` are the same dataset row (the
    /// `2l` variables `a, a*` of epsilon-SVR over its `l` rows), so a block
    /// product's sum at `t` is its sum at `t + h`, computed once.
    pub mirror: Option<usize>,
}

impl RowLayout<'_> {
    /// The entry of position `t` in a row.
    #[inline]
    pub fn entry(&self, t: usize) -> usize {
        self.at.map_or(t, |at| at[t] as usize)
    }
}

/// The kernel rows of working-set variables, keyed by the variable's
/// position in the solve.
pub(super) struct RowStore<'a, 'k> {
    kd: &'k KernelData<'k>,
    /// Dataset rows of the training set, in solver order.
    rows: &'a [u32],
    shared: Option<&'k SharedKernelCache>,
    /// The training rows as runs of consecutive dataset rows
    /// `(first, len)`: a shared column's values at the training rows are
    /// copied run by run (in fold order, a CV round's rows are two runs).
    runs: Vec<(usize, usize)>,
    /// Whether the training rows are the shared cache's rows `0..n` in
    /// order: its columns are then the rows themselves (no copy).
    whole: bool,
    /// Whether the rows handed out are the shared cache's dataset columns
    /// (no copy; [`RowLayout`]): the training rows are all of them
    /// (`whole`) or a few long runs.
    in_place: bool,
    stored: Vec<Option<Column>>,
    /// Last use (a counter of requests) per stored row.
    used: Vec<u64>,
    count: usize,
    /// Rows kept beyond the working set.
    capacity: usize,
    clock: u64,
    /// Kernel values computed here.
    pub kernel_evals: u64,
    /// Rows read from the shared cache.
    pub shared_hits: u64,
    /// Row requests answered from the store.
    pub hits: u64,
    /// Row requests that needed computing (or the shared cache).
    pub misses: u64,
}

impl<'a, 'k> RowStore<'a, 'k> {
    /// A store of at most `cache_mb` megabytes of rows (always at least the
    /// working set, `min_rows`).
    pub fn new(
        kd: &'k KernelData<'k>,
        rows: &'a [u32],
        shared: Option<&'k SharedKernelCache>,
        cache_mb: f64,
        min_rows: usize,
    ) -> RowStore<'a, 'k> {
        let l = rows.len();
        let per_row = (l.max(1) * 4) as f64;
        let fit = (cache_mb * (1u64 << 20) as f64 / per_row) as usize;
        let runs = runs_of(rows.iter().map(|&r| r as usize));
        let whole = shared.is_some_and(|sh| sh.n() == l && runs == [(0, l)]);
        let in_place = whole || (shared.is_some() && few_runs(&runs, l));
        RowStore {
            kd,
            rows,
            shared,
            runs,
            whole,
            in_place,
            stored: vec![None; l],
            used: vec![0; l],
            count: 0,
            capacity: fit.max(min_rows).min(l),
            clock: 0,
            kernel_evals: 0,
            shared_hits: 0,
            hits: 0,
            misses: 0,
        }
    }

    /// How the rows this store hands out are indexed.
    pub fn layout(&self) -> RowLayout<'a> {
        let at = (self.in_place && !self.whole).then_some(self.rows);
        let l = self.rows.len();
        let h = l / 2;
        let mirror =
            (l > 0 && l.is_multiple_of(2) && self.rows[..h] == self.rows[h..]).then_some(h);
        let covered = mirror.unwrap_or(l);
        let runs = match at {
            Some(rows) => runs_of(rows[..covered].iter().map(|&r| r as usize)),
            None => vec![(0, covered)],
        };
        RowLayout {
            at,
            blocks: run_blocks(&runs, ROW_BLOCK),
            mirror,
        }
    }

    /// The rows of `vars` (positions in the solve), computing the missing
    /// ones as one block.
    pub fn fetch(&mut self, vars: &[usize]) -> Vec<Column> {
        self.clock += 1;
        let mut missing = Vec::new();
        for &v in vars {
            if self.stored[v].is_some() {
                self.hits += 1;
            } else {
                self.misses += 1;
                missing.push(v);
            }
            self.used[v] = self.clock;
        }
        if !missing.is_empty() {
            self.make_room(missing.len());
            let fresh = self.compute(&missing);
            for (&v, r) in missing.iter().zip(fresh) {
                self.stored[v] = Some(r);
                self.count += 1;
            }
        }
        vars.iter()
            .map(|&v| self.stored[v].clone().expect("fetched rows are stored"))
            .collect()
    }

    /// Evict the least recently used rows (never those of the current
    /// request) until `more` rows fit, in one pass.
    fn make_room(&mut self, more: usize) {
        let over = (self.count + more).saturating_sub(self.capacity);
        if over == 0 {
            return;
        }
        let mut old: Vec<(u64, usize)> = (0..self.stored.len())
            .filter(|&v| self.stored[v].is_some() && self.used[v] < self.clock)
            .map(|v| (self.used[v], v))
            .collect();
        old.sort_unstable();
        for &(_, v) in old.iter().take(over) {
            self.stored[v] = None;
            self.count -= 1;
        }
    }

    /// The rows of `vars`, none of them stored.
    fn compute(&mut self, vars: &[usize]) -> Vec<Column> {
        let l = self.rows.len();
        let mut out: Vec<Option<Column>> = vec![None; vars.len()];
        let mut todo = Vec::new();
        if let Some(sh) = self.shared {
            for (k, &v) in vars.iter().enumerate() {
                let a = self.rows[v] as usize;
                if self.in_place {
                    // The cache's column is the row: a handle, no copy.
                    match sh.get(a) {
                        Some(col) => {
                            self.shared_hits += 1;
                            out[k] = Some(col);
                        }
                        None => todo.push(k),
                    }
                    continue;
                }
                // The held matrix is read in place, other columns as handles.
                if let Some(col) = sh.held_column(a) {
                    sh.count_hits(1);
                    self.shared_hits += 1;
                    out[k] = Some(self.gather(col));
                    continue;
                }
                match sh.get(a) {
                    Some(col) => {
                        self.shared_hits += 1;
                        out[k] = Some(self.gather(&col));
                    }
                    None => todo.push(k),
                }
            }
        } else {
            todo = (0..vars.len()).collect();
        }
        if !todo.is_empty() {
            // With a shared cache, whole dataset columns (then kept there).
            let queries: Vec<usize> = match self.shared {
                Some(sh) => (0..sh.n()).collect(),
                None => self.rows.iter().map(|&r| r as usize).collect(),
            };
            let basis: Vec<u32> = todo.iter().map(|&k| self.rows[vars[k]]).collect();
            let kd = self.kd;
            let cols = kernel_rows(kd, &basis, &queries);
            self.kernel_evals += (queries.len() * basis.len()) as u64;
            for (col, &k) in cols.into_iter().zip(&todo) {
                out[k] = Some(match self.shared {
                    Some(sh) => {
                        let row = if self.in_place {
                            Column::from(Arc::clone(&col))
                        } else {
                            self.gather(&col)
                        };
                        sh.insert(self.rows[vars[k]] as usize, col);
                        row
                    }
                    None => Column::from(col),
                });
            }
        }
        let len = match self.shared {
            Some(sh) if self.in_place => sh.n(),
            _ => l,
        };
        debug_assert!(out
            .iter()
            .all(|r| r.as_ref().is_some_and(|r| r.len() == len)));
        out.into_iter()
            .map(|r| r.expect("every row computed"))
            .collect()
    }

    /// A dataset column's values at the training rows, copied run by run.
    fn gather(&self, col: &[f32]) -> Column {
        let mut row = Arc::<[f32]>::new_uninit_slice(self.rows.len());
        let dst = Arc::get_mut(&mut row).expect("a new row");
        let mut at = 0;
        for &(first, len) in &self.runs {
            dst[at..at + len].write_copy_of_slice(&col[first..first + len]);
            at += len;
        }
        debug_assert_eq!(at, dst.len());
        // SAFETY: the runs cover the training rows, so every entry is written.
        Column::from(unsafe { row.assume_init() })
    }
}

/// `acc_t += y_t sum_k w_k K(b_k, x_t)` for every training row `t`, the sum
/// over `k` in the order given (the rows and their weights; zero weights
/// skipped), block by block of `layout` (each position's sum is the same
/// whatever the blocks).
pub(super) fn add_block_product(
    acc: &mut [f64],
    y: &[i8],
    rows: &[Column],
    w: &[f64],
    layout: &RowLayout<'_>,
) {
    let terms: Vec<(&[f32], f64)> = rows
        .iter()
        .zip(w)
        .filter(|(_, &wk)| wk != 0.0)
        .map(|(r, &wk)| (&r[..], wk))
        .collect();
    if terms.is_empty() {
        return;
    }
    // With a mirror, each block of the first half carries the same
    // positions of the second half: one sum serves both.
    let h = layout.mirror.unwrap_or(acc.len());
    let (lo, hi) = acc.split_at_mut(h);
    let (ylo, yhi) = y.split_at(h);
    let mut parts = Vec::with_capacity(layout.blocks.len());
    let (mut lo, mut ylo, mut hi, mut yhi) = (lo, ylo, hi, yhi);
    for &(_, len, entry) in &layout.blocks {
        let (a, rest) = std::mem::take(&mut lo).split_at_mut(len);
        let (yb, yrest) = ylo.split_at(len);
        let twin = if layout.mirror.is_some() {
            let (b, brest) = std::mem::take(&mut hi).split_at_mut(len);
            let (yb2, yrest2) = yhi.split_at(len);
            (hi, yhi) = (brest, yrest2);
            Some((b, yb2))
        } else {
            None
        };
        parts.push((a, yb, twin, entry));
        (lo, ylo) = (rest, yrest);
    }
    debug_assert!(
        lo.is_empty() && hi.is_empty(),
        "the blocks cover every position"
    );
    parts.into_par_iter().for_each(|(acc, y, twin, entry)| {
        let mut sum = vec![0.0f64; acc.len()];
        let block: Vec<(&[f32], f64)> = terms
            .iter()
            .map(|&(r, wk)| (&r[entry..entry + acc.len()], wk))
            .collect();
        super::lanes::block_axpy(&mut sum, &block);
        for ((a, &yt), s) in acc.iter_mut().zip(y).zip(&sum) {
            *a += f64::from(yt) * s;
        }
        if let Some((acc2, y2)) = twin {
            for ((a, &yt), s) in acc2.iter_mut().zip(y2).zip(&sum) {
                *a += f64::from(yt) * s;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Dataset;
    use crate::svm::kernel::KernelKind;

    #[test]
    fn rows_from_the_shared_cache_are_the_computed_rows() {
        let n = 300;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..6).map(|j| ((i * 6 + j) as f64 * 0.53).cos()).collect())
            .collect();
        let ds = Dataset::from_dense_rows("synthetic-row-store", &rows, vec![1.0; n]);
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.4 });
        let whole: Vec<u32> = (0..n as u32).collect();
        // Two long runs, as a CV round's rows in fold order (the cache's
        // columns read in place), and scattered rows (gathered).
        let runs: Vec<u32> = (0..100).chain(200..n as u32).collect();
        let scattered: Vec<u32> = (0..n as u32).step_by(3).collect();
        let vars = [5usize, 17, 40, 2];
        for (train, in_place) in [(&whole, false), (&runs, true), (&scattered, false)] {
            let l = train.len();
            let mut alone = RowStore::new(&kd, train, None, 1.0, 4);
            let want = alone.fetch(&vars);
            let (wl, w) = (alone.layout(), [0.5, -1.0, 0.25, 2.0]);
            assert!(wl.at.is_none());
            let y: Vec<i8> = (0..l).map(|t| if t % 3 == 0 { -1 } else { 1 }).collect();
            let mut want_acc = vec![0.125; l];
            add_block_product(&mut want_acc, &y, &want, &w, &wl);
            let sh = SharedKernelCache::new(n, 10.0);
            // First computed (and kept in the cache), then read from it.
            for _ in 0..2 {
                let mut store = RowStore::new(&kd, train, Some(&sh), 1.0, 4);
                let layout = store.layout();
                assert_eq!(layout.at.is_some(), in_place);
                let got = store.fetch(&vars);
                for (g, w) in got.iter().zip(&want) {
                    for t in 0..l {
                        assert_eq!(g[layout.entry(t)].to_bits(), w[t].to_bits());
                    }
                }
                let mut acc = vec![0.125; l];
                add_block_product(&mut acc, &y, &got, &w, &layout);
                assert_eq!(acc, want_acc);
            }
        }
    }

    #[test]
    fn a_mirrored_layout_gives_each_twin_the_sum_of_its_own_row() {
        // epsilon-SVR's 2l variables over l rows: positions t and t + l are
        // one dataset row, so one sum serves both; the values are those of
        // the same product over the unmirrored blocks.
        let n = 260;
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..4).map(|j| ((i * 4 + j) as f64 * 0.37).sin()).collect())
            .collect();
        let ds = Dataset::from_dense_rows("synthetic-row-store", &rows, vec![1.0; n]);
        let kd = KernelData::new(&ds, KernelKind::Rbf { gamma: 0.3 });
        let train: Vec<u32> = (0..80).chain(150..n as u32).collect();
        let twice: Vec<u32> = train.iter().chain(&train).copied().collect();
        let l = twice.len();
        let y: Vec<i8> = (0..l).map(|t| if t < l / 2 { 1 } else { -1 }).collect();
        let vars = [3usize, 200, 7, 150];
        let w = [0.5, -1.0, 0.25, 2.0];
        let sh = SharedKernelCache::new(n, 10.0);
        for shared in [None, Some(&sh)] {
            let mut store = RowStore::new(&kd, &twice, shared, 1.0, 4);
            let layout = store.layout();
            assert_eq!(layout.mirror, Some(l / 2));
            let got_rows = store.fetch(&vars);
            let mut got = vec![0.125; l];
            add_block_product(&mut got, &y, &got_rows, &w, &layout);
            let plain = RowLayout {
                at: layout.at,
                blocks: match layout.at {
                    Some(at) => run_blocks(&runs_of(at.iter().map(|&r| r as usize)), ROW_BLOCK),
                    None => run_blocks(&[(0, l)], ROW_BLOCK),
                },
                mirror: None,
            };
            let mut want = vec![0.125; l];
            add_block_product(&mut want, &y, &got_rows, &w, &plain);
            assert_eq!(got, want);
            assert!(got[..l / 2].iter().zip(&got[l / 2..]).any(|(a, b)| a != b));
        }
    }
}
