//! The TreeCV paper's published numbers
//! (`experiments/treecv/published.toml`), typed: Table 2 per learner, the
//! running times quoted in Figure 2's text and the randomization factors.

use crate::experiments::published::PublishedError;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The published numbers (experiments/treecv/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../../experiments/treecv/published.toml");

/// The paper's numbers (`published.toml`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// Table 2 per learner (`pegasos`, `lsqsgd`).
    pub table2: BTreeMap<String, PublishedTable>,
    /// The running times quoted in Figure 2's text.
    pub figure2: Vec<PublishedTime>,
    /// Randomized over fixed time per method, as the text quotes it.
    pub randomization_factor: RandomizationFactor,
}

/// Randomized over fixed time per method, as the paper's text quotes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomizationFactor {
    /// Standard k-CV (about 1.5x).
    pub standard: f64,
    /// TreeCV (about 2x).
    pub treecv: f64,
}

impl RandomizationFactor {
    /// The factor of CV method `method` (`standard` or `treecv`).
    pub fn of(&self, method: &str) -> Option<f64> {
        match method {
            "standard" => Some(self.standard),
            "treecv" => Some(self.treecv),
            _ => None,
        }
    }
}

/// The file, as errors name it.
pub const PUBLISHED_FILE: &str = "experiments/treecv/published.toml";

impl Published {
    /// The embedded [`PUBLISHED`] numbers, or the error naming the file and
    /// the key.
    pub fn load() -> Result<Published, PublishedError> {
        crate::experiments::published::parse(PUBLISHED_FILE, PUBLISHED)
    }

    /// Learner `learner`'s Table 2.
    pub fn table2(&self, learner: &str) -> Result<&PublishedTable, PublishedError> {
        self.table2
            .get(learner)
            .ok_or_else(|| PublishedError::Missing {
                file: PUBLISHED_FILE,
                key: format!("[table2.{learner}]"),
            })
    }
}

/// A running time quoted in the paper's Figure 2 text.
#[derive(Deserialize)]
pub struct PublishedTime {
    /// Learner (`pegasos`).
    pub learner: String,
    /// What the time is of, in words.
    pub what: String,
    /// CV method.
    pub method: String,
    /// Order.
    pub order: String,
    /// Folds (`n` for LOOCV).
    pub k: String,
    /// Dataset size.
    pub n: i64,
    /// The quoted seconds.
    pub seconds: f64,
}

/// One learner's Table 2 in the paper.
#[derive(Deserialize)]
pub struct PublishedTable {
    /// The paper's dataset, in words.
    pub dataset: String,
    /// The units of the cells.
    pub units: String,
    /// A row per k.
    pub rows: Vec<PublishedRow>,
}

/// A row of the paper's Table 2: `[mean, std]` per column (`None`: N/A).
#[derive(Deserialize)]
pub struct PublishedRow {
    /// Folds (`n` for LOOCV).
    pub k: String,
    /// TreeCV, fixed order.
    pub treecv_fixed: Option<[f64; 2]>,
    /// TreeCV, randomized order.
    pub treecv_randomized: Option<[f64; 2]>,
    /// Standard k-CV, fixed order.
    pub standard_fixed: Option<[f64; 2]>,
    /// Standard k-CV, randomized order.
    pub standard_randomized: Option<[f64; 2]>,
}

impl PublishedRow {
    /// The four cells in the order of
    /// [`COLS`](crate::experiments::treecv::rows::COLS).
    pub fn cells(&self) -> [Option<[f64; 2]>; 4] {
        [
            self.treecv_fixed,
            self.treecv_randomized,
            self.standard_fixed,
            self.standard_randomized,
        ]
    }
}
