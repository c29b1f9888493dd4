//! Everything that can go wrong in the SVM layer.

/// Everything that can go wrong in the SVM layer. Bad input gives an error,
/// never a panic.
#[derive(Debug, thiserror::Error)]
pub enum SvmError {
    /// A parameter is out of its domain (C ≤ 0, gamma ≤ 0, eps ≤ 0, ...).
    #[error("invalid SVM parameter: {0}")]
    InvalidParam(String),
    /// The training set is empty.
    #[error("no training rows")]
    Empty,
    /// More than two distinct labels: only binary C-SVC is implemented.
    #[error("C-SVC here is binary: found {0} distinct labels")]
    NotBinary(usize),
    /// A label or feature value is NaN or infinite.
    #[error("non-finite value: {0}")]
    NonFinite(String),
    /// A row index is out of range for the dataset.
    #[error("row {row} out of range for a dataset of {n} rows")]
    RowOutOfRange {
        /// The bad index.
        row: usize,
        /// The dataset's row count.
        n: usize,
    },
    /// A warm-start alpha violates the box `0 ≤ alpha_i ≤ C` or the equality
    /// `sum_i y_i alpha_i = 0`, or has the wrong length.
    #[error("infeasible warm start: {0}")]
    InfeasibleWarmStart(String),
    /// Folds that do not partition the rows, or an invalid fold count.
    #[error("invalid folds: {0}")]
    InvalidFolds(String),
    /// A precomputed-kernel training set (`-t 4`) without LIBSVM's serial
    /// numbers.
    #[error("precomputed kernel: {0}")]
    Precomputed(#[from] crate::svm::kernel::precomputed::PrecomputedError),
    /// A data-layer error (reading or writing a LibSVM file).
    #[error(transparent)]
    Data(#[from] crate::data::DataError),
    /// Running or parsing the peer `svm-train` / `svm-predict`.
    #[error("LIBSVM peer: {0}")]
    Peer(String),
    /// The call was cancelled ([`crate::cancel`]).
    #[error(transparent)]
    Cancelled(#[from] crate::cancel::Cancelled),
    /// An I/O error with context.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}
