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
//! - [`error`]: [`SvmError`], every way the layer can fail.
//! - [`params`]: [`SvmParams`] (svm-train's options and defaults, the default gamma, validation).
//! - [`strategy`]: the CV's axes (round order, seeder, cache, threads), one registry each.
//! - [`kernel_block`]: batched kernel blocks (prediction, seeders, gradient updates).
//! - [`kernel`]: linear, polynomial, Gaussian (RBF) and sigmoid kernels with precomputed squared norms.
//! - [`kernel_fn`]: the kernels' LIBSVM names, codes, model-file lines and dot-product formulas.
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
//! - [`multiclass`]: LIBSVM's one-vs-one multi-class C-SVC (training, model
//!   file, k-fold CV with a kernel cache shared by every class pair and fold).
//!
//! The solver layer only: LIBSVM as a peer is `crate::peers::libsvm`, the
//! `cvbench svm` command `crate::cli::svm`.
//!
//! Numeric choice: like LIBSVM (`Qfloat = float`), cached `Q` columns are
//! stored as `f32`; gradients, alphas, the diagonal `QD` and everything else
//! are `f64`. This halves cache memory and keeps the floating-point path of
//! LIBSVM, so iteration counts match closely.

pub mod batched;
pub mod budget;
pub mod cache;
pub mod cached_sums;
pub mod column;
pub mod cv;
pub mod error;
pub mod exp_table;
pub mod fast_exp;
pub mod feature_span;
pub mod folds;
pub mod grid;
pub mod kernel;
pub mod kernel_block;
pub mod kernel_fn;
pub mod kernel_matrix;
#[cfg(test)]
mod kernel_tests;
pub mod label;
pub mod lane_tile;
pub mod model_file;
pub mod multiclass;
pub mod optimality;
pub mod params;
pub mod pool;
pub mod predict_kernel;
pub mod product_tiles;
mod qmatrix;
pub mod rounds;
mod runs;
pub mod sample_weight;
pub mod seeded_cv;
pub mod seeding;
pub mod shared_cache;
#[cfg(test)]
mod shared_counts_tests;
mod signed_gather;
mod simd;
pub mod smo;
mod smo_lanes;
mod smo_rows;
pub mod solution;
pub mod solve_input;
pub mod solve_stats;
pub(crate) mod sparse_lanes;
pub mod strategy;
pub mod train_log;

pub use cache::{ColumnCache, SharedKernelCache};
pub use cv::{cross_validate, seeded_cross_validate, CvOptions, CvResult, CvRound};
pub use error::SvmError;
pub use folds::{Folds, GlibcRand};
pub use kernel::{KernelData, KernelKind};
pub use params::{
    default_gamma, fmt_param, gamma_or_default, is_default_gamma, CheckedParams, SvmParams,
};
pub use seeded_cv::{run_cv, run_cv_first_rounds, SeededCvResult, SeededOptions};
pub use solve_stats::{SolveStats, Timings};
pub use solution::{train, SvmModel, TrainOutput};
pub use strategy::{CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SolverKind};
