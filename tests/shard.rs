//! Scale-out and shared-folder tests of the `cvbench` binary: `--shard I/N`
//! plus `collect` equals an unsharded run, resume notices changed data and
//! config, concurrent runs on one folder, and kill-and-resume.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common;
use common::{command, cvbench, ok, reproducible_lines};

const TREECV: &str = r#"kind = "treecv"
name = "t"
seed = 3
repetitions = 2

[[datasets]]
synthetic = { generator = "covtype-like", n = 300 }

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed", "randomized"]
k = [3, 10]
n = [100, 300]
"#;

const SVM: &str = r#"kind = "svm_cv"
name = "s"
seed = 5
k = [3, 4]
methods = ["ours"]

[[datasets]]
synthetic = { generator = "linear-classification", n = 90, d = 4 }

[[settings]]
label = "defaults"
"#;

/// A run's records (`records.csv` names them; they are stored as
/// `records.parquet`) without the columns that may differ between runs.
fn untimed(path: &Path) -> Vec<String> {
    reproducible_lines(&path.with_extension("parquet"))
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.toml"), TREECV).unwrap();
    std::fs::write(dir.path().join("s.toml"), SVM).unwrap();
    let p = dir.path().to_path_buf();
    (dir, p)
}

/// Every file under `dir` (recursively) whose name matches `pred`.
fn files_where(dir: &Path, pred: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_where(&p, pred));
        } else if pred(&e.file_name().to_string_lossy()) {
            out.push(p);
        }
    }
    out
}

#[test]
fn shards_then_collect_equal_an_unsharded_run() {
    let (_t, d) = setup();
    ok(&cvbench(&["run", "t.toml", "s.toml", "--out", "one"], &d));
    // Shard 0 alone: collect lists what is missing, exits 1, writes nothing.
    let out = ok(&cvbench(
        &["run", "t.toml", "s.toml", "--out", "sh", "--shard", "0/3"],
        &d,
    ));
    assert!(out.contains("shard 0/3"), "{out}");
    let c = cvbench(&["collect", "t.toml", "s.toml", "--out", "sh"], &d);
    assert_eq!(
        c.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&c.stderr)
    );
    let err = String::from_utf8_lossy(&c.stderr);
    assert!(err.contains("cells missing, e.g. `"), "{err}");
    for run in ["t", "s"] {
        assert!(!d.join("sh").join(run).join("records.parquet").exists());
        assert!(!d.join("sh").join(run).join("manifest.json").exists());
    }
    for i in [1, 2] {
        ok(&cvbench(
            &[
                "run",
                "t.toml",
                "s.toml",
                "--out",
                "sh",
                "--shard",
                &format!("{i}/3"),
            ],
            &d,
        ));
    }
    let out = ok(&cvbench(
        &["collect", "t.toml", "s.toml", "--out", "sh"],
        &d,
    ));
    assert!(out.contains("assembled"), "{out}");
    for run in ["t", "s"] {
        let a = untimed(&d.join("one").join(run).join("records.csv"));
        let b = untimed(&d.join("sh").join(run).join("records.csv"));
        assert!(a.len() > 4);
        assert_eq!(a, b, "{run}");
        // The manifest says which shard made each cell; all three took part.
        let m: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join("sh").join(run).join("manifest.json")).unwrap(),
        )
        .unwrap();
        // ... in the untracked file beside the cells (not in the tracked manifest).
        assert!(m.get("cell_runs").is_none());
        let runs: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join("sh").join(run).join("cells/runs.json")).unwrap(),
        )
        .unwrap();
        let runs = runs.as_array().unwrap();
        assert_eq!(runs.len(), m["cells"].as_array().unwrap().len());
        let mut shards: Vec<&str> = runs.iter().map(|r| r["shard"].as_str().unwrap()).collect();
        shards.sort_unstable();
        shards.dedup();
        if run == "t" {
            assert_eq!(shards, ["0/3", "1/3", "2/3"]);
        }
        assert!(runs.iter().all(|r| !r["host"].as_str().unwrap().is_empty()));
    }
    // A rerun of a shard resumes its cells.
    let out = ok(&cvbench(
        &["run", "t.toml", "--out", "sh", "--shard", "1/3"],
        &d,
    ));
    assert!(out.contains("resumed"), "{out}");
}

#[test]
fn shard_flag_errors_are_usage_errors() {
    let (_t, d) = setup();
    for bad in ["3/3", "x", "slurm"] {
        let o = cvbench(&["run", "t.toml", "--out", "r", "--shard", bad], &d);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--shard"), "{err}");
    }
    let o = cvbench(&["run", "t.toml", "--out", "r", "--shard", "slurm"], &d);
    assert!(String::from_utf8_lossy(&o.stderr).contains("SLURM_ARRAY_TASK_ID"));
    // Under SLURM the array variables choose the shard.
    let o = command(&d)
        .args(["run", "t.toml", "--out", "r", "--shard", "slurm"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "2")
        .output()
        .unwrap();
    assert!(ok(&o).contains("shard 1/2"));
}

fn libsvm_file(values: &[f64]) -> String {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let y = if i % 3 == 0 { "-1" } else { "+1" };
            format!("{y} 1:{v} 2:{}\n", (i as f64 * 0.37).sin())
        })
        .collect()
}

const FILE_CFG: &str = r#"kind = "treecv"
name = "f"
description = "DESC"
seed = 1
repetitions = 1

[[datasets]]
path = "d.svm"
format = "libsvm"
transforms = TRANSFORMS

[[learners]]
type = "pegasos"
lambda = 1e-2

[[grid]]
methods = ["standard"]
orders = ["fixed"]
k = [3]
"#;

#[test]
fn resume_recomputes_when_data_transform_or_generator_change() {
    let (_t, d) = setup();
    let cfg = |desc: &str, tr: &str| {
        std::fs::write(
            d.join("f.toml"),
            FILE_CFG.replace("DESC", desc).replace("TRANSFORMS", tr),
        )
        .unwrap()
    };
    let data_a: Vec<f64> = (0..60).map(|i| (i as f64 * 0.71).cos()).collect();
    std::fs::write(d.join("d.svm"), libsvm_file(&data_a)).unwrap();
    cfg("a", "[]");
    let run = || ok(&cvbench(&["run", "f.toml", "--out", "r"], &d));
    let records = || untimed(&d.join("r/f/records.csv"));
    assert!(run().contains("(0 resumed)"));
    let first = records();
    // Only the description changed: every cell is reused.
    cfg("b", "[]");
    assert!(run().contains("(1 resumed)"));
    assert_eq!(records(), first);
    // The data file changed: recomputed, with other numbers.
    let data_b: Vec<f64> = data_a.iter().map(|v| -v * 3.0).collect();
    std::fs::write(d.join("d.svm"), libsvm_file(&data_b)).unwrap();
    assert!(run().contains("(0 resumed)"));
    let second = records();
    assert_ne!(second, first);
    // A transform changed: recomputed.
    cfg("b", "[{ minmax = {} }]");
    assert!(run().contains("(0 resumed)"));
    // A synthetic generator's parameter changed: recomputed.
    let t2 = TREECV.replace("n = 300 }", "n = 300, noise = 0.3 }");
    ok(&cvbench(&["run", "t.toml", "--out", "g"], &d));
    std::fs::write(d.join("t.toml"), t2).unwrap();
    let out = ok(&cvbench(&["run", "t.toml", "--out", "g"], &d));
    assert!(out.contains("(0 resumed)"), "{out}");
}

#[test]
fn concurrent_runs_on_one_folder_agree_with_a_single_run() {
    let (_t, d) = setup();
    ok(&cvbench(&["run", "t.toml", "s.toml", "--out", "one"], &d));
    let spawn = || {
        command(&d)
            .args(["run", "t.toml", "s.toml", "--out", "both", "--threads", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    ok(&a.wait_with_output().unwrap());
    ok(&b.wait_with_output().unwrap());
    for run in ["t", "s"] {
        assert_eq!(
            untimed(&d.join("one").join(run).join("records.csv")),
            untimed(&d.join("both").join(run).join("records.csv"))
        );
    }
    assert!(files_where(&d.join("both"), &|n| n.ends_with(".tmp")
        || n.ends_with(".lock"))
    .is_empty());
}

#[test]
fn a_killed_run_resumes_to_the_same_records_and_leaves_no_temporary_file() {
    let (_t, d) = setup();
    ok(&cvbench(&["run", "t.toml", "--out", "one"], &d));
    let mut child = command(&d)
        .args(["run", "t.toml", "--out", "k", "--threads", "2"])
        .env("CVBENCH_TEST_HOLD_CELLS", "3")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The cells after the first 3 are held (a test hook): wait until those 3
    // are stored, then SIGKILL.
    let cells = d.join("k/t/cells");
    let start = std::time::Instant::now();
    while files_where(&cells, &|n| n.ends_with(".json")).len() < 3 {
        assert!(start.elapsed().as_secs() < 300, "no cell stored");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let done = files_where(&cells, &|n| n.ends_with(".json")).len();
    assert!(done < 32, "the run finished before the kill ({done} cells)");
    assert!(!d.join("k/t/records.parquet").exists());
    // A temporary file as a kill mid-write leaves it (dead writer on this host).
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_else(|_| "unknown".into())
        .trim()
        .replace(['.', '/'], "_");
    std::fs::write(
        cells.join(format!("x.json.{host}.{}.0.tmp", u32::MAX)),
        b"{",
    )
    .unwrap();
    let out = ok(&cvbench(&["run", "t.toml", "--out", "k"], &d));
    assert!(
        out.contains(&format!("({done} resumed)")) || done == 0,
        "{out}"
    );
    assert_eq!(
        untimed(&d.join("one/t/records.csv")),
        untimed(&d.join("k/t/records.csv"))
    );
    let left = files_where(&d.join("k"), &|n| {
        n.ends_with(".tmp") || n.contains(".tmp.")
    });
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn slurm_writes_an_array_and_a_dependent_collect_job() {
    let (_t, d) = setup();
    let out = ok(&cvbench(
        &[
            "slurm", "t.toml", "--tasks", "3", "--out", "r", "--time", "00:10:00",
        ],
        &d,
    ));
    assert!(out.contains("submit with"), "{out}");
    let dir = d.join("r/t/slurm");
    let array = std::fs::read_to_string(dir.join("array.sbatch")).unwrap();
    assert!(
        array.contains("#SBATCH --array=0-2") && array.contains("--shard slurm"),
        "{array}"
    );
    assert!(array.contains("#SBATCH --time=00:10:00"));
    let submit = std::fs::read_to_string(dir.join("submit.sh")).unwrap();
    assert!(submit.contains("--dependency=afterok:"));
    // Several configs: the scripts go to OUT/slurm/.
    ok(&cvbench(
        &["slurm", "t.toml", "s.toml", "--tasks", "2", "--out", "r"],
        &d,
    ));
    assert!(d.join("r/slurm/collect.sbatch").exists());
    let o = cvbench(&["slurm", "t.toml", "--tasks", "0"], &d);
    assert_eq!(o.status.code(), Some(2));
}
