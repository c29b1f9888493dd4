//! k-fold cross-validation of LIBSVM's other formulations (nu-SVC,
//! one-class, epsilon-SVR, nu-SVR), as `svm_cross_validation` in svm.cpp
//! 3.24 runs it for `svm-train -s 1..4 -v K`: on its folds
//! ([`Folds::libsvm_of`]: stratified for nu-SVC, one shuffle otherwise),
//! each round trained on the other folds' rows in LIBSVM's order
//! ([`Folds::train_rows`]) by the formulation's own training
//! (`train_nu_svc_checked` without the per-round nu check, as
//! `svm_train`; [`train_one_function_with`]), its held-out rows
//! predicted as `svm_predict` predicts them (the label for nu-SVC and
//! one-class, the value for the SVRs).
//!
//! Reuse: the rounds are parallel jobs of one rayon pool of the threads
//! asked for (nu-SVC's class pairs within a round too), and with
//! [`CacheMode::Shared`] every solve reads one kernel cache over the whole
//! dataset, keyed by its row index (filled at once where it holds every
//! column). Each solve is single-threaded and a cached value is the value
//! the solve would compute, so the results are the same on any thread
//! count and with either cache.

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::{in_fold_order as is_in_fold_order, FoldOrder, Folds};
use crate::svm::cv::strategy::{CacheMode, CvStrategy, RoundOrder, SeederKind};
use crate::svm::formulation::function_model::solve_lines;
use crate::svm::formulation::nu_svc::{check_nu_feasible, train_nu_svc_checked};
use crate::svm::formulation::train_one_function_with;
use crate::svm::kernel::{matrix, KernelData};
use crate::svm::model::params::{CheckedParams, SvmParams, SvmType};
use crate::svm::model::solution::check_finite_features;
use crate::svm::multiclass::cached_votes::predict_cached;
use crate::svm::multiclass::Groups;
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::smo::train_log::progress_text;
use crate::svm::SvmError;

/// How a formulation's CV runs (its results depend on neither).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulationCvOptions {
    /// Per-solve caches (LIBSVM's) or one shared kernel cache.
    pub cache: CacheMode,
    /// Threads of the run (>= 1).
    pub threads: usize,
}

/// One round: the training on the other folds, as `svm_train` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulationRound {
    /// The held-out fold.
    pub fold: usize,
    /// Training rows.
    pub n_train: usize,
    /// Held-out rows.
    pub n_test: usize,
    /// Each solve's statistics with `svm_train_one`'s counts (one per
    /// class pair for nu-SVC, in LIBSVM's pair order; else one).
    pub solves: Vec<SolveStats>,
    /// What each solve's `solve_*` function prints: `C = 1/r` per pair for
    /// nu-SVC, `nu` for epsilon-SVR, `epsilon` for nu-SVR, none for
    /// one-class.
    pub infos: Vec<Option<(&'static str, f64)>>,
    /// nu-SVC: the classes of the training rows and the model's `Total
    /// nSV` (`None` for one decision function, which prints neither).
    pub classes: Option<(usize, usize)>,
    /// Every line the round's training printed, where it printed more than
    /// its solves (`-b 1`: the probability model's internal CVs, see
    /// [`super::probability_formulations`]); `None`: [`Self::lines`] builds
    /// them from the solves.
    pub printed: Option<Vec<String>>,
}

impl FormulationRound {
    /// What `svm_train` prints for this round's training: for nu-SVC the
    /// one-class warning where the training rows hold one class; each
    /// solve's progress marks, "optimization finished", its `C = ` / `nu =
    /// ` / `epsilon = ` line, `obj` and `rho`, `nSV`; for nu-SVC `Total nSV`.
    pub fn lines(&self) -> Vec<String> {
        if let Some(p) = &self.printed {
            return p.clone();
        }
        let mut out = Vec::new();
        if let Some((1, _)) = self.classes {
            out.push("WARNING: training data in only one class. See README for details.".into());
        }
        for (stats, &info) in self.solves.iter().zip(&self.infos) {
            if !stats.progress.is_empty() {
                out.push(progress_text(stats));
            }
            out.extend(solve_lines(stats, info));
        }
        if let Some((_, total_sv)) = self.classes {
            out.push(format!("Total nSV = {total_sv}"));
        }
        out
    }
}

/// What [`cross_validate_formulation`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulationCvResult {
    /// The formulation cross-validated.
    pub svm_type: SvmType,
    /// Every row's held-out prediction (`svm_cross_validation`'s
    /// `target`): a label for nu-SVC and one-class, a value for the SVRs.
    pub predictions: Vec<f64>,
    /// Each round, in fold order.
    pub rounds: Vec<FormulationRound>,
    /// Kernel evaluations of the solves plus those of the shared cache.
    pub kernel_evals: u64,
    /// Of [`FormulationCvResult::kernel_evals`], those of the shared cache.
    pub shared_evals: u64,
    /// Wall-clock seconds of the whole run.
    pub wall_s: f64,
}

impl FormulationCvResult {
    /// SMO iterations of every solve of every round.
    pub fn total_iterations(&self) -> u64 {
        self.rounds
            .iter()
            .flat_map(|r| &r.solves)
            .map(|s| s.iterations)
            .sum()
    }
}

/// A formulation's cross-validation: its folds, its rounds and
/// predictions, and `svm-train`'s summary.
#[derive(Clone, Debug)]
pub struct FormulationCv {
    /// The folds it ran on.
    pub folds: Folds,
    /// Each round and every row's held-out prediction.
    pub result: FormulationCvResult,
    /// `do_cross_validation`'s numbers.
    pub summary: CvSummary,
}

impl FormulationCv {
    /// `svm-train`'s standard output: each round's lines in fold order,
    /// then the summary's.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .result
            .rounds
            .iter()
            .flat_map(FormulationRound::lines)
            .collect();
        out.extend(self.summary.lines());
        out
    }
}

/// A run's result with its folds and `svm-train`'s summary of it.
pub(crate) fn summarised(
    ds: &Dataset,
    folds: &Folds,
    svm_type: SvmType,
    result: FormulationCvResult,
) -> FormulationCv {
    let summary = CvSummary::of(svm_type, &result.predictions, &ds.y);
    FormulationCv {
        folds: folds.clone(),
        result,
        summary,
    }
}

/// Cross-validate `svm_type` (not C-SVC) on `folds` of `ds` with `params`
/// (`nu`, `p` used as given; `params.cache_mb` the run's whole kernel-cache
/// budget: with a shared cache, 3/4 of it is the shared cache's and the
/// rest is divided among the running solves). nu-SVC's nu is checked for
/// feasibility once, on the whole data's classes, as svm-train's
/// `svm_check_parameter` checks it; a round whose training classes make it
/// infeasible still trains, as `svm_train` does in svm-train's CV.
pub fn cross_validate_formulation(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    svm_type: SvmType,
    opts: FormulationCvOptions,
) -> Result<FormulationCv, SvmError> {
    if svm_type == SvmType::CSvc {
        return Err(SvmError::InvalidParam(
            "C-SVC (-s 0) is cross-validated by cross_validate_ovo or run_cv".into(),
        ));
    }
    let checked = checked_inputs(ds, folds, params, svm_type, opts)?;
    if let SvmType::NuSvc { nu } = svm_type {
        let all: Vec<usize> = (0..ds.n()).collect();
        check_nu_feasible(&Groups::new(ds, &all)?, nu)?;
    }
    let result = crate::svm::cv::pool::with_threads(opts.threads, || {
        in_fold_order(ds, folds, |ds, folds| {
            run(ds, folds, &checked, svm_type, opts)
        })
    })?;
    Ok(summarised(ds, folds, svm_type, result))
}

/// `cv` run on `ds`'s rows in fold order ([`FoldOrder`]: fold 0's rows
/// first, each fold one range), its predictions put back in `ds`'s row
/// order. Every round trains on the same rows in the same order as on
/// `ds` (LIBSVM's `perm[0..begin]`, then `perm[end..l]`) with the same
/// feature values, so the same arithmetic; but its rows are two runs of
/// consecutive dataset rows, so the shared cache's columns are read in
/// place (the batched solver's rows) instead of gathered.
pub(crate) fn in_fold_order(
    ds: &Dataset,
    folds: &Folds,
    cv: impl FnOnce(&Dataset, &Folds) -> Result<FormulationCvResult, SvmError>,
) -> Result<FormulationCvResult, SvmError> {
    if is_in_fold_order(folds) {
        return cv(ds, folds);
    }
    let fo = FoldOrder::new(ds, folds);
    let mut result = cv(&fo.ds, &fo.folds)?;
    let mut by_row = vec![f64::NAN; ds.n()];
    for (&r, &p) in fo.perm.iter().zip(&result.predictions) {
        by_row[r] = p;
    }
    result.predictions = by_row;
    Ok(result)
}

fn run(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    svm_type: SvmType,
    opts: FormulationCvOptions,
) -> Result<FormulationCvResult, SvmError> {
    let t0 = Instant::now();
    let kd = KernelData::new(ds, params.kernel);
    let (local, shared) = round_caches(&kd, params, opts, RoundOrder::PerRound)?;
    let rounds = (0..folds.k())
        .into_par_iter()
        .map(|h| round(&kd, folds, h, &local, svm_type, shared.as_ref()))
        .collect::<Result<Vec<_>, SvmError>>()?;
    Ok(gathered(ds, folds, svm_type, rounds, shared.as_ref(), t0))
}

/// The checks of every formulation CV's inputs, before any work: the
/// formulation's parameter, `params`, the folds against `ds`, finite
/// features and at least one thread.
pub(crate) fn checked_inputs(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    svm_type: SvmType,
    opts: FormulationCvOptions,
) -> Result<CheckedParams, SvmError> {
    svm_type.validate()?;
    let checked = params.check()?;
    folds.check_for(ds)?;
    check_finite_features(ds)?;
    if opts.threads == 0 {
        return Err(SvmError::InvalidParam("threads must be >= 1".into()));
    }
    Ok(checked)
}

/// The rounds' caches for rounds run in `order`: each solve's parameters
/// with its share of `params.cache_mb`, and the shared whole-data kernel
/// cache (when `opts.cache` asks for one; the whole matrix where it fits,
/// [`CvStrategy::cache_split_whole_first`]).
pub(crate) fn round_caches(
    kd: &KernelData<'_>,
    params: &CheckedParams,
    opts: FormulationCvOptions,
    order: RoundOrder,
) -> Result<(CheckedParams, Option<SharedKernelCache>), SvmError> {
    let strategy = CvStrategy {
        order,
        seeder: SeederKind::Zero,
        cache: opts.cache,
        threads: opts.threads,
    };
    let (shared_mb, local_mb) = strategy.cache_split_whole_first(kd.ds.n(), params.cache_mb);
    let local = params.with_cache_mb(local_mb)?;
    let shared = shared_mb.map(|mb| matrix::shared_cache(kd, mb, params.solver.matrix_values()));
    Ok((local, shared))
}

/// A run's outcome from its rounds (any order): every row's held-out
/// prediction, the rounds, the kernel values computed and the wall time
/// since `t0`.
pub(crate) fn gathered(
    ds: &Dataset,
    folds: &Folds,
    svm_type: SvmType,
    rounds: impl IntoIterator<Item = (FormulationRound, Vec<f64>)>,
    shared: Option<&SharedKernelCache>,
    t0: Instant,
) -> FormulationCvResult {
    let mut predictions = vec![f64::NAN; ds.n()];
    let mut out = Vec::new();
    for (r, preds) in rounds {
        for (&row, p) in folds.test_rows(r.fold).iter().zip(preds) {
            predictions[row] = p;
        }
        out.push(r);
    }
    let shared_evals = shared.map_or(0, SharedKernelCache::kernel_evals);
    let solve_evals: u64 = out
        .iter()
        .flat_map(|r| &r.solves)
        .map(|s| s.kernel_evals)
        .sum();
    FormulationCvResult {
        svm_type,
        predictions,
        rounds: out,
        kernel_evals: solve_evals + shared_evals,
        shared_evals,
        wall_s: t0.elapsed().as_secs_f64(),
    }
}

/// Round `h`: train on the other folds, predict fold `h` (its rows' order).
pub(crate) fn round(
    kd: &KernelData<'_>,
    folds: &Folds,
    h: usize,
    params: &CheckedParams,
    svm_type: SvmType,
    shared: Option<&SharedKernelCache>,
) -> Result<(FormulationRound, Vec<f64>), SvmError> {
    let train = folds.train_rows(h);
    let test = folds.test_rows(h);
    let (solves, infos, classes, preds) = match svm_type {
        SvmType::NuSvc { nu } => {
            let fit = train_nu_svc_checked(kd, &train, params, nu, shared, false)?;
            let model = &fit.ovo.model;
            let preds = shared
                .and_then(|sh| predict_cached(model, kd, sh, test))
                .map_or_else(|| model.predict_rows(&kd.ds, test), |(labels, _)| labels);
            (
                fit.ovo.pairs.iter().map(|p| p.stats.clone()).collect(),
                fit.c.iter().map(|&c| Some(("C", c))).collect(),
                Some((model.nr_class(), model.total_sv())),
                preds,
            )
        }
        _ => {
            let fit = train_one_function_with(kd, &train, params, svm_type, shared)?;
            let preds = fit.model.predict_rows(&kd.ds, test);
            (vec![fit.stats], vec![fit.info], None, preds)
        }
    };
    Ok((
        FormulationRound {
            fold: h,
            n_train: train.len(),
            n_test: test.len(),
            solves,
            infos,
            classes,
            printed: None,
        },
        preds,
    ))
}

/// What `svm-train -v K` prints after the rounds, computed as
/// `do_cross_validation` computes it from the held-out predictions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CvSummary {
    /// nu-SVC and one-class: rows whose prediction equals their label.
    Accuracy {
        /// Rows predicted right.
        correct: usize,
        /// All rows.
        total: usize,
    },
    /// epsilon-SVR and nu-SVR.
    Regression {
        /// `total_error / l`.
        mse: f64,
        /// The squared correlation coefficient of predictions and targets.
        squared_correlation: f64,
    },
}

impl CvSummary {
    /// `do_cross_validation`'s numbers for `predictions` of `y` under
    /// `svm_type` (its sums in row order, as svm-train.c adds them).
    pub fn of(svm_type: SvmType, predictions: &[f64], y: &[f64]) -> CvSummary {
        let l = predictions.len();
        if !svm_type.is_regression() {
            let correct = predictions.iter().zip(y).filter(|(p, t)| p == t).count();
            return CvSummary::Accuracy { correct, total: l };
        }
        let (mut err, mut sv, mut sy, mut svv, mut syy, mut svy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for (&v, &t) in predictions.iter().zip(y) {
            err += (v - t) * (v - t);
            sv += v;
            sy += t;
            svv += v * v;
            syy += t * t;
            svy += v * t;
        }
        let n = l as f64;
        CvSummary::Regression {
            mse: err / n,
            squared_correlation: ((n * svy - sv * sy) * (n * svy - sv * sy))
                / ((n * svv - sv * sv) * (n * syy - sy * sy)),
        }
    }

    /// The accuracy in percent (`100.0 * correct / l`), where it is one.
    pub fn accuracy_pct(&self) -> Option<f64> {
        match *self {
            CvSummary::Accuracy { correct, total } => Some(100.0 * correct as f64 / total as f64),
            CvSummary::Regression { .. } => None,
        }
    }

    /// The lines `svm-train` prints (`printf("%g")` numbers; glibc's
    /// `-nan` for a NaN with its sign bit set, as `0.0 / 0.0` gives on x86).
    pub fn lines(&self) -> Vec<String> {
        let printf_g = |x: f64| {
            if x.is_nan() && x.is_sign_negative() {
                "-nan".to_string()
            } else {
                crate::data::transform::scale::printf_g(x)
            }
        };
        match *self {
            CvSummary::Accuracy { .. } => vec![format!(
                "Cross Validation Accuracy = {}%",
                printf_g(self.accuracy_pct().unwrap_or(0.0))
            )],
            CvSummary::Regression {
                mse,
                squared_correlation,
            } => vec![
                format!("Cross Validation Mean squared error = {}", printf_g(mse)),
                format!(
                    "Cross Validation Squared correlation coefficient = {}",
                    printf_g(squared_correlation)
                ),
            ],
        }
    }
}
