//! A formulation config (`svm_type` other than C-SVC) expanded into its
//! cells: one per dataset × setting × k × method, each a whole k-fold CV
//! run (or one training), on one thread count for every cell of ours and
//! oneDAL's (like with like: the same threads and cache budget for the
//! unseeded and seeded runs).

use super::rows::FormulationRow;
use crate::config::{ConfigFile, KValue};
use crate::experiments::cell_key::{CellKey, CellList};
use crate::experiments::svm_cv::config::{Method, Peer, SvmCvConfig};
use crate::experiments::timing::Repeats;
use crate::experiments::{Context, ExperimentError, PlanHead};
use crate::peers::{libsvm as peer, onedal};
use crate::results::rows::Core;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::SolverKind;
use std::sync::Arc;

/// What one cell runs: indices into the plan's datasets and settings, k and
/// the method.
pub(crate) struct CellSpec {
    pub dataset: usize,
    pub setting: usize,
    pub k: KValue,
    pub method: Method,
    /// Our solver of the dual (the SMO for a peer's cells, unused there).
    pub solver: SolverKind,
}

/// A planned formulation run.
pub(crate) struct FormulationPlan {
    /// How many times every cell is timed.
    pub repeats: Repeats,
    /// Threads of our runs and oneDAL's (svm-train runs on one).
    pub threads: usize,
    pub head: PlanHead,
    pub datasets: Vec<(String, Arc<Dataset>)>,
    /// Each setting's label, solver parameters and formulation.
    pub settings: Vec<(String, SvmParams, SvmType)>,
    pub specs: Vec<CellSpec>,
}

impl FormulationPlan {
    /// The columns every row of cell `i` shares; the run fills the rest.
    pub fn base(&self, i: usize) -> FormulationRow {
        let c = &self.specs[i];
        let (dname, data) = &self.datasets[c.dataset];
        let (label, p, t) = &self.settings[c.setting];
        let (nu, eps_p) = match *t {
            SvmType::NuSvc { nu } | SvmType::OneClass { nu } | SvmType::NuSvr { nu } => {
                (Some(nu), None)
            }
            SvmType::EpsilonSvr { p } => (None, Some(p)),
            SvmType::CSvc => (None, None),
        };
        FormulationRow {
            core: Core {
                dataset: dname.clone(),
                synthetic: data.is_synthetic(),
                method: c.method.as_str().to_string(),
                ..self.head.core(i)
            },
            svm_type: t.name().to_string(),
            n: data.n() as u64,
            d: data.d() as u64,
            setting: label.clone(),
            c: p.c,
            gamma: p.kernel.gamma(),
            nu,
            p: eps_p,
            eps: p.eps,
            cache_mb: p.cache_mb,
            k: c.k.label(),
            k_value: c.k.resolve(data.n()) as u64,
            folds: "libsvm".into(),
            solver: match c.method.peer() {
                Some(_) => String::new(),
                None => c.solver.as_str().to_string(),
            },
            ..FormulationRow::default()
        }
    }
}

/// Parse, check and expand a formulation config (loads its datasets).
pub(crate) fn plan(
    cfg: &ConfigFile,
    ctx: &Context,
    c: SvmCvConfig,
    svm_type: SvmType,
) -> Result<FormulationPlan, ExperimentError> {
    c.check_lists(cfg)?;
    super::check(cfg, &c, svm_type)?;
    let wanted = |p: Peer| c.methods.get_ref().iter().any(|m| m.peer() == Some(p));
    let peers_ok = wanted(Peer::Libsvm) && peer::available();
    if wanted(Peer::Libsvm) && !peers_ok {
        eprintln!(
            "{}: note: svm-train not found, the `libsvm_v` and `libsvm_fit` cells are skipped (`make peers` installs LIBSVM's tools)",
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
    let threads = match &c.threads {
        None => rayon::current_num_threads().max(1),
        Some(list) => {
            cfg.non_empty("threads", list)?;
            if list.get_ref().len() > 1 {
                return Err(cfg
                    .invalid(
                        list.span(),
                        "a formulation config runs on one thread count (every cell of ours and oneDAL's on the same threads: like with like)",
                        "list one thread count, e.g. threads = [2], or one config per thread count",
                    )
                    .into());
            }
            cfg.threads("threads", &list.get_ref()[0])?
        }
    };
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
    c.check_settings(cfg, datasets[0].1.d())?;
    let dims: Vec<usize> = datasets.iter().map(|(_, d)| d.libsvm_max_index()).collect();
    c.check_gamma_defaults(cfg, &dims)?;
    let repeats = c.repeats(cfg)?;
    let solvers = c.solvers(cfg)?;
    let d0 = datasets[0].1.libsvm_max_index();
    let mut settings = Vec::new();
    for s in c.settings.get_ref() {
        let v = s.get_ref();
        let t = super::setting_type(svm_type, v.nu, v.p, c.float_params())
            .map_err(|e| cfg.invalid(s.span(), &e, "fix the setting's nu or p"))?;
        settings.push((v.label.clone(), v.params(d0, c.float_params()), t));
    }
    let mut specs = Vec::new();
    let mut cells = CellList::new(cfg, c.seed);
    for (di, (dname, data)) in datasets.iter().enumerate() {
        for (si, s) in c.settings.get_ref().iter().enumerate() {
            for (ki, kv) in c.k.get_ref().iter().enumerate() {
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
                    let ran = match m.peer() {
                        Some(Peer::Libsvm) => peers_ok,
                        Some(Peer::Onedal) => onedal_ok,
                        None => true,
                    };
                    // One training on all rows does not depend on k.
                    if !ran || (m.is_fit() && ki > 0) {
                        continue;
                    }
                    // The peers run once, with their own solvers.
                    let per_solver = match m.peer() {
                        Some(_) => &[SolverKind::Smo][..],
                        None => &solvers[..],
                    };
                    for &solver in per_solver {
                        let mut key = CellKey::new(dname)
                            .part(&s.get_ref().label)
                            .field("k", kv.get_ref().label())
                            .part(m.as_str());
                        if m.peer() != Some(Peer::Libsvm) {
                            key = key.field("threads", threads);
                        }
                        let key = crate::experiments::svm_cv::solver_axis::with_solver(key, solver);
                        cells.push(key, s.span())?;
                        specs.push(CellSpec {
                            dataset: di,
                            setting: si,
                            k: *kv.get_ref(),
                            method: m,
                            solver,
                        });
                    }
                }
            }
        }
    }
    Ok(FormulationPlan {
        repeats,
        threads,
        head: PlanHead {
            kind: "svm_cv",
            name: c.name.into_inner(),
            base_seed: c.seed,
            exclusive: c.exclusive.unwrap_or(true),
            cells: cells.into_cells(),
        },
        datasets,
        settings,
        specs,
    })
}
