//! What the multi-class SVM test files share: `cvbench svm` and config runs,
//! LIBSVM's data files decompressed into a test folder, a generated
//! five-class problem, and a run's records.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::{cvbench, data_source, run_configs, unquoted_fields};

/// Run `cvbench svm ARGS` in `dir` (see [`super::command`]).
pub fn svm(args: &[&str], dir: &Path) -> Output {
    let mut all = vec!["svm"];
    all.extend_from_slice(args);
    cvbench(&all, dir)
}

/// Write `cfg` to `dir/c.toml` and run it (`cvbench run c.toml --out r
/// --csv`).
pub fn run_config(dir: &Path, cfg: &str) -> Output {
    std::fs::write(dir.join("c.toml"), cfg).unwrap();
    run_configs(dir, &["c.toml"], "r", &[])
}

/// The records of run `dir/r/<name>` (its `records.csv`) as (column →
/// value) maps, the values without their quotes.
pub fn records(dir: &Path, name: &str) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("r").join(name).join("records.csv")).unwrap();
    let mut lines = text.lines();
    let head = unquoted_fields(lines.next().unwrap());
    lines
        .map(|l| head.iter().cloned().zip(unquoted_fields(l)).collect())
        .collect()
}

/// Dataset `name` from `CVBENCH_DATA_DIR` ([`data_source`]), decompressed
/// into `dir/name`, every `step`-th row only; `None` (and a SKIPPED line)
/// without the data.
pub fn data_file(name: &str, dir: &Path, step: usize) -> Option<PathBuf> {
    let src = data_source(name)?;
    let bytes = cvbench_engine::api::files::read_all(&src).unwrap();
    let s: String = String::from_utf8(bytes)
        .unwrap()
        .lines()
        .step_by(step)
        .map(|l| format!("{l}\n"))
        .collect();
    let out = dir.join(name);
    std::fs::write(&out, s).unwrap();
    Some(out)
}

/// A five-class problem in three features, uneven class sizes, labels in
/// any order (2, -1, 8, 0, 5).
pub fn blobs() -> cvbench_engine::api::data::Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    let mut t = 0.61f64;
    let mut next = || {
        t = (t * 991.0 + 0.317).fract();
        t - 0.5
    };
    for i in 0..150 {
        let c = [3, 1, 4, 1, 5, 9, 2, 6][i % 8] % 5;
        let centre = f64::from(c as u8);
        rows.push(vec![
            centre * 0.4 + next(),
            (centre * 1.3).sin() + next(),
            next(),
        ]);
        y.push([2.0, -1.0, 8.0, 0.0, 5.0][c]);
    }
    cvbench_engine::api::data::Dataset::from_dense_rows("synthetic-blobs5", &rows, y)
}

/// [`blobs`] as a LibSVM file `dir/blobs5.txt`.
pub fn blobs_file(dir: &Path) -> PathBuf {
    let ds = blobs();
    let mut s = String::new();
    for i in 0..ds.n() {
        let row = ds.row(i).to_dense(ds.d());
        s.push_str(&format!("{}", ds.y[i]));
        for (j, v) in row.iter().enumerate() {
            s.push_str(&format!(" {}:{v}", j + 1));
        }
        s.push('\n');
    }
    let p = dir.join("blobs5.txt");
    std::fs::write(&p, s).unwrap();
    p
}
