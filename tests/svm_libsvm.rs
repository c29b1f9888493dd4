//! Our solver against LIBSVM 3.24's `svm-train` on real data (heart_scale
//! and an a9a subset). Needs `CVBENCH_DATA_DIR` (with `heart_scale.xz`,
//! `a9a.xz`) and `svm-train`/`svm-predict` on `PATH`; prints `SKIPPED: ...`
//! and passes otherwise.

use std::path::PathBuf;

use cvbench::peers::libsvm::{self as peer, PeerOutcome};
use cvbench_engine::data::{read_libsvm, Dataset};
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::cv::{cross_validate, CvOptions};
use cvbench_engine::svm::model::solution::train;
use cvbench_engine::svm::SvmParams;

fn data(name: &str) -> Option<Dataset> {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let dir = PathBuf::from(dir);
    let path = [dir.join(format!("{name}.xz")), dir.join(name)]
        .into_iter()
        .find(|p| p.is_file());
    match path {
        Some(p) => Some(read_libsvm(&p, None).expect("readable LibSVM file")),
        None => {
            println!("SKIPPED: {name} not found in {}", dir.display());
            None
        }
    }
}

fn peer_ready() -> bool {
    if !peer::available() {
        println!("SKIPPED: {}", peer::SKIPPED_NO_SVM_TRAIN);
        return false;
    }
    true
}

/// Write `rows` of `ds` to a temp file; returns the tempdir guard and path.
fn temp_file(ds: &Dataset, rows: &[usize]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("data.libsvm");
    peer::write_rows(ds, rows, &p).unwrap();
    (dir, p)
}

/// One solve of ours and of svm-train on the same rows: iterations,
/// objective, rho, nSV, nBSV must agree (exactly, on these small problems,
/// with svm-train's float-parsed parameters).
fn compare_solve(ds: &Dataset, rows: &[usize], params: &SvmParams) {
    let (_g, file) = temp_file(ds, rows);
    // Without a model path the model goes beside the data file, never into
    // the current folder (where svm-train itself would write it): a file of
    // that name there (left by an older build) must stay as it was.
    let here = std::path::Path::new("data.libsvm.model");
    let stamp = || std::fs::metadata(here).and_then(|m| m.modified()).ok();
    let before = stamp();
    let PeerOutcome::Ran(lib) = peer::run_svm_train(&file, params, None, None).unwrap() else {
        panic!("svm-train did not run");
    };
    assert!(file.with_file_name("data.libsvm.model").is_file());
    assert_eq!(
        stamp(),
        before,
        "svm-train wrote a model into the current folder"
    );
    let ours = train(ds, rows, &peer::as_parsed_by_svm_train(params), None).unwrap();
    let s = &ours.stats;
    println!(
        "{}: ours iter={} obj={:.6} rho={:.6} nSV={} nBSV={} | svm-train iter={} obj={} rho={} nSV={} nBSV={}",
        ds.name, s.iterations, s.objective, s.rho, s.n_sv, s.n_bsv,
        lib.iterations[0], lib.obj[0], lib.rho[0], lib.n_sv[0], lib.n_bsv[0]
    );
    let rel = (s.objective - lib.obj[0]).abs() / lib.obj[0].abs().max(1e-12);
    assert!(rel < 1e-3, "objective {} vs {}", s.objective, lib.obj[0]);
    assert!((s.rho - lib.rho[0]).abs() < 1e-5 + 1e-3 * lib.rho[0].abs());
    let it = lib.iterations[0] as f64;
    assert!(
        (s.iterations as f64 - it).abs() <= 0.1 * it,
        "iterations {} vs {it}",
        s.iterations
    );
    let nsv = lib.n_sv[0] as f64;
    assert!(
        (s.n_sv as f64 - nsv).abs() <= (0.01 * nsv).max(1.0),
        "nSV {} vs {nsv}",
        s.n_sv
    );
    // On these problems the trajectories coincide exactly.
    assert_eq!(s.iterations, lib.iterations[0]);
    assert_eq!(s.n_sv, lib.n_sv[0]);
    assert_eq!(s.n_bsv, lib.n_bsv[0]);
}

#[test]
fn heart_scale_single_solves_match_svm_train() {
    let Some(ds) = data("heart_scale") else {
        return;
    };
    if !peer_ready() {
        return;
    }
    let all: Vec<usize> = (0..ds.n()).collect();
    compare_solve(&ds, &all, &SvmParams::rbf(2182.0, 0.2)); // paper setting
    compare_solve(&ds, &all, &SvmParams::libsvm_defaults(ds.d()));
    compare_solve(
        &ds,
        &all,
        &SvmParams {
            shrinking: false,
            ..SvmParams::rbf(2182.0, 0.2)
        },
    );
    compare_solve(&ds, &all, &SvmParams::linear(10.0));
}

#[test]
fn heart_scale_libsvm_folds_reproduce_svm_train_v10() {
    let Some(ds) = data("heart_scale") else {
        return;
    };
    if !peer_ready() {
        return;
    }
    let (_g, file) = temp_file(&ds, &(0..ds.n()).collect::<Vec<_>>());
    for params in [
        SvmParams::rbf(2182.0, 0.2),
        SvmParams::libsvm_defaults(ds.d()),
    ] {
        let PeerOutcome::Ran(lib) = peer::run_svm_train(&file, &params, Some(10), None).unwrap()
        else {
            panic!("svm-train did not run")
        };
        let folds = Folds::libsvm(&ds, 10).unwrap();
        let ours = cross_validate(
            &ds,
            &folds,
            &peer::as_parsed_by_svm_train(&params),
            &CvOptions::default(),
        )
        .unwrap();
        let printed = cvbench::cli::svm::fmt_g(ours.accuracy_pct);
        println!("ours {printed}% | svm-train {:?}%", lib.cv_accuracy_pct);
        assert_eq!(Some(printed.parse::<f64>().unwrap()), lib.cv_accuracy_pct);
        // Same folds => same per-round solves.
        let our_iters: Vec<u64> = ours.rounds.iter().map(|r| r.stats.iterations).collect();
        assert_eq!(our_iters, lib.iterations);
        let our_nsv: Vec<usize> = ours.rounds.iter().map(|r| r.stats.n_sv).collect();
        assert_eq!(our_nsv, lib.n_sv);
    }
}

#[test]
fn heart_scale_fold_accuracy_matches_svm_predict() {
    let Some(ds) = data("heart_scale") else {
        return;
    };
    if !peer_ready() {
        return;
    }
    let params = SvmParams::rbf(2182.0, 0.2);
    let folds = Folds::stratified(&ds, 5, 7).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ours = cross_validate(
        &ds,
        &folds,
        &peer::as_parsed_by_svm_train(&params),
        &CvOptions::default(),
    )
    .unwrap();
    for h in 0..folds.k() {
        let PeerOutcome::Ran(f) = peer::run_fold(
            &ds,
            &folds.train_rows(h),
            folds.test_rows(h),
            &params,
            dir.path(),
            &format!("fold{h}"),
        )
        .unwrap() else {
            panic!("peer skipped")
        };
        let p = f.predict.unwrap();
        assert_eq!(p.correct, ours.rounds[h].correct, "fold {h}");
        assert_eq!(
            f.train.iterations[0], ours.rounds[h].stats.iterations,
            "fold {h}"
        );
    }
}

#[test]
fn a9a_subset_matches_svm_train() {
    let Some(ds) = data("a9a") else { return };
    if !peer_ready() {
        return;
    }
    // The first 1500 rows, paper setting and defaults.
    let rows: Vec<usize> = (0..1500).collect();
    compare_solve(&ds, &rows, &SvmParams::rbf(100.0, 0.5));
    compare_solve(&ds, &rows, &SvmParams::libsvm_defaults(ds.d()));
}
