//! The baseline "seeder": every round starts from `alpha = 0`, as LIBSVM's
//! `svm-train -v k` does (Wen et al.'s "LibSVM" column).

use super::{Previous, SeedContext, Seeder, SeedingMethod, Transition};
use crate::svm::SvmError;

/// Returns all zeros (always feasible).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroSeeder;

impl Seeder for ZeroSeeder {
    fn method(&self) -> SeedingMethod {
        SeedingMethod::None
    }

    fn seed(
        &self,
        _ctx: &SeedContext<'_>,
        _prev: &Previous<'_>,
        tr: &Transition<'_>,
    ) -> Result<Vec<f64>, SvmError> {
        Ok(vec![0.0; tr.next_rows.len()])
    }
}
