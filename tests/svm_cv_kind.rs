//! The `svm_cv` experiment kind end to end through the CLI: our k-fold CV on
//! LIBSVM-compatible folds equals `svm-train -v k` and matches svm-train fold
//! by fold (skipped, saying so, without the data or without svm-train).

use std::io::Write;
use std::process::Command;

fn skip(why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED: svm_cv kind test: {why}");
}

#[test]
fn heart_scale_matches_svm_train() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        return skip("set CVBENCH_DATA_DIR to the datasets folder");
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = r#"kind = "svm_cv"
name = "h"
seed = 1
k = [3, 10]
methods = ["ours", "ours_shared_parallel", "libsvm", "libsvm_v"]

[[datasets]]
name = "heart_scale"

[[settings]]
label = "paper"
c = 2182
gamma = 0.2
"#;
    std::fs::write(dir.path().join("h.toml"), cfg).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "h.toml", "--out", "r", "--data-dir", &data, "--csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(dir.path().join("r/h/report-section.md")).unwrap();
    let records = std::fs::read_to_string(dir.path().join("r/h/records.csv")).unwrap();
    // ours and ours_shared_parallel: 3 + 10 rounds each.
    assert!(
        records.lines().filter(|l| l.contains(",ours,")).count() == 13,
        "{records}"
    );
    if cvbench::peers::libsvm::available() {
        // The run's section states the two acceptance checks (the per-run
        // rows are in the report's cross-run table).
        assert!(
            md.contains("2 of 2 (dataset, setting, k) groups pass every per-fold check"),
            "{md}"
        );
        assert!(
            md.contains("equals what `svm-train -v k` prints in 2 of 2 cases"),
            "{md}"
        );
        // And fold by fold: 3 + 10 rounds, same #iter, same held-out
        // correct count, objective within 1e-6 relative.
        let vs = std::fs::read_to_string(dir.path().join("r/h/vs_libsvm.csv")).unwrap();
        let mut lines = vs.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), 13, "{vs}");
        for r in &rows {
            assert_eq!(r[col("iter_ours")], r[col("iter_libsvm")], "{vs}");
            assert_eq!(r[col("correct_ours")], r[col("correct_libsvm")], "{vs}");
            let d: f64 = r[col("obj_rel_diff")].parse().unwrap();
            assert!(d.abs() < 1e-6, "{vs}");
        }
    } else {
        skip("svm-train not installed (make peers); only our side was checked");
    }
}

/// The headline cost table: our one training on all rows, the fastest exact
/// CV over it, and the peers timed in the same run with the same cache. Our
/// one training makes svm-train's iterations, and `svm-train -v k` prints
/// our CV accuracy (when installed).
#[test]
fn cost_in_trainings_beside_the_peers_of_the_same_run() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        return skip("set CVBENCH_DATA_DIR to the datasets folder");
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = r#"kind = "svm_cv"
name = "c"
seed = 1
k = [5, 10]
methods = ["ours", "sir", "train", "libsvm_v", "libsvm_fit", "onedal", "onedal_fit"]
caches = ["shared"]
threads = [2]
timing_repeats = 2
timed_fewer_because = "a test: two runs are enough to check the columns"

[[datasets]]
name = "heart_scale"

[[settings]]
label = "defaults"
"#;
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "c.toml", "--out", "r", "--data-dir", &data, "--csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |f: &str| std::fs::read_to_string(dir.path().join("r/c").join(f)).unwrap();
    let records = read("records.csv");
    let mut lines = records.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(csv_fields).collect();
    let of = |m: &str| -> Vec<&Vec<&str>> {
        rows.iter()
            .filter(|r| r[col("method")].split(" [").next() == Some(m))
            .collect()
    };
    // One training runs once (with the first k), timed twice.
    let train = of("train");
    assert_eq!(train.len(), 1, "{records}");
    assert_eq!(train[0][col("timing_repeats")], "2");
    assert_eq!(train[0][col("k")], "5");
    let cost = read("cost.csv");
    assert_eq!(cost.lines().count(), 3, "one row per k: {cost}");
    let md = read("report-section.md");
    assert!(md.contains("CV in trainings"), "{md}");
    if cvbench::peers::libsvm::available() {
        let fit = of("libsvm_fit");
        assert_eq!(fit.len(), 1, "{records}");
        assert_eq!(
            fit[0][col("iterations")],
            train[0][col("iterations")],
            "{records}"
        );
        let v = of("libsvm_v");
        let sir = of("sir");
        for k in ["5", "10"] {
            let acc = |rs: &[&Vec<&str>]| {
                let r = rs.iter().find(|r| r[col("k")] == k).unwrap();
                r[col("cv_accuracy_pct")].parse::<f64>().unwrap()
            };
            assert!((acc(&v) - acc(&sir)).abs() < 1e-3, "k = {k}: {records}");
        }
    } else {
        skip("svm-train not installed (make peers): its cells were skipped");
    }
    if cvbench::peers::onedal::available() {
        assert_eq!(of("onedal").len(), 2, "{records}");
        assert!(!cost.contains("not run,not run"), "{cost}");
    } else {
        skip("scikit-learn-intelex not installed (make peers): its cells were skipped");
    }
}

/// `first_rounds`: a leave-one-out cell of our solver runs its first R
/// rounds only, and every output says its times are estimates; a config
/// that cannot be estimated so is refused at its line, exit code 2.
#[test]
fn first_rounds_estimate_a_leave_one_out_run() {
    let Ok(data) = std::env::var("CVBENCH_DATA_DIR") else {
        return skip("set CVBENCH_DATA_DIR to the datasets folder");
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = |k: &str, methods: &str| {
        format!(
            "kind = \"svm_cv\"\nname = \"e\"\nseed = 1\nk = [{k}]\nmethods = [{methods}]\nfirst_rounds = 12\ncaches = [\"per_solve\"]\nthreads = [1]\n\n[[datasets]]\nname = \"heart_scale\"\n\n[[settings]]\nlabel = \"defaults\"\n"
        )
    };
    let run = |text: String| {
        std::fs::write(dir.path().join("e.toml"), text).unwrap();
        Command::new(env!("CARGO_BIN_EXE_cvbench"))
            .args(["run", "e.toml", "--out", "r", "--data-dir", &data, "--csv"])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    for (k, methods, says) in [
        ("10", "\"ours\", \"sir\"", "k = 10 is listed"),
        (
            "\"n\"",
            "\"ours\", \"tree\"",
            "method `tree` cannot be estimated",
        ),
    ] {
        let o = run(cfg(k, methods));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says) && err.contains("e.toml"), "{err}");
    }
    let o = run(cfg("\"n\"", "\"ours\", \"sir\", \"avg\""));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |f: &str| std::fs::read_to_string(dir.path().join("r/e").join(f)).unwrap();
    let records = read("records.csv");
    let mut lines = records.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(csv_fields).collect();
    for m in ["ours", "sir", "avg"] {
        let rounds: Vec<&Vec<&str>> = rows
            .iter()
            .filter(|r| r[col("method")].starts_with(m) && r[col("fold")] != "-2")
            .collect();
        assert_eq!(rounds.len(), 12, "{m}: {records}");
        // The stored wall seconds are the estimate of all 270 rounds, the
        // cell's own seconds what the 12 rounds took.
        let est: f64 = rounds[0][col("wall_median_s")].parse().unwrap();
        let took: f64 = rounds[0][col("cell_wall_s")].parse().unwrap();
        // (AVG's full model, solved once, is counted once.)
        let factor = if m == "avg" { 1.0 } else { 5.0 };
        assert!(
            est > took * factor,
            "{m}: estimate {est} s, measured {took} s"
        );
    }
    let md = read("report-section.md");
    assert!(
        md.contains("Estimated from the first 12 of 270 rounds"),
        "{md}"
    );
    let svg = read("loocv_relative_to_sir.svg");
    assert!(
        svg.contains("ESTIMATED"),
        "the figure says its bars are estimates"
    );
}

/// The fields of one CSV line (a quoted field may hold commas; no escaped
/// quotes occur in these records).
fn csv_fields(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(line[start..i].trim_matches('"'));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(line[start..].trim_matches('"'));
    out
}
