//! The `progressive` config schema: the BKL study (Figure 1, the table),
//! theorem-check blocks and stream blocks, as parsed from TOML (unknown keys
//! rejected; a key spelled as before a rename is reported with its new name,
//! see [`parse`]). Learners use the shared [`LearnerSpec`]; the checks that
//! need more than the schema are in the plan.

use serde::Deserialize;
use toml::Spanned;

use super::paper::TieKind;
use crate::config::{ConfigError, ConfigFile};
use cvbench_engine::api::learners::LearnerSpec;

/// The most points a theorem setting or BKL size may ask for (`n`, `n_max`,
/// `n_train + s`, a delay): more would run for days.
pub const MAX_POINTS: usize = 1_000_000;
/// The most fresh examples per repetition of a BKL study.
pub const MAX_FRESH_EXAMPLES: usize = 1_000_000;
/// The most checkpoints of a stream (each is a test-set evaluation).
pub const MAX_CHECKPOINTS: usize = 10_000;
/// The most sampled members of a stream's progressive hypothesis.
pub const MAX_MEMBERS: usize = 100_000;
/// The fewest points of a stream (and of its `n`).
pub const MIN_STREAM: usize = 10;

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
    pub repetitions: usize,
    /// Fresh examples for the measured true error (0: exact true error only).
    #[serde(default)]
    pub fresh_examples: usize,
}

/// The table of Section 5 (rows from `published.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Repetitions per row (the paper: 1000).
    pub repetitions: usize,
    /// Fresh examples for the measured true error (the paper: 10,000).
    pub fresh_examples: usize,
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
    pub repetitions: usize,
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
    pub repetitions: usize,
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

/// Keys renamed so that one idea has one name across kinds: (old, new, why).
const RENAMED: [(&str, &str, &str); 2] = [
    ("reps", "repetitions", "as in every kind's config"),
    (
        "fresh",
        "fresh_examples",
        "a count of fresh examples; `--fresh` on the command line recomputes a run",
    ),
];

/// Where a config still uses a renamed key (the value's location).
#[derive(Default, Deserialize)]
struct OldKeys {
    reps: Option<Spanned<toml::Value>>,
    fresh: Option<Spanned<toml::Value>>,
}

/// The blocks that had renamed keys: `[bkl.figure1]` and `[bkl.table]`
/// (`reps`, `fresh`), `[[theorems]]` and `[[stream]]` (`reps`).
#[derive(Default, Deserialize)]
struct OldSpellings {
    bkl: Option<OldBkl>,
    #[serde(default)]
    theorems: Vec<OldReps>,
    #[serde(default)]
    stream: Vec<OldReps>,
}

#[derive(Default, Deserialize)]
struct OldBkl {
    figure1: Option<OldKeys>,
    table: Option<OldKeys>,
}

#[derive(Default, Deserialize)]
struct OldReps {
    reps: Option<Spanned<toml::Value>>,
}

impl OldSpellings {
    /// The first renamed key used: its old name and its value's span.
    fn first(self) -> Option<(&'static str, std::ops::Range<usize>)> {
        let bkl = self.bkl.unwrap_or_default();
        let mut found = Vec::new();
        for keys in [bkl.figure1, bkl.table].into_iter().flatten() {
            found.extend(keys.reps.map(|v| (RENAMED[0].0, v.span())));
            found.extend(keys.fresh.map(|v| (RENAMED[1].0, v.span())));
        }
        for block in self.theorems.into_iter().chain(self.stream) {
            found.extend(block.reps.map(|v| (RENAMED[0].0, v.span())));
        }
        found.into_iter().min_by_key(|(_, span)| span.start)
    }
}

/// Parse a `progressive` config. A key spelled as before its rename (`reps`,
/// `fresh`) is an error naming the new key, at the key's value, rather than
/// the schema's generic unknown-key message.
pub fn parse(cfg: &ConfigFile) -> Result<ProgressiveConfig, ConfigError> {
    // A config that does not fit even this loose shape gets the schema's
    // own error below.
    if let Some((old, span)) = cfg
        .parse::<OldSpellings>()
        .ok()
        .and_then(OldSpellings::first)
    {
        let (_, new, why) = RENAMED
            .iter()
            .find(|r| r.0 == old)
            .copied()
            .unwrap_or(RENAMED[0]);
        return Err(cfg.invalid(
            span,
            &format!("`{old}` is now `{new}` ({why})"),
            &format!("rename `{old}` to `{new}`"),
        ));
    }
    cfg.parse()
}
