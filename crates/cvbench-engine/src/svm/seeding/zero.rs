//! The baseline "seeder": every round starts from `alpha = 0`, as LIBSVM's
//! `svm-train -v k` does (Wen et al.'s "LibSVM" column).

use super::round::{Round, Seeder};
use crate::svm::error::SvmError;

/// Returns all zeros (always feasible).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroSeeder;

impl Seeder for ZeroSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let tr = round.tr;
        Ok(vec![0.0; tr.next_rows.len()])
    }
}
