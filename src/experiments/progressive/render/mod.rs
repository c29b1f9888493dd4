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
use crate::results::rows::to_records;
use crate::results::table::{to_frame, write_table};
use crate::results::{table::write_atomic, Record};

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

/// Write typed table rows as `<name>.parquet` and `<name>.csv` in `dir`.
fn write_rows<T: Serialize>(
    rows: &[T],
    dir: &Path,
    name: &str,
    files: &mut Vec<PathBuf>,
) -> Result<(), ExperimentError> {
    files.extend(write_table(&to_frame(&to_records(rows)?)?, dir, name)?);
    Ok(())
}

/// Render every study present in `records`.
pub fn render(
    dir: &Path,
    c: &ProgressiveConfig,
    records: &[Record],
) -> Result<Rendered, ExperimentError> {
    let rows: Vec<Row> = read_rows(records)?;
    let run = c.name.get_ref();
    let mut md = String::new();
    let mut files = Vec::new();
    let _ = writeln!(md, "### Run `{run}`\n");
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let fig1 = study(&rows, "figure1");
    if !fig1.is_empty() {
        bkl::figure1(dir, run, &fig1, &mut md, &mut files)?;
    }
    let table = study(&rows, "table");
    if !table.is_empty() {
        bkl::paper_table(dir, &table, &study(&rows, "delay"), &mut md, &mut files)?;
    }
    let kf = study(&rows, "kfold");
    if !kf.is_empty() {
        theorems::kfold_section(dir, run, c, &kf, &mut md, &mut files)?;
    }
    let pv = study(&rows, "progressive_check");
    if !pv.is_empty() {
        theorems::pv_section(dir, c, &pv, &mut md, &mut files)?;
    }
    let st = study(&rows, "stream");
    if !st.is_empty() {
        let summaries = study(&rows, "stream_summary");
        stream::stream_section(dir, run, &st, &summaries, &mut md, &mut files)?;
    }
    write_atomic(&dir.join("report-section.md"), md.as_bytes())?;
    files.push(dir.join("report-section.md"));
    Ok(Rendered {
        files,
        markdown: md,
        appendix: String::new(),
    })
}
