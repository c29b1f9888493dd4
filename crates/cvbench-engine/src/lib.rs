//! # cvbench-engine
//!
//! The engine of cvbench: data reading, the SVM (kernels, caches, the SMO
//! and batched solvers, one-vs-one, alpha seeding, k-fold CV, grids, model
//! files) and the incremental learners with TreeCV and progressive
//! validation. It has no dependency on tables, figures, the command line or
//! the network; the harness (`cvbench`) and the Python package build on it.
//!
//! Layers (arrows point one way; lower layers never import higher ones):
//!
//! - [`seed`], [`interrupt`], [`cancel`]: seeds, Ctrl-C handling, the
//!   library calls' cooperative cancellation.
//! - [`data`]: datasets (dense/CSR), readers, registry, synthetic data.
//! - [`learners`]: the incremental-learner interface and its learners.
//! - [`cv`]: folds, standard k-CV, TreeCV, hold-out, progressive validation.
//! - [`svm`]: kernels, kernel cache, SMO solver, SVM k-fold CV, alpha seeding.
//! - [`api`]: the public face for training, CV and grids from outside
//!   (the command line, the harness, the Python package).

pub mod api;
pub mod cancel;
pub mod cv;
pub mod data;
pub mod interrupt;
pub mod learners;
pub mod seed;
pub mod svm;
