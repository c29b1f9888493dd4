//! The `svm_grid` kind with `svm_type` (issue 56): refusals (a C-SVC grid
//! with a formulation's axis or a regression set, an axis of the other
//! formulation, a reuse level not built for the formulations), and a small
//! epsilon-SVR grid on a synthetic regression file whose choice and every
//! point's printed MSE equal the independent `svm-train -s 3 -v 3` calls'
//! (skipped, saying so, without svm-train).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::config_check::{refused_config, validate_config};

fn skip(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: svm_grid formulation test: {why}"
    );
}

/// A small regression file (synthetic), written beside the configs.
fn write_regression(dir: &Path) {
    let mut text = String::new();
    for i in 0..48 {
        let (a, b) = ((i % 8) as f64 / 8.0, (i / 8) as f64 / 6.0 - 0.5);
        let y = a - b / 2.0 + 0.05 * ((i * 5 % 7) as f64 / 7.0);
        text.push_str(&format!("{y} 1:{a} 2:{b}\n"));
    }
    std::fs::write(dir.join("synthetic-regression.txt"), text).unwrap();
}

const DATA: &str = "[[datasets]]\npath = \"synthetic-regression.txt\"\nformat = \"libsvm\"\nlabel = \"synthetic-regression\"\n";

fn grid(head: &str) -> String {
    format!(
        "kind = \"svm_grid\"\nname = \"g\"\nseed = 1\nk = 3\ntiming_repeats = 3\n{head}\n{DATA}"
    )
}

fn validate(dir: &Path, text: &str) -> Output {
    validate_config(dir, "g.toml", text)
}

fn refused(dir: &Path, text: &str, words: &[&str]) {
    refused_config(dir, "g.toml", text, words)
}

#[test]
fn formulation_grid_configs_refuse_what_does_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_regression(d);
    let ok = grid("svm_type = \"epsilon_svr\"\nreuse = [\"gamma\"]\nlog2c = [-1, 1, 2]\nlog2g = [-1, 1, 2]\nlog2p = [-3, -1, 2]");
    let o = validate(d, &ok);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    refused(d, &grid("reuse = [\"gamma\"]"), &["is a regression set"]);
    refused(
        d,
        &grid("reuse = [\"gamma\"]\nlog2p = [-3, -1, 2]"),
        &["`log2p` is an axis of the other formulations"],
    );
    refused(
        d,
        &grid("svm_type = \"epsilon_svr\"\nreuse = [\"gamma\"]\nnu = [0.1, 0.5, 0.2]"),
        &["takes log2p, not nu"],
    );
    refused(
        d,
        &grid("svm_type = \"nu_svr\"\nreuse = [\"cpath\"]"),
        &[
            "the formulations have the exact levels",
            "epsilon-SVR also cpath",
        ],
    );
    refused(
        d,
        &grid("svm_type = \"nusvr\"\nreuse = [\"gamma\"]"),
        &["unknown svm_type `nusvr`", "`nu_svr`"],
    );
}

#[test]
fn svr_grid_chooses_as_independent_svm_train_calls() {
    if !cvbench::peers::libsvm::available() {
        return skip("svm-train not installed (make peers)");
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_regression(d);
    let text = grid("svm_type = \"epsilon_svr\"\nreuse = [\"none\", \"gamma+threads\", \"gamma+cpath+threads\"]\nthreads = 2\npeer = true\nlog2c = [-1, 3, 2]\nlog2g = [-3, 1, 2]\nlog2p = [-5, -3, 2]");
    std::fs::write(d.join("g.toml"), text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "g.toml", "--out", "r", "--csv"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(d.join("r/g/report-section.md")).unwrap();
    let records = std::fs::read_to_string(d.join("r/g/records.csv")).unwrap();
    // 3 x 3 x 2 points per level, four levels (three of ours, the peer).
    assert_eq!(records.lines().count(), 1 + 4 * 18, "{records}");
    assert!(md.contains("CV MSE"), "{md}");
    // The warm-started level (cpath) is judged within the tolerance.
    assert_eq!(md.matches(": same choice").count(), 3, "{md}");
    assert!(md.contains("stopping tolerance"), "{md}");
    assert!(!md.contains("**differ"), "{md}");
}
