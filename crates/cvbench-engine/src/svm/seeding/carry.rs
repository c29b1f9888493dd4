//! Carry: the previous alphas of the rows that stay, the joining rows at 0,
//! then the equality `sum_i y_i alpha_i = 0` restored by the MIR adjustment
//! (nothing to restore when no row leaves, as in TreeCV's tree, where a
//! child's training set contains its parent's).

use super::round::{Draft, Round, Seeder};
use crate::svm::error::SvmError;

/// The carry seeder.
#[derive(Clone, Copy, Debug, Default)]
pub struct CarrySeeder;

impl Seeder for CarrySeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let d = Draft::new(ctx, prev, tr)?;
        if tr.removed.is_empty() {
            return Ok(d.alpha);
        }
        let t_pos = d.t_pos.clone();
        Ok(d.finish(ctx.c, &t_pos))
    }
}
