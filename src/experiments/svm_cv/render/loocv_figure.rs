//! The leave-one-out figure: each method's time relative to SIR, with the
//! same wall-second ratios as the verdicts.

use super::seeding_totals::methods;
use crate::experiments::svm_cv::rows::SeedingRow;
use crate::results::figures::{Figure, Panel, Series};

/// A method's time over SIR's, from the same seconds the speed verdicts
/// compare ([`speedup`](super::seeding_totals::speedup): wall seconds where the records have them): the
/// ratio of the two speed-ups over the baseline, else of the summed seconds.
pub(super) fn relative_time(m: &SeedingRow, sir: &SeedingRow) -> f64 {
    match (m.speedup_vs_baseline, sir.speedup_vs_baseline) {
        (Some(xm), Some(xs)) if xm > 0.0 && xs.is_finite() => xs / xm,
        _ if sir.total_s > 0.0 => m.total_s / sir.total_s,
        _ => f64::NAN,
    }
}

/// The supplement's Figure 2: leave-one-out time of each method relative to
/// SIR, one group of bars per (dataset, setting), log scale.
pub(super) fn loocv_figure(
    run: &str,
    rows: &[SeedingRow],
    estimate: Option<(u64, u64)>,
) -> Option<Figure> {
    let groups: Vec<(String, String)> = rows
        .iter()
        .filter(|r| r.k == "n" && r.method == "sir")
        .map(|r| (r.dataset.clone(), r.setting.clone()))
        .collect();
    if groups.is_empty() {
        return None;
    }
    // The methods with a bar: the bars of a group share its width, side
    // by side (a method no run holds takes no slot).
    let order: Vec<&str> = methods()
        .into_iter()
        .filter(|m| *m != "sir")
        .filter(|m| {
            groups
                .iter()
                .any(|(d, st)| SeedingRow::find(rows, d, st, "n", m).is_some())
        })
        .collect();
    let mut series = Vec::new();
    for (i, m) in order.iter().enumerate() {
        let off = (i as f64 - (order.len() as f64 - 1.0) / 2.0) * 0.8 / order.len() as f64;
        let pts: Vec<(f64, f64, f64)> = groups
            .iter()
            .enumerate()
            .filter_map(|(g, (d, st))| {
                let sir = SeedingRow::find(rows, d, st, "n", "sir")?;
                let v = SeedingRow::find(rows, d, st, "n", m)?;
                let x = relative_time(v, sir);
                x.is_finite().then_some((g as f64 + off, x, 0.0))
            })
            .collect();
        if !pts.is_empty() {
            series.push(Series {
                label: if *m == "ours" {
                    "LibSVM baseline (ours)".into()
                } else {
                    m.to_uppercase()
                },
                points: pts,
                color: i,
                marker: i,
                bars: true,
            });
        }
    }
    let reps = rows
        .iter()
        .filter(|r| r.k == "n")
        .map(|r| r.rounds as f64)
        .fold(0.0, f64::max);
    Some(Figure {
        title: format!("Leave-one-out CV time relative to SIR — run `{run}`"),
        caption: match estimate {
            None => format!("bars: each method's seconds / SIR's, in wall seconds (the median of the timed runs) where the records have them, as the speed verdicts (1 = as fast as SIR; log scale); one LOOCV run per bar ({reps:.0} rounds at most)"),
            Some((ran, k)) => format!("bars: each method's wall seconds / SIR's, ESTIMATED for all {k} rounds from the first {ran} run (Wen et al.'s estimate), as the speed verdicts (1 = as fast as SIR; log scale); one LOOCV run per bar"),
        },
        rows: 1,
        cols: 1,
        panels: vec![Panel {
            title: String::new(),
            x_label: "dataset — setting".into(),
            y_label: "time / SIR time".into(),
            log_y: true,
            x_ticks: groups.iter().map(|(d, st)| format!("{d} — {st}")).collect(),
            series,
            ..Panel::default()
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 18: the LOOCV figure's bars are the same wall-second ratios
    /// as the verdicts (a baseline whose rounds ran two at a time sums to
    /// twice its wall time), not the summed seconds.
    #[test]
    fn loocv_bars_use_the_verdicts_wall_seconds() {
        let row = |m: &str, total_s: f64, x: Option<f64>| SeedingRow {
            method: m.into(),
            total_s,
            speedup_vs_baseline: x,
            ..SeedingRow::default()
        };
        // Baseline 20 s summed, 10 s wall; SIR 5 s (wall 5 s: 2x).
        let sir = row("sir", 5.0, Some(2.0));
        let ours = row("ours", 20.0, Some(1.0));
        assert_eq!(relative_time(&ours, &sir), 2.0);
        assert_eq!(relative_time(&row("avg", 10.0, None), &sir), 2.0);
        assert!(relative_time(&ours, &row("sir", 0.0, None)).is_nan());
    }
}
