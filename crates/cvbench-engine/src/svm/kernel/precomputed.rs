//! LIBSVM's precomputed kernel (`svm-train -t 4`): the data are the kernel
//! values. Row `i` of a training file is `label 0:i 1:K(x_i,x_1) ...
//! l:K(x_i,x_l)`: feature 0 is the row's serial number (1-based), feature
//! `j` its kernel value with training row `j`. LIBSVM's
//! `Kernel::kernel_precomputed` reads `K(x_i, x_j)` as `x_i[serial(x_j)]`,
//! and its `k_function` at prediction time `x[serial(sv)]` for a test row
//! `x` (`0:anything`, then its kernel values with the training rows) and a
//! support vector `sv`, which the model file stores as `0:serial` alone.
//!
//! So every kernel value is one look-up: [`k`] (the training and the
//! prediction kernel alike, `x` the row whose values are read). Rows keep
//! their serial numbers when a fold takes a subset of them, so a held-out
//! row's kernel values are read by serial as LIBSVM's `-v` reads them.
//!
//! LIBSVM reads `x_i[s]` as the `s`-th stored entry of row `i`, which is
//! feature `s` where the row stores every feature from 0 (as its README
//! asks: zeros written out). Here feature `s` is looked up by its index
//! (the `s`-th entry first, a binary search where a row leaves some out):
//! the same value on every file LIBSVM reads as intended. The dataset must
//! be numbered from 0 (a file with `0:` entries, [`crate::data::IndexBase::Zero`]).
//!
//! [`check_serials`] holds `svm-train`'s checks of a training file ("first
//! column must be 0:sample_serial_number", "sample_serial_number out of
//! range") as typed errors, a little stricter: a serial number must be an
//! integer (LIBSVM truncates it) from 1 to the number of rows (LIBSVM
//! allows up to the highest feature index, which is the same on a file it
//! reads correctly).

use crate::data::{Dataset, IndexBase, Row};

/// A training file that is not in LIBSVM's precomputed-kernel format, by
/// row (`row` 0-based, shown from 1; the caller names the file's line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PrecomputedError {
    /// A row without a non-zero `0:` entry (svm-train: "Wrong input
    /// format: first column must be 0:sample_serial_number").
    #[error("row {}: the first column must be 0:SERIAL, the row's serial number from 1 (this row has no 0: entry, or 0:0; svm-train: \"Wrong input format: first column must be 0:sample_serial_number\")", .row + 1)]
    MissingSerial {
        /// The row (0-based).
        row: usize,
    },
    /// A serial number that is not an integer.
    #[error("row {}: the serial number 0:{value} is not an integer (svm-train truncates it; write 0:N with N from 1 to the number of rows)", .row + 1)]
    NotInteger {
        /// The row (0-based).
        row: usize,
        /// The value of its `0:` entry.
        value: f64,
    },
    /// A serial number below 1 or above the number of training rows
    /// (svm-train: "Wrong input format: sample_serial_number out of
    /// range").
    #[error("row {}: the serial number 0:{serial} is out of range: it must be from 1 to {l}, the number of rows (svm-train: \"Wrong input format: sample_serial_number out of range\")", .row + 1)]
    OutOfRange {
        /// The row (0-based).
        row: usize,
        /// Its serial number.
        serial: i64,
        /// The number of training rows.
        l: usize,
    },
}

impl PrecomputedError {
    /// The 0-based row the error is about.
    pub fn row(&self) -> usize {
        match *self {
            PrecomputedError::MissingSerial { row }
            | PrecomputedError::NotInteger { row, .. }
            | PrecomputedError::OutOfRange { row, .. } => row,
        }
    }
}

/// Check that every row of a precomputed-kernel training set `ds` starts
/// with `0:SERIAL`, an integer from 1 to `ds.n()` (see the module doc).
pub fn check_serials(ds: &Dataset) -> Result<(), PrecomputedError> {
    let l = ds.n();
    for row in 0..l {
        let value = match (ds.index_base, ds.row(row)) {
            (IndexBase::Zero, r) => zeroth(r),
            (IndexBase::One, _) => None,
        }
        .ok_or(PrecomputedError::MissingSerial { row })?;
        if value.fract() != 0.0 {
            return Err(PrecomputedError::NotInteger { row, value });
        }
        if !(1.0..=l as f64).contains(&value) {
            return Err(PrecomputedError::OutOfRange {
                row,
                serial: value as i64,
                l,
            });
        }
    }
    Ok(())
}

/// The stored value of feature 0, where the row stores it.
fn zeroth(r: Row<'_>) -> Option<f64> {
    match r {
        Row::Dense(x) => x.first().copied().filter(|&v| v != 0.0),
        Row::Sparse(idx, val) => (idx.first() == Some(&0)).then(|| val[0]),
    }
}

/// The serial number of a row, its feature 0 as LIBSVM's `(int)` cast
/// reads it (`usize::MAX` where it is absent or not positive: a look-up
/// with it finds nothing).
#[inline]
pub fn serial(r: Row<'_>) -> usize {
    match zeroth(r) {
        Some(v) if v >= 1.0 => v as usize,
        _ => usize::MAX,
    }
}

/// Feature `j` of a row (0 where it is not stored): the `j`-th stored
/// entry where that is feature `j` (a row storing every feature from 0),
/// else by binary search.
#[inline]
pub fn value_at(r: Row<'_>, j: usize) -> f64 {
    match r {
        Row::Dense(x) => x.get(j).copied().unwrap_or(0.0),
        Row::Sparse(idx, val) => match idx.get(j) {
            Some(&f) if f as usize == j => val[j],
            _ => u32::try_from(j)
                .ok()
                .and_then(|j| idx.binary_search(&j).ok())
                .map_or(0.0, |p| val[p]),
        },
    }
}

/// `K(x, y) = x[serial(y)]`: LIBSVM's `kernel_precomputed(i, j)` with `x`
/// row `i`, and its `k_function(x, sv)` at prediction time.
#[inline]
pub fn k(x: Row<'_>, y: Row<'_>) -> f64 {
    value_at(x, serial(y))
}

/// `out[k] = sign_k * K(x_a, x_{rows[k]})` as `f32` (`sign_k = ya *
/// ys[k]`, all +1 without `ys`): a column of LIBSVM's `Q` as its `get_Q`
/// computes it (`(Qfloat)(y[i] * y[j] * kernel(i, j))`).
pub(super) fn fill_column(
    ds: &Dataset,
    a: usize,
    ya: i8,
    rows: &[u32],
    ys: Option<&[i8]>,
    out: &mut [f32],
) {
    let xa = ds.row(a);
    for (k, (o, &r)) in out.iter_mut().zip(rows).enumerate() {
        let sign = ys.map_or(1.0, |ys| f64::from(ya * ys[k]));
        *o = (sign * value_at(xa, serial(ds.row(r as usize)))) as f32;
    }
}

/// The whole matrix of `ds`'s rows as [`crate::svm::kernel::matrix`]
/// stores it (column `a`'s entry `r` at `a * n + r`: `K(x_a, x_r)`,
/// unsigned), every entry read (no symmetry assumed).
pub(super) fn fill_matrix(ds: &Dataset, matrix: &mut [f32]) {
    use rayon::prelude::*;
    let n = ds.n();
    let all: Vec<u32> = (0..n as u32).collect();
    matrix
        .par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(a, col)| fill_column(ds, a, 1, &all, None, col));
}

/// `K(x_b, x_q)` for every basis row `b` and query `q`, one row per basis
/// row (the batched solver's kernel rows, `basis_rows::kernel_rows`).
pub(super) fn basis_rows(
    ds: &Dataset,
    basis: &[u32],
    queries: &[usize],
) -> Vec<std::sync::Arc<[f32]>> {
    use rayon::prelude::*;
    let q: Vec<u32> = queries.iter().map(|&r| r as u32).collect();
    basis
        .par_iter()
        .map(|&b| {
            let mut out = vec![0.0f32; q.len()];
            fill_column(ds, b as usize, 1, &q, None, &mut out);
            out.into()
        })
        .collect()
}
