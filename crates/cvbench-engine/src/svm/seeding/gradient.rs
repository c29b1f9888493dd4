//! The gradient of a seed, updated from the previous round instead of
//! recomputed: `G = Q alpha - e` and LIBSVM's `G_bar = sum_{alpha_j = C} C Q_j`
//! change only through the rows whose alpha (or bound status) the seeder
//! changed, so
//!
//! ```text
//!   G'_i     = G_i     + sum_{j changed} (alpha'_j - alpha_j) Q_ij
//!   G_bar'_i = G_bar_i + sum_{j changed} C ([alpha'_j = C] - [alpha_j = C]) Q_ij
//! ```
//!
//! over the next round's rows `i`. A shared row starts from the previous
//! round's final `G`, `G_bar`; a joining row `t` (held out by the previous
//! round) from the sums the previous model gives it, `G_t = y_t sum_j y_j
//! alpha_j K_tj - 1` and `G_bar_t = y_t sum_{alpha_j = C} y_j C K_tj`. The
//! cost is one kernel column per changed row instead of one per support
//! vector, computed as one batched block ([`KernelBlock`]: next rows against
//! changed rows) in `f64`; with a shared kernel cache, on data where reading
//! its columns is cheaper, read from the cached columns instead (single
//! precision, as the solver's own `G` updates are) where what they hold does
//! not depend on timing ([`cached_sums::exact_source`]). So the numbers are
//! the same on any thread count, and a shared cache may change a seeded
//! round's iterations (not its optimum) against per-solve caches.

use super::round::SeedContext;
use crate::svm::kernel::block::{KernelBlock, WeightedSums};
use crate::svm::kernel::cached_sums;

/// The previous round's solution by dataset row.
pub struct PrevGradient<'a> {
    /// Its training rows.
    pub rows: &'a [usize],
    /// Their alphas.
    pub alpha: &'a [f64],
    /// Their final `G`.
    pub g: &'a [f64],
    /// Their final `G_bar`.
    pub g_bar: &'a [f64],
}

/// The sums the previous model gives each row `t` it held out:
/// `(t, sum_j y_j alpha_j K_tj, sum_{alpha_j = C} y_j C K_tj)` with the labels
/// of [`SeedContext::y`], computed as one batched kernel block over the
/// previous support vectors ([`KernelBlock`]).
pub fn heldout_sums(
    ctx: &SeedContext<'_>,
    prev_rows: &[usize],
    prev_alpha: &[f64],
    held_out: &[usize],
) -> Vec<(usize, f64, f64)> {
    if held_out.is_empty() {
        return vec![];
    }
    let svs: Vec<(usize, f64)> = prev_rows
        .iter()
        .zip(prev_alpha)
        .filter(|(_, &a)| a > 0.0)
        .map(|(&j, &a)| (j, a))
        .collect();
    let basis: Vec<u32> = svs.iter().map(|&(j, _)| j as u32).collect();
    let w1: Vec<f64> = svs.iter().map(|&(j, a)| f64::from(ctx.y[j]) * a).collect();
    let w2: Vec<f64> = svs
        .iter()
        .map(|&(j, a)| {
            if a >= ctx.c {
                f64::from(ctx.y[j]) * ctx.c
            } else {
                0.0
            }
        })
        .collect();
    sums(ctx, basis, &w1, &w2, held_out)
        .into_iter()
        .zip(held_out)
        .map(|(s, &t)| (t, s.s1, s.s2))
        .collect()
}

/// `(G', G_bar')` over `next_rows` at `alpha_next`, or `None` when a next
/// row is neither a previous row nor in `heldout` (then the solver computes
/// them from scratch).
pub fn next_gradient(
    ctx: &SeedContext<'_>,
    prev: &PrevGradient<'_>,
    heldout: &[(usize, f64, f64)],
    next_rows: &[usize],
    alpha_next: &[f64],
) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = ctx.kd.ds.n();
    const NONE: usize = usize::MAX;
    let mut prev_pos = vec![NONE; n];
    for (k, &r) in prev.rows.iter().enumerate() {
        prev_pos[r] = k;
    }
    let mut held = vec![NONE; n];
    for (k, h) in heldout.iter().enumerate() {
        held[h.0] = k;
    }
    let mut g = Vec::with_capacity(next_rows.len());
    let mut gb = Vec::with_capacity(next_rows.len());
    for &i in next_rows {
        if prev_pos[i] != NONE {
            g.push(prev.g[prev_pos[i]]);
            gb.push(prev.g_bar[prev_pos[i]]);
        } else if held[i] != NONE {
            let (_, full, bounded) = heldout[held[i]];
            let yi = f64::from(ctx.y[i]);
            g.push(yi * full - 1.0);
            gb.push(yi * bounded);
        } else {
            return None;
        }
    }
    // Rows whose alpha or bound status changed, with their deltas.
    let mut next_alpha = vec![0.0; n];
    for (&r, &a) in next_rows.iter().zip(alpha_next) {
        next_alpha[r] = a;
    }
    let mut changed: Vec<(usize, f64, f64)> = Vec::new();
    let mut seen = vec![false; n];
    for &j in prev.rows.iter().chain(next_rows) {
        if std::mem::replace(&mut seen[j], true) {
            continue;
        }
        let old = if prev_pos[j] != NONE {
            prev.alpha[prev_pos[j]]
        } else {
            0.0
        };
        let new = next_alpha[j];
        let d = new - old;
        let dc = ctx.c * (f64::from(u8::from(new >= ctx.c)) - f64::from(u8::from(old >= ctx.c)));
        if d != 0.0 || dc != 0.0 {
            changed.push((j, d, dc));
        }
    }
    // One batched block: every next row against the changed rows, weighted
    // by their deltas, summed in the order of `changed` (the same numbers
    // with or without a shared kernel cache, on any thread count).
    let basis: Vec<u32> = changed.iter().map(|c| c.0 as u32).collect();
    let w1: Vec<f64> = changed
        .iter()
        .map(|&(j, d, _)| f64::from(ctx.y[j]) * d)
        .collect();
    let w2: Vec<f64> = changed
        .iter()
        .map(|&(j, _, dc)| f64::from(ctx.y[j]) * dc)
        .collect();
    let sums = sums(ctx, basis, &w1, &w2, next_rows);
    for (p, (&i, s)) in next_rows.iter().zip(&sums).enumerate() {
        let yi = f64::from(ctx.y[i]);
        g[p] += yi * s.s1;
        gb[p] += yi * s.s2;
    }
    Some((g, gb))
}

/// The weighted sums of `queries` over `basis`: from the shared kernel
/// cache's columns where the run has one that suits
/// ([`cached_sums::exact_source`]: the same numbers on any thread count),
/// else as one batched block.
fn sums(
    ctx: &SeedContext<'_>,
    basis: Vec<u32>,
    w1: &[f64],
    w2: &[f64],
    queries: &[usize],
) -> Vec<WeightedSums> {
    let source = ctx
        .shared
        .and_then(|sh| cached_sums::exact_source(ctx.kd, sh).map(|s| (sh, s)));
    match source {
        Some((sh, source)) => {
            cached_sums::gradient_sums(ctx.kd, sh, &basis, (w1, w2), queries, source)
        }
        None => KernelBlock::new(ctx.kd, basis).unbounded_sums(queries, w1, w2),
    }
}
