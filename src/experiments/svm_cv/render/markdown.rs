//! Markdown helpers shared by the renderers of the `svm_cv` kind.

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
