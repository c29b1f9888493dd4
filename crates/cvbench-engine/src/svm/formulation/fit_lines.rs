//! What `svm-train -s 1..4` prints for one training, with `-b 1` the
//! probability model's internal CVs' trainings before the training they
//! serve (as `svm_train` runs them): one block per solve (its progress
//! marks, "optimization finished", its `C = ` / `nu = ` / `epsilon = `
//! line, `obj` and `rho`, `nSV`). Shared by one training
//! ([`crate::api::formulation`]) and the cross-validation with `-b 1`
//! ([`crate::svm::cv::probability_formulations`]).

use super::function_model::{solve_lines, FunctionFit};
use super::nu_svc::NuSvcFit;
use super::svr_probability::SvrProbability;
use crate::svm::smo::solve_stats::SolveStats;
use crate::svm::smo::train_log::progress_text;

/// One solve's block.
fn block(stats: &SolveStats, info: Option<(&'static str, f64)>) -> Vec<String> {
    let mut out = Vec::new();
    if !stats.progress.is_empty() {
        out.push(progress_text(stats));
    }
    out.extend(solve_lines(stats, info));
    out
}

/// A nu-SVC training's lines: per class pair, its probability CV's solves
/// (each followed by its `Total nSV`) and `sigmoid_train`'s notes where
/// `-b 1` made them, then the pair's solve; `Total nSV` last.
pub(crate) fn nu_svc_lines(fit: &NuSvcFit) -> Vec<String> {
    let mut lines = Vec::new();
    for (p, &c) in fit.ovo.pairs.iter().zip(&fit.c) {
        if let Some(prob) = &p.prob {
            for f in &prob.inner {
                lines.extend(block(&f.stats, f.c.map(|c| ("C", c))));
                lines.push(format!("Total nSV = {}", f.stats.n_sv));
            }
            lines.extend(prob.notes.iter().cloned());
        }
        lines.extend(block(&p.stats, Some(("C", c))));
    }
    lines.push(format!("Total nSV = {}", fit.ovo.model.total_sv()));
    lines
}

/// A one-class or SVR training's lines: with `-b 1` (`prob`) its internal
/// CV's solves and the Laplace scale's line first, then its solve.
pub(crate) fn function_lines(fit: &FunctionFit, prob: Option<&SvrProbability>) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(prob) = prob {
        for f in &prob.inner {
            lines.extend(block(&f.stats, f.info));
        }
        lines.extend(prob.info_lines());
    }
    lines.extend(block(&fit.stats, fit.info));
    lines
}
