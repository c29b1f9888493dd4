//! Interruption and resume: an interruption (SIGINT, or a terminal's
//! Ctrl-C to the process group) stops and reaps the children before
//! removing what they write, and says so (exit 130) rather than reporting a
//! failed cell; the finished cells stay and the same command resumes them;
//! no temporary file or folder is left behind (nor by a peer run on a
//! compressed file), and the temporary folders of a killed process are
//! removed when the next run starts. Runs the built binary; no timing
//! races where they can be avoided: the runs are held by test hooks
//! (`CVBENCH_TEST_HOLD_*`) or by a fake `svm-train` that never ends, and
//! the tests poll with generous deadlines.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::common;
use common::{assert_exit, command, cvbench_env, stderr, stdout, wait_for};

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

/// A treecv config of `reps` repetitions of a tiny grid: many small cells,
/// so that an interruption comes while cells are written.
fn many_cells(reps: u32) -> String {
    format!(
        r#"kind = "treecv"
name = "x"
seed = 1
repetitions = {reps}

[[datasets]]
synthetic = {{ generator = "linear-classification", n = 60, d = 3 }}
label = "a"

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["standard"]
orders = ["fixed"]
k = [3]
n = ["all"]
"#
    )
}

fn files_named(dir: &Path, pred: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_named(&p, pred));
            } else if pred(&e.file_name().to_string_lossy()) {
                out.push(p.display().to_string());
            }
        }
    }
    out
}

#[test]
fn peer_on_a_compressed_file_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let p = dir.path().join("d.gz");
    let mut w = flate2::write::GzEncoder::new(
        std::fs::File::create(&p).unwrap(),
        flate2::Compression::default(),
    );
    std::io::Write::write_all(&mut w, b"1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    w.finish().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["svm", "d.gz", "--peer"])
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[cfg(unix)]
#[test]
fn sigint_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // Many small cells, so that the interruption comes while cells are written.
    let c = many_cells(2000);
    std::fs::write(dir.path().join("c.toml"), c).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "c.toml", "--out", "out", "--threads", "2"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let cells = dir.path().join("out/x/cells");
    let json = |s: &str| s.ends_with(".json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while files_named(&cells, &json).len() < 5 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let o = child.wait_with_output().unwrap();
    if o.status.success() {
        eprintln!("SKIPPED: the run finished before the interruption");
        return;
    }
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    let tmp = files_named(dir.path(), &|s: &str| s.ends_with(".tmp"));
    assert!(tmp.is_empty(), "temporary files left: {tmp:?}");
    assert!(!files_named(&cells, &json).is_empty());
}

const SYNTH: &str = r#"synthetic = { generator = "linear-classification", n = 40, d = 3 }"#;

fn tiny_treecv() -> String {
    format!("kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\n{SYNTH}\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2]\n")
}

/// Issue 21, 8: temporary folders of a killed process are removed when the
/// next run starts.
#[test]
fn orphaned_temporary_folders_are_removed_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let orphan = tmp.path().join("cvbench-svm-00ff00ff00ff00ff-999999999");
    std::fs::create_dir_all(&orphan).unwrap();
    std::fs::write(orphan.join("0.train"), "1 1:1\n").unwrap();
    let alive = tmp.path().join(format!(
        "cvbench-svm-00ff00ff00ff00ff-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&alive).unwrap();
    std::fs::write(dir.path().join("c.toml"), tiny_treecv()).unwrap();
    let tmps = tmp.path().to_string_lossy().into_owned();
    let o = cvbench_env(
        &["run", "c.toml", "--out", "out"],
        dir.path(),
        &[("TMPDIR", &tmps)],
    );
    assert_exit(&o, 0, &[]);
    assert!(!orphan.exists(), "the killed process's folder is left");
    assert!(alive.exists(), "a running process's folder was removed");
}

/// Issue 21, 8: SIGINT during an svm_cv `libsvm` cell leaves no
/// `cvbench-svm-*` folder with copies of the data.
#[cfg(unix)]
#[test]
fn sigint_during_a_peer_cell_leaves_no_temporary_folder() {
    let on_path = |p: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    if !on_path("svm-train") || !on_path("svm-predict") {
        eprintln!("SKIPPED: svm-train/svm-predict not installed (make peers)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let c = "kind = \"svm_cv\"\nname = \"s\"\nseed = 1\nk = [10]\nmethods = [\"libsvm\"]\n[[datasets]]\nsynthetic = { generator = \"linear-classification\", n = 3000, d = 20 }\n[[settings]]\nlabel = \"p\"\nc = 100\n";
    std::fs::write(dir.path().join("c.toml"), c).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "c.toml", "--out", "out"])
        .current_dir(dir.path())
        .env_remove("CVBENCH_DATA_DIR")
        .env("TMPDIR", tmp.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ours = || -> Vec<std::path::PathBuf> {
        std::fs::read_dir(tmp.path())
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("cvbench-svm-"))
            })
            .collect()
    };
    // Interrupt once the peer's folder holds a file (svm-train is at work or
    // about to be); the interruption stops and reaps it before removing the
    // folder (issue 40), so when it comes does not matter.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let busy = || {
        ours()
            .iter()
            .any(|d| std::fs::read_dir(d).is_ok_and(|mut e| e.next().is_some()))
    };
    while !busy() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let o = child.wait_with_output().unwrap();
    if o.status.success() {
        eprintln!("SKIPPED: the run finished before the interruption");
        return;
    }
    assert_exit(&o, 130, &["interrupted: stopped (finished cells are kept"]);
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
    assert!(ours().is_empty(), "left behind: {:?}", ours());
}
