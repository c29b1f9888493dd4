//! The kernel cache shared by the solves of a run.
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

use crate::svm::cache::column::Column;
use crate::svm::kernel::KernelData;

/// No entry of the LRU list (a column not in it).
const NIL: u32 = u32::MAX;

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
    /// The budget it was made with, MB.
    budget_mb: f64,
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
            budget_mb: cache_mb,
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
    /// ([`crate::svm::kernel::cached_sums::exact_source`]), and a solve's reads of it are
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

    /// The budget in MB the cache was made with (what its columns may
    /// take, whether or not it holds them).
    pub fn budget_mb(&self) -> f64 {
        self.budget_mb
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
    /// next matrix of the same rows: [`crate::svm::kernel::matrix::fill_all_into`]).
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
