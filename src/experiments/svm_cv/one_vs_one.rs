//! Which `svm_cv` cells run LIBSVM's one-vs-one C-SVC (datasets whose
//! labels are not -1/+1, settings with class weights) and what the plan
//! refuses on them: first-rounds estimates and, with class weights, the
//! seeded methods (the seeders keep one C per pair) and oneDAL (given no
//! weights; unweighted, its SVC is one-vs-one inside and runs). The
//! cells themselves run in `multiclass.rs` (seeded methods per class
//! pair).

use super::config::{Method, Peer, SvmCvConfig};
use crate::config::{ConfigError, ConfigFile};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::{weighted_c, ClassWeight};
use std::sync::Arc;

/// The distinct labels of `ds`, in order of first appearance.
fn labels_of(ds: &Dataset) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for &y in &ds.y {
        if !out.contains(&y) {
            out.push(y);
        }
    }
    out
}

/// Check the methods and options of the one-vs-one (dataset, setting)
/// combinations (`ovo_data[d]`: dataset `d`'s labels are not -1/+1;
/// `weights[s]`: setting `s`'s class weights): every method must be one
/// that runs one-vs-one ([`Method::one_vs_one`]), and no first-rounds
/// estimate. A weight for a label the dataset lacks is `svm-train`'s
/// warning (printed here), not an error.
pub(super) fn check_one_vs_one(
    cfg: &ConfigFile,
    c: &SvmCvConfig,
    datasets: &[(String, Arc<Dataset>)],
    ovo_data: &[bool],
    weights: &[Vec<ClassWeight>],
) -> Result<(), ConfigError> {
    for ((name, data), &ovo) in datasets.iter().zip(ovo_data) {
        let labels = labels_of(data);
        for (s, w) in c.settings.get_ref().iter().zip(weights) {
            let label = &s.get_ref().label;
            for warning in weighted_c(1.0, &labels, w).1 {
                eprintln!(
                    "{}: setting `{label}` on dataset {name}: {warning} (svm-train only warns: the weight is ignored)",
                    cfg.path.display()
                );
            }
            if !ovo && w.is_empty() {
                continue;
            }
            let why = if ovo {
                format!(
                    "dataset {name} has {} labels ({}), not -1/+1",
                    labels.len(),
                    labels
                        .iter()
                        .take(6)
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("setting `{label}` has class weights")
            };
            let weighted = !w.is_empty();
            // oneDAL's SVC is one-vs-one inside; it takes no class weights here.
            let runs = |m: &Method| {
                m.one_vs_one()
                    || ((m.seeding().is_some() || m.peer() == Some(Peer::Onedal)) && !weighted)
            };
            if let Some(m) = c.methods.get_ref().iter().find(|m| !runs(m)) {
                let mut ok: Vec<&str> = ONE_VS_ONE_METHODS.iter().map(|m| m.as_str()).collect();
                if !weighted {
                    ok.push("the seeded methods");
                    ok.push("onedal");
                    ok.push("onedal_fit");
                }
                let what = if m.seeding().is_some() {
                    "its seeders keep one C for both classes of a pair, so class weights are not built with them"
                } else {
                    "the oneDAL peer is given no class weights"
                };
                return Err(cfg.invalid(
                    c.methods.span(),
                    &format!(
                        "method `{}` does not run here: {why}, so it runs LIBSVM's one-vs-one C-SVC, and {what}",
                        m.as_str()
                    ),
                    &format!(
                        "list only {} for this dataset, or make it binary with labels -1/+1 (a one_vs_rest or map transform) and no weights",
                        ok.join(", ")
                    ),
                ));
            }
            if let Some(r) = &c.first_rounds {
                return Err(cfg.invalid(
                    r.span(),
                    &format!("first_rounds estimates a seeded binary run, but {why}"),
                    "remove first_rounds",
                ));
            }
        }
    }
    Ok(())
}

/// The methods that run one-vs-one, in the order the errors list them.
const ONE_VS_ONE_METHODS: [Method; 6] = [
    Method::Ours,
    Method::OursSharedParallel,
    Method::Train,
    Method::Libsvm,
    Method::LibsvmV,
    Method::LibsvmFit,
];

impl Method {
    /// Whether the method runs on every one-vs-one cell (more than two
    /// classes, other labels than -1/+1, class weights): our solver from
    /// alpha = 0 and LIBSVM's tools; not oneDAL, nor the seeded methods
    /// (which run per class pair without class weights only).
    pub fn one_vs_one(self) -> bool {
        ONE_VS_ONE_METHODS.contains(&self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_onedal_methods_are_not_of_the_weighted_one_vs_one() {
        assert!(Method::Ours.one_vs_one());
        assert!(Method::LibsvmV.one_vs_one());
        for m in [Method::Sir, Method::Ato, Method::Tree, Method::Onedal] {
            assert!(!m.one_vs_one(), "{}", m.as_str());
        }
    }
}
