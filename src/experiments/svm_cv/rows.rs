//! The typed rows of the `svm_cv` kind: [`SvmRow`], the one shape of every
//! record of a run (rounds, the peer's folds, `svm-train -v k`, extra
//! solves), the tables rendered from them (`summary`, `seeding`, and the
//! cross-run tables at the results root), and the comparison with
//! `svm-train -v k` that more than one renderer derives from them (the
//! per-fold comparison with `svm-train` is in `vs_libsvm.rs`).
//!
//! Records are converted with [`crate::results::rows`]: the [`Core`] columns
//! first, then the kind's own, in the order they have always had.

use crate::results::rows::{nan_none, to_records, Core};
use crate::results::table::{to_frame, write_table};
use crate::results::{Record, ResultsError};
use cvbench_engine::api::strategies::SolverKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// (dataset, setting, k, method): one CV run within a run folder.
pub type RunKey = (String, String, String, String);

/// (dataset, setting, k).
pub type Key = (String, String, String);

/// Write typed rows as `<stem>.parquet` and `<stem>.csv` in `dir`.
pub fn write_rows<T: Serialize>(
    rows: &[T],
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, ResultsError> {
    write_table(&to_frame(&to_records(rows)?)?, dir, stem)
}

/// The rows of a run grouped by (dataset, setting, k, method).
pub fn by_run(rows: &[SvmRow]) -> BTreeMap<RunKey, Vec<&SvmRow>> {
    let mut runs: BTreeMap<RunKey, Vec<&SvmRow>> = BTreeMap::new();
    for r in rows {
        runs.entry(r.run_key()).or_default().push(r);
    }
    runs
}

/// One record of an `svm_cv` run: one CV round (fold >= 0), the single row
/// of `svm-train -v k` (fold = -1), or an extra solve (fold = -2: the full
/// model of AVG/TOP, an inner node of the tree).
///
/// Counts are read back from integer or integral float columns (hand-made
/// tables hold them as floats); `None` numbers are stored as NaN.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SvmRow {
    /// kind, run, cell, rep (none), seed, dataset, synthetic, method, seconds
    /// (the cell's wall time).
    #[serde(flatten)]
    pub core: Core,
    /// Rows of the dataset.
    #[serde(with = "count")]
    pub n: u64,
    /// Features of the dataset.
    #[serde(with = "count")]
    pub d: u64,
    /// The setting's label.
    pub setting: String,
    /// Box constraint C as the solver got it.
    pub c: f64,
    /// RBF gamma (`None` for the linear kernel).
    #[serde(with = "nan_none")]
    pub gamma: Option<f64>,
    /// Stopping tolerance.
    pub eps: f64,
    /// k as configured (a number or `n`).
    pub k: String,
    /// k as a number.
    #[serde(with = "count")]
    pub k_value: u64,
    /// Fold construction (`libsvm` or `stratified`).
    pub folds: String,
    /// Majority-class rate of the dataset, %.
    pub majority_pct: f64,
    /// The round (held-out fold); -1 for `svm-train -v k`, -2 for an extra solve.
    pub fold: i64,
    /// Training rows of the solve.
    #[serde(with = "count")]
    pub n_train: u64,
    /// Held-out rows.
    #[serde(with = "count")]
    pub n_test: u64,
    /// Held-out rows predicted right.
    #[serde(with = "count")]
    pub correct: u64,
    /// `correct / n_test`, % (`None` without held-out rows).
    #[serde(with = "nan_none")]
    pub fold_accuracy_pct: Option<f64>,
    /// SMO iterations.
    #[serde(with = "count")]
    pub iterations: u64,
    /// Dual objective at the optimum.
    #[serde(with = "nan_none")]
    pub objective: Option<f64>,
    /// The bias term (`None` when the solver does not print it).
    #[serde(with = "nan_none")]
    pub rho: Option<f64>,
    /// Support vectors.
    #[serde(with = "count")]
    pub n_sv: u64,
    /// Bounded support vectors.
    #[serde(with = "count")]
    pub n_bsv: u64,
    /// Kernel values the solve computed beyond its column cache, whole
    /// columns of the shared cache aside; where parallel solves share the
    /// cache, also those it read from a shared column that happened to be
    /// cached, so that the count does not depend on timing (`None` for
    /// LIBSVM; runs made before 2026-11-27 did not count those reads).
    #[serde(with = "nan_none")]
    pub kernel_evals: Option<f64>,
    /// Kernel cache hits.
    #[serde(with = "nan_none")]
    pub cache_hits: Option<f64>,
    /// Kernel cache misses.
    #[serde(with = "nan_none")]
    pub cache_misses: Option<f64>,
    /// Column fills the solve took from whole columns of the cache shared
    /// by the rounds (runs made before 2026-11-27 also counted the shorter
    /// fills that found their column cached).
    #[serde(with = "nan_none")]
    pub shared_hits: Option<f64>,
    /// Shrinking events.
    #[serde(with = "nan_none")]
    pub shrink_events: Option<f64>,
    /// KKT violation at the stop.
    #[serde(with = "nan_none")]
    pub kkt_violation: Option<f64>,
    /// Solver set-up seconds (`None` for LIBSVM).
    #[serde(with = "nan_none")]
    pub init_s: Option<f64>,
    /// Training seconds (LIBSVM: the `svm-train` process).
    pub train_s: f64,
    /// Prediction seconds (`None` for `svm-train -v k`).
    #[serde(with = "nan_none")]
    pub predict_s: Option<f64>,
    /// The whole run's CV accuracy, %.
    #[serde(with = "nan_none")]
    pub cv_accuracy_pct: Option<f64>,
    /// Wall seconds of the whole cell.
    pub cell_wall_s: f64,
    /// Seeding seconds (`None` for LIBSVM and in runs made before seeding).
    #[serde(with = "nan_none")]
    pub seed_s: Option<f64>,
    /// What the row is: `round`, `cv` or `extra: ...`.
    pub role: String,
    /// The held-out rows predicted wrong, space-separated (empty when unknown).
    pub wrong_rows: String,
    /// Whether the solves ran in parallel.
    pub parallel: bool,
    /// Whether the solves shared one kernel cache.
    pub shared_cache: bool,
    /// Our solver's round order (`per_round`, `chain`, ...; empty for LIBSVM).
    pub order: String,
    /// Our solver's seeder (`zero`, `sir`, ...; empty for LIBSVM).
    pub seeder: String,
    /// Our solver's kernel cache (`per_solve` or `shared`; empty for LIBSVM).
    pub cache: String,
    /// The kernel-cache budget in MB (ours: the whole run's; LIBSVM: `-m` per process).
    #[serde(with = "nan_none")]
    pub cache_mb: Option<f64>,
    /// Threads of the run's pool (0 when unknown).
    #[serde(with = "count")]
    pub threads: u64,
    /// How many times the cell was timed.
    #[serde(with = "count")]
    pub timing_repeats: u64,
    /// Median wall seconds of the timed runs of the cell.
    #[serde(with = "nan_none")]
    pub wall_median_s: Option<f64>,
    /// Fastest timed run of the cell.
    #[serde(with = "nan_none")]
    pub wall_min_s: Option<f64>,
    /// Slowest timed run of the cell.
    #[serde(with = "nan_none")]
    pub wall_max_s: Option<f64>,
    /// Every timed run's seconds, `;`-separated (empty in runs made before
    /// the column: their intervals are range bounds).
    #[serde(default)]
    pub wall_runs_s: String,
    /// Kernel values the whole run computed in batched blocks (prediction,
    /// seeders' similarities, held-out sums), on every row of the run (not
    /// in `kernel_evals`; `None` for LIBSVM and runs made before it).
    #[serde(with = "nan_none", default)]
    pub block_kernel_evals: Option<f64>,
    /// Kernel values of the whole columns the run's shared cache computed,
    /// on every row of the run (not in `kernel_evals`, which are each
    /// solve's own; `None` without a shared cache and for runs made before
    /// it): every column where one solve at a time uses the cache; where
    /// parallel solves share it, each column asked for once, the rest in
    /// `shared_extra_kernel_evals_sched` (runs made before 2026-11-27
    /// counted them here).
    #[serde(with = "nan_none", default)]
    pub shared_kernel_evals: Option<f64>,
    /// Kernel values a shared cache of parallel solves computed beyond
    /// `shared_kernel_evals` (a column filled again after its eviction, or
    /// by two solves at once), on every row of the run: it depends on how
    /// the solves interleave (the `_sched` suffix,
    /// [`crate::results::columns`]); `None` without a shared cache and for
    /// runs made before it.
    #[serde(with = "nan_none", default)]
    pub shared_extra_kernel_evals_sched: Option<f64>,
    /// One-vs-one rows (more than two classes, or class weights): each
    /// class pair's SMO iterations, space-separated, in LIBSVM's pair order
    /// (`iterations` is their sum, as are `objective`, `n_sv` and `n_bsv`);
    /// empty for a binary solve and for `svm-train -v k`.
    #[serde(default)]
    pub pair_iterations: String,
    /// Our solver of the C-SVC dual that made the row (`smo`, `batched`:
    /// the registry [`SolverKind`]); empty for the peers' rows, and in runs
    /// stored before the column (whose rows are the SMO's:
    /// [`SvmRow::solver_or_smo`]).
    #[serde(default)]
    pub solver: String,
    /// Peak resident memory of the cell in MB (issue 58): ours, the
    /// process's high-water mark while the cell ran (every loaded dataset
    /// of the run in it: an upper bound of the cell's own); oneDAL, its
    /// Python process's; `None` for LIBSVM's tools, where the mark cannot
    /// be reset, and in runs made before the column.
    #[serde(with = "nan_none", default)]
    pub peak_rss_mb: Option<f64>,
}

impl SvmRow {
    /// The stored records of a run as rows.
    pub fn read(records: &[Record]) -> Result<Vec<SvmRow>, ResultsError> {
        crate::results::rows::from_records(records)
    }

    /// (dataset, setting, k, method): the CV run the row belongs to.
    pub fn run_key(&self) -> RunKey {
        (
            self.core.dataset.clone(),
            self.setting.clone(),
            self.k.clone(),
            self.core.method.clone(),
        )
    }

    /// The solver that made the row: its `solver` column, or `smo` where
    /// that is empty (the peers' rows and runs stored before the column).
    pub fn solver_or_smo(&self) -> &str {
        if self.solver.is_empty() {
            SolverKind::Smo.as_str()
        } else {
            &self.solver
        }
    }

    /// The kernel cache and threads the row's run had, in words
    /// (`shared cache, 2 threads`; for runs stored before the strategy
    /// columns, from `shared_cache` and `parallel`).
    pub fn setup(&self) -> String {
        if !self.cache.is_empty() {
            let t = self.threads;
            let cache = self.cache.replace('_', "-");
            format!("{cache} cache, {t} thread{}", if t == 1 { "" } else { "s" })
        } else {
            format!(
                "{} cache, {}",
                if self.shared_cache {
                    "shared"
                } else {
                    "per-solve"
                },
                if self.parallel {
                    "parallel"
                } else {
                    "1 thread"
                }
            )
        }
    }

    /// Seconds of the round: init + train + predict (parts a method does
    /// not time are skipped).
    pub fn round_seconds(&self) -> f64 {
        [self.init_s, Some(self.train_s), self.predict_s]
            .iter()
            .flatten()
            .filter(|v| v.is_finite())
            .sum::<f64>()
    }
}

/// A row of `summary.{csv,parquet}`: one CV run of a run folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SummaryRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// Method.
    pub method: String,
    /// Rounds (`svm-train -v k`: k).
    pub rounds: u64,
    /// CV accuracy, %.
    pub cv_accuracy_pct: f64,
    /// Majority-class rate, %.
    pub majority_pct: f64,
    /// SMO iterations of the rounds and the extra solves.
    pub total_iterations: f64,
    /// Mean objective over the rounds.
    pub mean_objective: f64,
    /// Mean support vectors over the rounds.
    pub mean_n_sv: f64,
    /// Seconds of the rounds (init + train + predict).
    pub time_s: f64,
    /// Wall seconds of the cell.
    pub wall_s: f64,
}

/// A row of `svm-vs-svm-train-v.{csv,parquet}`: our CV accuracy against
/// what `svm-train -v k` prints.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VRow {
    /// The run (empty within one run's render).
    pub run: String,
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// Our CV accuracy, %.
    pub acc_ours_pct: f64,
    /// svm-train -v k's, %.
    pub acc_svm_train_v_pct: f64,
    /// `identical` or `DIFFERENT`.
    pub verdict: String,
}

/// A row of `seeding.{csv,parquet}`: one method of one (dataset, setting,
/// k) against the baseline. Read back by the scorecard.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SeedingRow {
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// Method (`ours` = the baseline).
    pub method: String,
    /// Rounds.
    #[serde(with = "count")]
    pub rounds: u64,
    /// Seeding plus the solver set-up of seeded solves, seconds.
    pub init_s: f64,
    /// Everything else, seconds.
    pub rest_s: f64,
    /// init + rest.
    pub total_s: f64,
    /// SMO iterations of the rounds and the extra solves.
    pub iterations: f64,
    /// CV accuracy, %.
    pub accuracy_pct: f64,
    /// Majority-class rate, %.
    pub majority_pct: f64,
    /// Baseline total / this total (`None` without a baseline).
    #[serde(with = "nan_none")]
    pub speedup_vs_baseline: Option<f64>,
    /// Largest relative objective gap to the baseline over folds.
    #[serde(with = "nan_none")]
    pub max_rel_objective_gap: Option<f64>,
    /// Folds whose predictions changed, `fold:rows` space-separated.
    pub folds_changed: String,
    /// Held-out rows whose prediction flipped.
    #[serde(with = "count")]
    pub rows_flipped: u64,
    /// `baseline`, `exact`, `NOT EXACT` or `no baseline`.
    pub exactness: String,
    /// The kernel cache and threads the run had ([`SvmRow::setup`]).
    pub setup: String,
}

impl SeedingRow {
    /// The row of (dataset, setting, k, method) among `rows`.
    pub fn find<'a>(
        rows: &'a [SeedingRow],
        d: &str,
        st: &str,
        k: &str,
        m: &str,
    ) -> Option<&'a SeedingRow> {
        rows.iter()
            .find(|r| r.dataset == d && r.setting == st && r.k == k && r.method == m)
    }
}

/// A row of `svm-seeding-vs-svm-train.{csv,parquet}`: one exact seeded
/// method and set-up of a run against LIBSVM timed in the same run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BenchRow {
    /// The run.
    pub run: String,
    /// Dataset.
    pub dataset: String,
    /// Setting label.
    pub setting: String,
    /// k as configured.
    pub k: String,
    /// The exact seeded method.
    pub method: String,
    /// Its kernel cache (`per_solve` or `shared`; empty where unrecorded).
    pub cache: String,
    /// Its threads (0 when not recorded).
    pub threads: u64,
    /// Its median wall seconds.
    pub wall_s: f64,
    /// How many times it was timed.
    pub timed_runs: u64,
    /// The baseline's (unseeded) median wall seconds at the same set-up.
    pub baseline_wall_s: f64,
    /// The method's CV accuracy, %.
    pub accuracy_pct: f64,
    /// The baseline's, %.
    pub baseline_accuracy_pct: f64,
    /// `svm-train -v k`'s median seconds in the same run (NaN: not run).
    pub svm_train_v_s: f64,
    /// How many times it was timed.
    pub svm_train_v_runs: u64,
    /// `svm-train -v k`'s median over the method's.
    pub speedup_vs_svm_train_v: f64,
    /// Lower end of its 95% interval (the point where a cell was timed once).
    pub speedup_vs_svm_train_v_lo: f64,
    /// Upper end.
    pub speedup_vs_svm_train_v_hi: f64,
    /// The ratio and its interval in words (`–` without the peer).
    pub speedup_words: String,
    /// `svm-train` on each fold with `svm-predict` in the same run (sum of
    /// the processes' seconds; NaN without such a run).
    pub per_fold_s: f64,
    /// per_fold_s over the method's median.
    pub speedup_vs_per_fold: f64,
}

/// k as a number for sorting: 3 < 10 < 100 < n.
pub fn k_num(k: &str) -> f64 {
    k.parse().unwrap_or(f64::INFINITY)
}

/// Our CV accuracy against `svm-train -v k`'s printed one, per (dataset,
/// setting, k) where both ran.
pub fn v_checks(runs: &BTreeMap<RunKey, Vec<&SvmRow>>) -> Vec<VRow> {
    let mut out = Vec::new();
    for ((d, st, k, m), rows) in runs {
        if m != "libsvm_v" {
            continue;
        }
        if let Some(ours) = runs.get(&(d.clone(), st.clone(), k.clone(), "ours".to_string())) {
            let a = ours[0].cv_accuracy_pct.unwrap_or(f64::NAN);
            let b = rows[0].cv_accuracy_pct.unwrap_or(f64::NAN);
            out.push(VRow {
                run: String::new(),
                dataset: d.clone(),
                setting: st.clone(),
                k: k.clone(),
                acc_ours_pct: a,
                acc_svm_train_v_pct: b,
                verdict: if (a - b).abs() < 5e-5 {
                    "identical"
                } else {
                    "DIFFERENT"
                }
                .into(),
            });
        }
    }
    out
}

/// A count stored as an integer column, read back from an integer or an
/// integral float (negative or non-finite: 0).
mod count {
    use crate::results::rows::minus_one;
    use serde::{Deserializer, Serializer};

    /// As an integer.
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*v)
    }

    /// From an integer or a float, as [`minus_one`] reads them.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        Ok(minus_one::deserialize(d)?.map_or(0, |v| v as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Value;

    #[test]
    fn rows_keep_the_stored_column_order_and_types_and_read_older_tables() {
        let row = SvmRow {
            core: Core {
                kind: "svm_cv".into(),
                dataset: "d".into(),
                method: "libsvm".into(),
                seed: "7".into(),
                seconds: 1.5,
                ..Core::default()
            },
            n: 10,
            k: "3".into(),
            fold: -1,
            iterations: 12,
            objective: Some(-1.25),
            train_s: 0.5,
            role: "cv".into(),
            ..SvmRow::default()
        };
        let recs = to_records(std::slice::from_ref(&row)).unwrap();
        let names: Vec<&str> = recs[0].0.iter().map(|(n, _)| n.as_str()).collect();
        let core = "kind,run,cell,rep,seed,dataset,synthetic,method,seconds";
        assert_eq!(names[..9].join(","), core);
        assert_eq!(names[9..14], ["n", "d", "setting", "c", "gamma"]);
        assert_eq!(names.last(), Some(&"peak_rss_mb"));
        assert_eq!(recs[0].get("iterations"), Some(&Value::Int(12)));
        assert_eq!(recs[0].get("fold"), Some(&Value::Int(-1)));
        assert!(matches!(recs[0].get("init_s"), Some(Value::Float(v)) if v.is_nan()));
        assert_eq!(SvmRow::read(&recs).unwrap(), vec![row.clone()]);
        // A run stored before the core and seeding columns, counts as floats.
        let mut old = recs[0].clone();
        old.0.retain(|(n, _)| {
            ![
                "kind",
                "run",
                "cell",
                "rep",
                "seconds",
                "seed_s",
                "role",
                "order",
                "seeder",
                "cache",
                "cache_mb",
                "threads",
                "timing_repeats",
                "wall_median_s",
                "wall_min_s",
                "wall_max_s",
                "wall_runs_s",
                "block_kernel_evals",
                "shared_kernel_evals",
                "shared_extra_kernel_evals_sched",
                "pair_iterations",
                "solver",
                "peak_rss_mb",
            ]
            .contains(&n.as_str())
        });
        old.set("iterations", 12.0);
        let back = SvmRow::read(&[old]).unwrap();
        assert_eq!(back[0].iterations, 12);
        assert_eq!((back[0].seed_s, back[0].role.as_str()), (None, ""));
        assert_eq!(back[0].objective, Some(-1.25));
    }
}
