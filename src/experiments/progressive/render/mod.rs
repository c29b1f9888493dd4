//! Tables, figures and the report section of the `progressive` kind, from
//! stored records only: the BKL figure and table in [`bkl`], the theorem
//! checks in [`theorems`], data streams in [`stream`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::config::ProgressiveConfig;
use super::rows::{read_rows, study, Row};
use super::stats::Summary;
use crate::experiments::{ExperimentError, Rendered};
use crate::results::figures::{self, Figure};
use crate::results::md_table::MdTable;
use crate::results::rows::to_records;
use crate::results::table::{to_frame, write_atomic, write_table};
use crate::results::Record;

pub mod bkl;
pub mod stream;
pub mod theorems;

/// Four decimals, or scientific notation for small non-zero values.
fn num(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 {
        format!("{x:.2e}")
    } else {
        format!("{x:.4}")
    }
}

/// `mean ± s.e.` with three decimals, or `–` for an empty summary.
fn pm(s: &Summary) -> String {
    if s.mean.is_finite() {
        format!("{:.3} ± {:.3}", s.mean, s.se)
    } else {
        "–".into()
    }
}

/// `mean ± 95% half-width`, as [`num`].
fn ci(s: &Summary) -> String {
    format!("{} ± {}", num(s.mean), num(s.ci95()))
}

/// Where the sections of one run render: the run folder and name, the
/// Markdown written so far and the files written.
pub(super) struct Out<'a> {
    dir: &'a Path,
    run: &'a str,
    md: String,
    files: Vec<PathBuf>,
}

impl Out<'_> {
    /// Write typed table rows as `<name>.parquet` and `<name>.csv`.
    fn table<T: Serialize>(&mut self, rows: &[T], name: &str) -> Result<(), ExperimentError> {
        let df = to_frame(&to_records(rows)?)?;
        self.files.extend(write_table(&df, self.dir, name)?);
        Ok(())
    }

    /// Draw a figure as `<name>.svg` and `<name>.png`.
    fn figure(&mut self, fig: &Figure, name: &str) -> Result<(), ExperimentError> {
        self.files.extend(figures::render(fig, self.dir, name)?);
        Ok(())
    }

    /// Append a paragraph (a blank line follows it).
    fn para(&mut self, text: &str) {
        let _ = writeln!(self.md, "{text}\n");
    }

    /// Append a Markdown table and a blank line.
    fn md_table(&mut self, t: &MdTable) {
        self.md.push_str(&t.markdown());
        self.md.push('\n');
    }
}

/// Render every study present in `records`.
pub fn render(
    dir: &Path,
    c: &ProgressiveConfig,
    records: &[Record],
) -> Result<Rendered, ExperimentError> {
    let rows: Vec<Row> = read_rows(records)?;
    let run = c.name.get_ref();
    let mut out = Out {
        dir,
        run,
        md: String::new(),
        files: Vec::new(),
    };
    out.para(&format!("### Run `{run}`"));
    if !c.description.is_empty() {
        out.para(c.description.trim());
    }
    if !c.note.is_empty() {
        out.para(&format!("> **Note.** {}", c.note.trim()));
    }
    let fig1 = study(&rows, "figure1");
    if !fig1.is_empty() {
        bkl::figure1(&mut out, &fig1)?;
    }
    let table = study(&rows, "table");
    if !table.is_empty() {
        bkl::paper_table(&mut out, &table, &study(&rows, "delay"))?;
    }
    let kf = study(&rows, "kfold");
    if !kf.is_empty() {
        theorems::kfold_section(&mut out, c, &kf)?;
    }
    let pv = study(&rows, "progressive_check");
    if !pv.is_empty() {
        theorems::pv_section(&mut out, c, &pv)?;
    }
    let st = study(&rows, "stream");
    if !st.is_empty() {
        stream::stream_section(&mut out, &st, &study(&rows, "stream_summary"))?;
    }
    let Out { md, mut files, .. } = out;
    write_atomic(&dir.join("report-section.md"), md.as_bytes())?;
    files.push(dir.join("report-section.md"));
    Ok(Rendered {
        files,
        markdown: md,
        appendix: String::new(),
    })
}
