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
//! - [`ato`]: Adjusting alpha Towards Optimum (path following, eq. 7, 10, 11).
//! - [`mir`]: Multiple Instance Replacement (least squares, eq. 17, 18).
//! - [`sir`]: Single Instance Replacement (kernel nearest same-label row).
//! - [`avg`]: DeCoste & Wagstaff 2000 (leave-one-out only).
//! - [`top`]: Lee et al. 2004 (leave-one-out only).
//! - [`adjust`]: the box clip and uniform shift that restore the equality
//!   constraint (MIR's "AdjustAlpha", also used by SIR and AVG).
//! - [`linalg`]: the dense solves (faer) that ATO and MIR need.
//! - [`gradient`]: the seed's `G` and `G_bar`, updated from the previous round.
//!
//! The round orders (the paper's chain and our TreeCV-ordered `tree`) live
//! in [`crate::svm::seeded_cv`].

pub mod adjust;
pub mod ato;
pub mod avg;
pub mod gradient;
pub mod linalg;
pub mod mir;
pub mod round;
pub mod sir;
pub mod top;
pub mod zero;

pub use round::{Previous, Round, SeedContext, Seeder, Transition};

use super::SvmError;

/// The alpha-seeding methods (and round orders) of a seeded CV run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeedingMethod {
    /// No seeding: every round from `alpha = 0` (the baseline).
    None,
    /// Adjusting alpha Towards Optimum (Wen et al.).
    Ato,
    /// Multiple Instance Replacement (Wen et al.).
    Mir,
    /// Single Instance Replacement (Wen et al.).
    Sir,
    /// Uniform redistribution over the free SVs (DeCoste & Wagstaff), LOOCV only.
    Avg,
    /// Redistribution to the most similar rows (Lee et al.), LOOCV only.
    Top,
    /// Beyond the paper: rounds in TreeCV's recursion order, children warm
    /// started from their parent's optimum with the returning rows at 0.
    Tree,
}

impl SeedingMethod {
    /// Every method, in the order tables list them.
    pub const ALL: [SeedingMethod; 7] = [
        SeedingMethod::None,
        SeedingMethod::Ato,
        SeedingMethod::Mir,
        SeedingMethod::Sir,
        SeedingMethod::Avg,
        SeedingMethod::Top,
        SeedingMethod::Tree,
    ];

    /// The name used on the command line and in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            SeedingMethod::None => "none",
            SeedingMethod::Ato => "ato",
            SeedingMethod::Mir => "mir",
            SeedingMethod::Sir => "sir",
            SeedingMethod::Avg => "avg",
            SeedingMethod::Top => "top",
            SeedingMethod::Tree => "tree",
        }
    }

    /// Parse a name (case-insensitive).
    pub fn parse(s: &str) -> Option<SeedingMethod> {
        let s = s.to_ascii_lowercase();
        SeedingMethod::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// AVG and TOP are defined for leave-one-out only (k = n).
    pub fn loocv_only(self) -> bool {
        matches!(self, SeedingMethod::Avg | SeedingMethod::Top)
    }

    /// Whether the method seeds from the previous round (a chain of rounds).
    pub fn is_chain(self) -> bool {
        matches!(
            self,
            SeedingMethod::Ato | SeedingMethod::Mir | SeedingMethod::Sir
        )
    }

    /// Check that the method applies to `k` folds of `n` rows.
    pub fn check_k(self, k: usize, n: usize) -> Result<(), SvmError> {
        if self.loocv_only() && k != n {
            return Err(SvmError::InvalidParam(format!(
                "seeding method {} is defined for leave-one-out only (k = n = {n}), got k = {k}; use sir, mir, ato or tree for k-fold",
                self.as_str()
            )));
        }
        Ok(())
    }
}

/// The seeder of a chain method (`None` for the methods that are round
/// orders or full-model redistributions rather than chain seeders).
pub fn chain_seeder(m: SeedingMethod) -> Option<Box<dyn Seeder>> {
    match m {
        SeedingMethod::None => Some(Box::new(zero::ZeroSeeder)),
        SeedingMethod::Ato => Some(Box::new(ato::AtoSeeder::default())),
        SeedingMethod::Mir => Some(Box::new(mir::MirSeeder)),
        SeedingMethod::Sir => Some(Box::new(sir::SirSeeder)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
