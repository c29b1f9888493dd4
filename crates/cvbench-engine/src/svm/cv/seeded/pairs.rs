//! One class pair's seeded CV inside a one-vs-one run
//! ([`crate::svm::multiclass::seeded`]): the same [`Run`] (round orders and
//! seeders unchanged) on the pair's rows of every fold, on the whole
//! dataset's kernel data and a shared kernel cache keyed by the dataset's
//! row, keeping each round's final solution for the fold's one-vs-one
//! model.

use std::sync::Mutex;

use super::{ExtraSolve, Kept, Run};
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::rounds::CvRound;
use crate::svm::cv::strategy::CvStrategy;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;

/// What [`run_pair`] returns.
#[derive(Clone, Debug)]
pub(crate) struct PairRun {
    /// The rounds, in fold order (their predictions are the pair's own
    /// held-out rows; the one-vs-one vote predicts every row).
    pub rounds: Vec<CvRound>,
    /// Solves beyond the rounds (a tree's inner nodes).
    pub extra: Vec<ExtraSolve>,
    /// Each round's final solution, in fold order.
    pub kept: Vec<Kept>,
}

/// The seeded CV of one class pair: `folds` hold the pair's rows of each
/// fold (dataset rows of `kd`, in the folds' order; other rows are in no
/// fold), `positive` is the label whose rows are `+1` in the seeders'
/// convention, `params.cache_mb` the column cache of one solve.
pub(crate) fn run_pair(
    kd: &KernelData<'_>,
    folds: &Folds,
    params: &CheckedParams,
    strategy: &CvStrategy,
    seed: u64,
    shared: Option<&SharedKernelCache>,
    positive: f64,
) -> Result<PairRun, SvmError> {
    let k = folds.k();
    let y = kd
        .ds
        .y
        .iter()
        .map(|&v| if v == positive { 1 } else { -1 })
        .collect();
    let run = Run {
        kd,
        folds,
        params: params.clone(),
        seeder: strategy.seeder.make(),
        shared,
        y,
        seed,
        parallel: strategy.threads > 1,
        rounds: k,
        kept: Some(Mutex::new(vec![None; k])),
    };
    let (results, extra) = run.rounds(strategy.order)?;
    let mut rounds = results
        .into_iter()
        .map(|r| r.map(|(round, _)| round))
        .collect::<Result<Vec<_>, _>>()?;
    rounds.sort_by_key(|r| r.fold);
    let kept = run
        .kept
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(h, s)| {
            s.ok_or_else(|| {
                SvmError::InvalidFolds(format!("round {h} of a class pair did not run"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PairRun {
        rounds,
        extra,
        kept,
    })
}
