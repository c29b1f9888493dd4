//! Running a progressive cell: a BKL run, a theorem check on a population,
//! or one repetition of a stream, turned into [`Row`]s and records.

use std::sync::Arc;

use super::paper::run_bkl;
use super::plan::{PopInst, ProgressivePlan, StreamData, Work};
use super::rows::{finite, procedure_name, Row};
use super::stream::{progressive_stream, StreamResult, StreamSpec};
use super::theorems::{
    run_kfold_check, run_progressive_check, DatasetPopulation, KFoldCheck, ProgressiveCheck,
};
use super::ProgressiveError;
use crate::experiments::{finite_or_fail, ExperimentError, Plan, PlanHead};
use crate::results::rows::{to_records, Core};
use crate::results::Record;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::AnyLearner;
use cvbench_engine::api::seed;

/// A cell's error, naming the cell.
pub(super) fn cell_err(key: &str, e: impl std::fmt::Display) -> ExperimentError {
    ExperimentError::Cell {
        cell: key.to_string(),
        message: e.to_string(),
    }
}

/// Run `$body` with `$l` bound to the concrete learner inside an
/// [`AnyLearner`].
macro_rules! with_learner {
    ($learner:expr, $l:ident => $body:expr) => {
        match $learner {
            AnyLearner::Pegasos($l) => $body,
            AnyLearner::Lsqsgd($l) => $body,
            AnyLearner::Ridge($l) => $body,
        }
    };
}

/// Run `$body` (a `Result<_, ProgressiveError>`) with `$p` bound to the
/// [`Population`](super::theorems::Population) of a planned population (the
/// synthetic problem, or a real learner on its training pool and test set).
macro_rules! with_population {
    ($pop:expr, $p:ident => $body:expr) => {
        match $pop {
            PopInst::Synthetic($p) => $body,
            PopInst::Real {
                train,
                test,
                learner,
                ..
            } => with_learner!(learner, l => {
                DatasetPopulation::new(l.clone(), train, test).and_then(|pop| {
                    let $p = &pop;
                    $body
                })
            }),
        }
    };
}

impl Plan for ProgressivePlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let key = &self.head.cells[i].key;
        let cell_seed = self.head.cells[i].seed;
        let core = || self.head.core(i);
        // Every estimate and true error must be a number: a NaN or an
        // infinity fails the cell (it would otherwise be stored as absent).
        let must = |what: &str, values: &mut dyn Iterator<Item = f64>| {
            for v in values {
                finite_or_fail(key, what, v)?;
            }
            Ok::<(), ExperimentError>(())
        };
        let rows = match &self.work[i] {
            Work::Bkl { study, run } => {
                let recs = run_bkl(run).map_err(|e| cell_err(key, e))?;
                must("the estimate", &mut recs.iter().map(|r| r.estimate))?;
                must("the true error", &mut recs.iter().map(|r| r.true_exact))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: (*study).to_string(),
                        learner: format!("eliminator(tie={})", r.tie.label()),
                        tie: r.tie.label().into(),
                        n: Some((r.n_train + r.s) as i64),
                        n_train: Some(r.n_train as i64),
                        s: Some(r.s as i64),
                        delay: Some(r.delay as i64),
                        estimate: finite(r.estimate),
                        true_error: finite(r.true_exact),
                        true_fresh: finite(r.true_fresh),
                        survivors: Some(r.survivors as i64),
                        ..Row::new(
                            core(),
                            r.rep,
                            format!("synthetic-bkl(N={})", run.n_features),
                            procedure_name(r.procedure),
                        )
                    })
                    .collect::<Vec<Row>>()
            }
            Work::KFold { pop, n, k, reps } => {
                let p = &self.pops[*pop];
                let check = KFoldCheck {
                    n: *n,
                    k: *k,
                    reps: *reps,
                    shuffle: matches!(p, PopInst::Real { shuffle: true, .. }),
                    seed: cell_seed,
                };
                let recs = with_population!(p, pop => run_kfold_check(pop, &check))
                    .map_err(|e| cell_err(key, e))?;
                let values = recs.iter().flat_map(|r| [r.est_k, r.est_1]);
                must("the k-fold or hold-out estimate", &mut values.into_iter())?;
                let values = recs.iter().flat_map(|r| [r.true_k, r.true_1]);
                must("the true error", &mut values.into_iter())?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "kfold".into(),
                        learner: p.learner(),
                        n: Some(r.n as i64),
                        n_train: Some((r.n - r.n / r.k) as i64),
                        s: Some((r.n / r.k) as i64),
                        k: Some(r.k as i64),
                        estimate: finite(r.est_k),
                        true_error: finite(r.true_k),
                        holdout_estimate: finite(r.est_1),
                        holdout_true: finite(r.true_1),
                        ..Row::new(core(), r.rep, p.name(), "kfold")
                    })
                    .collect()
            }
            Work::Pv {
                pop,
                n_train,
                s,
                reps,
            } => {
                let p = &self.pops[*pop];
                let check = ProgressiveCheck {
                    n_train: *n_train,
                    s: *s,
                    reps: *reps,
                    seed: cell_seed,
                };
                let recs = with_population!(p, pop => run_progressive_check(pop, &check))
                    .map_err(|e| cell_err(key, e))?;
                let values = recs.iter().flat_map(|r| [r.est_p, r.est_ho]);
                must(
                    "the progressive or hold-out estimate",
                    &mut values.into_iter(),
                )?;
                let values = recs.iter().flat_map(|r| [r.true_p, r.true_ho]);
                must("the true error", &mut values.into_iter())?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "progressive_check".into(),
                        learner: p.learner(),
                        n: Some((r.n_train + r.s) as i64),
                        n_train: Some(r.n_train as i64),
                        s: Some(r.s as i64),
                        delay: Some(0),
                        estimate: finite(r.est_p),
                        true_error: finite(r.true_p),
                        fresh_estimate: finite(r.fresh_p),
                        holdout_estimate: finite(r.est_ho),
                        holdout_true: finite(r.true_ho),
                        ..Row::new(core(), r.rep, p.name(), "progressive")
                    })
                    .collect()
            }
            Work::Stream { data, learner, rep } => {
                let sd = &self.streams[*data];
                let (rows, res) = stream_rows(core(), sd, learner, *rep, cell_seed)
                    .map_err(|e| cell_err(key, e))?;
                let estimates = [res.progressive_estimate, res.holdout_estimate];
                must(
                    "the progressive or hold-out estimate",
                    &mut estimates.into_iter(),
                )?;
                let running = res.points.iter().map(|p| p.running_loss);
                must("the running progressive loss", &mut running.into_iter())?;
                let errors = [res.final_test_error, res.holdout_test_error];
                let errors = errors
                    .into_iter()
                    .chain(res.points.iter().map(|p| p.test_error));
                must("a test-set error", &mut errors.into_iter())?;
                rows
            }
        };
        Ok(to_records(&rows)?)
    }
}

fn stream_rows(
    core: Core,
    sd: &StreamData,
    learner: &AnyLearner,
    rep: usize,
    seed: u64,
) -> Result<(Vec<Row>, StreamResult), ProgressiveError> {
    let b = &sd.block;
    let train: Arc<Dataset> = match b.n {
        Some(n) if n < sd.train.n() => {
            let rows = rand::seq::index::sample(
                &mut seed::rng(seed::derive(seed, "subsample")),
                sd.train.n(),
                n,
            )
            .into_vec();
            Arc::new(sd.train.subset(&rows, sd.train.name.clone()))
        }
        _ => sd.train.clone(),
    };
    let holdout =
        ((train.n() as f64 * b.holdout_fraction).round() as usize).clamp(1, train.n() - 1);
    let spec = StreamSpec {
        checkpoints: b.checkpoints,
        holdout,
        members: b.members,
        seed,
    };
    let res = with_learner!(learner, l => progressive_stream(l, &train, &sd.test, &spec)?);
    let base = Row {
        learner: learner.short().to_string(),
        n: Some(res.n as i64),
        delay: Some(0),
        ..Row::new(core, rep, train.name.clone(), "progressive")
    };
    let mut rows: Vec<Row> = res
        .points
        .iter()
        .map(|p| Row {
            study: "stream".into(),
            t: Some(p.t as i64),
            estimate: finite(p.running_loss),
            test_error: finite(p.test_error),
            ..base.clone()
        })
        .collect();
    rows.push(Row {
        study: "stream_summary".into(),
        s: Some(res.holdout as i64),
        estimate: finite(res.progressive_estimate),
        true_error: finite(res.progressive_true),
        true_fresh: finite(res.progressive_true_se),
        holdout_estimate: finite(res.holdout_estimate),
        holdout_true: finite(res.holdout_test_error),
        test_error: finite(res.final_test_error),
        ..base
    });
    Ok((rows, res))
}
