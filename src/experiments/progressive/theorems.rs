//! Empirical checks of BKL Theorems 1–5 on any [`Population`]: a learner, a
//! way to draw i.i.d. data sets, and a way to measure true errors.
//!
//! - Theorems 1–2 ([`run_kfold_check`], [`moment_rows`]):
//!   `E|ê_K - ē_K|^m` against `E|ê_1 - ē_1|^m` for the hold-out of `n/k`
//!   points, which is fold 1 of the same run (so the comparison is paired).
//! - Theorems 3–4 ([`tail_rows`]): the frequency of `ê - ē > a` (and
//!   `< -a`) against the Hoeffding bound `exp(-2 a² s)` with `s = n/k` for
//!   the k-fold estimate and `s` for progressive validation.
//! - Theorem 5 ([`run_progressive_check`], [`theorem5_row`]):
//!   `E(ê_P - ē_P)²` against `E(ê'_P - ē_P)²`, where `ê'_P` tests the
//!   progressive hypothesis (a fresh random member per query) on `s` fresh
//!   points.

use rand::seq::index;
use rand::RngExt;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::exact::true_error_of_survivors;
use super::generator::{BklProblem, FreshSet};
use super::paper::TieKind;
use super::stats::{wilson95, Summary};
use super::ProgressiveError;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::{
    contiguous_folds, hold_out, kfold_hypothesis, progressive, Eliminator, EliminatorModel,
    IncrementalLearner,
};
use cvbench_engine::api::seed;

/// A data distribution with a learner: what the theorem checks need.
pub trait Population: Sync {
    /// The learner.
    type Learner: IncrementalLearner;
    /// What one draw fixes besides the data (e.g. the hidden target feature).
    type Task: Send + Sync;

    /// A name for outputs (contains "synthetic" for generated data).
    fn name(&self) -> String;

    /// The learner for one repetition (`seed` seeds any internal randomness).
    fn learner(&self, seed: u64) -> Self::Learner;

    /// Draw a data set of `n` i.i.d. points.
    fn draw(&self, n: usize, seed: u64) -> Result<(Self::Task, Dataset), ProgressiveError>;

    /// The true error of `model` (trained on a draw with `task`).
    fn true_error(
        &self,
        learner: &Self::Learner,
        task: &Self::Task,
        model: &<Self::Learner as IncrementalLearner>::Model,
    ) -> Result<f64, ProgressiveError>;

    /// The loss of `model` on one fresh point.
    fn fresh_loss(
        &self,
        learner: &Self::Learner,
        task: &Self::Task,
        model: &<Self::Learner as IncrementalLearner>::Model,
        rng: &mut Pcg64Mcg,
    ) -> Result<f64, ProgressiveError>;
}

/// The BKL synthetic problem with the eliminator: exact true errors.
#[derive(Clone, Copy, Debug)]
pub struct BklPopulation {
    /// The generator.
    pub problem: BklProblem,
    /// The learner's tie rule.
    pub tie: TieKind,
}

impl Population for BklPopulation {
    type Learner = Eliminator;
    type Task = usize;

    fn name(&self) -> String {
        format!("synthetic-bkl(N={})", self.problem.n_features)
    }

    fn learner(&self, seed: u64) -> Eliminator {
        Eliminator::new(self.tie.rule(seed))
    }

    fn draw(&self, n: usize, seed: u64) -> Result<(usize, Dataset), ProgressiveError> {
        let mut rng = seed::rng(seed);
        let target = self.problem.draw_target(&mut rng);
        Ok((target, self.problem.draw(target, n, &mut rng)?.to_dataset()))
    }

    fn true_error(
        &self,
        _: &Eliminator,
        _: &usize,
        model: &EliminatorModel,
    ) -> Result<f64, ProgressiveError> {
        Ok(true_error_of_survivors(model.n_alive()))
    }

    fn fresh_loss(
        &self,
        learner: &Eliminator,
        task: &usize,
        model: &EliminatorModel,
        rng: &mut Pcg64Mcg,
    ) -> Result<f64, ProgressiveError> {
        let set = FreshSet::draw(model.alive_features(), *task, 1, rng)?;
        set.error(model, &learner.tie, rng)
    }
}

/// A real learner on a real dataset: data sets are drawn without replacement
/// from `pool`; the true error is the mean loss on `test` (e.g. a9a.t), and
/// fresh points are uniform draws from `test`.
#[derive(Clone, Debug)]
pub struct DatasetPopulation<'a, L> {
    /// The learner (no per-repetition randomness).
    pub learner: L,
    /// Where training data sets are drawn from.
    pub pool: &'a Dataset,
    /// The test set standing in for the distribution.
    pub test: &'a Dataset,
}

impl<'a, L: IncrementalLearner + Clone> DatasetPopulation<'a, L> {
    /// A population; `pool` and `test` must have the same feature count.
    pub fn new(learner: L, pool: &'a Dataset, test: &'a Dataset) -> Result<Self, ProgressiveError> {
        same_features(pool, test)?;
        if test.n() == 0 {
            return Err(ProgressiveError::Invalid("empty test set".into()));
        }
        Ok(DatasetPopulation {
            learner,
            pool,
            test,
        })
    }
}

impl<L: IncrementalLearner + Clone> Population for DatasetPopulation<'_, L> {
    type Learner = L;
    type Task = ();

    fn name(&self) -> String {
        self.pool.name.clone()
    }

    fn learner(&self, _: u64) -> L {
        self.learner.clone()
    }

    fn draw(&self, n: usize, seed: u64) -> Result<((), Dataset), ProgressiveError> {
        if n > self.pool.n() {
            return Err(ProgressiveError::Invalid(format!(
                "cannot draw {n} points from {} rows",
                self.pool.n()
            )));
        }
        let rows = index::sample(&mut seed::rng(seed), self.pool.n(), n).into_vec();
        Ok(((), self.pool.subset(&rows, self.pool.name.clone())))
    }

    fn true_error(&self, learner: &L, _: &(), model: &L::Model) -> Result<f64, ProgressiveError> {
        let all: Vec<usize> = (0..self.test.n()).collect();
        Ok(learner.mean_loss(model, self.test, &all))
    }

    fn fresh_loss(
        &self,
        learner: &L,
        _: &(),
        model: &L::Model,
        rng: &mut Pcg64Mcg,
    ) -> Result<f64, ProgressiveError> {
        let i = rng.random_range(0..self.test.n());
        Ok(learner.loss(model, self.test, i))
    }
}

/// An error unless `a` and `b` have the same feature count.
pub(super) fn same_features(a: &Dataset, b: &Dataset) -> Result<(), ProgressiveError> {
    if a.d() == b.d() {
        return Ok(());
    }
    Err(ProgressiveError::Invalid(format!(
        "{} has {} features but {} has {}",
        a.name,
        a.d(),
        b.name,
        b.d()
    )))
}

/// One k-fold check: data sets of `n` points, `k` folds, `reps` repetitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KFoldCheck {
    /// Data set size.
    pub n: usize,
    /// Folds (the hold-out compared against has `n/k` points).
    pub k: usize,
    /// Repetitions.
    pub reps: usize,
    /// Shuffle each fold hypothesis' training points (for order-sensitive learners).
    pub shuffle: bool,
    /// Base seed.
    pub seed: u64,
}

/// One repetition of a [`KFoldCheck`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KFoldRecord {
    /// Data set size.
    pub n: usize,
    /// Folds.
    pub k: usize,
    /// Repetition.
    pub rep: usize,
    /// k-fold estimate `ê_K`.
    pub est_k: f64,
    /// k-fold hypothesis' true error `ē_K`.
    pub true_k: f64,
    /// Hold-out (fold 1) estimate `ê_1`.
    pub est_1: f64,
    /// Hold-out (fold 1) hypothesis' true error `ē_1`.
    pub true_1: f64,
}

/// Run a k-fold check on `pop` (repetitions in parallel, in order).
pub fn run_kfold_check<P: Population>(
    pop: &P,
    check: &KFoldCheck,
) -> Result<Vec<KFoldRecord>, ProgressiveError> {
    if check.k < 2 || check.k > check.n || !check.n.is_multiple_of(check.k) {
        return Err(ProgressiveError::Invalid(format!(
            "k-fold check needs 2 <= k <= n with k dividing n (n = {}, k = {})",
            check.n, check.k
        )));
    }
    (0..check.reps)
        .into_par_iter()
        .map(|rep| {
            let base = seed::derive(
                check.seed,
                &format!("kfold/{}/n={}/k={}/rep={rep}", pop.name(), check.n, check.k),
            );
            let (task, data) = pop.draw(check.n, seed::derive(base, "data"))?;
            let learner = pop.learner(seed::derive(base, "learner"));
            let order: Vec<usize> = (0..check.n).collect();
            let folds = contiguous_folds(&order, check.k)?;
            let mut truths = Vec::with_capacity(check.k);
            let mut err = None;
            let shuffle = check.shuffle.then(|| seed::derive(base, "shuffle"));
            let kf = kfold_hypothesis(&learner, &data, &folds, shuffle, |_, m| {
                match pop.true_error(&learner, &task, m) {
                    Ok(t) => truths.push(t),
                    Err(e) => err = Some(e),
                }
            })?;
            if let Some(e) = err {
                return Err(e);
            }
            Ok(KFoldRecord {
                n: check.n,
                k: check.k,
                rep,
                est_k: kf.estimate,
                true_k: truths.iter().sum::<f64>() / truths.len() as f64,
                est_1: kf.fold_estimates[0],
                true_1: truths[0],
            })
        })
        .collect()
}

/// Theorems 1–2 for one `(n, k, m)`: moments of the discrepancy.
#[derive(Clone, Debug, PartialEq)]
pub struct MomentRow {
    /// Data set size.
    pub n: usize,
    /// Folds.
    pub k: usize,
    /// Moment order.
    pub m: u32,
    /// `|ê_K - ē_K|^m` over repetitions.
    pub kfold: Summary,
    /// `|ê_1 - ē_1|^m` over repetitions.
    pub holdout: Summary,
    /// Paired difference `|ê_1 - ē_1|^m - |ê_K - ē_K|^m` (Theorem 1 says
    /// its mean is >= 0; Theorem 2, > 0 for `m >= 2`, `2 < k < n`).
    pub diff: Summary,
}

impl MomentRow {
    /// `E|ê_K - ē_K|^m / E|ê_1 - ē_1|^m`.
    pub fn ratio(&self) -> f64 {
        self.kfold.mean / self.holdout.mean
    }

    /// The k-fold moment is significantly smaller (paired 95% interval of
    /// the difference above 0).
    pub fn kfold_smaller(&self) -> bool {
        self.diff.mean - self.diff.ci95() > 0.0
    }

    /// The k-fold moment is significantly larger (the interval below 0).
    pub fn kfold_larger(&self) -> bool {
        self.diff.mean + self.diff.ci95() < 0.0
    }
}

/// Moment rows for every `(n, k)` group in `records` and every `m` in `ms`.
pub fn moment_rows(records: &[KFoldRecord], ms: &[u32]) -> Vec<MomentRow> {
    use std::collections::BTreeMap;
    let mut groups: BTreeMap<(usize, usize), Vec<&KFoldRecord>> = BTreeMap::new();
    for r in records {
        groups.entry((r.n, r.k)).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((n, k), rs) in groups {
        for &m in ms {
            let p = |x: f64| x.abs().powi(m as i32);
            let kf: Vec<f64> = rs.iter().map(|r| p(r.est_k - r.true_k)).collect();
            let ho: Vec<f64> = rs.iter().map(|r| p(r.est_1 - r.true_1)).collect();
            let diff: Vec<f64> = ho.iter().zip(&kf).map(|(h, k)| h - k).collect();
            out.push(MomentRow {
                n,
                k,
                m,
                kfold: Summary::of(&kf),
                holdout: Summary::of(&ho),
                diff: Summary::of(&diff),
            });
        }
    }
    out
}

/// The records of each `(n, k)` setting, in sorted order: Theorem 3's
/// groups, which its table (`render/theorems.rs`) and its verdict
/// (`verdicts/theorems.rs`) both read.
pub fn by_n_k(recs: &[KFoldRecord]) -> Vec<(usize, usize, Vec<&KFoldRecord>)> {
    let mut nk: Vec<(usize, usize)> = recs.iter().map(|r| (r.n, r.k)).collect();
    nk.sort_unstable();
    nk.dedup();
    nk.into_iter()
        .map(|(n, k)| {
            let sel = recs.iter().filter(|r| r.n == n && r.k == k).collect();
            (n, k, sel)
        })
        .collect()
}

/// Theorems 3–4 for one estimator and one `a`: tail frequencies and the
/// Hoeffding bound.
#[derive(Clone, Debug, PartialEq)]
pub struct TailRow {
    /// Which estimator, e.g. `k-fold (k=5)`.
    pub estimator: String,
    /// The effective test size `s` of the bound.
    pub s: usize,
    /// The deviation `a`.
    pub a: f64,
    /// Repetitions.
    pub reps: usize,
    /// Frequency of `ê - ē > a`.
    pub upper: f64,
    /// Wilson 95% interval of `upper`.
    pub upper_ci: (f64, f64),
    /// Frequency of `ê - ē < -a`.
    pub lower: f64,
    /// Wilson 95% interval of `lower`.
    pub lower_ci: (f64, f64),
    /// `exp(-2 a² s)`.
    pub bound: f64,
}

impl TailRow {
    /// Whether the lower end of either tail's 95% interval exceeds the bound
    /// (the records contradict the theorem).
    pub fn violated(&self) -> bool {
        self.upper_ci.0 > self.bound || self.lower_ci.0 > self.bound
    }
}

/// Tail rows for the deviations `ê - ē` of one estimator over `a_grid`.
pub fn tail_rows(estimator: &str, deviations: &[f64], s: usize, a_grid: &[f64]) -> Vec<TailRow> {
    let n = deviations.len();
    a_grid
        .iter()
        .map(|&a| {
            let up = deviations.iter().filter(|&&d| d > a).count();
            let lo = deviations.iter().filter(|&&d| d < -a).count();
            let freq = |c: usize| {
                if n == 0 {
                    f64::NAN
                } else {
                    c as f64 / n as f64
                }
            };
            TailRow {
                estimator: estimator.to_string(),
                s,
                a,
                reps: n,
                upper: freq(up),
                upper_ci: wilson95(up, n),
                lower: freq(lo),
                lower_ci: wilson95(lo, n),
                bound: (-2.0 * a * a * s as f64).exp(),
            }
        })
        .collect()
}

/// One progressive check: `n_train` training points, `s` progressive points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgressiveCheck {
    /// Training points before the progressive set.
    pub n_train: usize,
    /// Progressive (and hold-out) set size.
    pub s: usize,
    /// Repetitions.
    pub reps: usize,
    /// Base seed.
    pub seed: u64,
}

/// One repetition of a [`ProgressiveCheck`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgressiveRecord {
    /// Training points.
    pub n_train: usize,
    /// Progressive set size.
    pub s: usize,
    /// Repetition.
    pub rep: usize,
    /// Progressive estimate `ê_P`.
    pub est_p: f64,
    /// Progressive hypothesis' true error `ē_P`.
    pub true_p: f64,
    /// `ê'_P`: the progressive hypothesis on `s` fresh points.
    pub fresh_p: f64,
    /// Hold-out estimate (train on `n_train`, test on the same `s` points).
    pub est_ho: f64,
    /// Hold-out hypothesis' true error.
    pub true_ho: f64,
}

/// Run a progressive check on `pop` (repetitions in parallel, in order).
pub fn run_progressive_check<P: Population>(
    pop: &P,
    check: &ProgressiveCheck,
) -> Result<Vec<ProgressiveRecord>, ProgressiveError> {
    if check.s == 0 {
        return Err(ProgressiveError::Invalid("s must be >= 1".into()));
    }
    (0..check.reps)
        .into_par_iter()
        .map(|rep| {
            let base = seed::derive(
                check.seed,
                &format!(
                    "progressive/{}/train={}/s={}/rep={rep}",
                    pop.name(),
                    check.n_train,
                    check.s
                ),
            );
            let (task, data) = pop.draw(check.n_train + check.s, seed::derive(base, "data"))?;
            let learner = pop.learner(seed::derive(base, "learner"));
            let train: Vec<usize> = (0..check.n_train).collect();
            let test: Vec<usize> = (check.n_train..check.n_train + check.s).collect();
            let mut hyps = Vec::with_capacity(check.s);
            let pv = progressive(&learner, &data, &train, &test, 0, |_, m| {
                hyps.push(m.clone())
            })?;
            let mut true_p = 0.0;
            for m in &hyps {
                true_p += pop.true_error(&learner, &task, m)?;
            }
            true_p /= hyps.len() as f64;
            let mut rng = seed::rng(seed::derive(base, "fresh"));
            let mut fresh_p = 0.0;
            for _ in 0..check.s {
                let j = rng.random_range(0..hyps.len());
                fresh_p += pop.fresh_loss(&learner, &task, &hyps[j], &mut rng)?;
            }
            fresh_p /= check.s as f64;
            let ho = hold_out(&learner, &data, &train, &test)?;
            Ok(ProgressiveRecord {
                n_train: check.n_train,
                s: check.s,
                rep,
                est_p: pv.estimate,
                true_p,
                fresh_p,
                est_ho: ho.estimate,
                true_ho: pop.true_error(&learner, &task, &ho.model)?,
            })
        })
        .collect()
}

/// Theorem 5 for one `(n_train, s)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Theorem5Row {
    /// Training points.
    pub n_train: usize,
    /// Progressive set size.
    pub s: usize,
    /// `(ê_P - ē_P)²`.
    pub progressive: Summary,
    /// `(ê'_P - ē_P)²` (fresh hold-out of size `s` for the progressive hypothesis).
    pub fresh: Summary,
    /// Paired difference fresh − progressive (Theorem 5: mean >= 0).
    pub diff: Summary,
    /// `(ê_HO - ē_HO)²` for the hold-out trained on `n_train` (for reference).
    pub holdout: Summary,
}

/// Theorem 5 summary of the records of one `(n_train, s)` check.
pub fn theorem5_row(records: &[ProgressiveRecord]) -> Option<Theorem5Row> {
    let first = records.first()?;
    let sq = |f: &dyn Fn(&ProgressiveRecord) -> f64| -> Vec<f64> {
        records.iter().map(|r| f(r).powi(2)).collect()
    };
    let lhs = sq(&|r| r.est_p - r.true_p);
    let rhs = sq(&|r| r.fresh_p - r.true_p);
    let diff: Vec<f64> = rhs.iter().zip(&lhs).map(|(a, b)| a - b).collect();
    Some(Theorem5Row {
        n_train: first.n_train,
        s: first.s,
        progressive: Summary::of(&lhs),
        fresh: Summary::of(&rhs),
        diff: Summary::of(&diff),
        holdout: Summary::of(&sq(&|r| r.est_ho - r.true_ho)),
    })
}
