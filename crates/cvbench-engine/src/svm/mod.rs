//! C-SVC with an SMO solver of LIBSVM grade, and SVM k-fold cross-validation.
//!
//! The solver follows Fan, Chen & Lin, "Working set selection using second
//! order information for training SVM" (JMLR 6, 2005) and Chang & Lin,
//! "LIBSVM: a library for support vector machines" (ACM TIST 2011), and it
//! reproduces LIBSVM 3.24's choices (tie-breaking, shrinking schedule, cache
//! eviction, class grouping), so that iteration counts, objectives and
//! accuracies can be compared with `svm-train` one to one.
//!
//! Layout: one room (folder) per job, each room's `mod.rs` doc listing
//! every module in it:
//! - [`error`]: [`SvmError`], every way the layer can fail.
//! - [`kernel`]: every producer of kernel values: the kernel functions and
//!   their LIBSVM names, a kernel row (column of `Q`), batched kernel blocks,
//!   the whole kernel matrix, prediction's kernel, the grid's distances.
//! - [`cache`]: kernel caches: LIBSVM's LRU column cache of one solve, the
//!   cache shared by the solves of a run, the `Q` matrix in front of them,
//!   the cache's memory budget.
//! - [`smo`]: the LIBSVM-identical SMO solver (working-set selection,
//!   shrinking, its per-row loops), what a solve is given and gives back,
//!   the dual's shared pieces (optimality), sample weights, the train log.
//! - [`formulation`]: LIBSVM's other formulations (nu-SVC, one-class,
//!   epsilon-SVR, nu-SVR): `Solver_NU`, `ONE_CLASS_Q`, `SVR_Q`, their
//!   `solve_*` functions, training and the one-class / regression model.
//! - [`batched`]: a batched working-set solver of the same dual
//!   (ThunderSVM's method).
//! - `simd`: run-time CPU dispatch of the vectorised loops (`by_cpu!`) and
//!   the vector loops the kernel blocks share.
//! - [`model`]: the parameters, training from a dataset and rows, the binary
//!   model and its prediction, labels, LIBSVM's model file.
//! - [`cv`]: k-fold CV: folds, the baseline CV, what every CV shares, the
//!   strategy axes and their registries, the seeded CV's round orders, pools.
//! - [`seeding`]: alpha seeding (Wen et al. 2017): the `Seeder` trait and one
//!   file per method (zero, ATO, MIR, SIR, AVG, TOP).
//! - [`multiclass`]: LIBSVM's one-vs-one multi-class C-SVC (training, the
//!   vote, probabilities, k-fold CV and grids with one shared kernel cache).
//! - [`grid`]: model selection over a (C, gamma) grid (`grid.py` with reuse
//!   across grid points and folds).
//!
//! Where to look: a kernel row is computed in `kernel/mod.rs`
//! (`KernelData::fill_column`; every other producer is listed in
//! [`kernel`]'s doc); the SMO's working set is chosen in `smo/rows.rs` (the
//! WSS 3 scans), the batched solver's in `batched/select.rs`; one-vs-one
//! votes are counted in `multiclass/model.rs` (`MultiModel::vote`) and, many
//! rows at once, `multiclass/predict_rows.rs`.
//!
//! The solver layer only: LIBSVM as a peer is the harness's `peers::libsvm`, the
//! `cvbench svm` command its `cli::svm`.
//!
//! Numeric choice: like LIBSVM (`Qfloat = float`), cached `Q` columns are
//! stored as `f32`; gradients, alphas, the diagonal `QD` and everything else
//! are `f64`. This halves cache memory and keeps the floating-point path of
//! LIBSVM, so iteration counts match closely.

// Hidden from the public docs (lib.rs): links to private items resolve
// in the `--document-private-items` view.
#![allow(rustdoc::private_intra_doc_links)]

pub mod batched;
pub mod cache;
pub mod cv;
pub mod error;
pub mod formulation;
pub mod grid;
pub mod kernel;
pub mod model;
pub mod multiclass;
pub mod seeding;
mod simd;
pub mod smo;

pub use cache::{ColumnCache, SharedKernelCache};
pub use cv::folds::{Folds, GlibcRand};
pub use cv::seeded::{run_cv, run_cv_first_rounds, SeededCvResult, SeededOptions};
pub use cv::strategy::{CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SolverKind};
pub use cv::{cross_validate, seeded_cross_validate, CvOptions, CvResult, CvRound};
pub use error::SvmError;
pub use kernel::{KernelData, KernelKind};
pub use model::params::{
    default_gamma, fmt_param, gamma_or_default, is_default_gamma, CheckedParams, SvmParams,
};
pub use model::solution::{train, SvmModel, TrainOutput};
pub use smo::solve_stats::{SolveStats, Timings};
