//! Running a progressive cell: a BKL run, a theorem check on a population,
//! or one repetition of a stream, turned into [`Row`]s and records.

use std::sync::Arc;

use super::paper::run_bkl;
use super::plan::{PopInst, ProgressivePlan, StreamData, Work};
use super::rows::{procedure_name, Row};
use super::stream::{progressive_stream, StreamSpec};
use super::theorems::{
    run_kfold_check, run_progressive_check, DatasetPopulation, KFoldCheck, KFoldRecord,
    ProgressiveCheck, ProgressiveRecord,
};
use super::ProgressiveError;
use crate::data::Dataset;
use crate::experiments::{ExperimentError, Plan, PlanHead};
use crate::learners::AnyLearner;
use crate::results::Record;
use crate::seed;

/// A cell's error, naming the cell.
pub(super) fn cell_err(key: &str, e: impl std::fmt::Display) -> ExperimentError {
    ExperimentError::Cell {
        cell: key.to_string(),
        message: e.to_string(),
    }
}

impl Plan for ProgressivePlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let key = &self.head.cells[i].key;
        let cell_seed = self.head.cells[i].seed;
        let rows = match &self.work[i] {
            Work::Bkl { study, run } => {
                let recs = run_bkl(run).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: (*study).to_string(),
                        population: format!("synthetic-bkl(N={})", run.n_features),
                        learner: format!("eliminator(tie={})", r.tie.label()),
                        procedure: procedure_name(r.procedure).into(),
                        tie: r.tie.label().into(),
                        n: (r.n_train + r.s) as i64,
                        n_train: r.n_train as i64,
                        s: r.s as i64,
                        delay: r.delay as i64,
                        rep: r.rep as i64,
                        estimate: r.estimate,
                        true_error: r.true_exact,
                        true_fresh: r.true_fresh,
                        survivors: r.survivors as i64,
                        ..Row::default()
                    })
                    .collect::<Vec<Row>>()
            }
            Work::KFold { pop, n, k, reps } => {
                let p = &self.pops[*pop];
                let recs = kfold_on(p, *n, *k, *reps, cell_seed).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "kfold".into(),
                        population: p.name(),
                        learner: p.learner(),
                        procedure: "kfold".into(),
                        n: r.n as i64,
                        n_train: (r.n - r.n / r.k) as i64,
                        s: (r.n / r.k) as i64,
                        k: r.k as i64,
                        rep: r.rep as i64,
                        estimate: r.est_k,
                        true_error: r.true_k,
                        holdout_estimate: r.est_1,
                        holdout_true: r.true_1,
                        ..Row::default()
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
                let recs =
                    pv_on(p, *n_train, *s, *reps, cell_seed).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "progressive_check".into(),
                        population: p.name(),
                        learner: p.learner(),
                        procedure: "progressive".into(),
                        n: (r.n_train + r.s) as i64,
                        n_train: r.n_train as i64,
                        s: r.s as i64,
                        delay: 0,
                        rep: r.rep as i64,
                        estimate: r.est_p,
                        true_error: r.true_p,
                        fresh_estimate: r.fresh_p,
                        holdout_estimate: r.est_ho,
                        holdout_true: r.true_ho,
                        ..Row::default()
                    })
                    .collect()
            }
            Work::Stream { data, learner, rep } => {
                let sd = &self.streams[*data];
                stream_rows(sd, learner, *rep, cell_seed).map_err(|e| cell_err(key, e))?
            }
        };
        Ok(rows.iter().map(Row::record).collect())
    }
}

fn kfold_on(
    p: &PopInst,
    n: usize,
    k: usize,
    reps: usize,
    seed: u64,
) -> Result<Vec<KFoldRecord>, ProgressiveError> {
    match p {
        PopInst::Synthetic(pop) => run_kfold_check(
            pop,
            &KFoldCheck {
                n,
                k,
                reps,
                shuffle: false,
                seed,
            },
        ),
        PopInst::Real {
            train,
            test,
            learner,
            shuffle,
        } => {
            let check = KFoldCheck {
                n,
                k,
                reps,
                shuffle: *shuffle,
                seed,
            };
            match learner {
                AnyLearner::Pegasos(l) => {
                    run_kfold_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
                }
                AnyLearner::Lsqsgd(l) => {
                    run_kfold_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
                }
                AnyLearner::Ridge(l) => {
                    run_kfold_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
                }
            }
        }
    }
}

fn pv_on(
    p: &PopInst,
    n_train: usize,
    s: usize,
    reps: usize,
    seed: u64,
) -> Result<Vec<ProgressiveRecord>, ProgressiveError> {
    let check = ProgressiveCheck {
        n_train,
        s,
        reps,
        seed,
    };
    match p {
        PopInst::Synthetic(pop) => run_progressive_check(pop, &check),
        PopInst::Real {
            train,
            test,
            learner,
            ..
        } => match learner {
            AnyLearner::Pegasos(l) => {
                run_progressive_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
            }
            AnyLearner::Lsqsgd(l) => {
                run_progressive_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
            }
            AnyLearner::Ridge(l) => {
                run_progressive_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
            }
        },
    }
}

fn stream_rows(
    sd: &StreamData,
    learner: &AnyLearner,
    rep: usize,
    seed: u64,
) -> Result<Vec<Row>, ProgressiveError> {
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
    let res = match learner {
        AnyLearner::Pegasos(l) => progressive_stream(l, &train, &sd.test, &spec)?,
        AnyLearner::Lsqsgd(l) => progressive_stream(l, &train, &sd.test, &spec)?,
        AnyLearner::Ridge(l) => progressive_stream(l, &train, &sd.test, &spec)?,
    };
    let base = Row {
        population: train.name.clone(),
        learner: learner.short().to_string(),
        procedure: "progressive".into(),
        n: res.n as i64,
        rep: rep as i64,
        delay: 0,
        ..Row::default()
    };
    let mut rows: Vec<Row> = res
        .points
        .iter()
        .map(|p| Row {
            study: "stream".into(),
            t: p.t as i64,
            estimate: p.running_loss,
            test_error: p.test_error,
            ..base.clone()
        })
        .collect();
    rows.push(Row {
        study: "stream_summary".into(),
        s: res.holdout as i64,
        estimate: res.progressive_estimate,
        true_error: res.progressive_true,
        true_fresh: res.progressive_true_se,
        holdout_estimate: res.holdout_estimate,
        holdout_true: res.holdout_test_error,
        test_error: res.final_test_error,
        ..base
    });
    Ok(rows)
}
