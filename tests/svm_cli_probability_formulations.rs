//! `cvbench svm -s 1|3|4 -b 1` (probability estimates of nu-SVC,
//! epsilon-SVR and nu-SVR) against LIBSVM 3.24's `svm-train -b 1` on real
//! data: heart_scale and vowel.scale (nu-SVC, two and eleven classes: each
//! pair's internal 5-fold CV of nu-SVC sub-trainings on svm-train's
//! `rand()` shuffles, `probA` / `probB`), housing_scale (the SVRs'
//! internal CV, its Laplace `sigma` printed and written as `probA`), RBF
//! and another kernel, shrinking on and off. For each
//! ([`common::libsvm::compare`]): svm-train's standard output (the
//! internal CVs' lines included), its model file, `svm-predict` and
//! `svm-predict -b 1` on our model as on svm-train's, and `--test`. Needs
//! `CVBENCH_DATA_DIR` and svm-train / svm-predict on `PATH`; prints
//! `SKIPPED: ...` and passes otherwise. One-class `-b 1` (svm-train
//! refuses it) and `-b 1 -v` with alpha seeding are usage errors, checked
//! without them (`-b 1 -v` itself: `svm_cli_formulation_cv.rs`).

use crate::common;
use common::libsvm::compare;
use common::{assert_usage_error, cvbench};

#[test]
fn nu_svc_probability_is_svm_train() {
    compare(
        "heart_scale",
        &[
            "-s 1 -b 1",
            "-s 1 -b 1 -n 0.3 -t 0 -h 0",
            "-s 1 -b 1 -n 0.7 -t 1 -g 0.1 -r 1",
        ],
    );
}

#[test]
fn nu_svc_multiclass_probability_is_svm_train() {
    compare(
        "vowel.scale",
        &["-s 1 -b 1 -n 0.1", "-s 1 -b 1 -n 0.05 -t 0 -h 0"],
    );
}

#[test]
fn epsilon_svr_probability_is_svm_train() {
    compare(
        "housing_scale",
        &[
            "-s 3 -b 1",
            "-s 3 -b 1 -p 0.3 -c 4 -h 0",
            "-s 3 -b 1 -t 1 -d 2 -g 0.2",
        ],
    );
}

#[test]
fn nu_svr_probability_is_svm_train() {
    compare(
        "housing_scale",
        &["-s 4 -b 1", "-s 4 -b 1 -n 0.3 -t 0 -h 0"],
    );
}

#[test]
fn one_class_and_cv_probability_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::svm::blobs_file(dir.path());
    let data = data.to_str().unwrap();
    for (args, want) in [
        (
            &["-s", "2", "-b", "1"][..],
            "one-class SVM probability output not supported yet",
        ),
        (
            &["-s", "3", "-b", "1", "-v", "5", "--seeding", "sir"],
            "-b 1 with -v and --seeding (-s 3",
        ),
    ] {
        let mut a = vec!["svm"];
        a.extend(args);
        a.push(data);
        let e = assert_usage_error(&cvbench(&a, dir.path()), &[want]);
        assert_eq!(e.trim().lines().count(), 1, "{args:?}: one line: {e}");
    }
}

#[test]
fn a_small_regression_probability_model_without_libsvm() {
    // Fewer rows than the internal CV's folds: svm-train's warning, one
    // row per round, a probA line all the same.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("tiny"), "1 1:0.5\n2 1:0.1\n0.5 1:-0.3\n").unwrap();
    let o = cvbench(&["svm", "-s", "3", "-b", "1", "tiny", "t.model"], d);
    let out = common::ok(&o);
    assert!(out.contains("sigma= "), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("# folds > # data"), "{err}");
    let model = std::fs::read_to_string(d.join("t.model")).unwrap();
    assert!(model.lines().any(|l| l.starts_with("probA ")), "{model}");
}
