//! The baseline SVM k-fold cross-validation: every round trains from
//! `alpha = 0` on the other folds (the "LibSVM" baseline of Wen et al. 2017)
//! and predicts its held-out fold.
//!
//! Beyond the paper: rounds can run in parallel on rayon (each solve stays
//! single-threaded, so per-round counters are those of a sequential run), and
//! one [`SharedKernelCache`] keyed by the original row index can serve every
//! round, so a kernel column computed for one fold is reused by the others.
//! Neither changes any result: cached values are bit-identical to computed ones.

use std::time::Instant;

use rayon::prelude::*;

use super::cache::SharedKernelCache;
use super::folds::Folds;
use super::kernel::KernelData;
use super::smo::SolveStats;
use super::solution::{check_finite_features, train_with, TrainOutput};
use super::{SvmError, SvmParams};
use crate::data::Dataset;

/// How to run the rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CvOptions {
    /// Run the rounds in parallel on the rayon pool.
    pub parallel: bool,
    /// Size in MB of a kernel cache shared by all rounds (`None`: none; each
    /// solve still has its own local cache of `params.cache_mb`).
    pub shared_cache_mb: Option<f64>,
}

/// One round of cross-validation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CvRound {
    /// The held-out fold.
    pub fold: usize,
    /// Training rows.
    pub n_train: usize,
    /// Held-out rows.
    pub n_test: usize,
    /// Correctly predicted held-out rows.
    pub correct: usize,
    /// Solver counters, objective, timings (with prediction time).
    pub stats: SolveStats,
    /// The training rows held one class only.
    pub single_class: bool,
    /// `sum(alpha) / (C l)`, LIBSVM's printed `nu`.
    pub nu: f64,
    /// Seconds the alpha seeder took before the solve (0 for the baseline).
    #[serde(default)]
    pub seed_s: f64,
}

/// The outcome of a cross-validation run.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CvResult {
    /// `100 * correct / n`, as `svm-train -v` prints it.
    pub accuracy_pct: f64,
    /// Correct predictions over all rounds.
    pub correct: usize,
    /// Number of rows.
    pub n: usize,
    /// The prediction for every row (made by the round that held it out).
    pub predictions: Vec<f64>,
    /// Per-round details, in fold order.
    pub rounds: Vec<CvRound>,
    /// SMO iterations summed over rounds.
    pub total_iterations: u64,
    /// Kernel evaluations summed over rounds plus the shared cache's.
    pub total_kernel_evals: u64,
    /// Hits of the shared cache (0 without one).
    pub shared_hits: u64,
    /// Misses of the shared cache (0 without one).
    pub shared_misses: u64,
    /// Wall-clock seconds of the whole run.
    pub wall_s: f64,
}

/// A round and its `(row, prediction)` pairs.
pub(crate) type RoundResult = Result<(CvRound, Vec<(usize, f64)>), SvmError>;

/// Run k-fold CV of a C-SVC with the given folds (see the module doc).
pub fn cross_validate(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    opts: &CvOptions,
) -> Result<CvResult, SvmError> {
    let t0 = Instant::now();
    check_inputs(ds, folds, params)?;
    let kd = KernelData::new(ds, params.kernel);
    let shared = opts
        .shared_cache_mb
        .map(|mb| SharedKernelCache::new(ds.n(), mb));

    let one_round = |h: usize| -> RoundResult {
        let train_rows = folds.train_rows(h);
        let out = train_with(&kd, &train_rows, params, None, shared.as_ref())?;
        Ok(evaluate_round(&kd, folds, h, train_rows.len(), out, 0.0))
    };
    let results: Vec<RoundResult> = if opts.parallel {
        (0..folds.k()).into_par_iter().map(one_round).collect()
    } else {
        (0..folds.k()).map(one_round).collect()
    };
    assemble(ds.n(), folds.k(), results, shared.as_ref(), t0)
}

/// Predict round `h`'s held-out fold with the round's solution.
pub(crate) fn evaluate_round(
    kd: &KernelData<'_>,
    folds: &Folds,
    h: usize,
    n_train: usize,
    out: TrainOutput,
    seed_s: f64,
) -> (CvRound, Vec<(usize, f64)>) {
    let tp = Instant::now();
    let mut preds = Vec::with_capacity(folds.test_rows(h).len());
    let mut correct = 0;
    for &r in folds.test_rows(h) {
        let p = out.model.predict(kd.ds.row(r));
        if p == kd.ds.y[r] {
            correct += 1;
        }
        preds.push((r, p));
    }
    let mut stats = out.stats;
    stats.timings.predict_s = tp.elapsed().as_secs_f64();
    (
        CvRound {
            fold: h,
            n_train,
            n_test: folds.test_rows(h).len(),
            correct,
            stats,
            single_class: out.single_class,
            nu: out.nu,
            seed_s,
        },
        preds,
    )
}

/// Put the rounds (in any order) into a [`CvResult`] in fold order.
pub(crate) fn assemble(
    n: usize,
    k: usize,
    results: Vec<RoundResult>,
    shared: Option<&SharedKernelCache>,
    t0: Instant,
) -> Result<CvResult, SvmError> {
    let mut predictions = vec![f64::NAN; n];
    let mut rounds = Vec::with_capacity(k);
    for r in results {
        let (round, preds) = r?;
        for (row, p) in preds {
            predictions[row] = p;
        }
        rounds.push(round);
    }
    rounds.sort_by_key(|r| r.fold);
    let correct: usize = rounds.iter().map(|r| r.correct).sum();
    let (shared_hits, shared_misses, shared_evals) = shared.map_or((0, 0, 0), |s| {
        use std::sync::atomic::Ordering::Relaxed;
        (
            s.hits.load(Relaxed),
            s.misses.load(Relaxed),
            s.kernel_evals.load(Relaxed),
        )
    });
    Ok(CvResult {
        accuracy_pct: 100.0 * correct as f64 / n as f64,
        correct,
        n,
        predictions,
        total_iterations: rounds.iter().map(|r| r.stats.iterations).sum(),
        total_kernel_evals: rounds.iter().map(|r| r.stats.kernel_evals).sum::<u64>() + shared_evals,
        rounds,
        shared_hits,
        shared_misses,
        wall_s: t0.elapsed().as_secs_f64(),
    })
}

/// The checks every k-fold CV makes before solving: valid parameters, folds
/// over exactly the dataset's rows, finite features.
pub(crate) fn check_inputs(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
) -> Result<(), SvmError> {
    params.validate()?;
    if folds.n != ds.n() {
        return Err(SvmError::InvalidFolds(format!(
            "folds are for {} rows, the dataset has {}",
            folds.n,
            ds.n()
        )));
    }
    folds.validate()?;
    check_finite_features(ds)
}
