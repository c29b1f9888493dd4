//! C-SVC with an SMO solver of LIBSVM grade, and SVM k-fold cross-validation.
//!
//! The solver follows Fan, Chen & Lin, "Working set selection using second
//! order information for training SVM" (JMLR 6, 2005) and Chang & Lin,
//! "LIBSVM: a library for support vector machines" (ACM TIST 2011), and it
//! reproduces LIBSVM 3.24's choices (tie-breaking, shrinking schedule, cache
//! eviction, class grouping), so that iteration counts, objectives and
//! accuracies can be compared with `svm-train` one to one.
//!
//! Layout:
//! - [`kernel`]: linear and Gaussian (RBF) kernels with precomputed squared norms.
//! - [`cache`]: LIBSVM's LRU column cache of `Q` (f32 entries, size in MB) and a
//!   thread-safe kernel cache keyed by the original row index, shared by the
//!   folds of a cross-validation run.
//! - [`smo`]: the SMO solver of the C-SVC dual (WSS of Fan et al., shrinking,
//!   gradient reconstruction, `rho` from the free variables, warm start).
//! - [`solution`]: training from a dataset and rows, the model, prediction.
//! - [`folds`]: stratified folds, LIBSVM-compatible folds (with a replica of
//!   glibc's `rand()`), leave-one-out.
//! - [`cv`]: the baseline k-fold CV (every round from `alpha = 0`), sequential
//!   or parallel on rayon, with an optional shared kernel cache.
//! - [`seeding`]: alpha seeding (Wen et al. 2017): the `Seeder` trait and one
//!   file per method (zero, ATO, MIR, SIR, AVG, TOP).
//! - [`seeded_cv`]: the seeded CV's round orders (chain, full model, tree).
//!
//! The solver layer only: LIBSVM as a peer is `crate::peers::libsvm`, the
//! `cvbench svm` command `crate::cli::svm`.
//!
//! Numeric choice: like LIBSVM (`Qfloat = float`), cached `Q` columns are
//! stored as `f32`; gradients, alphas, the diagonal `QD` and everything else
//! are `f64`. This halves cache memory and keeps the floating-point path of
//! LIBSVM, so iteration counts match closely.

pub mod cache;
pub mod cv;
pub mod folds;
pub mod grid;
pub mod kernel;
pub mod seeded_cv;
pub mod seeding;
pub mod smo;
pub mod solution;

pub use cache::{ColumnCache, SharedKernelCache};
pub use cv::{cross_validate, CvOptions, CvResult, CvRound};
pub use folds::{Folds, GlibcRand};
pub use kernel::{KernelData, KernelKind};
pub use seeded_cv::{seeded_cross_validate, SeededCvResult, SeededOptions};
pub use seeding::SeedingMethod;
pub use smo::{SolveStats, Timings};
pub use solution::{train, SvmModel, TrainOutput};

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
    /// A data-layer error (reading or writing a LibSVM file).
    #[error(transparent)]
    Data(#[from] crate::data::DataError),
    /// Running or parsing the peer `svm-train` / `svm-predict`.
    #[error("LIBSVM peer: {0}")]
    Peer(String),
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

/// Parameters of one C-SVC solve. Defaults are `svm-train`'s, except that
/// the RBF `gamma` has no dataset-independent default (`svm-train` uses
/// `1/num_features`; see [`SvmParams::libsvm_defaults`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SvmParams {
    /// The kernel.
    pub kernel: KernelKind,
    /// The box constraint `C` (`-c`, default 1).
    pub c: f64,
    /// Stopping tolerance on the maximal violating pair (`-e`, default 1e-3).
    pub eps: f64,
    /// Size of the `Q` column cache in MB (`-m`, default 100).
    pub cache_mb: f64,
    /// Whether to use the shrinking heuristic (`-h`, default on).
    pub shrinking: bool,
    /// Maximal number of SMO iterations; `None` uses LIBSVM's
    /// `max(10^7, 100 l)`.
    pub max_iter: Option<u64>,
}

impl SvmParams {
    /// `svm-train`'s defaults for a dataset with `num_features` features:
    /// RBF with `gamma = 1/num_features`, C = 1, eps = 1e-3, 100 MB, shrinking.
    pub fn libsvm_defaults(num_features: usize) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Rbf {
                gamma: if num_features > 0 {
                    1.0 / num_features as f64
                } else {
                    0.0
                },
            },
            ..SvmParams::rbf(1.0, 1.0)
        }
    }

    /// RBF kernel with the given C and gamma; other settings at LIBSVM's defaults.
    pub fn rbf(c: f64, gamma: f64) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Rbf { gamma },
            c,
            eps: 1e-3,
            cache_mb: 100.0,
            shrinking: true,
            max_iter: None,
        }
    }

    /// Linear kernel with the given C; other settings at LIBSVM's defaults.
    pub fn linear(c: f64) -> SvmParams {
        SvmParams {
            kernel: KernelKind::Linear,
            ..SvmParams::rbf(c, 1.0)
        }
    }

    /// Check every parameter's domain.
    pub fn validate(&self) -> Result<(), SvmError> {
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "C must be finite and > 0, got {}",
                fmt_param(self.c)
            )));
        }
        if !(self.eps.is_finite() && self.eps > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "eps must be finite and > 0, got {}",
                fmt_param(self.eps)
            )));
        }
        if !(self.cache_mb.is_finite() && self.cache_mb > 0.0) {
            return Err(SvmError::InvalidParam(format!(
                "cache size must be finite and > 0 MB, got {}",
                fmt_param(self.cache_mb)
            )));
        }
        if let KernelKind::Rbf { gamma } = self.kernel {
            if !(gamma.is_finite() && gamma >= 0.0) {
                return Err(SvmError::InvalidParam(format!(
                    "gamma must be finite and >= 0, got {}",
                    fmt_param(gamma)
                )));
            }
        }
        if self.max_iter == Some(0) {
            return Err(SvmError::InvalidParam("max_iter must be > 0".into()));
        }
        Ok(())
    }
}

/// A parameter value as a user would write it: plain for ordinary
/// magnitudes, scientific (`1e-50`, `1e300`) for tiny or huge ones, so that
/// an error never shows a valid tiny value as `0`.
pub fn fmt_param(v: f64) -> String {
    let a = v.abs();
    if v != 0.0 && a.is_finite() && !(1e-4..1e15).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}
