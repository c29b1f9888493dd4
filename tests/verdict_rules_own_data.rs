//! A report of one's own run on one's own data file says no more than the
//! data, end to end: no NaN in any rendered cell, no speed-up between cells
//! of another kernel cache or thread count (the cell says what differs),
//! and no paper-substitute label on the user's dataset.

use crate::common;

use common::{cvbench, ok, run_configs, unquoted_fields};

/// A test fixture: a small two-class LibSVM file, made up (60 rows, 3
/// features, the label the sign of a linear score with a few rows flipped).
fn own_data() -> String {
    let mut out = String::new();
    for i in 0..60u32 {
        let x = [
            f64::from(i % 7) / 7.0 - 0.5,
            f64::from((i * 5) % 11) / 11.0 - 0.5,
            f64::from((i * 3) % 13) / 13.0 - 0.5,
        ];
        let score = x[0] + 0.5 * x[1] - x[2];
        let y = if (score > 0.0) ^ (i % 17 == 0) {
            "+1"
        } else {
            "-1"
        };
        out.push_str(&format!("{y} 1:{:.4} 2:{:.4} 3:{:.4}\n", x[0], x[1], x[2]));
    }
    out
}

const CONFIG: &str = r#"kind = "svm_cv"
name = "own"
seed = 1
k = [3]
methods = ["ours", "sir", "tree"]
timing_repeats = 2
timed_fewer_because = "a test: two runs are enough to check the columns"

[[datasets]]
path = "my-data.libsvm"
format = "libsvm"

[[settings]]
label = "defaults"
"#;

#[test]
fn a_report_of_ones_own_svm_run_prints_no_nan_and_no_unlike_speed_up() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("my-data.libsvm"), own_data()).unwrap();
    std::fs::write(d.join("own.toml"), CONFIG).unwrap();
    ok(&run_configs(
        d,
        &["own.toml"],
        "results",
        &["--threads", "2"],
    ));
    ok(&cvbench(&["report", "results"], d));
    let report = std::fs::read_to_string(d.join("results/REPORT.md")).unwrap();
    assert!(!report.contains("NaN"), "{report}");
    assert!(!report.to_lowercase().contains("substitute"), "{report}");
    // The default set-ups: the baseline one solve at a time with its own
    // cache, the seeded methods on a shared cache. Beside the paper's
    // Table 3, their speed-up is not printed: the cell says what differs.
    let seeding = std::fs::read_to_string(d.join("results/own/seeding.csv")).unwrap();
    let setups: std::collections::BTreeSet<String> = seeding
        .lines()
        .skip(1)
        .filter_map(|l| unquoted_fields(l).pop())
        .collect();
    let table3 = report
        .lines()
        .find(|l| {
            l.starts_with("| my-data.libsvm | defaults | 3 |") && l.matches(" | ").count() == 10
        })
        .unwrap_or_else(|| panic!("no Table 3 row: {report}"));
    assert!(
        setups.len() > 1,
        "the defaults ran like with like: {setups:?}"
    );
    assert!(
        table3.contains("– (not like with like: baseline "),
        "{table3}"
    );
}
