//! Alpha-seeded SVM k-fold cross-validation: the round orders of the
//! seeding methods in [`crate::svm::seeding`].
//!
//! - **Chain** (ATO, MIR, SIR; Wen et al. 2017): round 0 from `alpha = 0`,
//!   round `h` seeded from round `h - 1` with `R` = fold `h`, `T` = fold
//!   `h - 1`. Sequential by construction.
//! - **Two chains** (beyond the paper): the same chain over rounds
//!   `0..ceil(k/2)` and over the rest, each starting from `alpha = 0`; the
//!   two run at the same time when asked (a sequential chain uses a second
//!   core only inside its solves).
//! - **Full model** (AVG, TOP; leave-one-out only): one SVM on all `n` rows,
//!   then every round seeded from it with `R = {t}`, `T = {}`. Rounds are
//!   independent and run in parallel when asked.
//! - **Tree** (beyond the paper): TreeCV's recursion over the folds. A node
//!   holding out folds `s..e` trains on the other folds, warm started from
//!   its parent's optimum with the returning rows at `alpha = 0` (always
//!   feasible, no adjustment needed); the leaves are the `k` rounds. The two
//!   children of a node run in parallel when asked. The inner nodes are extra
//!   solves, reported as such.
//!
//! Every round ends with SMO to the baseline's stopping rule, so every
//! method reaches the baseline's optimum (up to the stopping tolerance).
//! With a shared kernel cache, one cache keyed by dataset row serves every
//! solve and seeder.

use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::{in_fold_order, FoldOrder, Folds};
use crate::svm::cv::rounds::{
    assemble, evaluate_round, evaluate_round_with_sums, is_degenerate, CvResult, HeldOutSum,
    RoundOutcome, RoundResult,
};
use crate::svm::cv::strategy::{check_axes, CvStrategy, RoundOrder};
use crate::svm::kernel::KernelData;
use crate::svm::model::label::class_label;
use crate::svm::model::solution::{libsvm_labels, train_seeded, train_with, TrainOutput};
use crate::svm::seeding::gradient::{self, PrevGradient};
use crate::svm::seeding::{Previous, Round, SeedContext, Seeder, SeedingMethod, Transition};
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::{error::SvmError, model::params::CheckedParams, model::params::SvmParams};

pub(crate) mod pairs;
mod tree;

/// How to run a seeded cross-validation.
#[derive(Clone, Debug, PartialEq)]
pub struct SeededOptions {
    /// The seeding method (round order).
    pub method: SeedingMethod,
    /// Size in MB of a kernel cache shared by all solves (`None`: none).
    pub shared_cache_mb: Option<f64>,
    /// Run independent solves in parallel where the method allows it.
    pub parallel: bool,
    /// Seed of the seeders' random choices.
    pub seed: u64,
}

/// A solve that is not a CV round (the full model of AVG/TOP, an inner node
/// of the tree).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExtraSolve {
    /// What it is, e.g. `full` or `node 0..4` (folds held out).
    pub label: String,
    /// Training rows.
    pub n_train: usize,
    /// Solver counters and timings.
    pub stats: SolveStats,
    /// Seconds spent building its seed.
    pub seed_s: f64,
}

/// The outcome of a seeded cross-validation.
#[derive(Clone, Debug, PartialEq)]
pub struct SeededCvResult {
    /// The rounds, predictions and totals (over the rounds only).
    pub cv: CvResult,
    /// Solves beyond the rounds.
    pub extra: Vec<ExtraSolve>,
    /// Whether solves ran in parallel.
    pub parallel: bool,
    /// Whether a shared kernel cache was used.
    pub shared_cache: bool,
}

impl SeededCvResult {
    /// SMO iterations of the rounds and the extra solves.
    pub fn total_iterations(&self) -> u64 {
        self.cv.total_iterations + self.extra.iter().map(|e| e.stats.iterations).sum::<u64>()
    }

    /// Seeding seconds (all seeders, rounds and extra solves).
    pub fn seed_seconds(&self) -> f64 {
        self.cv.rounds.iter().map(|r| r.seed_s).sum::<f64>()
            + self.extra.iter().map(|e| e.seed_s).sum::<f64>()
    }

    /// Initialisation seconds as Wen et al. count them: the seeders plus the
    /// solver's set-up of every seeded solve (the gradient of the seed).
    pub fn init_seconds(&self) -> f64 {
        let seeded_rounds: f64 = self
            .cv
            .rounds
            .iter()
            .filter(|r| r.seed_s > 0.0)
            .map(|r| r.stats.timings.init_s)
            .sum();
        self.seed_seconds() + seeded_rounds
    }
}

/// A round's final solution, kept for a class pair's fold model
/// ([`pairs`]): the alphas of its training rows (in the round's order), its
/// positive label and `rho`.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    /// `alpha` of each training row of the round.
    pub alpha: Vec<f64>,
    /// The label of the model's positive class (`labels[0]`).
    pub positive: f64,
    /// The model's `rho`.
    pub rho: f64,
}

/// The joining rows of a seeded round: their sums over the previous model
/// when the previous round's prediction computed them, else the rows.
enum HeldOut<'a> {
    Rows(&'a [usize]),
    Sums(Vec<(usize, f64, f64)>),
}

struct Run<'a> {
    kd: &'a KernelData<'a>,
    folds: &'a Folds,
    /// The parameters with `cache_mb` the column cache of one solve.
    params: CheckedParams,
    seeder: Box<dyn Seeder>,
    shared: Option<&'a SharedKernelCache>,
    y: Vec<i8>,
    seed: u64,
    parallel: bool,
    /// The rounds run: `0..rounds` (`folds.k()` but for a first-rounds
    /// estimate, [`run_cv_first_rounds`]).
    rounds: usize,
    /// Where each round's final solution is kept, by fold (class-pair
    /// runs, [`pairs`]; `None`: not kept).
    kept: Option<Mutex<Vec<Option<Kept>>>>,
}

impl Run<'_> {
    fn ctx(&self) -> SeedContext<'_> {
        SeedContext {
            kd: self.kd,
            y: &self.y,
            c: self.params.c,
            seed: self.seed,
            shared: self.shared,
        }
    }

    fn train(&self, rows: &[usize], warm: Option<&[f64]>) -> Result<TrainOutput, SvmError> {
        train_with(self.kd, rows, &self.params, warm, self.shared)
    }

    /// Predict round `h` with a solve `out` of its training `rows`; where
    /// `out` was warm-started and its model is degenerate on the held-out
    /// rows ([`is_degenerate`]), solve the round again from `alpha = 0` and
    /// predict with that (the round counts both solves' iterations, kernel
    /// evaluations and seconds). Returns the round, the held-out sums (with `c`,
    /// see [`evaluate_round_with_sums`]) and the solution it used.
    fn finish_round(
        &self,
        h: usize,
        rows: &[usize],
        (out, seed_s, warm): (TrainOutput, f64, bool),
        c: Option<f64>,
    ) -> Result<(RoundOutcome, Vec<HeldOutSum>, TrainOutput), SvmError> {
        let eval = |o: &TrainOutput| {
            evaluate_round_with_sums(
                self.kd,
                self.folds,
                h,
                rows.len(),
                o,
                seed_s,
                (c, self.shared, self.params.eps),
            )
        };
        let (outcome, sums, near) = eval(&out);
        if !warm || !is_degenerate(near, outcome.0.n_test) {
            self.keep(h, &out);
            return Ok((outcome, sums, out));
        }
        let cold = self.train(rows, None)?;
        let (mut again, sums, _) = eval(&cold);
        let stats = &mut again.0.stats;
        stats.iterations += out.stats.iterations;
        stats.kernel_evals += out.stats.kernel_evals;
        // The warm solve and its prediction were spent too.
        let warm = &outcome.0.stats.timings;
        stats.timings.init_s += warm.init_s;
        stats.timings.train_s += warm.train_s;
        stats.timings.predict_s += warm.predict_s;
        again.0.discarded_s = warm.init_s + warm.train_s + warm.predict_s;
        again.0.cold_resolve = true;
        self.keep(h, &cold);
        Ok((again, sums, cold))
    }

    /// Keep round `h`'s final solution where asked ([`Run::kept`]).
    fn keep(&self, h: usize, out: &TrainOutput) {
        if let Some(kept) = &self.kept {
            let mut k = kept.lock().unwrap_or_else(|e| e.into_inner());
            k[h] = Some(Kept {
                alpha: out.alpha.clone(),
                positive: out.model.labels[0],
                rho: out.stats.rho,
            });
        }
    }

    fn seeded(
        &self,
        seeder: &dyn Seeder,
        prev: (&[usize], &TrainOutput),
        held_out: HeldOut<'_>,
        tr: &Transition<'_>,
    ) -> Result<(TrainOutput, f64), SvmError> {
        let ts = Instant::now();
        let ctx = self.ctx();
        let warm = seeder.seed(&Round {
            ctx: &ctx,
            prev: &Previous {
                rows: prev.0,
                alpha: &prev.1.alpha,
                gradient: &prev.1.gradient,
            },
            tr,
        })?;
        // The seed's gradient, updated from the previous round's.
        let sums = match held_out {
            HeldOut::Rows(rows) => gradient::heldout_sums(&ctx, prev.0, &prev.1.alpha, rows),
            HeldOut::Sums(sums) => sums,
        };
        let grad = gradient::next_gradient(
            &ctx,
            &PrevGradient {
                rows: prev.0,
                alpha: &prev.1.alpha,
                g: &prev.1.gradient,
                g_bar: &prev.1.g_bar,
            },
            &sums,
            tr.next_rows,
            &warm,
        );
        let seed_s = ts.elapsed().as_secs_f64();
        let grad = grad.as_ref().map(|(g, gb)| (g.as_slice(), gb.as_slice()));
        let out = train_seeded(
            self.kd,
            tr.next_rows,
            &self.params,
            Some((&warm, grad)),
            self.shared,
        )?;
        Ok((out, seed_s))
    }

    /// The rounds (and extra solves) of a round order: the one place that
    /// dispatches on [`RoundOrder`].
    fn rounds(&self, order: RoundOrder) -> Result<(Vec<RoundResult>, Vec<ExtraSolve>), SvmError> {
        Ok(match order {
            RoundOrder::PerRound => (self.per_round(), vec![]),
            RoundOrder::Chain => (self.chain(self.seeder.as_ref(), 0..self.rounds), vec![]),
            RoundOrder::TwoChains => {
                let k = self.folds.k();
                let m = k.div_ceil(2);
                let seeder = self.seeder.as_ref();
                let (mut a, b) = if self.parallel {
                    rayon::join(|| self.chain(seeder, 0..m), || self.chain(seeder, m..k))
                } else {
                    (self.chain(seeder, 0..m), self.chain(seeder, m..k))
                };
                a.extend(b);
                (a, vec![])
            }
            RoundOrder::FullModel => {
                let (r, e) = self.seeded_from_full(self.seeder.as_ref())?;
                (r, vec![e])
            }
            RoundOrder::Tree => {
                let (r, e) = self.tree(0, self.folds.k() - 1, None);
                (r, e.into_iter().collect::<Result<Vec<_>, _>>()?)
            }
        })
    }

    /// Every round from `alpha = 0`, in parallel when asked.
    fn per_round(&self) -> Vec<RoundResult> {
        let one = |h: usize| -> RoundResult {
            let rows = self.folds.train_rows(h);
            let out = self.train(&rows, None)?;
            self.keep(h, &out);
            Ok(evaluate_round(
                self.kd,
                self.folds,
                h,
                rows.len(),
                out,
                0.0,
                self.shared,
            ))
        };
        if self.parallel {
            (0..self.rounds).into_par_iter().map(one).collect()
        } else {
            (0..self.rounds).map(one).collect()
        }
    }

    /// The chain over rounds `hs`: the first from `alpha = 0`, each next
    /// one seeded from the one before.
    fn chain(&self, seeder: &dyn Seeder, hs: std::ops::Range<usize>) -> Vec<RoundResult> {
        let mut out = Vec::with_capacity(hs.len());
        // The previous round's rows, solution and the sums its model gave
        // the rows it held out (its prediction computed them: they are the
        // joining rows' gradient in this round).
        let mut prev: Option<(Vec<usize>, TrainOutput, Vec<HeldOutSum>)> = None;
        for h in hs {
            let rows = self.folds.train_rows(h);
            let warm = prev.is_some();
            let res = match prev.take() {
                None => self.train(&rows, None).map(|o| (o, 0.0)),
                Some((prows, pout, sums)) => self.seeded(
                    seeder,
                    (&prows, &pout),
                    HeldOut::Sums(sums),
                    &Transition {
                        removed: self.folds.test_rows(h),
                        added: self.folds.test_rows(h - 1),
                        next_rows: &rows,
                    },
                ),
            };
            let res = res.and_then(|(o, seed_s)| {
                self.finish_round(h, &rows, (o, seed_s, warm), Some(self.params.c))
            });
            match res {
                Ok((round, sums, o)) => {
                    out.push(Ok(round));
                    let sigma = self.model_sign(&o);
                    let sums = sums
                        .into_iter()
                        .map(|(r, a, b)| (r, sigma * a, sigma * b))
                        .collect();
                    prev = Some((rows, o, sums));
                }
                Err(e) => {
                    out.push(Err(e));
                    break;
                }
            }
        }
        out
    }

    /// `+1` when the model's positive class is [`SeedContext::y`]'s, else
    /// `-1`: the factor that turns the model's sums into the seeders'
    /// convention.
    fn model_sign(&self, o: &TrainOutput) -> f64 {
        match (o.model.sv_rows.first(), o.model.sv_coef.first()) {
            (Some(&r), Some(&c)) => c.signum() * f64::from(self.y[r]),
            _ => 1.0,
        }
    }

    fn seeded_from_full(
        &self,
        seeder: &dyn Seeder,
    ) -> Result<(Vec<RoundResult>, ExtraSolve), SvmError> {
        // Every row of the folds, in fold order (`0..n` for a whole
        // dataset's folds, reordered into fold order).
        let all: Vec<usize> = self.folds.folds.iter().flatten().copied().collect();
        let full = self.train(&all, None)?;
        let extra = ExtraSolve {
            label: "full".into(),
            n_train: all.len(),
            stats: full.stats.clone(),
            seed_s: 0.0,
        };
        let one = |h: usize| -> RoundResult {
            let rows = self.folds.train_rows(h);
            let (o, seed_s) = self.seeded(
                seeder,
                (&all, &full),
                HeldOut::Rows(&[]),
                &Transition {
                    removed: self.folds.test_rows(h),
                    added: &[],
                    next_rows: &rows,
                },
            )?;
            Ok(self.finish_round(h, &rows, (o, seed_s, true), None)?.0)
        };
        let rounds = if self.parallel {
            (0..self.rounds).into_par_iter().map(one).collect()
        } else {
            (0..self.rounds).map(one).collect()
        };
        Ok((rounds, extra))
    }
}

/// Run a k-fold CV of a C-SVC with the given folds on any meaningful
/// combination of round order, seeder, cache and threads
/// ([`CvStrategy`]). `params.cache_mb` is the run's whole kernel-cache
/// budget ([`CvStrategy::cache_split`]); `seed` drives the seeders' random
/// choices. Results do not depend on the cache or the thread count.
pub fn run_cv(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    strategy: &CvStrategy,
    seed: u64,
) -> Result<SeededCvResult, SvmError> {
    run_cv_first_rounds(ds, folds, params, strategy, seed, folds.k())
}

/// [`run_cv`] on the first `rounds` rounds only (folds `0..rounds`; all
/// `k` when `rounds >= k`): Wen et al.'s way of estimating the time of a
/// leave-one-out CV too long to run whole, from its first rounds. Each
/// round run is exactly the round of the whole run (a chain seeds round
/// `h` from round `h - 1`, AVG and TOP from the full model); the result
/// holds those rounds, its accuracy is over their held-out rows and the
/// rows of the rounds not run are predicted NaN. The tree and two-chain
/// orders do not cost in proportion to their rounds, so they have no such
/// estimate: an error.
pub fn run_cv_first_rounds(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    strategy: &CvStrategy,
    seed: u64,
    rounds: usize,
) -> Result<SeededCvResult, SvmError> {
    let params = &crate::svm::cv::rounds::check_inputs(ds, folds, params)?;
    check_axes(strategy.order, strategy.seeder, folds.k(), ds.n())?;
    if strategy.threads == 0 {
        return Err(SvmError::InvalidParam("threads must be >= 1".into()));
    }
    let rounds = rounds.min(folds.k());
    if rounds == 0 {
        return Err(SvmError::InvalidParam("rounds must be >= 1".into()));
    }
    if rounds < folds.k() && !strategy.order.runs_first_rounds() {
        return Err(SvmError::InvalidParam(format!(
            "the {} round order cannot run only its first rounds (its cost is not in proportion to its rounds); run all {} rounds",
            strategy.order,
            folds.k()
        )));
    }
    if strategy.threads == rayon::current_num_threads() {
        return run_in_pool(ds, folds, params, strategy, (seed, rounds));
    }
    crate::svm::cv::pool::with_threads(strategy.threads, || {
        run_in_pool(ds, folds, params, strategy, (seed, rounds))
    })
}

fn run_in_pool(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    strategy: &CvStrategy,
    (seed, rounds): (u64, usize),
) -> Result<SeededCvResult, SvmError> {
    let t0 = Instant::now();
    let all: Vec<usize> = (0..ds.n()).collect();
    let labels = libsvm_labels(ds, &all)?;
    // The rows in fold order (LIBSVM's training order), so that every
    // solve's shared-cache columns, every held-out fold and every seed's
    // rows are contiguous ranges: the same rows in the same order inside
    // every round, so the same arithmetic and results, with the predictions
    // put back in the caller's row order at the end.
    let reordered = (!in_fold_order(folds)).then(|| FoldOrder::new(ds, folds));
    let (ds, folds) = match &reordered {
        Some(fo) => (&fo.ds, &fo.folds),
        None => (ds, folds),
    };
    let y =
        ds.y.iter()
            .map(|&v| if class_label(v) == labels[0] { 1 } else { -1 })
            .collect();
    let (shared_mb, local_mb) = strategy.cache_split(params.cache_mb);
    let local = params.with_cache_mb(local_mb)?;
    let parallel = strategy.threads > 1;
    let kd = KernelData::new(ds, params.kernel);
    // A chain runs one solve at a time: what its cache holds follows
    // from the inputs, so its sums may read it ([`SharedKernelCache::settled`]).
    let shared = shared_mb
        .map(|mb| SharedKernelCache::new(ds.n(), mb).settled(strategy.order == RoundOrder::Chain));
    let run = Run {
        kd: &kd,
        folds,
        params: local,
        seeder: strategy.seeder.make(),
        shared: shared.as_ref(),
        y,
        seed,
        parallel,
        rounds,
        kept: None,
    };
    let (rounds, extra) = run.rounds(strategy.order)?;
    let mut cv = assemble(ds.n(), folds.k(), rounds, run.shared, t0)?;
    if let Some(fo) = &reordered {
        let mut by_row = vec![0.0; ds.n()];
        for (&r, &p) in fo.perm.iter().zip(&cv.predictions) {
            by_row[r] = p;
        }
        cv.predictions = by_row;
    }
    cv.total_kernel_evals += extra.iter().map(|e| e.stats.kernel_evals).sum::<u64>();
    cv.block_kernel_evals = run.kd.block_evals();
    Ok(SeededCvResult {
        cv,
        extra,
        parallel: parallel && strategy.order != RoundOrder::Chain,
        shared_cache: run.shared.is_some(),
    })
}
