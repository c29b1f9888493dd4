//! Our own speed targets for the SVM engine, checked on a run's measured
//! rows (checks of ours, not a paper's verdicts): the fastest exact CV in
//! trainings, against `svm-train -v k` and oneDAL's CV, the shares of
//! prediction and seeding, and SIR against the unseeded run at equal cache
//! and threads. The rows are those of the run's cost and ablation tables
//! (`cost_rows.rs`, `ablation_rows.rs` at the kind's top, which the render
//! reads too); the render prints these lines below the tables.
//!
//! Every speed target is judged by the one evidence rule
//! ([`crate::experiments::evidence`]), as the tables' ratios are: met or
//! missed only when the ratio's 95% interval lies on one side of the
//! target, else inconclusive, so that a table and the line under it never
//! disagree. There is no floor on seconds.

use crate::experiments::evidence::{self, Ratio, Side};
use crate::experiments::svm_cv::ablation_rows::AblationRow;
use crate::experiments::svm_cv::cost_rows::CostRow;
use crate::experiments::svm_cv::solver_axis::has_solver_axis;
use cvbench_engine::api::strategies::RoundOrder;

// The SVM engine's targets, each checked on the measured rows.

/// The fastest exact CV costs at most this many trainings.
pub const CV_IN_TRAININGS: f64 = 1.5;
/// It is at least this many times faster than `svm-train -v k`.
pub const VS_SVM_TRAIN_V: f64 = 20.0;
/// And at least this many times faster than oneDAL's CV.
pub const VS_ONEDAL_CV: f64 = 2.0;
/// Prediction takes at most this share (%) of any CV run.
pub const PREDICT_PCT: f64 = 10.0;
/// Seeding takes at most this share (%) of a seeded run.
pub const SEED_PCT: f64 = 25.0;

/// A run's kernel values, `solves and shared cache; blocks` (the blocks'
/// count where recorded).
fn evals(a: &AblationRow) -> String {
    if a.block_kernel_evals.is_nan() {
        format!("{:.3e}", a.kernel_evals)
    } else {
        format!("{:.3e}; {:.3e}", a.kernel_evals, a.block_kernel_evals)
    }
}

/// What the counts of a seeded run `a` against its unseeded run `b` say
/// about a missed speed target (empty where they say nothing simple).
fn reading(a: &AblationRow, b: &AblationRow) -> String {
    let total = |r: &AblationRow| {
        r.kernel_evals
            + if r.block_kernel_evals.is_nan() {
                0.0
            } else {
                r.block_kernel_evals
            }
    };
    let share = total(a) / total(b);
    if share.is_finite() && share >= KERNEL_VALUES_SAVED_BELOW {
        format!(
            "; seeding saved iterations, not kernel values (the seeded run computed {:.0}% of the unseeded run's): the kernel values are the cost here",
            100.0 * share
        )
    } else if a.order == RoundOrder::Chain.as_str() && a.threads > 1 {
        format!(
            "; the chain's rounds run one after another, the unseeded run's {} at a time",
            a.threads
        )
    } else {
        String::new()
    }
}

/// A seeded run that computes at least this share of the unseeded run's
/// kernel values saved none worth its seeding.
const KERNEL_VALUES_SAVED_BELOW: f64 = 0.9;

/// A speed target's answer: `met` when the ratio's interval lies on the
/// `want` side of `threshold`, `**missed**` when on the other, else
/// `inconclusive` and why.
pub fn judged(x: &Ratio, threshold: f64, want: Side) -> String {
    match x.side(threshold) {
        Side::Inconclusive => x.undecided(threshold).unwrap_or_default(),
        s if s == want => "met".to_string(),
        _ => "**missed**".to_string(),
    }
}

/// One line per target and measured row: met, missed or inconclusive by
/// the one evidence rule, with the numbers (a Markdown list; empty without
/// rows).
pub fn verdicts(cost: &[CostRow], runs: &[AblationRow]) -> String {
    let mut out = Vec::new();
    // The solver is named where the run has another than the SMO.
    let axis = has_solver_axis(runs.iter().map(|a| a.solver.as_str()));
    let on = |solver: &str| {
        if axis {
            format!(", {solver} solver")
        } else {
            String::new()
        }
    };
    for r in cost {
        let at = format!(
            "{} {}, k = {}, {} threads{}",
            r.dataset,
            r.setting,
            r.k,
            r.threads,
            on(&r.solver)
        );
        let t = r.in_trainings();
        out.push(format!(
            "- {at}: the fastest exact CV ({}) costs {} trainings (target at most {CV_IN_TRAININGS}): {}",
            r.best,
            t.short(),
            judged(&t, CV_IN_TRAININGS, Side::Below)
        ));
        if let Some(x) = r.vs_svm_train_v() {
            out.push(format!("- {at}: {} faster than `svm-train -v {}` in the same run (target at least {VS_SVM_TRAIN_V}x): {}", x.short(), r.k, judged(&x, VS_SVM_TRAIN_V, Side::Above)));
        }
        if let Some(x) = r.vs_onedal_cv() {
            out.push(format!("- {at}: {} faster than oneDAL's CV on {} threads in the same run (target at least {VS_ONEDAL_CV}x): {}", x.short(), r.onedal_threads, judged(&x, VS_ONEDAL_CV, Side::Above)));
        }
    }
    for a in runs {
        let at = format!(
            "{} {}, k = {}, {} + {}, {} cache, {} threads{}",
            a.dataset,
            a.setting,
            a.k,
            a.order,
            a.seeder,
            a.cache,
            a.threads,
            on(&a.solver)
        );
        if a.predict_pct > PREDICT_PCT {
            out.push(format!(
                "- {at}: prediction takes {:.1}% of the run (target at most {PREDICT_PCT}%): **missed** — {}",
                a.predict_pct,
                if a.block_kernel_evals.is_nan() {
                    format!("the solver computed {:.3e} kernel values (the blocks' count was not recorded in this run)", a.kernel_evals)
                } else {
                    format!("its blocks computed {:.3e} kernel values beside the solver's {:.3e}", a.block_kernel_evals, a.kernel_evals)
                }
            ));
        }
        if a.seeder != "zero" && a.seed_pct > SEED_PCT {
            out.push(format!(
                "- {at}: seeding takes {:.1}% of the run (target at most {SEED_PCT}%): **missed**",
                a.seed_pct
            ));
        }
        let base = runs.iter().find(|b| {
            b.seeder == "zero"
                && (&b.dataset, &b.setting, &b.k, b.threads, &b.cache, &b.solver)
                    == (&a.dataset, &a.setting, &a.k, a.threads, &a.cache, &a.solver)
                && b.cache_mb.to_bits() == a.cache_mb.to_bits()
        });
        if let (true, Some(b)) = (a.seeder == "sir", base) {
            let x = evidence::ratio(&b.spread(), &a.spread());
            let answer = judged(&x, 1.0, Side::Above);
            let why = if answer == "met" {
                String::new()
            } else {
                format!(
                    " — {:.0} SMO iterations against the unseeded run's {:.0}, {} kernel values (solves and shared cache; batched blocks) against {}, seeding {:.1}% and prediction {:.1}% of its time",
                    a.iterations,
                    b.iterations,
                    evals(a),
                    evals(b),
                    a.seed_pct,
                    a.predict_pct,
                ) + &reading(a, b)
            };
            out.push(format!(
                "- {at}: SIR against the unseeded run at equal cache and threads: {} (target: faster){why}: {answer}",
                x.short()
            ));
        }
    }
    if out.is_empty() {
        return String::new();
    }
    format!("**Against the SVM engine's targets** (from the two tables above; a speed target is met or missed only when the 95% interval of its ratio of median times lies on one side of the target, as in the tables, else inconclusive; the shares are of the run's median time)\n\n{}\n", out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::svm_cv::ablation_rows::ablation;
    use crate::experiments::svm_cv::cost_rows::cost;
    use crate::experiments::svm_cv::cost_rows::tests::row;

    #[test]
    fn each_target_flips_on_its_number() {
        // Five runs each within 1% of the median (the fixture).
        let recs = |best: f64, sir: f64| {
            [
                row("ours [shared, 2t]", "zero", "round", 2, 30.0),
                row("sir [shared, 2t]", "sir", "round", 2, sir),
                row("train [per_solve, 2t]", "zero", "train", 2, 8.0),
                row("libsvm_v", "", "cv", 1, 240.0),
                row("onedal [2t]", "", "cv", 2, 24.0),
            ]
            .map(|mut r| {
                if r.core.method.starts_with("sir") {
                    r.wall_median_s = Some(best);
                    r.wall_min_s = Some(0.99 * best);
                    r.wall_max_s = Some(1.01 * best);
                }
                r
            })
        };
        let verdicts_of = |best: f64| {
            let r = recs(best, best);
            verdicts(&cost(&r), &ablation(&r))
        };
        // 1.25 trainings: met; 24x svm-train: met; 2.4x oneDAL: met; SIR 3x: met.
        let v = verdicts_of(10.0);
        assert_eq!(v.matches(": met").count(), 4, "{v}");
        assert!(
            !v.contains("**missed**") && !v.contains("inconclusive:"),
            "{v}"
        );
        // 1.75 trainings, 17.1x svm-train, 1.7x oneDAL: missed; SIR 2.1x: met.
        let v = verdicts_of(14.0);
        assert_eq!(v.matches("**missed**").count(), 3, "{v}");
        // 1.5 trainings, 20x, 2x: each interval holds its target.
        let v = verdicts_of(12.0);
        assert_eq!(v.matches("inconclusive: ").count(), 3, "{v}");
        assert!(v.contains("1.50x [1.47, 1.53] trainings"), "{v}");
        // SIR slower than the unseeded run: missed, with the counts.
        let v = verdicts_of(31.0);
        assert!(
            v.contains("SMO iterations against the unseeded run's") && v.contains("0.97x"),
            "{v}"
        );
        // No floor: a 0.01 s CV is judged by its repeats like any other.
        let r = recs(0.01, 0.01).map(|mut r| {
            for x in [&mut r.wall_median_s, &mut r.wall_min_s, &mut r.wall_max_s] {
                *x = x.map(|s| s / 1000.0);
            }
            r
        });
        let v = verdicts(&cost(&r), &ablation(&r));
        assert!(!v.contains("too short"), "{v}");
        // Shares: prediction twice (both runs), seeding once (SIR only).
        let mut shares = ablation(&recs(10.0, 10.0));
        for r in &mut shares {
            r.predict_pct = 11.0;
            r.seed_pct = 26.0;
        }
        assert_eq!(verdicts(&[], &shares).matches("**missed**").count(), 3);
    }

    /// A timed-once cell decides nothing, in the table and under it alike
    /// (issue 57: `ablation-a9a-k100` said "timed once: inconclusive" in its
    /// table and "met" two lines below).
    #[test]
    fn a_cell_timed_once_is_inconclusive_in_the_line_as_in_the_table() {
        let mut r = [
            row("ours [shared, 2t]", "zero", "round", 2, 300.0),
            row("sir [shared, 2t]", "sir", "round", 2, 22.0),
        ];
        r[0].timing_repeats = 1;
        let a = ablation(&r);
        let v = verdicts(&[], &a);
        assert!(
            v.contains("13.64x (timed once: no interval) (target: faster)"),
            "{v}"
        );
        assert!(!v.contains(": met") && v.contains("inconclusive: "), "{v}");
    }

    /// A missed speed target says what the counts show: kernel values
    /// not saved, or a chain against rounds run in parallel.
    #[test]
    fn a_missed_speed_target_reads_its_counts() {
        let a = ablation(&[
            row("ours [shared, 2t]", "zero", "round", 2, 30.0),
            row("sir [shared, 2t]", "sir", "round", 2, 12.0),
        ]);
        let pick = |seeder: &str| a.iter().find(|r| r.seeder == seeder).unwrap().clone();
        let (mut b, mut s) = (pick("zero"), pick("sir"));
        (b.kernel_evals, b.block_kernel_evals) = (100.0, 0.0);
        (s.kernel_evals, s.block_kernel_evals) = (80.0, 15.0);
        s.order = "chain".into();
        assert!(reading(&s, &b).contains("not kernel values (the seeded run computed 95%"));
        s.kernel_evals = 10.0;
        assert!(reading(&s, &b).contains("one after another, the unseeded run's 2 at a time"));
        s.order = "two_chains".into();
        assert_eq!(reading(&s, &b), "");
    }
}
