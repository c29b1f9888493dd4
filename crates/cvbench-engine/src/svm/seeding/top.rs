//! TOP (Lee et al. 2004), for leave-one-out: start every round from the SVM
//! trained on all `n` rows; when row `t` leaves, give its `alpha_t` to the
//! most similar remaining row `j` (largest `K(x_j, x_t)`): `alpha_j +=
//! alpha_t` if `y_j = y_t`, `-= alpha_t` otherwise, within `[0, C]`; what
//! does not fit goes to the second most similar row, and so on until
//! `sum_i y_i alpha_i = 0` holds again.

use super::round::{Draft, Round, Seeder};
use crate::svm::error::SvmError;
use crate::svm::kernel::block::KernelBlock;

/// The TOP seeder (previous = the full-data SVM, `R = {t}`, `T = {}`).
#[derive(Clone, Copy, Debug, Default)]
pub struct TopSeeder;

impl Seeder for TopSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let mut d = Draft::new(ctx, prev, tr)?;
        for &t in tr.removed {
            let mut left = d.prev_alpha[t];
            if left.is_nan() || left <= 0.0 {
                continue;
            }
            // K(x_t, x_j) for every next row j, as one batched block.
            let kv = KernelBlock::new(ctx.kd, tr.next_rows.iter().map(|&j| j as u32).collect())
                .matrix(&[t]);
            let mut order: Vec<(usize, f64)> = kv.into_iter().enumerate().collect();
            order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (p, _) in order {
                let same = d.y_next[p] == ctx.y[t];
                let room = if same { ctx.c - d.alpha[p] } else { d.alpha[p] };
                let take = room.min(left).max(0.0);
                d.alpha[p] += if same { take } else { -take };
                left -= take;
                if left <= 0.0 {
                    break;
                }
            }
        }
        // Rounding residue only (the loop above keeps the sum exact up to it).
        Ok(d.finish(ctx.c, &[]))
    }
}
