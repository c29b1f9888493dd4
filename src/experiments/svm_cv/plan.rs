//! An `svm_cv` config expanded into its cells: one per dataset × setting ×
//! k × method, each a whole k-fold CV run.

use super::config::{FoldMode, Method, Peer, SvmCvConfig};
use super::rows::SvmRow;
use super::variants::variant_name;
use crate::config::{ConfigError, ConfigFile, KValue};
use crate::experiments::cell_key::{no_duplicates, CellKey, CellList};
use crate::experiments::timing::Repeats;
use crate::experiments::{Cell, Context, ExperimentError, PlanHead};
use crate::peers::libsvm as peer;
use crate::peers::onedal;
use crate::results::rows::Core;
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::params::{ClassWeight, SvmParams};
use cvbench_engine::api::strategies::{CacheMode, SolverKind};
use std::sync::Arc;

/// What one cell runs: indices into the plan's datasets and settings, k and
/// the method.
pub(super) struct CellSpec {
    pub dataset: usize,
    pub setting: usize,
    pub k: KValue,
    pub method: Method,
    /// The `(cache, threads)` variant of one of our solver's methods when
    /// the config lists `caches` / `threads`.
    pub axes: Option<(CacheMode, usize)>,
    /// The solver of our methods' cells (the config's `solvers`; the
    /// default SMO for the peers, which do not use it).
    pub solver: SolverKind,
}

/// A planned `svm_cv` run.
pub(super) struct SvmPlan {
    /// How many times our solver's cells are timed.
    pub repeats: Repeats,
    pub seeded_shared_cache: bool,
    pub seeded_parallel: bool,
    pub head: PlanHead,
    pub fold_mode: FoldMode,
    pub datasets: Vec<(String, Arc<Dataset>)>,
    pub settings: Vec<(String, SvmParams)>,
    /// Each setting's class weights (as `svm-train` reads them with
    /// `libsvm_float_params`).
    pub weights: Vec<Vec<ClassWeight>>,
    /// Per dataset: whether its labels are other than -1/+1 (more than two
    /// classes, or two other labels), so that it runs one-vs-one.
    pub ovo_data: Vec<bool>,
    pub specs: Vec<CellSpec>,
    /// Leave-one-out cells of our solver run their first rounds only and
    /// estimate the whole run's seconds (the config's `first_rounds`).
    pub first_rounds: Option<usize>,
}

/// The largest class's share of the rows, %.
fn majority_pct(data: &Dataset) -> f64 {
    let mut counts: Vec<(f64, usize)> = Vec::new();
    for &y in &data.y {
        match counts.iter_mut().find(|(l, _)| *l == y) {
            Some((_, c)) => *c += 1,
            None => counts.push((y, 1)),
        }
    }
    let top = counts.iter().map(|&(_, c)| c).max().unwrap_or(0);
    100.0 * top as f64 / data.n().max(1) as f64
}

fn gamma_of(p: &SvmParams) -> Option<f64> {
    p.kernel.gamma()
}

impl SvmPlan {
    /// Whether cell `i` runs LIBSVM's one-vs-one C-SVC: its dataset's labels
    /// are not -1/+1, or its setting has class weights.
    pub fn one_vs_one(&self, i: usize) -> bool {
        let c = &self.specs[i];
        self.ovo_data[c.dataset] || !self.weights[c.setting].is_empty()
    }

    /// The class weights of cell `i`'s setting.
    pub fn setting_weights(&self, i: usize) -> &[ClassWeight] {
        &self.weights[self.specs[i].setting]
    }

    /// The columns every row of cell `i` shares (the core columns and the
    /// cell's dataset, setting, k and folds); the run fills the rest.
    pub fn base(&self, i: usize) -> SvmRow {
        let c = &self.specs[i];
        let (dname, data) = &self.datasets[c.dataset];
        let (label, p) = &self.settings[c.setting];
        SvmRow {
            core: Core {
                dataset: dname.clone(),
                synthetic: data.is_synthetic(),
                method: variant_name(
                    c.method.as_str(),
                    c.axes,
                    c.method.peer().is_some(),
                    c.solver,
                ),
                ..self.head.core(i)
            },
            n: data.n() as u64,
            d: data.d() as u64,
            setting: label.clone(),
            c: p.c,
            gamma: gamma_of(p),
            eps: p.eps,
            k: c.k.label(),
            k_value: c.k.resolve(data.n()) as u64,
            folds: self.fold_mode.as_str().to_string(),
            majority_pct: majority_pct(data),
            solver: match c.method.peer() {
                Some(_) => String::new(),
                None => c.solver.as_str().to_string(),
            },
            ..SvmRow::default()
        }
    }

    /// The folds of a cell: LOOCV when k = n, else by the plan's fold mode.
    pub fn folds(&self, data: &Dataset, k: usize, cell: &Cell) -> Result<Folds, ExperimentError> {
        let err = |e: cvbench_engine::api::errors::SvmError| ExperimentError::Cell {
            cell: cell.key.clone(),
            message: e.to_string(),
        };
        if k == data.n() {
            return Ok(Folds::loocv(k));
        }
        match self.fold_mode {
            FoldMode::Libsvm => Folds::libsvm(data, k).map_err(err),
            FoldMode::Stratified => Folds::stratified(data, k, cell.seed).map_err(err),
        }
    }
}

/// Parse, check and expand a config (loads its datasets).
pub(super) fn plan(cfg: &ConfigFile, ctx: &Context) -> Result<SvmPlan, ExperimentError> {
    let c: SvmCvConfig = cfg.parse()?;
    c.check_lists(cfg)?;
    check_duplicates(cfg, &c)?;
    let wanted = |p: Peer| c.methods.get_ref().iter().any(|m| m.peer() == Some(p));
    let peers_ok = wanted(Peer::Libsvm) && peer::available();
    if wanted(Peer::Libsvm) && !peers_ok {
        eprintln!(
            "{}: note: svm-train/svm-predict not found, the `libsvm`, `libsvm_v` and `libsvm_fit` cells are skipped (`make peers` installs LIBSVM's tools)",
            cfg.path.display()
        );
    }
    let onedal_ok = wanted(Peer::Onedal) && onedal::available();
    if wanted(Peer::Onedal) && !onedal_ok {
        eprintln!(
            "{}: note: {}; the `onedal` and `onedal_fit` cells are skipped",
            cfg.path.display(),
            onedal::SKIPPED_NO_ONEDAL
        );
    }
    let mut datasets = Vec::new();
    for spec in c.datasets.get_ref() {
        let data = ctx.dataset(spec)?;
        if data.n() < 2 {
            let message = format!("dataset {} has fewer than 2 rows", data.name);
            let fix = "check the data file (k-fold CV needs at least 2 rows)";
            return Err(cfg.invalid(c.datasets.span(), &message, fix).into());
        }
        datasets.push((data.name.clone(), data));
    }
    super::formulation::check_c_svc(cfg, &c, &datasets)?;
    c.check_settings(cfg, datasets[0].1.d())?;
    let weights = c
        .settings
        .get_ref()
        .iter()
        .map(|s| s.get_ref().class_weights(c.float_params()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| cfg.invalid(c.settings.span(), &e, "fix the setting's weights"))?;
    let ovo_data: Vec<bool> = datasets
        .iter()
        .map(|(_, d)| d.y.iter().any(|&y| y != 1.0 && y != -1.0))
        .collect();
    super::one_vs_one::check_one_vs_one(cfg, &c, &datasets, &ovo_data, &weights)?;
    let axes = c.axes(cfg)?;
    let solvers = c.solvers(cfg)?;
    let repeats = c.repeats(cfg)?;
    let first_rounds = c.first_rounds(cfg)?;
    let mut specs = Vec::new();
    let mut cells = CellList::new(cfg, c.seed);
    for (di, (dname, data)) in datasets.iter().enumerate() {
        for (si, s) in c.settings.get_ref().iter().enumerate() {
            for kv in c.k.get_ref() {
                let k = kv.get_ref().resolve(data.n());
                if k < 2 || k > data.n() {
                    return Err(cfg
                        .invalid(
                            kv.span(),
                            &format!(
                                "k = {k} is not in 2..=n for dataset {dname} with n = {}",
                                data.n()
                            ),
                            "use 2 <= k <= n, or \"n\" for leave-one-out",
                        )
                        .into());
                }
                for &m in c.methods.get_ref() {
                    if let Some(sm) = m.seeding() {
                        if let Err(e) = sm.check_k(k, data.n()) {
                            return Err(cfg
                                .invalid(
                                    kv.span(),
                                    &format!("dataset {dname}: {e}"),
                                    "list avg and top only in a config whose k is \"n\"",
                                )
                                .into());
                        }
                    }
                    let ran = match m.peer() {
                        Some(Peer::Libsvm) => peers_ok,
                        Some(Peer::Onedal) => onedal_ok,
                        None => true,
                    };
                    // One training on all rows does not depend on k.
                    let first_k = std::ptr::eq(kv, &c.k.get_ref()[0]);
                    if !ran || (m.is_fit() && !first_k) {
                        continue;
                    }
                    if m == Method::LibsvmV && k == data.n() {
                        continue; // svm-train -v n is plain LOOCV; the per-fold peer covers it
                    }
                    // The peers run once, with their own solvers.
                    let per_solver = match m.peer() {
                        Some(_) => &[SolverKind::Smo][..],
                        None => &solvers[..],
                    };
                    for variant in variants(axes.as_deref(), m) {
                        for &solver in per_solver {
                            let mut key = CellKey::new(dname)
                                .part(&s.get_ref().label)
                                .field("k", kv.get_ref().label())
                                .part(m.as_str());
                            if let Some((cache, t)) = variant {
                                if m.peer().is_none() {
                                    key = key.field("cache", cache.as_str());
                                }
                                key = key.field("threads", t.to_string());
                            }
                            let key = super::solver_axis::with_solver(key, solver);
                            cells.push(key, s.span())?;
                            specs.push(CellSpec {
                                dataset: di,
                                setting: si,
                                k: *kv.get_ref(),
                                method: m,
                                axes: variant,
                                solver,
                            });
                        }
                    }
                }
            }
        }
    }
    let d0 = datasets[0].1.libsvm_max_index();
    let settings = c
        .settings
        .get_ref()
        .iter()
        .map(|s| {
            (
                s.get_ref().label.clone(),
                s.get_ref().params(d0, c.float_params()),
            )
        })
        .collect::<Vec<_>>();
    // Settings are resolved once, so a gamma of 1/d needs one d.
    let dims: Vec<usize> = datasets.iter().map(|(_, d)| d.libsvm_max_index()).collect();
    c.check_gamma_defaults(cfg, &dims)?;
    Ok(SvmPlan {
        repeats,
        seeded_shared_cache: c.seeded_shared_cache.unwrap_or(true),
        seeded_parallel: c.seeded_parallel.unwrap_or(true),
        head: PlanHead {
            kind: "svm_cv",
            name: c.name.into_inner(),
            base_seed: c.seed,
            exclusive: c.exclusive.unwrap_or(true),
            cells: cells.into_cells(),
        },
        fold_mode: c.folds.unwrap_or(FoldMode::Libsvm),
        datasets,
        settings,
        weights,
        ovo_data,
        specs,
        first_rounds,
    })
}

/// The `(cache, threads)` variants a method runs in: every configured one
/// for our CV methods; each configured thread count once, with a per-solve
/// cache, for one training (`train`) and for oneDAL; none for LIBSVM (one
/// thread, its own cache) or when the config lists no axes.
fn variants(axes: Option<&[(CacheMode, usize)]>, m: Method) -> Vec<Option<(CacheMode, usize)>> {
    let Some(axes) = axes else {
        return vec![None];
    };
    match m.peer() {
        Some(Peer::Libsvm) => vec![None],
        _ if m == Method::Train || m.peer() == Some(Peer::Onedal) => {
            let mut out = Vec::new();
            for &(_, t) in axes {
                if !out.contains(&Some((CacheMode::PerSolve, t))) {
                    out.push(Some((CacheMode::PerSolve, t)));
                }
            }
            out
        }
        _ => axes.iter().map(|&a| Some(a)).collect(),
    }
}

/// Entries that would give one cell twice (their labels are the keys): two
/// settings with one label, a `k` or a method listed twice.
pub(super) fn check_duplicates(cfg: &ConfigFile, c: &SvmCvConfig) -> Result<(), ConfigError> {
    let settings = c.settings.get_ref().iter();
    no_duplicates(
        cfg,
        "settings",
        settings.map(|s| (format!("label = {:?}", s.get_ref().label), s.span())),
    )?;
    no_duplicates(
        cfg,
        "k",
        c.k.get_ref()
            .iter()
            .map(|k| (k.get_ref().label(), k.span())),
    )?;
    let methods = c.methods.get_ref().iter();
    no_duplicates(
        cfg,
        "methods",
        methods.map(|m| (m.as_str(), c.methods.span())),
    )
}
