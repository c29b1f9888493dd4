//! LIBSVM's `SVR_Q`: the `2l x 2l` matrix of the regression duals
//! (epsilon-SVR, nu-SVR) over the variables `a_1..a_l, a*_1..a*_l`, read
//! from the `l x l` kernel matrix of the training rows:
//! `Q_st = sign_s sign_t K(x_index(s), x_index(t))`, with `sign = +1` and
//! `index = k` for `a_k`, `sign = -1` and `index = k` for `a*_k`.
//!
//! As in svm.cpp, the kernel's column cache holds whole columns of `K` by
//! their real row (`index[i]`) and is never reordered; the solver's swaps
//! permute only `sign` and `index`; each column of `Q` is built by
//! "reorder and copy" (`buf[j] = sign_i sign_j data[index[j]]`, exact sign
//! flips of the `f32` kernel values) into one of two buffers, so that two
//! columns can be read at once.

use crate::svm::cache::qmatrix::SvcQ;
use crate::svm::cache::SharedKernelCache;
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
    /// LIBSVM's two column buffers.
    buffer: [Vec<f32>; 2],
}

/// `buf = [sign_i sign_j data[index[j]] : j < len]` (LIBSVM's reorder and copy).
#[inline]
fn reorder(buf: &mut Vec<f32>, data: &[f32], si: i8, sign: &[i8], index: &[u32], len: usize) {
    let si = f32::from(si);
    buf.clear();
    buf.extend(
        sign[..len]
            .iter()
            .zip(&index[..len])
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
            kernel: SvcQ::new(kd, rows, ones, cache_mb, shared),
            sign: std::iter::repeat_n(1i8, l)
                .chain(std::iter::repeat_n(-1i8, l))
                .collect(),
            index: (0..l as u32).chain(0..l as u32).collect(),
            buffer: [Vec::with_capacity(2 * l), Vec::with_capacity(2 * l)],
        }
    }
}

impl QMatrix for SvrQ<'_> {
    fn get_q(&mut self, i: usize, len: usize) -> &[f32] {
        let data = self.kernel.get_q(self.index[i] as usize, self.l);
        reorder(
            &mut self.buffer[0],
            data,
            self.sign[i],
            &self.sign,
            &self.index,
            len,
        );
        &self.buffer[0]
    }

    fn get_q2(&mut self, i: usize, j: usize, len: usize) -> (&[f32], &[f32]) {
        let (ri, rj) = (self.index[i] as usize, self.index[j] as usize);
        let (di, dj) = self.kernel.get_q2(ri, rj, self.l);
        let [b0, b1] = &mut self.buffer;
        reorder(b0, di, self.sign[i], &self.sign, &self.index, len);
        reorder(b1, dj, self.sign[j], &self.sign, &self.index, len);
        (b0, b1)
    }

    fn swap_index(&mut self, i: usize, j: usize) {
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
