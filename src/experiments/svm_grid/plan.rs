//! An `svm_grid` config expanded into cells: per dataset, one cell per
//! (reuse level, group of `rows_per_cell` gamma rows of the grid; default
//! all rows), one `svm-grid` peer cell (when asked for and installed) and
//! one practical-guide cell per `[[guide]]`. A cell is the unit of resume
//! and of shards: a killed run recomputes only the cells it had not
//! finished.

use super::config::SvmGridConfig;
use crate::config::ConfigFile;
use crate::experiments::cell_key::CellKey;
use crate::experiments::timing::{check_policy, Repeats};
use crate::experiments::{Cell, Context, ExperimentError, PlanHead};
use crate::pyfmt::py_float;
use cvbench_engine::api::data::{Dataset, ScaleRanges};
use cvbench_engine::api::grid_search::{Grid, Reuse};
use cvbench_engine::api::seed;
use std::sync::Arc;

/// What a cell does.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Work {
    /// The points of some gamma rows with one reuse level.
    Rows {
        /// Index into the plan's levels.
        level: usize,
        /// The rows' `log2 gamma` (`None`: gamma not searched).
        log2g: Vec<Option<f64>>,
    },
    /// LIBSVM's `svm-grid` on the whole grid.
    Peer,
    /// scikit-learn's `GridSearchCV(SVC(), n_jobs = all cores)` on the same grid and folds.
    Sklearn,
    /// The practical guide's test-set table (index into the plan's tests).
    Guide(usize),
}

/// One cell.
pub(super) struct CellSpec {
    pub dataset: usize,
    pub work: Work,
}

/// A training dataset as the grid sees it.
pub(super) struct GridData {
    /// Name in outputs.
    pub name: String,
    /// As loaded.
    pub raw: Arc<Dataset>,
    /// Scaled with its own ranges (when `scale`), else the same as `raw`.
    pub data: Arc<Dataset>,
    /// The ranges (when `scale`).
    pub ranges: Option<ScaleRanges>,
}

/// A test set of the guide table: the training dataset's index, the test
/// set as loaded and scaled with the training ranges.
pub(super) struct GuideTest {
    pub dataset: usize,
    pub raw: Arc<Dataset>,
    pub scaled: Arc<Dataset>,
}

/// A planned `svm_grid` run.
pub(super) struct GridPlan {
    pub head: PlanHead,
    pub grid: Grid,
    pub levels: Vec<Reuse>,
    pub k: usize,
    pub memory_mb: f64,
    pub threads: usize,
    /// How many times a cell is timed (`timing_repeats`, `timed_fewer_because`).
    pub repeats: Repeats,
    pub datasets: Vec<GridData>,
    pub tests: Vec<GuideTest>,
    pub specs: Vec<CellSpec>,
    /// The distance blocks last computed, keyed by (dataset, reuse level
    /// name): the gamma rows of a level share them, as `cvbench grid`'s
    /// single run does (each level computes them once, in its first row).
    pub dist_cache: std::sync::Mutex<Option<DistEntry>>,
}

/// A cached distance-block entry: dataset index, level name, the blocks.
pub(super) type DistEntry = (
    usize,
    String,
    Arc<cvbench_engine::api::grid_search::Distances>,
);

/// Parse, check and expand a config (loads and scales its datasets).
pub(super) fn plan(cfg: &ConfigFile, ctx: &Context) -> Result<GridPlan, ExperimentError> {
    let c: SvmGridConfig = cfg.parse()?;
    cfg.non_empty("datasets", &c.datasets)?;
    super::formulation::check_c_svc(cfg, &c)?;
    let grid = c.grid(cfg)?;
    let levels = c.levels(cfg)?;
    let k = c.folds(cfg)?;
    let rows_per_cell = c.rows_per_cell(cfg)?;
    let repeats = check_policy(cfg, &c.timing_repeats, &c.timed_fewer_because)?;
    let threads = c.threads(cfg)?;
    let mut datasets = Vec::new();
    for spec in c.datasets.get_ref() {
        let raw = ctx.dataset(spec)?;
        if raw.n() < k {
            return Err(cfg
                .invalid(
                    c.datasets.span(),
                    &format!(
                        "dataset {} has {} rows: the grid needs at least k = {k} rows",
                        raw.name,
                        raw.n()
                    ),
                    "choose a smaller k",
                )
                .into());
        }
        let (data, ranges) = if c.scale {
            let r = ScaleRanges::learn(&raw, -1.0, 1.0)?;
            (Arc::new(r.apply(&raw, true)), Some(r))
        } else {
            (raw.clone(), None)
        };
        datasets.push(GridData {
            name: raw.name.clone(),
            raw,
            data,
            ranges,
        });
    }
    let raws: Vec<&Dataset> = datasets.iter().map(|d| d.raw.as_ref()).collect();
    crate::experiments::svm_cv::formulation::refuse_regression(cfg, &c.datasets, &raws)?;
    let mut tests = Vec::new();
    for g in &c.guide {
        let spec = g.get_ref();
        let Some(di) = datasets.iter().position(|d| d.name == spec.dataset) else {
            return Err(cfg
                .invalid(
                    g.span(),
                    &format!("guide dataset `{}` is not one of `datasets`", spec.dataset),
                    "name a training dataset listed under [[datasets]]",
                )
                .into());
        };
        let raw = ctx.dataset(&spec.test)?;
        let scaled = match &datasets[di].ranges {
            Some(r) => Arc::new(r.apply(&raw, true)),
            None => raw.clone(),
        };
        tests.push(GuideTest {
            dataset: di,
            raw,
            scaled,
        });
    }
    let rows: Vec<Option<f64>> = {
        let mut v: Vec<Option<f64>> = Vec::new();
        for p in &grid.points {
            if !v.contains(&p.log2g) {
                v.push(p.log2g);
            }
        }
        v
    };
    let peers_ok = crate::peers::grid::available();
    let sklearn_ok = c.peer && crate::peers::grid::sklearn_available();
    if c.peer && !peers_ok {
        eprintln!(
            "{}: note: python3, svm-grid or svm-train not found: the svm-grid peer cells are skipped (`make peers` installs LIBSVM's tools)",
            cfg.path.display()
        );
    }
    let mut cells = Vec::new();
    let mut specs = Vec::new();
    let mut push = |key: String, dataset: usize, work: Work| {
        cells.push(Cell {
            seed: seed::derive(c.seed, &key),
            key,
        });
        specs.push(CellSpec { dataset, work });
    };
    for (di, d) in datasets.iter().enumerate() {
        for (li, level) in levels.iter().enumerate() {
            for group in rows.chunks(rows_per_cell.unwrap_or(rows.len()).max(1)) {
                let gnames: Vec<String> = group
                    .iter()
                    .map(|g| g.map_or("null".to_string(), py_float))
                    .collect();
                push(
                    CellKey::new(&d.name)
                        .part(level.name())
                        .field("log2g", gnames.join(","))
                        .as_str()
                        .to_string(),
                    di,
                    Work::Rows {
                        level: li,
                        log2g: group.to_vec(),
                    },
                );
            }
        }
        if c.peer && peers_ok {
            push(
                CellKey::new(&d.name).part("svm-grid").as_str().to_string(),
                di,
                Work::Peer,
            );
        }
        if c.peer && sklearn_ok {
            push(
                CellKey::new(&d.name).part("sklearn").as_str().to_string(),
                di,
                Work::Sklearn,
            );
        }
        for (ti, t) in tests.iter().enumerate() {
            if t.dataset == di {
                push(
                    CellKey::new(&d.name)
                        .part("guide")
                        .part(&t.raw.name)
                        .as_str()
                        .to_string(),
                    di,
                    Work::Guide(ti),
                );
            }
        }
    }
    Ok(GridPlan {
        head: PlanHead {
            kind: "svm_grid",
            name: c.name.into_inner(),
            base_seed: c.seed,
            exclusive: c.exclusive.unwrap_or(true),
            cells,
        },
        grid,
        levels,
        k,
        memory_mb: c
            .memory_mb
            .unwrap_or(cvbench_engine::api::params::grid_memory_mb(false)),
        threads,
        repeats,
        datasets,
        tests,
        specs,
        dist_cache: std::sync::Mutex::new(None),
    })
}
