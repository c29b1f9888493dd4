//! The `svm_cv` config schema (`kind = "svm_cv"`), its checks that need no
//! data, and the paper's published numbers (`experiments/svm/published.toml`).

use crate::config::{ConfigError, ConfigFile, KValue};
use crate::experiments::timing::Repeats;
use crate::peers::libsvm as peer;
use cvbench_engine::api::data::DatasetSpec;
use cvbench_engine::api::strategies::{CacheMode, SeedingMethod, SolverKind};
use serde::Deserialize;
use toml::Spanned;

/// The published numbers (experiments/svm/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../experiments/svm/published.toml");

/// A CV method of this experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Our SMO, rounds one after another, each from alpha = 0 (the baseline).
    Ours,
    /// Our SMO, rounds in parallel on rayon with one kernel cache shared by all rounds.
    OursSharedParallel,
    /// LIBSVM's `svm-train` on each of our training folds, `svm-predict` on the held-out fold.
    Libsvm,
    /// LIBSVM's own `svm-train -v k` (its folds; one row, fold = -1).
    LibsvmV,
    /// Alpha seeding, Wen et al.: Adjusting alpha Towards Optimum.
    Ato,
    /// Alpha seeding, Wen et al.: Multiple Instance Replacement.
    Mir,
    /// Alpha seeding, Wen et al.: Single Instance Replacement.
    Sir,
    /// Beyond the paper: SIR on two chains (the rounds' two halves) run at
    /// the same time.
    SirTwoChains,
    /// Alpha seeding for leave-one-out, DeCoste & Wagstaff (k = n only).
    Avg,
    /// Alpha seeding for leave-one-out, Lee et al. (k = n only).
    Top,
    /// Beyond the paper: rounds in TreeCV order, warm started from the parent node.
    Tree,
    /// Our SMO, one training on all rows (no CV): the unit of the headline
    /// cost measure, CV seconds over one training's.
    Train,
    /// LIBSVM's `svm-train` once on all rows (one row, fold = -1).
    LibsvmFit,
    /// Intel's scikit-learn-intelex (oneDAL) SVC, a k-fold CV on our folds.
    Onedal,
    /// Intel's scikit-learn-intelex (oneDAL) SVC, one fit on all rows.
    OnedalFit,
}

/// An external program a method runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// LIBSVM's `svm-train` and `svm-predict`.
    Libsvm,
    /// scikit-learn-intelex (oneDAL) under `python3`.
    Onedal,
}

impl Method {
    /// The method's name in configs and records.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Ours => "ours",
            Method::OursSharedParallel => "ours_shared_parallel",
            Method::Libsvm => "libsvm",
            Method::LibsvmV => "libsvm_v",
            Method::Ato => "ato",
            Method::Mir => "mir",
            Method::Sir => "sir",
            Method::SirTwoChains => "sir_two_chains",
            Method::Avg => "avg",
            Method::Top => "top",
            Method::Tree => "tree",
            Method::Train => "train",
            Method::LibsvmFit => "libsvm_fit",
            Method::Onedal => "onedal",
            Method::OnedalFit => "onedal_fit",
        }
    }

    /// The seeding method of a seeded CV method (`None` for the others).
    pub fn seeding(self) -> Option<SeedingMethod> {
        match self {
            Method::Ato => Some(SeedingMethod::Ato),
            Method::Mir => Some(SeedingMethod::Mir),
            Method::Sir => Some(SeedingMethod::Sir),
            Method::SirTwoChains => Some(SeedingMethod::SirTwoChains),
            Method::Avg => Some(SeedingMethod::Avg),
            Method::Top => Some(SeedingMethod::Top),
            Method::Tree => Some(SeedingMethod::Tree),
            _ => None,
        }
    }

    /// Whether the method runs LIBSVM's tools (the peer).
    pub fn is_peer(self) -> bool {
        self.peer() == Some(Peer::Libsvm)
    }

    /// The external program the method runs, if any.
    pub fn peer(self) -> Option<Peer> {
        match self {
            Method::Libsvm | Method::LibsvmV | Method::LibsvmFit => Some(Peer::Libsvm),
            Method::Onedal | Method::OnedalFit => Some(Peer::Onedal),
            _ => None,
        }
    }

    /// Whether the method is one training on all rows, not a CV (its cells
    /// run with the config's first k only).
    pub fn is_fit(self) -> bool {
        matches!(self, Method::Train | Method::LibsvmFit | Method::OnedalFit)
    }
}

/// How folds are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoldMode {
    /// LIBSVM's stratified per-class shuffle with glibc `rand()` (reproduces `svm-train -v k`).
    Libsvm,
    /// Stratified folds from the config seed.
    Stratified,
}

impl FoldMode {
    /// The mode's name in configs and records.
    pub fn as_str(self) -> &'static str {
        match self {
            FoldMode::Libsvm => "libsvm",
            FoldMode::Stratified => "stratified",
        }
    }
}

/// The `svm_cv` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvmCvConfig {
    /// Must be "svm_cv".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
    /// LIBSVM's formulation (`svm-train -s`) by the engine's name
    /// (`SvmType::name`: `c_svc`, `nu_svc`, `one_class`, `epsilon_svr`,
    /// `nu_svr`); unset: C-SVC. Its parameter is the settings' `nu` or `p`
    /// (see `formulation/`).
    #[serde(default)]
    pub svm_type: Option<Spanned<String>>,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Note printed in the report.
    #[serde(default)]
    pub note: String,
    /// Base seed (stratified folds).
    pub seed: u64,
    /// Fold construction (default libsvm).
    #[serde(default)]
    pub folds: Option<FoldMode>,
    /// Run cells one at a time (timing); default true for this kind.
    #[serde(default)]
    pub exclusive: Option<bool>,
    /// Give our solver the parameters as this LIBSVM build parses them
    /// (single precision) so that per-fold results are comparable bit for bit
    /// (default true).
    #[serde(default)]
    pub libsvm_float_params: Option<bool>,
    /// Datasets: labels -1/+1 for every method; any labels (more than two
    /// classes: LIBSVM's one-vs-one) for the unseeded methods.
    pub datasets: Spanned<Vec<DatasetSpec>>,
    /// Hyper-parameter settings.
    pub settings: Spanned<Vec<Spanned<Setting>>>,
    /// Numbers of folds (integers or "n").
    pub k: Spanned<Vec<Spanned<KValue>>>,
    /// Methods.
    pub methods: Spanned<Vec<Method>>,
    /// Seeded methods: one kernel cache shared by all solves of a CV run
    /// (default true).
    #[serde(default)]
    pub seeded_shared_cache: Option<bool>,
    /// Seeded methods: independent solves in parallel where the method's
    /// dependency order allows (AVG/TOP rounds, tree siblings; default true).
    #[serde(default)]
    pub seeded_parallel: Option<bool>,
    /// Our solver's methods run once per kernel-cache mode listed here
    /// (`per_solve`, `shared`; the registry [`CacheMode`]), each within the
    /// setting's `cache_mb` as one budget. Unset: `ours` per solve,
    /// `ours_shared_parallel` shared, seeded methods by `seeded_shared_cache`.
    #[serde(default)]
    pub caches: Option<Spanned<Vec<Spanned<String>>>>,
    /// Our solver's methods run once per thread count listed here. Unset:
    /// `ours` on 1 thread, the parallel methods on the run's pool.
    #[serde(default)]
    pub threads: Option<Spanned<Vec<Spanned<usize>>>>,
    /// Our solver's methods (the CVs and `train`) run once per solver of
    /// the dual listed here (the registry [`SolverKind`]: `smo`,
    /// `batched`; with `svm_type`, those the engine trains it with: the
    /// batched solver takes C-SVC, one-class and epsilon-SVR); the peers
    /// run once. Unset: `["smo"]`, the cells (and keys) of a config without
    /// the key.
    #[serde(default)]
    pub solvers: Option<Spanned<Vec<Spanned<String>>>>,
    /// Every timed cell (ours and the peers') is timed this many times
    /// (the first run's rows are the records; every run's wall seconds,
    /// their median, min and max are on every row). At least 3 (the
    /// default) unless `timed_fewer_because` says why not; at most 100.
    #[serde(default)]
    pub timing_repeats: Option<Spanned<u32>>,
    /// Why this config's cells may be timed fewer than 3 times (its
    /// `timing_repeats`, default 1 then) and a cell whose first run takes
    /// two minutes or more only once: e.g. the hours it would add. Unset:
    /// every cell is timed at least 3 times, long ones included.
    #[serde(default)]
    pub timed_fewer_because: Option<Spanned<String>>,
    /// A cell whose timed runs total less than this many seconds is timed
    /// again (past `timing_repeats`) until they do or it has run
    /// `max_timing_repeats` times, so that short cells are decided by
    /// repeats ([`Repeats`]). Unset:
    /// `timing_repeats` runs.
    #[serde(default)]
    pub min_timed_seconds: Option<Spanned<f64>>,
    /// Most runs of a short cell under `min_timed_seconds` (default 100).
    #[serde(default)]
    pub max_timing_repeats: Option<Spanned<u32>>,
    /// Leave-one-out only: run the first R rounds of each of our solver's
    /// CV cells and estimate the cell's wall seconds over all n rounds, as
    /// Wen et al. estimated their large leave-one-out runs (Adult from the
    /// first 100 rounds, MNIST and Webdata from the first 30). Outputs say
    /// so wherever the times appear. Unset: every round runs.
    #[serde(default)]
    pub first_rounds: Option<Spanned<usize>>,
}

pub use super::setting::Setting;
pub use crate::config::MAX_CELL_THREADS;

impl SvmCvConfig {
    /// The configured `(cache, threads)` variants of our solver's cells, or
    /// `None` when neither `caches` nor `threads` is given (each method's
    /// default then). Unknown or duplicate names and bad counts are errors
    /// at their line:col.
    pub fn axes(&self, cfg: &ConfigFile) -> Result<Option<Vec<(CacheMode, usize)>>, ConfigError> {
        if self.caches.is_none() && self.threads.is_none() {
            return Ok(None);
        }
        let mut caches = Vec::new();
        match &self.caches {
            Some(list) => {
                cfg.non_empty("caches", list)?;
                for c in list.get_ref() {
                    let m = CacheMode::parse(c.get_ref()).ok_or_else(|| {
                        cfg.invalid(
                            c.span(),
                            &format!("unknown cache mode `{}`", c.get_ref()),
                            &format!("use one of: {}", CacheMode::names()),
                        )
                    })?;
                    if caches.contains(&m) {
                        return Err(cfg.invalid(
                            c.span(),
                            &format!("cache mode `{m}` is listed twice"),
                            "list each cache mode once",
                        ));
                    }
                    caches.push(m);
                }
            }
            None => caches.push(CacheMode::Shared),
        }
        let mut threads = Vec::new();
        match &self.threads {
            Some(list) => {
                cfg.non_empty("threads", list)?;
                for t in list.get_ref() {
                    let v = cfg.threads("threads", t)?;
                    if threads.contains(&v) {
                        return Err(cfg.invalid(
                            t.span(),
                            &format!("threads = {v} is listed twice"),
                            "list each thread count once",
                        ));
                    }
                    threads.push(v);
                }
            }
            None => threads.push(1),
        }
        Ok(Some(
            caches
                .iter()
                .flat_map(|&c| threads.iter().map(move |&t| (c, t)))
                .collect(),
        ))
    }

    /// The solvers our methods run with (see the field), in the config's
    /// order; `[smo]` when unset. Unknown or duplicate names are errors at
    /// their line:col naming the valid ones.
    pub fn solvers(&self, cfg: &ConfigFile) -> Result<Vec<SolverKind>, ConfigError> {
        let Some(list) = &self.solvers else {
            return Ok(vec![SolverKind::Smo]);
        };
        cfg.non_empty("solvers", list)?;
        let mut out = Vec::new();
        for s in list.get_ref() {
            let k = SolverKind::parse(s.get_ref()).ok_or_else(|| {
                cfg.invalid(
                    s.span(),
                    &format!("unknown solver `{}`", s.get_ref()),
                    &format!("use one of: {}", SolverKind::names()),
                )
            })?;
            if out.contains(&k) {
                return Err(cfg.invalid(
                    s.span(),
                    &format!("solver `{k}` is listed twice"),
                    "list each solver once",
                ));
            }
            out.push(k);
        }
        Ok(out)
    }

    /// How many times our solver's cells are timed (`timing_repeats`,
    /// `min_timed_seconds`, `max_timing_repeats`, checked by
    /// [`Repeats::check`]).
    pub fn repeats(&self, cfg: &ConfigFile) -> Result<Repeats, ConfigError> {
        Repeats::check(
            cfg,
            &self.timing_repeats,
            &self.min_timed_seconds,
            &self.max_timing_repeats,
            &self.timed_fewer_because,
        )
    }

    /// The checked `first_rounds` (see the field): at least 1, with k =
    /// `"n"` only, and methods that run round by round (our solver's CV
    /// methods but the tree and the two chains, whose cost is not in
    /// proportion to their rounds; no peer, which runs all its rounds).
    pub fn first_rounds(&self, cfg: &ConfigFile) -> Result<Option<usize>, ConfigError> {
        let Some(r) = &self.first_rounds else {
            return Ok(None);
        };
        if *r.get_ref() == 0 {
            return Err(cfg.invalid(
                r.span(),
                "first_rounds = 0 runs no round",
                "use first_rounds >= 1, or remove it to run every round",
            ));
        }
        if let Some(k) = self
            .k
            .get_ref()
            .iter()
            .find(|k| *k.get_ref() != KValue::Loo)
        {
            return Err(cfg.invalid(
                k.span(),
                &format!(
                    "first_rounds estimates a leave-one-out run, but k = {} is listed",
                    k.get_ref().label()
                ),
                "use k = [\"n\"] with first_rounds, or remove first_rounds",
            ));
        }
        for &m in self.methods.get_ref() {
            let whole = match m.seeding() {
                Some(s) => !s.axes().0.runs_first_rounds(),
                None => m.peer().is_some(),
            };
            if whole {
                return Err(cfg.invalid(
                    self.methods.span(),
                    &format!(
                        "method `{}` cannot be estimated from its first rounds (its cost is not in proportion to its rounds, or it runs all of them)",
                        m.as_str()
                    ),
                    "remove it from methods, or remove first_rounds",
                ));
            }
        }
        Ok(Some(*r.get_ref()))
    }

    /// Whether our solver gets the parameters as `svm-train` parses them.
    pub fn float_params(&self) -> bool {
        self.libsvm_float_params.unwrap_or(true)
    }

    /// The lists that must not be empty: datasets, settings, k and methods.
    pub fn check_lists(&self, cfg: &ConfigFile) -> Result<(), ConfigError> {
        cfg.non_empty("datasets", &self.datasets)?;
        cfg.non_empty("settings", &self.settings)?;
        cfg.non_empty("k", &self.k)?;
        cfg.non_empty("methods", &self.methods)
    }

    /// Every setting's values, with line:col, for data with `d` features (so
    /// that a bad value fails now, not at its first cell).
    pub fn check_settings(&self, cfg: &ConfigFile, d: usize) -> Result<(), ConfigError> {
        for s in self.settings.get_ref() {
            let bad = |what: String, fix: &str| {
                cfg.invalid(
                    s.span(),
                    &format!("setting `{}`: {what}", s.get_ref().label),
                    fix,
                )
            };
            s.get_ref().kernel_code().map_err(|e| {
                bad(
                    e,
                    "kernel = \"linear\", \"polynomial\" (with degree, coef0), \"rbf\" or \"sigmoid\" (with coef0)",
                )
            })?;
            s.get_ref().class_weights(false).map_err(|e| {
                bad(
                    e,
                    "write weights = { \"<label>\" = w, ... } with integer labels and weights > 0",
                )
            })?;
            let given = s.get_ref().params(d, false);
            let onedal = self
                .methods
                .get_ref()
                .iter()
                .find(|m| m.peer() == Some(Peer::Onedal));
            if let (Some(m), true) = (onedal, given.kernel.is_dot_kernel()) {
                if given.kernel.gamma().is_some() {
                    return Err(bad(
                        format!(
                            "method `{}` (oneDAL) runs the linear and RBF kernels only, not {}",
                            m.as_str(),
                            given.kernel.name()
                        ),
                        "remove the oneDAL methods from this config, or use kernel = \"rbf\" or \"linear\"",
                    ));
                }
            }
            let checked = if self.float_params() {
                peer::as_parsed_checked(&given).map(|_| ())
            } else {
                given.validate()
            };
            checked.map_err(|e| {
                cfg.invalid(
                    s.span(),
                    &format!("setting `{}`: {e}", s.get_ref().label),
                    "use c, eps and cache_mb finite and > 0, gamma finite and >= 0, degree >= 0, coef0 finite",
                )
            })?;
        }
        Ok(())
    }

    /// A setting whose gamma defaults to 1/d is resolved once, so the
    /// datasets (their feature counts `dims`) must agree on d.
    pub fn check_gamma_defaults(
        &self,
        cfg: &ConfigFile,
        dims: &[usize],
    ) -> Result<(), ConfigError> {
        if dims.len() < 2 {
            return Ok(());
        }
        for s in self.settings.get_ref() {
            if cvbench_engine::api::params::is_default_gamma(s.get_ref().gamma)
                && s.get_ref().uses_gamma()
                && dims.iter().any(|&d| d != dims[0])
            {
                return Err(cfg.invalid(
                    s.span(),
                    "gamma defaults to 1/d, but the datasets have different d",
                    "give gamma explicitly or use one dataset per config",
                ));
            }
        }
        Ok(())
    }
}
