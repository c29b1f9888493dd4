//! LIBSVM's `ONE_CLASS_Q`: `Q_ij = K(x_i, x_j)` (no labels) over the
//! training rows in the solver's current order, with LIBSVM's column cache.
//! It is `SVC_Q` ([`SvcQ`]) with every label `+1`: the same kernel values,
//! cast to `f32` the same way, the same cache and swaps.

use crate::svm::cache::qmatrix::SvcQ;
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::KernelData;
use crate::svm::smo::q_matrix::{QCounters, QMatrix};

/// The `Q` matrix of the one-class SVM.
pub(crate) struct OneClassQ<'k>(SvcQ<'k>);

impl<'k> OneClassQ<'k> {
    /// `Q` over dataset rows `rows` of `kd`, with a column cache of
    /// `cache_mb` MB (and a shared kernel cache behind it, if given).
    pub(crate) fn new(
        kd: &'k KernelData<'k>,
        rows: Vec<u32>,
        cache_mb: f64,
        shared: Option<&'k SharedKernelCache>,
    ) -> OneClassQ<'k> {
        let ones = vec![1i8; rows.len()];
        OneClassQ(SvcQ::new(kd, rows, ones, cache_mb, shared))
    }
}

impl QMatrix for OneClassQ<'_> {
    #[inline]
    fn get_q(&mut self, i: usize, len: usize) -> &[f32] {
        self.0.get_q(i, len)
    }

    #[inline]
    fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]) {
        self.0.get_q2(i, j, len)
    }

    fn swap_index(&mut self, i: usize, j: usize) {
        self.0.swap_index(i, j);
    }

    fn diagonal(&self) -> Vec<f64> {
        self.0.diagonal()
    }

    fn counters(&self) -> QCounters {
        QMatrix::counters(&self.0)
    }
}
