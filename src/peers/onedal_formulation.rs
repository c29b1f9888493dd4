//! Intel's scikit-learn-intelex (oneDAL) for LIBSVM's other formulations:
//! `SVR` (epsilon-SVR), `NuSVR` and `NuSVC` after `patch_sklearn()`, one
//! fit on all rows or a k-fold CV on the given fold of each row (our
//! folds), timed inside Python around the fits and predictions as
//! [`super::onedal`] times `SVC`. scikit-learn-intelex has no one-class SVM
//! of its own, so one-class is refused here rather than timed as stock
//! scikit-learn under oneDAL's name.
//!
//! The CV reports the held-out rows predicted right (classification) or
//! the mean squared error and squared correlation of the held-out
//! predictions (regression), computed as `svm-train -v` computes them.

use std::path::Path;

use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::params::SvmParams;

/// The script run by `python3 -c` (arguments: data file, features, fold
/// file or `-`, estimator, kernel, C, gamma, nu or epsilon, tol, cache MB,
/// shrinking, threads, repeats). It prints one JSON object.
const SCRIPT: &str = r#"
import json, sys, time
import numpy as np
import daal4py
from sklearnex import patch_sklearn
patch_sklearn()
from sklearn.svm import SVR, NuSVR, NuSVC
from sklearn.datasets import load_svmlight_file
import importlib.metadata as md
(file, d, folds, est, kernel, C, gamma, extra, tol, cache, shrink, threads, repeats) = sys.argv[1:14]
daal4py.daalinit(int(threads))
X, y = load_svmlight_file(file, n_features=int(d))
X = np.ascontiguousarray(X.toarray())
def make():
    kw = dict(kernel=kernel, tol=float(tol), cache_size=float(cache), shrinking=shrink == "1")
    if kernel == "rbf":
        kw["gamma"] = float(gamma)
    if est == "SVR":
        return SVR(C=float(C), epsilon=float(extra), **kw)
    if est == "NuSVR":
        return NuSVR(C=float(C), nu=float(extra), **kw)
    return NuSVC(nu=float(extra), **kw)
regression = est != "NuSVC"
seconds, n_sv = [], []
pred = np.zeros(y.size)
fold = None if folds == "-" else np.loadtxt(folds, dtype=np.int64, ndmin=1)
for r in range(int(repeats)):
    t = time.perf_counter()
    if fold is None:
        m = make().fit(X, y)
        n_sv = [int(m.support_.size)]
        if r == 0:
            pred = m.predict(X)
    else:
        n_sv = []
        for h in range(int(fold.max()) + 1):
            test = fold == h
            m = make().fit(X[~test], y[~test])
            pred[test] = m.predict(X[test])
            n_sv.append(int(m.support_.size))
    seconds.append(time.perf_counter() - t)
out = {"seconds": seconds, "n": int(y.size), "n_sv": n_sv, "module": type(m).__module__,
       "version": md.version("scikit-learn-intelex"), "threads": int(daal4py.num_threads())}
if regression:
    n = float(y.size)
    sv, sy, svv, syy, svy = pred.sum(), y.sum(), (pred * pred).sum(), (y * y).sum(), (pred * y).sum()
    out["mse"] = float(((pred - y) ** 2).sum() / n)
    den = (n * svv - sv * sv) * (n * syy - sy * sy)
    out["squared_correlation"] = float((n * svy - sv * sy) ** 2 / den) if den != 0 else None
else:
    out["correct"] = int((pred == y).sum())
print(json.dumps(out))
"#;

/// What one oneDAL run of a formulation reported.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct OnedalFormulationRun {
    /// Wall seconds of each repeat (fit, or the k fits and predictions).
    pub seconds: Vec<f64>,
    /// Rows.
    pub n: usize,
    /// Support vectors of each fit (the last repeat's).
    pub n_sv: Vec<usize>,
    /// The Python module of the estimator that ran (sklearnex's when patched).
    pub module: String,
    /// scikit-learn-intelex's version.
    pub version: String,
    /// oneDAL's thread count.
    pub threads: usize,
    /// Regression: the mean squared error of the predictions (held-out
    /// for a CV, on the training rows for a fit).
    #[serde(default)]
    pub mse: Option<f64>,
    /// Regression: their squared correlation with the targets.
    #[serde(default)]
    pub squared_correlation: Option<f64>,
    /// nu-SVC: rows predicted right.
    #[serde(default)]
    pub correct: Option<usize>,
}

/// scikit-learn's estimator for `svm_type`, or why oneDAL cannot run it.
pub fn estimator(svm_type: SvmType) -> Result<(&'static str, f64), String> {
    match svm_type {
        SvmType::EpsilonSvr { p } => Ok(("SVR", p)),
        SvmType::NuSvr { nu } => Ok(("NuSVR", nu)),
        SvmType::NuSvc { nu } => Ok(("NuSVC", nu)),
        SvmType::OneClass { .. } => Err(
            "scikit-learn-intelex has no one-class SVM of its own (OneClassSVM would run stock scikit-learn)"
                .into(),
        ),
        SvmType::CSvc => Err("C-SVC runs through peers::onedal".into()),
    }
}

/// Run oneDAL's estimator for `svm_type` on the LibSVM `file` with `d`
/// features: one fit on all rows (`fold_of = None`) or a CV on the given
/// fold of each row, `repeats` times on `threads` threads.
pub fn run(
    file: &Path,
    d: usize,
    fold_of: Option<&[usize]>,
    params: &SvmParams,
    svm_type: SvmType,
    threads: usize,
    repeats: usize,
) -> Result<OnedalFormulationRun, SvmError> {
    let (est, extra) = estimator(svm_type).map_err(SvmError::Peer)?;
    super::onedal::run_script(SCRIPT, fold_of, params, |kernel, gamma, folds| {
        vec![
            file.display().to_string(),
            d.to_string(),
            folds,
            est.to_string(),
            kernel.to_string(),
            format!("{:e}", params.c),
            format!("{gamma:e}"),
            format!("{extra:e}"),
            format!("{:e}", params.eps),
            format!("{:e}", params.cache_mb),
            (if params.shrinking { "1" } else { "0" }).to_string(),
            threads.max(1).to_string(),
            repeats.max(1).to_string(),
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_script_prints() {
        let line = r#"{"seconds": [1.5, 1.25], "n": 10, "n_sv": [4, 5], "module": "sklearnex.svm._regression", "version": "2026.2.0", "threads": 2, "mse": 0.5, "squared_correlation": 0.25}"#;
        let r: OnedalFormulationRun = serde_json::from_str(line).unwrap();
        assert_eq!(
            (r.mse, r.squared_correlation, r.correct),
            (Some(0.5), Some(0.25), None)
        );
        assert!(estimator(SvmType::OneClass { nu: 0.5 }).is_err());
        assert_eq!(
            estimator(SvmType::EpsilonSvr { p: 0.1 }).unwrap(),
            ("SVR", 0.1)
        );
    }

    /// A real epsilon-SVR CV when the peer is installed.
    #[test]
    fn runs_svr_on_a_tiny_problem_when_installed() {
        if !super::super::onedal::available() {
            eprintln!("SKIPPED: {}", super::super::onedal::SKIPPED_NO_ONEDAL);
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t.libsvm");
        let mut text = String::new();
        for i in 0..40 {
            let x = i as f64 / 40.0;
            text.push_str(&format!("{} 1:{x} 2:{}\n", 2.0 * x + 0.1, i % 3));
        }
        std::fs::write(&file, text).unwrap();
        let folds: Vec<usize> = (0..40).map(|i| i % 4).collect();
        let p = SvmParams::rbf(1.0, 0.5);
        let r = run(
            &file,
            2,
            Some(&folds),
            &p,
            SvmType::EpsilonSvr { p: 0.1 },
            1,
            2,
        )
        .unwrap();
        assert_eq!((r.n, r.seconds.len(), r.n_sv.len()), (40, 2, 4));
        assert!(r.mse.unwrap() < 0.1, "{r:?}");
        assert!(r.module.contains("sklearnex"), "{}", r.module);
    }
}
