//! The timing repeats behind every speed-up's interval, end to end: short
//! cells are timed again until their timed runs total `min_timed_seconds`
//! (capped by `max_timing_repeats`), with the same numbers as a run without
//! the keys, and the keys' errors name their line and a fix.

use crate::common;

use common::{csv_column as column, cvbench, run_configs, unquoted_fields as fields};

fn config(extra: &str) -> String {
    format!(
        r#"kind = "svm_cv"
name = "t"
seed = 3
k = [3]
methods = ["ours", "sir"]
timing_repeats = 2
timed_fewer_because = "a test: two runs are enough to check the columns"
{extra}
[[datasets]]
synthetic = {{ generator = "linear-classification", n = 60, d = 4 }}

[[settings]]
label = "libsvm-defaults"
"#
    )
}

#[test]
fn short_cells_are_timed_until_min_timed_seconds_with_the_same_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("plain.toml"), config("")).unwrap();
    std::fs::write(
        d.join("more.toml"),
        config("min_timed_seconds = 0.2\nmax_timing_repeats = 6\n"),
    )
    .unwrap();
    for (cfg, out) in [("plain.toml", "a"), ("more.toml", "b")] {
        let o = run_configs(d, &[cfg], out, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let read = |p: &str| std::fs::read_to_string(d.join(p)).unwrap();
    let plain = read("a/t/records.csv");
    let more = read("b/t/records.csv");
    // Without the keys: timing_repeats runs, exactly.
    assert!(column(&plain, "timing_repeats").iter().all(|r| r == "2"));
    // Every timed run's seconds are stored (issue 57), their median the
    // median column's.
    for (runs, median) in column(&more, "wall_runs_s")
        .iter()
        .zip(column(&more, "wall_median_s"))
        .chain(
            column(&plain, "wall_runs_s")
                .iter()
                .zip(column(&plain, "wall_median_s")),
        )
    {
        let mut v: Vec<f64> = runs.split(';').map(|t| t.parse().unwrap()).collect();
        v.sort_by(f64::total_cmp);
        let m = if v.len() % 2 == 1 {
            v[v.len() / 2]
        } else {
            0.5 * (v[v.len() / 2 - 1] + v[v.len() / 2])
        };
        assert!(
            (m - median.parse::<f64>().unwrap()).abs() < 1e-9,
            "{runs} {median}"
        );
    }
    let reps_of = |t: &str| {
        column(t, "wall_runs_s")
            .iter()
            .map(|r| r.split(';').count().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(reps_of(&more), column(&more, "timing_repeats"));
    // With them: at least timing_repeats, at most the cap, and fewer than
    // the cap only where the timed runs reached 0.2 s (each run at most
    // wall_max_s long).
    let reps = column(&more, "timing_repeats");
    let max = column(&more, "wall_max_s");
    for (r, m) in reps.iter().zip(&max) {
        let r: u32 = r.parse().unwrap();
        let m: f64 = m.parse().unwrap();
        assert!((2..=6).contains(&r), "{more}");
        assert!(r == 6 || f64::from(r) * m >= 0.2, "{more}");
    }
    // Only the timings vary (and how many runs they took): the other
    // reproducible columns are the same.
    for (run, out) in [("a/t", "a.csv"), ("b/t", "b.csv")] {
        let o = cvbench(&["export", "--reproducible", run, "-o", out], d);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let untimed = |p: &str| {
        let text = read(p);
        let head = fields(text.lines().next().unwrap());
        let i = head.iter().position(|h| h == "timing_repeats").unwrap();
        text.lines()
            .map(|l| {
                let mut f = fields(l);
                f.remove(i);
                f
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (untimed("a.csv"), untimed("b.csv"));
    assert_eq!(a.len(), 7, "{a:?}");
    assert_eq!(a, b);
}

#[test]
fn the_timing_keys_are_validated_with_their_line_and_a_fix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = [
        (
            "max_timing_repeats = 5\n",
            "t.toml:8",
            "set min_timed_seconds",
        ),
        (
            "min_timed_seconds = -1.0\n",
            "t.toml:8",
            "min_timed_seconds = -1 is out of range",
        ),
        (
            "min_timed_seconds = 1.0\nmax_timing_repeats = 1\n",
            "t.toml:9",
            "use timing_repeats (2) to 100",
        ),
    ];
    for (extra, at, says) in cases {
        std::fs::write(d.join("t.toml"), config(extra)).unwrap();
        let o = run_configs(d, &["t.toml"], "r", &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(at) && err.contains(says), "{extra}: {err}");
        assert!(!d.join("r/t/records.parquet").exists());
    }
}

/// Issue 57: every cell is timed at least 3 times unless the config says
/// why not; fewer without a reason is an error that names the key.
#[test]
fn fewer_than_three_runs_need_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let no_reason = config("").replace(
        "timed_fewer_because = \"a test: two runs are enough to check the columns\"\n",
        "",
    );
    std::fs::write(d.join("t.toml"), &no_reason).unwrap();
    let o = run_configs(d, &["t.toml"], "r", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("t.toml:6") && err.contains("timed_fewer_because"),
        "{err}"
    );
    // Without timing_repeats: 3 runs of every cell.
    std::fs::write(
        d.join("u.toml"),
        no_reason.replace("timing_repeats = 2\n", ""),
    )
    .unwrap();
    let o = run_configs(d, &["u.toml"], "s", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(d.join("s/t/records.csv")).unwrap();
    assert!(
        column(&text, "timing_repeats").iter().all(|r| r == "3"),
        "{text}"
    );
}
