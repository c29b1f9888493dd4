//! The contour figure per dataset: the CV rate over (C, gamma) of the first
//! exact reuse level (else the first level).

use crate::experiments::svm_grid::config::SvmGridConfig;
use crate::experiments::svm_grid::levels::{choose, pkey, LevelStats};
use crate::experiments::svm_grid::rows::GridRow;
use crate::experiments::ExperimentError;
use crate::pyfmt::grid_rate;
use crate::results::grid_contour::{render_to, ContourData};
use cvbench_engine::api::grid_search::Grid;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The figures' Markdown and the files written in `dir`.
pub fn contours(
    dir: &Path,
    c: &SvmGridConfig,
    grid: &Grid,
    lv: &BTreeMap<String, Vec<(String, LevelStats)>>,
    rows: &[GridRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let mut md = String::new();
    let mut files = Vec::new();
    // The contour of the first exact level (else the first level) per dataset.
    for (ds, levels) in lv {
        let pick = levels.iter().find(|(_, s)| s.exact).or(levels.first());
        let Some((name, s)) = pick else { continue };
        let pts: Vec<(f64, f64, f64)> = grid
            .points
            .iter()
            .filter_map(|p| {
                let (cc, n) = *s.points.get(&pkey(p.log2c, p.log2g))?;
                Some((p.log2c?, p.log2g?, grid_rate(cc as usize, n as usize)))
            })
            .collect();
        if pts.is_empty() {
            continue;
        }
        let best = choose(grid, s).and_then(|b| Some((b.log2c?, b.log2g?, b.rate)));
        let n = rows
            .iter()
            .find(|r| r.core.dataset == *ds)
            .map_or(0, |r| r.n);
        let synthetic = rows
            .iter()
            .any(|r| r.core.dataset == *ds && r.core.synthetic);
        let data = ContourData {
            title: format!("{ds}: {}-fold CV accuracy over (C, gamma)", c.k.as_ref().map_or(5, |k| *k.get_ref())),
            subtitle: format!(
                "{}{ds}{}, {n} rows; LIBSVM folds; reuse {name}; {} points, one run (deterministic)",
                if synthetic { "SYNTHETIC " } else { "" },
                if c.scale { " scaled to [-1, 1]" } else { "" },
                pts.len()
            ),
            points: pts,
            c_range: grid.c.as_ref().map_or((0.0, 0.0), |a| (a.begin, a.end)),
            g_range: grid.g.as_ref().map_or((0.0, 0.0), |a| (a.begin, a.end)),
            best,
        };
        let stem: String = format!("contour-{ds}")
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() || ch == '-' || ch == '.' {
                    ch
                } else {
                    '_'
                }
            })
            .collect();
        let written = render_to(&data, &dir.join(format!("{stem}.png")))?;
        files.extend(written);
        let run = c.name.get_ref();
        let _ = writeln!(md, "![{ds} contour]({run}/{stem}.svg)\n");
    }

    Ok((md, files))
}
