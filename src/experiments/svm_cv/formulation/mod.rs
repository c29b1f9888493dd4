//! LIBSVM's other formulations in the `svm_cv` kind (`svm_type = "nu_svc"`,
//! `"one_class"`, `"epsilon_svr"`, `"nu_svr"`; issue 56): each cell is one
//! CV run of the engine's formulation CV (`api::formulation_cv`: the rounds
//! in parallel over one shared kernel cache, unseeded or, where the engine
//! builds it, alpha-seeded; on each solver of `solvers` the engine trains
//! the formulation with), `svm-train -s N -v k` on the same folds, one
//! training (ours, `svm-train`'s), or oneDAL's estimator (a CV on our folds,
//! one fit).
//!
//! Files: this one (the formulation names, from the engine's `SvmType`, and
//! the checks a formulation config needs beyond C-SVC's), `plan.rs` (a
//! config to cells), `run.rs` (a cell to rows), `rows.rs` (the typed rows,
//! read by `render/formulation.rs` and `verdicts/formulation.rs`).

pub(super) mod plan;
pub mod rows;
mod run;

use super::config::{Method, Peer, SvmCvConfig};
use crate::config::{ConfigError, ConfigFile};
use cvbench_engine::api::data::{Dataset, Features, IndexBase};
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation_seeded, libsvm_folds, FormulationCvOptions,
};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::{CacheMode, SolverKind};

/// Every formulation with `svm-train`'s default parameter: the config's
/// names are these values' [`SvmType::name`], the engine's.
pub fn formulations() -> [SvmType; 5] {
    [
        SvmType::CSvc,
        SvmType::NuSvc { nu: 0.5 },
        SvmType::OneClass { nu: 0.5 },
        SvmType::EpsilonSvr { p: 0.1 },
        SvmType::NuSvr { nu: 0.5 },
    ]
}

/// The formulation named `name` (the engine's name), with its default parameter.
pub fn parse(name: &str) -> Option<SvmType> {
    formulations().into_iter().find(|t| t.name() == name)
}

/// The names a config may give, for an error message.
pub fn names() -> String {
    formulations()
        .iter()
        .map(|t| format!("`{}`", t.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The metric a formulation's CV reports: `accuracy` or `MSE`.
pub fn metric_name(svm_type: &str) -> &'static str {
    match parse(svm_type) {
        Some(t) if t.is_regression() => "MSE",
        _ => "accuracy",
    }
}

/// Whether stored records are those of a formulation run (their
/// `svm_type` column names one other than C-SVC).
pub fn is_formulation_run(records: &[crate::results::Record]) -> bool {
    use crate::results::table::Value;
    records.first().is_some_and(|r| {
        r.0.iter()
            .any(|(k, v)| k == "svm_type" && matches!(v, Value::Str(s) if s != "c_svc"))
    })
}

impl SvmCvConfig {
    /// The config's formulation (`svm_type`, C-SVC when unset); an unknown
    /// name is an error at its line naming the valid ones.
    pub fn formulation(&self, cfg: &ConfigFile) -> Result<SvmType, ConfigError> {
        let Some(name) = &self.svm_type else {
            return Ok(SvmType::CSvc);
        };
        parse(name.get_ref()).ok_or_else(|| {
            cfg.invalid(
                name.span(),
                &format!("unknown svm_type `{}`", name.get_ref()),
                &format!("use one of: {}", names()),
            )
        })
    }
}

/// The formulation of one setting: `base` with the setting's `nu` or `p`
/// (as `svm-train` parses `-n` / `-p` with `float`); a parameter the
/// formulation does not take is an error.
pub fn setting_type(
    base: SvmType,
    nu: Option<f64>,
    p: Option<f64>,
    float: bool,
) -> Result<SvmType, String> {
    let r = |v: f64| if float { f64::from(v as f32) } else { v };
    let t = match base {
        SvmType::CSvc => SvmType::CSvc,
        SvmType::NuSvc { nu: d } => SvmType::NuSvc {
            nu: r(nu.unwrap_or(d)),
        },
        SvmType::OneClass { nu: d } => SvmType::OneClass {
            nu: r(nu.unwrap_or(d)),
        },
        SvmType::NuSvr { nu: d } => SvmType::NuSvr {
            nu: r(nu.unwrap_or(d)),
        },
        SvmType::EpsilonSvr { p: d } => SvmType::EpsilonSvr {
            p: r(p.unwrap_or(d)),
        },
    };
    let takes_nu = matches!(
        base,
        SvmType::NuSvc { .. } | SvmType::OneClass { .. } | SvmType::NuSvr { .. }
    );
    if nu.is_some() && !takes_nu {
        return Err(format!(
            "`nu` is the parameter of nu_svc, one_class and nu_svr, not of {}: remove it (or set svm_type)",
            base.name()
        ));
    }
    if p.is_some() && !matches!(base, SvmType::EpsilonSvr { .. }) {
        return Err(format!(
            "`p` (epsilon) is epsilon_svr's parameter, not {}'s: remove it (or set svm_type = \"epsilon_svr\")",
            base.name()
        ));
    }
    t.validate().map_err(|e| e.to_string())?;
    Ok(t)
}

/// The methods a formulation config may list.
pub fn allowed(m: Method) -> bool {
    matches!(
        m,
        Method::Ours
            | Method::Sir
            | Method::SirTwoChains
            | Method::LibsvmV
            | Method::Train
            | Method::LibsvmFit
            | Method::Onedal
            | Method::OnedalFit
    )
}

/// Whether the engine seeds `svm_type`'s CV with `m`: asked of the engine
/// itself on a tiny synthetic set (its refusal, word for word, is the
/// error), so that this check and the engine never disagree.
pub fn engine_seeds(svm_type: SvmType, m: Method) -> Result<(), String> {
    let Some(seeding) = m.seeding() else {
        return Ok(());
    };
    let ds = probe();
    let folds = libsvm_folds(&ds, 2, svm_type).map_err(|e| e.to_string())?;
    let opts = FormulationCvOptions {
        cache: CacheMode::Shared,
        threads: 1,
    };
    let params = SvmParams::rbf(1.0, 0.5);
    cross_validate_formulation_seeded(&ds, &folds, &params, svm_type, opts, seeding)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Whether the engine trains `svm_type` with `solver`: asked of the engine
/// itself on a tiny synthetic set, as [`engine_seeds`].
pub fn engine_solves(svm_type: SvmType, solver: SolverKind) -> Result<(), String> {
    let ds = probe();
    let params = SvmParams {
        solver,
        ..SvmParams::rbf(1.0, 0.5)
    };
    cvbench_engine::api::formulation::fit_formulation(&ds, &params, svm_type)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Eight rows of one feature, two classes (the engines' probes).
fn probe() -> Dataset {
    let n = 8;
    let values: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
    let y: Vec<f64> = (0..n)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    Dataset {
        name: "probe (synthetic)".into(),
        x: Features::Dense { d: 1, values },
        y,
        index_base: IndexBase::One,
    }
}

/// The checks of a formulation config beyond C-SVC's: its methods (and
/// seeding the engine builds for the formulation), the keys that do not
/// apply, `libsvm` folds, and each setting's parameter.
pub fn check(cfg: &ConfigFile, c: &SvmCvConfig, svm_type: SvmType) -> Result<(), ConfigError> {
    let methods = c.methods.span();
    for &m in c.methods.get_ref() {
        if !allowed(m) {
            return Err(cfg.invalid(
                methods,
                &format!(
                    "method `{}` is C-SVC's; svm_type = \"{}\" runs ours, sir, sir_two_chains, libsvm_v, train, libsvm_fit, onedal and onedal_fit",
                    m.as_str(),
                    svm_type.name()
                ),
                "remove it from methods",
            ));
        }
        if let Err(e) = engine_seeds(svm_type, m) {
            return Err(cfg.invalid(
                methods,
                &format!("method `{}`: the engine refuses it: {e}", m.as_str()),
                "remove the seeded method from methods (ours is the unseeded CV)",
            ));
        }
        if m.peer() == Some(Peer::Onedal) {
            if let Err(e) = crate::peers::onedal_formulation::estimator(svm_type) {
                return Err(cfg.invalid(
                    methods,
                    &format!("method `{}`: {e}", m.as_str()),
                    "remove onedal and onedal_fit from methods",
                ));
            }
        }
    }
    let not_here = |key: &str, span: Option<std::ops::Range<usize>>, why: &str| match span {
        Some(s) => Err(cfg.invalid(
            s,
            &format!("`{key}` with svm_type = \"{}\": {why}", svm_type.name()),
            &format!("remove `{key}`"),
        )),
        None => Ok(()),
    };
    let shared = "the formulation CV always runs its rounds on one shared kernel cache";
    not_here("caches", c.caches.as_ref().map(|v| v.span()), shared)?;
    if let Some(list) = &c.solvers {
        for solver in c.solvers(cfg)? {
            if let Err(e) = engine_solves(svm_type, solver) {
                return Err(cfg.invalid(
                    list.span(),
                    &format!("solver `{solver}`: the engine refuses it: {e}"),
                    "remove it from solvers (smo runs every formulation)",
                ));
            }
        }
    }
    not_here(
        "first_rounds",
        c.first_rounds.as_ref().map(|v| v.span()),
        "every round runs",
    )?;
    if c.seeded_shared_cache.is_some() || c.seeded_parallel.is_some() {
        not_here(
            "seeded_shared_cache / seeded_parallel",
            Some(c.name.span()),
            shared,
        )?;
    }
    if let Some(f) = c.folds {
        if f != super::config::FoldMode::Libsvm {
            return Err(cfg.invalid(
                c.name.span(),
                &format!(
                    "folds = \"{}\" with svm_type = \"{}\": the formulations run on svm-train's folds",
                    f.as_str(),
                    svm_type.name()
                ),
                "use folds = \"libsvm\" or remove `folds`",
            ));
        }
    }
    for s in c.settings.get_ref() {
        let v = s.get_ref();
        let bad = |what: String, fix: &str| {
            cfg.invalid(s.span(), &format!("setting `{}`: {what}", v.label), fix)
        };
        if v.weights.is_some() {
            return Err(bad(
                format!("class weights are C-SVC's, not {}'s", svm_type.name()),
                "remove `weights`",
            ));
        }
        setting_type(svm_type, v.nu, v.p, c.float_params())
            .map_err(|e| bad(e, "give nu in (0, 1] or p >= 0, as the formulation takes"))?;
    }
    Ok(())
}

/// The checks of a C-SVC config (no `svm_type`, or `c_svc`) that the
/// formulations brought: no setting gives `nu` or `p`, and no dataset is a
/// regression set (the registry's `task`, or real targets in a file's
/// labels: `datasets`, once loaded), each an error at its config line.
pub fn check_c_svc(
    cfg: &ConfigFile,
    c: &SvmCvConfig,
    datasets: &[(String, std::sync::Arc<Dataset>)],
) -> Result<(), ConfigError> {
    for s in c.settings.get_ref() {
        let v = s.get_ref();
        setting_type(SvmType::CSvc, v.nu, v.p, false).map_err(|e| {
            cfg.invalid(
                s.span(),
                &format!("setting `{}`: {e}", v.label),
                "set svm_type to the formulation whose parameter it is",
            )
        })?;
    }
    let data: Vec<&Dataset> = datasets.iter().map(|(_, d)| d.as_ref()).collect();
    refuse_regression(cfg, &c.datasets, &data)
}

/// A C-SVC config's datasets (`specs` as configured, `data` as loaded)
/// hold no regression set: the registry's `task`, or real targets in a
/// file's labels; else an error at the `datasets` line.
pub fn refuse_regression(
    cfg: &ConfigFile,
    specs: &toml::Spanned<Vec<cvbench_engine::api::data::DatasetSpec>>,
    data: &[&Dataset],
) -> Result<(), ConfigError> {
    let registry = cvbench_engine::api::data::Registry::builtin();
    for (spec, data) in specs.get_ref().iter().zip(data) {
        let listed = spec
            .name
            .as_deref()
            .and_then(|n| registry.get(n).ok())
            .is_some_and(|e| e.is_regression());
        let real = data.y.iter().any(|y| y.fract() != 0.0);
        if listed || real {
            return Err(cfg.invalid(
                specs.span(),
                &format!(
                    "dataset {} is a regression set (real targets), but this config is C-SVC (svm_type unset or \"c_svc\"): C-SVC would read its targets as class labels",
                    data.name
                ),
                "set svm_type = \"epsilon_svr\" or \"nu_svr\" (with p or nu in the settings), or use a classification set",
            ));
        }
    }
    Ok(())
}
