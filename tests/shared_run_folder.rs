//! Runs that share a results folder: an assembly lock says what it waits
//! for, times out with a clear message, and is taken over when its pid now
//! runs another process; an unsharded run whose cells another process
//! removed while it finished (a concurrent `--fresh`) says so, not "run
//! the missing shards". Each test runs the built binary.

use std::path::Path;
use std::process::Command;

use crate::common;
use common::{assert_exit, cvbench, cvbench_env, stderr};

const SYNTH: &str = r#"synthetic = { generator = "linear-classification", n = 40, d = 3 }"#;

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
