//! Alpha-seeded k-fold cross-validation of the formulations of one
//! decision function: epsilon-SVR (`svm-train -s 3 -v K` on the same
//! folds, exact to the stopping tolerance; its seed below), nu-SVR
//! ([`super::seeded_nu_svr`]'s seed) and one-class
//! ([`super::seeded_one_class`]'s). nu-SVC's chain is
//! [`super::seeded_nu_svc`].
//!
//! The rounds run as a chain (Wen et al.'s order, as C-SVC's `sir`): round
//! `h` of a chain starts from round `h - 1`'s solution instead of zero.
//! The seed of round `h` (training rows: every fold but `h`) from round
//! `h - 1` (every fold but `h - 1`):
//!
//! - every row in both training sets keeps its coefficient
//!   `beta_i = a_i - a*_i` (as `a_i = max(beta_i, 0)`, `a*_i =
//!   max(-beta_i, 0)`: at epsilon-SVR's optimum with `p > 0` one of the pair
//!   is zero; any pair with that difference is as feasible);
//! - the rows that left (fold `h`) drop out; the rows that entered (fold
//!   `h - 1`, held out by round `h - 1`, whose predictions `f(x_j)` it
//!   made) start at the value the optimality conditions give them under
//!   round `h - 1`'s model: `C` where `y_j - f(x_j) > epsilon`, `-C` where
//!   `< -epsilon`, else zero;
//! - the equality `sum_i (a_i - a*_i) = 0` (broken by `s = sum beta_i`) is
//!   restored by scaling the side in excess towards zero: if `s > 0` the
//!   entered rows' positive `beta_j` by `1 - s / E` (`E` their sum), or all
//!   to zero where `E < s` and then the kept rows' positive ones by
//!   `1 - (s - E) / P` (`P >= s - E`, as the total is `s`); if `s < 0` the
//!   negative ones alike. Scaling towards zero keeps every variable in
//!   `[0, C]`.
//!
//! Any feasible start reaches the optimum of the same convex problem, and
//! the solver stops by the same rule (`eps`) as from zero, so every round
//! is exact to the stopping tolerance: its objective, coefficients and
//! held-out predictions agree with the unseeded round's to within what
//! that tolerance allows (late digits may differ; `-v` without seeding
//! gives svm-train's numbers bit for bit). With two chains (`sir_two_chains`)
//! the rounds are cut in two halves, `0..ceil(k/2)` and the rest, each a
//! chain from zero, run at the same time when two threads are asked.
//! Every solve is single-threaded and a cached kernel value is the value
//! computed, so the results are the same on any thread count.
//!
//! A seeded round's gradient is one kernel mat-vec
//! ([`super::seeded_gradient`]), not LIBSVM's `init_gradient` (one `Q`
//! column per non-zero variable).

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::formulations::{
    checked_inputs, cross_validate_formulation, gathered, in_fold_order, round_caches, summarised,
    FormulationCv, FormulationCvOptions, FormulationCvResult, FormulationRound,
};
use crate::svm::cv::seeded_gradient::{signed_start_gradient, svr_start_gradient};
use crate::svm::cv::strategy::{RoundOrder, SeedingMethod};
use crate::svm::cv::{seeded_nu_svc, seeded_nu_svr, seeded_one_class};
use crate::svm::formulation::function_model::train_function_from;
use crate::svm::formulation::FunctionFit;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::{CheckedParams, SvmParams, SvmType};
use crate::svm::smo::general::Start;
use crate::svm::SvmError;

/// [`cross_validate_formulation`] with alpha seeding `method`: `none` is
/// it (svm-train's numbers bit for bit); for nu-SVC, one-class,
/// epsilon-SVR and nu-SVR `sir` runs the rounds as one chain and
/// `sir_two_chains` as two (see the module doc: exact to the stopping
/// tolerance). Other methods are refused.
pub fn cross_validate_formulation_seeded(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    svm_type: SvmType,
    opts: FormulationCvOptions,
    method: SeedingMethod,
) -> Result<FormulationCv, SvmError> {
    if method == SeedingMethod::None {
        return cross_validate_formulation(ds, folds, params, svm_type, opts);
    }
    if svm_type == SvmType::CSvc {
        return Err(SvmError::InvalidParam(
            "C-SVC's seeded CV is seeded_cross_validate".into(),
        ));
    }
    let order = match method {
        SeedingMethod::Sir => RoundOrder::Chain,
        SeedingMethod::SirTwoChains => RoundOrder::TwoChains,
        _ => {
            return Err(SvmError::InvalidParam(format!(
                "seeding {method} is not built for {}: use none, sir (one chain) or sir_two_chains (two chains)",
                svm_type.name()
            )))
        }
    };
    let checked = checked_inputs(ds, folds, params, svm_type, opts)?;
    if let SvmType::NuSvc { nu } = svm_type {
        let result = crate::svm::cv::pool::with_threads(opts.threads, || {
            in_fold_order(ds, folds, |ds, folds| {
                seeded_nu_svc::run(ds, folds, &checked, nu, order, opts)
            })
        })?;
        return Ok(summarised(ds, folds, svm_type, result));
    }
    if svm_type.is_regression() {
        if let Some(r) = (0..ds.n()).find(|&r| !ds.y[r].is_finite()) {
            return Err(SvmError::NonFinite(format!(
                "target of row {r} is {}",
                ds.y[r]
            )));
        }
    }
    let result = crate::svm::cv::pool::with_threads(opts.threads, || {
        in_fold_order(ds, folds, |ds, folds| {
            run(ds, folds, &checked, svm_type, order, opts)
        })
    })?;
    Ok(summarised(ds, folds, svm_type, result))
}

fn run(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    svm_type: SvmType,
    order: RoundOrder,
    opts: FormulationCvOptions,
) -> Result<FormulationCvResult, SvmError> {
    let t0 = Instant::now();
    let kd = KernelData::new(ds, params.kernel);
    let (local, shared) = round_caches(&kd, params, opts, order)?;
    let k = folds.k();
    let chains: Vec<std::ops::Range<usize>> = match order {
        RoundOrder::Chain => std::iter::once(0..k).collect(),
        _ => {
            let m = k.div_ceil(2);
            vec![0..m, m..k]
        }
    };
    let ctx = Chain {
        kd: &kd,
        folds,
        params: &local,
        svm_type,
        shared: shared.as_ref(),
    };
    let done = chains
        .into_par_iter()
        .map(|hs| ctx.run(hs))
        .collect::<Result<Vec<_>, SvmError>>()?;
    Ok(gathered(
        ds,
        folds,
        svm_type,
        done.into_iter().flatten(),
        shared.as_ref(),
        t0,
    ))
}

/// What every round of a chain reads.
struct Chain<'a> {
    kd: &'a KernelData<'a>,
    folds: &'a Folds,
    params: &'a CheckedParams,
    svm_type: SvmType,
    shared: Option<&'a SharedKernelCache>,
}

impl Chain<'_> {
    /// epsilon-SVR's tube `p` (0 for the others).
    fn eps_tube(&self) -> f64 {
        match self.svm_type {
            SvmType::EpsilonSvr { p } => p,
            _ => 0.0,
        }
    }

    /// The solver's start of a round from the kept rows' variables and
    /// the entered rows' guesses (`pairs`, `entered` marking the guesses),
    /// by the formulation's seed; `None`: LIBSVM's start.
    fn seed(&self, pairs: &[[f64; 2]], entered: &[bool]) -> Option<Vec<f64>> {
        let (l, c) = (pairs.len(), self.params.c);
        match self.svm_type {
            SvmType::EpsilonSvr { .. } => {
                let beta = seed_betas(pairs.iter().map(|p| p[0] - p[1]).collect(), entered);
                let mut start = vec![0.0; 2 * l];
                for (k, &b) in beta.iter().enumerate() {
                    if b > 0.0 {
                        start[k] = b.min(c);
                    } else if b < 0.0 {
                        start[k + l] = (-b).min(c);
                    }
                }
                Some(start)
            }
            SvmType::NuSvr { nu } => seeded_nu_svr::seed(pairs, entered, c, nu),
            SvmType::OneClass { nu } => {
                seeded_one_class::seed(pairs.iter().map(|p| p[0]).collect(), entered, nu)
            }
            SvmType::CSvc | SvmType::NuSvc { .. } => None,
        }
    }

    /// The rounds `hs` in order, the first from zero, each next seeded
    /// from the one before; each round with its held-out predictions.
    fn run(
        &self,
        hs: std::ops::Range<usize>,
    ) -> Result<Vec<(FormulationRound, Vec<f64>)>, SvmError> {
        let n = self.kd.ds.n();
        let c = self.params.c;
        // The previous round's variables by dataset row (`(a, a*)`; `(a,
        // 0)` for one-class), its held-out rows at their guess, and which
        // rows it held out.
        let mut prev: Option<(Vec<[f64; 2]>, Vec<bool>)> = None;
        let mut out = Vec::with_capacity(hs.len());
        for h in hs {
            let train = self.folds.train_rows(h);
            let l = train.len();
            let srows: Vec<u32> = train.iter().map(|&r| r as u32).collect();
            let start = prev.as_ref().and_then(|(by_row, entered)| {
                let pairs: Vec<[f64; 2]> = train.iter().map(|&r| by_row[r]).collect();
                let entered: Vec<bool> = train.iter().map(|&r| entered[r]).collect();
                let alpha = self.seed(&pairs, &entered)?;
                let gradient = Some(if alpha.len() == 2 * l {
                    svr_start_gradient(self.kd, &srows, &alpha, c, self.shared)
                } else {
                    signed_start_gradient(self.kd, &srows, &vec![1; l], &alpha, 1.0, self.shared)
                });
                Some(Start { alpha, gradient })
            });
            let fit: FunctionFit = train_function_from(
                self.kd,
                &train,
                self.params,
                self.svm_type,
                start,
                self.shared,
            )?;
            let test = self.folds.test_rows(h);
            let preds = fit.model.predict_rows(&self.kd.ds, test);
            let mut by_row = vec![[0.0; 2]; n];
            let mut entered = vec![false; n];
            for (&r, &b) in train.iter().zip(&fit.coef) {
                by_row[r] = [b.max(0.0), (-b).max(0.0)];
            }
            // The held-out rows (the next round's entered rows) at the
            // value the optimality conditions give them under this model.
            for (&r, &f) in test.iter().zip(&preds) {
                let resid = self.kd.ds.y[r] - f;
                by_row[r] = match (self.svm_type, fit.info) {
                    (SvmType::OneClass { .. }, _) => seeded_one_class::entered_guess(f),
                    (SvmType::NuSvr { .. }, Some((_, epsilon))) => {
                        seeded_nu_svr::entered_guess(resid, epsilon, c)
                    }
                    (_, _) => seeded_nu_svr::entered_guess(resid, self.eps_tube(), c),
                };
                entered[r] = true;
            }
            prev = Some((by_row, entered));
            out.push((
                FormulationRound {
                    fold: h,
                    n_train: l,
                    n_test: test.len(),
                    solves: vec![fit.stats],
                    infos: vec![fit.info],
                    classes: None,
                    printed: None,
                },
                preds,
            ));
        }
        Ok(out)
    }
}

/// The seed's coefficients from the kept ones and the entered rows'
/// guesses (`beta`, `entered` marking the guesses): the side in excess of
/// `sum beta = 0` scaled towards zero, the entered rows' first and, where
/// they cannot absorb it all (set to zero), the kept rows' by what is left
/// (see the module doc). Magnitudes never grow, signs never change.
pub(crate) fn seed_betas(mut beta: Vec<f64>, entered: &[bool]) -> Vec<f64> {
    let s: f64 = beta.iter().sum();
    if s == 0.0 {
        return beta;
    }
    // Work on the side of the excess, as positive numbers.
    let side = s.signum();
    let mut left = s.abs();
    for pass_entered in [true, false] {
        let total: f64 = beta
            .iter()
            .zip(entered)
            .filter(|&(&b, &e)| e == pass_entered && b * side > 0.0)
            .map(|(&b, _)| b.abs())
            .sum();
        if total <= 0.0 || left <= 0.0 {
            continue;
        }
        let f = (1.0 - left / total).max(0.0);
        for (b, &e) in beta.iter_mut().zip(entered) {
            if e == pass_entered && *b * side > 0.0 {
                *b *= f;
            }
        }
        left = (left - total).max(0.0);
    }
    beta
}

#[cfg(test)]
mod tests {
    use super::seed_betas;

    #[test]
    fn the_seed_restores_the_equality_and_never_grows() {
        for beta in [
            vec![1.0, 0.5, -0.25, 0.0],
            vec![-1.0, -1.0, 0.5, 0.2],
            vec![0.3, -0.3],
            vec![0.0, 0.0],
        ] {
            let entered: Vec<bool> = (0..beta.len()).map(|i| i % 2 == 0).collect();
            let out = seed_betas(beta.clone(), &entered);
            assert!(out.iter().sum::<f64>().abs() < 1e-12, "{out:?}");
            for (a, b) in out.iter().zip(&beta) {
                assert!(a.abs() <= b.abs() && a * b >= 0.0);
            }
        }
    }
}
