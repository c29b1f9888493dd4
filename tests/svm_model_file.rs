//! `cvbench svm` as a drop-in for `svm-train`: the model file it writes is
//! read by LIBSVM's `svm-predict`, which predicts the same labels as
//! cvbench (and as `cvbench svm --test`), on heart_scale and an a9a subset
//! (tested against a9a.t). Needs `CVBENCH_DATA_DIR` and `svm-train` /
//! `svm-predict` on `PATH` (`make peers`); prints `SKIPPED: ...` otherwise.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cvbench::peers::libsvm as peer;
use cvbench_engine::api::data::read_libsvm;
use cvbench_engine::api::training::read_model;

fn cvbench(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .arg("svm")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run cvbench")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The dataset file, decompressed into `dir` under `name` (first `rows`
/// lines when given); `None` (and a SKIPPED line) without data or peers.
fn plain_copy(name: &str, dir: &Path, rows: Option<usize>) -> Option<PathBuf> {
    if !peer::available() {
        println!("SKIPPED: {}", peer::SKIPPED_NO_SVM_TRAIN);
        return None;
    }
    let src = common::data_source(name)?;
    let bytes = cvbench_engine::api::files::read_all(&src).unwrap();
    let mut s = String::from_utf8(bytes).unwrap();
    if let Some(k) = rows {
        s = s.lines().take(k).map(|l| format!("{l}\n")).collect();
    }
    let out = dir.join(name);
    std::fs::write(&out, s).unwrap();
    Some(out)
}

/// The header of a model file as (keyword, rest) pairs, up to `SV`.
fn header(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .take_while(|l| *l != "SV")
        .map(|l| {
            let (k, v) = l.split_once(' ').unwrap_or((l, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Train with `cvbench svm` (default model name), predict `test` with
/// svm-predict from that model, and compare label by label with cvbench's
/// own predictions; compare the header with svm-train's model.
fn check(
    train: &str,
    train_rows: Option<usize>,
    test: &str,
    test_rows: Option<usize>,
    extra: &[&str],
) {
    let dir = tempfile::tempdir().unwrap();
    let Some(train_file) = plain_copy(train, dir.path(), train_rows) else {
        return;
    };
    let Some(test_file) = plain_copy(test, dir.path(), test_rows) else {
        return;
    };
    let mut args = vec![train, "--test", test];
    args.extend_from_slice(extra);
    let o = cvbench(&args, dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let ours_out = text(&o.stdout);
    // svm-train's default: the data file's name plus `.model`, in the current folder.
    let model = dir.path().join(format!("{train}.model"));
    assert!(model.is_file(), "no {}: {ours_out}", model.display());

    let pred = dir.path().join("pred.txt");
    let p = Command::new("svm-predict")
        .arg(&test_file)
        .arg(&model)
        .arg(&pred)
        .output()
        .unwrap();
    assert!(p.status.success(), "svm-predict: {}", text(&p.stderr));
    let predict_out = text(&p.stdout);
    let theirs: Vec<f64> = std::fs::read_to_string(&pred)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let td = read_libsvm(&test_file, None).unwrap();
    let m = read_model(&model).unwrap();
    let ours: Vec<f64> = (0..td.n()).map(|i| m.predict(td.row(i))).collect();
    assert_eq!(theirs.len(), td.n());
    let differ = (0..td.n()).filter(|&i| ours[i] != theirs[i]).count();
    println!(
        "{train} -> {test}: {} predictions, {differ} differ; svm-predict: {}",
        td.n(),
        predict_out.trim()
    );
    assert_eq!(
        differ, 0,
        "svm-predict disagrees with cvbench on {differ} rows"
    );
    // `--test` prints svm-predict's accuracy line, as the last line.
    let acc = predict_out
        .lines()
        .find(|l| l.starts_with("Accuracy = "))
        .unwrap();
    assert_eq!(ours_out.lines().last(), Some(acc), "{ours_out}");

    // The model svm-train writes for the same options has the same header
    // (same support vectors per class, labels, kernel), and rho agrees.
    let lib_model = dir.path().join("svm-train.model");
    let mut targs: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    targs.push("-q".into());
    targs.push(train_file.display().to_string());
    targs.push(lib_model.display().to_string());
    let t = Command::new("svm-train").args(&targs).output().unwrap();
    assert!(t.status.success(), "svm-train: {}", text(&t.stderr));
    let (a, b) = (header(&model), header(&lib_model));
    for key in [
        "svm_type",
        "kernel_type",
        "nr_class",
        "total_sv",
        "label",
        "nr_sv",
    ] {
        let get = |h: &[(String, String)]| h.iter().find(|(k, _)| k == key).cloned();
        assert_eq!(get(&a), get(&b), "{key}");
    }
    let rho = |h: &[(String, String)]| -> f64 {
        h.iter()
            .find(|(k, _)| k == "rho")
            .unwrap()
            .1
            .parse()
            .unwrap()
    };
    assert!(
        (rho(&a) - rho(&b)).abs() <= 1e-9 * rho(&b).abs().max(1.0),
        "rho {} vs {}",
        rho(&a),
        rho(&b)
    );
}

#[test]
fn svm_predict_reads_our_model_of_heart_scale_and_predicts_the_same() {
    check("heart_scale", None, "heart_scale", None, &[]);
    check(
        "heart_scale",
        None,
        "heart_scale",
        None,
        &["-t", "0", "-c", "0.5"],
    );
}

#[test]
fn svm_predict_reads_our_model_of_a9a_and_predicts_the_same_on_a9a_t() {
    check(
        "a9a",
        Some(3000),
        "a9a.t",
        Some(4000),
        &["-c", "4", "-g", "0.03"],
    );
}

#[test]
fn cross_validation_ends_with_svm_trains_line_and_uses_its_folds() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = plain_copy("heart_scale", dir.path(), None) else {
        return;
    };
    let o = cvbench(&["heart_scale", "-v", "10"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let ours = text(&o.stdout);
    let t = Command::new("svm-train")
        .args(["-q", "-v", "10"])
        .arg(&file)
        .output()
        .unwrap();
    let theirs = text(&t.stdout);
    let last = |s: &str| s.lines().last().unwrap_or_default().to_string();
    assert!(
        last(&ours).starts_with("Cross Validation Accuracy = "),
        "{ours}"
    );
    assert_eq!(last(&ours), last(&theirs), "LIBSVM's folds by default");
    // -q: only the accuracy line, as svm-train -q.
    let o = cvbench(&["heart_scale", "-v", "10", "-q"], dir.path());
    assert_eq!(text(&o.stdout), format!("{}\n", last(&theirs)));
    // --peer and --stats add lines before it, never after, and no Rust formatting.
    let o = cvbench(
        &["heart_scale", "-v", "10", "--peer", "--stats"],
        dir.path(),
    );
    let out = text(&o.stdout);
    assert_eq!(last(&out), last(&theirs), "{out}");
    assert!(out.contains("[svm-train] Total #iter = "), "{out}");
    assert!(!out.contains("Some(") && !out.contains("None"), "{out}");
    // No model file is written by -v.
    assert!(!dir.path().join("heart_scale.model").exists());
}
