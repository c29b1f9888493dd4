//! The epsilon-SVR grid's warm starts (`cvbench grid -s 3`, `--reuse
//! cpath`): within one gamma and one fold, the points are solved in a
//! chain, each from an earlier point's solution made feasible instead of
//! from zero.
//!
//! The order of a (gamma, fold) chain ([`warm_plan`]): the epsilon values
//! from the largest down (a larger epsilon has fewer support vectors: the
//! cheapest first), and for each epsilon the C values ascending. The start
//! of each point (`beta_i = a_i - a*_i` the coefficient of training row
//! `i`; `a_i = max(beta_i, 0)`, `a*_i = max(-beta_i, 0)`):
//!
//! - **along epsilon** (the same C, the previous epsilon of the chain): the
//!   previous solution as it is. The bounds `[0, C]` and the equality
//!   `sum_i beta_i = 0` do not depend on epsilon, so it is feasible.
//! - **along C** (the first epsilon: the same epsilon, the previous C):
//!   `beta' = beta C'/C`, which keeps `sum beta' = 0` and `|beta'| <= C'`;
//!   a coefficient at the bound `|beta| = C` goes to exactly `C'`, and one
//!   that rounding would put past `C'` is clipped to it (a change of the
//!   last bit of the sum, as any solve's own rounding).
//! - the chain's first point, and a point with no earlier point of its C
//!   or its epsilon, from zero: LIBSVM's solve, bit for bit.
//!
//! Any feasible start reaches the optimum of the same convex problem and
//! the solver stops by the same rule (`-e`) as from zero, so each point is
//! exact to the stopping tolerance (as the seeded CV,
//! [`crate::svm::cv::seeded_svr`]): its coefficients, held-out predictions
//! and CV mean squared error agree with the cold solve's within what that
//! tolerance allows, not bit for bit. A chain is one thread's sequence of
//! single-threaded solves, so the results do not depend on the threads.

use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::seeded_gradient::svr_start_gradient;
use crate::svm::formulation::function_model::train_function_from;
use crate::svm::formulation::held_out_kernel::HeldOutKernel;
use crate::svm::formulation::FunctionFit;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::{CheckedParams, SvmType};
use crate::svm::smo::general::{Start, StartGradient};
use crate::svm::SvmError;

/// One solve of a chain: the point's index and where its start comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Step {
    /// The point (an index into the grid's points).
    pub(super) k: usize,
    /// The earlier step of the chain whose solution starts it (`None`:
    /// from zero).
    pub(super) from: Option<usize>,
}

/// The chain of one gamma's epsilon-SVR points `ks` (`(C, epsilon)` each),
/// the same for every fold: epsilon descending, C ascending within it;
/// each step from the same C at the previous epsilon, else from the
/// previous C at the same epsilon, else from zero (see the module doc).
pub(super) fn warm_plan(ks: &[usize], ce: &[(f64, f64)]) -> Vec<Step> {
    let mut order: Vec<usize> = ks.to_vec();
    // Stable: equal points keep the grid's order.
    order.sort_by(|&a, &b| {
        let (ca, ea) = ce[a];
        let (cb, eb) = ce[b];
        eb.total_cmp(&ea).then(ca.total_cmp(&cb))
    });
    let mut steps: Vec<Step> = Vec::with_capacity(order.len());
    for (i, &k) in order.iter().enumerate() {
        let (c, e) = ce[k];
        // The previous epsilon of the chain (the largest one above e).
        let prev_e = steps
            .iter()
            .map(|s| ce[s.k].1)
            .filter(|&x| x > e)
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))));
        let same_c = prev_e.and_then(|pe| {
            (0..i).rev().find(|&j| {
                let (cj, ej) = ce[order[j]];
                cj == c && ej == pe
            })
        });
        let prev_c = || (0..i).rev().find(|&j| ce[order[j]].1 == e);
        steps.push(Step {
            k,
            from: same_c.or_else(prev_c),
        });
    }
    steps
}

/// The start of a solve at C' = `c1` from the coefficients `beta` of a
/// solution at C = `c0` (`2l` variables `a_1..a_l, a*_1..a*_l`):
/// `beta C'/C`, a coefficient at the bound going to exactly C' and none
/// past it (see the module doc). `c1 == c0`: `beta` as it is.
pub(super) fn scaled_start(beta: &[f64], c0: f64, c1: f64) -> Vec<f64> {
    let l = beta.len();
    let t = c1 / c0;
    let mut start = vec![0.0; 2 * l];
    for (k, &b) in beta.iter().enumerate() {
        let m = if b.abs() >= c0 {
            c1
        } else {
            (b.abs() * t).min(c1)
        };
        if b > 0.0 {
            start[k] = m;
        } else if b < 0.0 {
            start[k + l] = m;
        }
    }
    start
}

/// The gradient of [`scaled_start`]`(beta, c0, c1)` from the end state
/// `end` of the solve that found `beta` at C = `c0`: `Q a` and `G_bar` times
/// `C'/C` (the coefficients are scaled by it, and so are the bounds of
/// those at the bound); `None` where the scaled start puts a coefficient
/// at the bound that was not there (the clip: its column would join
/// `G_bar`), or the end state does not have `2l` variables.
pub(super) fn scaled_end(
    end: &StartGradient,
    beta: &[f64],
    c0: f64,
    c1: f64,
) -> Option<StartGradient> {
    let l = beta.len();
    if end.q_alpha.len() != 2 * l || end.g_bar.len() != 2 * l {
        return None;
    }
    if c1 == c0 {
        return Some(end.clone());
    }
    let t = c1 / c0;
    let same_bounds = beta.iter().all(|b| b.abs() >= c0 || b.abs() * t < c1);
    same_bounds.then(|| StartGradient {
        q_alpha: end.q_alpha.iter().map(|v| v * t).collect(),
        g_bar: end.g_bar.iter().map(|v| v * t).collect(),
        kernel_evals: 0,
        seconds: 0.0,
    })
}

/// One round of a chain: its point, held-out predictions (the fold's row
/// order), SMO iterations and kernel evaluations.
pub(super) struct ChainRound {
    pub(super) k: usize,
    pub(super) predictions: Vec<f64>,
    pub(super) iterations: u64,
    pub(super) kernel_evals: u64,
}

/// What every chain of one gamma reads.
pub(super) struct WarmChains<'a> {
    pub(super) kd: &'a KernelData<'a>,
    pub(super) folds: &'a Folds,
    /// Every point's checked parameters (C, the gamma's kernel).
    pub(super) checked: &'a [CheckedParams],
    /// Every point's formulation (epsilon-SVR on this path).
    pub(super) types: &'a [SvmType],
    pub(super) shared: Option<&'a SharedKernelCache>,
    /// Each fold's held-out kernel block, where there is one.
    pub(super) held: &'a [Option<HeldOutKernel>],
}

impl WarmChains<'_> {
    /// The chain `steps` on fold `h`: each step's round in the steps' order.
    pub(super) fn run(&self, h: usize, steps: &[Step]) -> Result<Vec<ChainRound>, SvmError> {
        let train = self.folds.train_rows(h);
        let test = self.folds.test_rows(h);
        let l = train.len();
        let srows: Vec<u32> = train.iter().map(|&r| r as u32).collect();
        // A kept solution: its coefficients and the SMO's end state.
        let mut coefs: Vec<Option<(Vec<f64>, Option<StartGradient>)>> = vec![None; steps.len()];
        let mut out = Vec::with_capacity(steps.len());
        for (i, s) in steps.iter().enumerate() {
            let params = &self.checked[s.k];
            let SvmType::EpsilonSvr { p } = self.types[s.k] else {
                return Err(SvmError::InvalidParam(format!(
                    "the warm-started grid is built for epsilon-SVR, not {}",
                    self.types[s.k].name()
                )));
            };
            let (start, gradient) = match s.from.and_then(|j| coefs[j].as_ref().map(|k| (j, k))) {
                None => (vec![0.0; 2 * l], None),
                Some((j, (beta, end))) => {
                    let c0 = self.checked[steps[j].k].c;
                    let start = scaled_start(beta, c0, params.c);
                    // The start's gradient from the earlier solve's end
                    // state, scaled as its coefficients; else (a bound
                    // reached by the clip, or no end state) from one
                    // kernel mat-vec (the seeded CV's), not one `Q` column
                    // per non-zero variable. A cold start's is LIBSVM's.
                    let g = end
                        .as_ref()
                        .and_then(|e| scaled_end(e, beta, c0, params.c))
                        .unwrap_or_else(|| {
                            svr_start_gradient(self.kd, &srows, &start, params.c, self.shared)
                        });
                    (start, Some(g))
                }
            };
            let start = Start {
                alpha: start,
                gradient,
            };
            let svr = SvmType::EpsilonSvr { p };
            let fit: FunctionFit =
                train_function_from(self.kd, &train, params, svr, Some(start), self.shared)?;
            let predictions = self
                .held
                .get(h)
                .and_then(Option::as_ref)
                .and_then(|b| b.predict(&fit))
                .unwrap_or_else(|| fit.model.predict_rows(&self.kd.ds, test));
            // Keep a solution only while a later step starts from it.
            if steps[i + 1..].iter().any(|t| t.from == Some(i)) {
                coefs[i] = Some((fit.coef, fit.end));
            }
            if let Some(j) = s.from {
                if !steps[i + 1..].iter().any(|t| t.from == Some(j)) {
                    coefs[j] = None;
                }
            }
            out.push(ChainRound {
                k: s.k,
                predictions,
                iterations: fit.stats.iterations,
                kernel_evals: fit.stats.kernel_evals,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_goes_down_epsilon_and_up_c() {
        // Points in the grid's order: epsilon outermost (ascending), C inner.
        let ce = [
            (1.0, 0.1),
            (4.0, 0.1),
            (16.0, 0.1),
            (1.0, 0.5),
            (4.0, 0.5),
            (16.0, 0.5),
        ];
        let ks: Vec<usize> = (0..6).collect();
        let plan = warm_plan(&ks, &ce);
        let ks_in: Vec<usize> = plan.iter().map(|s| s.k).collect();
        assert_eq!(ks_in, vec![3, 4, 5, 0, 1, 2]);
        let from: Vec<Option<usize>> = plan.iter().map(|s| s.from).collect();
        // epsilon 0.5 along C from zero; epsilon 0.1 from the same C.
        assert_eq!(
            from,
            vec![None, Some(0), Some(1), Some(0), Some(1), Some(2)]
        );
        // A C missing at the previous epsilon: along C instead.
        let ce2 = [(1.0, 0.5), (1.0, 0.1), (2.0, 0.1)];
        let p2 = warm_plan(&[0, 1, 2], &ce2);
        assert_eq!(
            p2,
            vec![
                Step { k: 0, from: None },
                Step {
                    k: 1,
                    from: Some(0)
                },
                Step {
                    k: 2,
                    from: Some(1)
                }
            ]
        );
    }

    #[test]
    fn scaled_start_is_feasible() {
        let beta = [1.0, -0.25, -0.75, 0.0];
        let s = scaled_start(&beta, 1.0, 4.0);
        assert_eq!(s, vec![4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 3.0, 0.0]);
        let sum: f64 = s[..4].iter().sum::<f64>() - s[4..].iter().sum::<f64>();
        assert_eq!(sum, 0.0);
        // Same C: as it is; a smaller C scales down within the bound.
        assert_eq!(
            scaled_start(&beta, 1.0, 1.0),
            vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.75, 0.0]
        );
        let d = scaled_start(&beta, 1.0, 0.5);
        assert!(d.iter().all(|&a| (0.0..=0.5).contains(&a)));
    }
}
