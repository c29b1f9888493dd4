//! The `svm_grid` kind: bad configs are refused at validate with line:col;
//! a small run gives the same rates for every reuse level (exact levels bit
//! for bit) and resumes without recomputing finished cells.

use crate::common;

use common::unquoted_fields as fields;
use std::path::Path;
use std::process::Output;

/// `cvbench ARGS` in `dir`, its data folder `dir` ([`common::cvbench_env`]).
fn cvbench(args: &[&str], dir: &Path) -> Output {
    common::cvbench_env(args, dir, &[("CVBENCH_DATA_DIR", dir)])
}

/// `cvbench run c.toml --out OUT --csv` in `dir`, its data folder `dir`
/// ([`common::run_configs`]).
fn run(dir: &Path, out: &str) -> Output {
    let data = dir.to_string_lossy();
    common::run_configs(dir, &["c.toml"], out, &["--data-dir", &data])
}

fn cfg(extra: &str) -> String {
    format!(
        r#"kind = "svm_grid"
name = "g"
seed = 1
k = 3
reuse = ["none", "gamma", "all"]
log2c = [-1, 3, 2]
{extra}
[[datasets]]
synthetic = {{ generator = "linear-classification", n = 60, d = 3 }}
"#
    )
}

#[test]
fn bad_grid_configs_are_refused_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (text, want) in [
        (
            cfg("log2g = [1, 2]"),
            vec!["c.toml:7:9:", "[begin, end, step]"],
        ),
        (cfg("log2g = [1, 2, 0]"), vec!["c.toml:7:9:", "step 0"]),
        (cfg("log2g = [1, 5, -1]"), vec!["c.toml:7:9:", "empty"]),
        (
            cfg("rows_per_cell = 0"),
            vec!["c.toml:7:17:", "rows_per_cell"],
        ),
        (
            cfg("").replace("[\"none\", \"gamma\", \"all\"]", "[\"gamma+folds\"]"),
            vec!["c.toml:5:10:", "cannot be combined"],
        ),
        (
            cfg("").replace("k = 3", "k = 1"),
            vec!["c.toml:4:5:", "at least 2"],
        ),
        (
            cfg("[[guide]]\ndataset = \"nope\"\ntest = { name = \"heart_scale\" }"),
            vec!["not one of `datasets`"],
        ),
    ] {
        std::fs::write(dir.path().join("c.toml"), text).unwrap();
        let o = cvbench(&["validate", "c.toml"], dir.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        for w in want {
            assert!(err.contains(w), "missing `{w}` in: {err}");
        }
    }
}

fn rates(records_csv: &str) -> Vec<(String, String, String, String)> {
    // (method, log2c, log2g, fold correct) of fold rows, by header names.
    let mut lines = records_csv.lines();
    let head = fields(lines.next().unwrap());
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (m, r, c, g, f, k) = (
        col("method"),
        col("role"),
        col("log2c"),
        col("log2g"),
        col("fold"),
        col("correct"),
    );
    let mut out = Vec::new();
    for l in lines {
        let v = fields(l);
        if v[r] == "fold" && v[f] != "-1" {
            out.push((
                v[m].to_string(),
                v[c].to_string(),
                format!("{}|{}", v[g], v[f]),
                v[k].to_string(),
            ));
        }
    }
    out
}

#[test]
fn reuse_levels_agree_and_a_rerun_resumes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), cfg("log2g = [-3, 1, 2]")).unwrap();
    let o = run(dir.path(), "out");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.path().join("out/g/records.csv")).unwrap();
    let r = rates(&text);
    let of = |m: &str| -> Vec<(String, String, String)> {
        let mut v: Vec<_> = r
            .iter()
            .filter(|x| x.0 == m)
            .map(|x| (x.1.clone(), x.2.clone(), x.3.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(of("none").len(), 3 * 3 * 3);
    assert_eq!(of("none"), of("gamma"), "exact levels agree bit for bit");
    for ((a, b, x), (_, _, y)) in of("none").iter().zip(&of("all")) {
        let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
        assert!((x - y).abs() <= 1, "{a} {b}: {x} vs {y}");
    }
    assert!(dir.path().join("out/g/report-section.md").is_file());
    // One cell per reuse level by default.
    let o = run(dir.path(), "out");
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("(3 resumed)"), "{s}");
    // A cell per gamma row: nine cells, the same numbers.
    std::fs::write(
        dir.path().join("c.toml"),
        cfg("log2g = [-3, 1, 2]\nrows_per_cell = 1"),
    )
    .unwrap();
    let o = run(dir.path(), "rows");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.path().join("rows/g/records.csv")).unwrap();
    let mut a = r.clone();
    let mut b = rates(&text);
    a.sort();
    b.sort();
    assert_eq!(a, b, "the cells' split changes no number");
    let o = run(dir.path(), "rows");
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("(9 resumed)"), "{s}");
}

#[test]
fn repeated_timing_gives_the_same_rates_and_a_median_within_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let text = cfg("log2g = [-3, 1, 2]\nrows_per_cell = 2\ntiming_repeats = 3");
    std::fs::write(dir.path().join("c.toml"), &text).unwrap();
    let o = run(dir.path(), "rep");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(dir.path().join("rep/g/records.csv")).unwrap();
    // The same rates as one timed run.
    std::fs::write(
        dir.path().join("c.toml"),
        text.replace(
            "timing_repeats = 3",
            "timing_repeats = 1\ntimed_fewer_because = \"a test of one run\"",
        ),
    )
    .unwrap();
    let o = run(dir.path(), "once");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let once = std::fs::read_to_string(dir.path().join("once/g/records.csv")).unwrap();
    assert_eq!(rates(&csv), rates(&once), "repeats change no rate");
    // Every cell row: three runs, min <= median <= max.
    let mut lines = csv.lines();
    let head = fields(lines.next().unwrap());
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (role, reps, med, lo, hi) = (
        col("role"),
        col("timing_repeats"),
        col("wall_median_s"),
        col("wall_min_s"),
        col("wall_max_s"),
    );
    let mut cells = 0;
    for l in lines {
        let v = fields(l);
        if v[role] != "cell" {
            continue;
        }
        cells += 1;
        assert_eq!(v[reps], "3", "{l}");
        let (m, a, b): (f64, f64, f64) = (
            v[med].parse().unwrap(),
            v[lo].parse().unwrap(),
            v[hi].parse().unwrap(),
        );
        assert!(a <= m && m <= b && a > 0.0, "{l}");
    }
    // Two cells (2 + 1 gamma rows) per level, three levels.
    assert_eq!(cells, 6);
    let md = std::fs::read_to_string(dir.path().join("rep/g/report-section.md")).unwrap();
    assert!(md.contains("3 runs)"), "{md}");
    let md1 = std::fs::read_to_string(dir.path().join("once/g/report-section.md")).unwrap();
    assert!(!md1.contains(" runs)"), "{md1}");
    // Out of range: refused with the key's line and column.
    std::fs::write(
        dir.path().join("c.toml"),
        cfg("timing_repeats = 0\nlog2g = [-3, 1, 2]"),
    )
    .unwrap();
    let o = cvbench(&["validate", "c.toml"], dir.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("c.toml:7:18:") && err.contains("timing_repeats"),
        "{err}"
    );
}
