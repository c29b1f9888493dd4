//! A grid of LIBSVM's other formulations (`cvbench grid -s 1..4`): every
//! point a k-fold CV of nu-SVC, one-class, epsilon-SVR or nu-SVR on the
//! given folds, with its numbers those of `svm-train -s N ... -v K`
//! ([`crate::svm::cv::formulations`]'s rounds, the same trainings and
//! predictions).
//!
//! Reuse (exact: a cached kernel value is the value the solve would
//! compute, and each solve is single-threaded, so the numbers do not depend
//! on it or on the threads):
//! - **one kernel cache per gamma**: the kernel values depend on gamma
//!   alone, not on C, epsilon or nu, so the points of one gamma share one
//!   kernel cache over the whole dataset keyed by row
//!   ([`matrix::shared_cache_into`]: the whole matrix, computed at once, where
//!   the budget holds it), which serves every point and fold of that gamma;
//!   each gamma's matrix is written into the previous gamma's buffer.
//! - **held-out kernel blocks**: for the one-function formulations, each
//!   fold's held-out rows' kernel values against its training rows,
//!   computed once per gamma (`formulation::held_out_kernel`) and read by
//!   every point's model; each prediction is the model's own to the bit.
//! - **threads**: every (point, fold) training is one job of the current
//!   rayon pool (nu-SVC's class pairs within a round too); consecutive
//!   gammas whose matrices and blocks fit the budget together are one
//!   batch of jobs (`gamma_batches`), so that k folds do not leave
//!   threads idle at a gamma's end.
//!
//! Warm starts (inexact: each point exact to the stopping tolerance, not
//! bit for bit; [`FormulationGridOptions::warm_start`], epsilon-SVR only):
//! within one gamma and one fold the points are a chain, each solved from
//! an earlier point's solution made feasible ([`super::formulation_warm`]);
//! the jobs are then the (gamma, fold) chains.
//!
//! [`FormulationBest`] is the choice: the highest CV accuracy (nu-SVC,
//! one-class) or the least CV mean squared error (the SVRs), ties as
//! grid.py breaks them.

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::{in_fold_order as is_in_fold_order, FoldOrder, Folds};
use crate::svm::cv::formulations::{round as cv_round, CvSummary};
use crate::svm::formulation::held_out_kernel::HeldOutKernel;
use crate::svm::formulation::nu_svc::check_nu_feasible;
use crate::svm::formulation::train_one_function_with;
use crate::svm::grid::engine::params_at;
use crate::svm::grid::formulation_warm::{warm_plan, WarmChains};
use crate::svm::kernel::{matrix, KernelData};
use crate::svm::model::params::{CheckedParams, SvmParams, SvmType};
use crate::svm::model::solution::check_finite_features;
use crate::svm::multiclass::Groups;
use crate::svm::SvmError;

/// One point of a formulation grid: C (unused by nu-SVC and one-class),
/// gamma (unused by the linear kernel) and the formulation with its own
/// parameter (nu or epsilon).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulationPoint {
    /// C.
    pub c: f64,
    /// gamma.
    pub gamma: f64,
    /// The formulation and its `nu` or `p`.
    pub svm_type: SvmType,
}

/// How a formulation grid runs (its numbers depend on neither).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulationGridOptions {
    /// Budget in MB of each gamma's shared kernel cache.
    pub memory_mb: f64,
    /// One kernel cache per gamma shared by every point and fold (off:
    /// each solve has its own `-m` cache, as LIBSVM's).
    pub shared_cache: bool,
    /// epsilon-SVR: within a gamma and a fold, start each point from an
    /// earlier point's solution (along epsilon as it is, along C scaled by
    /// C'/C; [`super::formulation_warm`]): exact to the stopping tolerance,
    /// not bit for bit. Off: every solve from zero, svm-train's numbers.
    /// Refused for the other formulations.
    pub warm_start: bool,
}

/// One point's cross-validation.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulationPointResult {
    /// The point.
    pub point: FormulationPoint,
    /// `svm-train -v K`'s numbers: the accuracy (nu-SVC, one-class) or the
    /// mean squared error and squared correlation coefficient (the SVRs).
    pub summary: CvSummary,
    /// SMO iterations of every solve of every round.
    pub iterations: u64,
    /// Kernel evaluations of the solves (the shared cache's are with the
    /// gamma's first point in [`FormulationPointResult::shared_evals`]).
    pub kernel_evals: u64,
    /// Kernel evaluations of the gamma's shared cache counted with this point.
    pub shared_evals: u64,
    /// Wall-clock seconds of the gamma's run divided evenly among its points.
    pub seconds: f64,
    /// Every row's held-out prediction (its fold's round), from which
    /// [`FormulationPointResult::summary`] is computed.
    pub predictions: Vec<f64>,
}

impl FormulationPointResult {
    /// The number the grid chooses by: the accuracy in percent, or the mean
    /// squared error.
    pub fn score(&self) -> f64 {
        match self.summary {
            CvSummary::Accuracy { .. } => self.summary.accuracy_pct().unwrap_or(f64::NAN),
            CvSummary::Regression { mse, .. } => mse,
        }
    }
}

/// Cross-validate every point of `points` on `folds` of `ds` (the kernel,
/// tolerance, `-m` cache, shrinking from `base`; C, gamma and the
/// formulation from each point; C-SVC refused) and hand each result to
/// `sink` with its index, gamma by gamma in order of first appearance, a
/// gamma's points in increasing index. Every value is checked before any
/// work, nu-SVC's nu for feasibility on every fold's classes.
pub fn run_formulation_grid(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[FormulationPoint],
    opts: &FormulationGridOptions,
    sink: &mut dyn FnMut(usize, FormulationPointResult) -> Result<(), SvmError>,
) -> Result<(), SvmError> {
    folds.check_for(ds)?;
    check_finite_features(ds)?;
    if opts.warm_start {
        if let Some(p) = points
            .iter()
            .find(|p| !matches!(p.svm_type, SvmType::EpsilonSvr { .. }))
        {
            return Err(SvmError::InvalidParam(format!(
                "warm starts are built for the epsilon-SVR grid only, not {}: turn them off",
                p.svm_type.name()
            )));
        }
        if let Some(r) = (0..ds.n()).find(|&r| !ds.y[r].is_finite()) {
            return Err(SvmError::NonFinite(format!(
                "target of row {r} is {}",
                ds.y[r]
            )));
        }
    }
    let mut checked: Vec<CheckedParams> = Vec::with_capacity(points.len());
    let mut fold_groups: Option<Vec<Groups>> = None;
    for p in points {
        if p.svm_type == SvmType::CSvc {
            return Err(SvmError::InvalidParam(
                "C-SVC (-s 0) is the grid engine's (run_grid), not the formulation grid's".into(),
            ));
        }
        p.svm_type.validate()?;
        if let SvmType::NuSvc { nu } = p.svm_type {
            if fold_groups.is_none() {
                fold_groups = Some(
                    (0..folds.k())
                        .map(|h| Groups::new(ds, &folds.train_rows(h)))
                        .collect::<Result<_, _>>()?,
                );
            }
            for (h, g) in fold_groups.iter().flatten().enumerate() {
                check_nu_feasible(g, nu).map_err(|e| {
                    SvmError::InvalidParam(format!("nu = {nu} on fold {h}'s training rows: {e}"))
                })?;
            }
        }
        checked.push(params_at(base, p.c, p.gamma).check()?);
    }
    if is_in_fold_order(folds) {
        return run_checked(ds, folds, points, &checked, opts, sink);
    }
    // The rows in fold order: every round trains on the same rows in the
    // same order with the same arithmetic (svm-train's numbers), but its
    // rows are two runs of consecutive dataset rows, so the shared cache's
    // columns are copied (or read) in place instead of gathered.
    let fo = FoldOrder::new(ds, folds);
    run_checked(
        &fo.ds,
        &fo.folds,
        points,
        &checked,
        opts,
        &mut |k, mut r| {
            let mut by_row = vec![f64::NAN; ds.n()];
            for (&row, &p) in fo.perm.iter().zip(&r.predictions) {
                by_row[row] = p;
            }
            r.summary = CvSummary::of(r.point.svm_type, &by_row, &ds.y);
            r.predictions = by_row;
            sink(k, r)
        },
    )
}

/// [`run_formulation_grid`] after its checks (`checked`: every point's
/// parameters).
fn run_checked(
    ds: &Dataset,
    folds: &Folds,
    points: &[FormulationPoint],
    checked: &[CheckedParams],
    opts: &FormulationGridOptions,
    sink: &mut dyn FnMut(usize, FormulationPointResult) -> Result<(), SvmError>,
) -> Result<(), SvmError> {
    let mut gammas: Vec<(u64, Vec<usize>)> = Vec::new();
    for (k, p) in points.iter().enumerate() {
        match gammas.iter_mut().find(|(b, _)| *b == p.gamma.to_bits()) {
            Some((_, ks)) => ks.push(k),
            None => gammas.push((p.gamma.to_bits(), vec![k])),
        }
    }
    let mut spare: Option<Vec<f32>> = None;
    let gammas: Vec<Vec<usize>> = gammas.into_iter().map(|(_, ks)| ks).collect();
    for batch in gamma_batches(ds, folds, points, &gammas, opts) {
        let t0 = Instant::now();
        let works: Vec<GammaWork<'_>> = batch
            .iter()
            .map(|ks| {
                let kd = KernelData::new(ds, checked[ks[0]].kernel);
                let shared = opts.shared_cache.then(|| {
                    matrix::shared_cache_into(
                        &kd,
                        opts.memory_mb,
                        spare.take(),
                        checked[ks[0]].solver.matrix_values(),
                    )
                });
                let held = held_out_blocks(&kd, folds, points, ks, shared.as_ref(), opts.memory_mb);
                GammaWork {
                    ks: ks.clone(),
                    kd,
                    shared,
                    held,
                }
            })
            .collect();
        let rounds = if opts.warm_start {
            warm_rounds(&works, folds, checked, points)?
        } else {
            cold_rounds(&works, folds, checked, points)?
        };
        let n_points: usize = batch.iter().map(Vec::len).sum();
        let seconds = t0.elapsed().as_secs_f64() / n_points as f64;
        for (w, rounds) in works.into_iter().zip(rounds) {
            let mut filled = w.shared.as_ref().map_or(0, SharedKernelCache::kernel_evals);
            for (i, &k) in w.ks.iter().enumerate() {
                let mut predictions = vec![f64::NAN; ds.n()];
                let (mut iterations, mut kernel_evals) = (0, 0);
                for (h, r) in rounds[i * folds.k()..(i + 1) * folds.k()]
                    .iter()
                    .enumerate()
                {
                    for (&row, &p) in folds.test_rows(h).iter().zip(&r.predictions) {
                        predictions[row] = p;
                    }
                    iterations += r.iterations;
                    kernel_evals += r.kernel_evals;
                }
                sink(
                    k,
                    FormulationPointResult {
                        point: points[k],
                        summary: CvSummary::of(points[k].svm_type, &predictions, &ds.y),
                        iterations,
                        kernel_evals,
                        shared_evals: std::mem::take(&mut filled),
                        seconds,
                        predictions,
                    },
                )?;
            }
            if spare.is_none() {
                spare = w.shared.and_then(SharedKernelCache::into_matrix);
            }
        }
    }
    Ok(())
}

/// One gamma's points `ks`, its kernel, shared cache and held-out blocks.
struct GammaWork<'a> {
    ks: Vec<usize>,
    kd: KernelData<'a>,
    shared: Option<SharedKernelCache>,
    held: Vec<Option<HeldOutKernel>>,
}

/// The gammas (each its points) in batches solved at once: as many
/// consecutive gammas as their whole kernel matrices and held-out blocks
/// fit the memory budget together (so that the rounds of several gammas
/// share the threads: a gamma's k chains alone leave threads idle when k
/// is not a multiple of them), else one gamma at a time. The order of the
/// results is the gammas' either way.
fn gamma_batches(
    ds: &Dataset,
    folds: &Folds,
    points: &[FormulationPoint],
    gammas: &[Vec<usize>],
    opts: &FormulationGridOptions,
) -> Vec<Vec<Vec<usize>>> {
    let n = ds.n();
    let whole = opts.shared_cache && matrix::whole_matrix_mb(n, opts.memory_mb).is_some();
    let matrix_mb = n as f64 * n as f64 * 4.0 / (1u64 << 20) as f64;
    let blocks_mb: f64 = (0..folds.k())
        .map(|h| HeldOutKernel::mb(folds.test_rows(h).len(), folds.train_rows(h).len()))
        .sum();
    let mut out: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut used = f64::INFINITY;
    for ks in gammas {
        let one_function = ks
            .iter()
            .all(|&i| !matches!(points[i].svm_type, SvmType::NuSvc { .. } | SvmType::CSvc));
        let mb = matrix_mb + if one_function { blocks_mb } else { 0.0 };
        match out.last_mut() {
            Some(b) if whole && used + mb <= opts.memory_mb => {
                b.push(ks.clone());
                used += mb;
            }
            _ => {
                out.push(vec![ks.clone()]);
                used = mb;
            }
        }
    }
    out
}

/// Every fold's held-out kernel block ([`HeldOutKernel`]) for the points
/// `ks` of one gamma, where they have one decision function (not nu-SVC)
/// and the blocks fit `memory_mb` beside the shared cache's matrix (else
/// none: each model predicts its held-out rows itself, the same values).
fn held_out_blocks(
    kd: &KernelData<'_>,
    folds: &Folds,
    points: &[FormulationPoint],
    ks: &[usize],
    shared: Option<&SharedKernelCache>,
    memory_mb: f64,
) -> Vec<Option<HeldOutKernel>> {
    let k = folds.k();
    let one_function = ks
        .iter()
        .all(|&i| !matches!(points[i].svm_type, SvmType::NuSvc { .. } | SvmType::CSvc));
    let n = kd.ds.n() as f64;
    let matrix_mb = match shared {
        Some(sh) if sh.is_whole_columns() => n * n * 4.0 / (1u64 << 20) as f64,
        Some(_) => memory_mb,
        None => 0.0,
    };
    let blocks_mb: f64 = (0..k)
        .map(|h| HeldOutKernel::mb(folds.test_rows(h).len(), folds.train_rows(h).len()))
        .sum();
    // Worth it where a gamma has more than one point to predict.
    if !one_function || ks.len() < 2 || matrix_mb + blocks_mb > memory_mb {
        return (0..k).map(|_| None).collect();
    }
    (0..k)
        .map(|h| HeldOutKernel::new(&kd.ds, kd.kind, &folds.train_rows(h), folds.test_rows(h)))
        .collect()
}

/// The rounds from zero of a batch of gammas, every (gamma, point, fold)
/// one job: per gamma, the round of point `ks[i]` on fold `h` at `i k + h`;
/// a one-function round predicts from its fold's held-out block where there
/// is one.
fn cold_rounds(
    works: &[GammaWork<'_>],
    folds: &Folds,
    checked: &[CheckedParams],
    points: &[FormulationPoint],
) -> Result<Vec<Vec<Round>>, SvmError> {
    let jobs: Vec<(usize, usize, usize)> = works
        .iter()
        .enumerate()
        .flat_map(|(g, w)| {
            w.ks.iter()
                .flat_map(move |&k| (0..folds.k()).map(move |h| (g, k, h)))
        })
        .collect();
    let done: Vec<Round> = jobs
        .par_iter()
        .map(|&(g, k, h)| {
            let w = &works[g];
            let (kd, shared) = (&w.kd, w.shared.as_ref());
            if let Some(block) = w.held.get(h).and_then(Option::as_ref) {
                let fit = train_one_function_with(
                    kd,
                    &folds.train_rows(h),
                    &checked[k],
                    points[k].svm_type,
                    shared,
                )?;
                if let Some(predictions) = block.predict(&fit) {
                    return Ok(Round {
                        predictions,
                        iterations: fit.stats.iterations,
                        kernel_evals: fit.stats.kernel_evals,
                    });
                }
            }
            // The CV's own round: train on the other folds, predict fold h.
            let (r, predictions) = cv_round(kd, folds, h, &checked[k], points[k].svm_type, shared)?;
            Ok(Round {
                predictions,
                iterations: r.solves.iter().map(|s| s.iterations).sum(),
                kernel_evals: r.solves.iter().map(|s| s.kernel_evals).sum(),
            })
        })
        .collect::<Result<_, SvmError>>()?;
    let mut done = done.into_iter();
    Ok(works
        .iter()
        .map(|w| done.by_ref().take(w.ks.len() * folds.k()).collect())
        .collect())
}

/// The warm-started rounds of a batch of gammas, every (gamma, fold) chain
/// one job ([`super::formulation_warm`]), laid out as [`cold_rounds`]'.
fn warm_rounds(
    works: &[GammaWork<'_>],
    folds: &Folds,
    checked: &[CheckedParams],
    points: &[FormulationPoint],
) -> Result<Vec<Vec<Round>>, SvmError> {
    let ce: Vec<(f64, f64)> = points
        .iter()
        .zip(checked)
        .map(|(p, c)| match p.svm_type {
            SvmType::EpsilonSvr { p } => (c.c, p),
            _ => (c.c, f64::NAN),
        })
        .collect();
    let types: Vec<SvmType> = points.iter().map(|p| p.svm_type).collect();
    let k = folds.k();
    let plans: Vec<_> = works.iter().map(|w| warm_plan(&w.ks, &ce)).collect();
    let chains: Vec<WarmChains<'_>> = works
        .iter()
        .map(|w| WarmChains {
            kd: &w.kd,
            folds,
            checked,
            types: &types,
            shared: w.shared.as_ref(),
            held: &w.held,
        })
        .collect();
    let jobs: Vec<(usize, usize)> = (0..works.len())
        .flat_map(|g| (0..k).map(move |h| (g, h)))
        .collect();
    let done = jobs
        .par_iter()
        .map(|&(g, h)| chains[g].run(h, &plans[g]))
        .collect::<Result<Vec<_>, SvmError>>()?;
    let mut out = Vec::with_capacity(works.len());
    let mut done = done.into_iter();
    for w in works {
        let mut slots: Vec<Option<Round>> = (0..w.ks.len() * k).map(|_| None).collect();
        for (h, chain) in done.by_ref().take(k).enumerate() {
            for r in chain {
                let i = w.ks.iter().position(|&x| x == r.k).unwrap_or(0);
                slots[i * k + h] = Some(Round {
                    predictions: r.predictions,
                    iterations: r.iterations,
                    kernel_evals: r.kernel_evals,
                });
            }
        }
        out.push(
            slots
                .into_iter()
                .map(|r| {
                    r.ok_or_else(|| SvmError::InvalidParam("a warm chain missed a point".into()))
                })
                .collect::<Result<Vec<_>, _>>()?,
        );
    }
    Ok(out)
}

/// One round's held-out predictions (in the fold's row order) and work.
struct Round {
    predictions: Vec<f64>,
    iterations: u64,
    kernel_evals: u64,
}

/// The running best of a formulation grid, visited in the grid's order:
/// a point replaces the best when its score is better (a higher accuracy,
/// or a lower mean squared error), or equal with the same gamma, the same
/// nu or epsilon and a smaller C (grid.py's tie-break, `rate == best_rate
/// and g == best_g and c < best_c`, on the exponents; C `None` where it is
/// not searched). Otherwise the first best in the order stays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulationBest {
    /// Lower scores are better (mean squared error).
    pub least: bool,
    /// `log2 C` of the best point (`None` where C is not searched).
    pub log2c: Option<f64>,
    /// `log2 gamma` of the best point (`None` where gamma is not searched).
    pub log2g: Option<f64>,
    /// The best point's third value as the grid names it (`log2 p` or nu;
    /// `None` where not searched).
    pub third: Option<f64>,
    /// Its score (`NaN` before the first point).
    pub score: f64,
}

impl FormulationBest {
    /// No point yet; `least` for the mean squared error.
    pub fn new(least: bool) -> FormulationBest {
        FormulationBest {
            least,
            log2c: None,
            log2g: None,
            third: None,
            score: f64::NAN,
        }
    }

    /// Visit one point (in the grid's order); whether it became the best.
    pub fn update(
        &mut self,
        log2c: Option<f64>,
        log2g: Option<f64>,
        third: Option<f64>,
        score: f64,
    ) -> bool {
        let better = if self.score.is_nan() {
            !score.is_nan()
        } else if self.least {
            score < self.score
        } else {
            score > self.score
        };
        let smaller_c = matches!((log2c, self.log2c), (Some(c), Some(b)) if c < b);
        let tie = score == self.score && log2g == self.log2g && third == self.third && smaller_c;
        if better || tie {
            (self.log2c, self.log2g, self.third, self.score) = (log2c, log2g, third, score);
        }
        better || tie
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_mse_first_in_order_with_grid_pys_tie_break() {
        let mut b = FormulationBest::new(true);
        assert!(b.update(Some(1.0), Some(-1.0), Some(-3.0), 20.0));
        assert!(!b.update(Some(3.0), Some(-1.0), Some(-3.0), 20.0)); // larger C
        assert!(b.update(Some(-1.0), Some(-1.0), Some(-3.0), 20.0)); // smaller C
        assert!(!b.update(Some(-3.0), Some(1.0), Some(-3.0), 20.0)); // other gamma
        assert!(!b.update(Some(-3.0), Some(-1.0), Some(-1.0), 20.0)); // other p
        assert!(!b.update(Some(5.0), Some(1.0), Some(-3.0), 25.0)); // worse
        assert!(b.update(Some(5.0), Some(1.0), Some(-3.0), 19.0));
        assert_eq!(
            (b.log2c, b.log2g, b.third, b.score),
            (Some(5.0), Some(1.0), Some(-3.0), 19.0)
        );
        let mut a = FormulationBest::new(false);
        assert!(a.update(None, Some(-1.0), Some(0.5), 80.0));
        assert!(!a.update(None, Some(-3.0), Some(0.3), 80.0));
        assert!(a.update(None, Some(-3.0), Some(0.3), 81.0));
    }
}
