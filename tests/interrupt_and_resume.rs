//! Regression tests for issue 40 (hardening round 3), interruption and
//! `cvbench grid`'s outputs: an interruption stops and reaps the children
//! before removing what they write, and says so (exit 130) rather than
//! reporting a failed cell; an interrupted grid keeps every finished point
//! and goes on with `-resume`; output paths are checked before any work;
//! `--json -` is standard output. Runs the built binary; no timing races:
//! the runs are held by test hooks (`CVBENCH_TEST_HOLD_*`) or by a fake
//! `svm-train` that never ends, and the tests poll with generous deadlines.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

mod common;
use common::{assert_exit, command, stderr, stdout, wait_for};

#[cfg(unix)]
fn sigint(pid: i32) {
    // SAFETY: sending a signal to a process (group) this test started.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
}

/// Whether process `pid` runs (exists and is not a zombie).
#[cfg(target_os = "linux")]
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        let state = s[s.rfind(')').unwrap_or(0) + 1..].split_whitespace().next();
        !matches!(state, Some("Z" | "X"))
    })
}

/// A folder holding executable fake `svm-train` / `svm-predict` scripts.
#[cfg(unix)]
fn fake_bin(dir: &Path, train: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, body) in [("svm-train", train), ("svm-predict", "#!/bin/sh\nexit 1\n")] {
        let p = bin.join(name);
        std::fs::write(&p, body).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// `PATH` with `bin` first.
fn path_with(bin: &Path) -> std::ffi::OsString {
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

const SVM_CV_LIBSVM: &str = "kind = \"svm_cv\"\nname = \"s\"\nseed = 1\nk = [2]\nmethods = [\"libsvm\"]\n[[datasets]]\nsynthetic = { generator = \"linear-classification\", n = 40, d = 3 }\n[[settings]]\nlabel = \"p\"\nc = 1\n";

/// A fake `svm-train`: records its pid, creates the model file it is given
/// (last argument) in cvbench's temporary folder, then runs until killed,
/// noting if that folder disappears while it still runs.
const FAKE_TRAIN_FOREVER: &str = r#"#!/bin/sh
for a; do model="$a"; done
echo $$ > "$FAKE_STATE/train.pid.tmp" && mv "$FAKE_STATE/train.pid.tmp" "$FAKE_STATE/train.pid"
: > "$model"
while :; do
  [ -d "$(dirname "$model")" ] || : > "$FAKE_STATE/folder-removed-under-me"
  sleep 0.05
done
"#;

fn spawn_run(dir: &Path, bin: &Path, tmp: &Path, state: &Path) -> Child {
    std::fs::write(dir.join("c.toml"), SVM_CV_LIBSVM).unwrap();
    command(dir)
        .args(["run", "c.toml", "--out", "out"])
        .env("PATH", path_with(bin))
        .env("TMPDIR", tmp)
        .env("FAKE_STATE", state)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn temp_folders(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("cvbench-"))
        })
        .collect()
}

/// Issue 40, A: SIGINT while `svm-train` runs kills and reaps it before its
/// folder is removed, and the run says it was interrupted (exit 130), not
/// that a cell failed. (The old code removed the folder under the running
/// peer and left it running: a run exited 1 with "can't save model".)
#[cfg(target_os = "linux")]
#[test]
fn sigint_stops_and_reaps_a_running_peer_before_removing_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (tmp, state) = (dir.path().join("tmp"), dir.path().join("state"));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    let bin = fake_bin(dir.path(), FAKE_TRAIN_FOREVER);
    let child = spawn_run(dir.path(), &bin, &tmp, &state);
    let pid_file = state.join("train.pid");
    wait_for("the fake svm-train to start", || pid_file.exists());
    let train_pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(running(train_pid));
    sigint(child.id() as i32);
    let o = child.wait_with_output().unwrap();
    assert_exit(
        &o,
        130,
        &["interrupted: stopped (finished cells are kept; run the same command again to resume)"],
    );
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    assert!(
        !running(train_pid),
        "svm-train (pid {train_pid}) outlives the interruption"
    );
    assert!(!state.join("folder-removed-under-me").exists());
    assert!(
        temp_folders(&tmp).is_empty(),
        "left: {:?}",
        temp_folders(&tmp)
    );
}

/// Issue 40, A: a terminal's Ctrl-C (SIGINT to the whole process group) does
/// not reach the peer first: its failure would be reported as a failed cell
/// (exit 1). The peer here fails as `svm-train` does when its folder goes.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_to_the_process_group_is_an_interruption_not_a_failed_cell() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let (tmp, state) = (dir.path().join("tmp"), dir.path().join("state"));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    let train = r#"#!/bin/sh
trap 'echo "can'"'"'t save model to file" >&2; exit 1' INT
echo $$ > "$FAKE_STATE/train.pid.tmp" && mv "$FAKE_STATE/train.pid.tmp" "$FAKE_STATE/train.pid"
while :; do sleep 0.05; done
"#;
    let bin = fake_bin(dir.path(), train);
    std::fs::write(dir.path().join("c.toml"), SVM_CV_LIBSVM).unwrap();
    let child = command(dir.path())
        .args(["run", "c.toml", "--out", "out"])
        .env("PATH", path_with(&bin))
        .env("TMPDIR", &tmp)
        .env("FAKE_STATE", &state)
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid_file = state.join("train.pid");
    wait_for("the fake svm-train to start", || pid_file.exists());
    let train_pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    sigint(-(child.id() as i32));
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, 130, &["interrupted: stopped"]);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    assert!(!running(train_pid));
    assert!(
        temp_folders(&tmp).is_empty(),
        "left: {:?}",
        temp_folders(&tmp)
    );
}

/// Issue 40, A: SIGINT while cells are held: exit 130, the finished cells
/// stay, and the same command resumes them.
#[cfg(unix)]
#[test]
fn sigint_between_cells_keeps_the_finished_ones_for_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let c = "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\nsynthetic = { generator = \"linear-classification\", n = 40, d = 3 }\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2, 3, 4, 5]\n";
    std::fs::write(dir.path().join("c.toml"), c).unwrap();
    let child = command(dir.path())
        .args(["run", "c.toml", "--out", "out", "--threads", "1"])
        .env("CVBENCH_TEST_HOLD_CELLS", "2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let cells = dir.path().join("out/t/cells");
    let stored = || {
        std::fs::read_dir(&cells)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
            .count()
    };
    wait_for("two cells", || stored() == 2);
    sigint(child.id() as i32);
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, 130, &["finished cells are kept"]);
    assert_eq!(stored(), 2);
    let o = command(dir.path())
        .args(["run", "c.toml", "--out", "out"])
        .output()
        .unwrap();
    assert_exit(&o, 0, &[]);
    assert!(stdout(&o).contains("2 resumed") || stderr(&o).contains("2 of 4"));
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
