//! Output conventions of `run` and `validate`: plain progress lines when
//! standard error is not a terminal (a SLURM log), `--quiet`, `--json`, a
//! `validate` summary instead of one line per cell, and `--dry-run` saying
//! how many cells are done, how many would run and what they would cost.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common;
use common::text;

const CFG: &str = r#"kind = "treecv"
name = "conv"
seed = 3
repetitions = 4

[[datasets]]
synthetic = { generator = "covtype-like", n = 300 }

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed"]
k = [10, 5, 100]
"#;

fn cvbench(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = common::command(dir);
    c.args(args).stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run cvbench")
}

#[test]
fn progress_goes_to_a_log_file_as_plain_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), CFG).unwrap();
    // stderr to a file, as under SLURM; a line at least every cell here.
    let log = std::fs::File::create(dir.path().join("err.log")).unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "c.toml", "--out", "r", "--threads", "1"])
        .current_dir(dir.path())
        .env("CVBENCH_PROGRESS_SECS", "0")
        .stdout(Stdio::null())
        .stderr(log)
        .status()
        .unwrap();
    assert!(st.success());
    let err = std::fs::read_to_string(dir.path().join("err.log")).unwrap();
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("cells done")).collect();
    assert_eq!(lines.len(), 24, "{err}");
    assert!(lines[0].starts_with("conv: 1/24 cells done, "), "{err}");
    assert!(lines[23].starts_with("conv: 24/24 cells done"), "{err}");
    assert!(lines.iter().all(|l| l.contains(" elapsed, ETA ")), "{err}");
    assert!(
        !err.contains('\r') && !err.contains('\u{1b}'),
        "no terminal codes: {err:?}"
    );
    // --quiet: nothing at all on either stream.
    let o = cvbench(
        &["run", "c.toml", "--out", "q", "--quiet"],
        dir.path(),
        &[("CVBENCH_PROGRESS_SECS", "0")],
    );
    assert!(o.status.success());
    assert_eq!(
        (text(&o.stdout), text(&o.stderr)),
        (String::new(), String::new())
    );
}

#[test]
fn json_says_what_ran_and_where() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), CFG).unwrap();
    let o = cvbench(
        &["run", "c.toml", "--out", "r", "--json", "-q"],
        dir.path(),
        &[],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    let run = &j["runs"][0];
    assert_eq!(run["cells"], 24);
    assert_eq!(run["dir"], "r/conv");
    let files: Vec<&str> = run["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.contains(&"r/conv/records.parquet"), "{files:?}");
    assert!(files.contains(&"r/conv/manifest.json"), "{files:?}");
    let o = cvbench(&["validate", "c.toml", "--json"], dir.path(), &[]);
    let j: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!(j["cells"], 24);
    assert!(j["estimated_cost"].as_f64().unwrap() > 0.0);
}

#[test]
fn validate_summarises_and_dry_run_counts_done_cells_and_cost() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), CFG).unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path(), &[]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        out.lines().count() < 12,
        "a summary, not every cell:\n{out}"
    );
    assert!(
        out.contains("k: 5 (8), 10 (8), 100 (8)"),
        "k in numeric order:\n{out}"
    );
    assert!(out.contains("method: standard (12), treecv (12)"), "{out}");
    assert!(out.contains("estimated cost"), "{out}");
    assert!(!out.contains("  seed="), "{out}");
    let o = cvbench(&["validate", "c.toml", "--cells"], dir.path(), &[]);
    assert_eq!(text(&o.stdout).matches("  seed=").count(), 24);
    let o = cvbench(
        &["run", "c.toml", "--out", "r", "--dry-run"],
        dir.path(),
        &[],
    );
    let out = text(&o.stdout);
    assert!(
        out.contains("24 cells: 0 already done, 24 would run"),
        "{out}"
    );
    assert!(out.contains("estimated cost"), "{out}");
    assert!(!dir.path().join("r").exists(), "a dry run writes nothing");
    cvbench(&["run", "c.toml", "--out", "r", "-q"], dir.path(), &[]);
    let o = cvbench(
        &["run", "c.toml", "--out", "r", "--dry-run"],
        dir.path(),
        &[],
    );
    assert!(
        text(&o.stdout).contains("24 cells: 24 already done, 0 would run"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn no_rust_debug_formatting_in_datasets_and_svm_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    let o = cvbench(&["datasets", "--data-dir", "empty"], dir.path(), &[]);
    let out = text(&o.stdout);
    assert!(
        out.starts_with("data directory: empty (from --data-dir)"),
        "{out}"
    );
    let o = cvbench(&["datasets"], dir.path(), &[]);
    let out = text(&o.stdout);
    assert!(out.contains("(the default)"), "{out}");
    std::fs::write(dir.path().join("d.svm"), "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    for args in [
        vec!["svm", "d.svm", "--peer", "--stats"],
        vec!["svm", "d.svm", "-v", "2", "--peer", "--stats"],
    ] {
        let o = cvbench(&args, dir.path(), &[]);
        let all = format!("{}{}", text(&o.stdout), text(&o.stderr));
        assert!(o.status.success(), "{all}");
        for debug in ["Some(", "None", "(Flag)", "(Default)", "true", "false"] {
            assert!(!all.contains(debug), "{args:?}: {debug} in {all}");
        }
    }
}

#[test]
fn svm_checks_its_files_before_training() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.svm"), "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    let o = cvbench(&["svm", "d.svm", "--test", "nope.svm"], dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("--test nope.svm: no such file"), "{err}");
    assert_eq!(text(&o.stdout), "", "nothing trained");
    assert!(!dir.path().join("d.svm.model").exists());
    let o = cvbench(&["svm", "d.svm", "no/such/dir/m.model"], dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("folder no/such/dir does not exist"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(text(&o.stdout), "", "nothing trained");
    let o = cvbench(&["svm", "d.svm", "--quiet"], dir.path(), &[]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout), "");
    assert!(dir.path().join("d.svm.model").is_file());
}
