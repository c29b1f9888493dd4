//! Restoring the equality constraint `sum_i y_i alpha_i = 0` after a seeder
//! has moved alphas: MIR's "AdjustAlpha" (Wen et al., after eq. 18).
//!
//! 1. Clip every alpha to the box `[0, C]`.
//! 2. If `sum_t y_t alpha_t` over the adjustable rows is above (below) its
//!    target, decrease (increase) every `y_t alpha_t` by the same amount,
//!    each within its box, until the sum meets the target.
//!
//! Step 2 is a water-filling: `g(delta) = sum_t y_t clip(alpha_t + y_t delta)`
//! is continuous and non-decreasing in `delta`, so the shift is found by
//! bisection; the last rounding residual goes to one row with room for it.

/// `sum_{i in idx} y_i alpha_i`.
pub fn signed_sum(alpha: &[f64], y: &[i8], idx: &[usize]) -> f64 {
    idx.iter().map(|&i| f64::from(y[i]) * alpha[i]).sum()
}

/// Clip every alpha of `idx` to `[0, c]`.
pub fn clip_to_box(alpha: &mut [f64], c: f64, idx: &[usize]) {
    for &i in idx {
        alpha[i] = if alpha[i].is_finite() {
            alpha[i].clamp(0.0, c)
        } else {
            0.0
        };
    }
}

fn shifted(alpha: &[f64], y: &[i8], c: f64, idx: &[usize], delta: f64) -> f64 {
    idx.iter()
        .map(|&i| {
            let yi = f64::from(y[i]);
            yi * (alpha[i] + yi * delta).clamp(0.0, c)
        })
        .sum()
}

/// Shift `y_i alpha_i` of the rows `idx` uniformly (each clipped to
/// `[0, c]`) so that `sum_{i in idx} y_i alpha_i = target`. Returns false
/// (and changes nothing) when no shift within the box reaches the target.
pub fn uniform_shift(alpha: &mut [f64], y: &[i8], c: f64, idx: &[usize], target: f64) -> bool {
    if idx.is_empty() {
        return target == 0.0;
    }
    let tol = 1e-12 * c.max(1.0) * idx.len() as f64;
    let now = signed_sum(alpha, y, idx);
    if (now - target).abs() <= tol {
        return true;
    }
    let (mut lo, mut hi) = (-c, c);
    if shifted(alpha, y, c, idx, lo) > target + tol || shifted(alpha, y, c, idx, hi) < target - tol
    {
        return false;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if shifted(alpha, y, c, idx, mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= f64::EPSILON * c.max(1.0) {
            break;
        }
    }
    let delta = 0.5 * (lo + hi);
    for &i in idx {
        let yi = f64::from(y[i]);
        alpha[i] = (alpha[i] + yi * delta).clamp(0.0, c);
    }
    settle_residual(alpha, y, c, idx, target);
    true
}

/// Put the residual `target - sum y_i alpha_i` on one row of `idx` whose box
/// has room for it (free rows first).
fn settle_residual(alpha: &mut [f64], y: &[i8], c: f64, idx: &[usize], target: f64) {
    let r = target - signed_sum(alpha, y, idx);
    if r == 0.0 {
        return;
    }
    let fits = |i: usize| {
        let v = alpha[i] + f64::from(y[i]) * r;
        (0.0..=c).contains(&v)
    };
    let pick = idx
        .iter()
        .copied()
        .find(|&i| alpha[i] > 0.0 && alpha[i] < c && fits(i))
        .or_else(|| idx.iter().copied().find(|&i| fits(i)));
    if let Some(i) = pick {
        alpha[i] = (alpha[i] + f64::from(y[i]) * r).clamp(0.0, c);
    }
}

/// Make `alpha` (over all rows of the next training set, labels `y`)
/// feasible: clip to the box, then restore `sum y_i alpha_i = 0` by a
/// uniform shift over `prefer` (the rows the seeder set, e.g. `T`); if that
/// cannot reach it, over the free rows, then over every row.
pub fn restore_equality(alpha: &mut [f64], y: &[i8], c: f64, prefer: &[usize]) {
    let all: Vec<usize> = (0..alpha.len()).collect();
    clip_to_box(alpha, c, &all);
    let mut in_prefer = vec![false; alpha.len()];
    for &i in prefer {
        in_prefer[i] = true;
    }
    let rest: Vec<usize> = all.iter().copied().filter(|&i| !in_prefer[i]).collect();
    let target = -signed_sum(alpha, y, &rest);
    if uniform_shift(alpha, y, c, prefer, target) {
        return;
    }
    // Then the free rows (moving a row off a bound would add a support
    // vector the next round has to remove again), then every row.
    let free: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| alpha[i] > 0.0 && alpha[i] < c)
        .collect();
    let target = -signed_sum(alpha, y, &all) + signed_sum(alpha, y, &free);
    if !uniform_shift(alpha, y, c, &free, target) {
        uniform_shift(alpha, y, c, &all, 0.0);
    }
}
