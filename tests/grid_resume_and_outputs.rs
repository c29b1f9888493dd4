//! `cvbench grid`'s outputs and resume: an interrupted grid keeps every
//! finished point and goes on with `-resume`; output paths are checked
//! before any work; a stray word before the dataset is too many arguments;
//! `--json -` is standard output. Runs the built binary; the interrupted
//! run is held by a test hook (`CVBENCH_TEST_HOLD_*`), and the test polls
//! with a generous deadline.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common;
use common::{assert_exit, command, stderr, stdout, wait_for};

#[cfg(unix)]
fn sigint(pid: i32) {
    // SAFETY: sending a signal to a process (group) this test started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
}

/// A small two-class LibSVM file.
fn small_data(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for i in 0..60 {
        let y = if i % 2 == 0 { 1 } else { -1 };
        let x = f64::from(y) * 0.3 + f64::from(i % 7) * 0.1;
        text.push_str(&format!("{y} 1:{x} 2:{}\n", f64::from(i % 5) * 0.2));
    }
    let p = dir.join("small");
    std::fs::write(&p, text).unwrap();
    p
}

const RANGES: [&str; 4] = ["-log2c", "-1,5,2", "-log2g", "-5,1,2"];

fn out_lines(p: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect();
    v.sort();
    v
}

/// Issue 40, B: an interrupted grid has written every point it finished (in
/// the order they finish, not only grid.py's visiting prefix), says to go on
/// with `-resume`, and the resumed run completes the grid with each point
/// once and the full run's choice.
#[cfg(unix)]
#[test]
fn an_interrupted_grid_keeps_its_finished_points_and_goes_on_with_resume() {
    let dir = tempfile::tempdir().unwrap();
    small_data(dir.path());
    let grid = |extra: &[&str]| {
        let mut c = command(dir.path());
        c.args(["grid", "-png", "null", "--reuse", "gamma"])
            .args(RANGES)
            .args(extra)
            .arg("small");
        c
    };
    let full = grid(&["-out", "full.out"]).output().unwrap();
    assert_exit(&full, 0, &[]);
    let all = out_lines(&dir.path().join("full.out"));
    assert_eq!(all.len(), 16);
    // Held after 4 finished points (one gamma's), then interrupted.
    let child = grid(&[])
        .env("CVBENCH_TEST_HOLD_GRID_POINTS", "4")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = dir.path().join("small.out");
    wait_for("4 points in small.out", || out_lines(&out).len() == 4);
    sigint(child.id() as i32);
    let o = child.wait_with_output().unwrap();
    assert_exit(
        &o,
        130,
        &[
            "the finished grid points are in small.out",
            "-resume small.out",
        ],
    );
    assert!(!stderr(&o).contains("cells"), "{}", stderr(&o));
    let kept = out_lines(&out);
    assert_eq!(kept.len(), 4);
    assert!(
        kept.iter().all(|l| all.contains(l)),
        "{kept:?} not in {all:?}"
    );
    // Resume: the 4 are not recomputed, the other 12 are added.
    let resumed = grid(&["-resume", "small.out"]).output().unwrap();
    assert_exit(&resumed, 0, &[]);
    let text = stdout(&resumed);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("[resumed]")).count(),
        4
    );
    assert_eq!(text.lines().last(), stdout(&full).lines().last());
    assert_eq!(out_lines(&out), all);
}

/// Issue 40, C: `-png` without `.png`, a folder or in a missing folder, and
/// `--json` into a missing folder fail before any work (no `.out` written).
#[test]
fn grid_output_paths_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    small_data(dir.path());
    std::fs::create_dir_all(dir.path().join("folder.png")).unwrap();
    for (args, needles) in [
        (
            vec!["-png", "figure"],
            vec!["-png figure", "must end in .png", "-png figure.png"],
        ),
        (
            vec!["-png", "folder.png"],
            vec!["-png folder.png", "is a folder"],
        ),
        (
            vec!["-png", "gone/f.png"],
            vec!["-png gone/f.png", "folder gone does not exist"],
        ),
        (
            vec!["--json", "gone/x.json"],
            vec!["--json gone/x.json", "folder gone does not exist"],
        ),
        (
            vec!["-out", "gone/x.out"],
            vec!["-out gone/x.out", "folder gone does not exist"],
        ),
        (vec!["-out", "small"], vec!["-out small is the dataset"]),
        (
            vec!["--json", "small.out"],
            vec!["-out and --json name the same file small.out"],
        ),
    ] {
        let o = command(dir.path())
            .arg("grid")
            .args(RANGES)
            .args(&args)
            .arg("small")
            .output()
            .unwrap();
        assert_exit(&o, 2, &needles);
        assert!(!dir.path().join("small.out").exists(), "{args:?}");
        assert!(
            stdout(&o).is_empty(),
            "{args:?}: work was done: {}",
            stdout(&o)
        );
    }
}

/// Issue 40, D: a word before the dataset is too many arguments (the dataset
/// is the last one), not an unknown option.
#[test]
fn a_stray_word_before_the_dataset_is_too_many_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let o = command(dir.path())
        .args(["grid", "-v", "3", "ff", "extra"])
        .output()
        .unwrap();
    assert_exit(
        &o,
        2,
        &[
            "too many arguments: `ff`",
            "the dataset (`extra`) is the last argument",
        ],
    );
    assert!(!stderr(&o).contains("unknown option"), "{}", stderr(&o));
}

/// Issue 40, D: `grid --json -` prints the JSON document on standard output
/// (grid.py's lines go to standard error) and creates no file named `-`.
#[test]
fn grid_json_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    small_data(dir.path());
    let o = command(dir.path())
        .args(["grid", "-out", "null", "-png", "null", "--json", "-"])
        .args(RANGES)
        .arg("small")
        .output()
        .unwrap();
    assert_exit(&o, 0, &["[local] "]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("stdout is JSON");
    assert_eq!(doc["points"].as_array().map(Vec::len), Some(16));
    assert!(!dir.path().join("-").exists());
}
