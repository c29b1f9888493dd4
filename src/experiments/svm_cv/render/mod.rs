//! Tables, figures and the report section of one `svm_cv` run, from its
//! stored rows: the per-run summary, the counts of the checks against
//! LIBSVM (their tables are in the overview of every run), the paper's
//! Tables 1 and 3 beside ours, and the time-against-k figure; the seeding
//! section in [`seeding`]; across every run: the benchmark against LIBSVM
//! (`benchmark.rs`), the flipped held-out rows (`flips.rs`) and our SMO
//! against `svm-train` (`overview.rs`, from the per-fold checks of
//! `vs_libsvm.rs`); the ablation, cost and training tables of our solver
//! (`ablation.rs`, `cost.rs`, `training.rs`; the ablation's and cost's rows
//! are computed at the kind's top, `ablation_rows.rs` and `cost_rows.rs`,
//! which `verdicts/targets.rs` reads too); Markdown helpers in
//! `markdown.rs`. Each file reads the kind's `config`, `rows` and the rows
//! computed at its top, and the published numbers and timing rules of
//! `verdicts/` (never the reverse: a verdict imports no renderer).

pub mod ablation;
pub mod benchmark;
pub mod cost;
pub mod flips;
pub mod formulation;
mod loocv_figure;
mod markdown;
pub mod overview;
mod paper_tables;
mod scaling;
pub mod seeding;
mod seeding_totals;
pub mod training;
mod vs_libsvm;

use crate::experiments::svm_cv::ablation_rows;
use crate::experiments::svm_cv::config::SvmCvConfig;
use crate::experiments::svm_cv::cost_rows;
use crate::experiments::svm_cv::rows::{by_run, k_num, v_checks, write_rows};
use crate::experiments::svm_cv::rows::{RunKey, SummaryRow, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::svm_cv::verdicts::published::{Published, TABLE3_K};
use crate::experiments::svm_cv::verdicts::{scaling_targets, targets};
use crate::experiments::ExperimentError;
use crate::results::figures::{Figure, Panel, Series};
use crate::results::md_table::MdTable;
use markdown::{cells, link_figure};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use vs_libsvm::{check_groups, peer_comparison};

/// Seconds of a run's rounds: init + train + predict summed over `rows`
/// (parts a method does not time are skipped).
fn run_seconds(rows: &[&SvmRow]) -> f64 {
    rows.iter().map(|r| r.round_seconds()).sum()
}

/// The summary row of one CV run.
fn summary_row((d, st, k, m): &RunKey, rows: &[&SvmRow]) -> SummaryRow {
    // A `libsvm_v` run is one record whose counters are sums over its
    // k rounds (`svm-train -v k` prints them per round, not per fold row).
    // Extra solves (fold = -2: AVG/TOP's full model, the tree's inner
    // nodes) count in iterations and time, not in rounds or means.
    let round_rows: Vec<&&SvmRow> = rows.iter().filter(|r| r.fold != -2).collect();
    let rounds = if m == "libsvm_v" {
        rows[0].k_value
    } else {
        round_rows.len() as u64
    };
    SummaryRow {
        dataset: d.clone(),
        setting: st.clone(),
        k: k.clone(),
        method: m.clone(),
        rounds,
        cv_accuracy_pct: rows[0].cv_accuracy_pct.unwrap_or(f64::NAN),
        majority_pct: rows[0].majority_pct,
        total_iterations: rows.iter().map(|r| r.iterations as f64).sum(),
        mean_objective: round_rows
            .iter()
            .map(|r| r.objective.unwrap_or(f64::NAN))
            .sum::<f64>()
            / rounds as f64,
        mean_n_sv: round_rows.iter().map(|r| r.n_sv as f64).sum::<f64>() / rounds as f64,
        time_s: run_seconds(rows),
        wall_s: rows[0].cell_wall_s,
    }
}

/// The per-run summary table (Markdown) and its rows.
fn summary(runs: &BTreeMap<RunKey, Vec<&SvmRow>>) -> (String, Vec<SummaryRow>) {
    let mut keys: Vec<&RunKey> = runs.keys().collect();
    keys.sort_by(|a, b| {
        (&a.0, &a.1)
            .cmp(&(&b.0, &b.1))
            .then(k_num(&a.2).total_cmp(&k_num(&b.2)))
            .then(a.3.cmp(&b.3))
    });
    let mut t = MdTable::new("dataset | setting | k | method | rounds | CV accuracy % | majority % | total #iter | mean obj | mean nSV | rounds' s (init + train + predict, seeding not counted) | cell wall s (every timed run together, runs)".split(" | "));
    let rows: Vec<SummaryRow> = keys.into_iter().map(|k| summary_row(k, &runs[k])).collect();
    let repeats: Vec<u64> = rows
        .iter()
        .map(|r| {
            let key = (
                r.dataset.clone(),
                r.setting.clone(),
                r.k.clone(),
                r.method.clone(),
            );
            runs[&key][0].timing_repeats.max(1)
        })
        .collect();
    for (r, n) in rows.iter().zip(&repeats) {
        t.row(cells(
            [&r.dataset, &r.setting, &r.k, &r.method],
            [
                r.rounds.to_string(),
                if r.cv_accuracy_pct.is_nan() {
                    "– (one training, no CV)".to_string()
                } else {
                    format!("{:.4}", r.cv_accuracy_pct)
                },
                format!("{:.2}", r.majority_pct),
                format!("{:.0}", r.total_iterations),
                if r.mean_objective.is_nan() {
                    "– (the program reports none)".to_string()
                } else {
                    format!("{:.4}", r.mean_objective)
                },
                format!("{:.1}", r.mean_n_sv),
                format!("{:.3}", r.time_s),
                format!("{:.3} ({n})", r.wall_s),
            ],
        ));
    }
    (t.markdown(), rows)
}

/// The paper's Table 1 (k = 10, LibSVM baseline) beside ours.
fn paper_table1(runs: &BTreeMap<RunKey, Vec<&SvmRow>>, p: &Published) -> String {
    let mut t = MdTable::new("dataset | setting | method | paper acc % | ours acc % | paper #iter | ours #iter | paper s | ours s".split(" | "));
    for ((d, st, k, m), rr) in runs {
        if k != "10" || st != "paper" || (m != "ours" && m != "libsvm") {
            continue;
        }
        if let Some(pr) = p.table1_for(d) {
            let iters: f64 = rr.iter().map(|r| r.iterations as f64).sum();
            t.row([
                d.clone(),
                st.clone(),
                m.clone(),
                format!("{:.2}", pr.libsvm_accuracy),
                format!("{:.2}", rr[0].cv_accuracy_pct.unwrap_or(f64::NAN)),
                format!("{:.0}", pr.libsvm_iterations),
                format!("{iters:.0}"),
                pr.libsvm_s.to_string(),
                format!("{:.2}", run_seconds(rr)),
            ]);
        }
    }
    if t.is_empty() {
        return String::new();
    }
    format!("**Beside the paper's Table 1 LibSVM row (k = 10; `ours` = our LibSVM-equivalent baseline, `libsvm` = svm-train on the same folds; their times are a 6-core E5-2620 in C++, ours this machine)**\n\n{t}\n")
}

/// The paper's Table 3 (LibSVM seconds for k = 3, 10, 100) beside the
/// times of svm-train and of our solver on this machine.
fn paper_table3(runs: &BTreeMap<RunKey, Vec<&SvmRow>>, p: &Published) -> String {
    let mut lines: Vec<((String, f64), [String; 6])> = Vec::new();
    for ((d, st, k, m), rr) in runs {
        if st != "paper" || m != "ours" {
            continue;
        }
        let Some(col) = TABLE3_K.iter().position(|kk| kk == k) else {
            continue;
        };
        let Some(paper) = p.table3_for(d).map(|pr| pr.libsvm_s[col]) else {
            continue;
        };
        // svm-train is a method of the config: a run without it says so
        // instead of printing NaN.
        let peer = runs
            .get(&(d.clone(), st.clone(), k.clone(), "libsvm".to_string()))
            .map(|pr| run_seconds(pr));
        let ours = run_seconds(rr);
        lines.push((
            (d.clone(), k_num(k)),
            [
                d.clone(),
                k.clone(),
                paper.to_string(),
                peer.map_or("not run".into(), |p| format!("{p:.2}")),
                format!("{ours:.2}"),
                peer.map_or("–".into(), |p| format!("{:.2}", ours / p)),
            ],
        ));
    }
    lines.sort_by(|a, b| a.0 .0.cmp(&b.0 .0).then(a.0 .1.total_cmp(&b.0 .1)));
    if lines.is_empty() {
        return String::new();
    }
    let mut t = MdTable::new(
        "dataset | k | paper LibSVM s | svm-train s (here) | ours s (here) | ours / svm-train"
            .split(" | "),
    );
    for (_, cells) in lines {
        t.row(cells);
    }
    format!("**Beside the paper's Table 3 (LibSVM's k-fold CV time at the paper setting; theirs on a 6-core E5-2620, svm-train and ours on this machine, train + predict over all rounds)**\n\n{t}\n")
}

/// A CV run's seconds for the time-against-k figure: the median wall
/// seconds of its timed runs where the records have them (a cell timed
/// once: its one run), else its rounds' summed seconds.
fn cv_seconds(rows: &[&SvmRow]) -> f64 {
    rows.iter()
        .find(|r| r.fold >= 0)
        .and_then(|r| r.wall_median_s)
        .unwrap_or_else(|| run_seconds(rows))
}

/// The label of a method's series in the time-against-k figure.
fn series_label(m: &str) -> String {
    match m {
        "ours" => "ours (LibSVM-equivalent baseline)".to_string(),
        "ours_shared_parallel" => "ours, shared cache, parallel".to_string(),
        "libsvm" => "LIBSVM svm-train, same folds".to_string(),
        "libsvm_v" => "LIBSVM svm-train -v k".to_string(),
        // A variant keeps its set-up as recorded: `sir [shared, 2t]`.
        m => match m.split_once(" [") {
            Some((base, rest)) => format!("{} [{rest}", base.to_uppercase()),
            None => m.to_uppercase(),
        },
    }
}

/// Time against k per dataset and setting, one series per method the run
/// holds (`None` with a single k).
fn time_vs_k(run: &str, runs: &BTreeMap<RunKey, Vec<&SvmRow>>) -> Option<Figure> {
    let mut panels = Vec::new();
    let mut drawn: BTreeSet<&str> = BTreeSet::new();
    let mut ds: Vec<(String, String)> = runs.keys().map(|k| (k.0.clone(), k.1.clone())).collect();
    ds.dedup();
    // Every method of the run, the baseline first, in one colour per method
    // across the panels.
    let mut methods: Vec<&str> = runs.keys().map(|k| k.3.as_str()).collect();
    methods.sort_by_key(|m| (*m != "ours", *m));
    methods.dedup();
    for (d, st) in &ds {
        let mut series = Vec::new();
        for (idx, m) in methods.iter().enumerate() {
            let mut pts: Vec<(f64, f64, f64)> = runs
                .iter()
                .filter(|(key, _)| &key.0 == d && &key.1 == st && key.3 == *m)
                .map(|(_, rr)| (rr[0].k_value as f64, cv_seconds(rr).max(1e-6), 0.0))
                .collect();
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            if !pts.is_empty() {
                drawn.insert(m);
                series.push(Series {
                    bars: false,
                    label: series_label(m),
                    points: pts,
                    color: idx,
                    marker: idx,
                });
            }
        }
        panels.push(Panel {
            title: format!("{d} — {st}"),
            x_label: "k".into(),
            y_label: "median wall seconds of the whole k-fold CV".into(),
            log_x: true,
            log_y: true,
            series,
            ..Panel::default()
        });
    }
    let ks: BTreeSet<&String> = runs.keys().map(|k| &k.2).collect();
    if panels.is_empty() || ks.len() < 2 {
        return None;
    }
    let cols = panels.len().min(2);
    Some(Figure {
        title: format!("SVM k-fold CV time against k — run `{run}`"),
        caption: time_vs_k_caption(&drawn),
        rows: panels.len().div_ceil(cols),
        cols,
        panels,
    })
}

/// The caption of the time-against-k figure, naming the series drawn.
fn time_vs_k_caption(drawn: &BTreeSet<&str>) -> String {
    let words: Vec<String> = drawn
        .iter()
        .map(|m| match *m {
            "ours" => {
                "ours = our LibSVM-equivalent baseline (each round from alpha = 0)".to_string()
            }
            "ours_shared_parallel" => {
                "ours with one kernel cache shared by parallel rounds".to_string()
            }
            "libsvm" => "LIBSVM's svm-train + svm-predict on the same folds".to_string(),
            "libsvm_v" => "LIBSVM's svm-train -v k (its own folds)".to_string(),
            m => format!("{} = that method of ours", series_label(m)),
        })
        .collect();
    format!(
        "the median wall seconds of the whole k-fold CV over its timed runs (a cell timed once: its one run; where the records have no wall times: the rounds' summed seconds), one point per method and k, log-log: {}",
        words.join("; ")
    )
}

/// The main part of one run's report section (the seeding part follows it),
/// and the tables and figure it writes in the run folder `dir`.
pub(crate) fn render(
    dir: &Path,
    c: &SvmCvConfig,
    records: &[SvmRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let run = c.name.get_ref();
    let mut files = Vec::new();
    let mut md = String::new();
    let _ = writeln!(md, "### Run `{run}`\n");
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let runs = by_run(records);
    if let Some((ran, k)) = runs
        .values()
        .find_map(|rr| first_rounds_of(rr.iter().copied()))
    {
        let _ = writeln!(md, "**Estimated from the first {ran} of {k} rounds** (`first_rounds`, Wen et al.'s estimate of a leave-one-out run too long to run whole): the rounds, seconds, iterations, accuracy and exactness below are those of the {ran} rounds run; the wall seconds of the timed runs and the speed-ups are estimates of all {k} rounds (one-off solves such as AVG/TOP's full model once, the rest of the cell's timed wall seconds {k}/{ran} times).\n");
    }
    let _ = writeln!(md, "**k-fold CV per run** (accuracy = correct held-out predictions / n; time = sum over rounds of init + train + predict for ours, of the `svm-train` and `svm-predict` processes for LIBSVM; wall = the whole cell)\n");
    let (table, summary) = summary(&runs);
    md.push_str(&table);
    md.push('\n');
    if !summary.is_empty() {
        files.extend(write_rows(&summary, dir, "summary")?);
    }
    // Ours against LIBSVM on the same folds: the per-fold table is written
    // here; the summary rows are in the overview's table of every run.
    let cmp = peer_comparison(&runs);
    if !cmp.is_empty() {
        files.extend(write_rows(&cmp, dir, "vs_libsvm")?);
        let groups = check_groups(&cmp);
        let pass = groups.iter().filter(|r| r.checks == "pass").count();
        let one = cmp.iter().filter(|r| r.one_class).count();
        let one = if one > 0 {
            format!(" {one} fold(s) had one class in their training rows, LIBSVM's degenerate case (no solve on either side, objective 0, the model predicts that class; `one_class` in the table), compared as such.")
        } else {
            String::new()
        };
        let _ = writeln!(md, "Our SMO against LIBSVM `svm-train` on the same training folds: {pass} of {} (dataset, setting, k) groups pass every per-fold check (rows in the table of every run above; per-fold rows in `{run}/vs_libsvm.csv`).{one}\n", groups.len());
    }
    let v = v_checks(&runs);
    if !v.is_empty() {
        let same = v.iter().filter(|r| r.verdict == "identical").count();
        let _ = writeln!(md, "LIBSVM-compatible folds: our CV accuracy equals what `svm-train -v k` prints in {same} of {} cases (table of every run above).\n", v.len());
    }
    let abl = ablation_rows::ablation(records);
    if !abl.is_empty() {
        md.push_str(&ablation::markdown(&abl));
        files.extend(write_rows(&abl, dir, "ablation")?);
    }
    let cost = cost_rows::cost(records);
    if !cost.is_empty() {
        md.push_str(&cost::markdown(&cost));
        files.extend(write_rows(&cost, dir, "cost")?);
    }
    md.push_str(&targets::verdicts(&cost, &abl));
    // One training per solver beside oneDAL's fit (runs with another
    // solver than the SMO only).
    let trainings = training::trainings(records);
    let trainings_md = training::markdown(&trainings);
    if !trainings_md.is_empty() {
        md.push_str(&trainings_md);
        files.extend(write_rows(&trainings, dir, "trainings")?);
    }
    let published = Published::load()?;
    md.push_str(&paper_table1(&runs, &published));
    md.push_str(&paper_table3(&runs, &published));
    // How the cost grows with n (a run over three or more dataset sizes).
    let scale = scaling::scaling(records);
    if !scale.is_empty() {
        md.push_str(&scaling::markdown(&scale));
        files.extend(write_rows(&scale, dir, "scaling")?);
        if let Some(fig) = scaling::figure(run, &scale) {
            let alt = "SVM CV and training time and memory against n";
            files.extend(link_figure(&fig, (dir, run, "scaling"), alt, &mut md)?);
        }
        md.push_str(&scaling_targets::lines(&cost, records));
    }
    if let Some(fig) = time_vs_k(run, &runs) {
        let alt = "SVM CV time against k";
        files.extend(link_figure(&fig, (dir, run, "time_vs_k"), alt, &mut md)?);
    }
    Ok((md, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 18: the caption names the series drawn, not every possible one.
    #[test]
    fn time_vs_k_caption_names_only_the_drawn_series() {
        let only = time_vs_k_caption(&BTreeSet::from(["ours"]));
        assert!(only.contains("LibSVM-equivalent baseline"), "{only}");
        assert!(!only.contains("svm-train") && !only.contains("shared by parallel"));
        let all = time_vs_k_caption(&BTreeSet::from(["ours", "libsvm", "ours_shared_parallel"]));
        assert!(all.contains("svm-train") && all.contains("shared by parallel"));
        // Issue 43: medians, not "one run per point (no repetitions)".
        assert!(all.contains("median wall seconds") && !all.contains("no repetitions"));
    }

    /// Issue 43: the figure draws every method the run holds (it drew
    /// `ours` alone: `sir` and the `libsvm_v` peer never appeared), at the
    /// median wall seconds where the records have them.
    #[test]
    fn time_vs_k_draws_every_method_at_its_median() {
        let row = |m: &str, k: u64, wall: f64| SvmRow {
            core: crate::results::rows::Core {
                dataset: "d".into(),
                method: m.into(),
                ..Default::default()
            },
            setting: "s".into(),
            k: k.to_string(),
            k_value: k,
            fold: 0,
            train_s: 100.0,
            wall_median_s: Some(wall),
            ..SvmRow::default()
        };
        let recs: Vec<SvmRow> = [3, 10]
            .iter()
            .flat_map(|&k| {
                [
                    row("ours", k, 2.0 * k as f64),
                    row("sir", k, k as f64),
                    row("libsvm_v", k, 3.0 * k as f64),
                ]
            })
            .collect();
        let fig = time_vs_k("r", &by_run(&recs)).unwrap();
        let labels: Vec<&str> = fig.panels[0]
            .series
            .iter()
            .map(|s| s.label.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "ours (LibSVM-equivalent baseline)",
                "LIBSVM svm-train -v k",
                "SIR"
            ]
        );
        assert_eq!(fig.panels[0].series[2].points[1].1, 10.0);
        assert!(
            fig.caption.contains("SIR = that method of ours"),
            "{}",
            fig.caption
        );
    }
}
