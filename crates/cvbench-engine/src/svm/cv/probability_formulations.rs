//! `svm-train -s 1|3|4 -b 1 -v K`: the cross-validation of nu-SVC,
//! epsilon-SVR and nu-SVR with probability estimates, as
//! `svm_cross_validation` runs it.
//!
//! Each round trains with the probability model (`svm_train` with
//! `probability = 1`: nu-SVC's per-pair internal 5-fold CV and sigmoid,
//! an SVR's internal 5-fold CV and Laplace scale), its internal shuffles
//! drawn from the one `rand()` stream that drew the folds, round after
//! round, as svm-train draws them; so the rounds run one after another
//! (each round's class pairs in parallel on the current pool). A nu-SVC
//! round predicts its held-out rows by `svm_predict_probability` (the
//! class of the largest pairwise-coupled probability, which can differ
//! from the vote: the accuracy differs from `-v` without `-b 1`, as
//! svm-train's); an SVR round by `svm_predict` (LIBSVM's SVR probability
//! does not move the prediction: the mean squared error is `-v`'s).
//! Every round prints what its training prints, internal CVs first.
//! One-class has no probability model (refused, as svm-train 3.24 refuses
//! `-s 2 -b 1`).

use std::time::Instant;

use super::folds::{Folds, GlibcRand};
use super::formulations::{
    checked_inputs, gathered, round_caches, summarised, FormulationCv, FormulationCvOptions,
    FormulationRound,
};
use super::strategy::RoundOrder;
use crate::data::Dataset;
use crate::svm::formulation::fit_lines::{function_lines, nu_svc_lines};
use crate::svm::formulation::nu_svc::check_nu_feasible;
use crate::svm::formulation::nu_svc_probability::train_nu_svc_probability_with;
use crate::svm::formulation::svr_probability::train_svr_probability_with;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::{SvmParams, SvmType};
use crate::svm::multiclass::Groups;
use crate::svm::SvmError;

/// Cross-validate `svm_type` (nu-SVC, epsilon-SVR or nu-SVR) with the
/// probability model on `folds` of `ds`, `rng` the `rand()` stream after
/// the folds' draws (svm-train's: the default seed, then the folds), as
/// `svm-train -b 1 -v k` does (see the module doc). `params.cache_mb` is
/// the run's kernel-cache budget, shared as [`super::formulations`]'s
/// rounds share it.
pub fn cross_validate_formulation_probability(
    ds: &Dataset,
    folds: &Folds,
    params: &SvmParams,
    svm_type: SvmType,
    rng: &mut GlibcRand,
    opts: FormulationCvOptions,
) -> Result<FormulationCv, SvmError> {
    match svm_type {
        SvmType::CSvc => {
            return Err(SvmError::InvalidParam(
                "C-SVC (-s 0) with probability estimates is cross-validated by cross_validate_ovo (OvoCvOptions::probability)".into(),
            ))
        }
        SvmType::OneClass { .. } => {
            return Err(SvmError::InvalidParam(
                "one-class SVM probability output not supported yet (svm-train refuses -s 2 -b 1)"
                    .into(),
            ))
        }
        _ => {}
    }
    let checked = checked_inputs(ds, folds, params, svm_type, opts)?;
    if let SvmType::NuSvc { nu } = svm_type {
        let all: Vec<usize> = (0..ds.n()).collect();
        check_nu_feasible(&Groups::new(ds, &all)?, nu)?;
    }
    let result = crate::svm::cv::pool::with_threads(opts.threads, || {
        let t0 = Instant::now();
        let kd = KernelData::new(ds, checked.kernel);
        let (local, shared) = round_caches(&kd, &checked, opts, RoundOrder::PerRound)?;
        let mut rounds = Vec::with_capacity(folds.k());
        for h in 0..folds.k() {
            let train = folds.train_rows(h);
            let test = folds.test_rows(h);
            let round = |solves, infos, classes, printed| FormulationRound {
                fold: h,
                n_train: train.len(),
                n_test: test.len(),
                solves,
                infos,
                classes,
                printed: Some(printed),
            };
            rounds.push(match svm_type {
                SvmType::NuSvc { nu } => {
                    let fit = train_nu_svc_probability_with(
                        &kd,
                        &train,
                        &local,
                        nu,
                        shared.as_ref(),
                        rng,
                    )?;
                    let model = &fit.ovo.model;
                    let preds: Vec<f64> = test
                        .iter()
                        .map(|&r| {
                            let x = kd.ds.row(r);
                            model
                                .predict_probability(x)
                                .map_or_else(|| model.predict(x), |(label, _)| label)
                        })
                        .collect();
                    let r = round(
                        fit.ovo.pairs.iter().map(|p| p.stats.clone()).collect(),
                        fit.c.iter().map(|&c| Some(("C", c))).collect(),
                        Some((model.nr_class(), model.total_sv())),
                        nu_svc_lines(&fit),
                    );
                    (r, preds)
                }
                _ => {
                    let (fit, prob) = train_svr_probability_with(
                        &kd,
                        &train,
                        &local,
                        svm_type,
                        shared.as_ref(),
                        rng,
                    )?;
                    let preds = fit.model.predict_rows(&kd.ds, test);
                    let r = round(
                        vec![fit.stats.clone()],
                        vec![fit.info],
                        None,
                        function_lines(&fit, Some(&prob)),
                    );
                    (r, preds)
                }
            });
        }
        Ok::<_, SvmError>(gathered(ds, folds, svm_type, rounds, shared.as_ref(), t0))
    })?;
    Ok(summarised(ds, folds, svm_type, result))
}
