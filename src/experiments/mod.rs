//! Experiment kinds: one module per paper. A kind parses its own config
//! schema into a [`Plan`] (a list of cells with stable seeds), runs one cell
//! at a time into record rows, and renders tables, figures and a report
//! section from stored records. The runner and the result writers are
//! generic and know nothing of any paper.
//!
//! This file holds what every kind implements and gets ([`Kind`], [`Plan`],
//! [`Context`], ...); the list of kinds is apart, in [`registry`], so that
//! the kinds import this file and nothing here imports a kind.

pub mod cell_key;
pub mod evidence;
#[cfg(test)]
mod figure_tests;
pub mod memory;
pub mod progressive;
pub mod published;
pub mod registry;
pub mod svm_cv;
pub mod svm_grid;
pub mod timing;
pub mod treecv;

pub use registry::kinds;

use crate::config::{ConfigError, ConfigFile};
use crate::results::rows::Core;
use crate::results::scorecard::{ScoreRow, StoredRun};
use crate::results::{Record, ResultsError};
use cvbench_engine::api::data::{DataDir, Dataset, DatasetSpec};
use cvbench_engine::api::errors::DataError;
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
    /// A paper's published numbers (`experiments/<paper>/published.toml`)
    /// are broken or lack a key a verdict needs.
    #[error(transparent)]
    Published(#[from] published::PublishedError),
    /// Collecting a run whose cells are not all there.
    #[error("{run}: {} of {total} cells missing, e.g. {}\n  fix: run the missing shards (`cvbench run CONFIG --shard I/N`) or `cvbench run CONFIG` without --shard, then collect again", missing.len(), missing.iter().take(5).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))]
    Incomplete {
        /// The run (config name).
        run: String,
        /// Keys of the missing cells, in plan order.
        missing: Vec<String>,
        /// Cells in the plan.
        total: usize,
    },
    /// An unsharded run found cells missing when it assembled: another
    /// process removed them meanwhile (a second `--fresh` run of the config).
    #[error("{run}: {} of {total} cells disappeared while this run finished, e.g. {}: another process (a second `cvbench run --fresh` of this config?) removed them\n  fix: wait for the other run to finish, or run this command again without --fresh to recompute only what is missing", missing.len(), missing.iter().take(3).map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))]
    Raced {
        /// The run (config name).
        run: String,
        /// Keys of the missing cells, in plan order.
        missing: Vec<String>,
        /// Cells in the plan.
        total: usize,
    },
    /// The results folder (`--out`) cannot hold the run.
    #[error("--out {} {message}\n  fix: {fix}", path.display())]
    Output {
        /// The folder that could not be made or written.
        path: PathBuf,
        /// What is wrong.
        message: String,
        /// What to do.
        fix: String,
    },
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
    /// Markdown for the report's appendix (cost tables, per-run detail that
    /// the main text summarises); empty when none.
    pub appendix: String,
}

/// The part of a plan every kind shares: the kind, the run's name and base
/// seed, whether its cells must run alone, and the cells.
#[derive(Clone, Debug)]
pub struct PlanHead {
    /// The kind's `kind = "..."` value.
    pub kind: &'static str,
    /// Output folder name (the config's `name`).
    pub name: String,
    /// The config's base seed.
    pub base_seed: u64,
    /// Whether cells must run one at a time (timing experiments).
    pub exclusive: bool,
    /// The cells, in their canonical order.
    pub cells: Vec<Cell>,
}

impl PlanHead {
    /// The core columns of cell `i`'s rows that the plan knows (kind, run,
    /// cell, seed); the kind fills the rest.
    pub fn core(&self, i: usize) -> Core {
        let cell = &self.cells[i];
        Core {
            kind: self.kind.to_string(),
            run: self.name.clone(),
            cell: cell.key.clone(),
            seed: cell.seed.to_string(),
            seconds: f64::NAN,
            ..Core::default()
        }
    }
}

impl Rendered {
    /// A run's rendering: writes its Markdown section to `report-section.md`
    /// in the run folder `dir` and lists that file after `files`.
    pub fn section(
        dir: &Path,
        markdown: String,
        appendix: String,
        mut files: Vec<PathBuf>,
    ) -> Result<Rendered, ExperimentError> {
        let path = dir.join("report-section.md");
        crate::results::table::write_atomic(&path, markdown.as_bytes())?;
        files.push(path);
        Ok(Rendered {
            files,
            markdown,
            appendix,
        })
    }
}

/// A planned run: the cells of one config, ready to execute.
pub trait Plan: Send + Sync {
    /// The shared part: name, base seed, exclusivity and cells.
    fn head(&self) -> &PlanHead;
    /// Output folder name (the config's `name`).
    fn name(&self) -> &str {
        &self.head().name
    }
    /// The config's base seed.
    fn base_seed(&self) -> u64 {
        self.head().base_seed
    }
    /// Whether cells must run one at a time (timing experiments).
    fn exclusive(&self) -> bool {
        self.head().exclusive
    }
    /// The cells, in their canonical order.
    fn cells(&self) -> &[Cell] {
        &self.head().cells
    }
    /// Run cell `i` into record rows.
    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError>;
    /// An estimate of cell `i`'s cost in any unit shared by the plan's cells
    /// (used to balance shards); `None` when the kind has none.
    fn cost(&self, i: usize) -> Option<f64> {
        let _ = i;
        None
    }
    /// Everything of the config that determines cell `i`'s numbers besides
    /// its key and seed, serialized (part of the cell's identity for resume);
    /// `None` means the whole config's content, which is always safe.
    fn cell_spec(&self, i: usize) -> Option<String> {
        let _ = i;
        None
    }
}

/// Every run's records (`runs`: run name and stored records) read as typed
/// rows by `read`, with the run's name: what a kind's
/// [`overview`](Kind::overview) starts from.
pub fn typed_runs<T, E>(
    runs: &[(String, Vec<Record>)],
    read: impl Fn(&[Record]) -> Result<Vec<T>, E>,
) -> Result<Vec<(String, Vec<T>)>, ExperimentError>
where
    ExperimentError: From<E>,
{
    runs.iter()
        .map(|(name, records)| Ok((name.clone(), read(records)?)))
        .collect()
}

/// A number a cell computed that must be finite (an estimate, an error
/// rate, an objective): the value, or a failed cell named `cell` that says
/// which number (`what`) was not finite. Nothing is recorded for a failed
/// cell, so a NaN never reaches a table as if it were a result.
pub fn finite_or_fail(cell: &str, what: &str, value: f64) -> Result<f64, ExperimentError> {
    if value.is_finite() {
        return Ok(value);
    }
    Err(ExperimentError::Cell {
        cell: cell.to_string(),
        message: format!(
            "{what} is {value}: the computation overflowed or diverged (feature values or labels too large? a learning rate too large?), so the cell has no result; scale the data (a `minmax` transform) or change the learner's parameters"
        ),
    })
}

/// The most cells one config may expand to, for every kind: a larger grid is
/// almost surely a typo, and planning it would exhaust memory.
pub const MAX_CELLS: usize = 1_000_000;

/// The most repetitions a config (or one of its blocks) may ask for, for
/// every kind.
pub const MAX_REPETITIONS: usize = 100_000;

/// What a kind is, in words and names, and how it plans a config and
/// renders a run: one constant per kind ([`Kind::about`]), read through
/// [`Kind`]'s accessors.
#[derive(Debug)]
pub struct About {
    /// The `kind = "..."` value.
    pub name: &'static str,
    /// The paper's section heading in the report.
    pub title: &'static str,
    /// The folder under `experiments/` with the paper's protocol notes.
    pub notes_folder: &'static str,
    /// The source folders this kind's numbers depend on (the report's
    /// provenance check flags runs made before a change to them).
    pub sources: &'static [&'static str],
    /// What one unit of [`Plan::cost`] is, as `validate` and `--dry-run`
    /// print it (`None`: this kind's plans estimate no cost).
    pub cost_unit: Option<&'static str>,
    /// The names of the unnamed parts of this kind's cell keys, by position
    /// (`validate` counts the cells per part; parts written `name=value`
    /// name themselves).
    pub key_parts: &'static [&'static str],
    /// The columns every record of this kind carries (what its tables are
    /// made of): the report skips a stored run whose records lack one.
    pub required_columns: &'static [&'static str],
    /// Parses, validates and expands a config into a plan ([`Kind::plan`]).
    pub plan: Planner,
    /// Renders a run's stored records ([`Kind::render`]).
    pub render: Renderer,
}

/// A kind's planner: parse, validate and expand a config into a plan
/// (loads its datasets).
pub type Planner = fn(&ConfigFile, &Context) -> Result<Box<dyn Plan>, ExperimentError>;

/// A kind's renderer: tables, figures and a report section from a run's
/// stored records; `dir` is the run folder, the config the one it ran.
pub type Renderer = fn(&Path, &ConfigFile, &[Record]) -> Result<Rendered, ExperimentError>;

/// An experiment kind (one per paper).
pub trait Kind: Sync {
    /// This kind's names and words.
    fn about(&self) -> &'static About;
    /// [`About::name`].
    fn name(&self) -> &'static str {
        self.about().name
    }
    /// [`About::title`].
    fn title(&self) -> &'static str {
        self.about().title
    }
    /// [`About::notes_folder`].
    fn notes_folder(&self) -> &'static str {
        self.about().notes_folder
    }
    /// [`About::sources`].
    fn sources(&self) -> &'static [&'static str] {
        self.about().sources
    }
    /// [`About::cost_unit`].
    fn cost_unit(&self) -> Option<&'static str> {
        self.about().cost_unit
    }
    /// [`About::key_parts`].
    fn key_parts(&self) -> &'static [&'static str] {
        self.about().key_parts
    }
    /// [`About::required_columns`].
    fn required_columns(&self) -> &'static [&'static str] {
        self.about().required_columns
    }
    /// The cost, in [`Plan::cost`]'s units, of the cells a stored run's
    /// records hold, so that the stored runs' seconds give a rate per unit
    /// (`validate` and `--dry-run` turn a plan's cost into minutes with it);
    /// `None` (the default) when the records do not give it.
    fn stored_cost(&self, records: &[Record]) -> Option<f64> {
        let _ = records;
        None
    }
    /// Parse, validate and expand a config into a plan (loads its datasets):
    /// [`About::plan`].
    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
        (self.about().plan)(cfg, ctx)
    }
    /// Render tables, figures and a report section from a run's stored records
    /// ([`About::render`]). `dir` is the run folder; `config` the config it ran.
    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError> {
        (self.about().render)(dir, config, records)
    }
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
    /// The scorecard rows of this kind's paper, computed from the stored
    /// runs of this kind under a results folder (`runs` may be empty: every
    /// artifact is then "not run"); an error where the paper's published
    /// numbers are broken.
    fn scorecard(&self, runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, ExperimentError> {
        let _ = runs;
        Ok(Vec::new())
    }
}

#[derive(serde::Deserialize)]
struct CommonKeys {
    name: Option<toml::Spanned<String>>,
    datasets: Option<Vec<toml::Spanned<DatasetSpec>>>,
}

/// Checks every kind shares, run before a kind plans a config (and so before
/// anything runs): `name` is a plain folder name; the `datasets` entries
/// (of kinds that have them) load — a load error names the config file and
/// the entry's line — and have distinct names (two entries that resolve to
/// one name, such as `name = "heart_scale"` and `path = "heart_scale.xz"`,
/// would share their cells). Keys that do not parse are left to the kind,
/// whose schema reports them.
pub fn preflight(cfg: &ConfigFile, ctx: &Context) -> Result<(), ExperimentError> {
    let Ok(common) = cfg.parse::<CommonKeys>() else {
        return Ok(());
    };
    if let Some(name) = &common.name {
        cfg.check_folder_name(name.get_ref(), name.span())?;
    }
    let mut seen: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    for entry in common.datasets.iter().flatten() {
        let spec = entry.get_ref();
        let (line, col) = cfg.line_col(entry.span().start);
        let data = ctx.dataset(spec).map_err(|source| {
            let text = source.to_string();
            let name = spec.display_name();
            ConfigError::Dataset {
                path: cfg.path.clone(),
                line,
                col,
                message: if text.contains(&format!("`{name}`")) {
                    text
                } else {
                    format!("dataset `{name}`: {text}")
                },
                source: Box::new(source),
            }
        })?;
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == data.name) {
            let (l0, _) = cfg.line_col(first.start);
            return Err(cfg
                .invalid(
                    entry.span(),
                    &format!(
                        "this dataset resolves to the name `{}`, like the one at line {l0}: their cells would collide",
                        data.name
                    ),
                    "remove the duplicate, or give one of them its own `label = \"...\"`",
                )
                .into());
        }
        seen.push((data.name.clone(), entry.span()));
    }
    Ok(())
}

/// Shared state for planning: the data directory and a cache of loaded
/// datasets with their content fingerprints.
pub struct Context {
    /// Where datasets are looked for.
    pub data_dir: DataDir,
    cache: Mutex<HashMap<String, (Arc<Dataset>, u64)>>,
    used: Mutex<Vec<(String, u64)>>,
    config_dir: Mutex<Option<PathBuf>>,
}

impl Context {
    /// A context reading data from `data_dir`.
    pub fn new(data_dir: DataDir) -> Context {
        Context {
            data_dir,
            cache: Mutex::new(HashMap::new()),
            used: Mutex::new(Vec::new()),
            config_dir: Mutex::new(None),
        }
    }

    /// The folder of the config being planned: a relative data `path` is
    /// looked up there first (then in the working directory, then in the
    /// data directory).
    pub fn set_config_dir(&self, dir: Option<&Path>) {
        if let Ok(mut c) = self.config_dir.lock() {
            *c = dir.map(Path::to_path_buf);
        }
    }

    /// `spec` with a relative `path` (and `labels`) resolved against the
    /// config's folder, where the file is there.
    fn in_config_dir(&self, spec: &DatasetSpec) -> DatasetSpec {
        let mut s = spec.clone();
        let base = self.config_dir.lock().ok().and_then(|c| c.clone());
        if let Some(base) = base.filter(|b| !b.as_os_str().is_empty()) {
            for p in [&mut s.path, &mut s.labels].into_iter().flatten() {
                let joined = base.join(&*p);
                if p.is_relative() && joined.exists() {
                    *p = joined;
                }
            }
        }
        s
    }

    /// Load a dataset (once per spec per process; its fingerprint is computed
    /// at load time and the use is logged for [`Context::take_used`]).
    pub fn dataset(&self, spec: &DatasetSpec) -> Result<Arc<Dataset>, DataError> {
        let key = format!("{spec:?}");
        let spec = &self.in_config_dir(spec);
        let key_resolved = format!("{spec:?}");
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|c| c.get(&key_resolved).cloned());
        let (d, fp) = match cached {
            Some(hit) => hit,
            None => {
                let d = Arc::new(spec.load(&self.data_dir)?);
                let fp = fingerprint(&d);
                if let Ok(mut c) = self.cache.lock() {
                    c.insert(key_resolved.clone(), (d.clone(), fp));
                }
                (d, fp)
            }
        };
        if let Ok(mut u) = self.used.lock() {
            if !u.iter().any(|(k, _)| *k == key) {
                u.push((key, fp));
            }
        }
        Ok(d)
    }

    /// Log the use of a dataset loaded without [`Context::dataset`] (its
    /// content then counts in the identity of the plan's cells).
    pub fn note_use(&self, what: &str, d: &Dataset) {
        let fp = fingerprint(d);
        if let Ok(mut u) = self.used.lock() {
            if !u.iter().any(|(k, _)| k == what) {
                u.push((what.to_string(), fp));
            }
        }
    }

    /// The datasets (spec and content fingerprint) used since the last call,
    /// in order of first use; clears the log. The runner brackets planning
    /// with it to learn which data a plan's cells depend on.
    pub fn take_used(&self) -> Vec<(String, u64)> {
        self.used
            .lock()
            .map(|mut u| std::mem::take(&mut *u))
            .unwrap_or_default()
    }
}

/// A stable 64-bit fingerprint of a dataset's content: name, shape, storage,
/// every feature value and label (bit patterns), so that any change to a data
/// file, a transform or a generator parameter changes it.
pub fn fingerprint(d: &Dataset) -> u64 {
    use cvbench_engine::api::data::Features;
    use cvbench_engine::api::seed::mix64;
    let mut h = cvbench_engine::api::seed::derive(0, &d.name);
    let mut put = |w: u64| h = mix64(h ^ w);
    put(d.n() as u64);
    put(d.d() as u64);
    match &d.x {
        Features::Dense { values, .. } => {
            put(1);
            values.iter().for_each(|v| put(v.to_bits()));
        }
        Features::Sparse {
            indptr,
            indices,
            values,
            ..
        } => {
            put(2);
            indptr.iter().for_each(|&p| put(p as u64));
            indices.iter().for_each(|&j| put(u64::from(j)));
            values.iter().for_each(|v| put(v.to_bits()));
        }
    }
    d.y.iter().for_each(|v| put(v.to_bits()));
    h
}
