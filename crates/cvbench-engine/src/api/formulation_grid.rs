//! A grid of `svm-train -s 1..4` (`cvbench grid -s 1..4`): every point of
//! C, gamma and the formulation's own parameter (nu for nu-SVC, one-class
//! and nu-SVR; epsilon for epsilon-SVR) cross-validated on the given folds
//! ([`super::formulation_cv::libsvm_folds`] for `svm-train -v K`'s) with
//! `svm-train`'s numbers, the points of one gamma sharing one kernel cache
//! over every point and fold ([`run_formulation_grid`]); the axes and the
//! visiting order ([`formulation_points`], [`nu_values`]); the choice
//! ([`FormulationBest`]: the highest accuracy or the least mean squared
//! error, grid.py's tie-break).

/// The grid's points, options, results and runner, and its choice.
pub use crate::svm::grid::formulations::{
    run_formulation_grid, FormulationBest, FormulationGridOptions, FormulationPoint,
    FormulationPointResult,
};

/// The axes and the visiting order.
pub use crate::svm::grid::formulation_axes::{formulation_points, nu_values, NamedPoint};
