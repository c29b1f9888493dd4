//! # cvbench
//!
//! A reproducible experiment-benchmark harness for research on fast
//! cross-validation. Layers (arrows point one way; lower layers never import
//! higher ones):
//!
//! - [`seed`], [`interrupt`], [`cancel`], [`config`]: seeds, Ctrl-C handling
//!   (the CLI's; the library calls' cooperative cancellation), config files.
//! - [`data`]: datasets (dense/CSR), readers, registry, fetch, synthetic data.
//! - [`learners`]: the incremental-learner interface and its learners.
//! - [`cv`]: folds, standard k-CV, TreeCV, hold-out, progressive validation.
//! - [`svm`]: kernels, kernel cache, SMO solver, SVM k-fold CV, alpha seeding.
//! - [`peers`]: external programs our numbers are checked against (LIBSVM).
//! - [`results`]: typed rows and record tables, Markdown tables, figures,
//!   manifests, scorecard rows (names no experiment kind).
//! - [`experiments`]: one module per paper (cell → typed rows → tables,
//!   figures, report section, scorecard).
//! - [`runner`], [`report`]: running configs (shards, SLURM, resume) and the
//!   report over every stored run, above the kinds.
//! - [`cli`]: the command line (and `cvbench svm`).
//! - [`api`]: a small public API for training, CV and grids from outside
//!   (the Python package; Rust programs).
//!
//! The default feature `harness` holds `cli`, `experiments`, `results`,
//! `runner`, `report`, `peers` and `data::fetch` with their heavy
//! dependencies; `default-features = false` builds the lean library.

pub mod api;
pub mod cancel;
#[cfg(feature = "harness")]
pub mod cli;
pub mod config;
pub mod cv;
pub mod data;
#[cfg(feature = "harness")]
pub mod experiments;
pub mod interrupt;
pub mod learners;
#[cfg(feature = "harness")]
pub mod peers;
#[cfg(feature = "harness")]
pub mod report;
#[cfg(feature = "harness")]
pub mod results;
#[cfg(feature = "harness")]
pub mod runner;
pub mod seed;
pub mod svm;
