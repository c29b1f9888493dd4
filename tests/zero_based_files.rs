//! Zero-based LibSVM files (scikit-learn's `dump_svmlight_file` default:
//! the first feature is `0:`) are read as `svm-train` reads them: index 0 is
//! one more feature, apart from index 1; the default gamma is
//! `1/max_index`; a model file keeps the file's indices (`0:` entries, as
//! `svm-train`'s model has them); a model and its test data number their
//! features alike whatever index each file starts at. Checked against
//! `svm-train` where it is installed (SKIPPED otherwise).

use crate::common;

use common::{cvbench, ok, text};
use std::path::Path;
use std::process::Command;

/// Rows of a small two-class problem: label and five feature values (some
/// zero), short decimals that both programs print alike.
fn rows() -> Vec<(i32, [f64; 5])> {
    (0..60)
        .map(|i| {
            let y = if (i * 7) % 3 == 0 { 1 } else { -1 };
            let f = |k: i32| f64::from(((i * (k + 3) + k) % 9) - 4) / 8.0;
            let mut x = [f(0), f(1), f(2), f(3), f(4)];
            x[0] += 0.25 * f64::from(y);
            (y, x)
        })
        .collect()
}

/// The rows as LibSVM text, feature `k` written as index `k + first`;
/// `zero_marker` adds an explicit `0:0` to every row (same data, but the
/// file then has an index 0).
fn libsvm_text(first: usize, skip_feature_0: bool, zero_marker: bool) -> String {
    let mut s = String::new();
    for (y, x) in rows() {
        s.push_str(&y.to_string());
        if zero_marker {
            s.push_str(" 0:0");
        }
        for (k, v) in x.iter().enumerate() {
            if *v != 0.0 && !(skip_feature_0 && k == 0) {
                s.push_str(&format!(" {}:{v}", k + first));
            }
        }
        s.push('\n');
    }
    s
}

fn svm_train() -> Option<()> {
    let found = Command::new("svm-train").arg("-h").output().is_ok();
    if !found {
        println!("SKIPPED: svm-train not found (make peers installs LIBSVM's tools)");
    }
    found.then_some(())
}

fn last_line(s: &str) -> String {
    s.lines().last().unwrap_or_default().to_string()
}

#[test]
fn a_zero_based_file_cross_validates_as_svm_train_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("zero"), libsvm_text(0, false, false)).unwrap();
    std::fs::write(d.join("one"), libsvm_text(1, false, false)).unwrap();
    let ours = ok(&cvbench(&["svm", "-q", "-v", "5", "zero"], d));
    assert!(ours.starts_with("Cross Validation Accuracy = "), "{ours}");
    // The same data numbered from 1, with the gamma 1/max_index of the
    // zero-based file (1/4) given: the same folds, the same accuracy.
    let shifted = ok(&cvbench(&["svm", "-q", "-v", "5", "-g", "0.25", "one"], d));
    assert_eq!(ours, shifted);
    if svm_train().is_none() {
        return;
    }
    let t = Command::new("svm-train")
        .args(["-q", "-v", "5"])
        .arg(d.join("zero"))
        .output()
        .unwrap();
    assert!(t.status.success(), "{}", text(&t.stderr));
    assert_eq!(last_line(&ours), last_line(&text(&t.stdout)));
}

/// A model file's header lines and its SV lines split into coefficient and
/// `index:value` tokens.
fn model(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let s = std::fs::read_to_string(path).unwrap();
    let (head, svs) = s.split_once("SV\n").expect("an SV line");
    let header = head.lines().map(str::to_string).collect();
    let svs = svs
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    (header, svs)
}

#[test]
fn a_model_of_a_zero_based_file_has_svm_trains_0_entries() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("zero"), libsvm_text(0, false, false)).unwrap();
    ok(&cvbench(&["svm", "-q", "zero", "ours.model"], d));
    let (header, svs) = model(&d.join("ours.model"));
    assert!(header.contains(&"gamma 0.25".to_string()), "{header:?}");
    assert!(
        svs.iter().any(|sv| sv.iter().any(|t| t.starts_with("0:"))),
        "no 0: entry in {svs:?}"
    );
    assert!(svs.iter().all(|sv| !sv.iter().any(|t| t.starts_with("5:"))));
    if svm_train().is_none() {
        return;
    }
    let t = Command::new("svm-train")
        .arg("-q")
        .arg(d.join("zero"))
        .arg(d.join("theirs.model"))
        .output()
        .unwrap();
    assert!(t.status.success(), "{}", text(&t.stderr));
    let (their_header, their_svs) = model(&d.join("theirs.model"));
    let num = |s: &str| s.parse::<f64>().unwrap();
    // The same header (numbers compared as numbers: svm-train prints %.17g).
    assert_eq!(header.len(), their_header.len());
    for (a, b) in header.iter().zip(&their_header) {
        let (ka, va) = a.split_once(' ').unwrap();
        let (kb, vb) = b.split_once(' ').unwrap();
        assert_eq!(ka, kb);
        for (x, y) in va.split(' ').zip(vb.split(' ')) {
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) => assert!((x - y).abs() <= 1e-6 * (1.0 + y.abs()), "{a} / {b}"),
                _ => assert_eq!(x, y, "{a} / {b}"),
            }
        }
    }
    // The same support vectors, with the same indices (the same `0:`
    // entries) and coefficients.
    let keyed = |svs: &[Vec<String>]| -> Vec<(String, f64)> {
        let mut v: Vec<(String, f64)> = svs
            .iter()
            .map(|sv| {
                let entries: Vec<String> = sv[1..]
                    .iter()
                    .map(|t| {
                        let (i, x) = t.split_once(':').unwrap();
                        format!("{i}:{}", num(x))
                    })
                    .collect();
                (entries.join(" "), num(&sv[0]))
            })
            .collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v
    };
    let (ours, theirs) = (keyed(&svs), keyed(&their_svs));
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.0, b.0);
        assert!(
            (a.1 - b.1).abs() <= 1e-6 * (1.0 + b.1.abs()),
            "{a:?} / {b:?}"
        );
    }
}

#[test]
fn a_model_predicts_test_files_alike_whatever_index_they_start_at() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("zero"), libsvm_text(0, false, false)).unwrap();
    // The same rows with feature 0 dropped: once with no index 0 in the
    // file (read as 1-based), once with an explicit `0:0` (0-based).
    std::fs::write(d.join("no0"), libsvm_text(0, true, false)).unwrap();
    std::fs::write(d.join("with0"), libsvm_text(0, true, true)).unwrap();
    let run = |test: &str| -> String {
        last_line(&ok(&cvbench(
            &["svm", "-q", "--test", test, "zero", "m.model"],
            d,
        )))
    };
    let (a, b) = (run("no0"), run("with0"));
    assert!(a.starts_with("Accuracy = "), "{a}");
    assert_eq!(a, b);
    // svm-predict with the model as written gives the same accuracy.
    if Command::new("svm-predict").output().is_err() {
        println!("SKIPPED: svm-predict not found");
        return;
    }
    for test in ["no0", "with0"] {
        let t = Command::new("svm-predict")
            .args([test, "m.model", "pred.out"])
            .current_dir(d)
            .output()
            .unwrap();
        assert!(t.status.success(), "{}", text(&t.stderr));
        assert_eq!(last_line(&text(&t.stdout)), a, "{test}");
    }
}
