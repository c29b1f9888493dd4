//! k-fold cross-validation of a one-vs-one C-SVC, as `svm-train -v K`
//! (`svm_cross_validation`): each fold's model is [`train_ovo`](super::train::train_ovo)'s on the
//! other folds' rows (in LIBSVM's order, [`Folds::train_rows`]) and
//! predicts the fold's rows by voting.
//!
//! Reuse: every (fold, pair) problem is an independent job of one rayon
//! pool, and with [`CacheMode::Shared`] all of them read one kernel cache
//! keyed by the dataset's row index ([`SharedKernelCache`]): a kernel
//! column computed for one pair serves every other pair holding that row's
//! class, in every fold. Each solve's numbers do not depend on the cache or
//! the thread count (a cached value is the value the solve would compute).

use std::time::Instant;

use rayon::prelude::*;

use super::cached_votes::{predict_cached, predict_computed};
use super::class_order::ClassOrder;
use super::groups::{check_weights, weighted_c, ClassWeight, Groups};
use super::pair_blocks::solve_by_pair_blocks;
use super::train::{assemble, probability_shuffles, solve_pair, PairFit};
use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::{Folds, GlibcRand};
use crate::svm::cv::seeded::ExtraSolve;
use crate::svm::kernel::matrix;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::model::solution::check_training_features;
use crate::svm::{cv::strategy::CacheMode, error::SvmError, model::params::SvmParams};

/// How a one-vs-one CV runs (its results do not depend on `cache` and
/// `threads`).
#[derive(Clone, Debug)]
pub struct OvoCvOptions {
    /// Per-solve caches (LIBSVM's) or one shared kernel cache.
    pub cache: CacheMode,
    /// Threads of the run (>= 1).
    pub threads: usize,
    /// Probability estimates (`-b 1`): `rand()`'s state after the folds
    /// were drawn ([`Folds::libsvm_with`]); each fold's model then predicts
    /// by its probabilities, as `svm-train -b 1 -v K`.
    pub probability: Option<GlibcRand>,
}

/// One fold's training: its classes and each pair's solve.
#[derive(Clone, Debug)]
pub struct FoldFit {
    /// The training rows' labels, in LIBSVM's order.
    pub labels: Vec<f64>,
    /// Each pair's solution, in LIBSVM's pair order.
    pub pairs: Vec<PairFit>,
    /// The model's number of support vectors (`Total nSV`).
    pub total_sv: usize,
    /// `svm-train`'s weight warnings for this fold's training.
    pub warnings: Vec<String>,
}

/// What [`cross_validate_ovo`] returns.
#[derive(Clone, Debug)]
pub struct OvoCvResult {
    /// Each fold's training, in fold order.
    pub folds: Vec<FoldFit>,
    /// The predicted label of every row of the dataset.
    pub predictions: Vec<f64>,
    /// Rows predicted right.
    pub correct: usize,
    /// `100 correct / n`, `svm-train`'s `Cross Validation Accuracy`.
    pub accuracy_pct: f64,
    /// Kernel evaluations of the solves (their own column fills and
    /// diagonals) plus those of the shared cache's columns.
    pub kernel_evals: u64,
    /// Of [`OvoCvResult::kernel_evals`], those of the shared cache.
    pub shared_evals: u64,
    /// Column fills the shared cache served.
    pub shared_hits: u64,
    /// Solves beyond the (fold, pair) rounds of a seeded run (a tree
    /// order's inner nodes, per pair; empty otherwise), their iterations and
    /// kernel evaluations included in the totals.
    pub extra: Vec<ExtraSolve>,
    /// Seconds the seeders took (0 without seeding).
    pub seed_s: f64,
    /// Wall-clock seconds of the whole run.
    pub wall_s: f64,
}

impl OvoCvResult {
    /// The result of a CV of `n` rows from its voted folds ([`vote`]'s
    /// folds, predictions and correct count), the extra solves and seeding
    /// seconds of a seeded run, and the kernel values the run's shared cache
    /// computed (`shared_evals`): every solve's kernel values and shared-cache
    /// hits summed; `t0` is when the run started.
    pub(super) fn tally(
        n: usize,
        (folds, predictions, correct): (Vec<FoldFit>, Vec<f64>, usize),
        extra: Vec<ExtraSolve>,
        seed_s: f64,
        shared_evals: u64,
        t0: Instant,
    ) -> OvoCvResult {
        let pair_stats = || folds.iter().flat_map(|f| &f.pairs).map(|p| &p.stats);
        let solve_evals = pair_stats().map(|s| s.kernel_evals).sum::<u64>()
            + extra.iter().map(|e| e.stats.kernel_evals).sum::<u64>();
        let shared_hits = pair_stats().map(|s| s.shared_hits).sum();
        OvoCvResult {
            folds,
            predictions,
            correct,
            accuracy_pct: 100.0 * correct as f64 / n.max(1) as f64,
            kernel_evals: solve_evals + shared_evals,
            shared_evals,
            shared_hits,
            extra,
            seed_s,
            wall_s: t0.elapsed().as_secs_f64(),
        }
    }

    /// SMO iterations of every pair of every fold, and of the extra solves.
    pub fn total_iterations(&self) -> u64 {
        self.folds
            .iter()
            .flat_map(|f| &f.pairs)
            .map(|p| p.stats.iterations)
            .sum::<u64>()
            + self.extra.iter().map(|e| e.stats.iterations).sum::<u64>()
    }
}

/// Cross-validate a one-vs-one C-SVC on `folds` of `ds` (any number of
/// classes; `params.cache_mb` is the run's whole kernel-cache budget, as
/// [`crate::svm::cv::strategy::CvStrategy::cache_split`] divides it).
pub fn cross_validate_ovo(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    weights: &[ClassWeight],
    opts: OvoCvOptions,
) -> Result<OvoCvResult, SvmError> {
    let params = params.check()?;
    check_weights(weights)?;
    folds.check_for(ds)?;
    check_training_features(ds, params.kernel)?;
    if opts.threads == 0 {
        return Err(SvmError::InvalidParam("threads must be >= 1".into()));
    }
    crate::svm::cv::pool::with_threads(opts.threads, || run(ds, folds, &params, weights, opts))
}

fn run(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    weights: &[ClassWeight],
    opts: OvoCvOptions,
) -> Result<OvoCvResult, SvmError> {
    let t0 = Instant::now();
    // The rows grouped by class (the same solves, cheaper reads).
    let order = ClassOrder::new(ds, folds);
    let folds = &order.folds(folds);
    let ds = &order.ds;
    let kd = KernelData::new(ds, params.kernel);
    let strategy = crate::svm::cv::strategy::CvStrategy {
        order: crate::svm::cv::strategy::RoundOrder::PerRound,
        seeder: crate::svm::cv::strategy::SeederKind::Zero,
        cache: opts.cache,
        threads: opts.threads,
    };
    let (shared_mb, local_mb) = strategy.cache_split_whole_first(ds.n(), params.cache_mb);
    let local = params.with_cache_mb(local_mb)?;
    let shared = shared_mb.map(|mb| matrix::shared_cache(&kd, mb, params.solver.matrix_values()));
    // What filling the cache up front cost, counted with the run's values.
    let filled = shared.as_ref().map_or(0, |s| s.kernel_evals());
    let mut res = cv_with(
        &kd,
        folds,
        &local,
        weights,
        shared.as_ref(),
        opts.probability,
    )?;
    res.kernel_evals += filled;
    res.shared_evals += filled;
    res.predictions = order.back(&res.predictions);
    res.wall_s = t0.elapsed().as_secs_f64();
    Ok(res)
}

/// [`cross_validate_ovo`] on prepared kernel data (features checked, folds
/// valid for its rows), with `params.cache_mb` the cache of each solve and
/// an optional shared cache (its evaluations are counted from what it had
/// spent before this call), in the current rayon pool; `prob_rng` as
/// [`OvoCvOptions::probability`].
pub fn cv_with(
    kd: &KernelData<'_>,
    folds: &Folds,
    params: &CheckedParams,
    weights: &[ClassWeight],
    shared: Option<&SharedKernelCache>,
    prob_rng: Option<GlibcRand>,
) -> Result<OvoCvResult, SvmError> {
    let t0 = Instant::now();
    let ds: &Dataset = &kd.ds;
    let shared_before = shared.map_or(0, |s| s.kernel_evals());
    // Every fold's classes, then every (fold, pair) problem as one job.
    let groups: Vec<Groups> = (0..folds.k())
        .map(|h| Groups::new(ds, &folds.train_rows(h)))
        .collect::<Result<_, _>>()?;
    let wcs: Vec<(Vec<f64>, Vec<String>)> = groups
        .iter()
        .map(|g| weighted_c(params.c, &g.labels, weights))
        .collect();
    let jobs: Vec<(usize, usize, (usize, usize))> = groups
        .iter()
        .enumerate()
        .flat_map(|(h, g)| {
            g.pairs()
                .into_iter()
                .enumerate()
                .map(move |(p, ij)| (h, p, ij))
        })
        .collect();
    // The internal CVs' shuffles, drawn fold after fold as svm-train draws them.
    let perms: Option<Vec<Vec<Vec<usize>>>> = prob_rng.map(|mut rng| {
        groups
            .iter()
            .map(|g| probability_shuffles(g, &mut rng))
            .collect()
    });
    // Where the shared cache cannot hold the whole matrix, pair block by
    // pair block within its budget (bounded memory, the same numbers).
    let by_blocks = shared
        .filter(|sh| !sh.is_whole_columns() && groups.iter().any(|g| g.nr_class() > 2))
        .and_then(|sh| {
            solve_by_pair_blocks(
                kd,
                &groups,
                &wcs,
                &jobs,
                params,
                sh.budget_mb(),
                perms.as_deref(),
            )
        })
        .transpose()?;
    let (solved, block_evals, shared) = match by_blocks {
        Some((fits, evals)) => (fits, evals, None),
        None => (
            jobs.par_iter()
                .map(|&(h, p, ij)| {
                    let perm = perms.as_ref().map(|v| v[h][p].as_slice());
                    solve_pair(kd, &groups[h], &wcs[h].0, ij, params, shared, perm)
                })
                .collect::<Result<Vec<_>, _>>()?,
            0,
            shared,
        ),
    };
    let mut by_fold: Vec<Vec<PairFit>> = vec![Vec::new(); folds.k()];
    for (&(h, _, _), fit) in jobs.iter().zip(solved) {
        by_fold[h].push(fit);
    }
    let warnings: Vec<Vec<String>> = wcs.into_iter().map(|w| w.1).collect();
    let voted = vote(kd, shared, folds, &groups, by_fold, warnings);
    let shared_evals = shared.map_or(block_evals, |s| s.kernel_evals() - shared_before);
    Ok(OvoCvResult::tally(
        ds.n(),
        voted,
        Vec::new(),
        0.0,
        shared_evals,
        t0,
    ))
}

/// Each fold's model, assembled from its pairs' solutions (`by_fold[h]`,
/// in the order of `groups[h].pairs()`), predicts the fold's held-out rows
/// by LIBSVM's vote (by its probabilities where the pairs have them):
/// returns the folds' fits, every row's prediction and the rows right.
pub(super) fn vote(
    kd: &KernelData<'_>,
    shared: Option<&SharedKernelCache>,
    folds: &Folds,
    groups: &[Groups],
    by_fold: Vec<Vec<PairFit>>,
    warnings: Vec<Vec<String>>,
) -> (Vec<FoldFit>, Vec<f64>, usize) {
    let ds: &Dataset = &kd.ds;
    let mut predictions = vec![f64::NAN; ds.n()];
    let mut fits = Vec::with_capacity(folds.k());
    for ((h, pairs), warnings) in by_fold.into_iter().enumerate().zip(warnings) {
        let model = assemble(kd, &groups[h], &pairs);
        let test = folds.test_rows(h);
        let pred: Vec<f64> = if model.prob.is_some() {
            test.par_iter()
                .map(|&r| {
                    let x = kd.ds.row(r);
                    match model.predict_probability(x) {
                        Some((label, _)) => label,
                        None => model.predict(x),
                    }
                })
                .collect()
        } else {
            // From the shared cache's columns where it holds them, else
            // from kernel values computed as it would hold them; LIBSVM's
            // labels either way (see `cached_votes`).
            shared
                .and_then(|sh| predict_cached(&model, kd, sh, test))
                .or_else(|| predict_computed(&model, kd, test))
                .map_or_else(|| model.predict_rows(ds, test), |(labels, _)| labels)
        };
        for (&r, p) in test.iter().zip(pred) {
            predictions[r] = p;
        }
        fits.push(FoldFit {
            labels: groups[h].labels.clone(),
            total_sv: model.total_sv(),
            pairs,
            warnings,
        });
    }
    let correct = predictions
        .iter()
        .zip(&ds.y)
        .filter(|(p, y)| p == y)
        .count();
    (fits, predictions, correct)
}
