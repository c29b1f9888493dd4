//! Where one run's progressive sections render: [`Out`] (run folder,
//! Markdown, files written) and the number formats the sections share.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::super::stats::Summary;
use crate::experiments::ExperimentError;
use crate::results::figures::{self, Figure};
use crate::results::md_table::MdTable;
use crate::results::rows::to_records;
use crate::results::table::{to_frame, write_table};

/// Four decimals, or scientific notation for small non-zero values.
pub(super) fn num(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 {
        format!("{x:.2e}")
    } else {
        format!("{x:.4}")
    }
}

/// `mean ± s.e.` with three decimals, or `–` for an empty summary.
pub(super) fn pm(s: &Summary) -> String {
    if s.mean.is_finite() {
        format!("{:.3} ± {:.3}", s.mean, s.se)
    } else {
        "–".into()
    }
}

/// `mean ± 95% half-width`, as [`num`].
pub(super) fn ci(s: &Summary) -> String {
    format!("{} ± {}", num(s.mean), num(s.ci95()))
}

/// Where the sections of one run render: the run folder and name, the
/// Markdown written so far and the files written.
pub(super) struct Out<'a> {
    pub(super) dir: &'a Path,
    pub(super) run: &'a str,
    pub(super) md: String,
    pub(super) files: Vec<PathBuf>,
}

impl Out<'_> {
    /// Write typed table rows as `<name>.parquet` and `<name>.csv`.
    pub(super) fn table<T: Serialize>(
        &mut self,
        rows: &[T],
        name: &str,
    ) -> Result<(), ExperimentError> {
        let df = to_frame(&to_records(rows)?)?;
        self.files.extend(write_table(&df, self.dir, name)?);
        Ok(())
    }

    /// Draw a figure as `<name>.svg` and `<name>.png`.
    pub(super) fn figure(&mut self, fig: &Figure, name: &str) -> Result<(), ExperimentError> {
        self.files.extend(figures::render(fig, self.dir, name)?);
        Ok(())
    }

    /// Append a paragraph (a blank line follows it).
    pub(super) fn para(&mut self, text: &str) {
        let _ = writeln!(self.md, "{text}\n");
    }

    /// Append a Markdown table and a blank line.
    pub(super) fn md_table(&mut self, t: &MdTable) {
        self.md.push_str(&t.markdown());
        self.md.push('\n');
    }
}
