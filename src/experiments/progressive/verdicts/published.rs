//! Blum, Kalai & Langford's published numbers
//! (`experiments/progressive/published.toml`), typed: the table of
//! Section 5 and the set-up it was made with.

use crate::experiments::progressive::paper::Procedure;
use crate::experiments::published::PublishedError;
use serde::{Deserialize, Serialize};

/// The published table (experiments/progressive/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../../experiments/progressive/published.toml");

/// The file, as errors name it.
pub const PUBLISHED_FILE: &str = "experiments/progressive/published.toml";

/// One row of the paper's table (from `experiments/progressive/published.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublishedRow {
    /// The row label as printed, e.g. `Prog. Val. (5, 10)`.
    pub label: String,
    /// The procedure.
    pub procedure: Procedure,
    /// Training examples.
    pub n_train: usize,
    /// Test / progressive set size.
    pub s: usize,
    /// Published true error.
    pub true_error: f64,
    /// Published ± of the true error.
    pub true_error_pm: f64,
    /// Published `|true - estimate|`.
    pub discrepancy: f64,
    /// Published ± of the discrepancy.
    pub discrepancy_pm: f64,
}

/// The published table as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// Feature count of the paper's experiment.
    pub n_features: usize,
    /// Repetitions in the paper.
    pub reps: usize,
    /// Fresh examples for the measured true error.
    pub fresh: usize,
    /// The table rows.
    pub table: Vec<PublishedRow>,
}

impl Published {
    /// The embedded [`PUBLISHED`] table, or the error naming the file and
    /// the key.
    pub fn load() -> Result<Published, PublishedError> {
        Published::from_toml(PUBLISHED)
    }

    /// Parse `published.toml` (its text).
    pub fn from_toml(text: &str) -> Result<Published, PublishedError> {
        crate::experiments::published::parse(PUBLISHED_FILE, text)
    }
}
