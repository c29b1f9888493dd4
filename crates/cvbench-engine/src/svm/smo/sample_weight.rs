//! Per-row weights of C (scikit-learn's `sample_weight`).
//!
//! scikit-learn's LIBSVM carries a weight `W_i` per training row in the
//! problem (`svm_problem.W`): row `i`'s upper bound is `C_i = C_class W_i`,
//! its class's C (with class weights) times its weight, in every solve of a
//! training (the class pairs' and the probability CV's alike). Rows whose
//! weight is not positive are left out of the training. [`SampleWeights`]
//! rides on the [`crate::svm::kernel::KernelData`] every solve reads, indexed by
//! dataset row, and [`row_bounds`] gives a solve's `C_i`.

use std::sync::Arc;

use crate::svm::error::SvmError;

/// One finite, non-negative weight per dataset row.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleWeights(Arc<[f64]>);

impl SampleWeights {
    /// The weights of `n` rows, checked: one per row, finite (NaN or an
    /// infinity is an error, naming the row). Negative weights, like zero,
    /// leave their row out ([`SampleWeights::trained_rows`]).
    pub fn new(w: &[f64], n: usize) -> Result<SampleWeights, SvmError> {
        if w.len() != n {
            return Err(SvmError::InvalidParam(format!(
                "sample_weight has {} values for {n} rows: give one per row",
                w.len()
            )));
        }
        if let Some(i) = w.iter().position(|v| !v.is_finite()) {
            return Err(SvmError::NonFinite(format!(
                "sample_weight[{i}] is {}: every weight must be a finite number",
                w[i]
            )));
        }
        Ok(SampleWeights(w.into()))
    }

    /// The weight of dataset row `r`.
    #[inline]
    pub fn of(&self, r: usize) -> f64 {
        self.0[r]
    }

    /// The rows of `rows` with a positive weight (the others are left out
    /// of a training, as scikit-learn's LIBSVM leaves them out); an error
    /// where none is left.
    pub fn trained_rows(&self, rows: &[usize]) -> Result<Vec<usize>, SvmError> {
        let kept: Vec<usize> = rows.iter().copied().filter(|&r| self.0[r] > 0.0).collect();
        if kept.is_empty() {
            return Err(SvmError::InvalidParam(
                "every sample_weight is <= 0: no row is left to train on (a row's weight \
                 scales its C; give at least one row a positive weight)"
                    .into(),
            ));
        }
        Ok(kept)
    }

    /// The weights of `rows`, in that order (a subset's own weights).
    pub fn subset(&self, rows: &[usize]) -> SampleWeights {
        SampleWeights(rows.iter().map(|&r| self.0[r]).collect())
    }
}

/// Each training row's upper bound `C_i = (c_pos or c_neg) W_r` for the
/// dataset rows `rows` with labels `y` (±1).
pub fn row_bounds(w: &SampleWeights, rows: &[u32], y: &[i8], c_pos: f64, c_neg: f64) -> Vec<f64> {
    rows.iter()
        .zip(y)
        .map(|(&r, &yk)| w.of(r as usize) * if yk > 0 { c_pos } else { c_neg })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_checked_and_scale_each_rows_bound() {
        assert!(SampleWeights::new(&[1.0], 2).is_err());
        assert!(SampleWeights::new(&[1.0, f64::NAN], 2).is_err());
        let w = SampleWeights::new(&[2.0, 0.0, -1.0, 0.5], 4).unwrap();
        assert_eq!(w.trained_rows(&[0, 1, 2, 3]).unwrap(), vec![0, 3]);
        assert!(w.trained_rows(&[1, 2]).is_err());
        assert_eq!(row_bounds(&w, &[0, 3], &[1, -1], 4.0, 10.0), vec![8.0, 5.0]);
        assert_eq!(w.subset(&[3, 0]).of(0), 0.5);
    }
}
