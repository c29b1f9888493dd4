//! Intel's scikit-learn-intelex (oneDAL) as a peer: `SVC` after
//! `patch_sklearn()`, the fastest CPU SVC a user would pick today, timed on
//! exactly our folds (one fit on all rows, or a k-fold CV on the given fold
//! of each row).
//!
//! The data go to Python as a LibSVM file and are made dense before any
//! timing (oneDAL's SVC takes dense input; `load_svmlight_file`'s 64-bit
//! sparse indices are rejected by recent scikit-learn). The times are
//! measured inside Python around `fit` (and `predict` for a CV), so loading
//! and interpreter start-up are not counted — as our own timings do not count
//! reading the data. oneDAL's thread count is set with `daal4py.daalinit`.
//! Its optimum is not LIBSVM's to the last digit: compare accuracy and
//! support vectors, not iterations.

use std::path::Path;
use std::process::Command;

use super::libsvm::find_program;
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::params::{KernelKind, SvmParams};

/// The message printed when scikit-learn-intelex cannot be imported.
pub const SKIPPED_NO_ONEDAL: &str =
    "skipped: python3 with scikit-learn-intelex not found (make peers installs it with pip)";

/// The script run by `python3 -c` (arguments: data file, features, fold
/// file or `-`, kernel, C, gamma, tol, cache MB, shrinking, threads,
/// repeats). It prints one JSON object.
const SCRIPT: &str = r#"
import json, resource, sys, time
import numpy as np
import daal4py
from sklearnex import patch_sklearn
patch_sklearn()
from sklearn.svm import SVC
from sklearn.datasets import load_svmlight_file
import importlib.metadata as md
(file, d, folds, kernel, C, gamma, tol, cache, shrink, threads, repeats) = sys.argv[1:12]
daal4py.daalinit(int(threads))
X, y = load_svmlight_file(file, n_features=int(d))
X = np.ascontiguousarray(X.toarray())
def make():
    kw = dict(C=float(C), kernel=kernel, tol=float(tol), cache_size=float(cache), shrinking=shrink == "1")
    if kernel == "rbf":
        kw["gamma"] = float(gamma)
    return SVC(**kw)
seconds, correct, n_sv = [], 0, []
fold = None if folds == "-" else np.loadtxt(folds, dtype=np.int64, ndmin=1)
for r in range(int(repeats)):
    t = time.perf_counter()
    if fold is None:
        m = make().fit(X, y)
        n_sv = [int(m.support_.size)]
        correct = int((m.predict(X) == y).sum()) if r == 0 else correct
    else:
        c, n_sv = 0, []
        for h in range(int(fold.max()) + 1):
            test = fold == h
            m = make().fit(X[~test], y[~test])
            c += int((m.predict(X[test]) == y[test]).sum())
            n_sv.append(int(m.support_.size))
        correct = c
    seconds.append(time.perf_counter() - t)
print(json.dumps({"seconds": seconds, "correct": correct, "n": int(y.size), "n_sv": n_sv,
                  "module": type(m).__module__, "version": md.version("scikit-learn-intelex"),
                  "threads": int(daal4py.num_threads()),
                  "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))
"#;

/// What one oneDAL run reported.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
pub struct OnedalRun {
    /// Wall seconds of each repeat (fit, or the k fits and predictions).
    pub seconds: Vec<f64>,
    /// Correct predictions: held-out rows for a CV, training rows for a fit.
    pub correct: usize,
    /// Rows.
    pub n: usize,
    /// Support vectors of each fit (the last repeat's).
    pub n_sv: Vec<usize>,
    /// The Python module of the SVC that ran (sklearnex's when patched).
    pub module: String,
    /// scikit-learn-intelex's version.
    pub version: String,
    /// oneDAL's thread count.
    pub threads: usize,
    /// The Python process's peak resident memory in MB (Linux's
    /// `ru_maxrss`: the data, dense, and every fit); `None` from older
    /// scripts.
    #[serde(default)]
    pub max_rss_mb: Option<f64>,
}

/// Whether `python3` can import scikit-learn-intelex and daal4py.
pub fn available() -> bool {
    super::python_can_import("sklearnex, daal4py")
}

/// Run oneDAL's SVC on the LibSVM `file` with `d` features: one fit on all
/// rows (`fold_of = None`) or a CV on the given fold of each row, `repeats`
/// times on `threads` threads.
pub fn run(
    file: &Path,
    d: usize,
    fold_of: Option<&[usize]>,
    params: &SvmParams,
    threads: usize,
    repeats: usize,
) -> Result<OnedalRun, SvmError> {
    run_script(SCRIPT, fold_of, params, |kernel, gamma, folds| {
        vec![
            file.display().to_string(),
            d.to_string(),
            folds,
            kernel.to_string(),
            format!("{:e}", params.c),
            format!("{gamma:e}"),
            format!("{:e}", params.eps),
            format!("{:e}", params.cache_mb),
            (if params.shrinking { "1" } else { "0" }).to_string(),
            threads.max(1).to_string(),
            repeats.max(1).to_string(),
        ]
    })
}

/// Run a oneDAL peer script under `python3` with the arguments `args`
/// makes from the kernel's name, its gamma (0 for the linear kernel) and
/// the folds file (`-` without folds: one fit), in a temporary folder that
/// is removed afterwards; its last line of JSON read as `T`. The script's
/// failure, a kernel other than linear and RBF, or unreadable output is an
/// error naming it.
pub(super) fn run_script<T: serde::de::DeserializeOwned>(
    script: &str,
    fold_of: Option<&[usize]>,
    params: &SvmParams,
    args: impl FnOnce(&str, f64, String) -> Vec<String>,
) -> Result<T, SvmError> {
    let py = find_program("python3").ok_or_else(|| SvmError::Peer("python3 not found".into()))?;
    let io = |what: &str| {
        let what = what.to_string();
        move |source| SvmError::Io { what, source }
    };
    let work =
        crate::interrupt::TempDir::unique("onedal").map_err(io("a temporary folder for oneDAL"))?;
    let folds = match fold_of {
        Some(f) => {
            let p = work.path().join("folds.txt");
            let text: String = f.iter().map(|h| format!("{h}\n")).collect();
            std::fs::write(&p, text).map_err(io("writing the folds for oneDAL"))?;
            p.display().to_string()
        }
        None => "-".into(),
    };
    let (kernel, gamma) = match params.kernel {
        KernelKind::Rbf { gamma } => ("rbf", gamma),
        KernelKind::Linear => ("linear", 0.0),
        other => {
            return Err(SvmError::Peer(format!(
                "the oneDAL peer runs the linear and RBF kernels only, not {}",
                other.name()
            )))
        }
    };
    let out = crate::interrupt::output(
        Command::new(py)
            .args(["-c", script])
            .args(args(kernel, gamma, folds)),
    )
    .map_err(io("running python3 for oneDAL"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let json = text.lines().rev().find(|l| l.starts_with('{'));
    match (out.status.success(), json) {
        (true, Some(line)) => serde_json::from_str(line)
            .map_err(|e| SvmError::Peer(format!("cannot read oneDAL's output `{line}`: {e}"))),
        _ => Err(SvmError::Peer(format!(
            "scikit-learn-intelex (oneDAL) failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_script_prints() {
        let line = r#"{"seconds": [1.5, 1.25], "correct": 9, "n": 10, "n_sv": [4, 5], "module": "sklearnex.svm._classification", "version": "2026.2.0", "threads": 2}"#;
        let r: OnedalRun = serde_json::from_str(line).unwrap();
        assert_eq!(r.seconds, [1.5, 1.25]);
        assert_eq!((r.correct, r.n, r.threads), (9, 10, 2));
        assert_eq!(r.n_sv, [4, 5]);
        assert_eq!(r.max_rss_mb, None, "an older script's line has no memory");
        let with = line.replace(r#""threads": 2"#, r#""threads": 2, "max_rss_mb": 812.5"#);
        let r: OnedalRun = serde_json::from_str(&with).unwrap();
        assert_eq!(r.max_rss_mb, Some(812.5));
    }

    /// A real run when the peer is installed: the CV's correct count is a
    /// count of held-out rows, and every fold's model has support vectors.
    #[test]
    fn runs_on_a_tiny_problem_when_installed() {
        if !available() {
            eprintln!("SKIPPED: {SKIPPED_NO_ONEDAL}");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t.libsvm");
        let mut text = String::new();
        for i in 0..40 {
            let y = if i % 2 == 0 { 1 } else { -1 };
            text.push_str(&format!(
                "{y} 1:{} 2:{}\n",
                y as f64 + 0.01 * i as f64,
                i % 3
            ));
        }
        std::fs::write(&file, text).unwrap();
        let folds: Vec<usize> = (0..40).map(|i| i % 4).collect();
        let p = SvmParams::rbf(1.0, 0.5);
        let r = run(&file, 2, Some(&folds), &p, 1, 2).unwrap();
        assert_eq!((r.n, r.seconds.len(), r.n_sv.len()), (40, 2, 4));
        assert!(r.correct <= 40 && r.correct >= 36, "{r:?}");
        let f = run(&file, 2, None, &p, 1, 1).unwrap();
        assert_eq!(f.n_sv.len(), 1);
        assert!(f.module.contains("sklearnex"), "{}", f.module);
        // Python with numpy and scikit-learn loaded: tens of MB at least.
        assert!(f.max_rss_mb.is_some_and(|m| m > 20.0), "{:?}", f.max_rss_mb);
        // A multi-class fit (one-vs-one inside oneDAL) runs too.
        let multi = dir.path().join("m.libsvm");
        let mut text = String::new();
        for i in 0..60 {
            let y = i % 3;
            text.push_str(&format!(
                "{y} 1:{} 2:{}\n",
                2.0 * y as f64 + 0.001 * i as f64,
                i % 4
            ));
        }
        std::fs::write(&multi, text).unwrap();
        let folds: Vec<usize> = (0..60).map(|i| (i / 3) % 4).collect();
        let m = run(&multi, 2, Some(&folds), &p, 1, 1).unwrap();
        assert!(m.correct >= 54, "{m:?}");
    }
}
