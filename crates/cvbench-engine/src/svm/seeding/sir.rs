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
use crate::svm::error::SvmError;
use crate::svm::kernel::block::KernelBlock;
use crate::svm::kernel::KernelKind;

/// Leaving rows whose similarities are computed as one block.
const ROW_BLOCK: usize = 256;

/// Exponents this close below the largest may give an equal or larger
/// kernel value after libm's `exp`, whose error is under one unit in the
/// last place (a difference `d` in the exponent is a relative difference of
/// about `d` in the value): a window hundreds of times wider.
const TIE_WINDOW: f64 = 1e-13;

/// Below this largest exponent the RBF values may be subnormal (without
/// relative precision): every eligible row is evaluated.
const SUBNORMAL_EXPONENT: f64 = -690.0;

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
        // Kernels whose value does not decrease with the exponent (or dot
        // product): the choice needs the values near the largest only.
        let monotone = matches!(ctx.kd.kind, KernelKind::Rbf { .. } | KernelKind::Linear);
        for rows in leaving.chunks(ROW_BLOCK) {
            let kmat = if monotone {
                block.exponent_matrix(rows)
            } else {
                block.matrix(rows)
            };
            for (i, &r) in rows.iter().enumerate() {
                let ar = d.prev_alpha[r];
                let yr = ctx.y[r];
                let eligible = |j: usize| !used[j] && ctx.y[tr.added[j]] == yr;
                let row = &kmat[i * m..(i + 1) * m];
                let best = if monotone {
                    most_similar(row, eligible, |e| block.value(e))
                } else {
                    most_similar_of_values(row, eligible)
                };
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

/// The most similar eligible joining row from the kernel values `kv`: the
/// first `j` (in order) of the largest value (LIBSVM-style strict `>`).
fn most_similar_of_values(kv: &[f64], eligible: impl Fn(usize) -> bool) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for (j, &v) in kv.iter().enumerate() {
        if eligible(j) && best.is_none_or(|(_, b)| v > b) {
            best = Some((j, v));
        }
    }
    best
}

/// [`most_similar_of_values`] of `value(e_j)` from the exponents `e`, for a
/// `value` that does not decrease (libm's `exp`, the identity): only the
/// eligible rows whose exponent lies within [`TIE_WINDOW`] of the largest
/// are evaluated, which are the only ones that can hold the largest value;
/// every eligible row where the exponents are NaN or so small that values
/// may be subnormal. So the choice is the one of evaluating every value.
fn most_similar(
    e: &[f64],
    eligible: impl Fn(usize) -> bool,
    value: impl Fn(f64) -> f64,
) -> Option<(usize, f64)> {
    let (mut top, mut nan) = (f64::NEG_INFINITY, false);
    for (j, &x) in e.iter().enumerate() {
        if eligible(j) {
            nan |= x.is_nan();
            top = top.max(x);
        }
    }
    let all = nan || top < SUBNORMAL_EXPONENT;
    let floor = top - TIE_WINDOW;
    let mut best: Option<(usize, f64)> = None;
    for (j, &x) in e.iter().enumerate() {
        if !eligible(j) || (!all && x < floor) {
            continue;
        }
        let v = value(x);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((j, v));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window's choice is the choice of every value, on exponents with
    /// exact ties, near-ties within a few units in the last place, values
    /// around the subnormal range and NaN, for many eligibility patterns.
    #[test]
    fn the_window_chooses_what_every_value_chooses() {
        let bases = [-0.5, -3.0, -700.0, -745.0, 0.0];
        for (k, &base) in bases.iter().enumerate() {
            let mut e: Vec<f64> = (0..40)
                .map(|j| {
                    let mut x = base - 0.01 * ((j * 7 + k) % 5) as f64;
                    for _ in 0..(j % 3) {
                        x = x.next_up();
                    }
                    x
                })
                .collect();
            if k == 4 {
                e[9] = f64::NAN;
            }
            for mask in 0..64u64 {
                let eligible = |j: usize| (mask >> (j % 6)) & 1 == 1 || j.is_multiple_of(11);
                let want = most_similar_of_values(
                    &e.iter().map(|&x| x.exp()).collect::<Vec<_>>(),
                    eligible,
                );
                let got = most_similar(&e, eligible, f64::exp);
                assert_eq!(
                    want.map(|(j, v)| (j, v.to_bits())),
                    got.map(|(j, v)| (j, v.to_bits())),
                    "base {base}, mask {mask}"
                );
            }
        }
        assert_eq!(most_similar(&[1.0], |_| false, f64::exp), None);
    }
}
