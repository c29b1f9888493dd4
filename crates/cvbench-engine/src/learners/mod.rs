//! Incremental learners: one interface that TreeCV, standard k-CV, hold-out and
//! progressive validation are all written against once.
//!
//! A learner maps a model and a batch of points (fed in the given order) to an
//! updated model. Models are `Clone` (the *copy* strategy of TreeCV); a learner
//! also offers [`IncrementalLearner::update_journaled`] and
//! [`IncrementalLearner::revert`] (the *save/revert* strategy). Learners whose
//! updates can be undone exactly (sufficient statistics) keep a tiny journal;
//! the others journal a snapshot of the model.

// Hidden from the public docs (lib.rs): links to private items resolve
// in the `--document-private-items` view.
#![allow(rustdoc::private_intra_doc_links)]

use crate::data::Dataset;

pub mod eliminator;

/// A learner that can be trained incrementally, one batch of points at a time.
pub trait IncrementalLearner: Sync {
    /// The model (state of the learner), including any step counters.
    type Model: Clone + Send + Sync;
    /// What [`update_journaled`](Self::update_journaled) records to undo an update.
    type Journal: Send;

    /// A short name for outputs, with hyper-parameters, e.g. `pegasos(lambda=1e-6)`.
    fn name(&self) -> String;

    /// The model trained on no data. `data` gives the feature count (and,
    /// for learners whose step size depends on it, the dataset size).
    fn init(&self, data: &Dataset) -> Self::Model;

    /// Feed the points `points` (row indices of `data`) to the model, in order.
    fn update(&self, model: &mut Self::Model, data: &Dataset, points: &[usize]);

    /// The loss of `model` on row `i` of `data`.
    fn loss(&self, model: &Self::Model, data: &Dataset, i: usize) -> f64;

    /// Like [`update`](Self::update), but return what is needed to undo it.
    fn update_journaled(
        &self,
        model: &mut Self::Model,
        data: &Dataset,
        points: &[usize],
    ) -> Self::Journal;

    /// Undo the update that produced `journal` (the last journaled update not
    /// yet reverted on this model).
    fn revert(&self, model: &mut Self::Model, data: &Dataset, journal: Self::Journal);

    /// Mean loss of `model` over the rows `points`.
    fn mean_loss(&self, model: &Self::Model, data: &Dataset, points: &[usize]) -> f64 {
        if points.is_empty() {
            return 0.0;
        }
        points
            .iter()
            .map(|&i| self.loss(model, data, i))
            .sum::<f64>()
            / points.len() as f64
    }
}

pub mod lsqsgd;
pub mod pegasos;
pub mod ridge;
pub mod spec;

pub use lsqsgd::Lsqsgd;
pub use pegasos::Pegasos;
pub use ridge::Ridge;
pub use spec::{AnyLearner, LearnerSpec, LearnerType};

/// A learner's parameters are invalid: what the constructors
/// ([`Pegasos::new`], [`Lsqsgd::new`], [`Ridge::new`]) and
/// [`LearnerSpec::check`] return.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LearnerError {
    /// A parameter that must be a finite number > 0 is not.
    #[error("`{key}` must be finite and > 0, got {value}")]
    NotPositive {
        /// The parameter's key (`lambda`, `step`, `radius`).
        key: &'static str,
        /// The value given.
        value: f64,
    },
    /// The data is too wide for the learner's model (ridge's d × d matrix).
    #[error(
        "{learner} keeps a d × d matrix: {d} features is more than its limit of {max} ({what})"
    )]
    TooWide {
        /// The learner's name.
        learner: String,
        /// The data's feature count.
        d: usize,
        /// The most features the learner takes.
        max: usize,
        /// What the limit protects.
        what: &'static str,
    },
    /// A spec key that the learner type does not take.
    #[error("`{key}` applies to {applies_to} only, not to {learner}")]
    NotApplicable {
        /// The key.
        key: &'static str,
        /// The spec's learner type.
        learner: &'static str,
        /// The learner types that take the key.
        applies_to: String,
    },
}

/// `value` if it is finite and > 0, else [`LearnerError::NotPositive`] naming `key`.
pub(crate) fn positive(key: &'static str, value: f64) -> Result<f64, LearnerError> {
    if value > 0.0 && value.is_finite() {
        Ok(value)
    } else {
        Err(LearnerError::NotPositive { key, value })
    }
}
