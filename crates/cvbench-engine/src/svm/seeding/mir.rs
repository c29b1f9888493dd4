//! MIR, Multiple Instance Replacement (Wen et al. 2017, eq. 15-18,
//! Algorithm 2).
//!
//! The shared rows `S` keep their alphas. The joining rows' `alpha'_T` are
//! the least-squares solution of eq. 17,
//!
//! ```text
//!   [ y ⊙ Δf + Q_{X,R} alpha_R ]   [ Q_{X,T} ]
//!   [    y_R^T alpha_R         ] = [  y_T^T  ] alpha'_T
//! ```
//!
//! where `Δf_i = 0` for a free SV (`i ∈ I_m`) and `Δf_i = b - f_i` for a
//! bounded one (`i ∈ I_u ∪ I_l`), solved by the normal equations of eq. 18
//! (pseudo-inverse where singular), then clipped to `[0, C]` and shifted
//! uniformly until `sum_t y_t alpha'_t = sum_r y_r alpha_r`
//! ([`super::adjust::restore_equality`]).
//!
//! The rows `X` of eq. 17 are taken to be the shared rows `S`: the leaving
//! rows' indicators do not constrain the next SVM.

use super::linalg::{kernel_block, lstsq_normal};
use super::round::{by_row, indicators, Draft, Round, Seeder};
use crate::svm::error::SvmError;

/// The MIR seeder.
#[derive(Clone, Copy, Debug, Default)]
pub struct MirSeeder;

impl Seeder for MirSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let n = ctx.kd.ds.n();
        let mut d = Draft::new(ctx, prev, tr)?;
        let prev_alpha = std::mem::take(&mut d.prev_alpha);
        let (f, b) = indicators(ctx, prev);
        let f_row = by_row(n, prev.rows, &f);
        let mut leaving = vec![false; n];
        for &r in tr.removed {
            leaving[r] = true;
        }
        let shared: Vec<usize> = prev.rows.iter().copied().filter(|&r| !leaving[r]).collect();
        let r_sv: Vec<usize> = tr
            .removed
            .iter()
            .copied()
            .filter(|&r| prev_alpha[r] > 0.0)
            .collect();
        let t = tr.added;
        if t.is_empty() {
            return Ok(d.finish(ctx.c, &[]));
        }
        // Left-hand side [Q_{S,T}; y_T^T] and right-hand side of eq. 17.
        let q_st = kernel_block(ctx.kd, &shared, t, Some(ctx.y));
        let q_sr = kernel_block(ctx.kd, &shared, &r_sv, Some(ctx.y));
        let m = shared.len();
        let a = faer::Mat::from_fn(m + 1, t.len(), |i, j| {
            if i < m {
                q_st[(i, j)]
            } else {
                f64::from(ctx.y[t[j]])
            }
        });
        let mut rhs = vec![0.0; m + 1];
        for (i, &s) in shared.iter().enumerate() {
            let a_s = prev_alpha[s];
            let free = a_s > 0.0 && a_s < ctx.c;
            let df = if free { 0.0 } else { b - f_row[s] };
            let qr: f64 = r_sv
                .iter()
                .enumerate()
                .map(|(j, &r)| q_sr[(i, j)] * prev_alpha[r])
                .sum();
            rhs[i] = f64::from(ctx.y[s]) * df + qr;
        }
        rhs[m] = r_sv
            .iter()
            .map(|&r| f64::from(ctx.y[r]) * prev_alpha[r])
            .sum();
        let alpha_t = lstsq_normal(&a, &rhs);
        for (j, &p) in d.t_pos.iter().enumerate() {
            d.alpha[p] = alpha_t[j];
        }
        let t_pos = d.t_pos.clone();
        Ok(d.finish(ctx.c, &t_pos))
    }
}
