//! The `treecv` config schema (unknown keys rejected; spanned values, so that
//! errors name line:col) with the checks that need only the config; the
//! paper's published numbers are in `verdicts/published.rs`.

use crate::config::{ConfigError, ConfigFile, KValue, NValue};
use crate::experiments::cell_key::no_duplicates;
use cvbench_engine::api::data::DatasetSpec;
use cvbench_engine::api::learners::{AnyLearner, LearnerSpec, Order};
use serde::Deserialize;
use toml::Spanned;

/// The most repetitions a config may ask for (the paper: 100), shared by every kind.
pub use crate::experiments::MAX_REPETITIONS;

/// Heading of the report's Table 2 comparison section (the paper's pattern
/// against ours); each run's section links to it.
pub const TABLE2_SECTION: &str = "Table 2: the paper's pattern against ours";
/// Heading of the report's Figure 2 comparison section (the paper's quoted
/// times against ours); each timing run's section links to it.
pub const FIGURE2_SECTION: &str = "Figure 2: the paper's times against ours";

/// A CV method of this experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// TreeCV, copy strategy (the paper's default).
    Treecv,
    /// TreeCV, save/revert strategy.
    TreecvRevert,
    /// TreeCV with the branches in parallel on rayon.
    TreecvParallel,
    /// Standard k-CV.
    Standard,
    /// Standard k-CV with the folds in parallel on rayon.
    StandardParallel,
    /// No CV: one training pass over all n points (the unit of cost).
    TrainOnce,
}

impl Method {
    /// The method's name in configs, cell keys and records.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Treecv => "treecv",
            Method::TreecvRevert => "treecv_revert",
            Method::TreecvParallel => "treecv_parallel",
            Method::Standard => "standard",
            Method::StandardParallel => "standard_parallel",
            Method::TrainOnce => "train_once",
        }
    }
}

/// One block of the grid: every combination of its lists.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// CV methods.
    pub methods: Spanned<Vec<Method>>,
    /// Orders.
    pub orders: Spanned<Vec<Order>>,
    /// Numbers of folds (integers or "n").
    pub k: Spanned<Vec<Spanned<KValue>>>,
    /// Dataset sizes (integers or "all"; default ["all"]).
    #[serde(default)]
    pub n: Option<Spanned<Vec<Spanned<NValue>>>>,
    /// Repetitions of this block's cells (default: the config's `repetitions`).
    #[serde(default)]
    pub repetitions: Option<Spanned<usize>>,
}

/// The `treecv` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreecvConfig {
    /// Must be "treecv".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Base seed.
    pub seed: u64,
    /// Repetitions (each a fresh random permutation / subsample).
    pub repetitions: Spanned<usize>,
    /// Run cells one at a time (for timing).
    #[serde(default)]
    pub exclusive: bool,
    /// Published table to set beside ours: "pegasos" or "lsqsgd" (Table 2).
    #[serde(default)]
    pub paper_table: Option<String>,
    /// Note printed in the report (substitute datasets, deviations).
    #[serde(default)]
    pub note: String,
    /// Datasets.
    pub datasets: Spanned<Vec<DatasetSpec>>,
    /// Learners.
    pub learners: Spanned<Vec<Spanned<LearnerSpec>>>,
    /// Grid blocks.
    pub grid: Spanned<Vec<Grid>>,
}

impl TreecvConfig {
    /// The checks made before any dataset is looked at: `repetitions` in
    /// `1..=MAX_REPETITIONS`; `datasets`, `learners` and `grid` not empty;
    /// every learner valid. Returns the built learners, in config order.
    pub fn check(&self, cfg: &ConfigFile) -> Result<Vec<AnyLearner>, ConfigError> {
        let reps = *self.repetitions.get_ref();
        if reps == 0 || reps > MAX_REPETITIONS {
            return Err(cfg.invalid(
                self.repetitions.span(),
                &format!("repetitions = {reps} is not in 1..={MAX_REPETITIONS}"),
                "the paper uses 100; set repetitions between 1 and 100000",
            ));
        }
        cfg.non_empty("datasets", &self.datasets)?;
        cfg.non_empty("learners", &self.learners)?;
        cfg.non_empty("grid", &self.grid)?;
        self.learners
            .get_ref()
            .iter()
            .map(|l| {
                l.get_ref().check().map_err(|e| {
                    cfg.invalid(
                        l.span(),
                        &e.to_string(),
                        "remove the key, fix its value or change the learner type",
                    )
                })
            })
            .collect()
    }

    /// Every learner's `on` list, once the datasets are loaded (`loaded`:
    /// their names): not empty, and naming only loaded datasets.
    pub fn check_on(&self, cfg: &ConfigFile, loaded: &[&str]) -> Result<(), ConfigError> {
        for ls in self.learners.get_ref() {
            if ls.get_ref().on.as_ref().is_some_and(Vec::is_empty) {
                return Err(cfg.invalid(
                    ls.span(),
                    "`on` is empty: this learner would run on no dataset",
                    "name at least one dataset, or remove `on` to use every dataset",
                ));
            }
            if let Some(name) = ls
                .get_ref()
                .on
                .iter()
                .flatten()
                .find(|name| !loaded.contains(&name.as_str()))
            {
                return Err(cfg.invalid(
                    ls.span(),
                    &format!("`on` names dataset `{name}`, which this config does not load"),
                    &format!("use one of: {}", loaded.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// Each learner's spec without its `on` list, serialized: what of a
    /// learner determines a cell's numbers (part of the cell's identity).
    pub fn learner_specs(&self) -> Vec<String> {
        self.learners
            .get_ref()
            .iter()
            .map(|l| {
                let mut l = l.get_ref().clone();
                l.on = None;
                format!("{l:?}")
            })
            .collect()
    }
}

/// Whether learner `l` runs on the dataset named `dataset` (its `on` list,
/// every dataset when absent).
pub fn applies(l: &LearnerSpec, dataset: &str) -> bool {
    l.on.as_ref()
        .is_none_or(|on| on.iter().any(|d| d == dataset))
}

/// An `n` value as it appears in cell keys: `all` or the number.
pub fn n_label(n: NValue) -> String {
    match n {
        NValue::All => "all".to_string(),
        NValue::Size(n) => n.to_string(),
    }
}

impl Grid {
    /// The block's lists are not empty and its own `repetitions`, if set,
    /// is at least 1. Returns the block's repetitions (`default`: the
    /// config's).
    pub fn check(&self, cfg: &ConfigFile, default: usize) -> Result<usize, ConfigError> {
        cfg.non_empty("methods", &self.methods)?;
        cfg.non_empty("orders", &self.orders)?;
        cfg.non_empty("k", &self.k)?;
        if let Some(n) = &self.n {
            cfg.non_empty("n", n)?;
        }
        // An entry listed twice would give the same cells twice.
        let list = |span: std::ops::Range<usize>| move |m: &str| (m.to_string(), span.clone());
        let methods = list(self.methods.span());
        no_duplicates(
            cfg,
            "methods",
            self.methods.get_ref().iter().map(|m| methods(m.as_str())),
        )?;
        let orders = list(self.orders.span());
        no_duplicates(
            cfg,
            "orders",
            self.orders.get_ref().iter().map(|o| orders(o.as_str())),
        )?;
        no_duplicates(
            cfg,
            "k",
            self.k
                .get_ref()
                .iter()
                .map(|k| (k.get_ref().label(), k.span())),
        )?;
        if let Some(n) = &self.n {
            no_duplicates(
                cfg,
                "n",
                n.get_ref()
                    .iter()
                    .map(|v| (n_label(*v.get_ref()), v.span())),
            )?;
        }
        match &self.repetitions {
            Some(r) if *r.get_ref() == 0 || *r.get_ref() > MAX_REPETITIONS => Err(cfg.invalid(
                r.span(),
                &format!(
                    "repetitions = {} is not in 1..={MAX_REPETITIONS}",
                    r.get_ref()
                ),
                "set repetitions between 1 and 100000, or remove it to use the config's",
            )),
            Some(r) => Ok(*r.get_ref()),
            None => Ok(default),
        }
    }
}
