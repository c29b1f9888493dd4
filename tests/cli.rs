//! End-to-end tests of the `cvbench` binary: runs, resume, thread-count
//! independence, exit codes and error messages for bad input.

use crate::common;
use common::{cvbench, reproducible_lines};

const SMALL: &str = r#"kind = "treecv"
name = "small"
seed = 3
repetitions = 2

[[datasets]]
synthetic = { generator = "covtype-like", n = 400 }

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "standard", "treecv_parallel"]
orders = ["fixed", "randomized"]
k = [3, 10]
n = [200, 400]

[[grid]]
methods = ["treecv"]
orders = ["randomized"]
k = ["n"]
"#;

#[test]
fn run_writes_everything_and_is_thread_count_independent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.toml"), SMALL).unwrap();
    let o1 = cvbench(
        &[
            "run",
            "small.toml",
            "--out",
            "r1",
            "--threads",
            "1",
            "--csv",
        ],
        dir.path(),
    );
    assert!(
        o1.status.success(),
        "{}",
        String::from_utf8_lossy(&o1.stderr)
    );
    let o2 = cvbench(
        &[
            "run",
            "small.toml",
            "--out",
            "r2",
            "--threads",
            "2",
            "--csv",
        ],
        dir.path(),
    );
    assert!(o2.status.success());
    let run = dir.path().join("r1/small");
    for f in [
        "records.parquet",
        "records.csv",
        "summary.csv",
        "summary.parquet",
        "manifest.json",
        "figure2.svg",
        "figure2.png",
        "table2.svg",
        "table2.png",
    ] {
        assert!(run.join(f).is_file(), "missing {f}");
    }
    let a = std::fs::read_to_string(run.join("records.csv")).unwrap();
    let (sa, sb) = (
        reproducible_lines(&run.join("records.parquet")),
        reproducible_lines(&dir.path().join("r2/small/records.parquet")),
    );
    assert_eq!(sa.len(), sb.len());
    for (x, y) in sa.iter().zip(&sb) {
        assert_eq!(x, y, "records differ between --threads 1 and 2");
    }
    assert_eq!(a.lines().count(), 1 + 2 * (3 * 2 * 2 * 2) + 2);
    assert!(a.contains("synthetic"));
    let m = std::fs::read_to_string(run.join("manifest.json")).unwrap();
    for key in ["git_revision", "machine", "config", "\"seed\": 3", "cells"] {
        assert!(m.contains(key), "manifest lacks {key}");
    }
    // Resume: a second run reuses every cell.
    let o3 = cvbench(&["run", "small.toml", "--out", "r1", "--csv"], dir.path());
    assert!(String::from_utf8_lossy(&o3.stdout).contains("resumed"));
    let c = std::fs::read_to_string(run.join("records.csv")).unwrap();
    assert_eq!(a, c, "resumed run must reproduce the records exactly");
    // Report re-renders from stored tables.
    let o4 = cvbench(&["report", "r1"], dir.path());
    assert!(
        o4.status.success(),
        "{}",
        String::from_utf8_lossy(&o4.stderr)
    );
    let report = std::fs::read_to_string(dir.path().join("r1/REPORT.md")).unwrap();
    assert!(report.contains("TreeCV") && report.contains("small/figure2.svg"));
    assert!(dir.path().join("r1/index.html").is_file());
}

fn expect_config_error(config: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), config).unwrap();
    let o = cvbench(&["run", "bad.toml", "--out", "r"], dir.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "error lacks {n:?}: {err}");
    }
    assert!(!dir.path().join("r").exists(), "no results may be written");
}

#[test]
fn unknown_key_is_exit_2_with_file_line_and_fix() {
    let bad = SMALL.replace("repetitions = 2", "repetitions = 2\nrepetitons = 3");
    expect_config_error(&bad, &["bad.toml:5:1", "repetitons", "fix:"]);
}

#[test]
fn k_larger_than_n_is_exit_2() {
    let bad = SMALL.replace("k = [3, 10]", "k = [3, 500]");
    expect_config_error(&bad, &["bad.toml:16:", "k = 500", "fix:"]);
}

#[test]
fn k_below_two_and_empty_grid_are_errors() {
    expect_config_error(
        &SMALL.replace("k = [3, 10]", "k = [1]"),
        &["bad.toml:16:", "k = 1"],
    );
    expect_config_error(
        &SMALL.replace("k = [3, 10]", "k = []"),
        &["bad.toml:16:", "empty"],
    );
}

#[test]
fn missing_dataset_is_exit_2_and_says_how_to_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = SMALL.replace(
        "synthetic = { generator = \"covtype-like\", n = 400 }",
        "name = \"a9a\"",
    );
    std::fs::write(dir.path().join("c.toml"), cfg).unwrap();
    let o = cvbench(
        &["run", "c.toml", "--out", "r", "--data-dir", "nowhere"],
        dir.path(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a9a") && err.contains("nowhere") && err.contains("cvbench fetch"),
        "{err}"
    );
    assert!(!dir.path().join("r").exists());
}

#[test]
fn bad_usage_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(cvbench(&["run"], dir.path()).status.code(), Some(2));
    assert_eq!(cvbench(&["frobnicate"], dir.path()).status.code(), Some(2));
    let o = cvbench(&["run", "missing.toml"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.toml"));
}
