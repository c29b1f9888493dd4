//! LIBSVM's multi-class C-SVC: one-vs-one, exactly as `svm-train` 3.24.
//!
//! - [`groups`]: `svm_group_classes` (classes by first appearance, rows
//!   grouped by class) and the weighted C of each class (`-wi`).
//! - [`train`]: one binary problem per class pair on the same SMO, laid out
//!   as LIBSVM's model.
//! - [`model`]: the model and its one-vs-one vote (where the votes are
//!   counted).
//! - [`predict_rows`]: decision values and votes for many rows at once.
//! - [`class_order`]: a CV's rows laid out class by class.
//! - [`cached_votes`]: a CV's held-out votes read from the kernel matrix its
//!   solves used.
//! - The model file for any number of classes: [`crate::svm::model::file`].
//! - [`probability`]: probability estimates (`-b 1`): Platt's sigmoid per
//!   pair from an internal 5-fold CV, pairwise coupling.
//! - [`cv`]: `svm-train -v K` on LIBSVM's folds, every (fold, pair) problem a
//!   parallel job, optionally on one kernel cache shared by all of them.
//! - `pair_blocks`: the same CV in bounded memory, where the whole matrix
//!   does not fit the budget: pair after pair, each pair's kernel block
//!   computed once for its folds; `pair_matrix`: a pair's block assembled
//!   from its two classes' blocks and its cross values; `class_blocks`:
//!   which classes' blocks are held, within the budget.
//! - [`seeded`]: the same CV with alpha seeding per class pair (the binary
//!   round orders and seeders on each pair's folds), on one shared cache.
//! - [`grid`]: a (C, gamma) grid of such CVs, one shared cache per gamma.
//!
//! Binary data without class weights also runs through
//! [`crate::svm::model::solution`] and the seeded CV ([`crate::svm::cv::seeded`]);
//! for two classes both give the same numbers.

pub mod cached_votes;
mod class_blocks;
pub mod class_order;
pub mod cv;
pub mod grid;
pub mod groups;
pub mod model;
mod pair_blocks;
mod pair_matrix;
pub mod predict_rows;
pub mod probability;
pub mod seeded;
pub mod train;

pub use cv::{cross_validate_ovo, cv_with, FoldFit, OvoCvOptions, OvoCvResult};
pub use groups::{check_weights, is_multiclass, weighted_c, ClassWeight, Groups};
pub use model::MultiModel;
pub use seeded::{cross_validate_ovo_seeded, seeds};
pub use train::{train_ovo, OvoFit, PairFit};
