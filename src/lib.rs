//! # cvbench
//!
//! A reproducible experiment-benchmark harness for research on fast
//! cross-validation. Layers (arrows point one way; lower layers never import
//! higher ones):
//!
//! - [`data`]: datasets (dense/CSR), readers, registry, fetch, synthetic data.
//! - [`learners`]: the incremental-learner interface and its learners.
//! - [`cv`]: folds, standard k-CV, TreeCV, hold-out, progressive validation.
//! - [`svm`]: kernels, kernel cache, SMO solver, SVM k-fold CV, alpha seeding.
//! - [`peers`]: external programs our numbers are checked against (LIBSVM).
//! - [`experiments`]: one module per paper (cell → record rows).
//! - [`config`], [`runner`], [`results`]: generic config, execution, outputs.
//! - [`cli`]: the command line (and `cvbench svm`).
//! - [`interrupt`]: Ctrl-C / SIGTERM handling that leaves no temporary file.

pub mod cli;
pub mod config;
pub mod cv;
pub mod data;
pub mod experiments;
pub mod interrupt;
pub mod learners;
pub mod peers;
pub mod results;
pub mod runner;
pub mod seed;
pub mod svm;
