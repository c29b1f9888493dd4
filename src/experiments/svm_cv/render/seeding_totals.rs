//! The seeding tables' arithmetic, shared by the run's seeding section, the
//! benchmark and the flips list: the methods in table order, a run's rows
//! grouped per (dataset, setting, k) and method, their totals, the speed-up
//! between two of them and the exactness of a seeded run against the
//! baseline.

use std::collections::{BTreeMap, BTreeSet};

use crate::experiments::svm_cv::rows::{Key, SvmRow};
use crate::experiments::svm_cv::verdicts::scorecard_rules::{compare_times, Spread};
use cvbench_engine::api::strategies::SeedingMethod;

/// The baseline and the seeded methods, in table order: `ours` and every
/// seeded preset of the registry ([`SeedingMethod::ALL`]).
pub(super) fn methods() -> Vec<&'static str> {
    std::iter::once("ours")
        .chain(
            SeedingMethod::ALL
                .iter()
                .filter(|m| **m != SeedingMethod::None)
                .map(|m| m.as_str()),
        )
        .collect()
}

/// Totals of one (dataset, setting, k, method) run.
#[derive(Clone, Debug, Default)]
pub(super) struct RunTotals {
    /// Seeding seconds plus the solver set-up of seeded solves.
    pub init_s: f64,
    /// Everything else: SMO, prediction, extra solves' SMO.
    pub rest_s: f64,
    /// SMO iterations of the rounds and the extra solves.
    pub iterations: f64,
    /// CV accuracy %.
    pub accuracy: f64,
    /// Majority-class rate %.
    pub majority: f64,
    /// Rounds.
    pub rounds: usize,
    /// The cell's wall seconds (the median of its timed runs), where the
    /// records have them.
    pub wall_s: Option<f64>,
}

impl RunTotals {
    /// init + rest.
    pub fn total(&self) -> f64 {
        self.init_s + self.rest_s
    }
}

/// Group round and extra rows of our solver's methods by (dataset, setting, k) and method.
pub(super) fn group(rows: &[SvmRow]) -> BTreeMap<Key, BTreeMap<String, Vec<&SvmRow>>> {
    let mut out: BTreeMap<Key, BTreeMap<String, Vec<&SvmRow>>> = BTreeMap::new();
    let methods = methods();
    for r in rows {
        let m = &r.core.method;
        if !methods.contains(&m.as_str()) {
            continue;
        }
        out.entry((r.core.dataset.clone(), r.setting.clone(), r.k.clone()))
            .or_default()
            .entry(m.clone())
            .or_default()
            .push(r);
    }
    out
}

/// The totals of one method's rows.
pub(super) fn totals(rows: &[&SvmRow], method: &str) -> RunTotals {
    let mut t = RunTotals::default();
    for r in rows {
        let seed = r.seed_s.unwrap_or(0.0);
        let init = r.init_s.unwrap_or(f64::NAN);
        let predict = r.predict_s.unwrap_or(f64::NAN);
        let seeded = method != "ours" && r.fold >= 0 && seed > 0.0;
        let (i, rest) = if seeded {
            (seed + init, r.train_s + predict)
        } else {
            (seed, init + r.train_s + predict.max(0.0))
        };
        t.init_s += i;
        t.rest_s += rest;
        t.iterations += r.iterations as f64;
        if r.fold >= 0 {
            t.rounds += 1;
        }
    }
    if let Some(r) = rows.first() {
        t.accuracy = r.cv_accuracy_pct.unwrap_or(f64::NAN);
        t.majority = r.majority_pct;
    }
    t.wall_s = rows
        .iter()
        .find(|r| r.fold >= 0)
        .and_then(|r| r.wall_median_s);
    t
}

/// A method's speed-up over the baseline, from the seconds
/// [`compare_times`] chooses (the one place that decides between the
/// cells' wall seconds and the summed round seconds): the wall medians
/// where both cells have them (w8a, k = 100, 2 threads: the baseline's
/// 752 s summed are 377 s of wall time).
pub(super) fn speedup(base: &RunTotals, t: &RunTotals) -> f64 {
    let wall = |s: f64| Spread {
        median: s,
        min: s,
        max: s,
        repeats: 1,
        runs: Vec::new(),
    };
    let (b, m, _) = compare_times(
        base.total(),
        t.total(),
        (base.wall_s.map(wall), t.wall_s.map(wall)),
    );
    b / m
}

/// Exactness of a seeded run against the baseline: the largest relative
/// objective gap over folds, the folds whose correct count differs, and the
/// held-out rows whose prediction flipped (from `wrong_rows`).
pub(super) fn exactness(base: &[&SvmRow], got: &[&SvmRow]) -> (f64, Vec<(i64, usize)>, usize) {
    let by_fold = |rows: &[&SvmRow]| -> BTreeMap<i64, (f64, u64, BTreeSet<String>)> {
        rows.iter()
            .filter(|r| r.fold >= 0)
            .map(|r| {
                let wrong = r
                    .wrong_rows
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                (r.fold, (r.objective.unwrap_or(f64::NAN), r.correct, wrong))
            })
            .collect()
    };
    let (b, g) = (by_fold(base), by_fold(got));
    let mut gap = 0.0f64;
    let mut folds = Vec::new();
    let mut flipped = 0;
    for (h, (ob, cb, wb)) in &b {
        let Some((og, cg, wg)) = g.get(h) else {
            gap = f64::INFINITY;
            continue;
        };
        gap = gap.max((ob - og).abs() / ob.abs().max(1e-12));
        let flips = wb.symmetric_difference(wg).count();
        flipped += flips;
        if cb != cg || flips > 0 {
            folds.push((*h, flips));
        }
    }
    (gap, folds, flipped)
}

/// Seconds for a table: `–` when unknown, fewer decimals when large.
pub(super) fn fmt_s(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.4}")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::results::rows::Core;

    /// Issue 18: the speed-up is a ratio of wall seconds; summed round
    /// seconds count a per-round baseline's parallel rounds once each.
    #[test]
    fn speedup_uses_wall_seconds_where_the_records_have_them() {
        let t = |rest_s: f64, wall_s: Option<f64>| RunTotals {
            rest_s,
            wall_s,
            ..RunTotals::default()
        };
        // w8a, k = 100, 2 threads: 752 s summed, 377 s wall; SIR 38 s, 39 s.
        let x = speedup(&t(752.0, Some(377.0)), &t(38.0, Some(39.0)));
        assert!((x - 377.0 / 39.0).abs() < 1e-12, "{x}");
        assert_eq!(speedup(&t(8.0, None), &t(2.0, Some(1.0))), 4.0);
    }

    /// A seeder the config can run but the tables drop would be silent
    /// data loss: every preset of the registry is a config method and a
    /// table row.
    #[test]
    fn every_seeding_preset_is_a_config_method_and_a_table_row() {
        use crate::experiments::svm_cv::config::Method;
        let shown = methods();
        for &m in SeedingMethod::ALL {
            if m == SeedingMethod::None {
                continue;
            }
            let parsed: Method =
                serde::Deserialize::deserialize(serde::de::value::StrDeserializer::<
                    serde::de::value::Error,
                >::new(m.as_str()))
                .unwrap_or_else(|e| panic!("preset {m} is not a config method: {e}"));
            assert_eq!(parsed.seeding(), Some(m));
            assert_eq!(parsed.as_str(), m.as_str());
            assert!(shown.contains(&m.as_str()), "preset {m} has no table row");
        }
    }

    pub fn row(method: &str, fold: i64, obj: f64, correct: u64, wrong: &str) -> SvmRow {
        SvmRow {
            core: Core {
                dataset: "synthetic-d".into(),
                method: method.into(),
                ..Core::default()
            },
            setting: "paper".into(),
            k: "10".into(),
            fold,
            objective: Some(obj),
            correct,
            wrong_rows: wrong.into(),
            iterations: 100,
            init_s: Some(0.01),
            train_s: 1.0,
            predict_s: Some(0.1),
            seed_s: Some(if method == "ours" { 0.0 } else { 0.02 }),
            cv_accuracy_pct: Some(90.0),
            majority_pct: 50.0,
            cell_wall_s: 1.2,
            ..SvmRow::default()
        }
    }

    #[test]
    fn exactness_counts_flipped_rows_and_objective_gaps() {
        let base = [
            row("ours", 0, -10.0, 8, "3 5"),
            row("ours", 1, -12.0, 9, "14"),
        ];
        let same = [
            row("sir", 0, -10.000001, 8, "3 5"),
            row("sir", 1, -12.0, 9, "14"),
        ];
        let b: Vec<&SvmRow> = base.iter().collect();
        let (gap, folds, flipped) = exactness(&b, &same.iter().collect::<Vec<_>>());
        assert!(gap < 1e-6 && folds.is_empty() && flipped == 0);
        // One row flips in fold 1 (14 now right, 17 now wrong): two rows differ.
        let moved = [
            row("sir", 0, -10.0, 8, "3 5"),
            row("sir", 1, -12.0, 9, "17"),
        ];
        let (_, folds, flipped) = exactness(&b, &moved.iter().collect::<Vec<_>>());
        assert_eq!((folds, flipped), (vec![(1, 2)], 2));
        // A gap beyond 1e-3 relative is reported as such.
        let far = [
            row("sir", 0, -10.1, 8, "3 5"),
            row("sir", 1, -12.0, 9, "14"),
        ];
        let (gap, _, _) = exactness(&b, &far.iter().collect::<Vec<_>>());
        assert!(gap > 1e-3);
    }
}
