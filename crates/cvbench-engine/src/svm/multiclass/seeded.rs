//! Alpha-seeded k-fold CV of a one-vs-one C-SVC: each class pair `(a, b)`
//! is a binary problem on the rows of classes `a` and `b`, and LIBSVM's
//! folds restricted to those rows are that pair's folds. The binary seeded
//! CV (every round order and seeder of [`crate::svm::cv::seeded`], unchanged)
//! runs on each pair, every pair a job of one rayon pool, all on one kernel
//! cache keyed by the dataset's row (with [`crate::svm::cv::strategy::CacheMode::Shared`]); each
//! fold's model is then assembled from its pairs' final solutions and
//! votes on every held-out row by LIBSVM's rule ([`super::cv::vote`]).
//!
//! A pair's round trains on the pair's rows of the other folds in LIBSVM's
//! order, grouped by class as `svm-train` groups them, so every round
//! reaches the unseeded run's optimum up to the stopping tolerance; the
//! results do not depend on the cache or the thread count.

use std::time::Instant;

use rayon::prelude::*;

use super::cv::{vote, OvoCvResult};
use super::groups::{check_weights, ClassWeight, Groups};
use super::train::PairFit;
use crate::data::Dataset;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::seeded::pairs::{run_pair, PairRun};
use crate::svm::cv::strategy::{check_axes, CvStrategy, RoundOrder, SeederKind};
use crate::svm::kernel::{matrix, KernelData};
use crate::svm::model::params::CheckedParams;
use crate::svm::model::solution::check_training_features;
use crate::svm::{error::SvmError, model::params::SvmParams};

/// Whether `strategy` seeds (any round order or seeder but LIBSVM's
/// per-round solves from `alpha = 0`): such a one-vs-one CV runs per class
/// pair ([`cross_validate_ovo_seeded`]).
pub fn seeds(strategy: &CvStrategy) -> bool {
    !(strategy.order == RoundOrder::PerRound && strategy.seeder == SeederKind::Zero)
}

/// Cross-validate a one-vs-one C-SVC on `folds` of `ds` with the round
/// order and seeder of `strategy` per class pair (see the module's doc);
/// `params.cache_mb` is the run's whole kernel-cache budget, `seed` drives
/// the seeders' random choices. Class weights are refused (the seeders
/// keep one C), as is a fold whose training rows lack a class.
pub fn cross_validate_ovo_seeded(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    weights: &[ClassWeight],
    strategy: &CvStrategy,
    seed: u64,
) -> Result<OvoCvResult, SvmError> {
    let params = params.check()?;
    check_weights(weights)?;
    if !weights.is_empty() {
        return Err(SvmError::InvalidParam(
            "alpha seeding per class pair runs with one C for every class: class weights (-wi) are not built with it; drop the weights or the seeding".into(),
        ));
    }
    folds.check_for(ds)?;
    check_axes(strategy.order, strategy.seeder, folds.k(), ds.n())?;
    check_training_features(ds, params.kernel)?;
    if strategy.threads == 0 {
        return Err(SvmError::InvalidParam("threads must be >= 1".into()));
    }
    crate::svm::cv::pool::with_threads(strategy.threads, || run(ds, folds, &params, strategy, seed))
}

/// The folds of pair `(a, b)`: each fold's rows of classes `a` and `b`, in
/// the fold's order (dataset rows; the other rows are in no fold).
fn pair_folds(folds: &Folds, class_of: &[usize], (a, b): (usize, usize)) -> Folds {
    Folds {
        n: folds.n,
        folds: folds
            .folds
            .iter()
            .map(|f| {
                f.iter()
                    .copied()
                    .filter(|&r| class_of[r] == a || class_of[r] == b)
                    .collect()
            })
            .collect(),
        kind: format!("{} pair ({a}, {b})", folds.kind),
    }
}

fn run(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    strategy: &CvStrategy,
    seed: u64,
) -> Result<OvoCvResult, SvmError> {
    let t0 = Instant::now();
    let all: Vec<usize> = (0..ds.n()).collect();
    let global = Groups::new(ds, &all)?;
    let nc = global.nr_class();
    let mut class_of = vec![0usize; ds.n()];
    for c in 0..nc {
        for &r in global.class_rows(c) {
            class_of[r] = c;
        }
    }
    let groups: Vec<Groups> = (0..folds.k())
        .map(|h| Groups::new(ds, &folds.train_rows(h)))
        .collect::<Result<_, _>>()?;
    for (h, g) in groups.iter().enumerate() {
        if let Some(c) = (0..nc).find(|&c| !g.labels.contains(&global.labels[c])) {
            return Err(SvmError::InvalidFolds(format!(
                "alpha seeding per class pair needs every class in every training fold, but fold {h}'s training rows have no row of class {} ({} row(s) in all); run without seeding (LIBSVM's path) on this data",
                global.labels[c], global.count[c]
            )));
        }
    }
    let kd = KernelData::new(ds, params.kernel);
    // Pairs run at the same time: the cache split of parallel solves.
    let split = CvStrategy {
        order: RoundOrder::PerRound,
        ..*strategy
    };
    let (shared_mb, local_mb) = split.cache_split_whole_first(ds.n(), params.cache_mb);
    let local = params.with_cache_mb(local_mb)?;
    let shared = shared_mb.map(|mb| matrix::shared_cache(&kd, mb, params.solver.matrix_values()));
    let pairs = global.pairs();
    let pfolds: Vec<Folds> = pairs
        .iter()
        .map(|&ab| pair_folds(folds, &class_of, ab))
        .collect();
    let runs: Vec<PairRun> = pairs
        .par_iter()
        .zip(&pfolds)
        .map(|(&(a, _), pf)| {
            run_pair(
                &kd,
                pf,
                &local,
                strategy,
                seed,
                shared.as_ref(),
                global.labels[a],
            )
        })
        .collect::<Result<_, _>>()?;
    // Each fold's pairs, in the fold's own class order.
    let index = |a: usize, b: usize| {
        let (a, b) = (a.min(b), a.max(b));
        a * nc - a * (a + 1) / 2 + (b - a - 1)
    };
    let global_class = |l: f64| global.labels.iter().position(|&g| g == l).unwrap_or(0);
    let mut alpha_of = vec![0.0f64; ds.n()];
    let mut by_fold: Vec<Vec<PairFit>> = Vec::with_capacity(folds.k());
    for (h, g) in groups.iter().enumerate() {
        let mut fits = Vec::with_capacity(g.pairs().len());
        for (i, j) in g.pairs() {
            let p = index(global_class(g.labels[i]), global_class(g.labels[j]));
            let (round, kept) = (&runs[p].rounds[h], &runs[p].kept[h]);
            for (&r, &a) in pfolds[p].train_rows(h).iter().zip(&kept.alpha) {
                alpha_of[r] = a;
            }
            let coef: Vec<f64> = g
                .class_rows(i)
                .iter()
                .map(|&r| alpha_of[r])
                .chain(g.class_rows(j).iter().map(|&r| -alpha_of[r]))
                .collect();
            // The pair's model in the fold's convention (class i positive).
            let sigma = if kept.positive == g.labels[i] {
                1.0
            } else {
                -1.0
            };
            let mut stats = round.stats.clone();
            stats.rho = sigma * kept.rho;
            fits.push(PairFit {
                classes: (i, j),
                stats,
                nu: Some(round.nu),
                coef,
                prob: None,
                seed_s: round.seed_s,
            });
        }
        by_fold.push(fits);
    }
    let warnings = vec![Vec::new(); folds.k()];
    let voted = vote(&kd, shared.as_ref(), folds, &groups, by_fold, warnings);
    let extra: Vec<_> = runs.iter().flat_map(|r| r.extra.iter().cloned()).collect();
    let shared_evals = shared.as_ref().map_or(0, |s| s.kernel_evals());
    let seed_s = runs
        .iter()
        .flat_map(|r| r.rounds.iter().map(|x| x.seed_s))
        .sum::<f64>()
        + extra.iter().map(|e| e.seed_s).sum::<f64>();
    Ok(OvoCvResult::tally(
        ds.n(),
        voted,
        extra,
        seed_s,
        shared_evals,
        t0,
    ))
}
