//! `cvbench report` on a folder holding only a user's own runs: no paper
//! scorecard of runs that are not there, every in-page link of the HTML
//! leads to an anchor that exists, a provenance that says what it could
//! check; and folders that are not trustworthy runs (no manifest, unknown
//! kind, records of another kind, truncated records) are listed with the
//! reason, never silently left out or rendered as NaN.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common;
use common::{cvbench, ok};

/// A user's own LibSVM file (two separable classes) and a treecv config on it.
fn own_run(dir: &Path) {
    let mut data = String::new();
    for i in 0..120 {
        let x = f64::from(i % 17) / 17.0;
        let y = f64::from(i % 5) / 5.0;
        let label = if x + 0.3 * y > 0.55 { "+1" } else { "-1" };
        data.push_str(&format!("{label} 1:{x} 2:{y} 3:1\n"));
    }
    std::fs::create_dir_all(dir.join("project/data")).unwrap();
    std::fs::write(dir.join("project/data/mine.svm"), data).unwrap();
    std::fs::write(
        dir.join("project/mine.toml"),
        r#"kind = "treecv"
name = "my-run"
seed = 1
repetitions = 2

[[datasets]]
path = "data/mine.svm"
format = "libsvm"

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed"]
k = [5]
"#,
    )
    .unwrap();
}

/// A percent-encoded fragment decoded (as a browser matches it to an id).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// Every `href="#x"` of the page (decoded) and every `id="x"`.
fn links_and_ids(html: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let grab = |pat: &str| -> BTreeSet<String> {
        html.split(pat)
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(str::to_string)
            .collect()
    };
    let links = grab("href=\"#").iter().map(|l| percent_decode(l)).collect();
    (links, grab(" id=\""))
}

#[test]
fn a_report_of_ones_own_run_has_no_dead_links_and_no_paper_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    own_run(d);
    // The data path is relative to the config's folder (run from elsewhere).
    ok(&cvbench(
        &["run", "project/mine.toml", "--out", "out", "--quiet"],
        d,
    ));
    ok(&cvbench(&["report", "out"], d));
    let html = std::fs::read_to_string(d.join("out/index.html")).unwrap();
    let (links, ids) = links_and_ids(&html);
    assert!(!links.is_empty(), "the contents has links");
    let dead: Vec<&String> = links.iter().filter(|l| !ids.contains(*l)).collect();
    assert!(dead.is_empty(), "links without a target: {dead:?}");
    let md = std::fs::read_to_string(d.join("out/REPORT.md")).unwrap();
    assert!(
        !md.contains("not run"),
        "no paper rows for runs not here:\n{md}"
    );
    assert!(!md.contains("## Scorecard"), "{md}");
    assert!(md.contains("my-run"), "{md}");
    assert!(!md.contains("(n`"), "provenance not cut:\n{md}");
}

#[test]
fn report_lists_folders_it_cannot_trust_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    own_run(d);
    ok(&cvbench(
        &["run", "project/mine.toml", "--out", "out", "--quiet"],
        d,
    ));
    let good = d.join("out/my-run");
    let copy = |name: &str| {
        let to = d.join("out").join(name);
        std::fs::create_dir_all(&to).unwrap();
        for f in ["manifest.json", "records.parquet"] {
            std::fs::copy(good.join(f), to.join(f)).unwrap();
        }
        to
    };
    // No manifest.
    let a = copy("no-manifest");
    std::fs::remove_file(a.join("manifest.json")).unwrap();
    // A kind this cvbench does not know.
    let b = copy("unknown-kind");
    let m = std::fs::read_to_string(b.join("manifest.json")).unwrap();
    std::fs::write(
        b.join("manifest.json"),
        m.replace("\"kind\": \"treecv\"", "\"kind\": \"mystery\""),
    )
    .unwrap();
    // A truncated records file.
    let c = copy("truncated");
    let bytes = std::fs::read(c.join("records.parquet")).unwrap();
    std::fs::write(c.join("records.parquet"), &bytes[..bytes.len() / 2]).unwrap();
    // Records of another kind: an svm_cv manifest over treecv records.
    let e = copy("other-kind");
    let m = std::fs::read_to_string(e.join("manifest.json")).unwrap();
    std::fs::write(
        e.join("manifest.json"),
        m.replace("\"kind\": \"treecv\"", "\"kind\": \"svm_cv\""),
    )
    .unwrap();
    let o = cvbench(&["report", "out"], d);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    let md = std::fs::read_to_string(d.join("out/REPORT.md")).unwrap();
    for (name, why) in [
        ("no-manifest", "no manifest.json"),
        (
            "unknown-kind",
            "manifest kind `mystery` is not one this cvbench knows",
        ),
        ("truncated", "records.parquet cannot be read"),
        ("other-kind", "lacks the svm_cv column(s)"),
    ] {
        let row = md
            .lines()
            .find(|l| l.contains(&format!("`{name}`")) && l.starts_with('|'))
            .unwrap_or_else(|| panic!("{name} not listed:\n{md}"));
        assert!(row.contains(why), "{name}: {row}");
        assert!(err.contains(name), "{name} not warned about: {err}");
    }
    assert!(md.contains("## Skipped folders"));
    assert!(!md.contains("NaN"), "{md}");
    // The good run is still there.
    assert!(md.contains("my-run"));
}

#[test]
fn records_are_parquet_with_csv_on_request_and_export_gives_the_same_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    own_run(d);
    ok(&cvbench(
        &["run", "project/mine.toml", "--out", "a", "-q"],
        d,
    ));
    assert!(d.join("a/my-run/records.parquet").is_file());
    assert!(
        !d.join("a/my-run/records.csv").exists(),
        "CSV only on request"
    );
    ok(&cvbench(
        &["run", "project/mine.toml", "--out", "b", "-q", "--csv"],
        d,
    ));
    let csv = std::fs::read_to_string(d.join("b/my-run/records.csv")).unwrap();
    let out = ok(&cvbench(&["export", "b/my-run", "-o", "-"], d));
    assert_eq!(out, csv, "export writes the CSV `run --csv` writes");
    ok(&cvbench(&["report", "a", "--csv"], d));
    let from_report = std::fs::read_to_string(d.join("a/my-run/records.csv")).unwrap();
    assert_eq!(from_report.lines().count(), csv.lines().count());
    std::fs::remove_file(d.join("a/my-run/records.csv")).unwrap();
    ok(&cvbench(&["export", "a/my-run/records.parquet"], d));
    assert!(d.join("a/my-run/records.csv").is_file());
    // The per-cell bookkeeping is beside the cells, not in the manifest.
    let m = std::fs::read_to_string(d.join("a/my-run/manifest.json")).unwrap();
    assert!(
        !m.contains("cell_runs") && m.contains("compute_seconds"),
        "{m}"
    );
    assert!(d.join("a/my-run/cells/runs.json").is_file());
    let e = cvbench(&["export", "a/nothing.parquet"], d);
    assert_eq!(e.status.code(), Some(2));
}
