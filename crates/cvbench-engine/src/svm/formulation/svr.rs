//! LIBSVM's `solve_epsilon_svr` and `solve_nu_svr`: the regression duals
//! over `2l` variables (`a_k` with `y = +1`, `a*_k` with `y = -1`) on
//! `SVR_Q` ([`super::svr_q`]), each row's coefficient `a_k - a*_k`.
//!
//! - epsilon-SVR: `a = 0`, `p_k = epsilon - z_k`, `p_{k+l} = epsilon +
//!   z_k` (`z` the targets), `Solver`; prints `nu = sum |coef| / (C l)`.
//! - nu-SVR: `a_k = a*_k = min(sum, C)` from `sum = C nu l / 2` down,
//!   `p_k = -z_k`, `p_{k+l} = z_k`, `Solver_NU`; prints `epsilon = -r`.

use super::batched::solve_svr_batched;
use super::svr_q::SvrQ;
use super::Solved;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::strategy::SolverKind;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::smo::general::{solve_general, Problem, Start};

/// `solve_epsilon_svr` (`nu == None`, with `p = epsilon`) or
/// `solve_nu_svr` (`nu == Some(nu)`) on dataset rows `rows` of `kd`.
/// Either starts from `start` where given (the `2l` variables `a_1..
/// a_l, a*_1..a*_l`, feasible: within `[0, C]`, `sum a - sum a* = 0`, and
/// for nu-SVR `sum a + sum a* = C nu l`; with its gradient where computed),
/// else from LIBSVM's start (zero; nu-SVR's fill).
pub(crate) fn solve_svr(
    kd: &KernelData<'_>,
    rows: &[u32],
    params: &CheckedParams,
    epsilon: f64,
    nu: Option<f64>,
    shared: Option<&SharedKernelCache>,
    start: Option<Start>,
) -> Result<Solved, SvmError> {
    let l = rows.len();
    let c = params.c;
    let z: Vec<f64> = rows.iter().map(|&r| kd.ds.y[r as usize]).collect();
    let (mut alpha2, gradient, seeded) = match start {
        None => (vec![0.0; 2 * l], None, false),
        Some(s) if s.alpha.len() == 2 * l => (s.alpha, s.gradient, true),
        _ => {
            return Err(SvmError::InvalidParam(
                "an SVR start has 2l variables".into(),
            ))
        }
    };
    let mut p = vec![0.0; 2 * l];
    let y: Vec<i8> = std::iter::repeat_n(1i8, l)
        .chain(std::iter::repeat_n(-1i8, l))
        .collect();
    match nu {
        None => {
            for k in 0..l {
                p[k] = epsilon - z[k];
                p[k + l] = epsilon + z[k];
            }
        }
        Some(nu) => {
            let mut sum = c * nu * l as f64 / 2.0;
            for k in 0..l {
                let a = if c < sum { c } else { sum }; // std::min(sum, C)
                if !seeded {
                    alpha2[k] = a;
                    alpha2[k + l] = a;
                }
                sum -= a;
                p[k] = -z[k];
                p[k + l] = z[k];
            }
        }
    }
    let (alpha2, stats, r, end) = match (params.solver, nu) {
        (SolverKind::Smo, _) => {
            let sol = solve_general(Problem {
                q: SvrQ::new(kd, rows.to_vec(), params.cache_mb, shared),
                p,
                y,
                alpha: alpha2,
                c: vec![c; 2 * l],
                eps: params.eps,
                shrinking: params.shrinking,
                max_iter: params.max_iter,
                nu: nu.is_some(),
                gradient,
            })?;
            (sol.alpha, sol.stats, sol.r, Some(sol.end))
        }
        (SolverKind::Batched, _) => {
            let sol = solve_svr_batched(
                kd,
                rows,
                params,
                (&p, &y, &alpha2, gradient),
                (c, nu.is_some()),
                shared,
            )?;
            (sol.alpha, sol.stats, sol.r, None)
        }
    };
    let alpha: Vec<f64> = (0..l).map(|k| alpha2[k] - alpha2[k + l]).collect();
    let info = match nu {
        None => {
            let mut sum_alpha = 0.0;
            for a in &alpha {
                sum_alpha += a.abs();
            }
            ("nu", sum_alpha / (c * l as f64))
        }
        Some(_) => ("epsilon", -r),
    };
    Ok(Solved {
        alpha,
        stats,
        upper_bound: c,
        info: Some(info),
        end,
    })
}
