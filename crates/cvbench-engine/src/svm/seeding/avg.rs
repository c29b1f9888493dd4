//! AVG (DeCoste & Wagstaff 2000), for leave-one-out: start every round from
//! the SVM trained on all `n` rows; when row `t` leaves, spread `y_t alpha_t`
//! evenly over the `d` free SVs (`0 < alpha_j < C`): `alpha_j += alpha_t / d`
//! if `y_j = y_t`, `-= alpha_t / d` otherwise; rows that hit `0` or `C`
//! stop there and the rest is spread over those still free. That is a
//! uniform shift of `y_j alpha_j` over the free rows, clipped to the box,
//! i.e. [`super::adjust::restore_equality`] with the free rows preferred.

use super::round::{Draft, Round, Seeder};
use crate::svm::error::SvmError;

/// The AVG seeder (previous = the full-data SVM, `R = {t}`, `T = {}`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AvgSeeder;

impl Seeder for AvgSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let d = Draft::new(ctx, prev, tr)?;
        let free: Vec<usize> = (0..d.alpha.len())
            .filter(|&i| d.alpha[i] > 0.0 && d.alpha[i] < ctx.c)
            .collect();
        Ok(d.finish(ctx.c, &free))
    }
}
