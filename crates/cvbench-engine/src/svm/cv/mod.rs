//! SVM k-fold cross-validation.
//!
//! Modules:
//! - `folds`: stratified folds, LIBSVM-compatible folds (with a replica of
//!   glibc's `rand()`), leave-one-out.
//! - `rounds`: what every k-fold CV shares (a round's outcome, the run's, the
//!   batched prediction of a held-out fold).
//! - `strategy`: the CV's axes (round order, seeder, cache, threads), one
//!   registry each.
//! - `seeded`: the seeded CV's round orders (chain, full model, tree).
//! - `formulations`: `svm-train -s 1..4 -v K` (nu-SVC, one-class,
//!   epsilon-SVR, nu-SVR) on LIBSVM's folds, parallel rounds on one shared
//!   kernel cache.
//! - `probability_formulations`: `svm-train -s 1|3|4 -b 1 -v K`, the
//!   rounds one after another on one `rand()` stream, each with the
//!   probability model (nu-SVC predicts by its probabilities).
//! - `seeded_svr`: the seeded CV of the one-function formulations
//!   (epsilon-SVR, nu-SVR, one-class; `--seeding sir`, `sir_two_chains`):
//!   chains of rounds, each started from the previous round's solution made
//!   feasible; exact to the stopping tolerance. Each formulation's seed:
//!   epsilon-SVR's in `seeded_svr`, `seeded_nu_svr`, `seeded_one_class`;
//!   `seeded_nu_svc` is nu-SVC's chain (per class pair) and seed;
//!   `seeded_sums` restores a sum of bounded variables (the nu
//!   formulations' equality constraints); `seeded_gradient` builds a seeded
//!   start's gradient from one kernel mat-vec.
//! - `pool`: rayon pools of a given size.
//!
//! This module: the baseline SVM k-fold cross-validation: every round trains from
//! `alpha = 0` on the other folds (the "LibSVM" baseline of Wen et al. 2017)
//! and predicts its held-out fold.
//!
//! Beyond the paper: rounds can run in parallel on rayon (each solve stays
//! single-threaded, so per-round counters are those of a sequential run), and
//! one [`SharedKernelCache`](crate::svm::cache::shared::SharedKernelCache) keyed by the original row index can serve every
//! round, so a kernel column computed for one fold is reused by the others.
//! Neither changes any result: cached values are bit-identical to computed ones.

pub mod folds;
pub mod formulations;
pub mod pool;
pub mod probability_formulations;
pub mod rounds;
pub mod seeded;
pub(crate) mod seeded_gradient;
mod seeded_nu_svc;
mod seeded_nu_svr;
mod seeded_one_class;
mod seeded_sums;
pub mod seeded_svr;
pub mod strategy;

use crate::data::Dataset;
use crate::svm::cv::folds::Folds;
pub use crate::svm::cv::rounds::{CvResult, CvRound};
use crate::svm::cv::seeded::{run_cv, SeededCvResult, SeededOptions};
use crate::svm::cv::strategy::SeedingMethod;
use crate::svm::cv::strategy::{CacheMode, CvStrategy};
use crate::svm::{error::SvmError, model::params::SvmParams};

/// How to run the rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CvOptions {
    /// Run the rounds in parallel on the rayon pool.
    pub parallel: bool,
    /// A kernel cache shared by all rounds within this budget in MB (`None`:
    /// one cache of `params.cache_mb` per solve). The budget is the run's
    /// whole kernel-cache memory: the shared cache takes 3/4 of it, the
    /// running solves' column caches the rest ([`crate::svm::cv::strategy::CvStrategy::cache_split`]).
    pub shared_cache_mb: Option<f64>,
}

/// Run k-fold CV of a C-SVC with the given folds (see the module doc): the
/// per-round order with the zero seeder of [`crate::svm::cv::seeded::run_cv`]
/// (through [`seeded_cross_validate`]'s cache and thread options).
pub fn cross_validate(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    opts: &CvOptions,
) -> Result<CvResult, SvmError> {
    let opts = SeededOptions {
        method: SeedingMethod::None,
        shared_cache_mb: opts.shared_cache_mb,
        parallel: opts.parallel,
        seed: 0,
    };
    Ok(seeded_cross_validate(ds, folds, params, &opts)?.cv)
}

/// Run a seeded k-fold CV of a C-SVC with the given folds (see the module
/// doc): the compatibility form of [`run_cv`]. A shared cache of
/// `shared_cache_mb` is the run's whole budget (`params.cache_mb` is then
/// not used); `parallel` uses the current rayon pool.
pub fn seeded_cross_validate(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    opts: &SeededOptions,
) -> Result<SeededCvResult, SvmError> {
    let mut p = params.clone();
    let cache = match opts.shared_cache_mb {
        Some(mb) => {
            p.cache_mb = mb;
            CacheMode::Shared
        }
        None => CacheMode::PerSolve,
    };
    let threads = if opts.parallel {
        rayon::current_num_threads().max(2)
    } else {
        1
    };
    run_cv(
        ds,
        folds,
        &p,
        &CvStrategy::of(opts.method, cache, threads),
        opts.seed,
    )
}
