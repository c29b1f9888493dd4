//! Planning a `treecv` config: every check, the datasets loaded, and the
//! grid expanded into cells (block, dataset, n, k, learner, method, order,
//! repetition, in that order), each with its key and seed.

use super::config::{applies, Method, TreecvConfig};
use crate::config::{ConfigError, ConfigFile, KValue, NValue};
use crate::experiments::cell_key::{CellKey, CellList};
use crate::experiments::{Context, ExperimentError, PlanHead};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::{AnyLearner, Order};
use std::sync::Arc;
use toml::Spanned;

/// What a cell runs besides its seed.
pub(super) struct CellSpec {
    /// Index into the plan's datasets.
    pub dataset: usize,
    /// Index into the plan's learners.
    pub learner: usize,
    pub method: Method,
    pub order: Order,
    pub k: KValue,
    /// Points of the subsample.
    pub n: usize,
    /// `n` as configured (`all` or the number): part of the subsample's seed.
    pub n_label: String,
    pub rep: usize,
}

/// A planned `treecv` run.
pub(super) struct TreecvPlan {
    pub head: PlanHead,
    /// The loaded datasets with their names.
    pub datasets: Vec<(String, Arc<Dataset>)>,
    /// Each dataset's and learner's config spec, serialized (cell identity).
    pub dataset_specs: Vec<String>,
    pub learner_specs: Vec<String>,
    pub learners: Vec<AnyLearner>,
    /// A spec per cell, in the order of `head.cells`.
    pub specs: Vec<CellSpec>,
}

/// Parse, check and expand a `treecv` config.
pub(super) fn plan(cfg: &ConfigFile, ctx: &Context) -> Result<TreecvPlan, ExperimentError> {
    let c: TreecvConfig = cfg.parse()?;
    let learners = c.check(cfg)?;
    let (datasets, dataset_specs) = load_datasets(cfg, ctx, &c, &learners)?;
    let names: Vec<&str> = datasets.iter().map(|(d, _)| d.as_str()).collect();
    c.check_on(cfg, &names)?;
    check_learner_names(cfg, &c, &learners, &names)?;
    // A cell listed by two blocks is kept once (blocks add up); within a
    // block, duplicate entries were refused by `Grid::check`.
    let mut cells = CellList::new(cfg, c.seed);
    let mut specs = Vec::new();
    for g in c.grid.get_ref() {
        let reps = g.check(cfg, *c.repetitions.get_ref())?;
        let all = [Spanned::new(0..0, NValue::All)];
        let ns: &[Spanned<NValue>] = g.n.as_ref().map_or(&all[..], |v| v.get_ref());
        for (di, (dname, data)) in datasets.iter().enumerate() {
            for nv in ns {
                let (n, n_label) = resolve_n(cfg, nv, dname, data)?;
                for kv in g.k.get_ref() {
                    check_k(cfg, kv, dname, n)?;
                    for (li, l) in learners.iter().enumerate() {
                        if !applies(c.learners.get_ref()[li].get_ref(), dname) {
                            continue;
                        }
                        for &method in g.methods.get_ref() {
                            for &order in g.orders.get_ref() {
                                for rep in 0..reps {
                                    let key = CellKey::new(dname)
                                        .part(l.name())
                                        .part(method.as_str())
                                        .part(order.as_str())
                                        .field("k", kv.get_ref().label())
                                        .field("n", &n_label)
                                        .field("rep", rep);
                                    if cells.push_or_skip(key, c.grid.span())? {
                                        specs.push(CellSpec {
                                            dataset: di,
                                            learner: li,
                                            method,
                                            order,
                                            k: *kv.get_ref(),
                                            n,
                                            n_label: n_label.clone(),
                                            rep,
                                        });
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(TreecvPlan {
        head: PlanHead {
            kind: "treecv",
            name: c.name.get_ref().clone(),
            base_seed: c.seed,
            exclusive: c.exclusive,
            cells: cells.into_cells(),
        },
        datasets,
        dataset_specs,
        learner_specs: c.learner_specs(),
        learners,
        specs,
    })
}

/// The loaded datasets (name and data) and their specs, serialized. Each
/// must have rows, and labels in {-1, +1} for a classifier that runs on it.
#[allow(clippy::type_complexity)]
fn load_datasets(
    cfg: &ConfigFile,
    ctx: &Context,
    c: &TreecvConfig,
    learners: &[AnyLearner],
) -> Result<(Vec<(String, Arc<Dataset>)>, Vec<String>), ExperimentError> {
    let mut datasets = Vec::new();
    let mut specs = Vec::new();
    for spec in c.datasets.get_ref() {
        let data = ctx.dataset(spec)?;
        if data.n() == 0 {
            return Err(cfg
                .invalid(
                    c.datasets.span(),
                    &format!("dataset {} has no rows", spec.display_name()),
                    "check the data file",
                )
                .into());
        }
        for (l, ls) in learners.iter().zip(c.learners.get_ref()) {
            if applies(ls.get_ref(), &data.name) {
                l.check_features(data.d()).map_err(|e| {
                    cfg.invalid(
                        ls.span(),
                        &format!("dataset {}: {e}", data.name),
                        "use fewer features (a subset of columns) or another learner, or restrict this learner with `on = [...]`",
                    )
                })?;
            }
            if applies(ls.get_ref(), &data.name)
                && l.requires_binary_labels()
                && data.y.iter().any(|&y| y != 1.0 && y != -1.0)
            {
                return Err(cfg
                    .invalid(
                        ls.span(),
                        &format!("{} needs labels in {{-1, +1}}, but dataset {} has others", l.short(), data.name),
                        "add a label transform to the dataset (e.g. one_vs_rest or even_odd) or use a regression learner",
                    )
                    .into());
            }
        }
        datasets.push((data.name.clone(), data));
        specs.push(format!("{spec:?}"));
    }
    Ok((datasets, specs))
}

/// A grid `n` on a dataset: the subsample size and its label (`all` or the
/// number); more than the dataset's rows is an error.
fn resolve_n(
    cfg: &ConfigFile,
    nv: &Spanned<NValue>,
    dname: &str,
    data: &Dataset,
) -> Result<(usize, String), ConfigError> {
    match *nv.get_ref() {
        NValue::All => Ok((data.n(), "all".to_string())),
        NValue::Size(n) if n > data.n() => Err(cfg.invalid(
            nv.span(),
            &format!("n = {n} exceeds the {} rows of dataset {dname}", data.n()),
            &format!("use n <= {} or \"all\"", data.n()),
        )),
        NValue::Size(n) => Ok((n, n.to_string())),
    }
}

/// A grid `k` on `n` points must give 2 to n folds.
fn check_k(
    cfg: &ConfigFile,
    kv: &Spanned<KValue>,
    dname: &str,
    n: usize,
) -> Result<(), ConfigError> {
    let k = kv.get_ref().resolve(n);
    if (2..=n).contains(&k) {
        return Ok(());
    }
    Err(cfg.invalid(
        kv.span(),
        &format!("k = {k} is not in 2..=n for dataset {dname} with n = {n}"),
        "use 2 <= k <= n, or \"n\" for leave-one-out",
    ))
}

/// Two learners with one name (so the same parameters) that both run on a
/// dataset would give the same cells twice: an error at the second.
fn check_learner_names(
    cfg: &ConfigFile,
    c: &TreecvConfig,
    learners: &[AnyLearner],
    datasets: &[&str],
) -> Result<(), ConfigError> {
    let specs = c.learners.get_ref();
    for j in 0..learners.len() {
        for i in 0..j {
            let shared = datasets
                .iter()
                .find(|d| applies(specs[i].get_ref(), d) && applies(specs[j].get_ref(), d));
            if let (true, Some(d)) = (learners[i].name() == learners[j].name(), shared) {
                let (line, col) = cfg.line_col(specs[i].span().start);
                return Err(cfg.invalid(
                    specs[j].span(),
                    &format!(
                        "learner {} is listed twice (also at line {line}, column {col}) and both run on dataset {d}: they would give the same cells",
                        learners[j].name()
                    ),
                    "remove the duplicate learner, or restrict one of them with `on = [...]`",
                ));
            }
        }
    }
    Ok(())
}
