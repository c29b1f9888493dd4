//! Solves and models below [`super::fit`]: one binary training on chosen
//! rows, one-vs-one training, a solve's statistics and `svm-train`'s printed
//! lines, predicting rows, and model files.

/// Train a binary C-SVC on chosen rows (its model, statistics, `nu`);
/// the binary model.
pub use crate::svm::{train, SvmModel};

/// Train one-vs-one on chosen rows: each pair's fit, the model.
pub use crate::svm::multiclass::{train_ovo, MultiModel, PairFit};

/// A solve's statistics and timings; a solve's input and output (the
/// batched solver's tests and benches).
pub use crate::{
    svm::smo::{SolveInput, SolveOutput},
    svm::{SolveStats, Timings},
};

/// `svm-train`'s printed lines of a solve: progress dots, `optimization
/// finished` and the lines after it, the non-finite and iteration-cap
/// warnings.
pub use crate::svm::smo::train_log::{
    nonfinite_warning, progress_text, solve_lines, MAX_ITER_WARNING,
};

/// Check that every feature is finite; and a training set's rows for its
/// kernel (the precomputed kernel's serial numbers too).
pub use crate::svm::model::solution::{check_finite_features, check_training_features};

/// Predict held-out rows of a binary model in blocks (the kernel block);
/// the kernel cache shared by a CV's solves.
pub use crate::{svm::cv::rounds::predict_rows, svm::SharedKernelCache};

/// Model files in `svm-train`'s format (the text written, a file read); a label as LIBSVM prints it and
/// as it classes it.
pub use crate::{
    svm::model::file::{libsvm_class_label, model_text, read_model},
    svm::model::label::class_label,
};
