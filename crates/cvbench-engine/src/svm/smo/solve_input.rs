//! What one solve of the C-SVC dual is given ([`SolveInput`]: the kernel,
//! the training rows and labels, the bounds, the tolerance, the cache and
//! an optional warm start) and the checks every solver makes on it before
//! any work: labels `±1`, rows in range, a feasible warm start
//! ([`check_feasible`]) with a finite gradient of the right length.

use crate::svm::cache::shared::SharedKernelCache;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;

/// Inputs of one C-SVC dual solve.
pub struct SolveInput<'a, 'k> {
    /// The kernel over the whole dataset.
    pub kd: &'k KernelData<'k>,
    /// Dataset rows of the training set, in solver order.
    pub rows: &'a [u32],
    /// Labels `±1` of those rows.
    pub y: &'a [i8],
    /// Upper bound for `y = +1`.
    pub c_pos: f64,
    /// Upper bound for `y = -1`.
    pub c_neg: f64,
    /// Stopping tolerance.
    pub eps: f64,
    /// Shrinking heuristic on/off.
    pub shrinking: bool,
    /// Local cache size in MB.
    pub cache_mb: f64,
    /// Iteration limit (`None`: LIBSVM's `max(10^7, 100 l)`).
    pub max_iter: Option<u64>,
    /// A feasible starting point (`None`: `alpha = 0`).
    pub alpha0: Option<&'a [f64]>,
    /// `G` and `G_bar` at `alpha0`, when the caller has them (alpha seeding
    /// updates them from the previous round): the solver then skips their
    /// computation from scratch. `None`: computed from `alpha0`.
    pub grad0: Option<(&'a [f64], &'a [f64])>,
    /// A kernel cache shared across solves of the same dataset.
    pub shared: Option<&'k SharedKernelCache>,
}

/// Check that a warm-start alpha is feasible: right length, finite,
/// `0 <= a_i <= C_i` (up to `1e-12 C_i`, then clipped) and
/// `|sum_i y_i a_i| <= 1e-6 max(1, C)`.
pub fn check_feasible(
    alpha: &[f64],
    y: &[i8],
    c_pos: f64,
    c_neg: f64,
) -> Result<Vec<f64>, SvmError> {
    let out = within_bounds(alpha, y, c_pos, c_neg)?;
    let mut sum = 0.0;
    for (&a, &yk) in out.iter().zip(y) {
        sum += f64::from(yk) * a;
    }
    let tol = 1e-6 * c_pos.max(c_neg).max(1.0);
    if sum.abs() > tol {
        return Err(SvmError::InfeasibleWarmStart(format!(
            "sum_i y_i alpha_i = {sum:e}, must be 0 (tolerance {tol:e})"
        )));
    }
    Ok(out)
}

/// A start's alphas within `[0, C_i]` (up to `1e-12 C_i`, then clipped),
/// finite, one per label.
fn within_bounds(alpha: &[f64], y: &[i8], c_pos: f64, c_neg: f64) -> Result<Vec<f64>, SvmError> {
    if alpha.len() != y.len() {
        return Err(SvmError::InfeasibleWarmStart(format!(
            "alpha has {} entries for {} training rows",
            alpha.len(),
            y.len()
        )));
    }
    let mut out = Vec::with_capacity(alpha.len());
    for (k, (&a, &yk)) in alpha.iter().zip(y).enumerate() {
        let c = if yk > 0 { c_pos } else { c_neg };
        if !a.is_finite() || a < -1e-12 * c || a > c * (1.0 + 1e-12) {
            return Err(SvmError::InfeasibleWarmStart(format!(
                "alpha[{k}] = {a} is outside [0, {c}]"
            )));
        }
        out.push(a.clamp(0.0, c));
    }
    Ok(out)
}

/// The checks every solver makes on its input (rows, labels, the starting
/// point and its gradient): the starting alphas (0 without a warm start).
/// The rows a training is given: at least one, each a row of a dataset of
/// `n` rows (every front door of training checks them here).
pub(crate) fn check_train_rows(rows: &[usize], n: usize) -> Result<(), SvmError> {
    if rows.is_empty() {
        return Err(SvmError::Empty);
    }
    match rows.iter().find(|&&r| r >= n) {
        Some(&r) => Err(SvmError::RowOutOfRange { row: r, n }),
        None => Ok(()),
    }
}

pub(crate) fn check_input(inp: &SolveInput<'_, '_>) -> Result<Vec<f64>, SvmError> {
    check_input_with(inp, true)
}

/// [`check_input`], the start's `sum_i y_i a_i` checked to be 0 where
/// `zero_sum` (C-SVC's equality), else any (a formulation whose equality
/// constant is the start's own, as one-class's `e^T a = nu l`).
pub(crate) fn check_input_with(
    inp: &SolveInput<'_, '_>,
    zero_sum: bool,
) -> Result<Vec<f64>, SvmError> {
    let l = inp.rows.len();
    if l == 0 {
        return Err(SvmError::Empty);
    }
    if inp.y.len() != l || inp.y.iter().any(|&v| v != 1 && v != -1) {
        return Err(SvmError::InvalidParam(
            "labels must be ±1, one per row".into(),
        ));
    }
    let n = inp.kd.ds.n();
    if let Some(&r) = inp.rows.iter().find(|&&r| r as usize >= n) {
        return Err(SvmError::RowOutOfRange { row: r as usize, n });
    }
    if let (Some(_), Some((g, gb))) = (inp.alpha0, inp.grad0) {
        if g.len() != l || gb.len() != l || g.iter().chain(gb).any(|v| !v.is_finite()) {
            return Err(SvmError::InfeasibleWarmStart(
                "the warm-start gradient has the wrong length or a non-finite value".into(),
            ));
        }
    }
    match inp.alpha0 {
        Some(_) if inp.kd.sample_weights().is_some() => Err(SvmError::InvalidParam(
            "a warm start (alpha seeding) with sample weights is not implemented: train from zero"
                .into(),
        )),
        Some(a) if zero_sum => check_feasible(a, inp.y, inp.c_pos, inp.c_neg),
        Some(a) => within_bounds(a, inp.y, inp.c_pos, inp.c_neg),
        None => Ok(vec![0.0; l]),
    }
}
