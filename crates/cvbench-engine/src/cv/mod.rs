//! Cross-validation procedures written once against
//! [`IncrementalLearner`](crate::learners::IncrementalLearner): standard k-CV,
//! TreeCV (Joulani et al. 2015, Algorithm 1), hold-out, progressive validation
//! (with delay) and the k-fold hypothesis (Blum, Kalai & Langford 1999).

// Hidden from the public docs (lib.rs): links to private items resolve
// in the `--document-private-items` view.
#![allow(rustdoc::private_intra_doc_links)]

pub mod counters;
pub mod error;
pub mod folds;
pub mod holdout;
pub mod kfold_hypothesis;
pub mod progressive;
pub mod standard;
pub mod treecv;

use crate::data::Dataset;
use crate::learners::IncrementalLearner;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

pub use counters::{Counters, Work};
pub use error::CvError;
pub use folds::Chunks;

/// The order in which a training phase feeds its points (TreeCV paper §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// One fixed ordering of the chunks and of the points in each chunk.
    Fixed,
    /// Each training phase feeds its points in a fresh random order.
    Randomized,
}

impl Order {
    /// Every order, in the order help texts list them.
    pub const ALL: &'static [Order] = &[Order::Fixed, Order::Randomized];

    /// The order of a name ([`Order::as_str`]).
    pub fn parse(name: &str) -> Option<Order> {
        Order::ALL.iter().copied().find(|o| o.as_str() == name)
    }

    /// Lower-case name used in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Fixed => "fixed",
            Order::Randomized => "randomized",
        }
    }
}

/// The result of one CV run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CvOutcome {
    /// The CV estimate `(1/k) sum_i R_i`, `R_i` the mean loss on chunk `i`.
    pub estimate: f64,
    /// Work done.
    pub work: Work,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Feed `parts` (concatenated, in order) to `model`: as they are for
/// [`Order::Fixed`], shuffled with a generator seeded by `seed` for
/// [`Order::Randomized`]. Counts the point-updates.
pub(crate) fn feed<L: IncrementalLearner>(
    learner: &L,
    model: &mut L::Model,
    data: &Dataset,
    parts: &[&[usize]],
    order: Order,
    seed: u64,
    counters: &Counters,
) {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    counters.updated(total);
    match order {
        Order::Fixed => {
            for p in parts {
                learner.update(model, data, p);
            }
        }
        Order::Randomized => {
            let mut pts: Vec<usize> = Vec::with_capacity(total);
            for p in parts {
                pts.extend_from_slice(p);
            }
            pts.shuffle(&mut crate::seed::rng(seed));
            learner.update(model, data, &pts);
        }
    }
}

/// Feed one slice of points (see [`feed`]); public for callers outside `cv`.
pub fn feed_points<L: IncrementalLearner>(
    learner: &L,
    model: &mut L::Model,
    data: &Dataset,
    points: &[usize],
    order: Order,
    seed: u64,
    counters: &Counters,
) {
    feed(learner, model, data, &[points], order, seed, counters);
}

/// The points of `parts` in the order [`feed`] would use (for journaled updates).
pub(crate) fn ordered(parts: &[&[usize]], order: Order, seed: u64) -> Vec<usize> {
    let mut pts: Vec<usize> = parts.iter().flat_map(|p| p.iter().copied()).collect();
    if order == Order::Randomized {
        pts.shuffle(&mut crate::seed::rng(seed));
    }
    pts
}

/// Check that every index in `points` is a row of a dataset with `n` rows.
pub(crate) fn check_rows(points: &[usize], n: usize, what: &'static str) -> Result<(), CvError> {
    match points.iter().find(|&&i| i >= n) {
        Some(&i) => Err(CvError::RowOutOfRange { what, row: i, n }),
        None => Ok(()),
    }
}
