//! LIBSVM's other formulations, `svm-train -s 1..4` (nu-SVC, one-class,
//! epsilon-SVR, nu-SVR), through one verb: [`fit_formulation`] trains one
//! on every row of a dataset as `svm-train` does (the rows in the file's
//! order, nu-SVC one-vs-one) and returns a [`FormulationFit`]: the lines
//! `svm-train` prints, the model file it writes ([`FormulationFit::model_text`]), each solve's statistics,
//! and the model's prediction ([`FormulationFit::predict`], what
//! `svm-predict` prints per row). [`FormulationFit::ovo_model`] lays the
//! model out as C-SVC's one-vs-one arrays, for [`super::decision_values`]
//! and for a caller that keeps the model as arrays (the Python package).
//! [`fit_formulation_with`] also trains the probability model (`-b 1`:
//! nu-SVC's pairwise `probA` / `probB`, whose probabilities are
//! [`super::probabilities`] of the one-vs-one model; the SVRs' Laplace
//! `probA`).

use std::path::Path;

use crate::data::{align_index_bases, Dataset};
use crate::svm::formulation::fit_lines::{function_lines, nu_svc_lines};
use crate::svm::formulation::nu_svc_probability::train_nu_svc_probability;
use crate::svm::formulation::svr_probability::train_svr_probability;
use crate::svm::formulation::{train_nu_svc, train_one_function, FunctionModel};
use crate::svm::model::file::{model_text_as, ModelFileError};
use crate::svm::multiclass::MultiModel;
use crate::svm::{SolveStats, SvmError, SvmParams};

/// LIBSVM's formulation (`svm-train -s`) with its own parameter (`-n` nu,
/// `-p` epsilon); `-s 0` (C-SVC) is [`super::fit`]'s.
pub use crate::svm::model::params::SvmType;

/// A trained formulation: what `svm-train` prints and writes, and the
/// model to predict with.
#[derive(Clone, Debug)]
pub struct FormulationFit {
    /// The formulation trained.
    pub svm_type: SvmType,
    /// `svm-train`'s standard output, line by line (the progress marks,
    /// "optimization finished", `C = ` / `nu = ` / `epsilon = `, `obj`,
    /// `rho`, `nSV`; for nu-SVC one block per class pair and `Total nSV`).
    pub lines: Vec<String>,
    /// Each solve's statistics (one per class pair for nu-SVC, else one).
    pub solves: Vec<SolveStats>,
    /// The number of support vectors.
    pub total_sv: usize,
    /// What `svm-train` prints on standard error (the SVR probability
    /// model's CV on fewer than 5 rows).
    pub warnings: Vec<String>,
    /// The model.
    model: Trained,
}

/// The model of a [`FormulationFit`].
#[derive(Clone, Debug)]
enum Trained {
    /// nu-SVC: one-vs-one, as C-SVC's.
    Classes(MultiModel),
    /// One-class or regression: one decision function.
    Function(FunctionModel),
}

/// Train `svm_type` (not C-SVC) with `params` on every row of `ds`, as
/// `svm-train -s 1..4` does. `nu` and `p` are used as given (the caller
/// rounds them as `svm-train` parses them, if it wants its numbers).
pub fn fit_formulation(
    ds: &Dataset,
    params: &SvmParams,
    svm_type: SvmType,
) -> Result<FormulationFit, SvmError> {
    fit_formulation_with(ds, params, svm_type, None)
}

/// [`fit_formulation`], with `probability` `Some(seed)` also the
/// probability model (`svm-train -b 1`): nu-SVC's `probA` / `probB` per
/// class pair, an SVR's Laplace scale (`probA`), their internal 5-fold
/// CVs shuffled by glibc's `rand()` after `srand(seed)` (`Some(1)`:
/// svm-train's, which never calls `srand`), and the lines svm-train
/// prints of them. One-class has none (an error, as svm-train's).
pub fn fit_formulation_with(
    ds: &Dataset,
    params: &SvmParams,
    svm_type: SvmType,
    probability: Option<u32>,
) -> Result<FormulationFit, SvmError> {
    let rows: Vec<usize> = (0..ds.n()).collect();
    match svm_type {
        SvmType::CSvc => Err(SvmError::InvalidParam(
            "C-SVC (-s 0) is trained by api::fit, not fit_formulation".into(),
        )),
        SvmType::OneClass { .. } if probability.is_some() => Err(SvmError::InvalidParam(
            "one-class SVM probability output not supported yet (svm-train refuses -s 2 -b 1)"
                .into(),
        )),
        SvmType::NuSvc { nu } => {
            let fit = match probability {
                Some(seed) => train_nu_svc_probability(ds, &rows, params, nu, seed)?,
                None => train_nu_svc(ds, &rows, params, nu)?,
            };
            Ok(FormulationFit {
                svm_type,
                lines: nu_svc_lines(&fit),
                solves: fit.ovo.pairs.iter().map(|p| p.stats.clone()).collect(),
                total_sv: fit.ovo.model.total_sv(),
                warnings: vec![],
                model: Trained::Classes(fit.ovo.model),
            })
        }
        _ => {
            let (fit, prob) = match probability {
                Some(seed) => {
                    let (fit, prob) = train_svr_probability(ds, &rows, params, svm_type, seed)?;
                    (fit, Some(prob))
                }
                None => (train_one_function(ds, &rows, params, svm_type)?, None),
            };
            Ok(FormulationFit {
                svm_type,
                lines: function_lines(&fit, prob.as_ref()),
                solves: vec![fit.stats.clone()],
                total_sv: fit.model.sv_coef.len(),
                warnings: prob.and_then(|p| p.warning).into_iter().collect(),
                model: Trained::Function(fit.model),
            })
        }
    }
}

impl FormulationFit {
    /// The model file `svm-train` writes, as text (`path` names the file
    /// in an error: a nu-SVC label LIBSVM's format cannot store).
    pub fn model_text(&self, path: &Path) -> Result<String, ModelFileError> {
        match &self.model {
            Trained::Classes(m) => model_text_as(m, "nu_svc", path),
            Trained::Function(m) => Ok(m.model_text()),
        }
    }

    /// The model in C-SVC's one-vs-one layout ([`MultiModel`], as
    /// [`super::fit`] returns it), for [`super::decision_values`] and to be
    /// kept as arrays; `sv_rows` are the support vectors' training rows.
    /// nu-SVC: its own one-vs-one model. One-class and regression: one
    /// "pair" with labels `+1` and `-1`, every support vector counted in
    /// the first (`nr_sv = [total, 0]`), one coefficient row and one rho,
    /// so the pair's decision value is the model's `sum_i coef_i K(sv_i, x)
    /// - rho` summed in the same order, and its vote is one-class's `+1` /
    /// `-1` (`f(x) > 0`).
    pub fn ovo_model(&self) -> MultiModel {
        match &self.model {
            Trained::Classes(m) => m.clone(),
            Trained::Function(f) => MultiModel {
                kernel: f.kernel,
                labels: vec![1.0, -1.0],
                nr_sv: vec![f.sv_coef.len(), 0],
                sv: f.sv.clone(),
                sv_rows: f.sv_rows.clone(),
                sv_coef: vec![f.sv_coef.clone()],
                rho: vec![f.rho],
                prob: None,
            },
        }
    }

    /// What `svm-predict` prints for each row of `test`: the class label
    /// (nu-SVC), `+1` or `-1` (one-class), the predicted value (SVRs).
    pub fn predict(&self, test: &Dataset) -> Vec<f64> {
        let mut test = test.clone();
        match &self.model {
            Trained::Classes(m) => {
                let mut m = m.clone();
                align_index_bases(&mut m.sv, &mut test);
                (0..test.n()).map(|i| m.predict(test.row(i))).collect()
            }
            Trained::Function(m) => {
                let mut m = m.clone();
                align_index_bases(&mut m.sv, &mut test);
                (0..test.n()).map(|i| m.predict(test.row(i))).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Features, IndexBase};
    use crate::svm::kernel::KernelKind;

    /// A small regression set: y = x0 + x1 / 2 on a grid.
    fn data() -> Dataset {
        let mut values = Vec::new();
        let mut y = Vec::new();
        for i in 0..6 {
            for j in 0..5 {
                let (a, b) = (i as f64 / 5.0, j as f64 / 4.0 - 0.5);
                values.extend([a, b]);
                y.push(a + b / 2.0);
            }
        }
        Dataset {
            name: "grid".into(),
            x: Features::Dense { d: 2, values },
            y,
            index_base: IndexBase::One,
        }
    }

    #[test]
    fn ovo_model_decides_as_the_function_model() {
        let ds = data();
        let params = SvmParams {
            kernel: KernelKind::Rbf { gamma: 0.7 },
            ..SvmParams::libsvm_defaults(2)
        };
        for svm_type in [
            SvmType::EpsilonSvr { p: 0.05 },
            SvmType::NuSvr { nu: 0.4 },
            SvmType::OneClass { nu: 0.3 },
        ] {
            let fit = fit_formulation(&ds, &params, svm_type).unwrap();
            let m = fit.ovo_model();
            assert_eq!(m.sv_rows.len(), fit.total_sv);
            assert!(m.sv_rows.windows(2).all(|w| w[0] < w[1]));
            let dec = super::super::decision_values(&m, &ds, 1).unwrap();
            let Trained::Function(f) = &fit.model else {
                panic!("a function model")
            };
            for (r, d) in dec.iter().enumerate() {
                assert!((d - f.decision_value(ds.row(r))).abs() <= 1e-12 * (1.0 + d.abs()));
            }
            if !svm_type.is_regression() {
                let votes: Vec<f64> = dec.iter().map(|d| m.vote(&[*d])).collect();
                assert_eq!(votes, fit.predict(&ds));
            }
        }
    }
}
