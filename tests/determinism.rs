//! A run's records do not depend on scheduling. Small equivalents of the
//! quick configs (every kind; the SVM runs with a kernel cache shared by
//! parallel solves, the tree order, the chains, and the cache and thread
//! axes) run with `--threads 1`, twice with `--threads 2`, and as three
//! shards plus `collect`; every column of `records.parquet` but the timing
//! and `_sched` ones (`cvbench::results::columns`) must be the same, row for
//! row.

use cvbench::results::columns::is_reproducible;
use std::path::Path;
use std::process::Output;

use crate::common;
use common::{fields, ok};

const SVM: &str = r#"kind = "svm_cv"
name = "det-svm"
seed = 7
folds = "libsvm"
k = [5, 10]
methods = ["ours", "ours_shared_parallel", "ato", "sir", "tree"]

[[datasets]]
synthetic = { generator = "linear-classification", n = 240, d = 10 }

[[settings]]
label = "libsvm-defaults"
"#;

const SVM_AXES: &str = r#"kind = "svm_cv"
name = "det-svm-axes"
seed = 11
folds = "libsvm"
k = [6]
methods = ["ours", "mir", "tree"]
caches = ["per_solve", "shared"]
threads = [1, 3]

[[datasets]]
synthetic = { generator = "linear-classification", n = 180, d = 6 }

[[settings]]
label = "small-cache"
cache_mb = 0.05
"#;

const TREECV: &str = r#"kind = "treecv"
name = "det-treecv"
seed = 7
repetitions = 2

[[datasets]]
synthetic = { generator = "covtype-like", n = 400 }
label = "covtype-like-synthetic"

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "treecv_revert", "treecv_parallel", "standard"]
orders = ["fixed", "randomized"]
k = [5, 10]
n = [200, 400]
"#;

const GRID: &str = r#"kind = "svm_grid"
name = "det-grid"
seed = 19
k = 5
log2c = [-1, 3, 4]
log2g = [-5, -1, 4]
reuse = ["none", "gamma", "gamma+cpath", "all"]
threads = 2

[[datasets]]
synthetic = { generator = "linear-classification", n = 150, d = 6 }
"#;

const PROGRESSIVE: &str = r#"kind = "progressive"
name = "det-progressive"
seed = 1999
tail_a = [0.1, 0.3]

[bkl]
n_features = 200

[bkl.figure1]
n_min = 10
n_max = 20
s = 10
repetitions = 20

[bkl.table]
repetitions = 30
fresh_examples = 200
delays = [3]

[[theorems]]
population = { synthetic = { n_features = 200, tie = "half" } }
repetitions = 100
kfold = [{ n = 12, k = 3 }]
progressive = [{ n_train = 5, s = 10 }]
"#;

const CONFIGS: [(&str, &str); 5] = [
    ("svm.toml", SVM),
    ("svm-axes.toml", SVM_AXES),
    ("treecv.toml", TREECV),
    ("grid.toml", GRID),
    ("progressive.toml", PROGRESSIVE),
];

fn cvbench(args: &[&str], cwd: &Path) -> Output {
    let o = common::cvbench(args, cwd);
    ok(&o);
    o
}

/// A run's records exported as CSV lines (`cvbench export`, with
/// `--reproducible` or without).
fn export(run_dir: &Path, reproducible: bool) -> Vec<String> {
    let parquet = run_dir.join("records.parquet");
    let parquet = parquet.to_string_lossy();
    let mut args = vec!["export", "-o", "-", &parquet];
    if reproducible {
        args.push("--reproducible");
    }
    let o = cvbench(&args, Path::new("."));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A run's records without the columns that may differ between runs
/// (`cvbench export --reproducible`), and the names of those columns, which
/// must be exactly the timing and `_sched` ones.
fn reproducible(run_dir: &Path) -> (Vec<String>, Vec<String>) {
    let rows = export(run_dir, true);
    let all = export(run_dir, false);
    let kept = fields(&rows[0]);
    let dropped: Vec<String> = fields(&all[0])
        .into_iter()
        .filter(|h| !kept.contains(h))
        .map(str::to_string)
        .collect();
    for h in fields(&all[0]) {
        assert_eq!(kept.contains(&h), is_reproducible(h), "{h}");
    }
    assert_eq!(rows.len(), all.len());
    (rows, dropped)
}

/// The first differing row of two runs, with the columns that differ.
fn first_difference(a: &[String], b: &[String]) -> String {
    let header = fields(&a[0]);
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            let cols: Vec<String> = header
                .iter()
                .zip(fields(x).into_iter().zip(fields(y)))
                .filter(|(_, (u, v))| u != v)
                .map(|(h, (u, v))| format!("{h}: {u} against {v}"))
                .collect();
            return format!("row {i}: {}", cols.join("; "));
        }
    }
    format!("{} rows against {}", a.len(), b.len())
}

#[test]
fn records_are_the_same_for_any_thread_count_shard_split_and_repetition() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("data")).unwrap();
    let mut configs = Vec::new();
    for (file, text) in CONFIGS {
        std::fs::write(d.join(file), text).unwrap();
        configs.push(file);
    }
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["run"];
        args.extend(&configs);
        args.extend(["--out", out, "--data-dir", "data"]);
        args.extend(extra);
        cvbench(&args, d);
    };
    run("t1", &["--threads", "1"]);
    run("t2", &["--threads", "2"]);
    run("t2-again", &["--threads", "2"]);
    for (i, threads) in [(0, "1"), (1, "2"), (2, "1")] {
        let shard = format!("{i}/3");
        run("sharded", &["--threads", threads, "--shard", &shard]);
    }
    let mut args = vec!["collect"];
    args.extend(&configs);
    args.extend(["--out", "sharded", "--data-dir", "data"]);
    cvbench(&args, d);

    let runs = [
        "det-svm",
        "det-svm-axes",
        "det-treecv",
        "det-grid",
        "det-progressive",
    ];
    let mut sched = Vec::new();
    for name in runs {
        let (base, dropped) = reproducible(&d.join("t1").join(name));
        assert!(base.len() > 2, "{name}: no records");
        sched.extend(dropped.into_iter().filter(|c| c.ends_with("_sched")));
        for other in ["t2", "t2-again", "sharded"] {
            let (rows, _) = reproducible(&d.join(other).join(name));
            assert!(
                rows == base,
                "{name}: --threads 1 and {other} differ: {}",
                first_difference(&base, &rows)
            );
        }
    }
    // The counter the shared cache's timing decides is recorded, apart.
    assert!(
        sched.iter().any(|c| c == "shared_extra_kernel_evals_sched"),
        "{sched:?}"
    );
}
