//! Our solver against LIBSVM's `svm-train` on the same training folds: one
//! [`PeerRow`] per fold (`vs_libsvm.{csv,parquet}`) and the acceptance
//! checks per (dataset, setting, k) over them ([`CheckRow`],
//! `svm-vs-libsvm.{csv,parquet}`). A fold whose training rows hold one class
//! is LIBSVM's degenerate case: no solve on either side (a model that
//! predicts that class), compared as such ([`PeerRow::one_class`]).

use crate::experiments::svm_cv::rows::{Key, RunKey, SvmRow};
use crate::experiments::svm_cv::seeded::ROLE_ONE_CLASS;
use serde::Serialize;
use std::collections::BTreeMap;

/// A row of `vs_libsvm.{csv,parquet}`: one fold where both `ours` and
/// `libsvm` (svm-train on the same training fold) ran.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PeerRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// The fold.
    pub fold: i64,
    /// Our objective.
    pub obj_ours: f64,
    /// svm-train's objective.
    pub obj_libsvm: f64,
    /// |ours - svm-train| / |svm-train|.
    pub obj_rel_diff: f64,
    /// Our support vectors.
    pub nsv_ours: f64,
    /// svm-train's support vectors.
    pub nsv_libsvm: f64,
    /// |ours - svm-train| / max(svm-train, 1).
    pub nsv_rel_diff: f64,
    /// Our correct held-out predictions.
    pub correct_ours: f64,
    /// svm-predict's.
    pub correct_libsvm: f64,
    /// Our SMO iterations.
    pub iter_ours: f64,
    /// svm-train's.
    pub iter_libsvm: f64,
    /// ours / max(svm-train, 1).
    pub iter_ratio: f64,
    /// Our init + train seconds.
    pub time_ours_s: f64,
    /// The svm-train process's seconds.
    pub time_libsvm_s: f64,
    /// ours / svm-train.
    pub time_ratio: f64,
    /// The training fold held one class: LIBSVM's degenerate case (no solve
    /// on either side, objective 0, a model predicting that class), compared
    /// as such.
    pub one_class: bool,
}

/// A row of `svm-vs-libsvm.{csv,parquet}`: the acceptance checks of one
/// (run, dataset, setting, k) over its folds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CheckRow {
    /// The run (empty within one run's render).
    pub run: String,
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// Folds compared.
    pub folds: u64,
    /// Largest relative objective difference.
    pub max_obj_rel_diff: f64,
    /// Largest relative nSV difference.
    pub max_nsv_rel_diff: f64,
    /// `yes` or `NO`.
    pub same_accuracy_every_fold: String,
    /// Smallest iteration ratio.
    pub iter_ratio_min: f64,
    /// Largest iteration ratio.
    pub iter_ratio_max: f64,
    /// Median time ratio.
    pub time_ratio_median: f64,
    /// Largest time ratio.
    pub time_ratio_max: f64,
    /// `pass` or `FAIL`.
    pub checks: String,
}
/// One row per fold where both `ours` and `libsvm` ran: objectives, nSV,
/// correct predictions, iterations and times side by side.
pub fn peer_comparison(runs: &BTreeMap<RunKey, Vec<&SvmRow>>) -> Vec<PeerRow> {
    let mut cmp = Vec::new();
    for ((d, st, k, m), rows) in runs {
        if m != "ours" {
            continue;
        }
        let Some(peer_rows) = runs.get(&(d.clone(), st.clone(), k.clone(), "libsvm".to_string()))
        else {
            continue;
        };
        for r in rows {
            let Some(p) = peer_rows.iter().find(|p| p.fold == r.fold) else {
                continue;
            };
            let o1 = r.objective.unwrap_or(f64::NAN);
            let o2 = p.objective.unwrap_or(f64::NAN);
            let ours_t = r.init_s.unwrap_or(f64::NAN) + r.train_s;
            let (nsv_ours, nsv_libsvm) = (r.n_sv as f64, p.n_sv as f64);
            let (iter_ours, iter_libsvm) = (r.iterations as f64, p.iterations as f64);
            let one_class = r.role == ROLE_ONE_CLASS && p.role == ROLE_ONE_CLASS;
            cmp.push(PeerRow {
                dataset: d.clone(),
                setting: st.clone(),
                k: k.clone(),
                fold: r.fold,
                obj_ours: o1,
                obj_libsvm: o2,
                obj_rel_diff: ((o1 - o2) / o2.abs().max(1e-300)).abs(),
                nsv_ours,
                nsv_libsvm,
                nsv_rel_diff: (nsv_ours - nsv_libsvm).abs() / nsv_libsvm.max(1.0),
                correct_ours: r.correct as f64,
                correct_libsvm: p.correct as f64,
                iter_ours,
                iter_libsvm,
                iter_ratio: if iter_ours == iter_libsvm {
                    1.0
                } else {
                    iter_ours / iter_libsvm.max(1.0)
                },
                time_ours_s: ours_t,
                time_libsvm_s: p.train_s,
                time_ratio: ours_t / p.train_s,
                one_class,
            });
        }
    }
    cmp
}

/// The acceptance checks per (dataset, setting, k) over the per-fold
/// comparison: objective within 1e-3 relative, nSV within 1%, the same
/// accuracy on every fold, iterations within ±10%; with the median time ratio.
pub fn check_groups(cmp: &[PeerRow]) -> Vec<CheckRow> {
    let mut groups: BTreeMap<Key, Vec<&PeerRow>> = BTreeMap::new();
    for r in cmp {
        groups
            .entry((r.dataset.clone(), r.setting.clone(), r.k.clone()))
            .or_default()
            .push(r);
    }
    let mut out = Vec::new();
    for ((d, st, k), rows) in groups {
        // A NaN (a missing objective) fails the check, never passes it.
        let max = |f: fn(&PeerRow) -> f64| {
            rows.iter()
                .map(|r| f(r))
                .fold(0.0f64, |a, v| if v.is_nan() || v > a { v } else { a })
        };
        let same = rows.iter().all(|r| r.correct_ours == r.correct_libsvm);
        let (imin, imax) = rows
            .iter()
            .map(|r| r.iter_ratio)
            .fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let mut tr: Vec<f64> = rows
            .iter()
            .map(|r| r.time_ratio)
            .filter(|v| v.is_finite())
            .collect();
        tr.sort_by(f64::total_cmp);
        let med = tr.get(tr.len() / 2).copied().unwrap_or(f64::NAN);
        let (obj, nsv) = (max(|r| r.obj_rel_diff), max(|r| r.nsv_rel_diff));
        let ok = obj <= 1e-3 && nsv <= 0.01 && same && imin >= 0.9 && imax <= 1.1;
        out.push(CheckRow {
            run: String::new(),
            dataset: d,
            setting: st,
            k,
            folds: rows.len() as u64,
            max_obj_rel_diff: obj,
            max_nsv_rel_diff: nsv,
            same_accuracy_every_fold: if same { "yes" } else { "NO" }.into(),
            iter_ratio_min: imin,
            iter_ratio_max: imax,
            time_ratio_median: med,
            time_ratio_max: tr.last().copied().unwrap_or(f64::NAN),
            checks: if ok { "pass" } else { "FAIL" }.into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    fn row(method: &str, fold: i64, role: &str, obj: Option<f64>, iters: u64) -> SvmRow {
        SvmRow {
            core: Core {
                dataset: "d".into(),
                method: method.into(),
                ..Core::default()
            },
            setting: "s".into(),
            k: "40".into(),
            fold,
            role: role.into(),
            objective: obj,
            iterations: iters,
            n_sv: if iters > 0 { 5 } else { 0 },
            correct: 1,
            train_s: 0.1,
            init_s: Some(0.0),
            ..SvmRow::default()
        }
    }

    /// Issue 40, 8: a training fold with one class is LIBSVM's degenerate
    /// case on both sides: its objective compares as 0 (not NaN), it says
    /// so, and it does not fail the group.
    #[test]
    fn a_one_class_training_fold_is_compared_as_libsvms_degenerate_case() {
        let rows = vec![
            row("ours", 0, "round", Some(-10.0), 20),
            row("libsvm", 0, "round", Some(-10.0), 20),
            row("ours", 1, ROLE_ONE_CLASS, Some(0.0), 0),
            row("libsvm", 1, ROLE_ONE_CLASS, Some(0.0), 0),
        ];
        let cmp = peer_comparison(&crate::experiments::svm_cv::rows::by_run(&rows));
        assert_eq!(cmp.len(), 2);
        let deg = cmp.iter().find(|r| r.fold == 1).unwrap();
        assert!(deg.one_class);
        assert_eq!((deg.obj_rel_diff, deg.iter_ratio), (0.0, 1.0));
        assert!(!cmp.iter().find(|r| r.fold == 0).unwrap().one_class);
        let g = check_groups(&cmp);
        assert_eq!(g[0].checks, "pass", "{g:?}");
        // A missing objective is a failure, never a silent pass.
        let mut bad = rows.clone();
        bad[3].objective = None;
        let g = check_groups(&peer_comparison(&crate::experiments::svm_cv::rows::by_run(
            &bad,
        )));
        assert_eq!(g[0].checks, "FAIL", "{g:?}");
        assert!(g[0].max_obj_rel_diff.is_nan());
    }
}
