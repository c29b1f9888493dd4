//! The fair ablation of our solver's k-fold CV: seeding off/on × kernel
//! cache per solve/shared × solver of the dual (SMO/batched), compared only
//! at equal threads and equal cache budget, from the cells a config runs
//! with `caches` / `threads` / `solvers`.
//!
//! One row per CV run of our solver that records its strategy (order,
//! seeder, cache, threads, solver): the median wall seconds over the cell's
//! timed repetitions with their range, the machine-independent counts (SMO
//! iterations, kernel evaluations), the shares of prediction and seeding in
//! the run, the speed-up against the unseeded run with the same cache,
//! threads, budget and solver (a speed-up whose ranges overlap is marked
//! so), and the speed-up against the same method on the SMO (the solver
//! column and that speed-up are shown where the run has another solver).

use crate::experiments::evidence;
use crate::experiments::svm_cv::rows::{k_num, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::svm_cv::variants::base_method;
use crate::experiments::timing::Spread;
use crate::results::md_table::MdTable;
use crate::svm::SolverKind;

use super::solver_axis::{has_solver_axis, solver_rank, speedup_cell};
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
    /// The solver of the dual ([`crate::svm::SolverKind`]; `smo` for runs
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
    /// Median wall of the unseeded run with the same cache, threads and
    /// budget, divided by this run's (NaN without one).
    pub speedup_vs_unseeded: f64,
    /// Whether this run's and the unseeded run's [min, max] ranges overlap.
    pub within_spread: bool,
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
                accuracy_pct: f.cv_accuracy_pct.unwrap_or(f64::NAN),
                iterations: sum(&|r| r.iterations as f64),
                kernel_evals: sum(&|r| r.kernel_evals.unwrap_or(0.0))
                    + f.shared_kernel_evals.unwrap_or(0.0),
                block_kernel_evals: f.block_kernel_evals.unwrap_or(f64::NAN),
                predict_pct: 100.0 * sum(&|r| r.predict_s.unwrap_or(0.0)) / wall,
                seed_pct: 100.0 * sum(&|r| r.seed_s.unwrap_or(0.0)) / wall,
                speedup_vs_unseeded: f64::NAN,
                within_spread: false,
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
            r.within_spread = r.wall_min_s <= b.wall_max_s && b.wall_min_s <= r.wall_max_s;
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

/// The ablation as a Markdown table with its lead paragraph (empty without
/// rows).
pub fn markdown(rows: &[AblationRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let axis = has_solver_axis(rows.iter().map(|r| r.solver.as_str()));
    let mut head: Vec<&str> =
        "dataset | setting | k | threads | cache | budget MB | order | seeder | wall s: median (min-max, runs) | #iter | kernel evals (solves + shared cache) | kernel evals (blocks) | predict % | seeding % | vs unseeded, same cache and threads"
            .split(" | ")
            .collect();
    if axis {
        head.insert(8, "solver");
        head.push("vs the SMO, same method, cache and threads");
    }
    let mut t = MdTable::new(head);
    for r in rows {
        let speed = if r.speedup_vs_unseeded.is_nan() {
            "no unseeded run".to_string()
        } else if r.seeder == "zero" {
            "reference".to_string()
        } else {
            speedup_cell(
                r.speedup_vs_unseeded,
                r.speedup_vs_unseeded_lo,
                r.speedup_vs_unseeded_hi,
            )
        };
        let mut setup = vec![
            r.cache.clone(),
            format!("{:.0}", r.cache_mb),
            r.order.clone(),
            r.seeder.clone(),
        ];
        if axis {
            setup.push(r.solver.clone());
        }
        let vs_smo = if r.speedup_vs_smo.is_nan() {
            "no SMO run".to_string()
        } else if r.solver == SolverKind::Smo.as_str() {
            "reference".to_string()
        } else {
            speedup_cell(r.speedup_vs_smo, r.speedup_vs_smo_lo, r.speedup_vs_smo_hi)
        };
        let mut row: Vec<String> = [&r.dataset, &r.setting, &r.k]
            .into_iter()
            .cloned()
            .chain([r.threads.to_string()])
            .chain(setup)
            .chain([
                format!(
                    "{:.3} ({:.3}-{:.3}, {})",
                    r.wall_median_s, r.wall_min_s, r.wall_max_s, r.repeats
                ),
                format!("{:.0}", r.iterations),
                format!("{:.3e}", r.kernel_evals),
                if r.block_kernel_evals.is_nan() {
                    "not recorded".into()
                } else {
                    format!("{:.3e}", r.block_kernel_evals)
                },
                format!("{:.1}", r.predict_pct),
                format!("{:.1}", r.seed_pct),
                speed,
            ])
            .collect();
        if axis {
            row.push(vs_smo);
        }
        t.row(row);
    }
    let solvers = if axis {
        " × solver of the dual (the LIBSVM-identical SMO, or the batched working-set solver, whose optimum is the SMO's to the stopping tolerance; each method on another solver is compared with itself on the SMO)"
    } else {
        ""
    };
    format!(
        "**Seeding × kernel cache{solvers} at equal threads and budget** (each run's wall seconds: median of its timed repetitions, with their range; iterations and kernel evaluations (the solves' own and the whole columns the shared cache filled; beside them the values of the batched blocks of prediction and seeding) are the machine-independent measure; a speed-up carries its 95% interval and counts only where the interval lies on one side of 1 (the evidence rule: {}), else the cell says inconclusive; predict % and seeding % are the first timed run's prediction and seeding seconds over the median wall time (over the rounds' summed seconds where rounds ran in parallel and sum to more); a seeded run is compared only with the unseeded run of the same cache mode, threads and budget)\n\n{}\n",
        evidence::RULE,
        t.markdown()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, seeder: &str, cache: &str, threads: u64, walls: [f64; 3]) -> SvmRow {
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

    #[test]
    fn seeded_runs_compare_only_with_the_same_cache_and_threads() {
        let recs = vec![
            row(
                "ours [per_solve, 2t]",
                "zero",
                "per_solve",
                2,
                [9.0, 10.0, 11.0],
            ),
            row("ours [shared, 2t]", "zero", "shared", 2, [3.0, 4.0, 5.0]),
            row(
                "sir [per_solve, 2t]",
                "sir",
                "per_solve",
                2,
                [4.0, 5.0, 6.0],
            ),
            row("sir [shared, 2t]", "sir", "shared", 2, [3.5, 4.0, 4.5]),
            row("sir [shared, 1t]", "sir", "shared", 1, [7.0, 8.0, 9.0]),
        ];
        let a = ablation(&recs);
        let get = |m: &str, c: &str, t: u64| {
            a.iter()
                .find(|r| r.seeder == m && r.cache == c && r.threads == t)
                .unwrap()
                .clone()
        };
        assert_eq!(get("sir", "per_solve", 2).speedup_vs_unseeded, 2.0);
        assert!(!get("sir", "per_solve", 2).within_spread);
        // Against the shared-cache baseline, not the per-solve one.
        assert_eq!(get("sir", "shared", 2).speedup_vs_unseeded, 1.0);
        assert!(get("sir", "shared", 2).within_spread);
        // No unseeded run on 1 thread: no comparison.
        assert!(get("sir", "shared", 1).speedup_vs_unseeded.is_nan());
        let md = markdown(&a);
        assert!(
            md.contains("1.00x [0.67, 1.43] (inconclusive: the interval holds 1)")
                && md.contains("2.00x [1.50, 2.75]")
                && md.contains("no unseeded run"),
            "{md}"
        );
        // Issue 43: milliseconds whose repeats decide are evidence (the
        // 0.5 s floor is gone); a cell timed once has no interval.
        let quick = vec![
            row("ours [shared, 2t]", "zero", "shared", 2, [0.03, 0.04, 0.05]),
            row("sir [shared, 2t]", "sir", "shared", 2, [0.01, 0.01, 0.01]),
        ];
        let md = markdown(&ablation(&quick));
        assert!(
            md.contains("4.00x [3.00, 5.00]") && !md.contains("too short"),
            "{md}"
        );
        let mut once = quick.clone();
        once.iter_mut().for_each(|r| r.timing_repeats = 1);
        assert!(markdown(&ablation(&once)).contains("timed once: no interval"));
    }

    /// Issue 44: each method on the batched solver against itself on the
    /// SMO at equal cache and threads, and against its own solver's
    /// unseeded run; the solver column shows only where the run has it.
    #[test]
    fn another_solver_compares_with_the_same_method_on_the_smo() {
        let batched = |m: &str, seeder: &str, walls| SvmRow {
            solver: SolverKind::Batched.as_str().into(),
            ..row(m, seeder, "shared", 2, walls)
        };
        let smo_only = vec![
            row("ours [shared, 2t]", "zero", "shared", 2, [9.0, 10.0, 11.0]),
            row("sir [shared, 2t]", "sir", "shared", 2, [4.0, 5.0, 6.0]),
        ];
        let before = markdown(&ablation(&smo_only));
        assert!(
            !before.contains("solver") && !before.contains("SMO"),
            "{before}"
        );
        let mut recs = smo_only.clone();
        recs.push(batched(
            "ours [shared, 2t, batched]",
            "zero",
            [4.0, 5.0, 6.0],
        ));
        recs.push(batched("sir [shared, 2t, batched]", "sir", [1.5, 2.0, 2.5]));
        let a = ablation(&recs);
        assert_eq!(a.len(), 4);
        let get = |seeder: &str, solver: &str| {
            a.iter()
                .find(|r| r.seeder == seeder && r.solver == solver)
                .unwrap()
                .clone()
        };
        // Side by side, the SMO first.
        let order: Vec<(&str, &str)> = a
            .iter()
            .map(|r| (r.seeder.as_str(), r.solver.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                ("sir", "smo"),
                ("sir", "batched"),
                ("zero", "smo"),
                ("zero", "batched")
            ]
        );
        assert_eq!(get("zero", "batched").speedup_vs_smo, 2.0);
        assert_eq!(get("sir", "batched").speedup_vs_smo, 2.5);
        assert_eq!(get("sir", "smo").speedup_vs_smo, 1.0);
        // Seeding on the batched solver against the batched unseeded run.
        assert_eq!(get("sir", "batched").speedup_vs_unseeded, 2.5);
        assert_eq!(get("sir", "smo").speedup_vs_unseeded, 2.0);
        let md = markdown(&a);
        assert!(
            md.contains("| seeder | solver |")
                && md.contains("vs the SMO, same method, cache and threads")
                && md.contains("| batched |")
                && md.contains("2.50x [")
                && md.contains("reference |"),
            "{md}"
        );
        // Without an SMO run of the method: no comparison.
        let alone = ablation(&recs[2..]);
        assert!(alone.iter().all(|r| r.speedup_vs_smo.is_nan()));
        assert!(markdown(&alone).contains("no SMO run"));
    }
}
