//! Tables, figures and the report section of the `progressive` kind, from
//! stored records only: the BKL figure and table in [`bkl`], the theorem
//! checks in [`theorems`], data streams in [`stream`].

use std::path::Path;

use super::config::ProgressiveConfig;
use super::rows::{read_rows, study, Row};
use crate::experiments::{ExperimentError, Rendered};
use crate::results::Record;

pub mod bkl;
pub(super) mod out;
pub mod stream;
pub mod theorems;

use out::Out;

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
    let Out { md, files, .. } = out;
    Rendered::section(dir, md, String::new(), files)
}
