//! The quick configs' numbers, pinned: every non-timing column of each
//! `records.csv` of `configs/quick/*.toml`, and of every table the runs
//! render from them, must hash to the value stored in
//! `tests/golden/quick.toml`, so that a refactor that changes a number (or
//! drops a column) fails here, naming the run, the table and the column.
//!
//! Timing columns and counters that depend on scheduling (both named so:
//! `cvbench::results::columns`), and table columns derived from timings, are
//! left out. After a change that is
//! meant to change numbers, `CVBENCH_BLESS=1 cargo test --test suite golden_quick`
//! rewrites the file; the diff shows which columns moved.

use crate::common;

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// Columns whose values are times or depend on thread interleaving.
fn excluded(col: &str) -> bool {
    !cvbench::results::columns::is_reproducible(col)
        || col.starts_with("seconds")
        || col.contains("wall")
        || col.contains("time")
        || col.contains("speedup")
        // Shares of a run's time and comparisons of timings.
        || col.ends_with("predict_pct")
        || col.ends_with("seed_pct")
        || matches!(col, "within_spread" | "cv_in_trainings" | "best" | "best_accuracy_pct")
}

/// Per column of a CSV text (header first): the row count and a short hash
/// of the column's values in row order. Splits on commas outside quotes.
fn column_hashes(csv: &str) -> BTreeMap<String, String> {
    fn fields(line: &str) -> Vec<String> {
        let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
        for ch in line.chars() {
            match ch {
                '"' => quoted = !quoted,
                ',' if !quoted => out.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        out.push(cur);
        out
    }
    let mut lines = csv.lines();
    let head = fields(lines.next().unwrap_or(""));
    let rows: Vec<Vec<String>> = lines.map(fields).collect();
    let mut out = BTreeMap::new();
    for (c, name) in head.iter().enumerate() {
        if excluded(name) {
            continue;
        }
        let mut h = Sha256::new();
        for r in &rows {
            h.update(r.get(c).map_or("", String::as_str).as_bytes());
            h.update(b"\n");
        }
        let hex: String = h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        out.insert(name.clone(), format!("{} rows {hex}", rows.len()));
    }
    out
}

#[test]
fn quick_configs_give_the_pinned_numbers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The quick configs are synthetic: an empty data folder serves them.
    let dir = common::quick_results();
    let mut got: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for e in std::fs::read_dir(dir.join("quick")).unwrap().flatten() {
        let run = e.file_name().to_string_lossy().into_owned();
        let Ok(files) = std::fs::read_dir(e.path()) else {
            continue;
        };
        for f in files.flatten() {
            let file = f.file_name().to_string_lossy().into_owned();
            if !file.ends_with(".csv") {
                continue;
            }
            // records.csv under the run's name; each rendered table under
            // `run/file.csv`, so that a refactor of a renderer shows here too.
            let key = if file == "records.csv" {
                run.clone()
            } else {
                format!("{run}/{file}")
            };
            let text = std::fs::read_to_string(f.path()).unwrap();
            got.insert(key, column_hashes(&text));
        }
    }
    let golden_path = root.join("tests/golden/quick.toml");
    if std::env::var_os("CVBENCH_BLESS").is_some() {
        std::fs::create_dir_all(golden_path.parent().unwrap()).unwrap();
        let text = toml::to_string(&got).unwrap();
        std::fs::write(
            &golden_path,
            format!("# Written by CVBENCH_BLESS=1 cargo test --test suite golden_quick.\n{text}"),
        )
        .unwrap();
        return;
    }
    let golden: BTreeMap<String, BTreeMap<String, String>> =
        toml::from_str(&std::fs::read_to_string(&golden_path).unwrap()).unwrap();
    let mut diffs = Vec::new();
    for (run, cols) in &golden {
        let Some(g) = got.get(run) else {
            diffs.push(format!("{run}: table not written"));
            continue;
        };
        for (col, want) in cols {
            match g.get(col) {
                None => diffs.push(format!("{run}: column {col} is missing")),
                Some(v) if v != want => {
                    diffs.push(format!("{run}: column {col} changed ({want} -> {v})"))
                }
                _ => {}
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "numbers changed against tests/golden/quick.toml:\n{}",
        diffs.join("\n")
    );
}
