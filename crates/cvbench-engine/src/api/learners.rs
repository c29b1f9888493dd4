//! The incremental learners (PEGASOS, LSQSGD, ridge, the eliminator) and
//! their CV strategies: TreeCV, standard k-fold CV, hold-out, progressive
//! validation and the k-fold hypothesis.

/// The learner interface, the learners, and a learner by its spec.
pub use crate::{
    learners::eliminator::{Eliminator, EliminatorModel, TieRule, Vote},
    learners::{AnyLearner, IncrementalLearner, LearnerSpec, LearnerType, Lsqsgd, Pegasos, Ridge},
};

/// Chunks (the folds of the incremental CVs), the work counters, a CV's
/// outcome, the row order, feeding points to a learner.
pub use crate::cv::{feed_points, Chunks, Counters, CvOutcome, Order};

/// TreeCV and its strategies; standard k-fold CV (sequential, parallel);
/// hold-out; progressive validation; the k-fold hypothesis and meta loss.
pub use crate::{
    cv::holdout::hold_out,
    cv::kfold_hypothesis::{contiguous_folds, kfold_hypothesis, meta_loss},
    cv::progressive::{progressive, progressive_with_truth},
    cv::standard::{standard_cv, standard_cv_parallel},
    cv::treecv::{treecv, Strategy},
};
