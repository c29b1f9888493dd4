//! What every k-fold CV shares, whatever its round order: a round's
//! outcome ([`CvRound`]) and the run's ([`CvResult`]), the batched
//! prediction of a held-out fold ([`predict_rows`]), the assembly of the
//! rounds and the input checks.

use crate::svm::model::params::CheckedParams;
use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::kernel::block::{KernelBlock, WeightedSums};
use crate::svm::kernel::cached_sums::{self, Source};
use crate::svm::kernel::KernelData;
use crate::svm::model::solution::{check_training_features, SvmModel, TrainOutput};
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::{error::SvmError, model::params::SvmParams};

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
    /// The warm-started solve left its model degenerate on the held-out
    /// rows ([`is_degenerate`]), so the round was solved again from
    /// `alpha = 0` (its iterations and kernel evaluations count both solves).
    #[serde(default)]
    pub cold_resolve: bool,
    /// Seconds of the discarded warm-started solve and its prediction when
    /// the round was solved again (0 otherwise); `stats.timings` include
    /// them, so that the round costs what it took.
    #[serde(default)]
    pub discarded_s: f64,
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
    /// Kernel values computed in batched blocks (prediction, seeders'
    /// similarities, held-out sums), not in `total_kernel_evals`.
    #[serde(default)]
    pub block_kernel_evals: u64,
    /// Kernel values of the whole columns the solves and sums asked of the
    /// shared cache, each column once (`n` values; 0 without one): the same
    /// on any thread count. Included in `total_kernel_evals`.
    #[serde(default)]
    pub shared_kernel_evals: u64,
    /// Kernel values the shared cache computed beyond `shared_kernel_evals`
    /// (columns filled again after eviction, or by two solves at once): it
    /// depends on how parallel solves interleave. Included in
    /// `total_kernel_evals`.
    #[serde(default)]
    pub shared_extra_kernel_evals: u64,
    /// Hits of the shared cache (0 without one; depends on scheduling).
    pub shared_hits: u64,
    /// Misses of the shared cache (0 without one; depends on scheduling).
    pub shared_misses: u64,
    /// Wall-clock seconds of the whole run.
    pub wall_s: f64,
}

/// A held-out row and the model's two kernel sums over it: `(row, sum_j
/// y_j alpha_j K_rj, sum_{alpha_j = C} y_j C K_rj)`.
pub type HeldOutSum = (usize, f64, f64);

/// A round and its `(row, prediction)` pairs.
pub(crate) type RoundOutcome = (CvRound, Vec<(usize, f64)>);

/// A round's outcome, or the error that stopped it.
pub(crate) type RoundResult = Result<RoundOutcome, SvmError>;

/// A warm-started solve is solved again from `alpha = 0` when more than one
/// in this many held-out rows has a decision value within `eps` of 0.
pub const DEGENERATE_SHARE: usize = 10;

/// Whether a warm-started model is degenerate on `n_test` held-out rows of
/// which `near` have a decision value within `eps` (plus the sum's error
/// bound) of 0: more than one in [`DEGENERATE_SHARE`].
///
/// Where the kernel is nearly the identity (e.g. madelon at a large gamma)
/// every held-out decision value is of the order of rounding, and a warm
/// start's alphas carry rounding noise of that size into `rho`: its labels
/// are then noise, not LIBSVM's. Solving such a round again from zero, by
/// LIBSVM's own path, gives `svm-train`'s labels.
pub fn is_degenerate(near: usize, n_test: usize) -> bool {
    near > n_test / DEGENERATE_SHARE
}

/// How many of `sums` give a decision value within `eps` (plus the sum's
/// error bound) of 0 under `model` (see [`is_degenerate`]). A decision value
/// that is exactly 0 with no rounding anywhere is not counted: every kernel
/// value underflowed to exactly 0 on both sides (a bound of exactly 0) and
/// `rho` is exactly 0. That is a kernel that is exactly the identity (e.g.
/// madelon unscaled at the paper's gamma, C = 1) whose alphas all end at the
/// bound C on balanced folds: `alpha` = C and `G` = 0 exactly on any path
/// and any CPU, so a warm start's labels carry no noise. Where the alphas
/// end free (C above 1 on an identity kernel), `rho` is rounding noise
/// whose sign depends on the seeding's arithmetic (the SIMD width of the
/// CPU included), and the round counts as degenerate and is solved again.
pub fn near_boundary(model: &SvmModel, sums: &[WeightedSums], eps: f64) -> usize {
    sums.iter()
        .filter(|s| {
            let exact_zero = s.err1 == 0.0 && s.s1 == 0.0 && model.rho == 0.0;
            !exact_zero && (s.s1 - model.rho).abs() <= eps + s.err1
        })
        .count()
}

/// Predict round `h`'s held-out fold with the round's solution (batched: see
/// [`predict_rows`]).
pub(crate) fn evaluate_round(
    kd: &KernelData<'_>,
    folds: &Folds,
    h: usize,
    n_train: usize,
    out: TrainOutput,
    seed_s: f64,
    shared: Option<&SharedKernelCache>,
) -> (CvRound, Vec<(usize, f64)>) {
    evaluate_round_with_sums(kd, folds, h, n_train, &out, seed_s, (None, shared, 0.0)).0
}

/// [`evaluate_round`], also returning each held-out row's kernel sums over
/// the model when `c` is given: `(row, sum_j y_j alpha_j K_rj, sum_{alpha_j =
/// C} y_j C K_rj)` in the model's label convention (a chain of seeded rounds
/// reuses them as the joining rows' gradient), and how many held-out rows
/// lie within `eps` of the boundary ([`near_boundary`]).
pub(crate) fn evaluate_round_with_sums(
    kd: &KernelData<'_>,
    folds: &Folds,
    h: usize,
    n_train: usize,
    out: &TrainOutput,
    seed_s: f64,
    (c, shared, eps): (Option<f64>, Option<&SharedKernelCache>, f64),
) -> (RoundOutcome, Vec<HeldOutSum>, usize) {
    let tp = Instant::now();
    let test = folds.test_rows(h);
    let (labels, sums, label_sums) = predict_rows_with_label_sums(kd, &out.model, test, c, shared);
    let near = near_boundary(&out.model, &label_sums, eps);
    let mut preds = Vec::with_capacity(test.len());
    let mut correct = 0;
    for (&r, &p) in test.iter().zip(&labels) {
        if p == kd.ds.y[r] {
            correct += 1;
        }
        preds.push((r, p));
    }
    let mut stats = out.stats.clone();
    stats.timings.predict_s = tp.elapsed().as_secs_f64();
    let sums = sums
        .into_iter()
        .zip(test)
        .map(|(s, &r)| (r, s.s1, s.s2))
        .collect();
    (
        (
            CvRound {
                fold: h,
                n_train,
                n_test: test.len(),
                correct,
                stats,
                single_class: out.single_class,
                nu: out.nu,
                seed_s,
                cold_resolve: false,
                discarded_s: 0.0,
            },
            preds,
        ),
        sums,
        near,
    )
}

/// The predicted label of each of `rows` (rows of `kd`), computed as one
/// batched kernel block over the support vectors ([`KernelBlock`]). The
/// label is LIBSVM's (`svm-predict`'s) exactly: where a decision value is
/// within the block's error bound of 0, it is recomputed with LIBSVM's
/// prediction kernel ([`SvmModel::decision_value`]) (not where the bound is
/// exactly 0: then every kernel value underflowed to 0 on both sides). With `c`, also the
/// weighted sums with the bounded support vectors' `y_j C` as second
/// weights. Without `c` and with a shared kernel cache, on data where that
/// is cheaper ([`cached_sums::prefers_cached`]), the sums read the support
/// vectors' cached columns ([`cached_sums::weighted_sums`]): the labels are
/// the same, the returned sums are then only within their bound of the
/// block's.
pub fn predict_rows(
    kd: &KernelData<'_>,
    model: &SvmModel,
    rows: &[usize],
    c: Option<f64>,
    shared: Option<&SharedKernelCache>,
) -> (Vec<f64>, Vec<WeightedSums>) {
    let (labels, sums, _) = predict_rows_with_label_sums(kd, model, rows, c, shared);
    (labels, sums)
}

/// [`predict_rows`], also returning the sums the labels were decided on:
/// the returned sums, except that a row the single-precision cached sums
/// left unsure has the block's (tighter) sums.
pub fn predict_rows_with_label_sums(
    kd: &KernelData<'_>,
    model: &SvmModel,
    rows: &[usize],
    c: Option<f64>,
    shared: Option<&SharedKernelCache>,
) -> (Vec<f64>, Vec<WeightedSums>, Vec<WeightedSums>) {
    if model.labels.len() < 2 || model.sv_rows.is_empty() {
        let lab = if model.labels.len() < 2 || -model.rho > 0.0 {
            model.labels[0]
        } else {
            model.labels[1]
        };
        let sums = vec![WeightedSums::default(); rows.len()];
        return (vec![lab; rows.len()], sums.clone(), sums);
    }
    let basis: Vec<u32> = model.sv_rows.iter().map(|&r| r as u32).collect();
    let w2: Option<Vec<f64>> = c.map(|c| {
        model
            .sv_coef
            .iter()
            .map(|&a| if a.abs() >= c { a.signum() * c } else { 0.0 })
            .collect()
    });
    // The source of the sums: with a shared cache, its columns where that
    // is cheaper and what they read does not depend on timing
    // ([`cached_sums::exact_source`]), so that the kernel values computed
    // (the blocks' count) are the same on any thread count; a label-only
    // prediction in a settled cache reads whatever columns it holds.
    let source = shared.and_then(|sh| match c {
        None if !cached_sums::prefers_cached(kd) => None,
        None if sh.is_settled() => Some((sh, Source::Peek)),
        _ => cached_sums::exact_source(kd, sh).map(|s| (sh, s)),
    });
    let Some((sh, source)) = source else {
        let block = KernelBlock::new(kd, basis);
        let sums = block.weighted_sums(rows, &model.sv_coef, w2.as_deref());
        return (labels_of(kd, model, rows, &sums), sums.clone(), sums);
    };
    let sums =
        cached_sums::weighted_sums(kd, sh, &basis, &model.sv_coef, w2.as_deref(), rows, source);
    // Rows the single-precision sums leave unsure are decided by the block,
    // whose bound is tighter (and exactly 0 where every term underflows).
    let unsure: Vec<usize> = (0..rows.len())
        .filter(|&i| unsure(model, &sums[i]))
        .collect();
    if unsure.is_empty() {
        return (labels_of(kd, model, rows, &sums), sums.clone(), sums);
    }
    let mut label_sums = sums.clone();
    let again: Vec<usize> = unsure.iter().map(|&i| rows[i]).collect();
    let block = KernelBlock::new(kd, basis);
    for (&i, s) in unsure
        .iter()
        .zip(block.weighted_sums(&again, &model.sv_coef, None))
    {
        label_sums[i] = s;
    }
    (labels_of(kd, model, rows, &label_sums), sums, label_sums)
}

/// Whether the sign of a decision value from `s` may differ from LIBSVM's:
/// it lies within its bound of 0 or is not finite. A bound of exactly 0
/// means every term is exactly 0 in both computations, so the decision value
/// is LIBSVM's to the bit.
fn unsure(model: &SvmModel, s: &WeightedSums) -> bool {
    unsure_sign(s.s1, s.err1, model.rho)
}

/// Whether the sign of the decision value `s1 - rho` may differ from
/// LIBSVM's, `s1` being within `err1` of LIBSVM's sum (see [`unsure`]).
pub(crate) fn unsure_sign(s1: f64, err1: f64, rho: f64) -> bool {
    let dec = s1 - rho;
    let tol = err1 + 4.0 * f64::EPSILON * (s1.abs() + rho.abs());
    err1 > 0.0 && (dec.is_nan() || tol.is_nan() || dec.abs() <= tol)
}

/// The labels of `rows` from their decision values' sums and bounds: where
/// the decision value is within its bound of 0 (or not finite), recomputed
/// with LIBSVM's prediction kernel.
fn labels_of(
    kd: &KernelData<'_>,
    model: &SvmModel,
    rows: &[usize],
    sums: &[WeightedSums],
) -> Vec<f64> {
    rows.par_iter()
        .zip(sums)
        .map(|(&r, s)| {
            let positive = if unsure(model, s) {
                model.decision_value(kd.ds.row(r)) > 0.0
            } else {
                s.s1 - model.rho > 0.0
            };
            if positive {
                model.labels[0]
            } else {
                model.labels[1]
            }
        })
        .collect()
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
    // The held-out rows of the rounds run: n for a whole run, fewer for a
    // first-rounds estimate (whose accuracy is over its rounds).
    let tested: usize = rounds.iter().map(|r| r.n_test).sum();
    let (shared_hits, shared_misses, shared_evals, shared_extra) =
        shared.map_or((0, 0, 0, 0), |s| {
            use std::sync::atomic::Ordering::Relaxed;
            (
                s.hits.load(Relaxed),
                s.misses.load(Relaxed),
                s.kernel_evals.load(Relaxed),
                s.extra_kernel_evals.load(Relaxed),
            )
        });
    Ok(CvResult {
        accuracy_pct: 100.0 * correct as f64 / tested.max(1) as f64,
        correct,
        n,
        predictions,
        total_iterations: rounds.iter().map(|r| r.stats.iterations).sum(),
        total_kernel_evals: rounds.iter().map(|r| r.stats.kernel_evals).sum::<u64>()
            + shared_evals
            + shared_extra,
        block_kernel_evals: 0,
        shared_kernel_evals: shared_evals,
        shared_extra_kernel_evals: shared_extra,
        rounds,
        shared_hits,
        shared_misses,
        wall_s: t0.elapsed().as_secs_f64(),
    })
}

/// The checks every k-fold CV makes before solving: valid parameters (the
/// checked parameters are returned), folds over exactly the dataset's rows,
/// finite features.
pub(crate) fn check_inputs(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
) -> Result<CheckedParams, SvmError> {
    let checked = params.check()?;
    folds.check_for(ds)?;
    check_training_features(ds, checked.kernel)?;
    Ok(checked)
}
