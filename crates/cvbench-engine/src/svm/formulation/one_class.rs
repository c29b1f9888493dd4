//! LIBSVM's `solve_one_class`: `n = (int)(nu l)` alphas at 1, the next at
//! `nu l - n`, the rest 0 (so `e^T a = nu l`), then `Solver` on
//! `ONE_CLASS_Q` ([`super::one_class_q`]) with `p = 0`, `y = +1`, bounds 1
//! (on the batched solver with `--solver batched`: [`super::batched`]).

use super::batched::solve_one_class_batched;
use super::one_class_q::OneClassQ;
use super::Solved;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::strategy::SolverKind;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::smo::general::{solve_general, Problem, Start};

/// `solve_one_class` on dataset rows `rows` of `kd`, from `start` where
/// given (feasible: `0 <= a <= 1`, `sum a = nu l`; with its gradient
/// where computed), else from LIBSVM's start.
pub(crate) fn solve_one_class(
    kd: &KernelData<'_>,
    rows: &[u32],
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    start: Option<Start>,
) -> Result<Solved, SvmError> {
    let l = rows.len();
    let n = (nu * l as f64) as usize; // (int)(param->nu * prob->l)
    let mut alpha = vec![0.0; l];
    for a in alpha.iter_mut().take(n) {
        *a = 1.0;
    }
    if n < l {
        alpha[n] = nu * l as f64 - n as f64;
    }
    let (alpha, gradient) = match start {
        None => (alpha, None),
        Some(s) if s.alpha.len() == l => (s.alpha, s.gradient),
        Some(_) => {
            return Err(SvmError::InvalidParam(
                "a one-class start has l variables".into(),
            ))
        }
    };
    let (alpha, stats) = match params.solver {
        SolverKind::Smo => {
            let sol = solve_general(Problem {
                q: OneClassQ::new(kd, rows.to_vec(), params.cache_mb, shared),
                p: vec![0.0; l],
                y: vec![1; l],
                alpha,
                c: vec![1.0; l],
                eps: params.eps,
                shrinking: params.shrinking,
                max_iter: params.max_iter,
                nu: false,
                gradient,
            })?;
            (sol.alpha, sol.stats)
        }
        SolverKind::Batched => {
            let sol = solve_one_class_batched(kd, rows, params, (&alpha, gradient), shared)?;
            (sol.alpha, sol.stats)
        }
    };
    Ok(Solved {
        alpha,
        stats,
        upper_bound: 1.0,
        info: None,
        end: None,
    })
}
