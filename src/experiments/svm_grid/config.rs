//! The `svm_grid` config schema (`kind = "svm_grid"`); the practical
//! guide's published numbers are in `verdicts/published.rs`.

use crate::config::{ConfigError, ConfigFile};
use cvbench_engine::api::data::DatasetSpec;
use cvbench_engine::api::grid_search::{Axis, Grid, Reuse, EXPONENTS, MAX_POINTS};
use serde::Deserialize;
use toml::Spanned;

/// One entry of `[[guide]]`: a training dataset (one of `datasets`, by name)
/// and its test set.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuideSpec {
    /// The training dataset's name (as in `datasets`).
    pub dataset: String,
    /// The test set.
    pub test: DatasetSpec,
}

/// The `svm_grid` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvmGridConfig {
    /// Must be "svm_grid".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Note printed in the report.
    #[serde(default)]
    pub note: String,
    /// Base seed (fold seeders' random choices).
    pub seed: u64,
    /// Number of folds (LIBSVM's folds, as grid.py; default 5).
    #[serde(default)]
    pub k: Option<Spanned<usize>>,
    /// `[begin, end, step]` of log2 C (default grid.py's -5, 15, 2).
    #[serde(default)]
    pub log2c: Option<Spanned<Vec<f64>>>,
    /// `[begin, end, step]` of log2 gamma (default grid.py's 3, -15, -2).
    #[serde(default)]
    pub log2g: Option<Spanned<Vec<f64>>>,
    /// Reuse levels to run and compare (`none`, `gamma`, `gamma+cpath`, `all`, ...).
    pub reuse: Spanned<Vec<Spanned<String>>>,
    /// Memory budget of the gamma blocks in MB (default
    /// [`cvbench_engine::api::params::grid_memory_mb`]`(false)`, 2,048, on every
    /// machine).
    #[serde(default)]
    pub memory_mb: Option<f64>,
    /// Threads of the `threads` reuse (default: all cores; 1 to
    /// [`MAX_CELL_THREADS`](crate::config::MAX_CELL_THREADS)).
    #[serde(default)]
    pub threads: Option<Spanned<usize>>,
    /// Scale every dataset to [-1, 1] with ranges learned on it (svm-scale),
    /// the test sets of `[[guide]]` with the training ranges.
    #[serde(default)]
    pub scale: bool,
    /// Time LIBSVM's `svm-grid` on each dataset in the same run (when installed).
    #[serde(default)]
    pub peer: bool,
    /// Gamma rows of the grid per cell (default: all of them, one cell per
    /// dataset and reuse level, so that the level's gammas share the cores
    /// as `cvbench grid` does). Smaller cells resume and shard more finely.
    #[serde(default)]
    pub rows_per_cell: Option<Spanned<usize>>,
    /// Our levels' cells and the peers' (`svm-grid`, scikit-learn) are
    /// timed this many times (the first run's rows are the records; every
    /// run's wall seconds, their median, min and max are on the cell's
    /// row). At least 3 (the default) unless `timed_fewer_because` says why
    /// not; at most 100.
    #[serde(default)]
    pub timing_repeats: Option<Spanned<u32>>,
    /// Why this config's cells may be timed fewer than 3 times (default 1
    /// then) and a cell whose first run takes two minutes or more once.
    #[serde(default)]
    pub timed_fewer_because: Option<Spanned<String>>,
    /// Run cells one at a time (timing); default true.
    #[serde(default)]
    pub exclusive: Option<bool>,
    /// LIBSVM's formulation (`svm-train -s`) by the engine's name
    /// (`c_svc`, `nu_svc`, `one_class`, `epsilon_svr`, `nu_svr`); unset:
    /// C-SVC. The others run the formulation grid (`formulation/`).
    #[serde(default)]
    pub svm_type: Option<Spanned<String>>,
    /// epsilon-SVR's third axis: `[begin, end, step]` of log2 p (unset: p =
    /// 0.1, not searched).
    #[serde(default)]
    pub log2p: Option<Spanned<Vec<f64>>>,
    /// The nu axis of nu-SVC, one-class and nu-SVR: `[begin, end, step]`
    /// (linear, as `cvbench grid -nu`; unset: 0.1 to 0.7 by 0.2 for nu-SVC
    /// and one-class, nu = 0.5 for nu-SVR).
    #[serde(default)]
    pub nu: Option<Spanned<Vec<f64>>>,
    /// The formulation grid: svm-train's `-m` (MB) of each solve's own
    /// cache, ours and the peer's (default 100).
    #[serde(default)]
    pub cache_mb: Option<f64>,
    /// Training datasets (any labels: more than two classes run LIBSVM's
    /// one-vs-one CV at every point).
    pub datasets: Spanned<Vec<DatasetSpec>>,
    /// The practical guide's test-set table for some datasets.
    #[serde(default)]
    pub guide: Vec<Spanned<GuideSpec>>,
}

impl SvmGridConfig {
    /// The grid (checked: ranges, point count), with line:col on error.
    pub fn grid(&self, cfg: &ConfigFile) -> Result<Grid, ConfigError> {
        let axis = |v: &Option<Spanned<Vec<f64>>>,
                    what: &str,
                    default: Axis|
         -> Result<Option<Axis>, ConfigError> {
            let Some(v) = v else { return Ok(Some(default)) };
            let r = v.get_ref();
            if r.len() != 3 {
                return Err(cfg.invalid(
                    v.span(),
                    &format!("{what} needs [begin, end, step], got {} numbers", r.len()),
                    "write e.g. log2c = [-5, 15, 2]",
                ));
            }
            let text = format!("{},{},{}", r[0], r[1], r[2]);
            Axis::parse(what, &text).map_err(|e| {
                cfg.invalid(
                    v.span(),
                    &e.to_string(),
                    &format!(
                        "give `{what} = [begin, end, step]` with exponents from {} to {}, a non-zero step pointing from begin to end, at most {MAX_POINTS} values",
                        EXPONENTS.start(),
                        EXPONENTS.end()
                    ),
                )
            })
        };
        let c = axis(&self.log2c, "log2c", Axis::default_c())?;
        let g = axis(&self.log2g, "log2g", Axis::default_g())?;
        Grid::new(c, g).map_err(|e| {
            let span = self.log2c.as_ref().map_or(0..0, |s| s.span());
            cfg.invalid(span, &e.to_string(), "use larger steps or shorter ranges")
        })
    }

    /// The reuse levels (checked), with line:col on error.
    pub fn levels(&self, cfg: &ConfigFile) -> Result<Vec<Reuse>, ConfigError> {
        cfg.non_empty("reuse", &self.reuse)?;
        self.reuse
            .get_ref()
            .iter()
            .map(|s| {
                Reuse::parse(s.get_ref()).map_err(|e| {
                    cfg.invalid(s.span(), &e, "e.g. reuse = [\"none\", \"gamma\", \"all\"]")
                })
            })
            .collect()
    }

    /// Gamma rows per cell, checked (>= 1; `None`: all rows).
    pub fn rows_per_cell(&self, cfg: &ConfigFile) -> Result<Option<usize>, ConfigError> {
        match &self.rows_per_cell {
            None => Ok(None),
            Some(r) if *r.get_ref() >= 1 => Ok(Some(*r.get_ref())),
            Some(r) => Err(cfg.invalid(
                r.span(),
                "rows_per_cell must be at least 1",
                "leave it out (one cell per reuse level) or give a positive number of gamma rows",
            )),
        }
    }

    /// The threads of the `threads` reuse, checked (default: all cores).
    pub fn threads(&self, cfg: &ConfigFile) -> Result<usize, ConfigError> {
        match &self.threads {
            None => Ok(std::thread::available_parallelism().map_or(1, usize::from)),
            Some(t) => cfg.threads("threads", t),
        }
    }

    /// The number of folds, checked (>= 2).
    pub fn folds(&self, cfg: &ConfigFile) -> Result<usize, ConfigError> {
        match &self.k {
            None => Ok(5),
            Some(k) if *k.get_ref() >= 2 => Ok(*k.get_ref()),
            Some(k) => Err(cfg.invalid(
                k.span(),
                "k must be at least 2",
                "use k = 5 (grid.py's default)",
            )),
        }
    }
}
