//! Figure 1 and the table of BKL Section 5: hold-out against progressive
//! validation on the synthetic boolean problem with the feature eliminator.
//!
//! One *run* fixes the feature count `N`, the number of training examples,
//! the test size `s`, the procedure and the repetition count. Repetition `r`
//! draws a target and `n_train + s` examples from a seed derived from the
//! base seed and `(N, n_train, s, r)` only, so hold-out and progressive
//! validation with the same sizes see the same data (paired comparison),
//! whatever the execution order. Each repetition is evaluated under both tie
//! rules (the models do not depend on the tie rule; only losses do).
//!
//! True errors are recorded two ways: exactly (closed form in the survivor
//! count, [`super::exact`]) and, as the paper did, on a fresh set of
//! examples (shared by all hypotheses of the repetition). The progressive
//! hypothesis' true error is the mean of its `s` hypotheses' (its
//! fresh-set error is the mean of their fresh-set errors: the L1 error of the
//! averaged prediction).

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::exact::{expected_progressive_true_error, expected_true_error, true_error_of_survivors};
use super::generator::{BklProblem, FreshSet};
use super::stats::Summary;
use super::ProgressiveError;
use cvbench_engine::api::learners::{hold_out, progressive, Eliminator, EliminatorModel, TieRule};
use cvbench_engine::api::seed;

/// Which procedure produced a hypothesis and its estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Procedure {
    /// Train on `n_train`, test on `s`.
    HoldOut,
    /// Train on `n_train`, validate progressively on `s`.
    Progressive,
}

impl Procedure {
    /// A short name for outputs.
    pub fn label(&self) -> &'static str {
        match self {
            Procedure::HoldOut => "hold-out",
            Procedure::Progressive => "progressive",
        }
    }
}

/// The tie rule, without its seed (for configs and records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieKind {
    /// Ties scored 1/2.
    Half,
    /// Ties broken by a fair coin.
    Random,
}

impl TieKind {
    /// Both rules, in output order.
    pub const ALL: [TieKind; 2] = [TieKind::Half, TieKind::Random];

    /// A short name for outputs.
    pub fn label(&self) -> &'static str {
        match self {
            TieKind::Half => "half",
            TieKind::Random => "random",
        }
    }

    /// The learner's tie rule, seeding coins with `seed`.
    pub fn rule(&self, seed: u64) -> TieRule {
        match self {
            TieKind::Half => TieRule::Half,
            TieKind::Random => TieRule::Random { seed },
        }
    }
}

/// One hold-out or progressive run on the BKL problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BklRun {
    /// Number of features `N`.
    pub n_features: usize,
    /// Training examples before the test/progressive set.
    pub n_train: usize,
    /// Size `s` of the hold-out / progressive set.
    pub s: usize,
    /// The procedure.
    pub procedure: Procedure,
    /// Progressive delay (ignored by the hold-out).
    pub delay: usize,
    /// Fresh examples per repetition for the measured true error (0: none).
    pub fresh: usize,
    /// Repetitions.
    pub reps: usize,
    /// Base seed.
    pub seed: u64,
}

impl BklRun {
    fn validate(&self) -> Result<(), ProgressiveError> {
        BklProblem::new(self.n_features)?;
        if self.s == 0 {
            return Err(ProgressiveError::Invalid("test size s must be >= 1".into()));
        }
        if self.reps == 0 {
            return Err(ProgressiveError::Invalid("reps must be >= 1".into()));
        }
        Ok(())
    }

    /// The data seed of repetition `rep` (shared by both procedures).
    pub fn rep_seed(&self, rep: usize) -> u64 {
        seed::derive(
            self.seed,
            &format!(
                "bkl/N={}/train={}/s={}/rep={rep}",
                self.n_features, self.n_train, self.s
            ),
        )
    }
}

/// One repetition of a [`BklRun`] under one tie rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BklRecord {
    /// The procedure.
    pub procedure: Procedure,
    /// Training examples before the test set.
    pub n_train: usize,
    /// Test / progressive set size.
    pub s: usize,
    /// Progressive delay (0 for the hold-out).
    pub delay: usize,
    /// Repetition index.
    pub rep: usize,
    /// Tie rule.
    pub tie: TieKind,
    /// The procedure's error estimate.
    pub estimate: f64,
    /// Exact true error of the produced (meta-)hypothesis.
    pub true_exact: f64,
    /// True error measured on the fresh set (NaN without one).
    pub true_fresh: f64,
    /// Survivors of the last hypothesis (hold-out: its only one).
    pub survivors: usize,
}

/// Run all repetitions (in parallel; results in repetition order, then tie
/// rule order).
pub fn run_bkl(run: &BklRun) -> Result<Vec<BklRecord>, ProgressiveError> {
    run.validate()?;
    let per_rep: Result<Vec<Vec<BklRecord>>, ProgressiveError> = (0..run.reps)
        .into_par_iter()
        .map(|rep| run_rep(run, rep))
        .collect();
    Ok(per_rep?.into_iter().flatten().collect())
}

/// Run repetition `rep` of `run` under both tie rules.
pub fn run_rep(run: &BklRun, rep: usize) -> Result<Vec<BklRecord>, ProgressiveError> {
    run.validate()?;
    let problem = BklProblem::new(run.n_features)?;
    let base = run.rep_seed(rep);
    let mut rng = seed::rng(base);
    let target = problem.draw_target(&mut rng);
    let sample = problem.draw(target, run.n_train + run.s, &mut rng)?;
    let data = sample.to_dataset();
    let train: Vec<usize> = (0..run.n_train).collect();
    let test: Vec<usize> = (run.n_train..run.n_train + run.s).collect();

    let mut out = Vec::with_capacity(2);
    let mut fresh: Option<FreshSet> = None;
    for tie in TieKind::ALL {
        let rule = tie.rule(seed::derive(base, "tie"));
        let learner = Eliminator::new(rule);
        let mut coin_rng = seed::rng(seed::derive(base, &format!("fresh-coins/{}", tie.label())));
        let (estimate, hyps, last): (f64, Vec<EliminatorModel>, usize) = match run.procedure {
            Procedure::HoldOut => {
                let h = hold_out(&learner, &data, &train, &test)?;
                let c = h.model.n_alive();
                (h.estimate, vec![h.model], c)
            }
            Procedure::Progressive => {
                let mut hyps = Vec::with_capacity(run.s);
                let pv = progressive(&learner, &data, &train, &test, run.delay, |_, m| {
                    hyps.push(m.clone())
                })?;
                let c = hyps.last().map_or(0, EliminatorModel::n_alive);
                (pv.estimate, hyps, c)
            }
        };
        let true_exact = hyps
            .iter()
            .map(|m| true_error_of_survivors(m.n_alive()))
            .sum::<f64>()
            / hyps.len() as f64;
        let true_fresh = if run.fresh > 0 {
            if fresh.is_none() {
                // The first hypothesis has the most survivors (every later one
                // was trained on a superset of its data).
                let mut frng = seed::rng(seed::derive(base, "fresh"));
                fresh = Some(FreshSet::draw(
                    hyps[0].alive_features(),
                    target,
                    run.fresh,
                    &mut frng,
                )?);
            }
            let set = fresh
                .as_ref()
                .ok_or_else(|| ProgressiveError::Invalid("no fresh set".into()))?;
            let mut total = 0.0;
            for m in &hyps {
                total += set.error(m, &rule, &mut coin_rng)?;
            }
            total / hyps.len() as f64
        } else {
            f64::NAN
        };
        out.push(BklRecord {
            procedure: run.procedure,
            n_train: run.n_train,
            s: run.s,
            delay: if run.procedure == Procedure::HoldOut {
                0
            } else {
                run.delay
            },
            rep,
            tie,
            estimate,
            true_exact,
            true_fresh,
            survivors: last,
        });
    }
    Ok(out)
}

/// Summary of the records of one (procedure, sizes, delay, tie rule) group.
#[derive(Clone, Debug, PartialEq)]
pub struct BklSummary {
    /// The procedure.
    pub procedure: Procedure,
    /// Training examples before the test set.
    pub n_train: usize,
    /// Test / progressive set size.
    pub s: usize,
    /// Progressive delay.
    pub delay: usize,
    /// Tie rule.
    pub tie: TieKind,
    /// Exact true error over repetitions.
    pub true_exact: Summary,
    /// Fresh-set true error over repetitions.
    pub true_fresh: Summary,
    /// The estimate over repetitions.
    pub estimate: Summary,
    /// `|fresh-set true error - estimate|` (the paper's discrepancy).
    pub disc_fresh: Summary,
    /// `|exact true error - estimate|`.
    pub disc_exact: Summary,
    /// The closed-form expectation of the true error (no simulation; exact
    /// for the hold-out and for progressive validation without delay).
    pub expected_true: f64,
}

/// Group records by (procedure, n_train, s, delay, tie) and summarise each
/// group (groups in sorted order). `n_features` is needed for the
/// closed-form expectation.
pub fn summarize(records: &[BklRecord], n_features: usize) -> Vec<BklSummary> {
    use std::collections::BTreeMap;
    type Key = (Procedure, usize, usize, usize, TieKind);
    let mut groups: BTreeMap<Key, Vec<&BklRecord>> = BTreeMap::new();
    for r in records {
        groups
            .entry((r.procedure, r.n_train, r.s, r.delay, r.tie))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((procedure, n_train, s, delay, tie), rs)| {
            let col = |f: &dyn Fn(&BklRecord) -> f64| -> Vec<f64> {
                rs.iter().map(|r| f(r)).filter(|v| v.is_finite()).collect()
            };
            let expected_true = match procedure {
                Procedure::HoldOut => expected_true_error(n_features, n_train),
                Procedure::Progressive if delay == 0 => {
                    expected_progressive_true_error(n_features, n_train, s)
                }
                Procedure::Progressive => {
                    (0..s)
                        .map(|i| expected_true_error(n_features, n_train + i.saturating_sub(delay)))
                        .sum::<f64>()
                        / s as f64
                }
            };
            BklSummary {
                procedure,
                n_train,
                s,
                delay,
                tie,
                true_exact: Summary::of(&col(&|r| r.true_exact)),
                true_fresh: Summary::of(&col(&|r| r.true_fresh)),
                estimate: Summary::of(&col(&|r| r.estimate)),
                disc_fresh: Summary::of(&col(&|r| (r.true_fresh - r.estimate).abs())),
                disc_exact: Summary::of(&col(&|r| (r.true_exact - r.estimate).abs())),
                expected_true,
            }
        })
        .collect()
}
