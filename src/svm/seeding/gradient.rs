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
//! vector. Columns come from the fold-shared kernel cache when there is one.

use super::round::SeedContext;
use crate::svm::cache::SharedKernelCache;
use rayon::prelude::*;

/// Changed rows whose kernel columns are computed at once (in parallel).
const COLUMN_BLOCK: usize = 64;

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
/// of [`SeedContext::y`].
pub fn heldout_sums(
    ctx: &SeedContext<'_>,
    prev_rows: &[usize],
    prev_alpha: &[f64],
    held_out: &[usize],
) -> Vec<(usize, f64, f64)> {
    let svs: Vec<(usize, f64)> = prev_rows
        .iter()
        .zip(prev_alpha)
        .filter(|(_, &a)| a > 0.0)
        .map(|(&j, &a)| (j, a))
        .collect();
    let sv_rows: Vec<u32> = svs.iter().map(|&(j, _)| j as u32).collect();
    let sv_y: Vec<i8> = svs.iter().map(|&(j, _)| ctx.y[j]).collect();
    // Rows in parallel; each row's sum runs in one fixed order, so the
    // result does not depend on the thread count. The kernel row comes as
    // `f32` `y_j K_tj`, as the solver's cached columns do.
    held_out
        .par_iter()
        .map_init(
            || (vec![0.0; ctx.kd.d()], vec![0f32; svs.len()]),
            |(scratch, col), &t| {
                ctx.kd
                    .fill_column(t, 1, &sv_rows, Some(&sv_y), col, scratch);
                let (mut full, mut bounded) = (0.0, 0.0);
                for (&(_, a), &v) in svs.iter().zip(col.iter()) {
                    let v = f64::from(v);
                    full += a * v;
                    if a >= ctx.c {
                        bounded += ctx.c * v;
                    }
                }
                (t, full, bounded)
            },
        )
        .collect()
}

/// `(G', G_bar')` over `next_rows` at `alpha_next`, or `None` when a next
/// row is neither a previous row nor in `heldout` (then the solver computes
/// them from scratch).
pub fn next_gradient(
    ctx: &SeedContext<'_>,
    shared: Option<&SharedKernelCache>,
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
    // Kernel columns of a block of changed rows in parallel, then added in
    // the order of `changed`: the same sums, bit for bit, on any thread count.
    let rows32: Vec<u32> = next_rows.iter().map(|&r| r as u32).collect();
    for block in changed.chunks(COLUMN_BLOCK) {
        let cols: Vec<Vec<f32>> = block
            .par_iter()
            .map_init(
                || vec![0.0; ctx.kd.d()],
                |scratch, &(j, _, _)| match shared {
                    Some(s) => {
                        let full = s.column(ctx.kd, j, scratch);
                        next_rows.iter().map(|&i| full[i]).collect()
                    }
                    None => {
                        let mut col = vec![0f32; next_rows.len()];
                        ctx.kd.fill_column(j, 1, &rows32, None, &mut col, scratch);
                        col
                    }
                },
            )
            .collect();
        for (&(j, d, dc), kcol) in block.iter().zip(&cols) {
            let yj = f64::from(ctx.y[j]);
            for (p, &i) in next_rows.iter().enumerate() {
                let q = f64::from(ctx.y[i]) * yj * f64::from(kcol[p]);
                g[p] += d * q;
                gb[p] += dc * q;
            }
        }
    }
    Some((g, gb))
}
