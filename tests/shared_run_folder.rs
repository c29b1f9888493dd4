//! Regression tests for the second hostile probe (issue 21): one test per
//! defect class, each on an example input (the fix is at the class's root:
//! cell keys, sizes, locks, temporary folders, script values, the output
//! folder, value errors). Each runs the built binary and checks for a clear
//! error with the right exit code, or for the right result.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{assert_exit, cvbench, cvbench_env, stderr};

const SYNTH: &str = r#"synthetic = { generator = "linear-classification", n = 40, d = 3 }"#;

fn svm(settings: &str, k: &str, methods: &str, dataset_label: &str) -> String {
    format!(
        "kind = \"svm_cv\"\nname = \"s\"\nseed = 1\nk = {k}\nmethods = {methods}\n[[datasets]]\n{SYNTH}\nlabel = \"{dataset_label}\"\n{settings}"
    )
}

fn setting(label: &str, c: &str) -> String {
    format!("[[settings]]\nlabel = \"{label}\"\nc = {c}\n")
}

fn keys(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("  seed="))
        .map(|l| l.split("  seed=").next().unwrap_or("").to_string())
        .collect()
}

/// Issue 21, 1: cell keys are unique by construction (escaped parts), and
/// entries that would share a cell are errors at their line and column.
#[test]
fn duplicate_entries_are_errors_and_labels_cannot_forge_keys() {
    let dir = tempfile::tempdir().unwrap();
    let w = |text: &str| std::fs::write(dir.path().join("c.toml"), text).unwrap();
    // Two settings with one label (c = 1 and c = 2).
    let two = format!("{}{}", setting("p", "1"), setting("p", "2"));
    w(&svm(&two, "[2]", "[\"ours\"]", "d"));
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_exit(
        &o,
        2,
        &[
            "c.toml:12:1:",
            "`settings` lists label = \"p\" twice",
            "line 9",
        ],
    );
    // Duplicate k, duplicate methods.
    w(&svm(&setting("p", "1"), "[2, 2]", "[\"ours\"]", "d"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:4:9:", "`k` lists 2 twice"],
    );
    w(&svm(&setting("p", "1"), "[2]", "[\"ours\", \"ours\"]", "d"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:5:", "`methods` lists ours twice"],
    );
    // A `|` in a label: (x|s, b) and (x, s|b) get different keys.
    let mut all = Vec::new();
    for (d, s) in [("x|s", "b"), ("x", "s|b")] {
        w(&svm(&setting(s, "1"), "[2]", "[\"ours\"]", d));
        let o = cvbench(&["validate", "c.toml", "--cells"], dir.path());
        assert_exit(&o, 0, &[]);
        all.extend(keys(&o));
    }
    assert_eq!(all.len(), 2, "{all:?}");
    assert_ne!(all[0], all[1]);
    // treecv: a method listed twice in a block; progressive: one stream cell twice.
    let t = format!(
        "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\n{SYNTH}\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\", \"standard\"]\norders = [\"fixed\"]\nk = [3]\n"
    );
    w(&t);
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:10:", "`methods` lists standard twice"],
    );
    w(&t.replace("[\"standard\", \"standard\"]", "[\"standard\"]")
        .replace("k = [3]", "k = [3, 3]"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:12:", "`k` lists 3 twice"],
    );
    // Two identical learners on one dataset.
    w(&t.replace("[\"standard\", \"standard\"]", "[\"standard\"]")
        .replace("[[grid]]", "[[learners]]\ntype = \"pegasos\"\n[[grid]]"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:9:1:", "is listed twice"],
    );
    let p = "kind = \"progressive\"\nname = \"p\"\nseed = 1\n[[theorems]]\npopulation = { synthetic = { n_features = 5 } }\nrepetitions = 2\nkfold = [{ n = 6, k = 3 }, { n = 6, k = 3 }]\n";
    w(p);
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:4:1:", "a second time"],
    );
}

/// Issue 21, 3: a non-finite estimate fails the cell with a clear message
/// (exit 1), and nothing is recorded for it.
#[test]
fn a_diverging_estimate_is_a_failed_cell() {
    let dir = tempfile::tempdir().unwrap();
    let rows: String = (0..20)
        .map(|i| format!("{} 1:1e308 2:-1e308\n", if i % 2 == 0 { 1 } else { -1 }))
        .collect();
    std::fs::write(dir.path().join("big.svm"), rows).unwrap();
    let t = "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\npath = \"big.svm\"\nformat = \"libsvm\"\n[[learners]]\ntype = \"ridge\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2]\n";
    std::fs::write(dir.path().join("c.toml"), t).unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "out"], dir.path());
    assert_exit(&o, 1, &["overflowed or diverged", "the CV estimate is"]);
    assert!(!dir.path().join("out/t/records.csv").exists());
}

/// Issue 21, 4-6: sizes are checked before anything is allocated or run,
/// with an error naming the limit.
#[test]
fn sizes_beyond_their_limits_are_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    let w = |text: &str| std::fs::write(dir.path().join("c.toml"), text).unwrap();
    let theorems = |reps: &str, kfold: &str| {
        format!("kind = \"progressive\"\nname = \"p\"\nseed = 1\n[[theorems]]\npopulation = {{ synthetic = {{ n_features = 5 }} }}\nrepetitions = {reps}\nkfold = [{kfold}]\n")
    };
    w(&theorems("100000000000", "{ n = 6, k = 3 }"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &[
            "c.toml:4:1:",
            "repetitions = 100000000000 is not in 1..=100000",
        ],
    );
    w(&theorems("2", "{ n = 1000000000000, k = 2 }"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["n = 1000000000000 is not in 2..=1000000"],
    );
    let bkl = "kind = \"progressive\"\nname = \"p\"\nseed = 1\n[bkl]\nn_features = 5\ntable = { repetitions = 100000000000, fresh_examples = 10 }\n";
    w(bkl);
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["c.toml:4:1:", "table.repetitions = 100000000000"],
    );
    // Ridge on 100,000 features: refused before its d x d matrix.
    let t = "kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\nsynthetic = { generator = \"linear-regression\", n = 10, d = 100000 }\n[[learners]]\ntype = \"ridge\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2]\n".to_string();
    w(&t);
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &[
            "c.toml:7:1:",
            "100000 features is more than its limit of 4096",
        ],
    );
    // A grid block's own repetitions are bounded too.
    w(&t.replace("d = 100000", "d = 3")
        .replace("k = [2]", "k = [2]\nrepetitions = 100000000000"));
    assert_exit(
        &cvbench(&["validate", "c.toml"], dir.path()),
        2,
        &["repetitions = 100000000000 is not in 1..=100000"],
    );
}

/// Issue 21, 5: a data file without newlines (like /dev/zero) stops at the
/// line-length limit; an empty data file says it is empty.
#[cfg(unix)]
#[test]
fn endless_and_empty_data_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = |path: &str| {
        format!("kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\npath = \"{path}\"\nformat = \"libsvm\"\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2]\n")
    };
    std::fs::write(dir.path().join("c.toml"), cfg("/dev/zero")).unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_exit(&o, 2, &["c.toml:5:1:", "/dev/zero", "longer than 64 MiB"]);
    std::fs::write(dir.path().join("empty.svm"), "# nothing\n\n").unwrap();
    std::fs::write(dir.path().join("c.toml"), cfg("empty.svm")).unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_exit(&o, 2, &["empty.svm", "no data rows"]);
    assert!(!stderr(&o).contains("label transform"));
    let o = cvbench(&["svm", "empty.svm", "-v", "2"], dir.path());
    assert_exit(&o, 2, &["no data rows"]);
    assert!(!stderr(&o).contains("folds"), "{}", stderr(&o));
}

fn tiny_treecv() -> String {
    format!("kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\n{SYNTH}\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = [2]\n")
}

/// Issue 21, 7: an assembly lock says what it waits for and times out with
/// a clear message; a lock whose pid now runs another process is taken over.
#[test]
fn assembly_locks_time_out_clearly_and_stale_ones_are_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), tiny_treecv()).unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "out"], dir.path());
    assert_exit(&o, 0, &[]);
    let lock = dir.path().join("out/t/.assemble.lock");
    // Another host's lock: wait, say so, give up after the timeout.
    std::fs::write(&lock, "some-other-host 4242 77").unwrap();
    let o = cvbench_env(
        &["collect", "c.toml", "--out", "out"],
        dir.path(),
        &[("CVBENCH_LOCK_TIMEOUT_S", "1")],
    );
    assert_exit(
        &o,
        1,
        &[
            "waiting for host some-other-host pid 4242",
            "gave up after 1 s",
            "delete",
        ],
    );
    // Pid 1 with another start time: pid reuse, taken over at once.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    if !host.trim().is_empty() && Path::new("/proc/1/stat").exists() {
        std::fs::write(&lock, format!("{} 1 1", host.trim())).unwrap();
        let o = cvbench_env(
            &["collect", "c.toml", "--out", "out"],
            dir.path(),
            &[("CVBENCH_LOCK_TIMEOUT_S", "5")],
        );
        assert_exit(&o, 0, &["taking over the assembly lock", "pid reuse"]);
        assert!(!lock.exists());
    }
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

/// Issue 21, 9: values written into job scripts have no control
/// characters, and more tasks than cells is an error.
#[test]
fn slurm_values_cannot_inject_and_tasks_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), tiny_treecv()).unwrap();
    let o = cvbench(
        &[
            "slurm",
            "c.toml",
            "--tasks",
            "1",
            "--out",
            "r",
            "--partition",
            "x\ntouch PWNED",
        ],
        dir.path(),
    );
    assert_exit(&o, 2, &["--partition", "control character"]);
    assert!(!dir.path().join("r/t/slurm/array.sbatch").exists());
    let o = cvbench(
        &["slurm", "c.toml", "--tasks", "100000000", "--out", "r"],
        dir.path(),
    );
    assert_exit(&o, 2, &["--tasks", "is not in 1..=1"]);
}

/// Issue 21, 11: `--out` that cannot hold the results, `k = [2.5]`, a run
/// named like a report file: clear errors, exit 2.
#[test]
fn bad_output_folders_values_and_names_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), tiny_treecv()).unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "file/sub"], dir.path());
    assert_exit(&o, 2, &["--out file/sub cannot be made", "is a file"]);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("link")).unwrap();
        let o = cvbench(&["run", "c.toml", "--out", "link"], dir.path());
        assert_exit(&o, 2, &["--out link is a symbolic link", "gone", "fix:"]);
    }
    let t = tiny_treecv().replace("k = [2]", "k = [2.5]");
    std::fs::write(dir.path().join("c.toml"), &t).unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_exit(&o, 2, &["c.toml:12:6:", "k must be an integer", "2.5"]);
    assert!(!stderr(&o).contains("untagged"));
    for name in ["REPORT.md", "index.html", "svm-vs-libsvm.csv"] {
        let t = tiny_treecv().replace("name = \"t\"", &format!("name = \"{name}\""));
        std::fs::write(dir.path().join("c.toml"), &t).unwrap();
        let o = cvbench(&["validate", "c.toml"], dir.path());
        assert_exit(&o, 2, &["c.toml:2:8:", "cvbench report"]);
    }
}

/// Issue 21, 11: an unsharded run whose cells another process removed while
/// it finished (a concurrent `--fresh`) says so, not "run the missing shards".
#[test]
fn cells_removed_by_another_run_are_reported_as_a_race() {
    let dir = tempfile::tempdir().unwrap();
    let t = tiny_treecv().replace("k = [2]", "k = [2, 3]");
    std::fs::write(dir.path().join("c.toml"), t).unwrap();
    // The second cell waits until `release` exists (a test hook): no race.
    let release = dir.path().join("release");
    let child = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["run", "c.toml", "--out", "out", "--threads", "1"])
        .current_dir(dir.path())
        .env_remove("CVBENCH_DATA_DIR")
        .env(
            "CVBENCH_TEST_HOLD_CELLS",
            format!("1:{}", release.display()),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first cell's file appears; remove it while the second cell waits.
    let cells = dir.path().join("out/t/cells");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let first = loop {
        let json: Vec<_> = std::fs::read_dir(&cells)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        if let Some(p) = json.first() {
            break p.clone();
        }
        assert!(std::time::Instant::now() < deadline, "no cell was written");
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    std::fs::remove_file(first).unwrap();
    std::fs::write(&release, "").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_exit(&o, 1, &["disappeared while this run finished", "--fresh"]);
    assert!(!stderr(&o).contains("missing shards"), "{}", stderr(&o));
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
