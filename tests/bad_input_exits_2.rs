//! Bad input exits 2 with a clear error saying where and what: configs
//! (run names that are not plain folder names, entries that would share a
//! cell, svm_cv settings, sizes past their limits, at their line:col),
//! command-line values, output folders, job-script values, and data files
//! (a huge feature index, a file without newlines or without rows, one that
//! is missing or unreadable). The one bad-data case found only while
//! running, an estimate that diverges, fails its cell (exit 1) and records
//! nothing. Each test runs the built binary.

use std::process::Output;

use crate::common;
use common::{assert_exit, assert_usage_error, cvbench, stderr};

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
