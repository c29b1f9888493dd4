//! The seeded CV of nu-SVC (`-s 1 --seeding sir | sir_two_chains`): the
//! rounds as chains (as [`super::seeded_svr`]), each class pair of a round
//! started from the same pair's solution in the round before.
//!
//! LIBSVM's `solve_nu_svc` solves, per class pair of `l` rows,
//! `min 1/2 a^T Q a` over `0 <= a_i <= 1` with `sum_{y_i = +1} a_i =
//! sum_{y_i = -1} a_i = nu l / 2` (`Solver_NU`), and only then scales the
//! coefficients by `1 / r` (`coef_i = y_i a_i / r`). The seed is in the
//! solver's unscaled variables: `a_i = |coef_i| r` (`r = 1 / C`, the `C`
//! it prints) of round `h - 1`'s pair with the same two labels, for the
//! kept rows; rows that left drop; an entered row (held out by round `h -
//! 1`) starts at the value the optimality conditions give it under round
//! `h - 1`'s pair function (scaled: the margin is 1): `1` where `y f(x) <
//! 1`, else `0`. Each label's sum is then moved to this round's `nu l / 2`
//! by [`super::seeded_sums::restore_sum`] (entered rows first, bound 1), so
//! both equality constraints hold; where that is not feasible (a fold
//! whose classes make nu infeasible) or the pair is new, the pair starts
//! from `solve_nu_svc`'s fill, as unseeded.
//!
//! Exact to the stopping tolerance as every seeded CV here: any feasible
//! start reaches the optimum of the same convex problem under the same
//! stopping rule. The solves and their gradients
//! ([`super::seeded_gradient`]) are the same on any thread count.

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::formulations::{
    gathered, round_caches, FormulationCvOptions, FormulationCvResult, FormulationRound,
};
use crate::svm::cv::seeded_gradient::signed_start_gradient;
use crate::svm::cv::seeded_sums::restore_sum;
use crate::svm::cv::strategy::RoundOrder;
use crate::svm::formulation::nu_svc::{pair_fit, solve_nu_svc_from};
use crate::svm::kernel::KernelData;
use crate::svm::model::params::{CheckedParams, SvmType};
use crate::svm::multiclass::train::{assemble, PairFit};
use crate::svm::multiclass::Groups;
use crate::svm::smo::general::Start;
use crate::svm::SvmError;

/// Each pair's previous solution by dataset row (keyed by its labels): the
/// solver's `a` of its training rows and its held-out rows' guesses.
type PairSeeds = HashMap<(u64, u64), Vec<f64>>;

/// The seeded nu-SVC CV's rounds (chains as `order` says), inputs checked.
pub(crate) fn run(
    ds: &Dataset,
    folds: &Folds,
    params: &CheckedParams,
    nu: f64,
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
    let done = chains
        .into_par_iter()
        .map(|hs| chain(&kd, folds, &local, nu, shared.as_ref(), hs))
        .collect::<Result<Vec<_>, SvmError>>()?;
    Ok(gathered(
        ds,
        folds,
        SvmType::NuSvc { nu },
        done.into_iter().flatten(),
        shared.as_ref(),
        t0,
    ))
}

/// The key of a pair: its two labels' bits, the smaller first.
fn key(a: f64, b: f64) -> (u64, u64) {
    let (a, b) = (a.to_bits(), b.to_bits());
    (a.min(b), a.max(b))
}

/// The rounds `hs` in order, the first from `solve_nu_svc`'s fill, each
/// next pair seeded from the same pair in the round before.
fn chain(
    kd: &KernelData<'_>,
    folds: &Folds,
    params: &CheckedParams,
    nu: f64,
    shared: Option<&SharedKernelCache>,
    hs: std::ops::Range<usize>,
) -> Result<Vec<(FormulationRound, Vec<f64>)>, SvmError> {
    let n = kd.ds.n();
    let mut prev: Option<(PairSeeds, Vec<bool>)> = None;
    let mut out = Vec::with_capacity(hs.len());
    for h in hs {
        let train = folds.train_rows(h);
        crate::svm::smo::solve_input::check_train_rows(&train, n)?;
        let groups = Groups::new(&kd.ds, &train)?;
        let fits = groups
            .pairs()
            .into_par_iter()
            .map(|(i, j)| {
                let (ri, rj) = (groups.class_rows(i), groups.class_rows(j));
                let prow: Vec<u32> = ri.iter().chain(rj).map(|&r| r as u32).collect();
                let y: Vec<i8> = std::iter::repeat_n(1i8, ri.len())
                    .chain(std::iter::repeat_n(-1i8, rj.len()))
                    .collect();
                let start = prev.as_ref().and_then(|(seeds, entered)| {
                    let by_row = seeds.get(&key(groups.labels[i], groups.labels[j]))?;
                    let a: Vec<f64> = prow.iter().map(|&r| by_row[r as usize]).collect();
                    let e: Vec<bool> = prow.iter().map(|&r| entered[r as usize]).collect();
                    let alpha = seed(a, &e, &y, nu)?;
                    let gradient = signed_start_gradient(kd, &prow, &y, &alpha, 1.0, shared);
                    Some(Start {
                        alpha,
                        gradient: Some(gradient),
                    })
                });
                let s = solve_nu_svc_from(kd, &prow, &y, params, nu, shared, start)?;
                Ok(pair_fit((i, j), s))
            })
            .collect::<Result<Vec<_>, SvmError>>()?;
        let (pairs, cs): (Vec<PairFit>, Vec<f64>) = fits.into_iter().unzip();
        let model = assemble(kd, &groups, &pairs);
        let test = folds.test_rows(h);
        let dec = model.decision_values_rows(&kd.ds, test);
        let preds: Vec<f64> = dec.iter().map(|d| model.vote(d)).collect();
        // Each pair's `a` by row for the next round: its training rows'
        // (unscaled: `|coef| r`), its held-out rows' guesses.
        let mut seeds = PairSeeds::new();
        for (p, (pair, &c)) in pairs.iter().zip(&cs).enumerate() {
            let (i, j) = pair.classes;
            let (li, lj) = (groups.labels[i], groups.labels[j]);
            let mut by_row = vec![0.0; n];
            let rows = groups.class_rows(i).iter().chain(groups.class_rows(j));
            for (&r, &coef) in rows.zip(&pair.coef) {
                by_row[r] = (coef.abs() / c).min(1.0);
            }
            for (t, &r) in test.iter().enumerate() {
                let yr = kd.ds.y[r];
                let sign = if yr == li {
                    1.0
                } else if yr == lj {
                    -1.0
                } else {
                    continue;
                };
                by_row[r] = if sign * dec[t][p] < 1.0 { 1.0 } else { 0.0 };
            }
            seeds.insert(key(li, lj), by_row);
        }
        let mut entered = vec![false; n];
        for &r in test {
            entered[r] = true;
        }
        prev = Some((seeds, entered));
        out.push((
            FormulationRound {
                fold: h,
                n_train: train.len(),
                n_test: test.len(),
                solves: pairs.iter().map(|p| p.stats.clone()).collect(),
                infos: cs.iter().map(|&c| Some(("C", c))).collect(),
                classes: Some((model.nr_class(), model.total_sv())),
                printed: None,
            },
            preds,
        ));
    }
    Ok(out)
}

/// A pair's start from the kept `a` and the guesses (`entered`), each
/// label's sum moved to `nu l / 2` (see the module doc); `None`: the fill.
fn seed(a: Vec<f64>, entered: &[bool], y: &[i8], nu: f64) -> Option<Vec<f64>> {
    let target = nu * a.len() as f64 / 2.0;
    let mut out = a.clone();
    for label in [1i8, -1] {
        let idx: Vec<usize> = (0..a.len()).filter(|&k| y[k] == label).collect();
        let mut v: Vec<f64> = idx.iter().map(|&k| a[k]).collect();
        let e: Vec<bool> = idx.iter().map(|&k| entered[k]).collect();
        if !restore_sum(&mut v, &e, target, 1.0) {
            return None;
        }
        for (&k, x) in idx.iter().zip(v) {
            out[k] = x;
        }
    }
    Some(out)
}
