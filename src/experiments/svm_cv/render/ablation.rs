//! The fair ablation of our solver's k-fold CV as a Markdown table: the
//! rows of [`crate::experiments::svm_cv::ablation_rows`] (seeding off/on ×
//! kernel cache per solve/shared × solver of the dual, compared only at
//! equal threads and equal cache budget), with the speed-ups against the
//! unseeded run and against the same method on the SMO (the solver column
//! and that speed-up are shown where the run has another solver).

use super::markdown::speedup_cell;
use crate::experiments::evidence;
use crate::experiments::svm_cv::ablation_rows::AblationRow;
use crate::experiments::svm_cv::solver_axis::has_solver_axis;
use crate::results::md_table::MdTable;
use cvbench_engine::api::strategies::SolverKind;

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
    use crate::experiments::svm_cv::ablation_rows::ablation;
    use crate::experiments::svm_cv::ablation_rows::tests::row;
    use crate::experiments::svm_cv::rows::SvmRow;

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
        // Against the shared-cache baseline, not the per-solve one.
        assert_eq!(get("sir", "shared", 2).speedup_vs_unseeded, 1.0);
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
