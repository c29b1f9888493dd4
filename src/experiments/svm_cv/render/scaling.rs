//! How the cost grows (issue 58): for a run over datasets of at least
//! three sizes (e.g. MNIST's first 5k, 10k, 20k, ... rows), each method's
//! wall seconds and peak memory against n, as a table and a figure with
//! log axes (time vs n, memory vs n; one series per method).
//!
//! One point per cell: its median wall seconds over the timed runs (the
//! cell's `wall_median_s`, or the rounds' summed seconds where a run has no
//! wall times), and its peak resident memory (`peak_rss_mb`: ours the
//! process's high-water mark during the cell, an upper bound; oneDAL its
//! Python process's; none for LIBSVM's tools).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::experiments::svm_cv::rows::SvmRow;
use crate::results::figures::{Figure, Panel, Series, Style};

/// Fewest distinct dataset sizes that make a run a scaling run.
pub(super) const MIN_SIZES: usize = 3;

/// One cell's point of the curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct ScalingRow {
    /// The dataset (label).
    pub dataset: String,
    /// Its rows.
    pub n: u64,
    /// The setting.
    pub setting: String,
    /// k (`-` for one fit).
    pub k: String,
    /// The method with its set-up and solver, as the series is named.
    pub method: String,
    /// Threads of the cell.
    pub threads: u64,
    /// Median wall seconds of the cell's timed runs.
    pub wall_median_s: f64,
    /// The fastest and slowest timed run (`NaN` when unknown).
    pub wall_min_s: f64,
    /// See `wall_min_s`.
    pub wall_max_s: f64,
    /// Timed runs.
    pub timing_repeats: u64,
    /// Peak resident memory in MB (`NaN` when not measured).
    pub peak_rss_mb: f64,
}

/// The series name of a row: its method (with set-up), `+batched` where
/// another solver than the SMO ran it, `(fit)` for one training.
fn series_name(r: &SvmRow) -> String {
    crate::experiments::svm_cv::solver_axis::method_label(&r.core.method, r.solver_or_smo())
}

/// The curve's points: one per cell of a run with at least [`MIN_SIZES`]
/// dataset sizes (empty otherwise), by method, setting and n.
pub(super) fn scaling(records: &[SvmRow]) -> Vec<ScalingRow> {
    let sizes: BTreeSet<u64> = records.iter().map(|r| r.n).collect();
    if sizes.len() < MIN_SIZES {
        return Vec::new();
    }
    let mut cells: BTreeMap<&str, Vec<&SvmRow>> = BTreeMap::new();
    for r in records {
        cells.entry(r.core.cell.as_str()).or_default().push(r);
    }
    let mut out: Vec<ScalingRow> = cells
        .values()
        .filter_map(|rows| {
            let first = rows.first()?;
            let wall = rows
                .iter()
                .find_map(|r| r.wall_median_s)
                .unwrap_or_else(|| rows.iter().map(|r| r.train_s).sum());
            Some(ScalingRow {
                dataset: first.core.dataset.clone(),
                n: first.n,
                setting: first.setting.clone(),
                k: first.k.clone(),
                method: series_name(first),
                threads: first.threads,
                wall_median_s: wall,
                wall_min_s: rows.iter().find_map(|r| r.wall_min_s).unwrap_or(f64::NAN),
                wall_max_s: rows.iter().find_map(|r| r.wall_max_s).unwrap_or(f64::NAN),
                timing_repeats: first.timing_repeats,
                peak_rss_mb: rows.iter().find_map(|r| r.peak_rss_mb).unwrap_or(f64::NAN),
            })
        })
        .collect();
    out.sort_by(|a, b| {
        (&a.setting, &a.method, a.n)
            .cmp(&(&b.setting, &b.method, b.n))
            .then(a.k.cmp(&b.k))
    });
    out
}

/// The table of the curve's points.
pub(super) fn markdown(rows: &[ScalingRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut md = String::from("**How the cost grows with n** (each cell's median wall seconds over its timed runs, with their range; peak memory: ours the process's high-water mark of resident memory while the cell ran, the run's loaded datasets included, so an upper bound of the cell's own; oneDAL its Python process's, the data made dense included; `–` not measured, as for LIBSVM's tools)\n\n| method | setting | k | n | threads | wall s: median (min-max, runs) | peak RSS MB |\n|---|---|---|---|---|---|---|\n");
    for r in rows {
        let range = if r.wall_min_s.is_finite() && r.wall_max_s.is_finite() {
            format!(
                "{:.3} ({:.3}-{:.3}, {})",
                r.wall_median_s, r.wall_min_s, r.wall_max_s, r.timing_repeats
            )
        } else {
            format!("{:.3} ({} runs)", r.wall_median_s, r.timing_repeats)
        };
        let mem = if r.peak_rss_mb.is_finite() {
            format!("{:.0}", r.peak_rss_mb)
        } else {
            "–".into()
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {range} | {mem} |",
            r.method, r.setting, r.k, r.n, r.threads
        );
    }
    md.push('\n');
    md
}

/// Time and memory against n, log-log, one series per (method, setting);
/// `None` without points.
pub(super) fn figure(run: &str, rows: &[ScalingRow]) -> Option<Figure> {
    if rows.is_empty() {
        return None;
    }
    let settings: BTreeSet<&str> = rows.iter().map(|r| r.setting.as_str()).collect();
    let mut groups: BTreeMap<String, Vec<&ScalingRow>> = BTreeMap::new();
    for r in rows {
        let name = if settings.len() > 1 {
            format!("{} — {}", r.method, r.setting)
        } else {
            r.method.clone()
        };
        groups.entry(name).or_default().push(r);
    }
    let mut time = Panel {
        title: "wall seconds".into(),
        x_label: "n (rows)".into(),
        y_label: "seconds (median of the timed runs)".into(),
        log_x: true,
        log_y: true,
        ..Panel::default()
    };
    let mut memory = Panel {
        title: "peak memory".into(),
        x_label: "n (rows)".into(),
        y_label: "peak resident MB".into(),
        log_x: true,
        log_y: true,
        ..Panel::default()
    };
    for (i, (name, pts)) in groups.iter().enumerate() {
        let line = |f: &dyn Fn(&ScalingRow) -> f64| -> Vec<(f64, f64, f64)> {
            pts.iter()
                .filter_map(|r| {
                    let v = f(r);
                    (v.is_finite() && v > 0.0).then_some((r.n as f64, v, 0.0))
                })
                .collect()
        };
        let series = |points| Series {
            label: name.clone(),
            points,
            color: i,
            marker: i,
            bars: false,
        };
        // The peers dashed, ours solid.
        let style = Style {
            dashed: name.starts_with("onedal") || name.starts_with("libsvm"),
            ..Style::default()
        };
        let t = line(&|r| r.wall_median_s);
        if !t.is_empty() {
            time.push(series(t), style);
        }
        let m = line(&|r| r.peak_rss_mb);
        if !m.is_empty() {
            memory.push(series(m), style);
        }
    }
    let mut panels = vec![time];
    if !memory.series.is_empty() {
        panels.push(memory);
    }
    Some(Figure {
        title: format!("How the cost grows with n — run `{run}`"),
        caption: "left: each cell's median wall seconds over its timed runs against the dataset's rows; right: its peak resident memory (ours: the process's high-water mark during the cell, an upper bound; oneDAL: its Python process's); log-log, one series per method (dashed: the peers)".into(),
        rows: 1,
        cols: panels.len(),
        panels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    fn row(cell: &str, method: &str, n: u64, wall: f64, mem: Option<f64>) -> SvmRow {
        SvmRow {
            core: Core {
                cell: cell.into(),
                dataset: format!("mnist-{n}"),
                method: method.into(),
                ..Core::default()
            },
            n,
            setting: "s".into(),
            k: "10".into(),
            wall_median_s: Some(wall),
            wall_min_s: Some(wall * 0.9),
            wall_max_s: Some(wall * 1.1),
            timing_repeats: 3,
            peak_rss_mb: mem,
            ..SvmRow::default()
        }
    }

    #[test]
    fn a_point_per_cell_of_a_run_over_three_sizes() {
        let mut rows = Vec::new();
        for (i, n) in [5000u64, 10000, 20000].into_iter().enumerate() {
            // Two fold rows of one cell: one point.
            rows.push(row(
                &format!("a{i}"),
                "ours",
                n,
                n as f64 / 1000.0,
                Some(100.0),
            ));
            rows.push(row(
                &format!("a{i}"),
                "ours",
                n,
                n as f64 / 1000.0,
                Some(100.0),
            ));
            rows.push(row(&format!("b{i}"), "onedal", n, n as f64 / 100.0, None));
        }
        let pts = scaling(&rows);
        assert_eq!(pts.len(), 6);
        let ours: Vec<f64> = pts
            .iter()
            .filter(|p| p.method == "ours")
            .map(|p| p.wall_median_s)
            .collect();
        assert_eq!(ours, vec![5.0, 10.0, 20.0]);
        let md = markdown(&pts);
        assert!(md.contains("| onedal | s | 10 | 20000 |"), "{md}");
        assert!(md.contains("| – |"), "no memory is a dash: {md}");
        let fig = figure("r", &pts).unwrap();
        assert_eq!(fig.panels.len(), 2);
        assert!(fig.panels.iter().all(|p| p.log_x && p.log_y));
        assert_eq!(fig.panels[0].series.len(), 2);
        // Only ours has memory: one series on the right.
        assert_eq!(fig.panels[1].series.len(), 1);
        // Two sizes: not a scaling run.
        assert!(scaling(&rows[..6]).is_empty());
    }
}
