//! External programs our numbers are checked against. They sit beside the
//! solver layer, not in it: `svm` never runs a subprocess.
//!
//! - [`libsvm`]: LIBSVM's `svm-train` / `svm-predict` on exactly our folds.

pub mod libsvm;
