//! The hold-out procedure: train on one set of points, measure the mean loss
//! on another.

use super::{check_rows, CvError};
use crate::data::Dataset;
use crate::learners::IncrementalLearner;

/// The result of a hold-out run.
#[derive(Clone, Debug)]
pub struct HoldOut<M> {
    /// The hypothesis, trained on the training points (in the given order).
    pub model: M,
    /// Its loss on each test point, in order.
    pub losses: Vec<f64>,
    /// The hold-out estimate: the mean of `losses`.
    pub estimate: f64,
}

/// Train `learner` from scratch on `train` (in order) and test it on `test`.
///
/// The true error of the hold-out hypothesis is that of `model`; compute it
/// with whatever the caller knows about the distribution.
pub fn hold_out<L: IncrementalLearner>(
    learner: &L,
    data: &Dataset,
    train: &[usize],
    test: &[usize],
) -> Result<HoldOut<L::Model>, CvError> {
    check_rows(train, data.n(), "training set")?;
    check_rows(test, data.n(), "hold-out set")?;
    if test.is_empty() {
        return Err(CvError::Empty("hold-out set"));
    }
    let mut model = learner.init(data);
    learner.update(&mut model, data, train);
    let losses: Vec<f64> = test
        .iter()
        .map(|&i| learner.loss(&model, data, i))
        .collect();
    let estimate = losses.iter().sum::<f64>() / losses.len() as f64;
    Ok(HoldOut {
        model,
        losses,
        estimate,
    })
}
