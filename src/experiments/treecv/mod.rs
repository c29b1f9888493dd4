//! The TreeCV paper (Joulani, György, Szepesvári 2015): TreeCV against
//! standard k-CV for incremental learners, fixed and randomized orders.
//! Table 2 (CV estimates, mean ± std over repetitions) and Figure 2 (running
//! time against n; a PEGASOS row and an LSQSGD row; k-CV fixed, k-CV
//! randomized and LOOCV columns).

use super::{Cell, Context, ExperimentError, Kind, Plan, PlanHead, Rendered};
use crate::config::{ConfigFile, KValue, NValue};
use crate::cv::standard::{standard_cv, standard_cv_parallel};
use crate::cv::treecv::{treecv, Strategy};
use crate::cv::{Chunks, CvOutcome, Order};
use crate::data::{Dataset, DatasetSpec};
use crate::learners::{AnyLearner, IncrementalLearner};
use crate::results::Record;
use crate::seed;
use rand::seq::SliceRandom;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use toml::Spanned;

/// The learner spec of `[[learners]]` (shared with other kinds).
pub use crate::learners::{LearnerSpec, LearnerType};

mod render;
pub mod scorecard;

/// The published numbers (experiments/treecv/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../experiments/treecv/published.toml");

/// The `treecv` experiment kind.
pub struct TreecvKind;

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
    fn as_str(self) -> &'static str {
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

/// Run one CV method with a concrete learner.
fn run_method<L: IncrementalLearner>(
    l: &L,
    data: &Dataset,
    method: Method,
    order: Order,
    k: usize,
    seed: u64,
) -> CvOutcome {
    let n = data.n();
    if method == Method::TrainOnce {
        let start = Instant::now();
        let counters = crate::cv::Counters::default();
        let mut m = l.init(data);
        counters.born();
        let all: Vec<usize> = (0..n).collect();
        crate::cv::feed_points(l, &mut m, data, &all, order, seed, &counters);
        let estimate = l.mean_loss(&m, data, &all);
        return CvOutcome {
            estimate,
            work: counters.work(),
            seconds: start.elapsed().as_secs_f64(),
        };
    }
    let chunks = Chunks::new((0..n).collect(), k).expect("k validated at plan time");
    match method {
        Method::Treecv => treecv(l, data, &chunks, order, Strategy::Copy, seed),
        Method::TreecvRevert => treecv(l, data, &chunks, order, Strategy::SaveRevert, seed),
        Method::TreecvParallel => treecv(l, data, &chunks, order, Strategy::Parallel, seed),
        Method::Standard => standard_cv(l, data, &chunks, order, seed),
        Method::StandardParallel => standard_cv_parallel(l, data, &chunks, order, seed),
        Method::TrainOnce => unreachable!(),
    }
}

struct CellSpec {
    dataset: usize,
    learner: usize,
    method: Method,
    order: Order,
    k: KValue,
    n: usize,
    n_label: String,
    rep: usize,
}

struct TreecvPlan {
    head: PlanHead,
    datasets: Vec<(String, Arc<Dataset>)>,
    /// Each dataset's and learner's config spec, serialized (cell identity).
    dataset_specs: Vec<String>,
    learner_specs: Vec<String>,
    learners: Vec<AnyLearner>,
    specs: Vec<CellSpec>,
}

impl Plan for TreecvPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    /// Learner updates times the mean stored features per row.
    fn cost(&self, i: usize) -> Option<f64> {
        let c = &self.specs[i];
        let data = &self.datasets[c.dataset].1;
        let per_row = match &data.x {
            crate::data::Features::Sparse { indices, .. } => {
                indices.len() as f64 / data.n().max(1) as f64
            }
            crate::data::Features::Dense { d, .. } => *d as f64,
        };
        let (n, k) = (c.n as f64, c.k.resolve(c.n) as f64);
        let passes = match c.method {
            Method::Standard | Method::StandardParallel => k - 1.0,
            Method::Treecv | Method::TreecvRevert | Method::TreecvParallel => k.log2() + 1.0,
            Method::TrainOnce => 1.0,
        };
        Some(n * passes * per_row.max(1.0))
    }

    /// The dataset's and learner's specs and the cell's grid point: a cell
    /// is reused when another part of the config (e.g. the grid) changes.
    fn cell_spec(&self, i: usize) -> Option<String> {
        let c = &self.specs[i];
        Some(format!(
            "seed={}|data={}|learner={}|method={}|order={}|k={}|n={}|rep={}",
            self.head.base_seed,
            self.dataset_specs[c.dataset],
            self.learner_specs[c.learner],
            c.method.as_str(),
            c.order.as_str(),
            c.k.label(),
            c.n,
            c.rep
        ))
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (dname, data) = &self.datasets[c.dataset];
        // The repetition's random subsample/permutation: shared by every
        // method, order and k of this (dataset, n, rep), so comparisons are paired.
        let mut perm: Vec<usize> = (0..data.n()).collect();
        perm.shuffle(&mut seed::rng(seed::derive(
            self.head.base_seed,
            &format!("{dname}|n={}|rep={}", c.n_label, c.rep),
        )));
        perm.truncate(c.n);
        let sub = data.subset(&perm, dname.clone());
        let k = c.k.resolve(c.n);
        let learner = &self.learners[c.learner];
        let out = match learner {
            AnyLearner::Pegasos(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
            AnyLearner::Lsqsgd(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
            AnyLearner::Ridge(l) => run_method(l, &sub, c.method, c.order, k, cell.seed),
        };
        if !out.estimate.is_finite() {
            return Err(ExperimentError::Cell {
                cell: cell.key.clone(),
                message: format!("estimate is {} (diverged?)", out.estimate),
            });
        }
        Ok(vec![Record::new()
            .with("dataset", dname.as_str())
            .with("synthetic", data.is_synthetic())
            .with("learner", learner.short())
            .with("learner_params", learner.name())
            .with("loss", learner.loss_name())
            .with("method", c.method.as_str())
            .with("order", c.order.as_str())
            .with("k", c.k.label())
            .with("k_value", k)
            .with("n", c.n)
            .with("d", data.d())
            .with("rep", c.rep)
            .with("seed", cell.seed.to_string())
            .with("estimate", out.estimate)
            .with("seconds", out.seconds)
            .with("updates", out.work.updates)
            .with("passes", out.work.updates as f64 / c.n as f64)
            .with("copies", out.work.copies)
            .with("peak_models", out.work.peak_models)])
    }
}

fn applies(l: &LearnerSpec, dataset: &str) -> bool {
    l.on.as_ref()
        .is_none_or(|on| on.iter().any(|d| d == dataset))
}

/// The most repetitions a treecv config may ask for (the paper: 100); each
/// is a cell per grid point, so this bounds the plan's size.
pub const MAX_REPETITIONS: usize = 100_000;

pub use super::MAX_CELLS;

impl Kind for TreecvKind {
    fn name(&self) -> &'static str {
        "treecv"
    }
    fn title(&self) -> &'static str {
        "TreeCV vs standard k-CV — Joulani, György, Szepesvári (IJCAI 2015)"
    }
    fn notes_folder(&self) -> &'static str {
        "treecv"
    }
    fn sources(&self) -> &'static [&'static str] {
        &["src/experiments/treecv", "src/cv", "src/learners"]
    }

    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
        let c: TreecvConfig = cfg.parse()?;
        let reps = *c.repetitions.get_ref();
        if reps == 0 || reps > MAX_REPETITIONS {
            return Err(cfg
                .invalid(
                    c.repetitions.span(),
                    &format!("repetitions = {reps} is not in 1..={MAX_REPETITIONS}"),
                    "the paper uses 100; set repetitions between 1 and 100000",
                )
                .into());
        }
        cfg.non_empty("datasets", c.datasets.get_ref().len(), c.datasets.span())?;
        cfg.non_empty("learners", c.learners.get_ref().len(), c.learners.span())?;
        cfg.non_empty("grid", c.grid.get_ref().len(), c.grid.span())?;
        let mut learners = Vec::new();
        for l in c.learners.get_ref() {
            learners.push(l.get_ref().check().map_err(|e| {
                cfg.invalid(
                    l.span(),
                    &e.to_string(),
                    "remove the key, fix its value or change the learner type",
                )
            })?);
        }
        let mut datasets = Vec::new();
        let mut dataset_specs = Vec::new();
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
                if !applies(ls.get_ref(), &data.name) {
                    continue;
                }
                if l.requires_binary_labels() && data.y.iter().any(|&y| y != 1.0 && y != -1.0) {
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
            dataset_specs.push(format!("{spec:?}"));
        }
        for ls in c.learners.get_ref() {
            if ls.get_ref().on.as_ref().is_some_and(Vec::is_empty) {
                return Err(cfg
                    .invalid(
                        ls.span(),
                        "`on` is empty: this learner would run on no dataset",
                        "name at least one dataset, or remove `on` to use every dataset",
                    )
                    .into());
            }
            for name in ls.get_ref().on.iter().flatten() {
                if !datasets.iter().any(|(d, _)| d == name) {
                    let known: Vec<&str> = datasets.iter().map(|(d, _)| d.as_str()).collect();
                    return Err(cfg
                        .invalid(
                            ls.span(),
                            &format!(
                                "`on` names dataset `{name}`, which this config does not load"
                            ),
                            &format!("use one of: {}", known.join(", ")),
                        )
                        .into());
                }
            }
        }
        let mut specs = Vec::new();
        let mut cells = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for g in c.grid.get_ref() {
            cfg.non_empty("methods", g.methods.get_ref().len(), g.methods.span())?;
            cfg.non_empty("orders", g.orders.get_ref().len(), g.orders.span())?;
            cfg.non_empty("k", g.k.get_ref().len(), g.k.span())?;
            if let Some(n) = &g.n {
                cfg.non_empty("n", n.get_ref().len(), n.span())?;
            }
            let reps = match &g.repetitions {
                Some(r) if *r.get_ref() == 0 => {
                    return Err(cfg
                        .invalid(
                            r.span(),
                            "repetitions must be at least 1",
                            "set repetitions = 1 or more, or remove it to use the config's",
                        )
                        .into())
                }
                Some(r) => *r.get_ref(),
                None => reps,
            };
            let all = [Spanned::new(0..0, NValue::All)];
            let ns: &[Spanned<NValue>] = g.n.as_ref().map_or(&all[..], |v| v.get_ref());
            for (di, (dname, data)) in datasets.iter().enumerate() {
                for nv in ns {
                    let (n, n_label) = match *nv.get_ref() {
                        NValue::All => (data.n(), "all".to_string()),
                        NValue::Size(n) if n > data.n() => {
                            return Err(cfg
                                .invalid(
                                    nv.span(),
                                    &format!(
                                        "n = {n} exceeds the {} rows of dataset {dname}",
                                        data.n()
                                    ),
                                    &format!("use n <= {} or \"all\"", data.n()),
                                )
                                .into())
                        }
                        NValue::Size(n) => (n, n.to_string()),
                    };
                    for kv in g.k.get_ref() {
                        let k = kv.get_ref().resolve(n);
                        if k < 2 || k > n {
                            return Err(cfg
                                .invalid(
                                    kv.span(),
                                    &format!(
                                        "k = {k} is not in 2..=n for dataset {dname} with n = {n}"
                                    ),
                                    "use 2 <= k <= n, or \"n\" for leave-one-out",
                                )
                                .into());
                        }
                        for (li, l) in learners.iter().enumerate() {
                            if !applies(c.learners.get_ref()[li].get_ref(), dname) {
                                continue;
                            }
                            for &method in g.methods.get_ref() {
                                for &order in g.orders.get_ref() {
                                    for rep in 0..reps {
                                        let key = format!(
                                            "{dname}|{}|{}|{}|k={}|n={n_label}|rep={rep}",
                                            l.name(),
                                            method.as_str(),
                                            order.as_str(),
                                            kv.get_ref().label()
                                        );
                                        if !seen.insert(key.clone()) {
                                            continue;
                                        }
                                        if cells.len() == MAX_CELLS {
                                            return Err(cfg
                                                .invalid(
                                                    c.grid.span(),
                                                    &format!("the grid expands to more than {MAX_CELLS} cells"),
                                                    "use fewer repetitions or smaller lists, or split the config",
                                                )
                                                .into());
                                        }
                                        cells.push(Cell {
                                            seed: seed::derive(c.seed, &key),
                                            key,
                                        });
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
        Ok(Box::new(TreecvPlan {
            head: PlanHead {
                kind: "treecv",
                name: c.name.into_inner(),
                base_seed: c.seed,
                exclusive: c.exclusive,
                cells,
            },
            datasets,
            dataset_specs,
            learner_specs: c
                .learners
                .get_ref()
                .iter()
                .map(|l| {
                    let mut l = l.get_ref().clone();
                    l.on = None;
                    format!("{l:?}")
                })
                .collect(),
            learners,
            specs,
        }))
    }

    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError> {
        let c: TreecvConfig = config.parse()?;
        render::render(dir, &c, records)
    }

    fn overview(
        &self,
        _root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<std::path::PathBuf>)>, ExperimentError> {
        let md = scorecard::overview(runs);
        Ok((!md.is_empty()).then_some((md, Vec::new())))
    }

    fn scorecard(
        &self,
        runs: &[&crate::results::scorecard::StoredRun],
    ) -> Vec<crate::results::scorecard::ScoreRow> {
        scorecard::scorecard(runs)
    }
}
