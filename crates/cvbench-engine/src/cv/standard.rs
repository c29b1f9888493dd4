//! Standard k-fold CV: for each fold `i`, train a fresh model on every other
//! chunk and average the mean losses on the held-out chunks. Costs exactly
//! `(k - 1) n` point-updates.

use super::{feed, Chunks, Counters, CvOutcome, Order};
use crate::data::Dataset;
use crate::learners::IncrementalLearner;
use crate::seed;
use rayon::prelude::*;
use std::time::Instant;

/// Seed of fold `i`'s training phase under [`Order::Randomized`].
fn fold_seed(seed: u64, i: usize) -> u64 {
    seed::derive_ints(seed, &[u64::MAX, i as u64])
}

/// Train on every chunk but `i` and return the mean loss on chunk `i`.
fn fold<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    chunks: &Chunks,
    i: usize,
    order: Order,
    seed: u64,
    counters: &Counters,
) -> f64 {
    let mut model = learner.init(data);
    counters.born();
    let (before, after) = chunks.complement(i);
    feed(
        learner,
        &mut model,
        data,
        &[before, after],
        order,
        fold_seed(seed, i),
        counters,
    );
    let r = learner.mean_loss(&model, data, chunks.chunk(i));
    counters.died();
    r
}

/// Standard k-CV, one fold after another.
pub fn standard_cv<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    chunks: &Chunks,
    order: Order,
    seed: u64,
) -> CvOutcome {
    folds(learner, data, chunks, order, seed, false)
}

/// Standard k-CV with the folds in parallel on rayon (O(k) live models at
/// worst, like parallel TreeCV, and counted as k for any thread count). Same
/// estimate as [`standard_cv`]: the per-fold losses are summed in fold order.
pub fn standard_cv_parallel<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    chunks: &Chunks,
    order: Order,
    seed: u64,
) -> CvOutcome {
    folds(learner, data, chunks, order, seed, true)
}

/// Every fold's loss (in parallel or not), summed in fold order.
fn folds<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    chunks: &Chunks,
    order: Order,
    seed: u64,
    parallel: bool,
) -> CvOutcome {
    let start = Instant::now();
    let counters = Counters::default();
    let k = chunks.k();
    let one = |i| fold(learner, data, chunks, i, order, seed, &counters);
    let losses: Vec<f64> = if parallel {
        (0..k).into_par_iter().map(one).collect()
    } else {
        (0..k).map(one).collect()
    };
    CvOutcome {
        estimate: losses.iter().sum::<f64>() / k as f64,
        work: if parallel {
            counters.work_fully_parallel(k)
        } else {
            counters.work()
        },
        seconds: start.elapsed().as_secs_f64(),
    }
}
