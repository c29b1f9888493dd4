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
//! - `seed`, `cancel`: seeds, the library calls' cooperative
//!   cancellation (Ctrl-C handling and atomic writes are the harness's).
//! - `data`: datasets (dense/CSR), readers, registry, synthetic data.
//! - `learners`: the incremental-learner interface and its learners.
//! - `cv`: folds, standard k-CV, TreeCV, hold-out, progressive validation.
//! - `svm`: kernels, kernel cache, SMO solver, SVM k-fold CV, alpha seeding.
//! - [`api`]: the public face, the only way in for the harness, the Python
//!   package and any other crate (a root test, `tests/engine_face.rs`,
//!   fails when one of them names anything else).
//!
//! The rooms below `api` are hidden: they stay `pub` (and `#[doc(hidden)]`) only because the engine's
//! own tests, benches and examples (`crates/cvbench-engine/{tests,benches,
//! examples}`) reach into them.

pub mod api;
// Only the engine's own tests, benches and examples use the modules below
// directly; every other caller goes through `api`. Their docs link to their
// private items freely (each allows rustdoc::private_intra_doc_links): they
// are read with `--document-private-items` (`make doc-check` builds both
// views), where those links resolve.
#[doc(hidden)]
pub mod cancel;
#[doc(hidden)]
pub mod cv;
#[doc(hidden)]
pub mod data;
#[doc(hidden)]
pub mod learners;
#[doc(hidden)]
pub mod seed;
#[doc(hidden)]
pub mod svm;
