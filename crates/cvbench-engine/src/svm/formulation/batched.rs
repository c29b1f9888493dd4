//! epsilon-SVR's and one-class's duals solved by the batched working-set
//! solver ([`crate::svm::batched`], `--solver batched`).
//!
//! Each stops on LIBSVM's rule, `m(a) - M(a) < eps`, so its optimum is the
//! SMO's to the stopping tolerance (objective, rho and predictions agree to
//! what that tolerance allows; the iterations differ).
//!
//! - epsilon-SVR: the same `2l` variables, linear term, labels and bounds
//!   as LIBSVM's `solve_epsilon_svr` ([`super::svr`]), each of `a_k` and
//!   `a*_k` a position of row `k` with label `+1` and `-1`, so `Q = SVR_Q`
//!   is read through the kernel rows of the `l` training rows (from the
//!   shared cache where there is one).
//! - one-class: LIBSVM's start (`solve_one_class`'s `e^T a = nu l`), `Q =
//!   K`, `p = 0`, `y = +1`, bounds 1; the equality constant is the start's.
//!
//! - nu-SVC and nu-SVR: LIBSVM's fill, `p`, labels and bounds as
//!   [`super::nu_svc`]'s and [`super::svr`]'s, solved with `Solver_NU`'s
//!   two equality constraints ([`crate::svm::batched::solve_nu`]: working
//!   sets filled by label, steps within a label, `Solver_NU`'s stop and
//!   rho); each returns `r`, which the caller scales by as LIBSVM does.

use crate::svm::batched::{solve_nu, solve_with_linear_term};
use crate::svm::cache::SharedKernelCache;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::smo::general::StartGradient;
use crate::svm::smo::solve_input::SolveInput;
use crate::svm::smo::solve_stats::SolveStats;

/// `G = Q a + p` and `G_bar` of a seeded start whose gradient the caller
/// computed ([`crate::svm::cv::seeded_gradient`]), as the batched solver
/// takes them.
fn start_gradient(gradient: Option<StartGradient>, p: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    gradient.map(|sg| {
        let g = sg.q_alpha.iter().zip(p).map(|(qa, pi)| qa + pi).collect();
        (g, sg.g_bar)
    })
}

/// The variables' optimum and the solve's statistics.
pub(super) struct BatchedSolution {
    /// The optimal alphas (epsilon-SVR: `a_1..a_l, a*_1..a*_l`).
    pub alpha: Vec<f64>,
    /// Iterations (inner two-variable steps), objective, rho, counters.
    pub stats: SolveStats,
    /// `Solver_NU`'s `r` (0 where the formulation has no second equality).
    pub r: f64,
}

/// The epsilon-SVR (`nu == false`) or nu-SVR problem of `solve_svr` (`p`,
/// `y`, the start `alpha2`, bound `c` for every variable) on the batched
/// solver; `rows` are the `l` training rows of `kd`.
pub(super) fn solve_svr_batched(
    kd: &KernelData<'_>,
    rows: &[u32],
    params: &CheckedParams,
    (p, y, alpha2, gradient): (&[f64], &[i8], &[f64], Option<StartGradient>),
    (c, nu): (f64, bool),
    shared: Option<&SharedKernelCache>,
) -> Result<BatchedSolution, SvmError> {
    let rows2: Vec<u32> = rows.iter().chain(rows).copied().collect();
    let start = (nu || alpha2.iter().any(|&a| a != 0.0)).then_some(alpha2);
    let grad = start_gradient(gradient, p);
    let inp = SolveInput {
        kd,
        rows: &rows2,
        y,
        c_pos: c,
        c_neg: c,
        eps: params.eps,
        shrinking: params.shrinking,
        cache_mb: params.cache_mb,
        max_iter: params.max_iter,
        alpha0: start,
        grad0: grad.as_ref().map(|(g, gb)| (&g[..], &gb[..])),
        shared,
    };
    let (out, r) = if nu {
        solve_nu(inp, p)?
    } else {
        (solve_with_linear_term(inp, Some(p), true)?, 0.0)
    };
    Ok(BatchedSolution {
        alpha: out.alpha,
        stats: out.stats,
        r,
    })
}

/// `solve_nu_svc`'s problem (labels `y`, the start `alpha`, `p = 0`, each
/// bound 1) on the batched solver; `rows` are the training rows of `kd`. The
/// alphas, rho and objective are unscaled (the caller divides by `r`).
pub(super) fn solve_nu_svc_batched(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    params: &CheckedParams,
    (alpha, gradient): (&[f64], Option<StartGradient>),
    shared: Option<&SharedKernelCache>,
) -> Result<BatchedSolution, SvmError> {
    let p = vec![0.0; rows.len()];
    let grad = start_gradient(gradient, &p);
    let (out, r) = solve_nu(
        SolveInput {
            kd,
            rows,
            y,
            c_pos: 1.0,
            c_neg: 1.0,
            eps: params.eps,
            shrinking: params.shrinking,
            cache_mb: params.cache_mb,
            max_iter: params.max_iter,
            alpha0: Some(alpha),
            grad0: grad.as_ref().map(|(g, gb)| (&g[..], &gb[..])),
            shared,
        },
        &p,
    )?;
    Ok(BatchedSolution {
        alpha: out.alpha,
        stats: out.stats,
        r,
    })
}

/// `solve_one_class`'s problem (its start `alpha`, bounds 1) on the batched
/// solver; `rows` are the training rows of `kd`.
pub(super) fn solve_one_class_batched(
    kd: &KernelData<'_>,
    rows: &[u32],
    params: &CheckedParams,
    (alpha, gradient): (&[f64], Option<StartGradient>),
    shared: Option<&SharedKernelCache>,
) -> Result<BatchedSolution, SvmError> {
    let l = rows.len();
    let (p, y) = (vec![0.0; l], vec![1i8; l]);
    let grad = start_gradient(gradient, &p);
    let out = solve_with_linear_term(
        SolveInput {
            kd,
            rows,
            y: &y,
            c_pos: 1.0,
            c_neg: 1.0,
            eps: params.eps,
            shrinking: params.shrinking,
            cache_mb: params.cache_mb,
            max_iter: params.max_iter,
            alpha0: Some(alpha),
            grad0: grad.as_ref().map(|(g, gb)| (&g[..], &gb[..])),
            shared,
        },
        Some(&p),
        false,
    )?;
    Ok(BatchedSolution {
        alpha: out.alpha,
        stats: out.stats,
        r: 0.0,
    })
}
