//! `cvbench grid -t 4` (LIBSVM's precomputed kernel) against LIBSVM 3.24's
//! `svm-train -t 4 -v 5` on heart_scale's RBF kernel matrix (gamma 0.5)
//! written here in svm-train's format: a C-SVC grid over C (no gamma axis)
//! and an epsilon-SVR grid over C and epsilon (from zero, `--reuse
//! gamma+threads`), every point's number svm-train's, the best chosen as
//! grid.py chooses it. Needs `CVBENCH_DATA_DIR` and svm-train on `PATH`;
//! prints `SKIPPED: ...` and passes otherwise.

use std::path::Path;

use crate::common;
use common::libsvm::{grid_lines, has_svm_train, precomputed_text, svm_train_cv, GridLine};
use common::{cvbench, data_source, ok};

use cvbench_engine::api::data::read_libsvm;

/// heart_scale's RBF kernel matrix written to `dir` as `heart.rbf`.
fn kernel_file(dir: &Path) -> bool {
    if !has_svm_train() {
        return false;
    }
    let Some(src) = data_source("heart_scale") else {
        return false;
    };
    let ds = read_libsvm(&src, None).unwrap();
    std::fs::write(dir.join("heart.rbf"), precomputed_text(&ds, Some(0.5))).unwrap();
    true
}

/// svm-train's `-v 5` number (`%` dropped) for `opts` on the kernel file.
fn theirs(opts: &[&str], d: &Path, prefix: &str) -> String {
    let mut a = vec!["-t", "4", "-v", "5", "-q"];
    a.extend(opts);
    a.push("heart.rbf");
    svm_train_cv(&a, d, prefix)
}

/// Our point lines and final line for `args` on the kernel file.
fn ours(args: &[&str], d: &Path) -> (Vec<GridLine>, String) {
    let mut a = vec!["grid", "-t", "4", "-v", "5", "-out", "null", "-png", "null"];
    a.extend(args);
    a.push("heart.rbf");
    grid_lines(&ok(&cvbench(&a, d)))
}

#[test]
fn c_svc_grid_on_a_precomputed_kernel_is_svm_train_per_point() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !kernel_file(d) {
        return;
    }
    let (points, last) = ours(&["-log2c", "-3,5,2"], d);
    assert_eq!(points.len(), 5);
    let mut best: Option<(f64, f64)> = None;
    for (x, rate) in &points {
        assert_eq!(x.len(), 1, "C alone: {x:?}");
        let c = format!("{}", 2f64.powf(x[0]));
        let lib = theirs(&["-c", &c], d, "Cross Validation Accuracy");
        let r: f64 = rate.parse().unwrap();
        assert_eq!(r, lib.parse::<f64>().unwrap(), "log2c {}", x[0]);
        if best.is_none_or(|(b, bc)| r > b || (r == b && x[0] < bc)) {
            best = Some((r, x[0]));
        }
    }
    let (r, lc) = best.unwrap();
    let p = cvbench::pyfmt::py_float;
    assert_eq!(last, format!("{} {}", p(2f64.powf(lc)), p(r)));
}

#[test]
fn epsilon_svr_grid_on_a_precomputed_kernel_is_svm_train_per_point() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !kernel_file(d) {
        return;
    }
    let (points, last) = ours(
        &[
            "--reuse",
            "gamma+threads",
            "-s",
            "3",
            "-log2c",
            "-1,3,2",
            "-log2p",
            "-3,-1,2",
        ],
        d,
    );
    assert_eq!(points.len(), 6);
    let mut least: Option<(f64, &Vec<f64>)> = None;
    for (x, number) in &points {
        let mse = number.strip_prefix("mse=").unwrap();
        let (c, p) = (
            format!("{}", 2f64.powf(x[0])),
            format!("{}", 2f64.powf(x[1])),
        );
        let lib = theirs(
            &["-s", "3", "-c", &c, "-p", &p],
            d,
            "Cross Validation Mean squared error",
        );
        assert_eq!(mse, lib, "point {x:?}");
        let v: f64 = mse.parse().unwrap();
        if least.is_none_or(|(b, _)| v < b) {
            least = Some((v, x));
        }
    }
    let (v, x) = least.unwrap();
    let p = cvbench::pyfmt::py_float;
    assert_eq!(
        last,
        format!(
            "{} {} mse={}",
            p(2f64.powf(x[0])),
            p(2f64.powf(x[1])),
            cvbench_engine::api::data::printf_g(v)
        )
    );
}
