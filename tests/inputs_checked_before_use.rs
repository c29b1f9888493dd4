//! Inputs checked before they are used: reads of configs, grid `.out`
//! files and model files are bounded (configs that are folders, FIFOs or
//! devices are refused from their type), grid ranges whose 2^x overflows
//! are refused up front, every `CVBENCH_*` value is checked before anything
//! is deleted, registry files are checked against their sha256 (and the
//! check is cached until the file changes), `fetch` without a network says
//! what to do, and `k`, `slurm` options and `threads = 0` have clear errors.
//! Each runs the built binary (or the library) and checks for a clear error
//! with its exit code, or for the right result.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;
use common::{assert_exit, command, stderr};

fn cvbench_env(args: &[&str], cwd: &Path, env: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut c = command(cwd);
    c.args(args)
        // The cache of verified dataset files: this test's own.
        .env("XDG_CACHE_HOME", cwd.join(".cache"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run cvbench")
}

fn cvbench(args: &[&str], cwd: &Path) -> Output {
    cvbench_env(args, cwd, &[])
}

const SYNTH: &str = r#"synthetic = { generator = "linear-classification", n = 40, d = 3 }"#;

fn tiny_treecv(k: &str) -> String {
    format!("kind = \"treecv\"\nname = \"t\"\nseed = 1\nrepetitions = 1\n[[datasets]]\n{SYNTH}\n[[learners]]\ntype = \"pegasos\"\n[[grid]]\nmethods = [\"standard\"]\norders = [\"fixed\"]\nk = {k}\n")
}

fn tiny_grid(extra: &str) -> String {
    format!("kind = \"svm_grid\"\nname = \"g\"\nseed = 1\nk = 3\nreuse = [\"none\"]\n{extra}\n[[datasets]]\n{SYNTH}\n")
}

/// Item 6: a config that is a device, a folder, a FIFO or larger than the
/// config limit is refused before it is read (no 11 GB read of /dev/zero);
/// a grid `-resume` file and a model file are bounded too.
#[cfg(unix)]
#[test]
fn config_model_and_grid_out_reads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for cmd in [&["validate", "/dev/zero"][..], &["run", "/dev/zero"]] {
        let o = cvbench(cmd, d);
        assert_exit(&o, 2, &["/dev/zero", "not a regular file", "config"]);
    }
    let o = cvbench(&["validate", "."], d);
    assert_exit(&o, 2, &["is a folder", "config"]);
    if Command::new("mkfifo")
        .arg(d.join("fifo"))
        .status()
        .is_ok_and(|s| s.success())
    {
        // Would block forever if opened: refused from its type.
        let o = cvbench(&["validate", "fifo"], d);
        assert_exit(&o, 2, &["fifo", "not a regular file"]);
    }
    // A (sparse) file over the limit: refused naming it.
    let big = std::fs::File::create(d.join("big.toml")).unwrap();
    big.set_len(17 << 20).unwrap();
    let o = cvbench(&["validate", "big.toml"], d);
    assert_exit(&o, 2, &["big.toml", "larger than 16 MiB", "config file"]);
    // Not UTF-8.
    std::fs::write(d.join("bin.toml"), b"kind = \"treecv\"\n\xff\xfe").unwrap();
    let o = cvbench(&["validate", "bin.toml"], d);
    assert_exit(&o, 2, &["bin.toml", "not UTF-8"]);

    // grid -resume: a device, and a file over its limit.
    std::fs::write(d.join("x.svm"), "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    let o = cvbench(&["grid", "-resume", "/dev/zero", "-v", "2", "x.svm"], d);
    assert_exit(&o, 2, &["/dev/zero", "not a regular file", ".out file"]);
    let out = std::fs::File::create(d.join("big.out")).unwrap();
    out.set_len(65 << 20).unwrap();
    let o = cvbench(&["grid", "-resume", "big.out", "-v", "2", "x.svm"], d);
    assert_exit(&o, 2, &["big.out", "larger than 64 MiB"]);

    // A model file without newlines stops at its line limit.
    let e = cvbench_engine::api::training::read_model(Path::new("/dev/zero"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("64 MiB") && e.contains("model file"), "{e}");
}

/// Item 9: ranges whose 2^x is not a finite number > 0 (as svm-train reads
/// C and gamma) are refused when the config is validated, and on the CLI
/// naming the option, by the one range check.
#[test]
fn grid_ranges_that_overflow_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (range, line) in [
        ("log2c = [2000, 2001, 1]", "log2c"),
        ("log2g = [-2000, -1990, 2]", "log2g"),
        ("log2c = [120, 130, 2]", "log2c"),
    ] {
        std::fs::write(d.join("c.toml"), tiny_grid(range)).unwrap();
        let o = cvbench(&["validate", "c.toml"], d);
        assert_exit(
            &o,
            2,
            &[
                "c.toml:6:",
                line,
                "not a finite number > 0",
                "-149 to 127",
                "fix:",
            ],
        );
    }
    // The edges are fine.
    std::fs::write(d.join("c.toml"), tiny_grid("log2c = [-149, 127, 138]")).unwrap();
    let o = cvbench(&["validate", "c.toml"], d);
    assert_exit(&o, 0, &[]);

    std::fs::write(d.join("x.svm"), "1 1:1\n-1 1:-1\n1 1:2\n-1 1:-2\n").unwrap();
    for (flag, range) in [("-log2c", "2000,2001,1"), ("-log2g", "-1e9,-1e9,1")] {
        let o = cvbench(
            &["grid", flag, range, "-v", "2", "-out", "null", "x.svm"],
            d,
        );
        assert_exit(&o, 2, &[flag, range, "-149 to 127"]);
    }
}

/// Item 10: every CVBENCH_* value the program reads is checked before a
/// command deletes or writes anything: `CVBENCH_PROGRESS_SECS=1e20` with
/// `--fresh` used to panic after the cells were deleted.
#[test]
fn bad_environment_values_are_refused_before_anything_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("c.toml"), tiny_treecv("[2]")).unwrap();
    let o = cvbench(&["run", "c.toml", "--out", "out", "-q"], d);
    assert_exit(&o, 0, &[]);
    let cells = d.join("out/t/cells");
    let count = || std::fs::read_dir(&cells).map_or(0, |r| r.count());
    let before = count();
    assert!(before > 0);
    let mut bad: Vec<(&str, std::ffi::OsString)> = Vec::new();
    for v in ["1e20", "-1", "NaN", "inf", "abc", "1e400"] {
        bad.push(("CVBENCH_PROGRESS_SECS", v.into()));
    }
    for v in ["-5", "2.5", "99999999999999999999"] {
        bad.push(("CVBENCH_LOCK_TIMEOUT_S", v.into()));
    }
    bad.push(("CVBENCH_TEST_CELL_DELAY_MS", "1e99".into()));
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        bad.push((
            "CVBENCH_PROGRESS_SECS",
            std::ffi::OsString::from_vec(vec![0xff, b'1']),
        ));
    }
    for (var, value) in &bad {
        for cmd in [
            &["run", "c.toml", "--out", "out", "--fresh", "-q"][..],
            &["collect", "c.toml", "--out", "out"],
            &["validate", "c.toml"],
        ] {
            let o = cvbench_env(cmd, d, &[(var, value.as_os_str())]);
            assert_exit(&o, 2, &[var, "fix:"]);
        }
        assert_eq!(count(), before, "{var}={value:?} deleted cells");
    }
    // An empty value is unset; good values run.
    for (var, value) in [
        ("CVBENCH_PROGRESS_SECS", ""),
        ("CVBENCH_PROGRESS_SECS", "0.5"),
    ] {
        let o = cvbench_env(
            &["run", "c.toml", "--out", "out", "-q"],
            d,
            &[(var, value.as_ref())],
        );
        assert_exit(&o, 0, &[]);
    }
}

/// The content of a file that is not the registry's heart_scale.
const NOT_HEART_SCALE: &str = "+1 1:0.7 2:1\n-1 1:-0.2 2:-1\n+1 1:0.4 2:0.5\n-1 1:-0.6 2:-0.3\n";

fn heart_scale_config() -> String {
    tiny_treecv("[2]").replace(SYNTH, "name = \"heart_scale\"")
}

fn heart_scale_pin() -> String {
    let e = cvbench_engine::api::data::Registry::builtin()
        .get("heart_scale")
        .unwrap();
    e.files[0].sha256.clone().expect("heart_scale is pinned")
}

/// Item 12: a registry dataset whose file has other content is refused on
/// use, naming the file, both sha256 and the fix.
#[test]
fn a_registry_file_with_other_content_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("data")).unwrap();
    std::fs::write(d.join("data/heart_scale"), NOT_HEART_SCALE).unwrap();
    std::fs::write(d.join("c.toml"), heart_scale_config()).unwrap();
    let actual = cvbench_engine::api::files::sha256_reader(NOT_HEART_SCALE.as_bytes()).unwrap();
    for cmd in [
        &["validate", "c.toml", "--data-dir", "data"][..],
        &["run", "c.toml", "--data-dir", "data", "--out", "out"],
    ] {
        let o = cvbench(cmd, d);
        assert_exit(
            &o,
            2,
            &[
                "c.toml:",
                "data/heart_scale",
                &heart_scale_pin(),
                &actual,
                "cvbench fetch heart_scale",
            ],
        );
    }
    assert!(!d.join("out/t").exists(), "nothing may be written");
}

/// Item 12 with the real file: verified once (the cache file records it),
/// and the file changed afterwards in place (the same length, the old
/// modification time restored) is hashed again and refused.
#[test]
fn a_verified_registry_file_is_cached_until_it_changes() {
    let Some(src) = std::env::var_os("CVBENCH_DATA_DIR")
        .map(std::path::PathBuf::from)
        .map(|p| p.join("heart_scale.xz"))
        .filter(|p| p.is_file())
    else {
        eprintln!("skipped: CVBENCH_DATA_DIR has no heart_scale.xz");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("data")).unwrap();
    let file = d.join("data/heart_scale");
    let text = cvbench_engine::api::files::read_all(&src).unwrap();
    std::fs::write(&file, &text).unwrap();
    std::fs::write(d.join("c.toml"), heart_scale_config()).unwrap();
    let o = cvbench(&["validate", "c.toml", "--data-dir", "data"], d);
    assert_exit(&o, 0, &[]);
    let cache = d
        .join(".cache/cvbench")
        .join(cvbench_engine::api::data::VERIFIED_CACHE_FILE);
    let cached = std::fs::read_to_string(&cache).expect("the cache file is written");
    assert!(
        cached.contains("heart_scale") && cached.contains(&heart_scale_pin()),
        "{cached}"
    );
    let o = cvbench(&["validate", "c.toml", "--data-dir", "data"], d);
    assert_exit(&o, 0, &[]);
    // Another label on the first row: the same length, still valid data.
    let mtime = std::fs::metadata(&file).unwrap().modified().unwrap();
    let mut other = text.clone();
    let at = other.iter().position(|&b| b == b'1').unwrap();
    other[at - 1] = if other[at - 1] == b'-' { b'+' } else { b'-' };
    std::fs::write(&file, &other).unwrap();
    let f = std::fs::File::options().write(true).open(&file).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    let o = cvbench(&["validate", "c.toml", "--data-dir", "data"], d);
    assert_exit(&o, 2, &["cvbench fetch heart_scale"]);
}

/// Unclear errors: `k` says its real rule at its line; slurm options are
/// checked against SLURM's formats before a script is written; svm_grid's
/// `threads = 0` is refused as everywhere else.
#[test]
fn k_slurm_options_and_threads_have_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for k in ["[-5]", "[1]", "[0]"] {
        std::fs::write(d.join("c.toml"), tiny_treecv(k)).unwrap();
        let o = cvbench(&["validate", "c.toml"], d);
        assert_exit(&o, 2, &["c.toml:12:", "k must be an integer >= 2 or \"n\""]);
    }
    std::fs::write(d.join("c.toml"), tiny_treecv("[2, 4]")).unwrap();
    for (opt, value, want) in [
        ("--mem", "-5", "memory size"),
        ("--mem", "8GB", "memory size"),
        ("--time", "25:61", "time limit"),
        ("--time", "1-24:00:00", "time limit"),
        ("--partition", "a;b", "partition name"),
        ("--cpus", "0", "1..=4096"),
        ("--cpus", "5000", "1..=4096"),
    ] {
        let arg = format!("{opt}={value}");
        let o = cvbench(
            &["slurm", "--tasks", "1", &arg, "--out", "out", "c.toml"],
            d,
        );
        assert_exit(&o, 2, &[opt, value, want, "fix:"]);
        assert!(!d.join("out").exists(), "{arg}: a script was written");
    }
    let o = cvbench(
        &[
            "slurm",
            "--tasks",
            "1",
            "--mem=8G",
            "--time=2-00:00:00",
            "--partition=short",
            "--out",
            "out",
            "c.toml",
        ],
        d,
    );
    assert_exit(&o, 0, &[]);
    std::fs::write(d.join("c.toml"), tiny_grid("threads = 0")).unwrap();
    let o = cvbench(&["validate", "c.toml"], d);
    assert_exit(
        &o,
        2,
        &["c.toml:6:11:", "threads = 0 is out of range", "1 to 256"],
    );
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
