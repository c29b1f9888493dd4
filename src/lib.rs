//! # cvbench
//!
//! A reproducible experiment-benchmark harness for research on fast
//! cross-validation, built on the engine crate `cvbench_engine` (data, SVM,
//! TreeCV's learners and CV strategies). Layers (arrows point one way; lower
//! layers never import higher ones):
//!
//! - [`interrupt`], [`atomic_write`], [`pyfmt`]: Ctrl-C without leftovers
//!   (temporary files, child processes), output files written whole or not
//!   at all, numbers printed as `grid.py` prints them.
//! - [`config`]: config files.
//! - [`fetch`]: verified, atomic downloads of registry datasets.
//! - [`peers`]: external programs our numbers are checked against (LIBSVM).
//! - [`results`]: typed rows and record tables, Markdown tables, figures,
//!   manifests, scorecard rows (names no experiment kind).
//! - [`experiments`]: one module per paper (cell → typed rows → tables,
//!   figures, report section, scorecard).
//! - [`runner`], [`report`]: running configs (shards, SLURM, resume) and the
//!   report over every stored run, above the kinds.
//! - [`cli`]: the command line (and `cvbench svm`, `cvbench grid`).

pub mod atomic_write;
pub mod cli;
pub mod config;
pub mod experiments;
pub mod fetch;
pub mod interrupt;
pub mod peers;
pub mod pyfmt;
pub mod report;
pub mod results;
pub mod runner;
