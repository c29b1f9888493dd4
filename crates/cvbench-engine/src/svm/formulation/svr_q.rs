//! LIBSVM's `SVR_Q`: the `2l x 2l` matrix of the regression duals
//! (epsilon-SVR, nu-SVR) over the variables `a_1..a_l, a*_1..a*_l`, read
//! from the `l x l` kernel matrix of the training rows:
//! `Q_st = sign_s sign_t K(x_index(s), x_index(t))`, with `sign = +1` and
//! `index = k` for `a_k`, `sign = -1` and `index = k` for `a*_k`.
//!
//! As in svm.cpp, the kernel's column cache holds whole columns of `K` by
//! their real row (`index[i]`) and is never reordered; the solver's swaps
//! permute `sign` and `index`; each column of `Q` is built by "reorder and
//! copy" (`Q_ij = sign_i sign_j data[index[j]]`, exact sign flips of the
//! `f32` kernel values). Unlike svm.cpp, which rebuilds a column into one
//! of two buffers on every request (at large C, where the SMO runs many
//! iterations on a few free variables, that rebuild was half the time), the
//! built columns are kept in a second column cache in the solver's order
//! (LIBSVM's `Cache`, as `SVC_Q` keeps its columns, swapped with the
//! variables): a column's values are the same, built once while it stays
//! cached. The budget is split between the two caches (a third for the
//! kernel's columns, each of which serves both of its row's variables).

use crate::svm::cache::qmatrix::SvcQ;
use crate::svm::cache::{ColumnCache, SharedKernelCache};
use crate::svm::kernel::KernelData;
use crate::svm::smo::q_matrix::{QCounters, QMatrix};

/// The `Q` matrix of the regression duals.
pub(crate) struct SvrQ<'k> {
    /// The number of training rows.
    l: usize,
    /// The kernel of the training rows (every label `+1`), by real row.
    kernel: SvcQ<'k>,
    /// The sign of each variable in the solver's current order.
    sign: Vec<i8>,
    /// The real row of each variable in the solver's current order.
    index: Vec<u32>,
    /// The built columns of `Q`, in the solver's order.
    columns: ColumnCache,
}

/// Append `[sign_i sign_j data[index[j]] : start <= j < len]` to `col`
/// (LIBSVM's reorder and copy).
#[inline]
fn reorder(
    col: &mut Vec<f32>,
    data: &[f32],
    si: i8,
    sign: &[i8],
    index: &[u32],
    start: usize,
    len: usize,
) {
    let si = f32::from(si);
    col.extend(
        sign[start..len]
            .iter()
            .zip(&index[start..len])
            .map(|(&s, &k)| si * f32::from(s) * data[k as usize]),
    );
}

impl<'k> SvrQ<'k> {
    /// `Q` over dataset rows `rows` of `kd` (`2 l` variables), with a column
    /// cache of `cache_mb` MB for the kernel (and a shared kernel cache
    /// behind it, if given).
    pub(crate) fn new(
        kd: &'k KernelData<'k>,
        rows: Vec<u32>,
        cache_mb: f64,
        shared: Option<&'k SharedKernelCache>,
    ) -> SvrQ<'k> {
        let l = rows.len();
        let ones = vec![1i8; l];
        SvrQ {
            l,
            kernel: SvcQ::new(kd, rows, ones, cache_mb / 3.0, shared),
            sign: std::iter::repeat_n(1i8, l)
                .chain(std::iter::repeat_n(-1i8, l))
                .collect(),
            index: (0..l as u32).chain(0..l as u32).collect(),
            columns: ColumnCache::new(2 * l, cache_mb * 2.0 / 3.0),
        }
    }

    /// Make column `i` of `Q` hold its first `len` entries.
    #[inline]
    fn ensure(&mut self, i: usize, len: usize) {
        let start = self.columns.request(i, len);
        if start < len {
            self.build(i, start, len);
        }
    }

    #[cold]
    fn build(&mut self, i: usize, start: usize, len: usize) {
        let data = self.kernel.get_q(self.index[i] as usize, self.l);
        let col = self.columns.column_tail(i);
        debug_assert_eq!(col.len(), start, "the column's first entries");
        reorder(col, data, self.sign[i], &self.sign, &self.index, start, len);
    }
}

impl QMatrix for SvrQ<'_> {
    #[inline]
    fn get_q(&mut self, i: usize, len: usize) -> &[f32] {
        self.ensure(i, len);
        &self.columns.column(i)[..len]
    }

    #[inline]
    fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]) {
        self.ensure(i, len);
        self.ensure(j, len);
        (
            &self.columns.column(i)[..len],
            &self.columns.column(j)[..len],
        )
    }

    fn swap_index(&mut self, i: usize, j: usize) {
        self.columns.swap_index(i, j);
        self.sign.swap(i, j);
        self.index.swap(i, j);
    }

    /// `QD_k = QD_{k+l} = K(x_k, x_k)`.
    fn diagonal(&self) -> Vec<f64> {
        let d = self.kernel.diagonal();
        self.index.iter().map(|&k| d[k as usize]).collect()
    }

    fn counters(&self) -> QCounters {
        QMatrix::counters(&self.kernel)
    }
}
