//! The practical guide's published numbers
//! (`experiments/guide/published.toml`), typed: Appendix A per dataset.

use serde::Deserialize;

/// The published numbers (experiments/guide/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../../experiments/guide/published.toml");

/// One dataset's row of the practical guide's Appendix A.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideRow {
    /// Our dataset name (training file).
    pub dataset: String,
    /// The guide's name for it.
    pub guide_name: String,
    /// Test accuracy (%) with default parameters on the original data.
    pub original: f64,
    /// Test accuracy (%) with default parameters after scaling.
    pub scaled: f64,
    /// Test accuracy (%) after grid search (C, gamma) on the scaled data.
    pub grid: f64,
    /// The guide's chosen `log2 C`.
    pub log2c: f64,
    /// The guide's chosen `log2 gamma`.
    pub log2g: f64,
    /// grid.py's printed 5-fold CV rate (%) at the guide's choice, where
    /// the guide prints it.
    #[serde(default)]
    pub cv_rate: Option<f64>,
}

/// The published table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// One row per dataset.
    pub guide: Vec<GuideRow>,
}

/// The file, as errors name it.
pub const PUBLISHED_FILE: &str = "experiments/guide/published.toml";

impl Published {
    /// The embedded published numbers, or the error naming the file and key.
    pub fn load() -> Result<Published, crate::experiments::published::PublishedError> {
        crate::experiments::published::parse(PUBLISHED_FILE, PUBLISHED)
    }
}
