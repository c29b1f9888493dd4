//! SIR, Single Instance Replacement (Wen et al. 2017, Algorithm 3).
//!
//! The shared rows `S` keep their alphas. Each leaving row `r` with
//! `alpha_r > 0` hands its alpha to the most similar unused joining row `t`
//! of the same label, "most similar" meaning the largest `K(x_r, x_t)`; if
//! every such `t` is used, to a random `t` of that label (clipped at `C`),
//! and if `T` holds no row of that label at all, to a random `t`. The MIR
//! adjustment ([`super::adjust::restore_equality`]) then restores
//! `sum_i y_i alpha_i = 0`, which a same-label replacement keeps exactly.

use rand::RngExt;

use super::round::{Draft, Round, Seeder};
use crate::svm::kernel_block::KernelBlock;
use crate::svm::SvmError;

/// Leaving rows whose similarities are computed as one block.
const ROW_BLOCK: usize = 256;

/// The SIR seeder.
#[derive(Clone, Copy, Debug, Default)]
pub struct SirSeeder;

impl Seeder for SirSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let mut d = Draft::new(ctx, prev, tr)?;
        let mut used = vec![false; tr.added.len()];
        let mut rng = crate::seed::rng(ctx.seed);
        // The leaving support vectors, in `R`'s order; their similarities to
        // every joining row come as batched kernel blocks of `ROW_BLOCK`
        // rows (bit-identical to pairwise evaluation on sparse data).
        let leaving: Vec<usize> = tr
            .removed
            .iter()
            .copied()
            .filter(|&r| d.prev_alpha[r] > 0.0)
            .collect();
        let block = KernelBlock::new(ctx.kd, tr.added.iter().map(|&t| t as u32).collect());
        let m = tr.added.len();
        for rows in leaving.chunks(ROW_BLOCK) {
            let kmat = block.matrix(rows);
            for (i, &r) in rows.iter().enumerate() {
                let ar = d.prev_alpha[r];
                let yr = ctx.y[r];
                let mut best: Option<(usize, f64)> = None;
                for (j, &t) in tr.added.iter().enumerate() {
                    if used[j] || ctx.y[t] != yr {
                        continue;
                    }
                    let kv = kmat[i * m + j];
                    if best.is_none_or(|(_, b)| kv > b) {
                        best = Some((j, kv));
                    }
                }
                let j = match best {
                    Some((j, _)) => {
                        used[j] = true;
                        j
                    }
                    None => {
                        let same: Vec<usize> =
                            (0..m).filter(|&j| ctx.y[tr.added[j]] == yr).collect();
                        if !same.is_empty() {
                            same[rng.random_range(0..same.len())]
                        } else if m > 0 {
                            rng.random_range(0..m)
                        } else {
                            continue;
                        }
                    }
                };
                let p = d.t_pos[j];
                d.alpha[p] = (d.alpha[p] + ar).min(ctx.c);
            }
        }
        let t_pos = d.t_pos.clone();
        Ok(d.finish(ctx.c, &t_pos))
    }
}
