//! Model selection over a (C, gamma) grid: LIBSVM's `grid.py` with reuse
//! across grid points and folds.
//!
//! - [`range`]: grid.py's ranges, axis permutation and visiting order.
//! - `tests`: the reuse levels agree with each other.
//!
//! The squared distances every gamma reuses and a gamma's kernel matrix in
//! fold order are kernel producers: [`crate::svm::kernel::distances`] and
//! [`crate::svm::kernel::fold_order`].
//! - [`reuse`]: the reuse levels and their names.
//! - [`engine`]: the k-fold CV of every point with the reuse levels
//!   (gamma blocks, C path warm start, fold seeding, threads) and their
//!   counters.
//! - [`newton`]: SMO in rounds with Newton steps on the free set.
//! - [`cholesky`]: the Newton steps' factor, rows deleted in place.
//! - [`select`]: grid.py's choice of the best point.
//! - [`schedule`]: uneven jobs `width` at a time, results in order.
//! - [`warm`]: the C path's warm start (an optimum scaled to a larger C).
//! - [`formulation_axes`]: the axes and order of a grid of `-s 1..4`.
//! - [`formulations`]: the grid of `-s 1..4` (nu-SVC, one-class, the SVRs),
//!   one kernel cache per gamma, and its choice.
//! - [`formulation_warm`]: the epsilon-SVR grid's warm starts along C and
//!   epsilon, a chain per gamma and fold.

pub mod cholesky;
pub mod engine;
pub mod formulation_axes;
pub(crate) mod formulation_warm;
pub mod formulations;
pub mod newton;
pub mod range;
pub mod reuse;
pub mod schedule;
pub mod select;
pub mod warm;

pub use engine::{run_grid, FoldStat, GridCost, GridOptions, PointResult};
pub use range::{Axis, Grid, Point};
pub use reuse::Reuse;

/// Errors of grid specifications.
#[derive(Debug, thiserror::Error)]
pub enum GridError {
    /// A malformed `-log2c` / `-log2g` range.
    #[error("{flag} {value}: {why}")]
    Range {
        /// The option (`-log2c` or `-log2g`).
        flag: String,
        /// The text given.
        value: String,
        /// What is wrong and how to fix it.
        why: String,
    },
    /// Any other bad usage.
    #[error("{0}")]
    Usage(String),
}

#[cfg(test)]
mod tests;
