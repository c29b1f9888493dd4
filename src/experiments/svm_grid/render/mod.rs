//! A run's section from its stored rows, one file per table or figure: the
//! best (C, gamma) per reuse level beside `svm-grid`'s, with the agreement
//! of every point's rate with `svm-grid`'s (`best.rs`), the cost table per
//! reuse level (`cost_table.rs`), the costliest points (`costly.rs`), the
//! contour figure per dataset (`contour.rs`) and the practical guide table
//! beside the published numbers (`guide.rs`); the rows grouped per level in
//! `levels.rs` at the kind's top (the scorecard reads them too), the peers'
//! rows per dataset in `peers.rs`.

mod best;
mod contour;
mod cost_table;
mod costly;
pub mod formulation;
mod guide;
mod peers;

use super::config::SvmGridConfig;
use super::levels::levels;
use super::rows::GridRow;
use crate::experiments::ExperimentError;
use best::best_table;
use contour::contours;
use cost_table::cost_table;
use costly::costly_points;
use cvbench_engine::api::grid_search::Grid;
use guide::guide_table;
use peers::Peers;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The section and the files written.
pub(super) fn render(
    dir: &Path,
    c: &SvmGridConfig,
    grid: &Grid,
    rows: &[GridRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let mut md = String::new();
    let mut files = Vec::new();
    let _ = writeln!(md, "### Run `{}`\n", c.name.get_ref());
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let lv = levels(rows);
    let peers = Peers::of(rows);
    md.push_str(&best_table(c, grid, &lv, &peers));
    md.push_str(&cost_table(&lv, &peers));
    md.push_str(&costly_points(&lv));
    let (figures, written) = contours(dir, c, grid, &lv, rows)?;
    md.push_str(&figures);
    files.extend(written);
    md.push_str(&guide_table(rows)?);
    Ok((md, files))
}
