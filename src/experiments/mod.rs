//! Experiment kinds: one module per paper. A kind parses its own config
//! schema into a [`Plan`] (a list of cells with stable seeds), runs one cell
//! at a time into record rows, and renders tables, figures and a report
//! section from stored records. The runner and the result writers are
//! generic and know nothing of any paper.

pub mod progressive;
pub mod svm_cv;
pub mod treecv;

use crate::config::{ConfigError, ConfigFile};
use crate::data::{DataDir, DataError, Dataset, DatasetSpec};
use crate::results::{Record, ResultsError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Errors of planning, running or rendering an experiment.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// Bad config.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Missing or malformed data.
    #[error(transparent)]
    Data(#[from] DataError),
    /// Writing or reading results failed.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// A cell failed while running.
    #[error("cell {cell}: {message}")]
    Cell {
        /// The cell's key.
        cell: String,
        /// What went wrong.
        message: String,
    },
}

/// One unit of work: a stable key (its identity), a label and its seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Stable identity, e.g. `a9a|pegasos|treecv|fixed|k=10|n=all|rep=3`.
    pub key: String,
    /// The cell's seed: `seed::derive(base_seed, key)`.
    pub seed: u64,
}

/// What a kind renders from stored records: files written and a Markdown
/// report section (which may embed the figures by relative path).
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// Files written (tables, figures).
    pub files: Vec<PathBuf>,
    /// Markdown for `REPORT.md`, with image links relative to the results root.
    pub markdown: String,
}

/// A planned run: the cells of one config, ready to execute.
pub trait Plan: Send + Sync {
    /// Output folder name (the config's `name`).
    fn name(&self) -> &str;
    /// The config's base seed.
    fn base_seed(&self) -> u64;
    /// Whether cells must run one at a time (timing experiments).
    fn exclusive(&self) -> bool;
    /// The cells, in their canonical order.
    fn cells(&self) -> &[Cell];
    /// Run cell `i` into record rows.
    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError>;
}

/// An experiment kind (one per paper).
pub trait Kind: Sync {
    /// The `kind = "..."` value.
    fn name(&self) -> &'static str;
    /// Parse, validate and expand a config into a plan (loads its datasets).
    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError>;
    /// Render tables, figures and a report section from a run's stored records.
    /// `dir` is the run folder; `config` the config it ran.
    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError>;
    /// A summary across every run of this kind under a results folder `root`
    /// (`runs`: run name and stored records), shown before the runs' own
    /// sections in `REPORT.md`: its markdown and the files it wrote.
    fn overview(
        &self,
        root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<PathBuf>)>, ExperimentError> {
        let _ = (root, runs);
        Ok(None)
    }
}

/// Every experiment kind the harness knows.
pub fn kinds() -> Vec<&'static dyn Kind> {
    vec![
        &treecv::TreecvKind,
        &progressive::kind::ProgressiveKind,
        &svm_cv::SvmCvKind,
    ]
}

/// Shared state for planning: the data directory and a cache of loaded datasets.
pub struct Context {
    /// Where datasets are looked for.
    pub data_dir: DataDir,
    cache: Mutex<HashMap<String, Arc<Dataset>>>,
}

impl Context {
    /// A context reading data from `data_dir`.
    pub fn new(data_dir: DataDir) -> Context {
        Context {
            data_dir,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Load a dataset (once per spec per process).
    pub fn dataset(&self, spec: &DatasetSpec) -> Result<Arc<Dataset>, DataError> {
        let key = format!("{spec:?}");
        if let Some(d) = self.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(d);
        }
        let d = Arc::new(spec.load(&self.data_dir)?);
        if let Ok(mut c) = self.cache.lock() {
            c.insert(key, d.clone());
        }
        Ok(d)
    }
}
