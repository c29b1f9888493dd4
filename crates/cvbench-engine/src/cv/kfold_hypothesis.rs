//! The k-fold hypothesis of Blum, Kalai & Langford (1999), Section 3.
//!
//! Hypothesis `h_i` is trained on every fold but fold `i` and tested on fold
//! `i`. The k-fold estimate is the mean of the `k` fold estimates; the
//! *k-fold hypothesis* picks one of `h_1..h_k` uniformly at random for each
//! query (or, equivalently in true error under L1 loss, predicts their
//! average), so its true error is the mean of theirs. Theorems 1–3 compare
//! `|estimate - true error|` with that of a single hold-out of `n/k` points,
//! which is exactly fold 1 of the same run.
//!
//! Theorem 2 assumes a learner insensitive to the order of its training data;
//! pass shuffled folds (or an order-insensitive learner) to honour it.

use rand::seq::SliceRandom;

use super::{check_rows, CvError};
use crate::data::Dataset;
use crate::learners::IncrementalLearner;

/// The result of a k-fold-hypothesis run.
#[derive(Clone, Debug)]
pub struct KFoldHypothesis {
    /// `fold_estimates[i]`: mean loss of `h_i` on fold `i`.
    pub fold_estimates: Vec<f64>,
    /// The k-fold estimate: the mean of the fold estimates.
    pub estimate: f64,
}

/// Split `order` into `k` contiguous folds whose sizes differ by at most one
/// (the first `n mod k` folds get the extra point).
pub fn contiguous_folds(order: &[usize], k: usize) -> Result<Vec<Vec<usize>>, CvError> {
    let n = order.len();
    if k < 2 || k > n {
        return Err(CvError::BadFoldCount { k, n });
    }
    let (q, r) = (n / k, n % k);
    let mut folds = Vec::with_capacity(k);
    let mut start = 0;
    for i in 0..k {
        let len = q + usize::from(i < r);
        folds.push(order[start..start + len].to_vec());
        start += len;
    }
    Ok(folds)
}

/// Run the k-fold procedure over `folds`. `h_i` is trained on the other folds
/// in fold order (each fold's points in their given order) or, with
/// `shuffle = Some(seed)`, on the same points in a random order drawn afresh
/// for each `h_i` (what Theorem 2 asks of order-sensitive learners).
///
/// `visit(i, h_i)` is called with each fold hypothesis: use it to record the
/// fold hypotheses' true errors (the k-fold hypothesis' is their mean).
pub fn kfold_hypothesis<L, F>(
    learner: &L,
    data: &Dataset,
    folds: &[Vec<usize>],
    shuffle: Option<u64>,
    mut visit: F,
) -> Result<KFoldHypothesis, CvError>
where
    L: IncrementalLearner,
    F: FnMut(usize, &L::Model),
{
    let n: usize = folds.iter().map(Vec::len).sum();
    if folds.len() < 2 {
        return Err(CvError::BadFoldCount { k: folds.len(), n });
    }
    for f in folds {
        check_rows(f, data.n(), "fold")?;
        if f.is_empty() {
            return Err(CvError::Empty("fold"));
        }
    }
    let mut fold_estimates = Vec::with_capacity(folds.len());
    for i in 0..folds.len() {
        let mut model = learner.init(data);
        let mut train: Vec<usize> = folds
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .flat_map(|(_, f)| f.iter().copied())
            .collect();
        if let Some(seed) = shuffle {
            train.shuffle(&mut crate::seed::rng(crate::seed::derive_ints(
                seed,
                &[i as u64],
            )));
        }
        learner.update(&mut model, data, &train);
        visit(i, &model);
        fold_estimates.push(learner.mean_loss(&model, data, &folds[i]));
    }
    let estimate = fold_estimates.iter().sum::<f64>() / fold_estimates.len() as f64;
    Ok(KFoldHypothesis {
        fold_estimates,
        estimate,
    })
}

/// The loss of a randomized meta-hypothesis (k-fold or progressive) on row
/// `i`: with `pick = Some(j)`, the loss of `models[j]` (the random choice made
/// by the caller); with `None`, the mean of the members' losses (the expected
/// loss over the random choice, i.e. the L1 loss of the averaged prediction
/// for 0/1 losses).
pub fn meta_loss<L: IncrementalLearner>(
    learner: &L,
    models: &[L::Model],
    data: &Dataset,
    i: usize,
    pick: Option<usize>,
) -> f64 {
    match pick {
        Some(j) => learner.loss(&models[j], data, i),
        None if models.is_empty() => 0.0,
        None => models.iter().map(|m| learner.loss(m, data, i)).sum::<f64>() / models.len() as f64,
    }
}
