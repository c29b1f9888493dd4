//! Markdown helpers shared by the renderers of the `svm_cv` kind.

use crate::experiments::ExperimentError;
use crate::results::figures::{self, Figure};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// k as a number for sorting: 3 < 10 < 100 < n.
pub(super) fn k_num(k: &str) -> f64 {
    k.parse().unwrap_or(f64::INFINITY)
}

/// Seconds for a table: `–` when unknown, fewer decimals when large.
pub(super) fn fmt_s(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.4}")
    }
}

/// The cells of a table row: its key (e.g. run or dataset, setting, k),
/// then `rest`.
pub(super) fn cells<const N: usize>(key: [&str; 4], rest: [String; N]) -> Vec<String> {
    key.iter().map(|s| s.to_string()).chain(rest).collect()
}

/// Render `fig` as `<stem>.svg` and `.png` in the run folder `dir` and link
/// it from the report section `md` (alt text `alt`, run `run`).
pub(super) fn link_figure(
    fig: &Figure,
    (dir, run, stem): (&Path, &str, &str),
    alt: &str,
    md: &mut String,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let files = figures::render(fig, dir, stem)?;
    let _ = writeln!(md, "![{alt}, run {run}]({run}/{stem}.svg)\n");
    Ok(files)
}
