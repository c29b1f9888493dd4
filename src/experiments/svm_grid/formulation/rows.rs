//! The typed rows of an `svm_grid` run of a formulation other than C-SVC:
//! [`FormulationGridRow`], one per grid point of each cell (ours at one
//! reuse level, or the peer: independent `svm-train -s N -v k` calls, as
//! grid.py runs them), each with the point's CV numbers, whether it is the
//! cell's choice, and the cell's timed repeats.

use crate::experiments::evidence::Sample;
use crate::experiments::timing::{parse_runs, Spread};
use crate::results::rows::{nan_none, Core};
use crate::results::{Record, ResultsError};
use serde::{Deserialize, Serialize};

/// A point of our grid.
pub const ROLE_POINT: &str = "point";
/// A point of the peer's independent `svm-train` calls.
pub const ROLE_PEER_POINT: &str = "peer_point";
/// The peer's level name.
pub const PEER_LEVEL: &str = "svm-train";

/// One record of a formulation grid run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FormulationGridRow {
    /// kind, run, cell, rep (none), seed, dataset, synthetic, method (the
    /// reuse level or `svm-train`), seconds (the cell's median).
    #[serde(flatten)]
    pub core: Core,
    /// The formulation (the engine's name).
    pub svm_type: String,
    /// `point` (ours) or `peer_point`.
    pub role: String,
    /// The reuse level (ours) or `svm-train`.
    pub level: String,
    /// Folds.
    pub k: u64,
    /// The point's index in the grid's visiting order.
    pub point: u64,
    /// log2 C (`None` where C is not searched).
    #[serde(with = "nan_none")]
    pub log2c: Option<f64>,
    /// log2 gamma (`None` where gamma is not searched).
    #[serde(with = "nan_none")]
    pub log2g: Option<f64>,
    /// The third axis as named: log2 p (epsilon-SVR) or nu (`None` where
    /// not searched).
    #[serde(with = "nan_none")]
    pub third: Option<f64>,
    /// C as run.
    pub c: f64,
    /// gamma as run.
    pub gamma: f64,
    /// nu or p as run.
    pub param: f64,
    /// The point's CV mean squared error (SVRs).
    #[serde(with = "nan_none")]
    pub mse: Option<f64>,
    /// Its squared correlation coefficient (SVRs).
    #[serde(with = "nan_none")]
    pub squared_correlation: Option<f64>,
    /// Its CV accuracy, % (nu-SVC, one-class).
    #[serde(with = "nan_none")]
    pub accuracy_pct: Option<f64>,
    /// The number as `svm-train -v` prints it (`printf("%g")`).
    pub printed: String,
    /// SMO iterations of the point's rounds (the peer's: summed from its lines).
    pub iterations: u64,
    /// Kernel evaluations (ours; `None` for the peer).
    #[serde(with = "nan_none")]
    pub kernel_evals: Option<f64>,
    /// Whether the point is the cell's choice (the least MSE, or the
    /// highest accuracy; grid.py's tie-break).
    pub best: bool,
    /// Threads of the cell.
    pub threads: u64,
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

impl FormulationGridRow {
    /// Rows from records.
    pub fn read(records: &[Record]) -> Result<Vec<FormulationGridRow>, ResultsError> {
        crate::results::rows::from_records(records)
    }

    /// The cell's timed runs.
    pub fn sample(&self) -> Sample {
        Sample::from(Spread {
            median: self.wall_median_s,
            min: self.wall_min_s,
            max: self.wall_max_s,
            repeats: self.timing_repeats,
            runs: parse_runs(&self.wall_runs_s),
        })
    }

    /// The chosen point in words, e.g. `log2c=3 log2g=-1 log2p=-3`.
    pub fn point_words(&self) -> String {
        let mut v = Vec::new();
        if let Some(c) = self.log2c {
            v.push(format!("log2c={c}"));
        }
        if let Some(g) = self.log2g {
            v.push(format!("log2g={g}"));
        }
        if let Some(t) = self.third {
            let name = if self.svm_type == "epsilon_svr" {
                "log2p"
            } else {
                "nu"
            };
            v.push(format!("{name}={t}"));
        }
        v.join(" ")
    }
}
