//! A batched working-set solver of the C-SVC dual: the same problem as
//! [`super::smo`], solved with working sets of hundreds of variables, after
//! the "thunder" method of ThunderSVM (Wen, Shi, Li, He & Chen, JMLR 2018),
//! the design of Intel oneDAL's SVC:
//!
//! 1. **Select** a working set `B` of `q` variables by violation: the
//!    largest `-y_t G_t` of `I_up` and the smallest of `I_low`, side by side,
//!    keeping the newer half of the previous set ([`select`]);
//! 2. **Compute** the kernel rows of `B` that are not stored, as one block
//!    (a matrix product on dense data, an inverted index on sparse data),
//!    kept in a row store with LRU eviction or read from a cache shared
//!    across solves ([`rows`]);
//! 3. **Solve** the sub-problem on `B` with LIBSVM's SMO to a local
//!    tolerance `max(eps, 0.1 (m - M)_B)` ([`inner`]);
//! 4. **Update** the gradient of every variable with one block product,
//!    `G += Q_{:,B} (a_B - a_B^old)`, and `G_bar` for the variables of `B`
//!    that reached or left their upper bound.
//!
//! It stops on LIBSVM's rule, `m(a) - M(a) < eps` over all variables
//! (LIBSVM eq. (4.8)), computed on the maintained gradient as the SMO does,
//! so its optimum is LIBSVM's to the stopping tolerance; the iterations (the
//! inner two-variable steps) and the exact alphas differ. `rho`, the
//! objective and the reported violation come from [`crate::svm::smo::optimality`],
//! as for the SMO. No shrinking: every variable stays active (each working
//! set's gradient update is a block product over all rows anyway).
//!
//! The nu formulations' dual (`Solver_NU`: a second equality constraint,
//! each label's sum of alphas fixed) is solved the same way with three
//! parts replaced, as `Solver_NU` replaces them in LIBSVM: the working set
//! is filled a pair of one label at a time ([`select`]), the inner SMO
//! steps within a label, and the stop and rho are `Solver_NU`'s.
//!
//! Everything is a function of the inputs alone: sets are sorted with ties
//! broken by position, blocks of rows are cut by length, and every sum runs
//! in a fixed order, so the result is bit-identical for any thread count.
//!
//! Modules: `select` (step 1), `rows` (step 2; the kernel rows themselves
//! are [`crate::svm::kernel::basis_rows`]'s), `inner` (step 3), `lanes` (the
//! element-wise hot loops, compiled for the widest vector unit).

mod inner;
pub(super) mod lanes;
mod rows;
mod select;

use std::time::Instant;

use self::inner::Block;
use self::rows::{add_block_product, RowLayout, RowStore};
use super::SvmError;
use crate::svm::formulation::solver_nu::{nu_violation, rho_and_r};
use crate::svm::smo::optimality::{self, status_of, UPPER};
use crate::svm::smo::sample_weight::row_bounds;
use crate::svm::smo::solve_input::{check_input_with, SolveInput};
use crate::svm::smo::solve_stats::{SolveOutput, SolveStats};

/// Variables per working set (fewer when the problem is smaller).
pub const WORKING_SET: usize = 512;

/// Solve the C-SVC dual with the batched method (see the module doc). Takes
/// the same input as [`super::smo::solve`] (`shrinking` is not used) and
/// returns the same output, in the order of the rows given.
pub fn solve(inp: SolveInput<'_, '_>) -> Result<SolveOutput, SvmError> {
    solve_with_linear_term(inp, None, true)
}

/// [`solve`] of the dual with the linear term `p` (one entry per variable;
/// `None`: C-SVC's `-e`): `min 1/2 a^T Q a + p^T a`, `y^T a = 0`, `0 <= a
/// <= C`, `Q_st = y_s y_t K(x_s, x_t)`. A variable is a position of
/// `inp.rows`, and a dataset row may be the row of several variables:
/// epsilon-SVR's `2l` variables `a_k, a*_k` are two positions of row `k`,
/// labelled `+1` and `-1` ([`crate::svm::formulation`]'s `SVR_Q`, read
/// through the same kernel rows). With `zero_sum` the start must have `y^T a
/// = 0`; without, the equality constant is the start's own (one-class's
/// `e^T a = nu l`); every step keeps it.
pub(crate) fn solve_with_linear_term(
    inp: SolveInput<'_, '_>,
    p: Option<&[f64]>,
    zero_sum: bool,
) -> Result<SolveOutput, SvmError> {
    let rule = if zero_sum {
        Equalities::ZeroSum
    } else {
        Equalities::StartSum
    };
    solve_rule(inp, p, rule).map(|(out, _)| out)
}

/// [`solve_with_linear_term`] of a nu formulation's dual (`Solver_NU`:
/// nu-SVC, nu-SVR), whose start fixes both `y^T a` and `e^T a`: each
/// working set is filled by label ([`select::working_set_nu`]), each inner
/// step moves two variables of one label, the solve stops on `Solver_NU`'s
/// gap ([`crate::svm::formulation::solver_nu::nu_violation`]) and returns
/// `calculate_rho`'s rho (in the stats) and `r`.
pub(crate) fn solve_nu(inp: SolveInput<'_, '_>, p: &[f64]) -> Result<(SolveOutput, f64), SvmError> {
    solve_rule(inp, Some(p), Equalities::PerLabel)
}

/// The dual's equality constraints, which decide the selection, the stop
/// and rho.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Equalities {
    /// `y^T a = 0`, checked at the start (C-SVC, epsilon-SVR).
    ZeroSum,
    /// `y^T a` the start's own (one-class's `e^T a = nu l`).
    StartSum,
    /// `y^T a` and `e^T a` the start's own: the sum of each label's
    /// variables fixed (`Solver_NU`).
    PerLabel,
}

/// The solve under `rule`: the output and `r` (`Solver_NU`'s; 0 for the
/// other rules).
fn solve_rule(
    inp: SolveInput<'_, '_>,
    p: Option<&[f64]>,
    rule: Equalities,
) -> Result<(SolveOutput, f64), SvmError> {
    crate::cancel::check()?;
    let t0 = Instant::now();
    let nu = rule == Equalities::PerLabel;
    if nu && inp.alpha0.is_none() {
        return Err(SvmError::InvalidParam(
            "a nu formulation's solve starts from its feasible fill".into(),
        ));
    }
    let violation = if nu {
        nu_violation
    } else {
        optimality::kkt_violation
    };
    let mut alpha = check_input_with(&inp, rule == Equalities::ZeroSum)?;
    let l = inp.rows.len();
    if let Some(p) = p {
        if p.len() != l || p.iter().any(|v| !v.is_finite()) {
            return Err(SvmError::InvalidParam(
                "the linear term needs one finite entry per variable".into(),
            ));
        }
    }
    let q = WORKING_SET.min(l);
    let y = inp.y;
    let c: Vec<f64> = match inp.kd.sample_weights() {
        Some(w) => row_bounds(w, inp.rows, y, inp.c_pos, inp.c_neg),
        None => y
            .iter()
            .map(|&v| if v > 0 { inp.c_pos } else { inp.c_neg })
            .collect(),
    };
    let qd: Vec<f64> = inp
        .rows
        .iter()
        .map(|&r| inp.kd.diagonal(r as usize))
        .collect();
    let mut status: Vec<u8> = alpha
        .iter()
        .zip(&c)
        .map(|(&a, &cc)| status_of(a, cc))
        .collect();
    let mut store = RowStore::new(inp.kd, inp.rows, inp.shared, inp.cache_mb, q);
    let layout = store.layout();
    let (mut g, mut g_bar) = match (inp.alpha0, inp.grad0) {
        (Some(_), Some((g, gb))) => (g.to_vec(), gb.to_vec()),
        _ => start_gradient(&mut store, &layout, y, (&alpha, &c, &status), (p, q)),
    };
    let mut stats = SolveStats::default();
    stats.timings.init_s = t0.elapsed().as_secs_f64();

    let t1 = Instant::now();
    let max_iter = inp
        .max_iter
        .unwrap_or_else(|| (100u64.saturating_mul(l as u64)).max(10_000_000));
    let mut keep: Vec<usize> = Vec::new();
    while violation(y, &g, &status) >= inp.eps {
        crate::cancel::check()?;
        if stats.iterations >= max_iter {
            stats.hit_max_iter = true;
            break;
        }
        let ws = if nu {
            select::working_set_nu(y, &g, &status, &keep, q)
        } else {
            select::working_set(y, &g, &status, &keep, q)
        };
        let krows = store.fetch(&ws);
        let mut block = Block::new(&ws, (&krows, &layout), &alpha, &g, y, &c, &qd);
        let steps = block.solve(inp.eps, max_iter - stats.iterations, nu);
        stats.working_sets += 1;
        if steps == 0 {
            // The most violating pair is in the set, so this cannot happen
            // short of rounding at the tolerance: stop rather than loop.
            break;
        }
        stats.iterations += steps;
        let mut w = vec![0.0; ws.len()];
        let mut w_bar = vec![0.0; ws.len()];
        for (k, &t) in ws.iter().enumerate() {
            let yt = f64::from(y[t]);
            w[k] = yt * (block.alpha[k] - alpha[t]);
            let (was, is) = (status[t] == UPPER, block.alpha[k] >= c[t]);
            if was != is {
                w_bar[k] = yt * if is { c[t] } else { -c[t] };
            }
            alpha[t] = block.alpha[k];
            status[t] = status_of(alpha[t], c[t]);
        }
        add_block_product(&mut g, y, &krows, &w, &layout);
        add_block_product(&mut g_bar, y, &krows, &w_bar, &layout);
        keep = ws[ws.len().saturating_sub(q / 2)..].to_vec();
    }
    let (rho, r) = if nu {
        rho_and_r(y, &g, &status)
    } else {
        (optimality::rho(y, &g, &status), 0.0)
    };
    stats.rho = rho;
    stats.objective = match p {
        None => optimality::objective(&alpha, &g),
        Some(p) => optimality::objective_with_linear_term(&alpha, &g, p),
    };
    stats.kkt_violation = violation(y, &g, &status);
    stats.n_sv = alpha.iter().filter(|&&a| a > 0.0).count();
    stats.n_bsv = alpha.iter().zip(&c).filter(|(&a, &cc)| a >= cc).count();
    stats.kernel_evals = store.kernel_evals + l as u64;
    stats.shared_hits = store.shared_hits;
    stats.cache_hits = store.hits;
    stats.cache_misses = store.misses;
    stats.timings.train_s = t1.elapsed().as_secs_f64();
    Ok((
        SolveOutput {
            alpha,
            gradient: g,
            g_bar,
            stats,
        },
        r,
    ))
}

/// `G = p + sum_{a_j > 0} a_j Q_j` (`p = -e` where not given) and `G_bar =
/// sum_{a_j = C_j} C_j Q_j` at a warm start, the support vectors' rows
/// taken `q` at a time.
fn start_gradient(
    store: &mut RowStore<'_, '_>,
    layout: &RowLayout<'_>,
    y: &[i8],
    (alpha, c, status): (&[f64], &[f64], &[u8]),
    (p, q): (Option<&[f64]>, usize),
) -> (Vec<f64>, Vec<f64>) {
    let l = y.len();
    let mut g = p.map_or_else(|| vec![-1.0; l], <[f64]>::to_vec);
    let mut g_bar = vec![0.0; l];
    let sv: Vec<usize> = (0..l).filter(|&t| alpha[t] > 0.0).collect();
    for chunk in sv.chunks(q.max(1)) {
        let krows = store.fetch(chunk);
        let w: Vec<f64> = chunk.iter().map(|&t| f64::from(y[t]) * alpha[t]).collect();
        let w_bar: Vec<f64> = chunk
            .iter()
            .map(|&t| {
                if status[t] == UPPER {
                    f64::from(y[t]) * c[t]
                } else {
                    0.0
                }
            })
            .collect();
        add_block_product(&mut g, y, &krows, &w, layout);
        add_block_product(&mut g_bar, y, &krows, &w_bar, layout);
    }
    (g, g_bar)
}
