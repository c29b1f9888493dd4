//! LIBSVM's `grid.py` (installed as `svm-grid`) and scikit-learn's
//! `GridSearchCV` as peers of `cvbench grid`: run on a data file, timed,
//! their per-point rates and choice parsed.
//!
//! `svm-grid` is run as `python3 $(command -v svm-grid) -svmtrain $(command
//! -v svm-train) -gnuplot null -out null ...` (it looks for `../svm-train`
//! beside itself and starts with `#!/usr/bin/env python`, which may not
//! exist here).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::libsvm::find_program;
use crate::pyfmt::py_float;
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::grid_search::{Axis, Grid};

/// Why the peer is skipped when it is.
pub const SKIPPED_NO_SVM_GRID: &str =
    "skipped: python3, svm-grid or svm-train not found (make peers installs LIBSVM's tools)";

/// Whether `python3`, `svm-grid` and `svm-train` are installed.
pub fn available() -> bool {
    programs().is_some()
}

fn programs() -> Option<(PathBuf, PathBuf, PathBuf)> {
    Some((
        find_program("python3")?,
        find_program("svm-grid")?,
        find_program("svm-train")?,
    ))
}

/// What `svm-grid` printed, and how long it took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridPeerRun {
    /// `(log2c, log2g, rate)` of every point line, in printed order.
    pub points: Vec<(Option<f64>, Option<f64>, f64)>,
    /// The final line: `C`, `gamma` (each when searched) and the rate.
    pub best: (Option<f64>, Option<f64>, f64),
    /// Wall seconds of the whole run.
    pub wall_s: f64,
}

fn axis_arg(a: &Option<Axis>) -> String {
    match a {
        Some(a) => format!(
            "{},{},{}",
            py_float(a.begin),
            py_float(a.end),
            py_float(a.step)
        ),
        None => "null".into(),
    }
}

/// Parse `svm-grid`'s standard output (`[worker] c g rate (best ...)` lines
/// and the final `c g rate` line), given which axes were searched.
pub fn parse_output(text: &str, with_c: bool, with_g: bool) -> Result<GridPeerRun, SvmError> {
    let bad = |l: &str| SvmError::Peer(format!("svm-grid: unexpected line `{l}`"));
    let mut run = GridPeerRun::default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some((last, body)) = lines.split_last() else {
        return Err(SvmError::Peer("svm-grid printed nothing".into()));
    };
    let num = |s: &str, l: &str| s.parse::<f64>().map_err(|_| bad(l));
    for l in body {
        let Some(rest) = l.strip_prefix('[').and_then(|s| s.split_once("] ")) else {
            return Err(bad(l));
        };
        let head = rest.1.split(" (best").next().unwrap_or_default();
        let f: Vec<&str> = head.split_whitespace().collect();
        let want = 1 + usize::from(with_c) + usize::from(with_g);
        if f.len() != want {
            return Err(bad(l));
        }
        let mut it = f.iter();
        let c = if with_c {
            Some(num(it.next().unwrap_or(&""), l)?)
        } else {
            None
        };
        let g = if with_g {
            Some(num(it.next().unwrap_or(&""), l)?)
        } else {
            None
        };
        let rate = num(it.next().unwrap_or(&""), l)?;
        run.points.push((c, g, rate));
    }
    let f: Vec<&str> = last.split_whitespace().collect();
    let want = 1 + usize::from(with_c) + usize::from(with_g);
    if f.len() != want {
        return Err(bad(last));
    }
    let mut it = f.iter();
    let c = if with_c {
        Some(num(it.next().unwrap_or(&""), last)?)
    } else {
        None
    };
    let g = if with_g {
        Some(num(it.next().unwrap_or(&""), last)?)
    } else {
        None
    };
    run.best = (c, g, num(it.next().unwrap_or(&""), last)?);
    Ok(run)
}

/// Run `svm-grid` on `file` (a plain LibSVM file) over `grid` with `k` folds.
pub fn run_svm_grid(file: &Path, grid: &Grid, k: usize) -> Result<GridPeerRun, SvmError> {
    let (py, svm_grid, svm_train) =
        programs().ok_or_else(|| SvmError::Peer(SKIPPED_NO_SVM_GRID.into()))?;
    let work = crate::interrupt::TempDir::unique("svm-grid").map_err(|source| SvmError::Io {
        what: "a temporary folder for svm-grid".into(),
        source,
    })?;
    let t = Instant::now();
    let out = crate::interrupt::output(
        Command::new(py)
            .current_dir(work.path())
            .arg(svm_grid)
            .arg("-svmtrain")
            .arg(svm_train)
            .args(["-gnuplot", "null", "-out", "null"])
            .args(["-log2c", &axis_arg(&grid.c), "-log2g", &axis_arg(&grid.g)])
            .args(["-v", &k.to_string()])
            .arg(file),
    )
    .map_err(|source| SvmError::Io {
        what: "running svm-grid".into(),
        source,
    })?;
    let wall_s = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(SvmError::Peer(format!(
            "svm-grid failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let mut run = parse_output(
        &String::from_utf8_lossy(&out.stdout),
        grid.c.is_some(),
        grid.g.is_some(),
    )?;
    run.wall_s = wall_s;
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_grid_py_output() {
        let text = "[local] 5 -7 83.7037 (best c=32.0, g=0.0078125, rate=83.7037)\n\
                    [local] -1 -7 82.963 (best c=32.0, g=0.0078125, rate=83.7037)\n\
                    32.0 0.0078125 83.7037\n";
        let r = parse_output(text, true, true).unwrap();
        assert_eq!(r.points.len(), 2);
        assert_eq!(r.points[1], (Some(-1.0), Some(-7.0), 82.963));
        assert_eq!(r.best, (Some(32.0), Some(0.0078125), 83.7037));
        assert!(parse_output("garbage\n1 2 3\n", true, true).is_err());
        assert!(parse_output("", true, true).is_err());
    }
}

/// The Python program of the scikit-learn peer: `GridSearchCV(SVC(), grid,
/// cv=PredefinedSplit(folds), n_jobs=-1)` on a LibSVM file; prints
/// `seconds best_C best_gamma best_accuracy_pct`.
const SKLEARN_PY: &str = r#"
import sys, time
import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.svm import SVC
data, folds, cs, gs, jobs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
X, y = load_svmlight_file(data)
X = X.toarray()
fold = np.loadtxt(folds, dtype=int)
grid = {"C": [float(v) for v in cs.split(",")], "gamma": [float(v) for v in gs.split(",")]}
t = time.perf_counter()
s = GridSearchCV(SVC(kernel="rbf", tol=1e-3, cache_size=100), grid, cv=PredefinedSplit(fold), n_jobs=jobs)
s.fit(X, y)
print(time.perf_counter() - t, s.best_params_["C"], s.best_params_["gamma"], 100 * s.best_score_)
"#;

/// Whether `python3` can import scikit-learn.
pub fn sklearn_available() -> bool {
    super::python_can_import("sklearn")
}

/// What the scikit-learn peer reported.
#[derive(Clone, Debug, PartialEq)]
pub struct SklearnRun {
    /// Seconds of `GridSearchCV.fit` (measured inside Python).
    pub fit_s: f64,
    /// Chosen C.
    pub c: f64,
    /// Chosen gamma.
    pub gamma: f64,
    /// Its mean held-out accuracy over the folds, in %.
    pub score_pct: f64,
}

/// Run `GridSearchCV` on `file` with the given C and gamma values and fold
/// of each row (`fold_of[r]`), on `n_jobs` processes.
pub fn run_sklearn_grid(
    file: &Path,
    cs: &[f64],
    gammas: &[f64],
    fold_of: &[usize],
    n_jobs: usize,
) -> Result<SklearnRun, SvmError> {
    let py = find_program("python3").ok_or_else(|| SvmError::Peer("python3 not found".into()))?;
    let work = crate::interrupt::TempDir::unique("sklearn").map_err(|source| SvmError::Io {
        what: "a temporary folder for scikit-learn".into(),
        source,
    })?;
    let folds = work.path().join("folds.txt");
    let text: String = fold_of.iter().map(|f| format!("{f}\n")).collect();
    std::fs::write(&folds, text).map_err(|source| SvmError::Io {
        what: "writing the folds for scikit-learn".into(),
        source,
    })?;
    let list = |v: &[f64]| v.iter().map(|x| py_float(*x)).collect::<Vec<_>>().join(",");
    let out = crate::interrupt::output(
        Command::new(py)
            .args(["-c", SKLEARN_PY])
            .arg(file)
            .arg(&folds)
            .arg(list(cs))
            .arg(list(gammas))
            .arg(n_jobs.to_string()),
    )
    .map_err(|source| SvmError::Io {
        what: "running scikit-learn".into(),
        source,
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<f64> = text
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect();
    if !out.status.success() || f.len() != 4 {
        return Err(SvmError::Peer(format!(
            "scikit-learn GridSearchCV failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(SklearnRun {
        fit_s: f[0],
        c: f[1],
        gamma: f[2],
        score_pct: f[3],
    })
}
