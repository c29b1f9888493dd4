//! Regression tests for hostile inputs (issue 11, "Hardening"): each runs the
//! built binary on an input that used to crash, mislead or write outside the
//! results folder, and checks for a clear error with the right exit code.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{assert_usage_error, cvbench, stderr};

fn treecv(name: &str, extra_dataset: &str, reps: &str, grid_n: &str) -> String {
    format!(
        r#"kind = "treecv"
name = {name}
seed = 1
repetitions = {reps}

[[datasets]]
synthetic = {{ generator = "linear-classification", n = 60, d = 3 }}
label = "a"
{extra_dataset}
[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["standard"]
orders = ["fixed"]
k = [3]
n = {grid_n}
"#
    )
}

#[test]
fn config_name_must_be_a_plain_folder_name() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [
        "\"../../x\"",
        "\"/tmp/abs\"",
        "\"..\"",
        "\".\"",
        "\"\"",
        "\"a/b\"",
        "'a\\b'",
    ] {
        std::fs::write(dir.path().join("c.toml"), treecv(bad, "", "1", "[\"all\"]")).unwrap();
        let o = cvbench(&["validate", "c.toml"], dir.path());
        assert_usage_error(&o, &["c.toml:2:8:", "plain folder name"]);
    }
    // --fresh with a traversing name deletes nothing outside --out.
    let victim = dir.path().join("victim").join("cells");
    std::fs::create_dir_all(&victim).unwrap();
    std::fs::write(victim.join("keep.json"), "{}").unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"../victim\"", "", "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "out", "--fresh"], dir.path());
    assert_usage_error(&o, &["c.toml:2:8:"]);
    assert!(victim.join("keep.json").exists());
    assert!(!dir.path().join("out").exists());
}

#[test]
fn datasets_with_one_name_are_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    // Two labels alike.
    let same_label = "[[datasets]]\nsynthetic = { generator = \"linear-classification\", n = 50, d = 3 }\nlabel = \"a\"\n";
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", same_label, "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_usage_error(
        &o,
        &[
            "c.toml:9:1:",
            "resolves to the name `a (synthetic)`",
            "line 6",
        ],
    );
    // Two files whose names agree once the compression suffix is dropped.
    std::fs::create_dir_all(dir.path().join("p")).unwrap();
    std::fs::write(dir.path().join("f.svm"), "1 1:1\n-1 2:1\n1 1:2\n-1 2:2\n").unwrap();
    std::fs::write(dir.path().join("p/f.svm"), "1 1:1\n-1 2:1\n1 1:2\n-1 2:2\n").unwrap();
    let cfg = r#"kind = "svm_cv"
name = "s"
seed = 1
k = [2]
methods = ["ours"]
[[datasets]]
path = "f.svm"
format = "libsvm"
[[datasets]]
path = "p/f.svm"
format = "libsvm"
[[settings]]
label = "x"
"#;
    std::fs::write(dir.path().join("s.toml"), cfg).unwrap();
    let o = cvbench(&["validate", "s.toml"], dir.path());
    assert_usage_error(&o, &["s.toml:9:1:", "resolves to the name `f.svm`"]);
}

#[test]
fn two_configs_with_one_name_are_refused_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let c = treecv("\"dup\"", "", "1", "[\"all\"]");
    std::fs::write(dir.path().join("a.toml"), &c).unwrap();
    std::fs::write(dir.path().join("b.toml"), &c).unwrap();
    let o = cvbench(&["run", "a.toml", "b.toml", "--out", "out"], dir.path());
    assert_usage_error(&o, &["a.toml and b.toml both have name = \"dup\""]);
    assert!(!dir.path().join("out").join("dup").exists());
}

fn svm_cfg(setting: &str) -> String {
    format!(
        r#"kind = "svm_cv"
name = "s"
seed = 1
k = [2]
methods = ["ours"]
[[datasets]]
synthetic = {{ generator = "linear-classification", n = 40, d = 3 }}
[[settings]]
label = "bad"
{setting}
"#
    )
}

#[test]
fn svm_cv_settings_are_checked_at_validate_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (setting, what) in [
        ("c = 0", "C must be finite and > 0, got 0"),
        ("c = -1", "got -1"),
        ("gamma = nan", "gamma must be finite"),
        ("eps = 0", "eps must be finite and > 0"),
        ("cache_mb = 0", "cache size must be finite and > 0"),
        ("c = 1e-50", "C = 1e-50 is 0 in single precision"),
    ] {
        std::fs::write(dir.path().join("c.toml"), svm_cfg(setting)).unwrap();
        let o = cvbench(&["validate", "c.toml"], dir.path());
        assert_usage_error(&o, &["c.toml:8:1:", "setting `bad`", what]);
    }
}

#[test]
fn oversized_sizes_are_clear_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let big = "18446744073709551615";
    for (synthetic, what) in [
        (format!("n = {big}, d = 3"), "more than this machine has"),
        (format!("n = 10, d = {big}"), "too large"),
        ("n = 4294967296".to_string(), "more than this machine has"),
    ] {
        let c = treecv("\"x\"", "", "1", "[\"all\"]").replace("n = 60, d = 3", &synthetic);
        std::fs::write(dir.path().join("c.toml"), c).unwrap();
        let o = cvbench(&["validate", "c.toml"], dir.path());
        assert_usage_error(&o, &["c.toml:6:1:", what]);
    }
    // Repetitions bounded (a dry run used to grow to gigabytes).
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", "", "4294967296", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["run", "c.toml", "--dry-run"], dir.path());
    assert_usage_error(
        &o,
        &["c.toml:4:15:", "repetitions = 4294967296 is not in 1..="],
    );
    // Threads bounded.
    let o = cvbench(&["run", "c.toml", "--threads", "100000"], dir.path());
    assert_usage_error(&o, &["--threads 100000 is out of range"]);
    // A huge BKL n_features fails at validate, not in a worker thread.
    let p = format!(
        "kind = \"progressive\"\nname = \"p\"\nseed = 1\n[[theorems]]\npopulation = {{ synthetic = {{ n_features = {big} }} }}\nrepetitions = 2\nkfold = [{{ n = 6, k = 3 }}]\n"
    );
    std::fs::write(dir.path().join("p.toml"), p).unwrap();
    let o = cvbench(&["validate", "p.toml"], dir.path());
    assert_usage_error(&o, &["p.toml:4:1:", "too large for the BKL problem"]);
    // A figure-1 size range or stream repetitions past the cell cap fail at
    // validate (planning them used to abort on a 1.3 GB allocation).
    let f = "kind = \"progressive\"\nname = \"p\"\nseed = 1\n[bkl]\nn_features = 5\nfigure1 = { n_min = 10, n_max = 100000000000, s = 10, repetitions = 1 }\n";
    std::fs::write(dir.path().join("p.toml"), f).unwrap();
    let o = cvbench(&["validate", "p.toml"], dir.path());
    assert_usage_error(
        &o,
        &["p.toml:", "figure1.n_max = 100000000000 is not in 1..="],
    );
    // A progressive key spelled as before its rename names the new key.
    std::fs::write(
        dir.path().join("p.toml"),
        f.replace("repetitions = 1", "reps = 1"),
    )
    .unwrap();
    let o = cvbench(&["validate", "p.toml"], dir.path());
    assert_usage_error(&o, &["p.toml:6:", "`reps` is now `repetitions`"]);
}

#[test]
fn libsvm_file_with_a_huge_feature_index_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x"), "+1 4294967295:1\n-1 1:1\n").unwrap();
    let o = cvbench(&["svm", "x"], dir.path());
    assert_usage_error(&o, &["x:1:", "feature index 4294967295 is too large"]);
}

#[test]
fn validate_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", "", "5000", "[\"all\"]"),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["validate", "c.toml", "--cells"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("rep=0"), "{first}");
    // The reader is dropped here, closing the pipe (like `| head -1`).
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert!(!e.contains("panicked") && !e.contains("Broken pipe"), "{e}");
    assert_ne!(o.status.code(), Some(101));
}

#[test]
fn bad_usage_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.svm"), "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    for v in ["1", "0", "-3"] {
        let o = cvbench(&["svm", "d.svm", "-v", v], dir.path());
        assert_usage_error(&o, &["n >= 2"]);
    }
    std::fs::write(dir.path().join("file"), "").unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", "", "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "file"], dir.path());
    assert_usage_error(&o, &["--out file is a file"]);
    let o = cvbench(&["report", "/nonexistent/results"], dir.path());
    assert_usage_error(&o, &["/nonexistent/results: no such results folder"]);
}

#[test]
fn error_texts_say_where_and_what() {
    let dir = tempfile::tempdir().unwrap();
    // A missing data file: the config file and line, the OS message once.
    let missing = "[[datasets]]\npath = \"nope.svm\"\nformat = \"libsvm\"\n";
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", missing, "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_usage_error(
        &o,
        &[
            "c.toml:9:1: dataset `nope.svm`: file `nope.svm` not found",
            "Fix the path",
        ],
    );
    assert_eq!(stderr(&o).matches("nope.svm`").count(), 2, "{}", stderr(&o));
    // A registry dataset missing from the data directory: file, line, how to get it.
    let registry = "[[datasets]]\nname = \"heart_scale\"\n";
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", registry, "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["validate", "c.toml", "--data-dir", "empty"], dir.path());
    assert_usage_error(
        &o,
        &[
            "c.toml:9:1: dataset `heart_scale`",
            "cvbench fetch heart_scale",
        ],
    );
    // An unreadable file: the OS message once.
    std::fs::create_dir_all(dir.path().join("adir.svm")).unwrap();
    let unreadable = "[[datasets]]\npath = \"adir.svm\"\nformat = \"libsvm\"\n";
    std::fs::write(
        dir.path().join("c.toml"),
        treecv("\"x\"", unreadable, "1", "[\"all\"]"),
    )
    .unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_usage_error(&o, &["c.toml:9:1: dataset `adir.svm`"]);
    assert_eq!(stderr(&o).matches("(os error").count(), 1, "{}", stderr(&o));
    // Empty lists are config errors.
    std::fs::write(dir.path().join("c.toml"), treecv("\"x\"", "", "1", "[]")).unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    assert_usage_error(&o, &["c.toml:18:5:", "`n` is empty"]);
    // Negative and tiny flag values reach validation.
    std::fs::write(dir.path().join("d.svm"), "1 1:1\n-1 1:-1\n").unwrap();
    for (args, what) in [
        (vec!["-c", "-1"], "C must be finite and > 0, got -1"),
        (
            vec!["-g", "-0.5"],
            "gamma must be finite and >= 0, got -0.5",
        ),
        (vec!["-e", "-1"], "eps must be finite and > 0"),
        (vec!["-m", "-5"], "cache size must be finite and > 0"),
        (vec!["-c", "1e-50"], "C = 1e-50 is 0 in single precision"),
    ] {
        let mut a = vec!["svm", "d.svm"];
        a.extend(args);
        let o = cvbench(&a, dir.path());
        assert_usage_error(&o, &[what]);
        assert!(!stderr(&o).contains("unexpected argument"));
        assert!(!stderr(&o).contains("got 0\n"), "{}", stderr(&o));
    }
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
    let c = treecv("\"x\"", "", "2000", "[\"all\"]");
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

#[test]
fn fetch_without_network_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["fetch", "heart_scale", "--data-dir", "data"])
        .current_dir(dir.path())
        .env_remove("CVBENCH_DATA_DIR")
        // An unreachable proxy: no download can succeed, as without network.
        .env("HTTPS_PROXY", "http://127.0.0.1:9")
        .env("HTTP_PROXY", "http://127.0.0.1:9")
        .env("https_proxy", "http://127.0.0.1:9")
        .env("http_proxy", "http://127.0.0.1:9")
        .env("ALL_PROXY", "http://127.0.0.1:9")
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("could not download"), "{e}");
    assert!(
        e.contains("by hand") && e.contains("cvbench datasets"),
        "{e}"
    );
    assert!(e.contains("heart_scale"), "{e}");
}
