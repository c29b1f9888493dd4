//! The report section of an `svm_cv` run of another formulation than
//! C-SVC: one table row per CV run (ours unseeded and seeded, `svm-train
//! -v k`, oneDAL's CV, one training of each) with the formulation's metric
//! (the MSE and squared correlation for the SVRs, the accuracy for nu-SVC
//! and one-class), SMO iterations and timed repeats, and the verdict lines
//! below it (`verdicts/formulation.rs`: exactness, seeding, speed targets).

use crate::experiments::svm_cv::formulation::metric_name;
use crate::experiments::svm_cv::formulation::rows::{runs, FormulationRow};
use crate::experiments::svm_cv::rows::write_rows;
use crate::experiments::svm_cv::verdicts::formulation::{lines, section_title};
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;
use cvbench_engine::api::data::printf_g;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One row of the run table (`formulation_runs.csv` / `.parquet`).
#[derive(Clone, Debug, Serialize)]
struct RunTableRow {
    dataset: String,
    setting: String,
    k: String,
    method: String,
    svm_type: String,
    threads: u64,
    cv_mse: f64,
    cv_squared_correlation: f64,
    cv_accuracy_pct: f64,
    iterations: u64,
    n_sv: u64,
    timing_repeats: u64,
    wall_median_s: f64,
    wall_min_s: f64,
    wall_max_s: f64,
}

/// The section for run `run` (its folder `dir`) from its rows.
pub fn render(
    dir: &Path,
    run: &str,
    rows: &[FormulationRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let svm_type = rows.first().map_or("", |r| r.svm_type.as_str());
    let metric = metric_name(svm_type);
    let mut md = format!("### {}\n\n", section_title(run));
    let _ = writeln!(
        md,
        "**Formulation CV.** LIBSVM's `{svm_type}` (`svm-train -s {}`), cross-validated on svm-train's folds; the metric is the CV **{metric}**{}. Seconds: median [min, max] of the timed repeats (every repeat is in the records). Ours run their rounds in parallel over one shared kernel cache; `svm-train` runs on one thread.\n",
        crate::experiments::svm_cv::formulation::parse(svm_type).map_or(0, |t| t.number()),
        if metric == "MSE" {
            " (and the squared correlation coefficient r², as `svm-train -v` prints them)"
        } else {
            ""
        }
    );
    let metric_head = if metric == "MSE" {
        "CV MSE | r²"
    } else {
        "CV accuracy % | r² (SVRs)"
    };
    let mut t = MdTable::new(
        format!("dataset | setting | k | method | threads | {metric_head} | SMO iterations | nSV | seconds | runs")
            .split(" | ")
            .map(str::to_string)
            .collect::<Vec<_>>(),
    );
    let mut table = Vec::new();
    for ((d, s, k), by) in runs(rows) {
        for (m, r) in by {
            let x = &r.row;
            let (a, b) = match (x.cv_mse, x.cv_accuracy_pct) {
                (Some(mse), _) => (
                    printf_g(mse),
                    x.cv_squared_correlation.map_or("-".into(), printf_g),
                ),
                (None, Some(acc)) => (format!("{acc:.4}"), "-".into()),
                _ => ("-".into(), "-".into()),
            };
            let n_sv = if r.rounds > 0 {
                format!(
                    "{} (over {} rounds)",
                    rows_sv(rows, &d, &s, &k, &m),
                    r.rounds
                )
            } else {
                x.n_sv.to_string()
            };
            t.row([
                d.clone(),
                s.clone(),
                k.clone(),
                m.clone(),
                x.threads.to_string(),
                a,
                b,
                // oneDAL does not report its solver's iterations.
                if m.starts_with("onedal") {
                    "-".to_string()
                } else {
                    r.iterations.to_string()
                },
                n_sv,
                format!(
                    "{:.3} [{:.3}, {:.3}]",
                    x.wall_median_s, x.wall_min_s, x.wall_max_s
                ),
                x.timing_repeats.to_string(),
            ]);
            table.push(RunTableRow {
                dataset: d.clone(),
                setting: s.clone(),
                k: k.clone(),
                method: m.clone(),
                svm_type: x.svm_type.clone(),
                threads: x.threads,
                cv_mse: x.cv_mse.unwrap_or(f64::NAN),
                cv_squared_correlation: x.cv_squared_correlation.unwrap_or(f64::NAN),
                cv_accuracy_pct: x.cv_accuracy_pct.unwrap_or(f64::NAN),
                iterations: r.iterations,
                n_sv: x.n_sv,
                timing_repeats: x.timing_repeats,
                wall_median_s: x.wall_median_s,
                wall_min_s: x.wall_min_s,
                wall_max_s: x.wall_max_s,
            });
        }
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
    let files = write_rows(&table, dir, "formulation_runs")?;
    Ok((md, files))
}

/// Support vectors summed over a run's rounds.
fn rows_sv(rows: &[FormulationRow], d: &str, s: &str, k: &str, m: &str) -> u64 {
    rows.iter()
        .filter(|r| {
            r.core.dataset == d && r.setting == s && r.k == k && r.label() == m && r.fold >= 0
        })
        .map(|r| r.n_sv)
        .sum()
}
