//! The binary C-SVC's parameters, training, model and model file.
//!
//! Modules:
//! - `params`: [`SvmParams`](crate::svm::model::params::SvmParams) (svm-train's options and defaults, the default
//!   gamma, validation).
//! - `solution`: training from a dataset and rows, the model, prediction.
//! - `label`: the class a label belongs to, as LIBSVM decides it.
//! - `file`: LIBSVM's model file format, any number of classes (written and
//!   read).

pub mod file;
pub mod label;
pub mod params;
pub mod solution;
