//! LIBSVM's `Solver::Solve(l, Q, p, y, alpha, C, eps, si, shrinking)` for
//! any formulation: the dual
//!
//! ```text
//!   min_a  1/2 a^T Q a + p^T a
//!   s.t.   y^T a = delta,   0 <= a_i <= C_i,      y_i in {+1, -1}
//! ```
//!
//! from a feasible start `a`, with an arbitrary linear term `p`, labels and
//! upper bounds per variable, and any `Q` ([`QMatrix`]). With `nu` the
//! solver is LIBSVM's `Solver_NU`
//! ([`crate::svm::formulation::solver_nu`]), for the nu formulations'
//! second equality constraint. The C-SVC dual ([`crate::svm::smo::solve`])
//! is the case `Q = SVC_Q`, `p = -e`, `a = 0`, on the same code path.

use std::time::Instant;

use crate::svm::error::SvmError;
use crate::svm::smo::q_matrix::QMatrix;
use crate::svm::smo::rows::LOWER;
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::smo::Solver;

/// One problem for [`solve_general`]: every vector has one entry per
/// variable, in the order of `q`'s variables.
pub(crate) struct Problem<Q: QMatrix> {
    /// The `Q` matrix.
    pub q: Q,
    /// The linear term.
    pub p: Vec<f64>,
    /// Labels `±1`.
    pub y: Vec<i8>,
    /// The feasible starting point.
    pub alpha: Vec<f64>,
    /// Upper bounds.
    pub c: Vec<f64>,
    /// Stopping tolerance.
    pub eps: f64,
    /// Shrinking heuristic on/off.
    pub shrinking: bool,
    /// Iteration limit (`None`: LIBSVM's `max(10^7, 100 l)`).
    pub max_iter: Option<u64>,
    /// LIBSVM's `Solver_NU` instead of `Solver`.
    pub nu: bool,
    /// The start's gradient where the caller computed it (a seeded start:
    /// [`crate::svm::cv::seeded_gradient`]); `None`: LIBSVM's
    /// `init_gradient` from `Q`'s columns (the unseeded path, unchanged).
    pub gradient: Option<StartGradient>,
}

/// A seeded start: the feasible point in the solver's variables, and its
/// gradient where the caller computed it.
pub(crate) struct Start {
    /// The starting point.
    pub alpha: Vec<f64>,
    /// Its gradient (`None`: `init_gradient`'s).
    pub gradient: Option<StartGradient>,
}

/// `Q a` (the solver adds `p` for `G`) and `G_bar = sum_{a_i >= C_i} C_i
/// Q_i` of a start, in the variables' order, computed by the caller (equal
/// to what `init_gradient` builds up to rounding).
#[derive(Clone, Debug)]
pub(crate) struct StartGradient {
    /// `Q a`.
    pub q_alpha: Vec<f64>,
    /// `G_bar`.
    pub g_bar: Vec<f64>,
    /// Kernel values computed for them (added to the solve's count).
    pub kernel_evals: u64,
    /// Seconds it took (added to the solve's `init_s`).
    pub seconds: f64,
}

/// What [`solve_general`] gives back, in the variables' initial order.
pub(crate) struct Solution {
    /// The optimal alphas.
    pub alpha: Vec<f64>,
    /// Iterations, objective (`1/2 a^T Q a + p^T a`), rho, counters,
    /// timings; its `n_sv` / `n_bsv` count the variables (each formulation
    /// counts its own, as `svm_train_one` does).
    pub stats: SolveStats,
    /// `Solver_NU`'s `r` (0 without `nu`).
    pub r: f64,
    /// The solution's `Q a` and `G_bar` in the variables' order (the
    /// solver's final `G - p`, after its last full gradient): a later
    /// solve from this point, or from it scaled, starts from them.
    pub end: StartGradient,
}

/// Solve one problem (see the module doc). Inputs are checked: bad input
/// gives an error, never a panic.
pub(crate) fn solve_general<Q: QMatrix>(prob: Problem<Q>) -> Result<Solution, SvmError> {
    crate::cancel::check()?;
    let t0 = Instant::now();
    let l = prob.y.len();
    if l == 0 {
        return Err(SvmError::Empty);
    }
    if prob.p.len() != l || prob.alpha.len() != l || prob.c.len() != l {
        return Err(SvmError::InvalidParam(
            "p, alpha and C must have one entry per variable".into(),
        ));
    }
    if prob.y.iter().any(|&v| v != 1 && v != -1) {
        return Err(SvmError::InvalidParam("labels must be ±1".into()));
    }
    if prob.p.iter().any(|v| !v.is_finite()) {
        return Err(SvmError::NonFinite("a linear term is not finite".into()));
    }
    for (k, (&a, &c)) in prob.alpha.iter().zip(&prob.c).enumerate() {
        if !(c.is_finite() && c > 0.0 && a.is_finite() && (0.0..=c).contains(&a)) {
            return Err(SvmError::InvalidParam(format!(
                "variable {k}: alpha = {a} must lie in [0, C = {c}], C finite and > 0"
            )));
        }
    }
    if let Some(sg) = &prob.gradient {
        if sg.q_alpha.len() != l || sg.g_bar.len() != l {
            return Err(SvmError::InvalidParam(
                "a start's gradient must have one entry per variable".into(),
            ));
        }
    }
    let qd = prob.q.diagonal();
    // `p` in the variables' order (the solver's copy is swapped with them).
    let p = prob.p.clone();
    let mut s = Solver {
        active_size: l,
        l,
        g: prob.p.clone(),
        status: vec![LOWER; l],
        alpha: prob.alpha,
        active_set: (0..l as u32).collect(),
        g_bar: vec![0.0; l],
        qd,
        p: prob.p,
        c_pos: 1.0,
        c_neg: 1.0,
        c_rows: Some(prob.c),
        y: prob.y,
        eps: prob.eps,
        unshrink: false,
        nu: prob.nu,
        r: 0.0,
        q: prob.q,
        stats: SolveStats::default(),
    };
    for i in 0..l {
        s.update_alpha_status(i);
    }
    let (extra_evals, extra_s) = match prob.gradient {
        None => {
            s.init_gradient();
            (0, 0.0)
        }
        Some(sg) => {
            for (g, qa) in s.g.iter_mut().zip(&sg.q_alpha) {
                *g += qa;
            }
            s.g_bar = sg.g_bar;
            (sg.kernel_evals, sg.seconds)
        }
    };
    s.stats.timings.init_s = t0.elapsed().as_secs_f64() + extra_s;
    let t1 = Instant::now();
    let max_iter = prob
        .max_iter
        .unwrap_or_else(|| (100u64.saturating_mul(l as u64)).max(10_000_000));
    s.run(max_iter, prob.shrinking)?;
    s.stats.rho = s.calculate_rho();
    s.stats.timings.train_s = t1.elapsed().as_secs_f64();
    let r = s.r;
    let mut out = s.finish();
    out.stats.kernel_evals += extra_evals;
    let q_alpha = out.gradient.iter().zip(&p).map(|(g, p)| g - p).collect();
    Ok(Solution {
        alpha: out.alpha,
        stats: out.stats,
        r,
        end: StartGradient {
            q_alpha,
            g_bar: out.g_bar,
            kernel_evals: 0,
            seconds: 0.0,
        },
    })
}

/// LIBSVM's `init_gradient` of `q` at `alpha` (bounds `c`, linear term
/// `p`): `(G, G_bar)` in the variables' order, for tests of a computed
/// [`StartGradient`].
#[cfg(test)]
pub(crate) fn libsvm_start_gradient<Q: QMatrix>(
    q: Q,
    p: Vec<f64>,
    y: Vec<i8>,
    alpha: Vec<f64>,
    c: Vec<f64>,
) -> (Vec<f64>, Vec<f64>) {
    let l = y.len();
    let qd = q.diagonal();
    let mut s = Solver {
        active_size: l,
        l,
        g: p.clone(),
        status: vec![LOWER; l],
        alpha,
        active_set: (0..l as u32).collect(),
        g_bar: vec![0.0; l],
        qd,
        p,
        c_pos: 1.0,
        c_neg: 1.0,
        c_rows: Some(c),
        y,
        eps: 1e-3,
        unshrink: false,
        nu: false,
        r: 0.0,
        q,
        stats: SolveStats::default(),
    };
    for i in 0..l {
        s.update_alpha_status(i);
    }
    s.init_gradient();
    (s.g, s.g_bar)
}
