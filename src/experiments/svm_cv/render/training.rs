//! One training on all rows per solver of the dual (the config's `train`
//! method on each of `solvers`), beside oneDAL's one fit of the same run:
//! each solver's median wall seconds with their range, its iterations and
//! objective, its speed-up against the SMO's training at the same threads
//! and budget (with the interval of the evidence rule), and its time as a
//! share of oneDAL's one fit. Shown where the run has another solver than
//! the SMO (a run of the SMO alone has the cost table's one-training
//! column).

use super::markdown::speedup_cell;
use crate::experiments::evidence;
use crate::experiments::svm_cv::config::Method;
use crate::experiments::svm_cv::rows::SvmRow;
use crate::experiments::svm_cv::solver_axis::{has_solver_axis, solver_rank};
use crate::experiments::svm_cv::variants::base_method;
use crate::experiments::timing::Spread;
use crate::results::md_table::MdTable;
use cvbench_engine::api::strategies::SolverKind;

/// One training of one solver.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainingRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// Threads of the training's pool.
    pub threads: u64,
    /// Kernel-cache budget (MB).
    pub cache_mb: f64,
    /// The solver ([`SolverKind`]).
    pub solver: String,
    /// Timed repetitions.
    pub repeats: u64,
    /// Median wall seconds.
    pub wall_median_s: f64,
    /// Fastest run.
    pub wall_min_s: f64,
    /// Slowest run.
    pub wall_max_s: f64,
    /// Every timed run's wall seconds, as the records keep them (empty
    /// where they keep only the median and range).
    pub wall_runs_s: String,
    /// Solver iterations.
    pub iterations: f64,
    /// Dual objective.
    pub objective: f64,
    /// Support vectors.
    pub n_sv: f64,
    /// The SMO's training median over this one's (1 for the SMO; NaN
    /// without an SMO training at these threads and budget).
    pub speedup_vs_smo: f64,
    /// Lower end of its 95% interval (NaN when either was timed once).
    pub speedup_vs_smo_lo: f64,
    /// Upper end.
    pub speedup_vs_smo_hi: f64,
    /// Relative objective gap to the SMO's, `|obj - obj_smo| / |obj_smo|`.
    pub rel_objective_gap_vs_smo: f64,
    /// oneDAL's one fit in the same run, median wall seconds (NaN when not
    /// run); on the same threads where it ran on them.
    pub onedal_fit_s: f64,
    /// oneDAL's threads (0 when not run).
    pub onedal_threads: u64,
    /// This training's median over oneDAL's: below 1 is faster.
    pub share_of_onedal_fit: f64,
}

/// The one-training rows of a run's records (one per dataset, setting,
/// threads, budget and solver), SMO first.
pub fn trainings(records: &[SvmRow]) -> Vec<TrainingRow> {
    let is = |r: &SvmRow, m: Method| base_method(&r.core.method) == m.as_str();
    let onedal = |r: &TrainingRow| {
        let fits = records.iter().filter(|o| {
            is(o, Method::OnedalFit) && o.core.dataset == r.dataset && o.setting == r.setting
        });
        let all: Vec<&SvmRow> = fits.collect();
        all.iter()
            .find(|o| o.threads == r.threads)
            .or(all.first())
            .copied()
    };
    let mut out: Vec<TrainingRow> = records
        .iter()
        .filter(|r| is(r, Method::Train) && r.role == "train" && !r.order.is_empty())
        .map(|r| TrainingRow {
            dataset: r.core.dataset.clone(),
            setting: r.setting.clone(),
            threads: r.threads,
            cache_mb: r.cache_mb.unwrap_or(f64::NAN),
            solver: r.solver_or_smo().to_string(),
            repeats: r.timing_repeats,
            wall_median_s: r.wall_median_s.unwrap_or(r.cell_wall_s),
            wall_min_s: r.wall_min_s.unwrap_or(r.cell_wall_s),
            wall_max_s: r.wall_max_s.unwrap_or(r.cell_wall_s),
            wall_runs_s: r.wall_runs_s.clone(),
            iterations: r.iterations as f64,
            objective: r.objective.unwrap_or(f64::NAN),
            n_sv: r.n_sv as f64,
            speedup_vs_smo: f64::NAN,
            speedup_vs_smo_lo: f64::NAN,
            speedup_vs_smo_hi: f64::NAN,
            rel_objective_gap_vs_smo: f64::NAN,
            onedal_fit_s: f64::NAN,
            onedal_threads: 0,
            share_of_onedal_fit: f64::NAN,
        })
        .collect();
    let smo = SolverKind::Smo.as_str();
    let snapshot = out.clone();
    for r in &mut out {
        let base = snapshot.iter().find(|b| {
            b.solver == smo
                && (&b.dataset, &b.setting, b.threads) == (&r.dataset, &r.setting, r.threads)
                && b.cache_mb.to_bits() == r.cache_mb.to_bits()
        });
        if let Some(b) = base {
            r.speedup_vs_smo = b.wall_median_s / r.wall_median_s;
            let x = evidence::ratio(&spread(b), &spread(r));
            if x.how != evidence::How::Once && r.solver != smo {
                (r.speedup_vs_smo_lo, r.speedup_vs_smo_hi) = (x.lo, x.hi);
            }
            r.rel_objective_gap_vs_smo = (r.objective - b.objective).abs() / b.objective.abs();
        }
        if let Some(o) = onedal(r) {
            r.onedal_fit_s = o.wall_median_s.unwrap_or(o.cell_wall_s);
            r.onedal_threads = o.threads;
            r.share_of_onedal_fit = r.wall_median_s / r.onedal_fit_s;
        }
    }
    out.sort_by(|a, b| {
        (&a.dataset, &a.setting, a.threads, solver_rank(&a.solver)).cmp(&(
            &b.dataset,
            &b.setting,
            b.threads,
            solver_rank(&b.solver),
        ))
    });
    out
}

fn spread(r: &TrainingRow) -> evidence::Sample {
    evidence::Sample::from(Spread {
        median: r.wall_median_s,
        min: r.wall_min_s,
        max: r.wall_max_s,
        repeats: r.repeats,
        runs: crate::experiments::timing::parse_runs(&r.wall_runs_s),
    })
}

/// The table with its lead paragraph: empty without rows and for a run of
/// the SMO alone.
pub fn markdown(rows: &[TrainingRow]) -> String {
    if !has_solver_axis(rows.iter().map(|r| r.solver.as_str())) {
        return String::new();
    }
    let mut t = MdTable::new(
        "dataset | setting | threads | budget MB | solver | wall s: median (min-max, runs) | #iter | objective (rel. gap to the SMO's) | #SV | vs the SMO's training | oneDAL one fit s (threads) | share of oneDAL's fit"
            .split(" | "),
    );
    for r in rows {
        let vs_smo = if r.speedup_vs_smo.is_nan() {
            "no SMO training".to_string()
        } else if r.solver == SolverKind::Smo.as_str() {
            "reference".to_string()
        } else {
            speedup_cell(r.speedup_vs_smo, r.speedup_vs_smo_lo, r.speedup_vs_smo_hi)
        };
        let (fit, share) = if r.onedal_fit_s.is_nan() {
            ("not run".to_string(), "not run".to_string())
        } else {
            (
                format!("{:.3} ({}t)", r.onedal_fit_s, r.onedal_threads),
                format!("{:.2}x", r.share_of_onedal_fit),
            )
        };
        t.row(vec![
            r.dataset.clone(),
            r.setting.clone(),
            r.threads.to_string(),
            format!("{:.0}", r.cache_mb),
            r.solver.clone(),
            format!(
                "{:.3} ({:.3}-{:.3}, {})",
                r.wall_median_s, r.wall_min_s, r.wall_max_s, r.repeats
            ),
            format!("{:.0}", r.iterations),
            format!("{:.6e} ({:.1e})", r.objective, r.rel_objective_gap_vs_smo),
            format!("{:.0}", r.n_sv),
            vs_smo,
            fit,
            share,
        ]);
    }
    format!(
        "**One training on all rows per solver, beside oneDAL's one fit** (each solver's `train` cell: median wall seconds of its timed repetitions with their range; the speed-up against the SMO's training at the same threads and budget carries its 95% interval (the evidence rule: {}); share of oneDAL's fit = our median over oneDAL's (scikit-learn-intelex `SVC`, timed inside Python), below 1 is faster)\n\n{}\n",
        evidence::RULE,
        t.markdown()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn train(method: &str, solver: &str, walls: [f64; 3], obj: f64) -> SvmRow {
        let mut r = SvmRow {
            setting: "s".into(),
            role: "train".into(),
            order: "per_round".into(),
            seeder: "zero".into(),
            cache: "per_solve".into(),
            cache_mb: Some(100.0),
            threads: 2,
            timing_repeats: 3,
            wall_median_s: Some(walls[1]),
            wall_min_s: Some(walls[0]),
            wall_max_s: Some(walls[2]),
            objective: Some(obj),
            solver: solver.into(),
            ..SvmRow::default()
        };
        r.core.dataset = "d".into();
        r.core.method = method.into();
        r
    }

    #[test]
    fn each_solvers_training_against_the_smos_and_onedals_fit() {
        let mut fit = train("onedal_fit [2t]", "", [4.0; 3], 0.0);
        (fit.order, fit.cache) = (String::new(), String::new());
        let smo = train("train [per_solve, 2t]", "smo", [7.0, 8.0, 9.0], -100.0);
        let recs = vec![
            fit,
            train(
                "train [per_solve, 2t, batched]",
                "batched",
                [2.5, 3.0, 3.5],
                -100.01,
            ),
            smo.clone(),
        ];
        let t = trainings(&recs);
        assert_eq!(t.len(), 2, "{t:?}");
        assert_eq!(
            (t[0].solver.as_str(), t[1].solver.as_str()),
            ("smo", "batched")
        );
        let b = &t[1];
        assert!((b.speedup_vs_smo - 8.0 / 3.0).abs() < 1e-12);
        assert!(b.speedup_vs_smo_lo > 1.0, "{b:?}");
        assert!((b.rel_objective_gap_vs_smo - 1e-4).abs() < 1e-9);
        assert_eq!((b.onedal_fit_s, b.onedal_threads), (4.0, 2));
        assert_eq!(b.share_of_onedal_fit, 0.75);
        let md = markdown(&t);
        assert!(
            md.contains("| batched |") && md.contains("| 0.75x |") && md.contains("reference"),
            "{md}"
        );
        // A run of the SMO alone: no table (the cost table has its training).
        assert_eq!(markdown(&trainings(&[smo])), "");
    }
}
