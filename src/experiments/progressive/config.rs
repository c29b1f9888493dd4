//! The `progressive` config schema: the BKL study (Figure 1, the table),
//! theorem-check blocks and stream blocks, as parsed from TOML (unknown keys
//! rejected). Learners use the shared [`LearnerSpec`]; the checks that need
//! more than the schema are in the plan.

use serde::Deserialize;
use toml::Spanned;

use super::paper::TieKind;
use crate::learners::LearnerSpec;

/// Figure 1: hold-out against progressive validation for a range of `n`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure1Spec {
    /// Smallest total size `n` (the paper: 10).
    pub n_min: usize,
    /// Largest total size `n` (the paper: 30).
    pub n_max: usize,
    /// Test / progressive set size (the paper: 10).
    pub s: usize,
    /// Repetitions per `n` (the paper: 1000).
    pub reps: usize,
    /// Fresh examples for the measured true error (0: exact true error only).
    #[serde(default)]
    pub fresh: usize,
}

/// The table of Section 5 (rows from `published.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Repetitions per row (the paper: 1000).
    pub reps: usize,
    /// Fresh examples for the measured true error (the paper: 10,000).
    pub fresh: usize,
    /// Extra progressive rows with these delays (same sizes as the PV row).
    #[serde(default)]
    pub delays: Vec<usize>,
}

/// The synthetic BKL study.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BklSection {
    /// Number of features `N` (default 1000).
    #[serde(default = "default_features")]
    pub n_features: usize,
    /// Figure 1.
    pub figure1: Option<Figure1Spec>,
    /// The table.
    pub table: Option<TableSpec>,
}

fn default_features() -> usize {
    1000
}

/// A population for the theorem checks.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PopulationCfg {
    /// The synthetic problem: `{ n_features = 1000, tie = "half" }`.
    pub synthetic: Option<SyntheticCfg>,
    /// Registry name of the training pool (real data).
    pub train: Option<String>,
    /// Registry name of the test set standing in for the distribution.
    pub test: Option<String>,
    /// Without `test`: hold out this fraction of `train` as the test set.
    pub test_fraction: Option<f64>,
    /// The learner (real data; not ridge, and without `on`).
    pub learner: Option<Spanned<LearnerSpec>>,
    /// Shuffle each fold hypothesis' training points (order-sensitive learners).
    #[serde(default)]
    pub shuffle: bool,
}

/// The synthetic population.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticCfg {
    /// Number of features.
    #[serde(default = "default_features")]
    pub n_features: usize,
    /// Tie rule.
    #[serde(default = "default_tie")]
    pub tie: TieKind,
}

fn default_tie() -> TieKind {
    TieKind::Half
}

/// A k-fold setting `(n, k)`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KfCfg {
    /// Data set size.
    pub n: usize,
    /// Folds.
    pub k: usize,
}

/// A progressive setting `(n_train, s)`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PvCfg {
    /// Training points.
    pub n_train: usize,
    /// Progressive set size.
    pub s: usize,
}

/// One block of theorem checks on one population.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TheoremBlock {
    /// The population.
    pub population: PopulationCfg,
    /// Repetitions per setting.
    pub reps: usize,
    /// k-fold settings (Theorems 1–3).
    #[serde(default)]
    pub kfold: Vec<KfCfg>,
    /// Progressive settings (Theorems 4–5).
    #[serde(default)]
    pub progressive: Vec<PvCfg>,
}

/// One stream study.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamBlock {
    /// Registry name of the stream.
    pub train: String,
    /// Registry name of the test set.
    pub test: Option<String>,
    /// Without `test`: hold out this fraction of `train` as the test set.
    pub test_fraction: Option<f64>,
    /// Learners (not ridge, and without `on`).
    pub learners: Vec<Spanned<LearnerSpec>>,
    /// Log-spaced checkpoints (default 40).
    #[serde(default = "default_checkpoints")]
    pub checkpoints: usize,
    /// Hold-out fraction of the stream for the hold-out estimate (default 0.1).
    #[serde(default = "default_holdout")]
    pub holdout_fraction: f64,
    /// Sampled members of the progressive hypothesis (default 100).
    #[serde(default = "default_members")]
    pub members: usize,
    /// Stream orders (default 1).
    #[serde(default = "default_one")]
    pub reps: usize,
    /// Use only the first `n` points of the (shuffled) stream.
    pub n: Option<usize>,
}

fn default_checkpoints() -> usize {
    40
}
fn default_holdout() -> f64 {
    0.1
}
fn default_members() -> usize {
    100
}
fn default_one() -> usize {
    1
}

/// The `progressive` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressiveConfig {
    /// Must be "progressive".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Note printed in the report.
    #[serde(default)]
    pub note: String,
    /// Base seed.
    pub seed: u64,
    /// The synthetic BKL study (Figure 1, table).
    pub bkl: Option<Spanned<BklSection>>,
    /// Theorem checks.
    #[serde(default)]
    pub theorems: Vec<Spanned<TheoremBlock>>,
    /// Stream studies.
    #[serde(default)]
    pub stream: Vec<Spanned<StreamBlock>>,
    /// Deviations `a` for the tail (Hoeffding) tables.
    #[serde(default = "default_tail_a")]
    pub tail_a: Vec<f64>,
    /// Moment orders for Theorems 1–2.
    #[serde(default = "default_moments")]
    pub moments: Vec<u32>,
}

fn default_tail_a() -> Vec<f64> {
    (1..=10).map(|i| f64::from(i) * 0.05).collect()
}
fn default_moments() -> Vec<u32> {
    vec![1, 2, 3, 4]
}
