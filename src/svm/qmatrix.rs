//! The `Q` matrix of one SMO solve ([`super::smo`]): `Q_ij = y_i y_j
//! K(x_i, x_j)` over the training rows in the solver's current order, as
//! LIBSVM's `SVC_Q`: its column cache ([`ColumnCache`]) in front and,
//! optionally, a kernel cache shared across solves behind it.

use super::cache::{ColumnCache, SharedKernelCache};
use super::kernel::KernelData;
use super::signed_gather::signed_gather;

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
        let col = self.cache.column_mut(i);
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
        let full = self.shared.and_then(|sh| {
            if whole {
                Some(sh.column(kd, a, scratch))
            } else {
                sh.get(a)
            }
        });
        let read = full.is_some() && (whole || settled);
        if !read {
            self.kernel_evals += (len - start) as u64;
        }
        match full {
            Some(full) => {
                // A sign flip of an f32 is exact: same value as LIBSVM's
                // (float)(y_i y_j K_ij).
                signed_gather(
                    &full[..],
                    &self.rows[start..len],
                    &self.y[start..len],
                    ya,
                    &mut col[start..len],
                );
                if whole {
                    self.shared_hits += 1;
                }
            }
            None => {
                let (kd, a, rows) = match &self.local {
                    Some((lk, lrows)) => (lk, lrows[i] as usize, &lrows[start..len]),
                    None => (self.kd, a, &self.rows[start..len]),
                };
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
        self.cache.swap_index(i, j);
        self.rows.swap(i, j);
        if let Some((_, lrows)) = &mut self.local {
            lrows.swap(i, j);
        }
        self.y.swap(i, j);
    }
}
