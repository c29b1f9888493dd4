//! Alpha seeding for SVM k-fold cross-validation (Wen et al., AAAI 2017).
//!
//! Round `h` trains on every fold but fold `h`. Going from round `h` to round
//! `h + 1`, the training set loses `R` (fold `h + 1`) and gains `T` (fold
//! `h`); the `k - 2` shared folds `S` keep their rows. A [`Seeder`] takes the
//! previous round's optimum (alphas, gradient) and `R`, `T`, and returns
//! initial alphas for the next training set (`S ∪ T`, in the next round's
//! row order) that satisfy the box `0 <= alpha_i <= C` and the equality
//! `sum_i y_i alpha_i = 0`. SMO then runs from there to the same stopping
//! rule as the baseline, so every method reaches the baseline's optimum.
//!
//! One file per method, each named for it:
//! - [`zero`]: the baseline (every round from `alpha = 0`, LIBSVM's `-v`).
//! - [`carry`]: the previous alphas carried over, joining rows at 0 (the tree's warm start).
//! - [`ato`]: Adjusting alpha Towards Optimum (path following, eq. 7, 10, 11).
//! - [`mir`]: Multiple Instance Replacement (least squares, eq. 17, 18).
//! - [`sir`]: Single Instance Replacement (kernel nearest same-label row).
//! - [`avg`]: DeCoste & Wagstaff 2000 (leave-one-out only).
//! - [`top`]: Lee et al. 2004 (leave-one-out only).
//! - [`adjust`]: the box clip and uniform shift that restore the equality
//!   constraint (MIR's "AdjustAlpha", also used by SIR and AVG).
//! - [`linalg`]: the dense solves (faer) that ATO and MIR need.
//! - [`gradient`]: the seed's `G` and `G_bar`, updated from the previous round.
//! - [`round`]: what a seeder works with (context, previous optimum, the
//!   step to the next round) and the [`Seeder`] trait.
//! - `tests`: the seeders' invariants.
//!
//! The registries of seeders, round orders and the paper's presets live in
//! [`crate::svm::cv::strategy`]; the round orders themselves in
//! [`crate::svm::cv::seeded`].

pub mod adjust;
pub mod ato;
pub mod avg;
pub mod carry;
pub mod gradient;
pub mod linalg;
pub mod mir;
pub mod round;
pub mod sir;
pub mod top;
pub mod zero;

pub use round::{Previous, Round, SeedContext, Seeder, Transition};

pub use crate::svm::cv::strategy::SeedingMethod;

#[cfg(test)]
mod tests;
