//! The cost table of an exact SVM k-fold CV: the rows of
//! [`crate::experiments::svm_cv::cost_rows`] (its wall time in trainings,
//! and against `svm-train -v k`, one `svm-train`, oneDAL's CV and one fit
//! timed in the same run with the same kernel-cache memory) as Markdown.
//! The lines that check these numbers against our own speed targets are in
//! `verdicts/targets.rs`.

use crate::experiments::evidence::Side;
use crate::experiments::svm_cv::cost_rows::CostRow;
use crate::experiments::svm_cv::solver_axis::has_solver_axis;
use crate::experiments::svm_cv::verdicts::targets::CV_IN_TRAININGS;
use crate::results::md_table::MdTable;

/// Seconds with three significant digits below 10 s.
fn secs(s: f64) -> String {
    match s {
        s if s.is_nan() => "not run".into(),
        s if s < 1.0 => format!("{s:.3}"),
        s if s < 10.0 => format!("{s:.2}"),
        s => format!("{s:.1}"),
    }
}

/// `x` seconds with the ratio `peer / ours` ("not run" when NaN).
fn against(peer_s: f64, ours_s: f64, extra: &str) -> String {
    if peer_s.is_nan() {
        "not run".into()
    } else {
        format!("{}{extra} ({:.1}x)", secs(peer_s), peer_s / ours_s)
    }
}

/// The cost table as Markdown with its lead paragraph (empty without rows).
pub fn markdown(rows: &[CostRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let axis = has_solver_axis(rows.iter().map(|r| r.solver.as_str()));
    let mut head: Vec<&str> =
        "dataset | setting | k | threads | budget MB | fastest exact CV (seeder, order, cache) | its s | CV accuracy % | one training s | **CV in trainings** | predict % | seeding % | svm-train -v k s (accuracy %) (x ours) | svm-train once s | oneDAL CV s (accuracy %, threads) (x ours) | oneDAL one fit s (x our training)"
            .split(" | ")
            .collect();
    if axis {
        head.insert(4, "solver");
    }
    let mut t = MdTable::new(head);
    for r in rows {
        let v_acc = format!(" ({:.4}%)", r.svm_train_v_accuracy_pct);
        let od_acc = format!(" ({:.4}%, {}t)", r.onedal_accuracy_pct, r.onedal_threads);
        let solver = axis.then(|| r.solver.clone());
        t.row(
            [
                r.dataset.clone(),
                r.setting.clone(),
                r.k.clone(),
                r.threads.to_string(),
            ]
            .into_iter()
            .chain(solver)
            .chain([
                format!("{:.0}", r.cache_mb),
                r.best.clone(),
                secs(r.best_s),
                format!("{:.4}", r.best_accuracy_pct),
                secs(r.train_s),
                {
                    // The ratio as the target line under the table judges it.
                    let t = r.in_trainings();
                    if t.side(CV_IN_TRAININGS) == Side::Inconclusive {
                        format!("{} (inconclusive)", t.short())
                    } else {
                        format!("**{}**", t.short())
                    }
                },
                format!("{:.1}", r.best_predict_pct),
                format!("{:.1}", r.best_seed_pct),
                against(r.svm_train_v_s, r.best_s, &v_acc),
                secs(r.svm_train_fit_s),
                against(r.onedal_cv_s, r.best_s, &od_acc),
                against(r.onedal_fit_s, r.train_s, ""),
            ])
            .collect::<Vec<_>>(),
        );
    }
    format!(
        "**The cost of an exact k-fold CV in trainings, and against the peers in the same run** (every time the median of the cell's timed runs, how many in the first table's last column; \"CV in trainings\" = the fastest of our exact CV runs at these threads over our one training on all rows with the same threads and cache budget — the SVM's counterpart of TreeCV's cost in passes over the data; `svm-train` runs on one thread with `-m` = the budget, its times are the process's, file parsing included; oneDAL (scikit-learn-intelex `SVC`) gets `cache_size` = the budget and runs on our folds, timed inside Python around its fits and predictions; x = peer seconds over ours)\n\n{}\n",
        t.markdown()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::svm_cv::ablation_rows::ablation;
    use crate::experiments::svm_cv::cost_rows::cost;
    use crate::experiments::svm_cv::cost_rows::tests::{row, sample_records};
    use crate::experiments::svm_cv::rows::SvmRow;
    use crate::experiments::svm_cv::verdicts::targets::verdicts;

    /// The cost table of the sample records (their rows are checked in
    /// `cost_rows.rs`): the CV in trainings and each peer's ratio.
    #[test]
    fn the_cost_table_shows_trainings_and_peer_ratios() {
        let md = markdown(&cost(&sample_records()));
        // 1.5 trainings with 1% ranges: the interval holds the target 1.5.
        assert!(md.contains("1.50x [1.47, 1.53] (inconclusive)"), "{md}");
        assert!(md.contains("(20.0x)") && md.contains("(2.0x)"));
        assert!(md.contains("svm-train once") && md.contains("not run"));
    }

    #[test]
    fn no_training_cell_no_row() {
        assert!(cost(&[row("sir", "sir", "round", 2, 1.0)]).is_empty());
        assert_eq!(markdown(&[]), "");
        assert_eq!(verdicts(&[], &[]), "");
    }

    /// Issue 44: one cost row per solver, each over its own one training,
    /// beside the same peers (oneDAL's one fit against each training); the
    /// solver column and the verdicts name it only where the run has it.
    #[test]
    fn one_row_per_solver_over_its_own_training() {
        let batched = |m: &str, seeder: &str, role: &str, wall: f64| SvmRow {
            solver: "batched".into(),
            ..row(m, seeder, role, 2, wall)
        };
        let mut recs = vec![
            row("ours [shared, 2t]", "zero", "round", 2, 30.0),
            row("sir [shared, 2t]", "sir", "round", 2, 12.0),
            row("train [per_solve, 2t]", "zero", "train", 2, 8.0),
            row("onedal_fit [2t]", "", "train", 2, 4.0),
        ];
        let md = markdown(&cost(&recs));
        assert!(!md.contains("solver"), "{md}");
        recs.extend([
            batched("ours [shared, 2t, batched]", "zero", "round", 10.0),
            batched("sir [shared, 2t, batched]", "sir", "round", 6.0),
            batched("train [per_solve, 2t, batched]", "zero", "train", 3.0),
        ]);
        let c = cost(&recs);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(
            (c[0].solver.as_str(), c[0].best_s, c[0].train_s),
            ("smo", 12.0, 8.0)
        );
        assert_eq!(
            (c[1].solver.as_str(), c[1].best_s, c[1].train_s),
            ("batched", 6.0, 3.0)
        );
        assert_eq!((c[0].onedal_fit_s, c[1].onedal_fit_s), (4.0, 4.0));
        let md = markdown(&c);
        assert!(
            md.contains("| threads | solver |") && md.contains("| batched |"),
            "{md}"
        );
        let v = verdicts(&c, &ablation(&recs));
        assert!(
            v.contains("2 threads, batched solver: the fastest exact CV"),
            "{v}"
        );
    }
}
