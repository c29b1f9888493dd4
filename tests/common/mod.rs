//! What the integration tests of the `cvbench` binary share: running it in a
//! clean environment, reading its output, the exit-code assertions, polling
//! on a loaded machine, and a run's records without what may differ between
//! two runs. `tests/suite.rs` declares it; a test file there writes
//! `use crate::common;` and imports what it uses;
//! [`svm`] has what the multi-class SVM tests share, [`seeding`] what the
//! alpha-seeding tests share, [`config_check`] a config checked by
//! `cvbench validate`, [`libsvm`] what the tests against LIBSVM's
//! `svm-train` and `svm-predict` share.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub mod config_check;
pub mod libsvm;
pub mod seeding;
pub mod svm;

/// The built binary in `cwd`, with none of the caller's `CVBENCH_*` or
/// `SLURM_ARRAY_*` variables (a test sets the ones it means).
pub fn command(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cvbench"));
    c.current_dir(cwd);
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("CVBENCH_") || k.starts_with("SLURM_ARRAY_") {
            c.env_remove(k.as_ref());
        }
    }
    c
}

/// Run `cvbench ARGS` in `cwd` ([`command`]) to the end.
pub fn cvbench(args: &[&str], cwd: &Path) -> Output {
    command(cwd).args(args).output().expect("run cvbench")
}

/// [`cvbench`] with extra environment variables.
pub fn cvbench_env<V: AsRef<OsStr>>(args: &[&str], cwd: &Path, env: &[(&str, V)]) -> Output {
    let mut c = command(cwd);
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run cvbench")
}

/// Run configs in `dir` ([`command`]: a clean environment): `cvbench run
/// CONFIGS --out OUT --csv`, then `extra` arguments (`--data-dir`,
/// `--threads`). The one config-run helper of the test files.
pub fn run_configs<S: AsRef<OsStr>>(
    dir: &Path,
    configs: &[S],
    out: &str,
    extra: &[&str],
) -> Output {
    command(dir)
        .arg("run")
        .args(configs)
        .args(["--out", out, "--csv"])
        .args(extra)
        .output()
        .expect("run cvbench")
}

/// Bytes as text (lossy).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A process's standard output as text.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// A process's standard error as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// Its standard output, after asserting that it succeeded.
pub fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
    stdout(o)
}

/// Assert exit code `code`, no panic, and every one of `contains` on
/// standard error; the standard error.
pub fn assert_exit(o: &Output, code: i32, contains: &[&str]) -> String {
    let e = stderr(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "exit {:?}\nstdout:\n{}\nstderr:\n{e}",
        o.status,
        stdout(o)
    );
    assert!(!e.contains("panicked"), "{e}");
    for c in contains {
        assert!(e.contains(c), "stderr should contain {c:?}:\n{e}");
    }
    e
}

/// [`assert_exit`] with exit code 2 (bad usage, config or data).
pub fn assert_usage_error(o: &Output, contains: &[&str]) -> String {
    assert_exit(o, 2, contains)
}

/// Poll `ready` every 10 ms until it holds; fail after a generous deadline
/// (a loaded machine is slow, never wrong).
pub fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while !ready() {
        assert!(Instant::now() < deadline, "waited 300 s for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Split a CSV line on commas outside double quotes.
pub fn fields(line: &str) -> Vec<&str> {
    let (mut out, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&line[start..]);
    out
}

/// A CSV line's fields ([`fields`]) without their double quotes.
pub fn unquoted_fields(line: &str) -> Vec<String> {
    fields(line).iter().map(|f| f.replace('"', "")).collect()
}

/// The values of column `name` of a CSV text, without their quotes.
pub fn csv_column(csv: &str, name: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let head = unquoted_fields(lines.next().unwrap());
    let i = head.iter().position(|h| h == name).unwrap();
    lines.map(|l| unquoted_fields(l)[i].clone()).collect()
}

/// A stored table as CSV lines through `cvbench export --reproducible`:
/// without the columns that may differ between two runs of the same cells
/// (timings and `_sched` counters; one registry, `src/results/columns.rs`),
/// header first, rows in the table's order.
pub fn reproducible_lines(table: &Path) -> Vec<String> {
    let o = command(table.parent().unwrap_or(Path::new(".")))
        .args(["export", "--reproducible", "-o", "-"])
        .arg(table)
        .output()
        .expect("run cvbench export");
    ok(&o).lines().map(str::to_string).collect()
}

/// Dataset `name` in `CVBENCH_DATA_DIR` (`name.xz` or `name`); `None`, and a
/// SKIPPED line, when the variable is unset or the file is not there.
pub fn data_source(name: &str) -> Option<PathBuf> {
    let Some(data) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let data = PathBuf::from(data);
    let found = [data.join(format!("{name}.xz")), data.join(name)]
        .into_iter()
        .find(|p| p.is_file());
    if found.is_none() {
        println!("SKIPPED: {name} not found in {}", data.display());
    }
    found
}

/// A copy of the repository's stored `results/` (its `quick` run left out),
/// rendered again by `cvbench report` from its records: made once per test
/// process and shared, read only, by the tests that read it (a render of
/// every stored run is a minute of the suite). It lives under Cargo's
/// temporary folder for integration tests, named by this process; copies
/// left by processes that have ended are removed first.
pub fn rerendered_stored_results() -> &'static Path {
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let dir = process_scratch("rerendered-stored-");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let copy = dir.join("stored");
        let o = Command::new("cp")
            .arg("-r")
            .arg(root.join("results"))
            .arg(&copy)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let _ = std::fs::remove_dir_all(copy.join("quick"));
        ok(&cvbench(&["report", "stored"], &dir));
        copy
    })
}

/// The quick configs (`configs/quick/*.toml`, all synthetic) run once per
/// test process into `<dir>/quick` (an empty data folder, two threads, CSV
/// copies of the records) and reported there (`cvbench report quick`), as
/// `make quick` does: shared, read only, by the tests that read them.
/// Returns `<dir>`. Same home and clean-up as [`rerendered_stored_results`].
pub fn quick_results() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = process_scratch("quick-results-");
        let empty = dir.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut configs: Vec<_> = std::fs::read_dir(root.join("configs/quick"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        configs.sort();
        let o = run_configs(
            &dir,
            &configs,
            "quick",
            &[
                "--data-dir",
                &empty.to_string_lossy(),
                "--threads",
                "2",
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        ok(&cvbench(&["report", "quick"], &dir));
        dir
    })
}

/// A fresh folder for this test process under Cargo's temporary folder for
/// integration tests, named `<prefix><pid>`; folders of that prefix left by
/// processes that have ended are removed first.
fn process_scratch(prefix: &str) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for e in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(prefix) else {
            continue;
        };
        if Path::new("/proc/self").exists() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
    let dir = tmp.join(format!("{prefix}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
