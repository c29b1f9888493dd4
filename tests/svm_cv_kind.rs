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
