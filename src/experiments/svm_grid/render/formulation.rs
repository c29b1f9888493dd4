//! The report section of an `svm_grid` run of another formulation than
//! C-SVC: per dataset and level (ours at each reuse level, the independent
//! `svm-train -v` calls) the chosen point with its CV metric (the MSE for
//! the SVRs, the accuracy otherwise), the points, SMO iterations and timed
//! repeats; the verdict lines below (`verdicts/formulation.rs`).

use crate::experiments::svm_grid::formulation::rows::FormulationGridRow;
use crate::experiments::svm_grid::verdicts::formulation::{by_level, lines, section_title};
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;
use crate::results::rows::to_records;
use crate::results::table::{to_frame, write_table};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The section for run `run` (its folder `dir`) from its rows, and the
/// points' table (`formulation_points.csv` / `.parquet`).
pub fn render(
    dir: &Path,
    run: &str,
    rows: &[FormulationGridRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let svm_type = rows.first().map_or("", |r| r.svm_type.as_str());
    let regression = rows.first().is_some_and(|r| r.mse.is_some());
    let metric = if regression {
        "CV MSE"
    } else {
        "CV accuracy %"
    };
    let mut md = format!("### {}\n\n", section_title(run));
    let _ = writeln!(
        md,
        "**Formulation grid.** LIBSVM's `{svm_type}` over its grid on svm-train's folds, choosing the {} (grid.py's tie-break), at each reuse level of ours and as independent `svm-train -v` calls (grid.py's way, one at a time). Seconds: median [min, max] of the whole grid's timed repeats (every repeat in the records).\n",
        if regression { "least CV mean squared error" } else { "highest CV accuracy" }
    );
    let mut t = MdTable::new(
        format!("dataset | level | threads | points | choice | {metric} | SMO iterations | seconds | runs")
            .split(" | ")
            .map(str::to_string)
            .collect::<Vec<_>>(),
    );
    for ((d, level), v) in by_level(rows) {
        let best = v.iter().find(|r| r.best);
        let first = v[0];
        t.row([
            d,
            level,
            first.threads.to_string(),
            v.len().to_string(),
            best.map_or("-".into(), |b| b.point_words()),
            best.map_or("-".into(), |b| b.printed.clone()),
            v.iter().map(|r| r.iterations).sum::<u64>().to_string(),
            format!(
                "{:.3} [{:.3}, {:.3}]",
                first.wall_median_s, first.wall_min_s, first.wall_max_s
            ),
            first.timing_repeats.to_string(),
        ]);
    }
    md.push_str(&t.markdown());
    md.push('\n');
    let checks = lines(rows);
    if !checks.is_empty() {
        md.push_str("\nChecks and targets (each speed ratio by the one evidence rule: its 95% interval over the timed repeats on one side of the target, else inconclusive):\n\n");
        for l in checks {
            let _ = writeln!(md, "- {}", l.text);
        }
        md.push('\n');
    }
    let files = write_table(&to_frame(&to_records(rows)?)?, dir, "formulation_points")?;
    Ok((md, files))
}
