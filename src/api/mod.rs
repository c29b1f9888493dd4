//! A small public API over the solver for callers outside the harness (the
//! Python package in `python/`, Rust programs): train a C-SVC of any number
//! of classes on a [`Dataset`], its decision values and predictions, k-fold
//! CV on LIBSVM's or explicit folds, and a (C, gamma) grid. Everything here
//! calls [`crate::svm`]; nothing is computed a second way.
//!
//! - [`SvcSpec`]: the parameters of a fit (kernel, C, tolerance, cache,
//!   shrinking, iteration cap, class weights, threads, class order).
//! - [`fit`] → [`Fit`] (a [`MultiModel`] and each pair's iterations);
//!   [`decision_values`] and [`predict`] for the rows of a dataset.
//! - [`cross_validate`] → [`CvReport`] (per-fold correct rows, iterations,
//!   seconds).
//! - [`grid`]: every `(C, gamma)` of a list, each a k-fold CV with the
//!   grid engine's reuse (binary) or one shared cache per gamma (more
//!   classes).

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::grid::{run_grid, GridOptions, PointResult, Reuse};
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::multiclass::grid::run_grid_ovo;
use crate::svm::multiclass::{
    check_weights, cross_validate_ovo, is_multiclass, train_ovo, ClassWeight, MultiModel,
    OvoCvOptions,
};
use crate::svm::solution::check_finite_features;
use crate::svm::{CacheMode, Folds, SvmError, SvmParams};

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
}

impl SvcSpec {
    /// `params` with no class weight, one thread, LIBSVM's class order.
    pub fn new(params: SvmParams) -> SvcSpec {
        SvcSpec {
            params,
            weights: Vec::new(),
            threads: 1,
            order: ClassOrder::Libsvm,
        }
    }

    fn pool(&self) -> Result<rayon::ThreadPool, SvmError> {
        if self.threads == 0 {
            return Err(SvmError::InvalidParam("threads must be >= 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| {
                SvmError::InvalidParam(format!("cannot start {} threads: {e}", self.threads))
            })
    }
}

/// A trained model and the work it took.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The model (support vectors as rows of the training dataset:
    /// [`MultiModel::sv_rows`]).
    pub model: MultiModel,
    /// SMO iterations of each class pair, in pair order.
    pub iterations: Vec<u64>,
    /// `svm-train`'s warnings for weights naming absent classes.
    pub warnings: Vec<String>,
}

/// Train a C-SVC on every row of `ds` (two or more classes: one-vs-one).
pub fn fit(ds: &Dataset, spec: &SvcSpec) -> Result<Fit, SvmError> {
    let params = spec.params.check()?;
    check_weights(&spec.weights)?;
    check_finite_features(ds)?;
    if let Some(v) = ds.y.iter().find(|v| !v.is_finite()) {
        return Err(SvmError::NonFinite(format!("a label is {v}")));
    }
    let mut rows: Vec<usize> = (0..ds.n()).collect();
    if spec.order == ClassOrder::Sorted {
        rows.sort_by(|&a, &b| ds.y[a].total_cmp(&ds.y[b]));
    }
    let kd = KernelData::new(ds, params.kernel);
    let out = spec
        .pool()?
        .install(|| train_ovo(&kd, &rows, &params, &spec.weights, None, None))?;
    Ok(Fit {
        iterations: out.pairs.iter().map(|p| p.stats.iterations).collect(),
        model: out.model,
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
    let spec = SvcSpec {
        threads,
        ..SvcSpec::new(SvmParams::linear(1.0))
    };
    let rows: Vec<Vec<f64>> = spec.pool()?.install(|| {
        (0..ds.n())
            .into_par_iter()
            .map(|r| model.decision_values(ds.row(r)))
            .collect()
    });
    Ok(rows.concat())
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
}

/// k-fold CV of a C-SVC on `folds` (from [`Folds::libsvm`] for
/// `svm-train -v K`'s folds, or explicit ones), every (fold, pair) solve a
/// parallel job on one shared kernel cache; the numbers do not depend on
/// the threads.
pub fn cross_validate(ds: &Dataset, folds: &Folds, spec: &SvcSpec) -> Result<CvReport, SvmError> {
    let t0 = Instant::now();
    let res = cross_validate_ovo(
        ds,
        folds,
        &spec.params,
        &spec.weights,
        OvoCvOptions {
            cache: CacheMode::Shared,
            threads: spec.threads,
            probability: None,
        },
    )?;
    let seconds = t0.elapsed().as_secs_f64() / folds.k() as f64;
    let folds = res
        .folds
        .iter()
        .enumerate()
        .map(|(h, f)| {
            let test = folds.test_rows(h);
            FoldReport {
                n_test: test.len(),
                correct: test
                    .iter()
                    .filter(|&&r| res.predictions[r] == ds.y[r])
                    .count(),
                iterations: f.pairs.iter().map(|p| p.stats.iterations).sum(),
                seconds,
            }
        })
        .collect();
    Ok(CvReport {
        folds,
        predictions: res.predictions,
    })
}

/// Cross-validate every `(C, gamma)` of `points` on `folds` (the kernel and
/// other settings from `spec.params`; gamma ignored by the linear kernel),
/// results in the order of `points`. Binary data without class weights runs
/// the grid engine with `reuse`; otherwise each point is a one-vs-one CV,
/// the points of one gamma sharing a kernel cache of `spec.params.cache_mb`.
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
    let binary = !is_multiclass(ds) && spec.weights.is_empty();
    let rbf_or_linear = matches!(
        spec.params.kernel,
        KernelKind::Rbf { .. } | KernelKind::Linear
    );
    spec.pool()?.install(|| {
        if binary && rbf_or_linear {
            let opts = GridOptions {
                reuse: reuse.clone(),
                memory_mb: spec.params.cache_mb,
                seed: 0,
                distances: None,
            };
            run_grid(ds, folds, &spec.params, points, &opts, &mut sink).map(|_| ())
        } else {
            check_weights(&spec.weights)?;
            if !spec.weights.is_empty() {
                return Err(SvmError::InvalidParam(
                    "class weights are not supported by the grid".into(),
                ));
            }
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
mod tests {
    use super::*;

    fn blobs() -> Dataset {
        let mut rows = Vec::new();
        let mut y = Vec::new();
        for i in 0..30 {
            let t = i as f64 * 0.37;
            let c = (i % 3) as f64;
            rows.push(vec![c * 2.0 + t.sin(), c - t.cos()]);
            y.push(c);
        }
        Dataset::from_dense_rows("api-synthetic", &rows, y)
    }

    #[test]
    fn fit_predict_cv_and_grid_agree_with_the_solver() {
        let ds = blobs();
        let mut spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
        spec.order = ClassOrder::Sorted;
        let f = fit(&ds, &spec).unwrap();
        assert_eq!(f.model.labels, vec![0.0, 1.0, 2.0]);
        assert_eq!(f.iterations.len(), 3);
        let p = predict(&f.model, &ds, 2).unwrap();
        let right = p.iter().zip(&ds.y).filter(|(a, b)| a == b).count();
        assert!(right >= 27, "{right}");
        let folds = Folds::libsvm(&ds, 5).unwrap();
        let cv = cross_validate(&ds, &folds, &spec).unwrap();
        let g = grid(&ds, &folds, &spec, &[(1.0, 0.5)], &Reuse::all()).unwrap();
        let cv_right: usize = cv.folds.iter().map(|f| f.correct).sum();
        assert_eq!(g[0].correct, cv_right);
    }

    #[test]
    fn bad_threads_and_labels_are_errors() {
        let mut ds = blobs();
        let mut spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
        spec.threads = 0;
        assert!(fit(&ds, &spec).is_err());
        spec.threads = 1;
        ds.y[0] = f64::NAN;
        assert!(fit(&ds, &spec).is_err());
    }
}
