//! Progressive validation (Blum, Kalai & Langford 1999, Section 4).
//!
//! Split the data into a training set and a progressive (test) set of `s`
//! points. Hypothesis `h_i` (`i = 1..s`) is trained on the training set plus
//! the first `i - 1` progressive points and tested on progressive point `i`.
//! The progressive estimate is the mean of the `s` losses; the *progressive
//! hypothesis* picks one of `h_1..h_s` uniformly at random for each query, so
//! its true error is the mean of their true errors.
//!
//! With a *delay* `d`, progressive point `i` joins the training data only `d`
//! points later: `h_i` is trained on the training set plus the first
//! `max(0, i - 1 - d)` progressive points (as when labels arrive late).
//! Each `h_i` is still independent of point `i`, so the estimate keeps its
//! Hoeffding bound. `d = 0` is the paper's procedure; `d >= s - 1` is the
//! hold-out.
//!
//! The learner sees every point once: the cost is one pass, not `s` retrainings.

use super::{check_rows, CvError};
use crate::data::Dataset;
use crate::learners::IncrementalLearner;

/// The result of a progressive-validation run.
#[derive(Clone, Debug)]
pub struct Progressive<M> {
    /// `losses[i]` is the loss of hypothesis `h_{i+1}` on progressive point `i`.
    pub losses: Vec<f64>,
    /// The progressive estimate: the mean of `losses`.
    pub estimate: f64,
    /// The model trained on the training set and every progressive point.
    pub final_model: M,
}

impl<M> Progressive<M> {
    /// The running progressive loss: entry `t` is the mean of the first
    /// `t + 1` losses (what online-learning tools report as progressive loss).
    pub fn running_loss(&self) -> Vec<f64> {
        let mut sum = 0.0;
        self.losses
            .iter()
            .enumerate()
            .map(|(t, l)| {
                sum += l;
                sum / (t + 1) as f64
            })
            .collect()
    }
}

/// Run progressive validation: train on `train`, then validate progressively
/// on `test` (in order) with the given `delay`.
///
/// `visit(i, h)` is called with each hypothesis `h = h_{i+1}` just before it
/// is tested on `test[i]`: use it to record true errors (the progressive
/// hypothesis' true error is their mean) or to evaluate at checkpoints.
pub fn progressive<L, F>(
    learner: &L,
    data: &Dataset,
    train: &[usize],
    test: &[usize],
    delay: usize,
    mut visit: F,
) -> Result<Progressive<L::Model>, CvError>
where
    L: IncrementalLearner,
    F: FnMut(usize, &L::Model),
{
    check_rows(train, data.n(), "training set")?;
    check_rows(test, data.n(), "progressive set")?;
    if test.is_empty() {
        return Err(CvError::Empty("progressive set"));
    }
    let mut model = learner.init(data);
    learner.update(&mut model, data, train);
    let mut absorbed = 0;
    let mut losses = Vec::with_capacity(test.len());
    for (i, &p) in test.iter().enumerate() {
        let target = i.saturating_sub(delay);
        if target > absorbed {
            learner.update(&mut model, data, &test[absorbed..target]);
            absorbed = target;
        }
        visit(i, &model);
        losses.push(learner.loss(&model, data, p));
    }
    learner.update(&mut model, data, &test[absorbed..]);
    let estimate = losses.iter().sum::<f64>() / losses.len() as f64;
    Ok(Progressive {
        losses,
        estimate,
        final_model: model,
    })
}

/// Progressive validation that also returns each hypothesis' true error as
/// computed by `true_error`; the progressive hypothesis' true error is the
/// mean of the returned vector.
pub fn progressive_with_truth<L, F>(
    learner: &L,
    data: &Dataset,
    train: &[usize],
    test: &[usize],
    delay: usize,
    mut true_error: F,
) -> Result<(Progressive<L::Model>, Vec<f64>), CvError>
where
    L: IncrementalLearner,
    F: FnMut(&L::Model) -> f64,
{
    let mut truths = Vec::with_capacity(test.len());
    let pv = progressive(learner, data, train, test, delay, |_, m| {
        truths.push(true_error(m))
    })?;
    Ok((pv, truths))
}
