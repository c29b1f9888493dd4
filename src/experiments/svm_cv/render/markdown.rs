//! Markdown helpers shared by the renderers of the `svm_cv` kind: a table
//! row's cells, a linked figure, and a speed-up cell with its interval.

use crate::experiments::ExperimentError;
use crate::results::figures::{self, Figure};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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

/// A speed-up with its 95% interval (`lo`, `hi`; NaN when timed once) as
/// the tables write it: `2.00x [1.50, 2.75]`, marked inconclusive where
/// the interval holds 1.
pub(super) fn speedup_cell(x: f64, lo: f64, hi: f64) -> String {
    if lo.is_nan() {
        format!("{x:.2}x (timed once: no interval, inconclusive)")
    } else {
        let holds = if lo <= 1.0 && 1.0 <= hi {
            " (inconclusive: the interval holds 1)"
        } else {
            ""
        };
        format!("{x:.2}x [{lo:.2}, {hi:.2}]{holds}")
    }
}
