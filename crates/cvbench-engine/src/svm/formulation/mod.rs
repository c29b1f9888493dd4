//! LIBSVM's other formulations (`svm-train -s 1..4`), exactly as svm.cpp
//! 3.24 builds and solves them, on the engine's SMO
//! ([`crate::svm::smo::general`]: `Solver::Solve` with any `Q`, linear term
//! `p`, labels and bounds per variable). One file per piece of svm.cpp:
//!
//! - `solver_nu`: `Solver_NU` (working sets within one label, its
//!   shrinking, rho and `r`), the solver of the nu formulations.
//! - `one_class_q`: `ONE_CLASS_Q`, `Q_ij = K(x_i, x_j)`.
//! - `svr_q`: `SVR_Q`, the `2l`-variable matrix read from the `l x l`
//!   kernel through an index map and signs. (`SVC_Q` is
//!   [`crate::svm::cache::qmatrix`].)
//! - [`nu_svc`]: `solve_nu_svc` (the alphas and rho scaled by `1/r`) and
//!   the one-vs-one nu-SVC ([`train_nu_svc`]).
//! - `one_class`: `solve_one_class`.
//! - `svr`: `solve_epsilon_svr` and `solve_nu_svr`.
//! - `batched`: epsilon-SVR and one-class on the batched working-set
//!   solver (`--solver batched`).
//! - [`nu_svc_probability`]: nu-SVC's `-b 1` (each pair's
//!   `svm_binary_svc_probability` with nu-SVC sub-trainings).
//! - [`svr_probability`]: the SVRs' `-b 1` (`svm_svr_probability`: the
//!   Laplace scale from a 5-fold CV's residuals).
//! - [`function_model`]: `svm_train`'s branch for one-class and regression
//!   (one decision function: [`train_one_function`]), its model, prediction
//!   and model file.
//! - `fit_lines`: what `svm-train` prints for one training (with `-b 1`,
//!   the probability model's internal CVs' solves first).
//! - `function_rows`: that model's predictions of many rows at once (a
//!   CV's held-out fold), tile by tile, each `svm_predict`'s to the bit.
//! - `held_out_kernel`: a held-out fold's kernel values against its
//!   round's training rows, computed once for every model of a grid's
//!   gamma trained on that round (the same predictions, to the bit).
//!
//! Entry points: [`train_nu_svc`] (`-s 1`, any number of classes; its
//! model is a [`crate::svm::multiclass::MultiModel`], written by
//! [`crate::svm::model::file::model_text_as`] with `nu_svc`) and
//! [`train_one_function`] (`-s 2`, `-s 3`, `-s 4`; a [`FunctionModel`]).

mod batched;
pub(crate) mod fit_lines;
pub mod function_model;
mod function_rows;
pub(crate) mod held_out_kernel;
pub mod nu_svc;
pub mod nu_svc_probability;
mod one_class;
pub(crate) mod one_class_q;
pub(crate) mod solver_nu;
mod svr;
pub mod svr_probability;
pub(crate) mod svr_q;

pub use function_model::{train_one_function, train_one_function_with, FunctionFit, FunctionModel};
pub use nu_svc::{train_nu_svc, train_nu_svc_with, NuSvcFit};

use crate::svm::smo::solve_stats::SolveStats;

/// One formulation's solution as `svm_train_one` holds it: each row's
/// coefficient, the solve's statistics (objective and rho as printed), the
/// upper bound of `|coef|` (`si.upper_bound_p == si.upper_bound_n`), and
/// the value the `solve_*` function prints (`C`, `nu` or `epsilon`).
pub(crate) struct Solved {
    /// `svm_train_one`'s `alpha`: the signed coefficient of each row.
    pub alpha: Vec<f64>,
    /// The solve's statistics (its `n_sv`, `n_bsv` count variables).
    pub stats: SolveStats,
    /// The upper bound of `|alpha|`.
    pub upper_bound: f64,
    /// What the `solve_*` function prints, as (name, value).
    pub info: Option<(&'static str, f64)>,
    /// The SMO's end state over its variables (`Q a`, `G_bar`), where it
    /// ran (a warm start along a grid reads it).
    pub end: Option<crate::svm::smo::general::StartGradient>,
}

impl Solved {
    /// The statistics with `svm_train_one`'s counts: `nSV` the rows with
    /// `|alpha| > 0`, `nBSV` those with `|alpha| >= upper bound`.
    pub(crate) fn counted_stats(&self) -> SolveStats {
        let mut stats = self.stats.clone();
        stats.n_sv = self.alpha.iter().filter(|a| a.abs() > 0.0).count();
        stats.n_bsv = self
            .alpha
            .iter()
            .filter(|a| a.abs() > 0.0 && a.abs() >= self.upper_bound)
            .count();
        stats
    }
}
