//! The `Q` matrix of one SMO solve ([`crate::svm::smo`]): `Q_ij = y_i y_j
//! K(x_i, x_j)` over the training rows in the solver's current order, as
//! LIBSVM's `SVC_Q`: its column cache ([`ColumnCache`]) in front and,
//! optionally, a kernel cache shared across solves behind it.

use crate::svm::cache::signed_gather::{signed_copy, signed_gather};
use crate::svm::cache::{ColumnCache, SharedKernelCache};
use crate::svm::kernel::KernelData;

/// The `Q` matrix of a solve: kernel rows of the training subset in the
/// solver's current order, with LIBSVM's column cache in front and,
/// optionally, a shared cross-fold kernel cache behind it.
pub(crate) struct SvcQ<'k> {
    kd: &'k KernelData<'k>,
    /// Dataset row of each solver position (permuted by `swap_index`).
    rows: Vec<u32>,
    /// On sparse data: the training rows copied
    /// contiguously in their initial order ([`KernelData::compact`]), and the
    /// row of that copy at each solver position (permuted with `rows`).
    local: Option<(KernelData<'static>, Vec<u32>)>,
    y: Vec<i8>,
    /// Runs of consecutive dataset rows with one label in the solver's
    /// initial order, while it holds ([`Runs`]): columns from the shared
    /// cache are then range copies instead of gathers.
    runs: Option<Runs>,
    /// LIBSVM's column cache (its hit and miss counters are the solve's).
    pub(crate) cache: ColumnCache,
    shared: Option<&'k SharedKernelCache>,
    scratch: Vec<f64>,
    /// Kernel values this solve computed beyond its column cache (the
    /// diagonal included), whole columns from the shared cache aside; where
    /// the shared cache is not settled, the entries it read from a column
    /// that happened to be cached count too (whether it holds the column
    /// depends on timing when solves run in parallel; the count does not).
    pub(crate) kernel_evals: u64,
    /// Column fills taken from a whole column of the shared cache (a request
    /// for at least `n/2` entries; the cache counts the column's values).
    pub(crate) shared_hits: u64,
    /// Reads of the shared cache's held matrix not yet added to its hits
    /// (added when the solve ends).
    held_reads: u64,
}

impl Drop for SvcQ<'_> {
    fn drop(&mut self) {
        if let Some(sh) = self.shared {
            sh.count_hits(self.held_reads);
        }
    }
}

impl<'k> SvcQ<'k> {
    pub(crate) fn new(
        kd: &'k KernelData<'k>,
        rows: Vec<u32>,
        y: Vec<i8>,
        cache_mb: f64,
        shared: Option<&'k SharedKernelCache>,
    ) -> SvcQ<'k> {
        let l = rows.len();
        // (Not where every column comes whole from the shared cache.)
        let local = (kd.ds.is_sparse() && !shared.is_some_and(SharedKernelCache::is_whole_columns))
            .then(|| (kd.compact(&rows), (0..l as u32).collect()));
        SvcQ {
            kd,
            cache: ColumnCache::new(l, cache_mb),
            scratch: vec![0.0; kd.d()],
            kernel_evals: l as u64,
            shared_hits: 0,
            held_reads: 0,
            runs: Runs::of(&rows, &y),
            rows,
            local,
            y,
            shared,
        }
    }

    /// The diagonal `QD_i = K(x_i, x_i)`.
    pub(crate) fn diagonal(&self) -> Vec<f64> {
        self.rows
            .iter()
            .map(|&r| self.kd.diagonal(r as usize))
            .collect()
    }

    /// Ensure the first `len` entries of column `i` are cached.
    #[inline]
    fn ensure(&mut self, i: usize, len: usize) {
        let start = self.cache.request(i, len);
        if start < len {
            self.fill(i, start, len);
        }
    }

    #[cold]
    fn fill(&mut self, i: usize, start: usize, len: usize) {
        let a = self.rows[i] as usize;
        let ya = self.y[i];
        // The shared cache serves the column if it holds it; it computes a
        // whole column (all n rows of the dataset) only when this request
        // needs at least half as many entries (a whole fill), so that a
        // shrunk active set never pays n kernel evaluations for a short
        // prefix (unless the cache asks for whole columns,
        // [`SharedKernelCache::whole_columns`]). Whether a short request
        // finds the column cached depends on timing where solves run in
        // parallel (an unsettled cache): there it counts as this solve's own
        // values either way, so that the counts do not.
        let scratch = &mut self.scratch;
        let kd = self.kd;
        let whole = self
            .shared
            .is_some_and(|sh| sh.is_whole_columns() || 2 * (len - start) >= sh.n());
        let settled = self.shared.is_some_and(SharedKernelCache::is_settled);
        // The held matrix is read in place (a hit, counted when the solve
        // ends); other columns come as shared handles.
        let held = self.shared.and_then(|sh| sh.held_column(a));
        self.held_reads += u64::from(held.is_some());
        let handle = match held {
            Some(_) => None,
            None => self.shared.and_then(|sh| {
                if whole {
                    Some(sh.column(kd, a, scratch))
                } else {
                    sh.get(a)
                }
            }),
        };
        let full: Option<&[f32]> = held.or(handle.as_deref());
        let read = full.is_some() && (whole || settled);
        if !read {
            self.kernel_evals += (len - start) as u64;
        }
        match full {
            Some(full) => {
                // A sign flip of an f32 is exact: same value as LIBSVM's
                // (float)(y_i y_j K_ij).
                // Appended after the column's first `start` entries (no
                // zero fill first).
                let col = self.cache.column_tail(i);
                match &self.runs {
                    Some(runs) => runs.copy(full, start, len, ya, col),
                    None => {
                        signed_gather(full, &self.rows[start..len], &self.y[start..len], ya, col)
                    }
                }
                debug_assert_eq!(col.len(), len, "the column filled");
                if whole {
                    self.shared_hits += 1;
                }
            }
            None => {
                let (kd, a, rows) = match &self.local {
                    Some((lk, lrows)) => (lk, lrows[i] as usize, &lrows[start..len]),
                    None => (self.kd, a, &self.rows[start..len]),
                };
                let col = self.cache.column_mut(i);
                kd.fill_column_par(
                    a,
                    ya,
                    rows,
                    Some(&self.y[start..len]),
                    &mut col[start..len],
                    &mut self.scratch,
                );
            }
        }
    }

    /// Column `i`, first `len` entries (LIBSVM's `get_Q`).
    #[inline]
    pub(crate) fn get_q(&mut self, i: usize, len: usize) -> &[f32] {
        self.ensure(i, len);
        &self.cache.column(i)[..len]
    }

    /// Columns `i` and `j` (requested in that order), first `len` entries.
    #[inline]
    pub(crate) fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]) {
        self.ensure(i, len);
        self.ensure(j, len);
        (&self.cache.column(i)[..len], &self.cache.column(j)[..len])
    }

    pub(crate) fn swap_index(&mut self, i: usize, j: usize) {
        if i != j {
            self.runs = None;
        }
        self.cache.swap_index(i, j);
        self.rows.swap(i, j);
        if let Some((_, lrows)) = &mut self.local {
            lrows.swap(i, j);
        }
        self.y.swap(i, j);
    }
}

/// The solver's rows as runs of consecutive dataset rows with one label
/// (`(position, row, length, label)`), where they are few: the rows of a
/// CV's training set grouped by class and fold
/// ([`crate::svm::multiclass`]'s class order) are a few runs until shrinking
/// first swaps two of them.
struct Runs(Vec<(usize, usize, usize, i8)>);

impl Runs {
    /// The runs of `rows` (labels `y`), or `None` where the average run is
    /// shorter than [`MIN_RUN`].
    fn of(rows: &[u32], y: &[i8]) -> Option<Runs> {
        let mut runs: Vec<(usize, usize, usize, i8)> = Vec::new();
        for (p, (&r, &yr)) in rows.iter().zip(y).enumerate() {
            match runs.last_mut() {
                Some((_, row, len, label)) if *row + *len == r as usize && *label == yr => {
                    *len += 1
                }
                _ => {
                    if (runs.len() + 1) * MIN_RUN > rows.len() {
                        return None;
                    }
                    runs.push((p, r as usize, 1, yr));
                }
            }
        }
        Some(Runs(runs))
    }

    /// Append `y_a y_t full[rows[t]]` for the positions `start..len` to
    /// `col` (which holds the first `start`), run by run (the values of
    /// [`signed_gather`], to the bit).
    fn copy(&self, full: &[f32], start: usize, len: usize, ya: i8, col: &mut Vec<f32>) {
        debug_assert_eq!(col.len(), start, "the column's first entries");
        // The runs cover the positions in increasing order.
        for &(p, row, n, yr) in &self.0 {
            let (a, b) = (p.max(start), (p + n).min(len));
            if a < b {
                let from = row + (a - p);
                signed_copy(&full[from..from + (b - a)], yr != ya, col);
            }
        }
    }
}

/// The shortest average run worth copying by runs.
const MIN_RUN: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    /// Copies by runs give the gather's bits for every piece of the column,
    /// and rows in no order have no runs.
    #[test]
    fn runs_copy_what_the_gather_reads() {
        let full: Vec<f32> = (0..400)
            .map(|i| match i % 7 {
                0 => 0.0,
                1 => -0.0,
                _ => (i as f32 * 0.37).sin(),
            })
            .collect();
        // Two classes, each two runs (a held-out hole), as a CV's training set.
        let mut rows: Vec<u32> = (10..60).chain(80..150).collect();
        let mut y: Vec<i8> = vec![1; rows.len()];
        rows.extend((200..260).chain(300..390));
        y.resize(rows.len(), -1);
        let runs = Runs::of(&rows, &y).expect("four runs");
        assert_eq!(runs.0.len(), 4);
        for ya in [1i8, -1] {
            for (start, len) in [(0, rows.len()), (0, 1), (37, 121), (50, 51), (200, 270)] {
                let mut want = vec![9.0f32; start];
                signed_gather(&full, &rows[start..len], &y[start..len], ya, &mut want);
                let mut got = vec![9.0f32; start];
                runs.copy(&full, start, len, ya, &mut got);
                assert_eq!(got.len(), len);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{start}..{len}, ya {ya}");
            }
        }
        let scattered: Vec<u32> = (0..64).map(|i| (i * 37) % 101).collect();
        assert!(Runs::of(&scattered, &[1; 64]).is_none());
        // One label change per row is no run either.
        let alternating: Vec<i8> = (0..64).map(|i| if i % 2 == 0 { 1 } else { -1 }).collect();
        let consecutive: Vec<u32> = (0..64).collect();
        assert!(Runs::of(&consecutive, &alternating).is_none());
    }
}
