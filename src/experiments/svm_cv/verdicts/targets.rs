//! Our own speed targets for the SVM engine, checked on a run's measured
//! rows (checks of ours, not a paper's verdicts): the fastest exact CV in
//! trainings, against `svm-train -v k` and oneDAL's CV, the shares of
//! prediction and seeding, and SIR against the unseeded run at equal cache
//! and threads. The rows are those of the run's cost and ablation tables
//! (`cost_rows.rs`, `ablation_rows.rs` at the kind's top, which the render
//! reads too); the render prints these lines below the tables.

use crate::experiments::svm_cv::ablation_rows::AblationRow;
use crate::experiments::svm_cv::cost_rows::{CostRow, MIN_EVIDENCE_S};
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

/// One line per target and measured row: met or missed, with the numbers
/// (a Markdown list; empty without rows). Times under
/// [`MIN_EVIDENCE_S`] are no evidence either way.
pub fn verdicts(cost: &[CostRow], runs: &[AblationRow]) -> String {
    let mut out = Vec::new();
    let mark = |ok: bool| if ok { "met" } else { "**missed**" };
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
        if r.best_s < MIN_EVIDENCE_S {
            out.push(format!(
                "- {at}: the CV takes {:.3} s, too short to be evidence for the speed targets",
                r.best_s
            ));
            continue;
        }
        out.push(format!(
            "- {at}: the fastest exact CV ({}) costs {:.2} trainings (target at most {CV_IN_TRAININGS}): {}",
            r.best, r.cv_in_trainings, mark(r.cv_in_trainings <= CV_IN_TRAININGS)
        ));
        if !r.svm_train_v_s.is_nan() {
            let x = r.svm_train_v_s / r.best_s;
            out.push(format!("- {at}: {x:.1}x faster than `svm-train -v {}` in the same run (target at least {VS_SVM_TRAIN_V}x): {}", r.k, mark(x >= VS_SVM_TRAIN_V)));
        }
        if !r.onedal_cv_s.is_nan() {
            let x = r.onedal_cv_s / r.best_s;
            out.push(format!("- {at}: {x:.1}x faster than oneDAL's CV on {} threads in the same run (target at least {VS_ONEDAL_CV}x): {}", r.onedal_threads, mark(x >= VS_ONEDAL_CV)));
        }
    }
    for a in runs.iter().filter(|a| a.wall_median_s >= MIN_EVIDENCE_S) {
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
        if a.seeder == "sir" && !a.speedup_vs_unseeded.is_nan() {
            let ok = a.speedup_vs_unseeded > 1.0 && !a.within_spread;
            let base = runs.iter().find(|b| {
                b.seeder == "zero"
                    && (&b.dataset, &b.setting, &b.k, b.threads, &b.cache, &b.solver)
                        == (&a.dataset, &a.setting, &a.k, a.threads, &a.cache, &a.solver)
            });
            let why = match base {
                Some(b) if !ok => format!(
                    " — {:.0} SMO iterations against the unseeded run's {:.0}, {} kernel values (solves and shared cache; batched blocks) against {}, seeding {:.1}% and prediction {:.1}% of its time{}",
                    a.iterations,
                    b.iterations,
                    evals(a),
                    evals(b),
                    a.seed_pct,
                    a.predict_pct,
                    if a.within_spread { ", the difference inside the timed runs' spread" } else { "" }
                ) + &reading(a, b),
                _ => String::new(),
            };
            out.push(format!(
                "- {at}: SIR against the unseeded run at equal cache and threads: {:.2}x (target: faster){why}: {}",
                a.speedup_vs_unseeded,
                mark(ok)
            ));
        }
    }
    if out.is_empty() {
        return String::new();
    }
    format!("**Against the SVM engine's targets** (from the two tables above; each line met or missed on the medians)\n\n{}\n", out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::svm_cv::ablation_rows::ablation;
    use crate::experiments::svm_cv::cost_rows::cost;
    use crate::experiments::svm_cv::cost_rows::tests::row;

    #[test]
    fn each_target_flips_on_its_number() {
        let recs = [
            row("ours [shared, 2t]", "zero", "round", 2, 30.0),
            row("sir [shared, 2t]", "sir", "round", 2, 12.0),
            row("train [per_solve, 2t]", "zero", "train", 2, 8.0),
            row("libsvm_v", "", "cv", 1, 240.0),
            row("onedal [2t]", "", "cv", 2, 24.0),
        ];
        let (c, a) = (cost(&recs), ablation(&recs));
        let v = verdicts(&c, &a);
        // 1.5 trainings: met; 20x svm-train: met; 2x oneDAL: met; SIR 2.5x: met.
        assert_eq!(v.matches(": met").count(), 4, "{v}");
        assert!(!v.contains("**missed**"), "{v}");
        let mut slow = c.clone();
        slow[0].best_s = 12.5;
        slow[0].cv_in_trainings = 12.5 / 8.0;
        let v = verdicts(&slow, &[]);
        assert_eq!(
            v.matches("**missed**").count(),
            3,
            "1.56 trainings, 19.2x svm-train, 1.9x oneDAL: {v}"
        );
        let mut shares = a.clone();
        for r in &mut shares {
            r.predict_pct = 11.0;
            r.seed_pct = 26.0;
            r.speedup_vs_unseeded = 0.9;
        }
        let v = verdicts(&[], &shares);
        // Prediction twice (both runs), seeding once (SIR only), SIR slower.
        assert_eq!(v.matches("**missed**").count(), 4, "{v}");
        assert!(
            v.contains("SMO iterations against the unseeded run's"),
            "{v}"
        );
        let mut short = c;
        short[0].best_s = 0.1;
        assert!(verdicts(&short, &[]).contains("too short to be evidence"));
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
