//! `cvbench grid -s 1..4` against LIBSVM 3.24's `svm-train -v`: on
//! housing_scale an epsilon-SVR grid (C x gamma x epsilon) whose every
//! point's mean squared error is `svm-train -s 3 -c C -g G -p P -v 5`'s
//! printed one, the least chosen; on heart_scale a nu-SVC grid (nu x gamma)
//! whose every rate is `svm-train -s 1 -n NU -g G -v 5`'s, the highest
//! chosen; the same lines on one thread and on two. The epsilon-SVR grid's
//! default warm starts (`--reuse gamma+cpath+threads`) give every point's
//! MSE within 1e-3 relative of the cold grid's (`--reuse gamma+threads`,
//! svm-train's numbers) and the same choice. The values are passed
//! to svm-train as grid.py passes them (decimal strings of `2**x`; svm-train
//! reads them with strtof, as the grid does). Needs `CVBENCH_DATA_DIR` and
//! svm-train on `PATH`: prints `SKIPPED: ...` and passes otherwise. Bad
//! ranges and options that do not apply exit 2 without them.

use std::path::Path;

use crate::common;
use common::libsvm::{dataset_into, grid_lines, has_svm_train, svm_train_cv, GridLine};
use common::{assert_usage_error, cvbench, ok};

/// Dataset `name` decompressed into `dir`, when svm-train and the data are
/// there.
fn setup(name: &str, dir: &Path) -> bool {
    has_svm_train() && dataset_into(name, dir)
}

/// Our lines on 1 and 2 threads (they must agree); the point lines' fields
/// before the number, the number, and the final line.
fn ours(args: &[&str], dir: &Path) -> (Vec<GridLine>, String) {
    let mut outs = Vec::new();
    for threads in ["1", "2"] {
        let mut a = vec!["grid", "--threads", threads, "-out", "null"];
        a.extend(args);
        outs.push(ok(&cvbench(&a, dir)));
    }
    assert_eq!(outs[0], outs[1], "--threads 1 and 2 differ");
    grid_lines(&outs[0])
}

#[test]
fn epsilon_svr_grid_is_svm_train_per_point_and_chooses_the_least_mse() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !setup("housing_scale", d) {
        return;
    }
    let (points, last) = ours(
        &[
            "--reuse",
            "gamma+threads",
            "-s",
            "3",
            "-log2c",
            "0,4,2",
            "-log2g",
            "-3,-1,1",
            "-log2p",
            "-3,-1,2",
            "-v",
            "5",
            "housing_scale",
        ],
        d,
    );
    assert_eq!(points.len(), 18);
    let mut least: Option<(f64, &Vec<f64>)> = None;
    for (x, number) in &points {
        let mse = number.strip_prefix("mse=").expect("an mse= number");
        let p2 = |e: f64| format!("{}", 2f64.powf(e));
        let args: Vec<String> = [
            "-s",
            "3",
            "-c",
            &p2(x[0]),
            "-g",
            &p2(x[1]),
            "-p",
            &p2(x[2]),
            "-v",
            "5",
            "-q",
            "housing_scale",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let theirs = svm_train_cv(&args, d, "Cross Validation Mean squared error");
        assert_eq!(mse, theirs, "point {x:?}");
        let v: f64 = mse.parse().unwrap();
        if least.is_none_or(|(b, _)| v < b) {
            least = Some((v, x));
        }
    }
    let (v, x) = least.unwrap();
    let want: Vec<String> = x
        .iter()
        .map(|e| cvbench::pyfmt::py_float(2f64.powf(*e)))
        .collect();
    assert_eq!(
        last,
        format!(
            "{} mse={}",
            want.join(" "),
            cvbench_engine::api::data::printf_g(v)
        )
    );
}

#[test]
fn nu_svc_grid_is_svm_train_per_point_and_chooses_the_highest_rate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !setup("heart_scale", d) {
        return;
    }
    let (points, last) = ours(
        &[
            "-s",
            "1",
            "-nu",
            "0.2,0.6,0.2",
            "-log2g",
            "-5,-1,2",
            "-v",
            "5",
            "heart_scale",
        ],
        d,
    );
    assert_eq!(points.len(), 9);
    let mut best: Option<(f64, &Vec<f64>)> = None;
    for (x, number) in &points {
        let (g, nu) = (2f64.powf(x[0]), x[1]);
        let args: Vec<String> = [
            "-s",
            "1",
            "-n",
            &format!("{nu}"),
            "-g",
            &format!("{g}"),
            "-v",
            "5",
            "-q",
            "heart_scale",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let theirs: f64 = svm_train_cv(&args, d, "Cross Validation Accuracy")
            .parse()
            .unwrap();
        let rate: f64 = number.parse().unwrap();
        assert_eq!(rate, theirs, "point {x:?}");
        if best.is_none_or(|(b, _)| rate > b) {
            best = Some((rate, x));
        }
    }
    let (rate, x) = best.unwrap();
    let p = cvbench::pyfmt::py_float;
    assert_eq!(
        last,
        format!("{} {} {}", p(2f64.powf(x[0])), p(x[1]), p(rate))
    );
}

#[test]
fn bad_ranges_and_options_that_do_not_apply_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (vec!["-s", "1", "-log2p", "-3,-1,1"], "-log2p sets epsilon"),
        (vec!["-s", "4", "-log2p", "-3,-1,1"], "-log2p sets epsilon"),
        (vec!["-s", "3", "-nu", "0.1,0.5,0.2"], "-nu sets nu"),
        (vec!["-s", "1", "-log2c", "-1,1,1"], "no C"),
        (vec!["-s", "1", "-nu", "0,0.5,0.25"], "outside (0, 1]"),
        (vec!["-s", "4", "-nu", "0.5,1.5,0.5"], "outside (0, 1]"),
        (vec!["-s", "2", "-nu", "0.1,0.5"], "three numbers"),
        (vec!["-s", "3", "-log2p", "1,2"], "three numbers"),
        (vec!["-s", "3", "-log2p", "1,-2,1"], "empty"),
        (vec!["-s", "3", "-p", "0.1"], "use -log2p"),
        (vec!["-s", "4", "-n", "0.1"], "use -nu"),
        (vec!["-s", "5"], "svm type must be"),
        (vec!["-s", "3", "--reuse", "all"], "exact levels"),
        (vec!["-s", "4", "--reuse", "gamma+cpath"], "-s 3 only"),
        (vec!["-s", "3", "-t", "4", "-log2g", "-1,1,1"], "no gamma"),
        (vec!["-s", "3", "-resume"], "resuming"),
    ] {
        let mut a = vec!["grid"];
        a.extend(&args);
        a.push("no-such-file");
        let o = cvbench(&a, dir.path());
        assert_usage_error(&o, &[needle]);
    }
}

/// The MSE of a point line's number (`mse=...`).
fn mse_of(number: &str) -> f64 {
    number.strip_prefix("mse=").unwrap().parse().unwrap()
}

/// The warm-started epsilon-SVR grid (the default) on housing_scale:
/// every point's MSE within 1e-3 relative of the cold grid's
/// (`--reuse gamma+threads`, svm-train's numbers), the same points in the
/// same order, the same choice; the same lines on 1 and 2 threads
/// (`ours`), and `--reuse gamma+cpath+threads` is the default.
#[test]
fn warm_started_svr_grid_is_the_cold_grid_to_the_tolerance() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    if !dataset_into("housing_scale", d) {
        return;
    }
    let grid = [
        "-s",
        "3",
        "-log2c",
        "-1,3,2",
        "-log2g",
        "-2,-1,1",
        "-log2p",
        "-3,-1,1",
        "-v",
        "5",
        "housing_scale",
    ];
    let with = |reuse: &[&str]| {
        let mut a: Vec<&str> = reuse.to_vec();
        a.extend(grid);
        ours(&a, d)
    };
    let (cold, cold_last) = with(&["--reuse", "gamma+threads"]);
    let (warm, warm_last) = with(&[]);
    assert_eq!(
        with(&["--reuse", "gamma+cpath+threads"]),
        (warm.clone(), warm_last.clone())
    );
    assert_eq!(cold.len(), 18);
    let mut worst = 0f64;
    for ((xc, nc), (xw, nw)) in cold.iter().zip(&warm) {
        assert_eq!(xc, xw, "the same points in the same order");
        let (a, b) = (mse_of(nw), mse_of(nc));
        worst = worst.max((a - b).abs() / b);
        assert!(
            (a - b).abs() <= 1e-3 * b,
            "point {xc:?}: warm {a} vs cold {b}"
        );
    }
    println!("largest relative MSE difference: {worst:e}");
    let choice = |l: &str| l.rsplit_once(' ').unwrap().0.to_string();
    assert_eq!(choice(&warm_last), choice(&cold_last), "the same choice");
}
