//! Every error the engine returns, one type per room: the SVM (fit, CV,
//! folds, parameters), data files, grid ranges, model files, the
//! incremental CVs and learners, and a cancelled call.

/// The SVM's errors (parameters, folds, non-finite input, I/O).
pub use crate::svm::SvmError;

/// Reading or writing data, registry and limit errors.
pub use crate::data::DataError;

/// A grid range that cannot be read.
pub use crate::svm::grid::GridError;

/// A model file that cannot be read or written.
pub use crate::svm::model::file::ModelFileError;

/// The incremental CVs' and learners' errors.
pub use crate::{cv::CvError, learners::LearnerError};

/// A call stopped by its [`super::cancel::CancelToken`].
pub use crate::cancel::Cancelled;
