//! The engine's public face: the only way in for the harness (`cvbench`),
//! the Python package in `python/` and any Rust program. Everything here
//! calls the engine's rooms; nothing is computed a second way.
//!
//! The verbs, at the top:
//!
//! - [`SvcSpec`]: the parameters of a fit (kernel, C, tolerance, cache,
//!   shrinking, iteration cap, class weights, threads, class order).
//! - [`fit`] → [`Fit`] (a [`MultiModel`] and each pair's iterations);
//!   [`decision_values`], [`predict`] and (a model trained with
//!   [`SvcSpec::probability`]) [`probabilities`] for the rows of a dataset.
//! - [`solver_path`]: the one place that decides between the binary solver
//!   and one-vs-one ([`SolverPath`]); every front door asks it.
//! - [`cross_validate`] → [`CvReport`] (per-fold correct rows, iterations,
//!   seconds), its rounds run as [`CvMethod`] says (`cvbench svm -v`'s
//!   round order, seeder and cache; [`CvMethod::parse_for`] also takes
//!   `auto`, the preset the engine picks for the data).
//!   [`Folds::check_for`] is the one check of a CV's folds against its
//!   data.
//! - [`grid`]: every `(C, gamma)` of a list, each a k-fold CV with the
//!   grid engine's reuse (binary) or one shared cache per gamma (more
//!   classes).
//!
//! The rooms of the face, one submodule each (what the harness still
//! orchestrates itself; `tests/engine_face_size.rs` caps the face's size):
//!
//! - [`data`]: [`data::Dataset`], its readers and writer, the registry.
//! - [`files`]: whole-file reads (any compression), SHA-256, read limits.
//! - [`formulation`]: `svm-train -s 1..4` (nu-SVC, one-class,
//!   epsilon-SVR, nu-SVR): one fit (with `-b 1`'s probability model or
//!   not), its printed lines, model file and prediction.
//! - [`params`]: a solve's parameters, default gamma, class weights,
//!   cache size, thread pools.
//! - [`strategies`]: the registries of solver kinds, seeding methods,
//!   round orders, seeders and cache modes, and kernel names.
//! - [`training`]: binary and one-vs-one training on chosen rows, a
//!   solve's statistics and printed lines, predicting rows, model text
//!   and model files read.
//! - [`cv`]: folds, the binary CV (baseline, seeded, batched), the
//!   one-vs-one CV (plain, seeded).
//! - [`formulation_grid`]: the grid of `-s 1..4` (C, gamma and nu or
//!   epsilon), one kernel cache per gamma, and its choice.
//! - [`grid_search`]: ranges and points, the grid engine and the
//!   one-vs-one grid, the best point, distance tables.
//! - [`incremental`]: TreeCV and standard k-fold CV of the incremental
//!   learners (PEGASOS, LSQSGD, ridge) with their work counters, by name.
//! - [`learners`]: the incremental learners and their CV strategies
//!   (TreeCV, standard, hold-out, progressive validation).
//! - [`errors`]: every error type the engine returns.
//! - [`cancel`]: the cooperative cancellation of a call.
//! - [`seed`]: seeds derived by name and the generator.

mod auto_seeding;
pub mod cancel;
pub mod cv;
mod cv_method;
pub mod data;
pub mod errors;
pub mod files;
pub mod formulation;
pub mod formulation_cv;
pub mod formulation_grid;
pub mod grid_search;
pub mod incremental;
pub mod learners;
pub mod params;
pub mod seed;
mod sorted_grid;
pub mod strategies;
pub mod training;

pub use cv_method::CvMethod;

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cv::pool::with_threads;
use crate::svm::cv::seeded::run_cv;
use crate::svm::grid::{run_grid, GridOptions, PointResult, Reuse};
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::model::solution::check_finite_features;
use crate::svm::multiclass::grid::run_grid_ovo;
use crate::svm::multiclass::{
    check_weights, cross_validate_ovo, is_multiclass, train_ovo, ClassWeight, MultiModel,
    OvoCvOptions, PairFit,
};
use crate::svm::smo::sample_weight::SampleWeights;
use crate::svm::{CvStrategy, Folds, GlibcRand, SvmError, SvmParams};

/// The order in which a fit sees the classes (and so the pair order, the
/// support vectors' order and the sign of each pair's decision value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassOrder {
    /// `svm-train`'s: by first appearance (a `-1`, `+1` pair swapped).
    Libsvm,
    /// Ascending label (scikit-learn's `SVC`): the rows are grouped by
    /// class in ascending order, each class's rows in their given order.
    Sorted,
}

/// The two solver paths of a fit, CV or grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverPath {
    /// Two classes, one binary solve per fit or round (seeding, the grid
    /// engine's reuse and the batched solver apply).
    Binary,
    /// LIBSVM's one-vs-one: a solve per class pair.
    OneVsOne,
}

/// The one place that decides between the binary solver and one-vs-one:
/// more than two classes, class weights (`-wi`) or a probability model
/// (`-b 1`) take LIBSVM's one-vs-one path; two classes without them the
/// binary path. Every front door (this module, `cvbench svm`, `cvbench
/// grid`, the experiments) asks it.
pub fn solver_path(ds: &Dataset, class_weights: bool, probability: bool) -> SolverPath {
    if is_multiclass(ds) || class_weights || probability {
        SolverPath::OneVsOne
    } else {
        SolverPath::Binary
    }
}

/// Everything a fit, CV or grid point needs besides the data.
#[derive(Clone, Debug, PartialEq)]
pub struct SvcSpec {
    /// Kernel, C, tolerance, cache size, shrinking, iteration cap.
    pub params: SvmParams,
    /// Per-class factors on C (`svm-train -wLABEL W`; integer labels).
    pub weights: Vec<ClassWeight>,
    /// Threads of the call (>= 1).
    pub threads: usize,
    /// Class order of a fit.
    pub order: ClassOrder,
    /// `Some(seed)`: a fit also trains LIBSVM's probability model
    /// (`svm-train -b 1`), each pair's internal 5-fold CV shuffled by
    /// glibc's `rand()` after `srand(seed)`; `Some(1)` is `svm-train`'s
    /// (it never calls `srand`). Ignored by CV and grid.
    pub probability: Option<u32>,
}

impl SvcSpec {
    /// `params` with no class weight, one thread, LIBSVM's class order.
    pub fn new(params: SvmParams) -> SvcSpec {
        SvcSpec {
            params,
            weights: Vec::new(),
            threads: 1,
            order: ClassOrder::Libsvm,
            probability: None,
        }
    }

    /// Run `f` on a pool of [`SvcSpec::threads`] threads.
    fn in_pool<T: Send>(
        &self,
        f: impl FnOnce() -> Result<T, SvmError> + Send,
    ) -> Result<T, SvmError> {
        in_pool(self.threads, f)
    }
}

/// Run `f` on a new pool of `threads` threads (>= 1).
fn in_pool<T: Send>(
    threads: usize,
    f: impl FnOnce() -> Result<T, SvmError> + Send,
) -> Result<T, SvmError> {
    if threads == 0 {
        return Err(SvmError::InvalidParam("threads must be >= 1".into()));
    }
    with_threads(threads, f)
}

/// `per_row(r)` for every row `r` of `ds` (its features checked finite),
/// in parallel on `threads` threads, concatenated in row order.
fn per_row(
    ds: &Dataset,
    threads: usize,
    per_row: impl Fn(usize) -> Vec<f64> + Sync + Send,
) -> Result<Vec<f64>, SvmError> {
    check_finite_features(ds)?;
    in_pool(threads, || {
        let rows: Vec<Vec<f64>> = (0..ds.n()).into_par_iter().map(per_row).collect();
        Ok(rows.concat())
    })
}

/// A trained model and the work it took.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The model (support vectors as rows of the training dataset:
    /// [`MultiModel::sv_rows`]).
    pub model: MultiModel,
    /// SMO iterations of each class pair, in pair order.
    pub iterations: Vec<u64>,
    /// Each class pair's solution (its solve's objective, rho, support
    /// vectors, `nu`; the probability model's inner fits), in pair order:
    /// what `svm-train` prints of a training.
    pub pairs: Vec<PairFit>,
    /// `svm-train`'s warnings for weights naming absent classes.
    pub warnings: Vec<String>,
}

/// Train a C-SVC on every row of `ds` (two or more classes: one-vs-one).
pub fn fit(ds: &Dataset, spec: &SvcSpec) -> Result<Fit, SvmError> {
    fit_weighted(ds, spec, None)
}

/// [`fit`] with a weight of C per row of `ds` where `sample_weight` is
/// given (scikit-learn's `SVC.fit(X, y, sample_weight)`: row `i`'s C is
/// its class's C times its weight; rows whose weight is not positive are
/// left out; a weight that is not finite is an error).
pub fn fit_weighted(
    ds: &Dataset,
    spec: &SvcSpec,
    sample_weight: Option<&[f64]>,
) -> Result<Fit, SvmError> {
    let params = spec.params.check()?;
    check_weights(&spec.weights)?;
    crate::svm::model::solution::check_training_features(ds, params.kernel)?;
    if let Some(v) = ds.y.iter().find(|v| !v.is_finite()) {
        return Err(SvmError::NonFinite(format!("a label is {v}")));
    }
    let mut rows: Vec<usize> = (0..ds.n()).collect();
    let mut kd = KernelData::new(ds, params.kernel);
    if let Some(w) = sample_weight {
        let w = SampleWeights::new(w, ds.n())?;
        rows = w.trained_rows(&rows)?;
        kd = kd.with_sample_weights(w);
    }
    if spec.order == ClassOrder::Sorted {
        rows.sort_by(|&a, &b| ds.y[a].total_cmp(&ds.y[b]));
    }
    let mut rng = spec.probability.map(GlibcRand::new);
    let mut out =
        spec.in_pool(|| train_ovo(&kd, &rows, &params, &spec.weights, None, rng.as_mut()))?;
    kd.restore_features(&mut out.model.sv);
    Ok(Fit {
        iterations: out.pairs.iter().map(|p| p.stats.iterations).collect(),
        model: out.model,
        pairs: out.pairs,
        warnings: out.warnings,
    })
}

/// Each pair's decision value (LIBSVM's `dec_values`, positive votes for
/// the pair's first class) for every row of `ds`: `n` rows of
/// `nr_class (nr_class - 1) / 2` values, row after row.
pub fn decision_values(
    model: &MultiModel,
    ds: &Dataset,
    threads: usize,
) -> Result<Vec<f64>, SvmError> {
    check_finite_features(ds)?;
    in_pool(threads, || {
        let rows: Vec<usize> = (0..ds.n()).collect();
        Ok(model.decision_values_rows(ds, &rows).concat())
    })
}

/// The predicted label of every row of `ds` (LIBSVM's one-vs-one vote).
pub fn predict(model: &MultiModel, ds: &Dataset, threads: usize) -> Result<Vec<f64>, SvmError> {
    let pairs = model.nr_class() * model.nr_class().saturating_sub(1) / 2;
    if pairs == 0 {
        return Ok(vec![model.labels[0]; ds.n()]);
    }
    let dec = decision_values(model, ds, threads)?;
    Ok(dec.chunks(pairs).map(|d| model.vote(d)).collect())
}

/// Every row's class probabilities (LIBSVM's `svm_predict_probability`,
/// `svm-predict -b 1`), in the model's class order: `n` rows of
/// `nr_class` values. An error for a model without probability estimates.
pub fn probabilities(
    model: &MultiModel,
    ds: &Dataset,
    threads: usize,
) -> Result<Vec<f64>, SvmError> {
    if model.prob.is_none() {
        return Err(SvmError::InvalidParam(
            "the model has no probability estimates: train it with probability (-b 1)".into(),
        ));
    }
    per_row(ds, threads, |r| {
        model
            .predict_probability(ds.row(r))
            .map_or_else(Vec::new, |(_, p)| p)
    })
}

/// One fold of a [`cross_validate`] run.
#[derive(Clone, Debug, PartialEq)]
pub struct FoldReport {
    /// Held-out rows.
    pub n_test: usize,
    /// Held-out rows predicted right.
    pub correct: usize,
    /// SMO iterations of the fold's pairs.
    pub iterations: u64,
    /// The run's wall-clock seconds divided evenly among the folds (the
    /// folds' solves run as one pool of jobs).
    pub seconds: f64,
}

/// What [`cross_validate`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct CvReport {
    /// Per fold, in fold order.
    pub folds: Vec<FoldReport>,
    /// The predicted label of every row.
    pub predictions: Vec<f64>,
    /// SMO iterations of solves that are no fold's round (the tree order's
    /// inner nodes, the full model of AVG / TOP).
    pub extra_iterations: u64,
}

/// k-fold CV of a C-SVC on `folds` (from [`Folds::libsvm`] for
/// `svm-train -v K`'s folds, or explicit ones), run as `method` says:
/// rounds in parallel or seeded from one another (two classes without
/// class weights), every (fold, pair) solve a parallel job (more classes).
/// The numbers do not depend on the threads or the cache; without seeding
/// they are `svm-train -v`'s.
pub fn cross_validate(
    ds: &Dataset,
    folds: &Folds,
    spec: &SvcSpec,
    method: &CvMethod,
) -> Result<CvReport, SvmError> {
    let t0 = Instant::now();
    let binary = solver_path(ds, !spec.weights.is_empty(), false) == SolverPath::Binary;
    let (predictions, iterations, extra_iterations) = if binary {
        let strategy = CvStrategy {
            order: method.order,
            seeder: method.seeder,
            cache: method.cache,
            threads: spec.threads,
        };
        let res = run_cv(ds, folds, &spec.params, &strategy, 0)?;
        let per_fold: Vec<u64> = res.cv.rounds.iter().map(|r| r.stats.iterations).collect();
        let extra = res.extra.iter().map(|e| e.stats.iterations).sum();
        (res.cv.predictions, per_fold, extra)
    } else {
        if method.seeded() {
            return Err(SvmError::InvalidParam(format!(
                "alpha seeding (order {}, seeder {}) runs on two classes without class weights only (per class pair: not built yet); use seeding none",
                method.order, method.seeder
            )));
        }
        let res = cross_validate_ovo(
            ds,
            folds,
            &spec.params,
            &spec.weights,
            OvoCvOptions {
                cache: method.cache,
                threads: spec.threads,
                probability: None,
            },
        )?;
        let per_fold: Vec<u64> = res
            .folds
            .iter()
            .map(|f| f.pairs.iter().map(|p| p.stats.iterations).sum())
            .collect();
        (res.predictions, per_fold, 0)
    };
    let seconds = t0.elapsed().as_secs_f64() / folds.k() as f64;
    let folds = (0..folds.k())
        .map(|h| {
            let test = folds.test_rows(h);
            FoldReport {
                n_test: test.len(),
                correct: test.iter().filter(|&&r| predictions[r] == ds.y[r]).count(),
                iterations: iterations.get(h).copied().unwrap_or(0),
                seconds,
            }
        })
        .collect();
    Ok(CvReport {
        folds,
        predictions,
        extra_iterations,
    })
}

/// Cross-validate every `(C, gamma)` of `points` on `folds` (the kernel and
/// other settings from `spec.params`; gamma ignored by the linear kernel),
/// results in the order of `points`; no class weights. With
/// [`ClassOrder::Sorted`] and an exact `reuse` ([`Reuse::exact`]), every
/// (point, fold) is a fit in scikit-learn's row order (`GridSearchCV`'s
/// rates on the same folds: `sorted_grid`). Otherwise two classes run the
/// grid engine with `reuse` (LIBSVM's order: `cvbench grid`'s rates), more
/// classes a one-vs-one CV per point, the points of one gamma sharing a
/// kernel cache of `spec.params.cache_mb`.
pub fn grid(
    ds: &Dataset,
    folds: &Folds,
    spec: &SvcSpec,
    points: &[(f64, f64)],
    reuse: &Reuse,
) -> Result<Vec<PointResult>, SvmError> {
    let mut out: Vec<Option<PointResult>> = vec![None; points.len()];
    let mut sink = |i: usize, r: PointResult| -> Result<(), SvmError> {
        out[i] = Some(r);
        Ok(())
    };
    check_weights(&spec.weights)?;
    if !spec.weights.is_empty() {
        return Err(SvmError::InvalidParam(
            "class weights are not supported by the grid".into(),
        ));
    }
    if spec.order == ClassOrder::Sorted && reuse.exact() {
        return spec.in_pool(|| sorted_grid::grid_sorted(ds, folds, &spec.params, points, reuse));
    }
    let binary = solver_path(ds, false, false) == SolverPath::Binary;
    let rbf_or_linear = matches!(
        spec.params.kernel,
        KernelKind::Rbf { .. } | KernelKind::Linear
    );
    spec.in_pool(|| {
        if binary && rbf_or_linear {
            let opts = GridOptions {
                reuse: reuse.clone(),
                memory_mb: spec.params.cache_mb,
                seed: 0,
                distances: None,
            };
            run_grid(ds, folds, &spec.params, points, &opts, &mut sink).map(|_| ())
        } else {
            run_grid_ovo(
                ds,
                folds,
                &spec.params,
                points,
                spec.params.cache_mb,
                &mut sink,
            )
        }
    })?;
    out.into_iter()
        .map(|r| r.ok_or_else(|| SvmError::InvalidParam("a grid point got no result".into())))
        .collect()
}

#[cfg(test)]
mod tests;
