//! C-SVC with an SMO solver of LIBSVM grade, and SVM k-fold cross-validation.
//!
//! The solver follows Fan, Chen & Lin, "Working set selection using second
//! order information for training SVM" (JMLR 6, 2005) and Chang & Lin,
//! "LIBSVM: a library for support vector machines" (ACM TIST 2011), and it
//! reproduces LIBSVM 3.24's choices (tie-breaking, shrinking schedule, cache
//! eviction, class grouping), so that iteration counts, objectives and
//! accuracies can be compared with `svm-train` one to one.
//!
//! Layout (every module; those without a link are private to the layer):
//! - [`error`]: [`SvmError`], every way the layer can fail.
//! - [`params`]: [`SvmParams`] (svm-train's options and defaults, the default gamma, validation).
//! - [`strategy`]: the CV's axes (round order, seeder, cache, threads), one registry each.
//! - Kernels:
//!   - [`kernel`]: linear, polynomial, Gaussian (RBF) and sigmoid kernels with precomputed
//!     squared norms, and kernel columns (its unit tests in `kernel_tests`).
//!   - [`kernel_fn`]: the kernels' LIBSVM names, codes, model-file lines and dot-product formulas.
//!   - [`predict_kernel`]: the kernels of prediction, as LIBSVM's `k_function` computes them.
//!   - [`exp_table`]: the RBF kernel's values of integer-valued data as a table.
//!   - [`fast_exp`]: a vectorisable `exp` for the kernel blocks.
//!   - [`feature_span`]: a sparse dataset's features renumbered to the ones its rows store.
//!   - [`kernel_block`]: batched kernel blocks (prediction, seeders, gradient updates).
//!   - [`kernel_matrix`]: the whole kernel matrix of a dataset, into a shared cache that
//!     holds every column.
//!   - [`product_tiles`]: the kernel matrix's tiles as matrix products, for the batched solver.
//!   - [`lane_tile`]: kernel sums of up to `TILE` rows at once, one SIMD lane per row.
//!   - `sparse_lanes`: vector loops shared by the kernel blocks computed along a step of queries.
//!   - `simd`: run-time CPU dispatch of the vectorised loops (`by_cpu!`).
//! - Caches:
//!   - [`cache`]: LIBSVM's LRU column cache of `Q` for one solve (f32 entries, size in MB).
//!   - [`shared_cache`]: a thread-safe kernel cache keyed by the original row index,
//!     shared by the folds of a cross-validation run (its counters' tests in
//!     `shared_counts_tests`).
//!   - [`column`](mod@column): a column handed out by the shared cache.
//!   - [`cached_sums`]: weighted kernel sums read from the shared cache's columns where it
//!     holds them.
//!   - [`budget`]: the kernel cache's memory when `svm-train -m` is not given.
//!   - `signed_gather`: a solve's `Q` column gathered and signed from a shared cache's column.
//!   - `runs`: runs of consecutive dataset rows, read in place from the shared cache's columns.
//! - Solvers:
//!   - [`smo`]: the SMO solver of the C-SVC dual (WSS of Fan et al., shrinking,
//!     gradient reconstruction, `rho` from the free variables, warm start).
//!   - [`solve_input`]: what a solve is given and the checks every solver makes on it.
//!   - [`solve_stats`]: what a solve gives back: the alphas, the gradient, [`SolveStats`]
//!     and [`Timings`].
//!   - [`optimality`]: the pieces of the dual every solver shares (a variable's status,
//!     the pair update, `rho`, the objective, the KKT violation).
//!   - `qmatrix`: the `Q` matrix of one SMO solve (LIBSVM's `SVC_Q`, its column cache in front).
//!   - `smo_rows`, `smo_lanes`: the SMO's per-iteration loops over the active rows (the WSS 3
//!     scans, the gradient updates), split over the pool and vectorised over lanes.
//!   - [`batched`]: a batched working-set solver of the same dual (ThunderSVM's method).
//!   - [`sample_weight`]: per-row weights of C (scikit-learn's `sample_weight`).
//!   - [`pool`]: rayon pools of a given size.
//! - Models and cross-validation:
//!   - [`solution`]: training from a dataset and rows, the model, prediction.
//!   - [`label`]: the class a label belongs to, as LIBSVM decides it.
//!   - [`model_file`]: LIBSVM's model file format (written and read).
//!   - [`train_log`]: what `svm-train` prints of a solve.
//!   - [`folds`]: stratified folds, LIBSVM-compatible folds (with a replica of
//!     glibc's `rand()`), leave-one-out.
//!   - [`rounds`]: what every k-fold CV shares (a round's outcome, the run's, the batched
//!     prediction of a held-out fold).
//!   - [`cv`]: the baseline k-fold CV (every round from `alpha = 0`), sequential
//!     or parallel on rayon, with an optional shared kernel cache.
//!   - [`seeding`]: alpha seeding (Wen et al. 2017): the `Seeder` trait and one
//!     file per method (zero, ATO, MIR, SIR, AVG, TOP).
//!   - [`seeded_cv`]: the seeded CV's round orders (chain, full model, tree).
//!   - [`multiclass`]: LIBSVM's one-vs-one multi-class C-SVC (training, model
//!     file, k-fold CV with a kernel cache shared by every class pair and fold).
//!   - [`grid`]: model selection over a (C, gamma) grid (`grid.py` with reuse across
//!     grid points and folds).
//!
//! The solver layer only: LIBSVM as a peer is the harness's `peers::libsvm`, the
//! `cvbench svm` command its `cli::svm`.
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
pub use solution::{train, SvmModel, TrainOutput};
pub use solve_stats::{SolveStats, Timings};
pub use strategy::{CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SolverKind};
