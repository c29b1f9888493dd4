//! Kernel caches, and this module's [`ColumnCache`], the column cache of one
//! solve.
//!
//! Modules:
//! - `shared`: [`SharedKernelCache`], the thread-safe cache keyed by the
//!   original row index that the solves of a run share.
//! - `column`: a column handed out by the shared cache.
//! - `qmatrix`: the `Q` matrix of one SMO solve (LIBSVM's `SVC_Q`, its
//!   column cache in front).
//! - `signed_gather`: a solve's `Q` column gathered and signed from a shared
//!   cache's column.
//! - `runs`: runs of consecutive dataset rows, read in place from the shared
//!   cache's columns.
//! - `budget`: the cache's memory when `svm-train -m` is not given.
//! - `shared_counts_tests`: the shared cache's counters count what a run asks
//!   for.
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
//! [`SharedKernelCache`], the cache of whole kernel columns that serves
//! every solve of a cross-validation run, is in [`crate::svm::cache::shared`]
//! (re-exported here).

pub mod budget;
pub mod column;
pub(super) mod qmatrix;
pub(super) mod runs;
pub mod shared;
#[cfg(test)]
mod shared_counts_tests;
pub(super) mod signed_gather;

pub use crate::svm::cache::shared::SharedKernelCache;

/// No entry of the LRU list (a column not in it).
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
