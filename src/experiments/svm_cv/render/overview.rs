//! The overview of our SMO against LIBSVM's tools across every `svm_cv`
//! run of a results folder, from stored rows: the acceptance checks against
//! `svm-train` on the same folds, and our CV accuracy against
//! `svm-train -v k`.

use super::markdown::cells;
use super::vs_libsvm::CheckRow;
use super::vs_libsvm::{check_groups, peer_comparison};
use crate::experiments::svm_cv::rows::{by_run, k_num, v_checks, write_rows};
use crate::experiments::svm_cv::rows::{SvmRow, VRow};
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Sort rows by (run, dataset, setting, k numerically), keeping the order otherwise.
fn sort_k<T>(rows: &mut [T], key: impl Fn(&T) -> [&str; 4]) {
    rows.sort_by(|a, b| {
        let (a, b) = (key(a), key(b));
        a[..3]
            .cmp(&b[..3])
            .then(k_num(a[3]).total_cmp(&k_num(b[3])))
    });
}

/// The markdown table of [`check_groups`] rows of every run.
fn checks_table(rows: &[CheckRow]) -> String {
    let mut t = MdTable::new("run | dataset | setting | k | folds | max obj rel. diff | max nSV rel. diff | same accuracy every fold | iter ratio min–max | time ours / LIBSVM median (max) | checks".split(" | "));
    for r in rows {
        let verdict = if r.checks == "pass" {
            "pass"
        } else {
            "FAIL (obj ≤ 1e-3, nSV ≤ 1%, same accuracy, iterations ±10%)"
        };
        t.row(cells(
            [&r.run, &r.dataset, &r.setting, &r.k],
            [
                r.folds.to_string(),
                format!("{:.2e}", r.max_obj_rel_diff),
                format!("{:.2e}", r.max_nsv_rel_diff),
                r.same_accuracy_every_fold.clone(),
                format!("{:.3}–{:.3}", r.iter_ratio_min, r.iter_ratio_max),
                format!("{:.2} ({:.2})", r.time_ratio_median, r.time_ratio_max),
                verdict.to_string(),
            ],
        ));
    }
    t.markdown() + "\n"
}

/// The markdown table of [`v_checks`] rows of every run.
fn v_table(rows: &[VRow]) -> String {
    let mut t =
        MdTable::new("run | dataset | setting | k | ours % | svm-train -v % | ".split(" | "));
    for r in rows {
        t.row(cells(
            [&r.run, &r.dataset, &r.setting, &r.k],
            [
                format!("{:.4}", r.acc_ours_pct),
                format!("{:.4}", r.acc_svm_train_v_pct),
                r.verdict.clone(),
            ],
        ));
    }
    // The last header cell is empty; the report has always written it `| |`.
    t.markdown().replacen("|  |\n", "| |\n", 1) + "\n"
}

/// Our SMO against LIBSVM over every run of a results folder: the
/// acceptance checks against `svm-train` (per run, dataset, setting and k,
/// each over its folds) and the `svm-train -v k` accuracy checks, as
/// Markdown and as `svm-vs-libsvm` and `svm-vs-svm-train-v` (`.parquet` and
/// `.csv`) in `root`; nothing when no run has a peer.
pub(crate) fn overview(
    root: &Path,
    runs: &[(String, Vec<SvmRow>)],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let (mut checks, mut vs) = (Vec::new(), Vec::new());
    for (run, rows) in runs {
        let g = by_run(rows);
        for r in check_groups(&peer_comparison(&g)) {
            checks.push(CheckRow {
                run: run.clone(),
                ..r
            });
        }
        for r in v_checks(&g) {
            vs.push(VRow {
                run: run.clone(),
                ..r
            });
        }
    }
    sort_k(&mut checks, |r| [&r.run, &r.dataset, &r.setting, &r.k]);
    sort_k(&mut vs, |r| [&r.run, &r.dataset, &r.setting, &r.k]);
    let mut files = Vec::new();
    let mut md = String::new();
    if !checks.is_empty() {
        files.extend(write_rows(&checks, root, "svm-vs-libsvm")?);
        let fails = checks.iter().filter(|r| r.checks != "pass").count();
        let _ = writeln!(
            md,
            "### Every run: our SMO against `svm-train` on the same folds\n"
        );
        let _ = writeln!(md, "{} of {} (run, dataset, setting, k) groups pass every per-fold check (objective within 1e-3 relative, nSV within 1%, the same accuracy, iterations within ±10%). Time ratio = our init + train time over the `svm-train` process time, per fold, single-threaded. Table: `svm-vs-libsvm.csv`.\n", checks.len() - fails, checks.len());
        md.push_str(&checks_table(&checks));
    }
    if !vs.is_empty() {
        files.extend(write_rows(&vs, root, "svm-vs-svm-train-v")?);
        let _ = writeln!(md, "**Every run: LIBSVM-compatible folds, our CV accuracy against `svm-train -v k`** (`svm-vs-svm-train-v.csv`)\n");
        md.push_str(&v_table(&vs));
    }
    Ok((md, files))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    fn fold(method: &str, fold: i64, obj: f64, nsv: u64, correct: u64, iters: u64) -> SvmRow {
        SvmRow {
            core: Core {
                dataset: "heart_scale".into(),
                method: method.into(),
                ..Core::default()
            },
            setting: "paper".into(),
            k: "3".into(),
            k_value: 3,
            fold,
            objective: Some(obj),
            n_sv: nsv,
            correct,
            iterations: iters,
            init_s: Some(0.0),
            train_s: 1.0,
            cv_accuracy_pct: Some(80.0),
            ..SvmRow::default()
        }
    }

    fn verdicts(ours: &[SvmRow], peer: &[SvmRow]) -> Vec<String> {
        let all: Vec<SvmRow> = ours.iter().chain(peer).cloned().collect();
        check_groups(&peer_comparison(&by_run(&all)))
            .into_iter()
            .map(|r| r.checks)
            .collect()
    }

    #[test]
    fn acceptance_checks_pass_only_within_the_issue_tolerances() {
        let peer = [
            fold("libsvm", 0, -100.0, 50, 40, 1000),
            fold("libsvm", 1, -90.0, 40, 41, 900),
        ];
        let second = fold("ours", 1, -90.0, 40, 41, 900);
        let pair = |first: SvmRow| [first, second.clone()];
        assert_eq!(
            verdicts(&pair(fold("ours", 0, -100.0, 50, 40, 1000)), &peer),
            ["pass"]
        );
        // Within tolerances: objective 5e-4 relative, iterations +9%.
        assert_eq!(
            verdicts(&pair(fold("ours", 0, -100.05, 50, 40, 1090)), &peer),
            ["pass"]
        );
        for bad in [
            pair(fold("ours", 0, -100.2, 50, 40, 1000)), // obj 2e-3
            pair(fold("ours", 0, -100.0, 52, 40, 1000)), // nSV 4%
            pair(fold("ours", 0, -100.0, 50, 39, 1000)), // accuracy
            [
                fold("ours", 0, -100.0, 50, 40, 1000),
                fold("ours", 1, -90.0, 40, 41, 1000),
            ], // +11% iter
        ] {
            assert_eq!(verdicts(&bad, &peer), ["FAIL"]);
        }
    }

    #[test]
    fn overview_collects_every_run_and_writes_its_tables() {
        let dir = tempfile::tempdir().unwrap();
        let run_a = vec![
            fold("ours", 0, -1.0, 1, 1, 10),
            fold("libsvm", 0, -1.0, 1, 1, 10),
        ];
        let run_b = vec![
            fold("ours", 0, -1.0, 1, 1, 10),
            fold("libsvm", 0, -1.0, 1, 1, 20),
        ];
        let (md, files) =
            overview(dir.path(), &[("a".into(), run_a), ("b".into(), run_b)]).unwrap();
        assert!(
            md.contains("1 of 2 (run, dataset, setting, k) groups pass"),
            "{md}"
        );
        assert!(md.contains("| a | heart_scale |") && md.contains("| b | heart_scale |"));
        assert!(files.iter().any(|p| p.ends_with("svm-vs-libsvm.csv")));
        assert!(dir.path().join("svm-vs-libsvm.parquet").is_file());
    }

    #[test]
    fn the_accuracy_table_keeps_its_empty_last_header() {
        let row = VRow {
            run: "r".into(),
            verdict: "identical".into(),
            ..VRow::default()
        };
        let md = v_table(&[row]);
        assert!(md.starts_with("| run | dataset | setting | k | ours % | svm-train -v % | |\n|---|---|---|---|---|---|---|\n"), "{md}");
        assert!(md.ends_with("| identical |\n\n"), "{md}");
    }
}
