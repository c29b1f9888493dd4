//! `svm_train`'s branch for the formulations of one decision function
//! (one-class, epsilon-SVR, nu-SVR): the training rows in their own order
//! (no class grouping), one solve ([`super::one_class`], [`super::svr`]),
//! the support vectors the rows with a non-zero coefficient; the model
//! ([`FunctionModel`]), `svm_predict_values`' prediction (the decision
//! value for regression, its sign for one-class) and the model file
//! `svm_save_model` writes (`nr_class 2`, one `rho`, no `label` or `nr_sv`
//! line).

use crate::data::{Dataset, Row};
use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::matrix::prefilled;
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::model::file::{num, push_sv_entries};
use crate::svm::model::params::{CheckedParams, SvmType};
use crate::svm::model::solution::check_training_features;
use crate::svm::model::solution::kernel_expansion;
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::{error::SvmError, model::params::SvmParams};

/// A one-class or regression model: `f(x) = sum_i sv_coef_i K(sv_i, x) -
/// rho`.
#[derive(Clone, Debug)]
pub struct FunctionModel {
    /// The formulation (one-class, epsilon-SVR or nu-SVR).
    pub svm_type: SvmType,
    /// The kernel.
    pub kernel: KernelKind,
    /// The support vectors, in the training rows' order.
    pub sv: Dataset,
    /// Row of each support vector in the training dataset.
    pub sv_rows: Vec<usize>,
    /// The coefficient of each support vector (`a_k - a*_k` for regression).
    pub sv_coef: Vec<f64>,
    /// The bias.
    pub rho: f64,
    /// An SVR's probability model (`-b 1`): the Laplace scale `sigma`
    /// written as `probA` ([`super::svr_probability`]).
    pub prob_a: Option<f64>,
}

impl FunctionModel {
    /// The decision value `f(x)`, summed in the support vectors' order.
    pub fn decision_value(&self, x: Row<'_>) -> f64 {
        kernel_expansion(self.kernel, &self.sv, &self.sv_coef, self.rho, x)
    }

    /// What `svm-predict` prints: the decision value for regression, `+1`
    /// or `-1` (`f(x) > 0`) for one-class.
    pub fn predict(&self, x: Row<'_>) -> f64 {
        self.output(self.decision_value(x))
    }

    /// What `svm-predict` prints for decision value `v`: `v` itself for
    /// regression, `+1` or `-1` (`v > 0`) for one-class.
    pub fn output(&self, v: f64) -> f64 {
        if self.svm_type.is_regression() {
            v
        } else if v > 0.0 {
            1.0
        } else {
            -1.0
        }
    }

    /// The text `svm_save_model` writes for this model.
    pub fn model_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = format!("svm_type {}\n", self.svm_type.name());
        s.push_str(&self.kernel.model_header(num));
        let _ = writeln!(s, "nr_class 2");
        let _ = writeln!(s, "total_sv {}", self.sv_coef.len());
        let _ = writeln!(s, "rho {}", num(self.rho));
        if let Some(a) = self.prob_a {
            let _ = writeln!(s, "probA {}", num(a));
        }
        s.push_str("SV\n");
        let base = self.sv.index_base.offset();
        for (k, &c) in self.sv_coef.iter().enumerate() {
            s.push_str(&num(c));
            push_sv_entries(&mut s, self.kernel, self.sv.row(k), base);
            s.push('\n');
        }
        s
    }
}

/// What [`train_one_function`] returns.
#[derive(Clone, Debug)]
pub struct FunctionFit {
    /// The model.
    pub model: FunctionModel,
    /// The coefficient of each training row, in the caller's order.
    pub coef: Vec<f64>,
    /// Iterations, objective and rho as `svm-train` prints them, and
    /// `svm_train_one`'s `nSV` and `nBSV`.
    pub stats: SolveStats,
    /// What the `solve_*` function prints: `("nu", sum |coef| / (C l))` for
    /// epsilon-SVR, `("epsilon", -r)` for nu-SVR, none for one-class.
    pub info: Option<(&'static str, f64)>,
    /// The SMO's end state (`Q a`, `G_bar` over its variables), where the
    /// SMO solved it: a warm start from this solution reads it instead of
    /// a kernel mat-vec.
    pub(crate) end: Option<crate::svm::smo::general::StartGradient>,
}

impl FunctionFit {
    /// `svm-train`'s lines after the progress marks.
    pub fn solve_lines(&self) -> Vec<String> {
        solve_lines(&self.stats, self.info)
    }
}

/// `svm-train`'s lines of one solve: "optimization finished", the `solve_*`
/// function's line (`C = `, `nu = ` or `epsilon = `), objective and rho,
/// support vectors.
pub fn solve_lines(stats: &SolveStats, info: Option<(&str, f64)>) -> Vec<String> {
    crate::svm::smo::train_log::named_solve_lines(stats, info)
}

/// Train a one-class SVM or an SVR on `rows` of `ds` (`svm_type` one of
/// them), the rows in the given order (`svm-train`'s: the file's). The
/// support vectors carry `ds`'s own feature indices.
pub fn train_one_function(
    ds: &Dataset,
    rows: &[usize],
    params: &SvmParams,
    svm_type: SvmType,
) -> Result<FunctionFit, SvmError> {
    let params = params.check()?;
    check_training_features(ds, params.kernel)?;
    let kd = KernelData::new(ds, params.kernel);
    // Every row trained on and the matrix within 3/4 of -m: the matrix at
    // once on the pool (a tile at a time, half by symmetry: the same bits
    // as the columns one at a time), the solve's own cache the rest, as
    // C-SVC's `train`.
    let prefilled = (rows.len() == ds.n())
        .then(|| prefilled(&kd, params.cache_mb, params.solver.matrix_values()))
        .flatten();
    let mut fit = match &prefilled {
        Some(sh) => {
            let local = params.with_cache_mb(params.cache_mb * 0.25)?;
            train_one_function_with(&kd, rows, &local, svm_type, Some(sh))?
        }
        None => train_one_function_with(&kd, rows, &params, svm_type, None)?,
    };
    kd.restore_features(&mut fit.model.sv);
    Ok(fit)
}

/// [`train_one_function`] with a prepared [`KernelData`] and an optional
/// shared kernel cache (features assumed finite); the support vectors in
/// `kd`'s feature numbering.
pub fn train_one_function_with(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    svm_type: SvmType,
    shared: Option<&SharedKernelCache>,
) -> Result<FunctionFit, SvmError> {
    svm_type.validate()?;
    let ds: &Dataset = &kd.ds;
    crate::svm::smo::solve_input::check_train_rows(rows, ds.n())?;
    let srows: Vec<u32> = rows.iter().map(|&r| r as u32).collect();
    let solved = match svm_type {
        SvmType::OneClass { nu } => {
            super::one_class::solve_one_class(kd, &srows, params, nu, shared, None)?
        }
        SvmType::EpsilonSvr { p } | SvmType::NuSvr { nu: p } => {
            if let Some(&r) = rows.iter().find(|&&r| !ds.y[r].is_finite()) {
                return Err(SvmError::NonFinite(format!(
                    "target of row {r} is {}",
                    ds.y[r]
                )));
            }
            let nu = matches!(svm_type, SvmType::NuSvr { .. }).then_some(p);
            super::svr::solve_svr(kd, &srows, params, p, nu, shared, None)?
        }
        SvmType::CSvc | SvmType::NuSvc { .. } => {
            return Err(SvmError::InvalidParam(format!(
                "{} has classes: train it one-vs-one (C-SVC: train_ovo; nu-SVC: train_nu_svc)",
                svm_type.name()
            )))
        }
    };
    Ok(function_fit(kd, rows, svm_type, solved))
}

/// A one-class SVM or an SVR (`svm_type`) on `rows` of `kd` (features
/// assumed finite, rows checked, targets finite) from the feasible start
/// `start` (the solver's variables: `2l` for the SVRs, `l` for
/// one-class; `None`: LIBSVM's), as [`train_one_function_with`] otherwise.
pub(crate) fn train_function_from(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    svm_type: SvmType,
    start: Option<crate::svm::smo::general::Start>,
    shared: Option<&SharedKernelCache>,
) -> Result<FunctionFit, SvmError> {
    let srows: Vec<u32> = rows.iter().map(|&r| r as u32).collect();
    let solved = match svm_type {
        SvmType::OneClass { nu } => {
            super::one_class::solve_one_class(kd, &srows, params, nu, shared, start)?
        }
        SvmType::EpsilonSvr { p } => {
            super::svr::solve_svr(kd, &srows, params, p, None, shared, start)?
        }
        SvmType::NuSvr { nu } => {
            super::svr::solve_svr(kd, &srows, params, nu, Some(nu), shared, start)?
        }
        SvmType::CSvc | SvmType::NuSvc { .. } => {
            return Err(SvmError::InvalidParam(format!(
                "{} has classes: no single function to start",
                svm_type.name()
            )))
        }
    };
    Ok(function_fit(kd, rows, svm_type, solved))
}

/// `svm_train`'s model of one decision function from a solve on `rows`.
fn function_fit(
    kd: &KernelData<'_>,
    rows: &[usize],
    svm_type: SvmType,
    solved: super::Solved,
) -> FunctionFit {
    let ds: &Dataset = &kd.ds;
    let stats = solved.counted_stats();
    let (sv_rows, sv_coef): (Vec<usize>, Vec<f64>) = rows
        .iter()
        .zip(&solved.alpha)
        .filter(|(_, a)| a.abs() > 0.0)
        .map(|(&r, &a)| (r, a))
        .unzip();
    let model = FunctionModel {
        svm_type,
        kernel: kd.kind,
        sv: ds.subset(&sv_rows, format!("{}-sv", ds.name)),
        sv_rows,
        sv_coef,
        rho: stats.rho,
        prob_a: None,
    };
    FunctionFit {
        model,
        coef: solved.alpha,
        stats,
        info: solved.info,
        end: solved.end,
    }
}
