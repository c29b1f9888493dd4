//! The `svm_grid` record rows: one per (grid point, fold) of a reuse level,
//! one per cell (its whole-cell costs), one per grid point of the `svm-grid`
//! peer and one for its run, and one per step of the practical guide table.

use crate::experiments::timing::{Spread, Walls};
use crate::results::rows::{minus_one, nan_none, to_records, Core};
use crate::results::{Record, ResultsError};
use serde::{Deserialize, Serialize};

/// What a row is.
pub const ROLE_FOLD: &str = "fold";
/// A cell's whole costs (distance blocks, wall seconds).
pub const ROLE_CELL: &str = "cell";
/// One grid point as `svm-grid` printed it.
pub const ROLE_PEER_POINT: &str = "peer_point";
/// The `svm-grid` run (its time and choice).
pub const ROLE_PEER: &str = "peer";
/// One step of the practical guide table.
pub const ROLE_GUIDE: &str = "guide";

/// One record of an `svm_grid` run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GridRow {
    /// Kind, run, cell, seed, dataset, method (reuse level, `svm-grid` or
    /// `guide`), seconds.
    #[serde(flatten)]
    pub core: Core,
    /// `fold`, `cell`, `peer_point`, `peer` or `guide`.
    pub role: String,
    /// Training rows.
    pub n: u64,
    /// Features.
    pub d: u64,
    /// Folds.
    pub k: u64,
    /// `log2 C` of the point (none for cell rows).
    #[serde(with = "nan_none")]
    pub log2c: Option<f64>,
    /// `log2 gamma` of the point.
    #[serde(with = "nan_none")]
    pub log2g: Option<f64>,
    /// C as solved.
    #[serde(with = "nan_none")]
    pub c: Option<f64>,
    /// gamma as solved.
    #[serde(with = "nan_none")]
    pub gamma: Option<f64>,
    /// The held-out fold (fold rows).
    #[serde(with = "minus_one")]
    pub fold: Option<i64>,
    /// Held-out rows (fold rows), test rows (guide rows).
    pub n_test: u64,
    /// Correct predictions among them.
    pub correct: u64,
    /// grid.py's rate (peer rows) or the test accuracy in % (guide rows).
    #[serde(with = "nan_none")]
    pub rate: Option<f64>,
    /// The CV rate of the point (guide rows).
    #[serde(with = "nan_none")]
    pub cv_rate: Option<f64>,
    /// SMO iterations.
    pub iterations: u64,
    /// Kernel evaluations of the solve.
    pub kernel_evals: u64,
    /// Whether the solve was warm started.
    pub warm: bool,
    /// Newton steps on the free set within the solve (`newton` reuse).
    pub newton_steps: u64,
    /// Whether the level's rates are bit-identical to the baseline's.
    pub exact: bool,
    /// Threads of the level (1 without the threads reuse).
    pub threads: u64,
    /// Distance pairs computed (cell rows).
    pub distance_pairs: u64,
    /// Kernel values filled from distances (cell rows).
    pub kernel_fills: u64,
    /// Seconds on distance blocks and kernel fills (cell rows).
    #[serde(with = "nan_none")]
    pub block_s: Option<f64>,
    /// Timed runs of the cell (cell and peer rows; 0 in runs made before
    /// repeated timing: one run).
    pub timing_repeats: u64,
    /// Median wall seconds of the timed runs (cell and peer rows).
    #[serde(with = "nan_none")]
    pub wall_median_s: Option<f64>,
    /// Fastest timed run.
    #[serde(with = "nan_none")]
    pub wall_min_s: Option<f64>,
    /// Slowest timed run.
    #[serde(with = "nan_none")]
    pub wall_max_s: Option<f64>,
    /// Every timed run's seconds, `;`-separated (empty in runs made before
    /// the column: their intervals are range bounds).
    #[serde(default)]
    pub wall_runs_s: String,
    /// The guide step (`original-default`, `scaled-default`, `grid-chosen`,
    /// `guide-point`).
    pub step: String,
    /// Free text (e.g. why gamma blocks were off).
    pub note: String,
}

impl GridRow {
    /// This row's timed runs as a spread: the median, min and max wall
    /// seconds and their count (a row timed once, or made before repeated
    /// timing, is its one run's seconds).
    pub fn spread(&self) -> Spread {
        let one = self.core.seconds;
        Spread {
            median: self.wall_median_s.unwrap_or(one),
            min: self.wall_min_s.unwrap_or(one),
            max: self.wall_max_s.unwrap_or(one),
            repeats: self.timing_repeats.max(1),
            runs: crate::experiments::timing::parse_runs(&self.wall_runs_s),
        }
    }

    /// Write the timed runs `walls` on this row.
    pub fn stamp(&mut self, walls: &Walls) {
        self.timing_repeats = walls.runs();
        self.wall_median_s = Some(walls.median());
        self.wall_min_s = walls.min();
        self.wall_max_s = walls.max();
        self.wall_runs_s = crate::experiments::timing::runs_text(walls);
    }

    /// Typed rows from stored records.
    pub fn read(records: &[Record]) -> Result<Vec<GridRow>, ResultsError> {
        crate::results::rows::from_records(records)
    }
}

/// Rows to records.
pub fn records(rows: &[GridRow]) -> Result<Vec<Record>, ResultsError> {
    to_records(rows)
}
