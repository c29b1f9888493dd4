//! The `Q` matrix as the solver reads it, whatever the formulation
//! (LIBSVM's `QMatrix` interface): columns of `Q` in the solver's current
//! order, the diagonal, and the swap of two variables. Implemented by
//! LIBSVM's `SVC_Q` ([`SvcQ`], C-SVC and nu-SVC), and by `ONE_CLASS_Q` and
//! `SVR_Q` in [`crate::svm::formulation`].

use crate::svm::cache::qmatrix::SvcQ;

/// What a solve's `Q` matrix counted (into [`crate::svm::smo::solve_stats::SolveStats`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct QCounters {
    /// Kernel values computed.
    pub kernel_evals: u64,
    /// Columns taken whole from a shared kernel cache.
    pub shared_hits: u64,
    /// Column cache hits.
    pub cache_hits: u64,
    /// Column cache misses.
    pub cache_misses: u64,
}

/// LIBSVM's `QMatrix`: what the SMO solver reads of `Q`.
pub(crate) trait QMatrix {
    /// Column `i`, first `len` entries (LIBSVM's `get_Q`).
    fn get_q(&mut self, i: usize, len: usize) -> &[f32];
    /// Columns `i` and `j` (requested in that order), first `len` entries.
    fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]);
    /// Swap variables `i` and `j` (LIBSVM's `swap_index`).
    fn swap_index(&mut self, i: usize, j: usize);
    /// The diagonal `QD` in the initial order (LIBSVM's `get_QD`).
    fn diagonal(&self) -> Vec<f64>;
    /// The counters of kernel values and cache use.
    fn counters(&self) -> QCounters;
}

impl QMatrix for SvcQ<'_> {
    #[inline]
    fn get_q(&mut self, i: usize, len: usize) -> &[f32] {
        SvcQ::get_q(self, i, len)
    }

    #[inline]
    fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]) {
        SvcQ::get_q2(self, i, j, len)
    }

    fn swap_index(&mut self, i: usize, j: usize) {
        SvcQ::swap_index(self, i, j);
    }

    fn diagonal(&self) -> Vec<f64> {
        SvcQ::diagonal(self)
    }

    fn counters(&self) -> QCounters {
        QCounters {
            kernel_evals: self.kernel_evals,
            shared_hits: self.shared_hits,
            cache_hits: self.cache.hits,
            cache_misses: self.cache.misses,
        }
    }
}
