//! The fair ablation of our solver's k-fold CV, as rows: seeding off/on ×
//! kernel cache per solve/shared × solver of the dual (SMO/batched),
//! compared only at equal threads and equal cache budget, from the cells a
//! config runs with `caches` / `threads` / `solvers`.
//!
//! One row per CV run of our solver that records its strategy (order,
//! seeder, cache, threads, solver): the median wall seconds over the cell's
//! timed repetitions with their range, the machine-independent counts (SMO
//! iterations, kernel evaluations), the shares of prediction and seeding in
//! the run, the speed-up against the unseeded run with the same cache,
//! threads, budget and solver, and the speed-up against the same method on
//! the SMO, each with its interval by the one evidence rule.
//!
//! Both sides read these rows: the ablation table (`render/ablation.rs`)
//! and our own speed targets (`verdicts/targets.rs`); they live here, at the
//! kind's top, because a verdict never imports a renderer (issue 55).

use crate::experiments::evidence;
use crate::experiments::svm_cv::rows::{k_num, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::svm_cv::solver_axis::solver_rank;
use crate::experiments::svm_cv::variants::base_method;
use crate::experiments::timing::Spread;
use cvbench_engine::api::strategies::SolverKind;
use std::collections::BTreeMap;

/// One CV run in the ablation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AblationRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k.
    pub k: String,
    /// Threads of the run's pool.
    pub threads: u64,
    /// Kernel-cache budget (MB).
    pub cache_mb: f64,
    /// Cache mode.
    pub cache: String,
    /// Round order.
    pub order: String,
    /// Seeder.
    pub seeder: String,
    /// The solver of the dual ([`cvbench_engine::api::strategies::SolverKind`]; `smo` for runs
    /// stored before the axis).
    pub solver: String,
    /// Timed repetitions.
    pub repeats: u64,
    /// Median wall seconds.
    pub wall_median_s: f64,
    /// Fastest run.
    pub wall_min_s: f64,
    /// Slowest run.
    pub wall_max_s: f64,
    /// The run's CV accuracy, %.
    pub accuracy_pct: f64,
    /// SMO iterations (rounds and extra solves).
    pub iterations: f64,
    /// Kernel values of the solves and of the whole columns asked of the
    /// shared cache, each once (its refills after eviction, which depend on
    /// scheduling, aside).
    pub kernel_evals: f64,
    /// Kernel values of the batched blocks (prediction, seeding; NaN when
    /// not recorded).
    pub block_kernel_evals: f64,
    /// Prediction seconds (first timed run) / median wall seconds, in %.
    pub predict_pct: f64,
    /// Seeding seconds (first timed run) / median wall seconds, in %.
    pub seed_pct: f64,
    /// Every timed run's seconds (empty in runs made before the column; not
    /// written to the ablation table's file).
    #[serde(skip)]
    pub wall_runs: Vec<f64>,
    /// Median wall of the unseeded run with the same cache, threads and
    /// budget, divided by this run's (NaN without one).
    pub speedup_vs_unseeded: f64,
    /// Lower end of the speed-up's 95% interval ([`evidence::ratio`]; NaN
    /// where either run was timed once or there is no unseeded run).
    pub speedup_vs_unseeded_lo: f64,
    /// Upper end.
    pub speedup_vs_unseeded_hi: f64,
    /// Median wall of the same method (round order and seeder) on the SMO
    /// with the same cache, threads and budget, divided by this run's (NaN
    /// without one; 1 for the SMO's own runs).
    pub speedup_vs_smo: f64,
    /// Lower end of its 95% interval (NaN where either run was timed once
    /// or there is no SMO run).
    pub speedup_vs_smo_lo: f64,
    /// Upper end.
    pub speedup_vs_smo_hi: f64,
}

impl AblationRow {
    /// The run's timed runs (median, range, count).
    pub fn spread(&self) -> evidence::Sample {
        evidence::Sample::from(Spread {
            median: self.wall_median_s,
            min: self.wall_min_s,
            max: self.wall_max_s,
            repeats: self.repeats,
            runs: self.wall_runs.clone(),
        })
    }
}

/// The ablation rows of a run's records (empty when no row records its
/// strategy; first-rounds estimates are left out).
pub fn ablation(records: &[SvmRow]) -> Vec<AblationRow> {
    let mut runs: BTreeMap<(String, String, String, String), Vec<&SvmRow>> = BTreeMap::new();
    // Our solver's CV runs: their rounds and extra solves (not one training).
    let cv = |r: &&SvmRow| {
        !r.cache.is_empty() && (r.role.starts_with("round") || r.role.starts_with("extra"))
    };
    for r in records.iter().filter(cv) {
        runs.entry((
            r.core.dataset.clone(),
            r.setting.clone(),
            r.k.clone(),
            r.core.method.clone(),
        ))
        .or_default()
        .push(r);
    }
    let mut out: Vec<(&str, AblationRow)> = runs
        .values()
        // Whole runs only: a first-rounds estimate's wall is no measurement.
        .filter(|rows| first_rounds_of(rows.iter().copied()).is_none())
        .map(|rows| {
            let f = rows[0];
            // The cell's wall covers every timed repetition; the shares are
            // of one run: its median.
            let sum = |g: &dyn Fn(&SvmRow) -> f64| rows.iter().map(|r| g(r)).sum::<f64>();
            // Rounds that ran in parallel sum to more than the wall: the
            // shares are then of the rounds' summed time.
            let busy = sum(&|r| {
                r.init_s.unwrap_or(0.0)
                    + r.train_s
                    + r.predict_s.unwrap_or(0.0)
                    + r.seed_s.unwrap_or(0.0)
            });
            let wall = f
                .wall_median_s
                .unwrap_or(f.cell_wall_s)
                .max(busy)
                .max(1e-12);
            let row = AblationRow {
                dataset: f.core.dataset.clone(),
                setting: f.setting.clone(),
                k: f.k.clone(),
                threads: f.threads,
                cache_mb: f.cache_mb.unwrap_or(f64::NAN),
                cache: f.cache.clone(),
                order: f.order.clone(),
                seeder: f.seeder.clone(),
                solver: f.solver_or_smo().to_string(),
                repeats: f.timing_repeats,
                wall_median_s: f.wall_median_s.unwrap_or(f.cell_wall_s),
                wall_min_s: f.wall_min_s.unwrap_or(f.cell_wall_s),
                wall_max_s: f.wall_max_s.unwrap_or(f.cell_wall_s),
                wall_runs: crate::experiments::timing::parse_runs(&f.wall_runs_s),
                accuracy_pct: f.cv_accuracy_pct.unwrap_or(f64::NAN),
                iterations: sum(&|r| r.iterations as f64),
                kernel_evals: sum(&|r| r.kernel_evals.unwrap_or(0.0))
                    + f.shared_kernel_evals.unwrap_or(0.0),
                block_kernel_evals: f.block_kernel_evals.unwrap_or(f64::NAN),
                predict_pct: 100.0 * sum(&|r| r.predict_s.unwrap_or(0.0)) / wall,
                seed_pct: 100.0 * sum(&|r| r.seed_s.unwrap_or(0.0)) / wall,
                speedup_vs_unseeded: f64::NAN,
                speedup_vs_unseeded_lo: f64::NAN,
                speedup_vs_unseeded_hi: f64::NAN,
                speedup_vs_smo: f64::NAN,
                speedup_vs_smo_lo: f64::NAN,
                speedup_vs_smo_hi: f64::NAN,
            };
            (base_method(&f.core.method), row)
        })
        .collect();
    let same = |a: &AblationRow, b: &AblationRow| {
        (&a.dataset, &a.setting, &a.k, a.threads, &a.cache)
            == (&b.dataset, &b.setting, &b.k, b.threads, &b.cache)
            && a.cache_mb.to_bits() == b.cache_mb.to_bits()
    };
    let smo = SolverKind::Smo.as_str();
    let snapshot = out.clone();
    for (m, r) in &mut out {
        let base = snapshot
            .iter()
            .find(|(_, b)| b.seeder == "zero" && b.solver == r.solver && same(b, r));
        if let Some((_, b)) = base {
            r.speedup_vs_unseeded = b.wall_median_s / r.wall_median_s;
            let x = evidence::ratio(&b.spread(), &r.spread());
            if x.how != evidence::How::Once {
                (r.speedup_vs_unseeded_lo, r.speedup_vs_unseeded_hi) = (x.lo, x.hi);
            }
        }
        // The same method (its order and seeder) on the SMO.
        let on_smo = snapshot
            .iter()
            .find(|(bm, b)| bm == m && b.solver == smo && same(b, r) && b.order == r.order);
        if let Some((_, b)) = on_smo {
            r.speedup_vs_smo = b.wall_median_s / r.wall_median_s;
            let x = evidence::ratio(&b.spread(), &r.spread());
            if x.how != evidence::How::Once && r.solver != smo {
                (r.speedup_vs_smo_lo, r.speedup_vs_smo_hi) = (x.lo, x.hi);
            }
        }
    }
    let mut out: Vec<AblationRow> = out.into_iter().map(|(_, r)| r).collect();
    out.sort_by(|a, b| {
        (&a.dataset, &a.setting)
            .cmp(&(&b.dataset, &b.setting))
            .then(k_num(&a.k).total_cmp(&k_num(&b.k)))
            .then(
                (
                    a.threads,
                    &a.cache,
                    &a.order,
                    &a.seeder,
                    solver_rank(&a.solver),
                )
                    .cmp(&(
                        b.threads,
                        &b.cache,
                        &b.order,
                        &b.seeder,
                        solver_rank(&b.solver),
                    )),
            )
    });
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A test fixture: a fabricated record of one round of a CV run (walls:
    /// the cell's fastest, median and slowest timed runs).
    pub(crate) fn row(
        method: &str,
        seeder: &str,
        cache: &str,
        threads: u64,
        walls: [f64; 3],
    ) -> SvmRow {
        let mut r = SvmRow {
            setting: "s".into(),
            k: "10".into(),
            seeder: seeder.into(),
            order: if seeder == "zero" {
                "per_round"
            } else {
                "chain"
            }
            .into(),
            cache: cache.into(),
            cache_mb: Some(100.0),
            threads,
            timing_repeats: 5,
            wall_median_s: Some(walls[1]),
            wall_min_s: Some(walls[0]),
            wall_max_s: Some(walls[2]),
            cell_wall_s: walls[1],
            iterations: 10,
            role: "round".into(),
            ..SvmRow::default()
        };
        r.core.dataset = "d".into();
        r.core.method = method.into();
        r
    }

    /// A cell timed five times has a wall of five runs; the shares are of
    /// one run (its median), not of the cell.
    #[test]
    fn shares_are_of_one_run_not_of_the_repeated_cell() {
        let mut r = row("sir [shared, 2t]", "sir", "shared", 2, [1.9, 2.0, 2.2]);
        r.cell_wall_s = 10.5;
        r.predict_s = Some(0.2);
        r.seed_s = Some(0.5);
        let a = ablation(&[r]);
        assert!((a[0].predict_pct - 10.0).abs() < 1e-9, "{a:?}");
        assert!((a[0].seed_pct - 25.0).abs() < 1e-9, "{a:?}");
    }

    /// Rounds run in parallel: their summed prediction seconds may exceed
    /// the wall; the share is then of the rounds' summed time, never > 100%.
    #[test]
    fn parallel_rounds_shares_stay_below_one_hundred_percent() {
        let mut rows = Vec::new();
        for _ in 0..4 {
            let mut r = row("ours [shared, 2t]", "zero", "shared", 2, [1.0, 1.0, 1.0]);
            r.train_s = 0.1;
            r.predict_s = Some(0.4);
            rows.push(r);
        }
        let a = ablation(&rows);
        assert!((a[0].predict_pct - 80.0).abs() < 1e-9, "{a:?}");
    }

    /// The whole columns a shared cache filled are kernel values of the run
    /// (MNIST-5k: nearly all of them), counted once per run and once per
    /// column, beside each solve's own.
    #[test]
    fn kernel_values_count_the_shared_cache_once_per_run() {
        let rows: Vec<SvmRow> = (0..3)
            .map(|_| {
                let mut r = row("ours [shared, 2t]", "zero", "shared", 2, [1.0; 3]);
                r.kernel_evals = Some(100.0);
                r.shared_kernel_evals = Some(5000.0);
                // Refills that timing decided are no measure of the method.
                r.shared_extra_kernel_evals_sched = Some(600.0);
                r
            })
            .collect();
        assert_eq!(ablation(&rows)[0].kernel_evals, 5300.0);
    }

    /// A first-rounds estimate (3 of k = 10 rounds) has no measured wall
    /// time to ablate; the whole run beside it stays.
    #[test]
    fn first_rounds_estimates_are_left_out() {
        let run = |m: &str, rounds: i64| -> Vec<SvmRow> {
            (0..rounds)
                .map(|h| SvmRow {
                    fold: h,
                    k_value: 10,
                    ..row(m, "zero", "per_solve", 1, [1.0; 3])
                })
                .collect()
        };
        let mut rows = run("ours [per_solve, 1t]", 3);
        assert!(ablation(&rows).is_empty());
        rows.extend(run("ours [per_solve, 2t]", 10));
        assert_eq!(ablation(&rows).len(), 1);
    }

    #[test]
    fn one_training_and_peer_rows_are_not_cv_runs() {
        let mut train = row("train [per_solve, 2t]", "zero", "per_solve", 2, [1.0; 3]);
        train.role = "train".into();
        let mut v = row("libsvm_v", "", "", 1, [9.0; 3]);
        v.role = "cv".into();
        let cv = row("ours [per_solve, 2t]", "zero", "per_solve", 2, [3.0; 3]);
        let a = ablation(&[train, v, cv]);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].wall_median_s, 3.0);
    }
}
