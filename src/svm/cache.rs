//! Kernel caches.
//!
//! [`ColumnCache`] is the column cache of a single solve, with LIBSVM's
//! semantics: entry `i` holds the first `len_i` entries of column `i` of `Q`
//! in the solver's current (permuted) order; a request for a longer prefix
//! extends it; the least recently used columns are evicted when the budget
//! (in `f32` entries, from a size in MB, minus LIBSVM's per-column header
//! overhead) runs out; at least two full columns always fit; and swapping two
//! solver positions swaps the cached entries. Unlike LIBSVM, which walks
//! every cached column at each swap (a third of a shrinking a9a training
//! with `-m 2000`), the entry swaps are logged and applied to a column when
//! it is next requested; a column that holds `i` but not `j` is cut to its
//! first `i` entries then (LIBSVM drops it). The values a request returns
//! are the same, so the solver's arithmetic is unchanged; hits, misses and
//! the kernel-evaluation count can only be better than LIBSVM's.
//!
//! [`SharedKernelCache`] serves all folds of a cross-validation run: it holds
//! whole kernel columns `K(x_a, ·)` over every row of the dataset, keyed by
//! the original row index, behind a mutex, with LRU eviction. A solver whose
//! local cache misses gathers the entries it needs from the shared column
//! instead of recomputing kernels; it has a missing column computed whole
//! (n entries) only when it needs at least n/2 of them, and otherwise computes
//! just its own entries.
//!
//! The shared cache's counters count what the run asks for, not who filled
//! the cache first: where parallel solves share it,
//! [`SharedKernelCache::kernel_evals`] counts each column asked for whole
//! once (the same on any thread count), and what was computed beyond that —
//! a column filled again after its eviction, or by two solves at once — goes
//! to [`SharedKernelCache::extra_kernel_evals`], which depends on how the
//! solves interleave. A settled cache (whose contents follow from the
//! inputs alone) counts every column it computes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::column::Column;
use super::kernel::KernelData;

const NIL: u32 = u32::MAX;
/// Bytes LIBSVM charges per column header (`sizeof(head_t)` on 64-bit).
const HEAD_BYTES: i64 = 32;

#[derive(Clone, Debug, Default)]
struct Head {
    data: Vec<f32>,
    len: usize,
    /// Entries of the swap log already applied to `data`.
    synced: usize,
    prev: u32,
    next: u32,
}

/// LIBSVM-style LRU cache of `Q` columns for one solve (see the module doc).
#[derive(Debug)]
pub struct ColumnCache {
    heads: Vec<Head>,
    /// Sentinel of the circular LRU list is index `l`.
    l: usize,
    /// Remaining budget in `f32` entries (LIBSVM's `size`).
    size: i64,
    /// Swaps of solver positions `(a, b)`, `a < b`, not yet applied to
    /// every cached column (see [`Head::synced`]).
    log: Vec<(u32, u32)>,
    /// Number of `get` calls answered entirely from the cache.
    pub hits: u64,
    /// Number of `get` calls that needed entries computed.
    pub misses: u64,
}

impl ColumnCache {
    /// A cache for `l` columns with `cache_mb` megabytes (1 MB = 2^20 bytes).
    pub fn new(l: usize, cache_mb: f64) -> ColumnCache {
        let bytes = (cache_mb * (1u64 << 20) as f64) as i64;
        let mut size = bytes / 4;
        size -= l as i64 * HEAD_BYTES / 4;
        size = size.max(2 * l as i64); // the cache must hold two full columns
        let mut heads = vec![Head::default(); l + 1];
        heads[l].prev = l as u32;
        heads[l].next = l as u32;
        for h in heads.iter_mut().take(l) {
            h.prev = NIL;
            h.next = NIL;
        }
        ColumnCache {
            heads,
            l,
            size,
            log: Vec::new(),
            hits: 0,
            misses: 0,
        }
    }

    fn lru_delete(&mut self, h: usize) {
        let (p, n) = (self.heads[h].prev as usize, self.heads[h].next as usize);
        self.heads[p].next = n as u32;
        self.heads[n].prev = p as u32;
    }

    fn lru_insert(&mut self, h: usize) {
        let s = self.l;
        let last = self.heads[s].prev as usize;
        self.heads[h].next = s as u32;
        self.heads[h].prev = last as u32;
        self.heads[last].next = h as u32;
        self.heads[s].prev = h as u32;
    }

    /// Make column `i` hold at least `len` entries and mark it most recently
    /// used. Returns the position from which entries must be filled
    /// (`>= len` when nothing is missing).
    pub fn request(&mut self, i: usize, len: usize) -> usize {
        self.sync(i);
        if self.heads[i].len > 0 {
            self.lru_delete(i);
        }
        let have = self.heads[i].len;
        let start = if len > have {
            let more = (len - have) as i64;
            while self.size < more {
                let old = self.heads[self.l].next as usize;
                debug_assert_ne!(old, self.l, "cache budget below two columns");
                self.lru_delete(old);
                self.size += self.heads[old].len as i64;
                self.heads[old].data = Vec::new();
                self.heads[old].len = 0;
            }
            // Room for the entries; the caller writes them (through
            // `column_mut`, or appended through `column_tail`).
            self.heads[i].data.reserve_exact(len - have);
            self.size -= more;
            self.heads[i].len = len;
            have
        } else {
            len
        };
        self.lru_insert(i);
        if start >= len {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        start
    }

    /// Apply the logged swaps to column `i`: swap entries it holds both of,
    /// cut it before the first entry of a swap it holds only one side of.
    fn sync(&mut self, i: usize) {
        let h = &mut self.heads[i];
        if h.len == 0 {
            h.synced = self.log.len();
            return;
        }
        let before = h.len;
        for &(a, b) in &self.log[h.synced..] {
            let (a, b) = (a as usize, b as usize);
            if h.len > b {
                h.data.swap(a, b);
            } else if h.len > a {
                h.len = a;
                h.data.truncate(a);
            }
        }
        h.synced = self.log.len();
        let after = h.len;
        self.size += (before - after) as i64;
        if after == 0 {
            self.heads[i].data = Vec::new();
            self.lru_delete(i);
        }
    }

    /// The cached entries of column `i` (valid after [`ColumnCache::request`]).
    #[inline]
    pub fn column(&self, i: usize) -> &[f32] {
        debug_assert!(self.heads[i].len == 0 || self.heads[i].synced == self.log.len());
        &self.heads[i].data[..self.heads[i].len]
    }

    /// Mutable access to column `i`, to fill what `request` reported missing
    /// (the missing entries zero until then).
    #[inline]
    pub fn column_mut(&mut self, i: usize) -> &mut [f32] {
        let h = &mut self.heads[i];
        h.data.resize(h.len, 0.0);
        &mut h.data[..h.len]
    }

    /// Column `i`'s entries before what `request` reported missing (the
    /// `start` it returned), for the caller to append the missing ones
    /// without zeroing them first; the column is valid once it holds all
    /// it was asked for.
    #[inline]
    pub fn column_tail(&mut self, i: usize) -> &mut Vec<f32> {
        &mut self.heads[i].data
    }

    /// Swap solver positions `i` and `j`: swap the two columns, and log the
    /// swap of entries `i` and `j` inside every cached column (applied when
    /// a column is next requested; see the module doc).
    pub fn swap_index(&mut self, i: usize, j: usize) {
        if i == j {
            return;
        }
        if self.heads[i].len > 0 {
            self.lru_delete(i);
        }
        if self.heads[j].len > 0 {
            self.lru_delete(j);
        }
        let (lo, hi) = self.heads.split_at_mut(i.max(j));
        let (a, b) = (&mut lo[i.min(j)], &mut hi[0]);
        std::mem::swap(&mut a.data, &mut b.data);
        std::mem::swap(&mut a.len, &mut b.len);
        std::mem::swap(&mut a.synced, &mut b.synced);
        if self.heads[i].len > 0 {
            self.lru_insert(i);
        }
        if self.heads[j].len > 0 {
            self.lru_insert(j);
        }
        self.log.push((i.min(j) as u32, i.max(j) as u32));
        if self.log.len() > 4 * self.l + 4096 {
            self.compact_log();
        }
    }

    /// Apply the whole log to every cached column and clear it.
    fn compact_log(&mut self) {
        let mut h = self.heads[self.l].next as usize;
        while h != self.l {
            let next = self.heads[h].next as usize;
            self.sync(h);
            h = next;
        }
        self.log.clear();
        for h in &mut self.heads {
            h.synced = 0;
        }
    }
}

/// Thread-safe cache of whole kernel columns `K(x_a, x_r)` for every row `r`
/// of a dataset, keyed by the original row index `a`, with LRU eviction. One
/// instance serves every fold of a cross-validation run.
#[derive(Debug)]
pub struct SharedKernelCache {
    n: usize,
    capacity_columns: usize,
    /// Whole columns the budget pays for (beyond `n` where it is larger).
    budget_columns: usize,
    inner: Mutex<SharedInner>,
    /// Lookups answered from the cache (depends on scheduling when solves
    /// run in parallel).
    pub hits: AtomicU64,
    /// Lookups that computed a column (depends on scheduling when solves
    /// run in parallel).
    pub misses: AtomicU64,
    /// Kernel values of the columns computed for requests
    /// ([`SharedKernelCache::column`]), a function of the run's inputs
    /// alone, whatever the thread count or timing: every column computed
    /// where the cache is [settled](SharedKernelCache::settled), else `n`
    /// per distinct column asked for.
    pub kernel_evals: AtomicU64,
    /// Kernel values an unsettled cache computed beyond
    /// [`SharedKernelCache::kernel_evals`]: a column computed again after it
    /// was evicted, or by two solves at the same time. It depends on how
    /// solves interleave.
    pub extra_kernel_evals: AtomicU64,
    /// What it holds at any point is a function of the run's inputs alone
    /// ([`SharedKernelCache::settled`]).
    settled: bool,
    /// Solves compute a whole column for any missing request
    /// ([`SharedKernelCache::whole_columns`]).
    whole: bool,
    /// Every column (column `a` at `a n..(a + 1) n`), read without the lock
    /// once set ([`SharedKernelCache::set_all`]).
    all: std::sync::OnceLock<Arc<Vec<f32>>>,
}

#[derive(Debug)]
struct SharedInner {
    cols: Vec<Option<Arc<[f32]>>>,
    /// Columns asked for whole (or inserted) at least once.
    asked: Vec<bool>,
    prev: Vec<u32>,
    next: Vec<u32>,
    count: usize,
}

impl SharedKernelCache {
    /// A cache for columns of length `n` within `cache_mb` megabytes (at
    /// least two columns).
    pub fn new(n: usize, cache_mb: f64) -> SharedKernelCache {
        let bytes = cache_mb * (1u64 << 20) as f64;
        let per_col = (n.max(1) * 4 + 64) as f64;
        let budget_columns = (bytes / per_col) as usize;
        let capacity_columns = budget_columns.clamp(2, n.max(2));
        let mut prev = vec![NIL; n + 1];
        let mut next = vec![NIL; n + 1];
        prev[n] = n as u32;
        next[n] = n as u32;
        SharedKernelCache {
            n,
            capacity_columns,
            budget_columns,
            inner: Mutex::new(SharedInner {
                cols: vec![None; n],
                asked: vec![false; n],
                prev,
                next,
                count: 0,
            }),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            kernel_evals: AtomicU64::new(0),
            extra_kernel_evals: AtomicU64::new(0),
            settled: false,
            whole: false,
            all: std::sync::OnceLock::new(),
        }
    }

    /// Declare that which columns it holds at any point follows from the
    /// run's inputs alone, not from timing or the thread count: one solve at
    /// a time uses it (e.g. a chain of rounds), or it holds every column
    /// from the start (a grid's kernel matrix). Sums that feed later
    /// arithmetic may then read whatever it holds
    /// ([`super::cached_sums::exact_source`]), and a solve's reads of it are
    /// not counted as its own kernel values.
    pub fn settled(mut self, yes: bool) -> SharedKernelCache {
        self.settled = yes;
        self
    }

    /// Have solves compute (and keep) the whole column of a row for any
    /// request the cache cannot serve, however short: for runs where each
    /// column serves many solves over subsets of the rows (the class pairs
    /// of a one-vs-one CV) and the cache holds every column.
    pub fn whole_columns(mut self, yes: bool) -> SharedKernelCache {
        self.whole = yes;
        self
    }

    /// Whether [`SharedKernelCache::whole_columns`] was declared.
    pub fn is_whole_columns(&self) -> bool {
        self.whole
    }

    /// Kernel evaluations spent filling columns so far.
    pub fn kernel_evals(&self) -> u64 {
        self.kernel_evals.load(Ordering::Relaxed)
    }

    /// Whether [`SharedKernelCache::settled`] was declared.
    pub fn is_settled(&self) -> bool {
        self.settled
    }

    /// How many whole columns fit.
    pub fn capacity_columns(&self) -> usize {
        self.capacity_columns
    }

    /// How many whole columns the budget would pay for (at most `n` are
    /// ever held: [`SharedKernelCache::capacity_columns`]).
    pub fn budget_columns(&self) -> usize {
        self.budget_columns
    }

    /// Number of columns held now.
    pub fn held(&self) -> usize {
        match self.all.get() {
            Some(_) => self.n,
            None => self.inner.lock().unwrap_or_else(|e| e.into_inner()).count,
        }
    }

    /// Hold every column from now on (`matrix`: the `n` columns one after
    /// another, unsigned kernel values; their values are counted by whoever
    /// computed them): no eviction, and reads take no lock (every solve of a
    /// one-vs-one CV asks for columns at every step). Only on a cache that
    /// holds nothing yet and keeps every column.
    pub fn set_all(&self, matrix: Vec<f32>) {
        assert_eq!(matrix.len(), self.n * self.n, "n whole columns");
        assert!(self.capacity_columns >= self.n && self.held() == 0);
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.asked.iter_mut().for_each(|a| *a = true);
        self.all
            .set(Arc::new(matrix))
            .unwrap_or_else(|_| panic!("the columns are set once"));
    }

    /// Column `a` from [`SharedKernelCache::set_all`]'s columns (a hit), a
    /// handle on the matrix (the solvers' hot path borrows it instead:
    /// [`SharedKernelCache::held_column`]).
    #[inline]
    fn held_whole(&self, a: usize) -> Option<Column> {
        let c = self.held_handle(a)?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(c)
    }

    /// A handle on column `a` of the held matrix, not counted.
    fn held_handle(&self, a: usize) -> Option<Column> {
        let all = self.all.get()?;
        Some(Column::held(Arc::clone(all), a * self.n, self.n))
    }

    /// Column `a` of the held matrix, borrowed and not counted (the caller
    /// adds its reads with [`SharedKernelCache::count_hits`]).
    #[inline]
    pub(crate) fn held_column(&self, a: usize) -> Option<&[f32]> {
        let n = self.n;
        self.all.get().map(|all| &all[a * n..(a + 1) * n])
    }

    /// The held matrix's buffer, where no column handle is left (for the
    /// next matrix of the same rows: [`super::kernel_matrix::fill_all_into`]).
    pub fn into_matrix(self) -> Option<Vec<f32>> {
        Arc::try_unwrap(self.all.into_inner()?).ok()
    }

    /// Count `reads` hits (reads of [`SharedKernelCache::held_column`]).
    pub(crate) fn count_hits(&self, reads: u64) {
        self.hits.fetch_add(reads, Ordering::Relaxed);
    }

    /// Number of rows of the dataset (the length of every column).
    pub fn n(&self) -> usize {
        self.n
    }

    /// Column `a` if the cache holds it (counted as a hit), without computing.
    pub fn get(&self, a: usize) -> Option<Column> {
        if let Some(c) = self.held_whole(a) {
            return Some(c);
        }
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let c = g.cols[a].clone()?;
        g.unlink(a);
        g.push_back(a, self.n);
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(c.into())
    }

    /// Column `a` if the cache holds it, leaving the LRU order and the hit
    /// count as they are (for readers outside the solvers, e.g. prediction,
    /// which should not change what the solvers find cached).
    pub fn peek(&self, a: usize) -> Option<Column> {
        if let Some(col) = self.held_handle(a) {
            return Some(col);
        }
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.cols[a].clone().map(Column::from)
    }

    /// Store a precomputed column `a` (length `n`, unsigned kernel values),
    /// evicting the least recently used column when full. Its values are
    /// counted by whoever computed them, not by this cache.
    pub fn insert(&self, a: usize, col: Arc<[f32]>) {
        assert!(self.all.get().is_none(), "a cache holding every column");
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.asked[a] = true;
        if g.cols[a].is_some() {
            g.unlink(a);
            g.count -= 1;
        }
        while g.count >= self.capacity_columns {
            let old = g.next[self.n] as usize;
            g.unlink(old);
            g.cols[old] = None;
            g.count -= 1;
        }
        g.cols[a] = Some(col);
        g.count += 1;
        g.push_back(a, self.n);
    }

    /// Column `a` (`K(x_a, x_r)` for every row `r`, unsigned), computing it if
    /// absent. `scratch` is a zeroed buffer of length `d` (left zeroed). The
    /// column's `n` values count in [`SharedKernelCache::kernel_evals`] when
    /// this is its first request or the cache is settled, else (computed
    /// again) in [`SharedKernelCache::extra_kernel_evals`].
    pub fn column(&self, kd: &KernelData<'_>, a: usize, scratch: &mut [f64]) -> Column {
        if let Some(c) = self.held_whole(a) {
            return c;
        }
        {
            let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let first = !std::mem::replace(&mut g.asked[a], true);
            if let Some(c) = g.cols[a].clone() {
                g.unlink(a);
                g.push_back(a, self.n);
                self.hits.fetch_add(1, Ordering::Relaxed);
                return c.into();
            }
            let count = if first || self.settled {
                &self.kernel_evals
            } else {
                &self.extra_kernel_evals
            };
            count.fetch_add(self.n as u64, Ordering::Relaxed);
        }
        // Compute outside the lock so other folds can proceed.
        self.misses.fetch_add(1, Ordering::Relaxed);
        let rows: Vec<u32> = (0..self.n as u32).collect();
        let mut col = vec![0f32; self.n];
        kd.fill_column_par(a, 1, &rows, None, &mut col, scratch);
        let col: Arc<[f32]> = col.into();
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = g.cols[a].clone() {
            return c.into(); // another thread inserted it meanwhile
        }
        while g.count >= self.capacity_columns {
            let old = g.next[self.n] as usize;
            g.unlink(old);
            g.cols[old] = None;
            g.count -= 1;
        }
        g.cols[a] = Some(col.clone());
        g.count += 1;
        g.push_back(a, self.n);
        col.into()
    }
}

impl SharedInner {
    fn unlink(&mut self, a: usize) {
        let (p, n) = (self.prev[a] as usize, self.next[a] as usize);
        self.next[p] = n as u32;
        self.prev[n] = p as u32;
    }
    fn push_back(&mut self, a: usize, sentinel: usize) {
        let last = self.prev[sentinel] as usize;
        self.next[a] = sentinel as u32;
        self.prev[a] = last as u32;
        self.next[last] = a as u32;
        self.prev[sentinel] = a as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_evicts_oldest_and_keeps_two_columns() {
        // Budget below two columns is raised to exactly two columns of l=4.
        let mut c = ColumnCache::new(4, 0.0);
        assert_eq!(c.request(0, 4), 0);
        assert_eq!(c.request(1, 4), 0);
        assert_eq!(c.request(0, 4), 4); // hit
        assert_eq!(c.request(2, 4), 0); // evicts 1 (least recently used)
        assert_eq!(c.request(0, 4), 4);
        assert_eq!(c.request(1, 4), 0);
        assert_eq!(c.hits, 2);
        assert_eq!(c.misses, 4);
    }

    #[test]
    fn partial_columns_extend_and_swap() {
        let mut c = ColumnCache::new(5, 1.0);
        assert_eq!(c.request(0, 3), 0);
        c.column_mut(0).copy_from_slice(&[0.0, 1.0, 2.0]);
        assert_eq!(c.request(0, 5), 3);
        c.column_mut(0)[3..].copy_from_slice(&[3.0, 4.0]);
        c.swap_index(1, 4);
        assert_eq!(c.request(0, 5), 5, "a hit: the swap is applied on request");
        assert_eq!(c.column(0), &[0.0, 4.0, 2.0, 3.0, 1.0]);
        assert_eq!(c.request(1, 2), 0);
        c.column_mut(1).copy_from_slice(&[9.0, 8.0]);
        // Column 1 (2 entries) moves to position 3; the swap of entries 1
        // and 3 cuts it to its first entry.
        c.swap_index(1, 3);
        assert_eq!(c.request(1, 1), 0, "position 1 now holds the empty column");
        c.column_mut(1)[0] = 7.0;
        assert_eq!(c.request(3, 1), 1);
        assert_eq!(c.column(3), &[9.0]);
        assert_eq!(c.request(3, 2), 1, "the cut entry is computed again");
        // Column 0 saw both swaps: entries 1 and 3 exchanged again.
        assert_eq!(c.request(0, 5), 5);
        assert_eq!(c.column(0), &[0.0, 3.0, 2.0, 4.0, 1.0]);
    }

    #[test]
    fn lazy_swaps_equal_eager_swaps_over_a_long_log() {
        // Any sequence of requests and swaps returns the entries of the
        // permuted columns, including after the log is compacted.
        let l = 9;
        let mut c = ColumnCache::new(l, 0.0002);
        let mut perm: Vec<usize> = (0..l).collect();
        let value = |col: usize, row: usize| (col * 100 + row) as f32;
        let mut state = 12345u64;
        for step in 0..20_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (i, j) = ((state >> 33) as usize % l, (state >> 45) as usize % l);
            if step % 3 == 0 {
                c.swap_index(i, j);
                perm.swap(i, j);
            } else {
                let len = 1 + j;
                let start = c.request(i, len);
                for (k, v) in c.column_mut(i)[start..len].iter_mut().enumerate() {
                    *v = value(perm[i], perm[start + k]);
                }
                let have = c.column(i).len();
                assert!(have >= len);
                let want: Vec<f32> = (0..have).map(|k| value(perm[i], perm[k])).collect();
                assert_eq!(c.column(i), &want[..], "step {step}");
            }
        }
        assert!(c.hits > 0 && c.misses > 0);
    }
}
