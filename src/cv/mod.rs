//! Cross-validation procedures, written once against
//! [`IncrementalLearner`](crate::learners::IncrementalLearner).
//!
//! - [`holdout`]: train on one part, test on the rest.
//! - [`progressive`]: progressive validation (Blum, Kalai & Langford 1999),
//!   with an optional delay.
//! - [`kfold_hypothesis`]: the k-fold *hypothesis* (random pick among the k
//!   fold hypotheses) and its estimate.

pub mod error;
pub mod holdout;
pub mod kfold_hypothesis;
pub mod progressive;

pub use error::CvError;

/// Check that every index in `points` is a row of a dataset with `n` rows.
pub(crate) fn check_rows(points: &[usize], n: usize, what: &'static str) -> Result<(), CvError> {
    match points.iter().find(|&&i| i >= n) {
        Some(&i) => Err(CvError::RowOutOfRange { what, row: i, n }),
        None => Ok(()),
    }
}
