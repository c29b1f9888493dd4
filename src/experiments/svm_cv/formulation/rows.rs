//! The typed rows of an `svm_cv` run of a formulation other than C-SVC:
//! [`FormulationRow`], one per CV round of ours (fold >= 0) and one per
//! whole run of a peer or one training (fold = -1), each with the run's
//! summary (accuracy, or mean squared error and squared correlation) and
//! every timed repeat's seconds. Records are converted with
//! [`crate::results::rows`]: the [`Core`] columns first.

use crate::experiments::evidence::Sample;
use crate::experiments::timing::{parse_runs, Spread};
use crate::results::rows::{nan_none, Core};
use crate::results::{Record, ResultsError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A round of our CV.
pub const ROLE_ROUND: &str = "round";
/// A peer's whole CV (`svm-train -v k`, oneDAL's CV on our folds).
pub const ROLE_CV: &str = "cv";
/// One training on all rows.
pub const ROLE_TRAIN: &str = "train";

/// One record of a formulation run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FormulationRow {
    /// kind, run, cell, rep (none), seed, dataset, synthetic, method,
    /// seconds (the cell's median wall seconds).
    #[serde(flatten)]
    pub core: Core,
    /// The formulation (the engine's name, e.g. `epsilon_svr`).
    pub svm_type: String,
    /// Rows of the dataset.
    pub n: u64,
    /// Features of the dataset.
    pub d: u64,
    /// The setting's label.
    pub setting: String,
    /// C as the solver got it (unused by nu-SVC and one-class).
    pub c: f64,
    /// Kernel gamma (`None` for the linear kernel).
    #[serde(with = "nan_none")]
    pub gamma: Option<f64>,
    /// nu (nu-SVC, one-class, nu-SVR).
    #[serde(with = "nan_none")]
    pub nu: Option<f64>,
    /// epsilon of the loss (epsilon-SVR).
    #[serde(with = "nan_none")]
    pub p: Option<f64>,
    /// Stopping tolerance.
    pub eps: f64,
    /// Kernel-cache budget, MB (ours: the whole run's; svm-train's `-m`).
    pub cache_mb: f64,
    /// k as configured (a number or `n`).
    pub k: String,
    /// k as run.
    pub k_value: u64,
    /// Fold construction (`libsvm`: svm-train's folds).
    pub folds: String,
    /// The round (held-out fold), or -1 for a whole run.
    pub fold: i64,
    /// `round`, `cv` or `train`.
    pub role: String,
    /// Our seeding (`none`, `sir`, `sir_two_chains`; empty for a peer).
    pub seeding: String,
    /// Our solver of the dual (`smo`, `batched`; empty for a peer and in
    /// runs stored before the solver axis, which ran the SMO).
    pub solver: String,
    /// Training rows of the solve (of a whole run: all rows).
    pub n_train: u64,
    /// Held-out rows.
    pub n_test: u64,
    /// Held-out rows predicted right (nu-SVC, one-class).
    pub correct: u64,
    /// The held-out rows' mean squared error (SVRs; a round's fold).
    #[serde(with = "nan_none")]
    pub fold_mse: Option<f64>,
    /// SMO iterations (of a whole run: every solve's).
    pub iterations: u64,
    /// Dual objective (summed over a round's solves).
    #[serde(with = "nan_none")]
    pub objective: Option<f64>,
    /// rho of the round's first solve.
    #[serde(with = "nan_none")]
    pub rho: Option<f64>,
    /// Support vectors (summed over solves).
    pub n_sv: u64,
    /// Bounded support vectors (summed over solves).
    pub n_bsv: u64,
    /// The run's CV accuracy, % (nu-SVC, one-class).
    #[serde(with = "nan_none")]
    pub cv_accuracy_pct: Option<f64>,
    /// The run's CV mean squared error (SVRs).
    #[serde(with = "nan_none")]
    pub cv_mse: Option<f64>,
    /// The run's CV squared correlation coefficient (SVRs).
    #[serde(with = "nan_none")]
    pub cv_squared_correlation: Option<f64>,
    /// The run's `Cross Validation ...` lines as `svm-train` prints them
    /// (ours: as the engine prints them), `; `-joined.
    pub cv_lines: String,
    /// Kernel evaluations of our run (`None` for a peer).
    #[serde(with = "nan_none")]
    pub kernel_evals: Option<f64>,
    /// Threads of the run.
    pub threads: u64,
    /// The peer's module and version (oneDAL), else empty.
    pub peer: String,
    /// Timed runs of the cell.
    pub timing_repeats: u64,
    /// Their median wall seconds.
    pub wall_median_s: f64,
    /// The smallest.
    pub wall_min_s: f64,
    /// The largest.
    pub wall_max_s: f64,
    /// Every timed run's seconds, `;`-separated.
    pub wall_runs_s: String,
}

/// (dataset, setting, k): the runs one comparison puts side by side.
pub type Key = (String, String, String);

impl FormulationRow {
    /// Rows from records.
    pub fn read(records: &[Record]) -> Result<Vec<FormulationRow>, ResultsError> {
        crate::results::rows::from_records(records)
    }

    /// (dataset, setting, k).
    pub fn key(&self) -> Key {
        (
            self.core.dataset.clone(),
            self.setting.clone(),
            self.k.clone(),
        )
    }

    /// The cell's timed runs (every repeat's seconds).
    pub fn sample(&self) -> Sample {
        Sample::from(Spread {
            median: self.wall_median_s,
            min: self.wall_min_s,
            max: self.wall_max_s,
            repeats: self.timing_repeats,
            runs: parse_runs(&self.wall_runs_s),
        })
    }

    /// The run's name in tables and verdicts: its method, with `+batched`
    /// (the solver) where it did not run the SMO.
    pub fn label(&self) -> String {
        crate::experiments::svm_cv::solver_axis::method_label(&self.core.method, &self.solver)
    }

    /// Whether the formulation is a regression (its metric is the MSE).
    pub fn is_regression(&self) -> bool {
        super::metric_name(&self.svm_type) == "MSE"
    }

    /// The run's metric in words: `MSE 0.434375` or `accuracy 83.7%`.
    pub fn metric(&self) -> String {
        match (self.cv_mse, self.cv_accuracy_pct) {
            (Some(m), _) => format!("MSE {}", cvbench_engine::api::data::printf_g(m)),
            (None, Some(a)) => format!("accuracy {a:.4}%"),
            _ => "-".into(),
        }
    }
}

/// One whole run of a cell: its first row (every row of a cell carries the
/// run's summary and timings) and its rounds' iterations summed.
#[derive(Clone, Debug)]
pub struct RunRow {
    /// The cell's first row.
    pub row: FormulationRow,
    /// SMO iterations of the whole run.
    pub iterations: u64,
    /// Rounds recorded (0 for a peer's whole run).
    pub rounds: usize,
}

/// The runs of a formulation run's rows, by (dataset, setting, k), each
/// key's runs by their label ([`FormulationRow::label`]: the cell's method
/// and solver).
pub fn runs(rows: &[FormulationRow]) -> BTreeMap<Key, BTreeMap<String, RunRow>> {
    let mut out: BTreeMap<Key, BTreeMap<String, RunRow>> = BTreeMap::new();
    for r in rows {
        let e = out
            .entry(r.key())
            .or_default()
            .entry(r.label())
            .or_insert_with(|| RunRow {
                row: r.clone(),
                iterations: 0,
                rounds: 0,
            });
        e.iterations += r.iterations;
        if r.fold >= 0 {
            e.rounds += 1;
        }
    }
    out
}
