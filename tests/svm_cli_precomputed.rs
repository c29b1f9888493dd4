//! `cvbench svm -t 4` (LIBSVM's precomputed kernel) against LIBSVM 3.24's
//! `svm-train -t 4` and `svm-predict` on kernel matrices made here from
//! real data, written into a temporary folder in svm-train's format
//! (`label 0:i 1:K(x_i,x_1) ... l:K(x_i,x_l)`, every value in shortest
//! round-trip form): heart_scale's linear kernel and its RBF kernel
//! (gamma 0.5), glass.scale's RBF kernel (six classes, one-vs-one). For
//! each: the same standard output as svm-train, the same model file (every
//! token equal, numbers to the bit as parsed; support vectors as `0:serial`),
//! the same `-v 5` line, svm-predict on our model printing and predicting
//! what it does on svm-train's, and `--test`. Files without LIBSVM's
//! serial numbers exit 2 naming the file and line. Needs `CVBENCH_DATA_DIR`
//! and svm-train / svm-predict on `PATH`; prints `SKIPPED: ...` and passes
//! otherwise (the bad files are checked without them).

use std::path::Path;

use crate::common;
use common::libsvm::{assert_same_model, libsvm_tools, precomputed_text, run};
use common::{assert_usage_error, cvbench, data_source, ok};

use cvbench_engine::api::data::read_libsvm;

/// The precomputed kernel files of `name` (`(file name, gamma)`), written
/// into `d`; `None` (after a SKIPPED line) without the tools or the data.
fn kernel_files(name: &str, kernels: &[(&str, Option<f64>)], d: &Path) -> Option<Vec<String>> {
    if !libsvm_tools() {
        return None;
    }
    let src = data_source(name)?;
    let ds = read_libsvm(&src, None).unwrap();
    Some(
        kernels
            .iter()
            .map(|&(file, gamma)| {
                std::fs::write(d.join(file), precomputed_text(&ds, gamma)).unwrap();
                file.to_string()
            })
            .collect(),
    )
}

/// Each option set of `cases` (with `-t 4`) on each kernel file: svm-train's
/// output and model, svm-predict on both models, `--test`, and the `-v 5`
/// line.
fn compare(files: &[String], cases: &[&str], d: &Path) {
    for file in files {
        for case in cases {
            let mut opts: Vec<&str> = vec!["-t", "4"];
            opts.extend(case.split_whitespace());
            let call = |extra: &[&str]| {
                let mut v = vec!["svm"];
                v.extend(opts.iter().chain(extra));
                cvbench(&v, d)
            };
            let what = format!("{file} -t 4 {case}");
            let mut lib_args = opts.clone();
            lib_args.extend([file.as_str(), "lib.model"]);
            let lib_out = run("svm-train", &lib_args, d);
            let our_out = ok(&call(&[file, "our.model"]));
            assert_eq!(our_out, lib_out, "{what}: standard output");
            let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
            let ours = read("our.model");
            assert_same_model(&ours, &read("lib.model"), &what);
            let sv = ours.split("SV\n").nth(1).unwrap();
            assert!(
                sv.lines()
                    .all(|l| l.split_whitespace().filter(|t| t.contains(':')).count() == 1),
                "{what}: support vectors as 0:serial alone"
            );
            let p_lib = run("svm-predict", &[file, "lib.model", "lib.pred"], d);
            let p_our = run("svm-predict", &[file, "our.model", "our.pred"], d);
            assert_eq!(p_our, p_lib, "{what}: svm-predict's summary");
            assert_eq!(read("our.pred"), read("lib.pred"), "{what}: predictions");
            if case.contains("-b 1") {
                let b_lib = run(
                    "svm-predict",
                    &["-b", "1", file, "lib.model", "lib.prob"],
                    d,
                );
                let b_our = run(
                    "svm-predict",
                    &["-b", "1", file, "our.model", "our.prob"],
                    d,
                );
                assert_eq!(b_our, b_lib, "{what}: svm-predict -b 1's summary");
                assert_eq!(read("our.prob"), read("lib.prob"), "{what}: probabilities");
            }
            // (svm-predict's note on a -b 1 model without -b 1 is its own.)
            let tested = ok(&call(&["-q", "--test", file, file, "t.model"]));
            assert_eq!(
                tested.lines().last(),
                p_lib.lines().last(),
                "{what}: --test"
            );
            let mut cv_args = opts.clone();
            cv_args.extend(["-v", "5", file.as_str()]);
            let lib_cv = run("svm-train", &cv_args, d);
            let our_cv = ok(&call(&["-v", "5", file]));
            assert_eq!(our_cv.lines().last(), lib_cv.lines().last(), "{what}: -v 5");
            println!("{what}: svm-train's output, model, predictions and -v 5 line");
        }
    }
}

#[test]
fn binary_precomputed_kernels_are_svm_train() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let Some(files) = kernel_files(
        "heart_scale",
        &[("heart.linear", None), ("heart.rbf", Some(0.5))],
        d,
    ) else {
        return;
    };
    compare(&files, &["", "-c 4 -h 0", "-b 1"], d);
}

#[test]
fn multiclass_precomputed_kernel_is_svm_train() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let Some(files) = kernel_files("glass.scale", &[("glass.rbf", Some(0.5))], d) else {
        return;
    };
    compare(&files, &["", "-c 8"], d);
}

#[test]
fn other_formulations_train_on_a_precomputed_kernel_as_svm_train() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let Some(files) = kernel_files("heart_scale", &[("heart.rbf", Some(0.5))], d) else {
        return;
    };
    for case in ["-s 1 -n 0.3", "-s 2", "-s 3", "-s 4"] {
        let mut opts: Vec<&str> = vec!["-t", "4"];
        opts.extend(case.split_whitespace());
        let mut lib_args = opts.clone();
        lib_args.extend([files[0].as_str(), "lib.model"]);
        let lib_out = run("svm-train", &lib_args, d);
        let mut ours = vec!["svm"];
        ours.extend(&opts);
        ours.extend([files[0].as_str(), "our.model"]);
        assert_eq!(ok(&cvbench(&ours, d)), lib_out, "{case}: standard output");
        let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
        assert_same_model(&read("our.model"), &read("lib.model"), case);
    }
}

#[test]
fn files_without_serial_numbers_exit_2_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = ["+1 0:1 1:2 2:0.5", "-1 0:2 1:0.5 2:3", "+1 0:3 1:1 2:1"];
    let cases: [(&str, usize, &str); 6] = [
        ("1:2 2:0.5", 1, "first column must be 0:SERIAL"),
        ("0:0 1:0.5 2:3", 2, "first column must be 0:SERIAL"),
        (
            "0:4 1:1 2:1",
            3,
            "0:4 is out of range: it must be from 1 to 3",
        ),
        ("0:-2 1:1 2:1", 3, "0:-2 is out of range"),
        ("0:2.5 1:1 2:1", 3, "0:2.5 is not an integer"),
        ("0:x 1:1", 3, "feature 0"),
    ];
    for (k, (bad, line, want)) in cases.iter().enumerate() {
        let mut rows: Vec<String> = good.iter().map(|s| s.to_string()).collect();
        let label = if *line == 2 { "-1" } else { "+1" };
        rows[line - 1] = format!("{label} {bad}");
        // A comment and a blank line first: the line is the file's.
        let text = format!("# kernel\n\n{}\n", rows.join("\n"));
        let file = format!("bad{k}.pre");
        std::fs::write(d.join(&file), text).unwrap();
        let o = cvbench(&["svm", "-t", "4", &file, "x.model"], d);
        let named = format!("{file}:{}", line + 2);
        let e = assert_usage_error(&o, &[want, named.as_str()]);
        assert_eq!(e.trim().lines().count(), 1, "{bad}: one line: {e}");
    }
    let o = cvbench(&["svm", "-t", "4", "-v", "2", "bad0.pre"], d);
    assert_usage_error(&o, &["bad0.pre:3", "first column must be 0:SERIAL"]);
    std::fs::write(d.join("plain"), "+1 1:1\n-1 1:2\n").unwrap();
    let o = cvbench(&["svm", "-t", "4", "plain", "x.model"], d);
    assert_usage_error(&o, &["plain:1", "first column must be 0:SERIAL"]);
    let o = cvbench(&["grid", "-t", "4", "-out", "null", "plain"], d);
    assert_usage_error(&o, &["plain:1", "first column must be 0:SERIAL"]);
}
