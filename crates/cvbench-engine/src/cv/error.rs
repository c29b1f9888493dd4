//! Errors of the cross-validation procedures.

use thiserror::Error;

/// Bad input to a cross-validation procedure.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CvError {
    /// A row index is not a row of the dataset.
    #[error("{what}: row {row} is out of range for a dataset of {n} rows")]
    RowOutOfRange {
        /// Which argument held the index.
        what: &'static str,
        /// The offending index.
        row: usize,
        /// The dataset's row count.
        n: usize,
    },
    /// A test set (hold-out, progressive set or fold) is empty.
    #[error("{0} is empty")]
    Empty(&'static str),
    /// The fold count does not fit the data.
    #[error("cannot split {n} points into {k} folds (need 2 <= k <= n)")]
    BadFoldCount {
        /// Requested fold count.
        k: usize,
        /// Number of points.
        n: usize,
    },
}
