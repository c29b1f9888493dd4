//! The TreeCV paper (Joulani, György, Szepesvári 2015): TreeCV against
//! standard k-CV for incremental learners, fixed and randomized orders.
//! Table 2 (CV estimates, mean ± std over repetitions) and Figure 2 (running
//! time against n; a PEGASOS row and an LSQSGD row; k-CV fixed, k-CV
//! randomized and LOOCV columns).

use super::{Cell, Context, ExperimentError, Kind, Plan, Rendered};
use crate::config::{ConfigFile, KValue, NValue};
use crate::cv::standard::{standard_cv, standard_cv_parallel};
use crate::cv::treecv::{treecv, Strategy};
use crate::cv::{Chunks, CvOutcome, Order};
use crate::data::{Dataset, DatasetSpec};
use crate::learners::{IncrementalLearner, Lsqsgd, Pegasos, Ridge};
use crate::results::figures::{self, Figure, Panel, Series};
use crate::results::table::{to_frame, write_atomic, write_table};
use crate::results::Record;
use crate::seed;
use rand::seq::SliceRandom;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use toml::Spanned;

/// The published numbers (experiments/treecv/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../experiments/treecv/published.toml");

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

/// Learner types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearnerType {
    /// PEGASOS linear SVM (misclassification loss).
    Pegasos,
    /// LSQSGD averaged SGD for least squares (squared loss).
    Lsqsgd,
    /// Exact ridge regression from sufficient statistics (squared loss).
    Ridge,
}

/// A learner in a config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnerSpec {
    /// Which learner.
    #[serde(rename = "type")]
    pub kind: LearnerType,
    /// PEGASOS and ridge: regularisation (PEGASOS default 1e-6, ridge default 1).
    pub lambda: Option<f64>,
    /// PEGASOS: project onto the 1/sqrt(lambda) ball (default false).
    pub project: Option<bool>,
    /// LSQSGD: constant step (default n^-1/2).
    pub step: Option<f64>,
    /// LSQSGD: radius of the l2 ball (default 1).
    pub radius: Option<f64>,
    /// Run this learner only on these datasets (names as `cvbench validate`
    /// prints them); default: every dataset.
    pub on: Option<Vec<String>>,
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

enum AnyLearner {
    Pegasos(Pegasos),
    Lsqsgd(Lsqsgd),
    Ridge(Ridge),
}

impl AnyLearner {
    fn from_spec(s: &LearnerSpec) -> Result<AnyLearner, String> {
        let only = |ok: bool, key: &str, for_: &str| {
            if ok {
                Ok(())
            } else {
                Err(format!("`{key}` applies to {for_} only"))
            }
        };
        let positive = |v: Option<f64>, key: &str| match v {
            Some(x) if !(x > 0.0 && x.is_finite()) => Err(format!("`{key}` must be > 0")),
            _ => Ok(()),
        };
        positive(s.lambda, "lambda")?;
        positive(s.step, "step")?;
        positive(s.radius, "radius")?;
        Ok(match s.kind {
            LearnerType::Pegasos => {
                only(s.step.is_none(), "step", "lsqsgd")?;
                only(s.radius.is_none(), "radius", "lsqsgd")?;
                AnyLearner::Pegasos(Pegasos {
                    lambda: s.lambda.unwrap_or(1e-6),
                    project: s.project.unwrap_or(false),
                })
            }
            LearnerType::Lsqsgd => {
                only(s.lambda.is_none(), "lambda", "pegasos and ridge")?;
                only(s.project.is_none(), "project", "pegasos")?;
                AnyLearner::Lsqsgd(Lsqsgd {
                    step: s.step,
                    radius: s.radius,
                })
            }
            LearnerType::Ridge => {
                only(s.step.is_none(), "step", "lsqsgd")?;
                only(s.project.is_none(), "project", "pegasos")?;
                AnyLearner::Ridge(Ridge {
                    lambda: s.lambda.unwrap_or(1.0),
                })
            }
        })
    }

    fn name(&self) -> String {
        match self {
            AnyLearner::Pegasos(l) => l.name(),
            AnyLearner::Lsqsgd(l) => l.name(),
            AnyLearner::Ridge(l) => l.name(),
        }
    }

    fn short(&self) -> &'static str {
        match self {
            AnyLearner::Pegasos(_) => "pegasos",
            AnyLearner::Lsqsgd(_) => "lsqsgd",
            AnyLearner::Ridge(_) => "ridge",
        }
    }

    fn loss_name(&self) -> &'static str {
        match self {
            AnyLearner::Pegasos(_) => "misclassification",
            _ => "squared_error",
        }
    }
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
    name: String,
    seed: u64,
    exclusive: bool,
    datasets: Vec<(String, Arc<Dataset>)>,
    learners: Vec<AnyLearner>,
    specs: Vec<CellSpec>,
    cells: Vec<Cell>,
}

impl Plan for TreecvPlan {
    fn name(&self) -> &str {
        &self.name
    }
    fn base_seed(&self) -> u64 {
        self.seed
    }
    fn exclusive(&self) -> bool {
        self.exclusive
    }
    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.cells[i];
        let (dname, data) = &self.datasets[c.dataset];
        // The repetition's random subsample/permutation: shared by every
        // method, order and k of this (dataset, n, rep), so comparisons are paired.
        let mut perm: Vec<usize> = (0..data.n()).collect();
        perm.shuffle(&mut seed::rng(seed::derive(
            self.seed,
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

fn requires_binary(l: &AnyLearner) -> bool {
    matches!(l, AnyLearner::Pegasos(_))
}

impl Kind for TreecvKind {
    fn name(&self) -> &'static str {
        "treecv"
    }

    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
        let c: TreecvConfig = cfg.parse()?;
        let reps = *c.repetitions.get_ref();
        if reps == 0 {
            return Err(cfg
                .invalid(
                    c.repetitions.span(),
                    "repetitions must be at least 1",
                    "set repetitions = 1 or more",
                )
                .into());
        }
        cfg.non_empty("datasets", c.datasets.get_ref().len(), c.datasets.span())?;
        cfg.non_empty("learners", c.learners.get_ref().len(), c.learners.span())?;
        cfg.non_empty("grid", c.grid.get_ref().len(), c.grid.span())?;
        let mut learners = Vec::new();
        for l in c.learners.get_ref() {
            learners.push(AnyLearner::from_spec(l.get_ref()).map_err(|m| {
                cfg.invalid(l.span(), &m, "remove the key or change the learner type")
            })?);
        }
        let mut datasets = Vec::new();
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
                if requires_binary(l) && data.y.iter().any(|&y| y != 1.0 && y != -1.0) {
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
        }
        for ls in c.learners.get_ref() {
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
            name: c.name.into_inner(),
            seed: c.seed,
            exclusive: c.exclusive,
            datasets,
            learners,
            specs,
            cells,
        }))
    }

    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError> {
        let c: TreecvConfig = config.parse()?;
        render(dir, &c, records)
    }
}

// ---------------------------------------------------------------- rendering

#[derive(Default, Clone)]
struct Stats {
    count: usize,
    mean: f64,
    m2: f64,
}

impl Stats {
    fn add(&mut self, x: f64) {
        self.count += 1;
        let d = x - self.mean;
        self.mean += d / self.count as f64;
        self.m2 += d * (x - self.mean);
    }
    fn std(&self) -> f64 {
        if self.count > 1 {
            (self.m2 / (self.count - 1) as f64).sqrt()
        } else {
            0.0
        }
    }
}

type GroupKey = (String, String, String, String, String, i64);

#[derive(Default, Clone)]
struct Group {
    estimate: Stats,
    seconds: Stats,
    updates: Stats,
    passes: Stats,
    copies: Stats,
    peak: f64,
    synthetic: bool,
    k_value: i64,
}

fn s(r: &Record, c: &str) -> String {
    r.text(c)
}

fn f(r: &Record, c: &str) -> f64 {
    r.number(c)
}

fn groups(records: &[Record]) -> BTreeMap<GroupKey, Group> {
    let mut g: BTreeMap<GroupKey, Group> = BTreeMap::new();
    for r in records {
        let key = (
            s(r, "dataset"),
            s(r, "learner"),
            s(r, "method"),
            s(r, "order"),
            s(r, "k"),
            f(r, "n") as i64,
        );
        let e = g.entry(key).or_default();
        e.estimate.add(f(r, "estimate"));
        e.seconds.add(f(r, "seconds"));
        e.updates.add(f(r, "updates"));
        e.passes.add(f(r, "passes"));
        e.copies.add(f(r, "copies"));
        e.peak = e.peak.max(f(r, "peak_models"));
        e.synthetic = matches!(r.get("synthetic"), Some(crate::results::Value::Bool(true)));
        e.k_value = f(r, "k_value") as i64;
    }
    g
}

#[derive(Deserialize)]
struct Published {
    table2: BTreeMap<String, PublishedTable>,
}

#[derive(Deserialize)]
struct PublishedTable {
    dataset: String,
    units: String,
    rows: Vec<PublishedRow>,
}

#[derive(Deserialize)]
struct PublishedRow {
    k: String,
    treecv_fixed: Option<[f64; 2]>,
    treecv_randomized: Option<[f64; 2]>,
    standard_fixed: Option<[f64; 2]>,
    standard_randomized: Option<[f64; 2]>,
}

const COLS: [(&str, &str, &str); 4] = [
    ("treecv", "fixed", "TreeCV fixed"),
    ("treecv", "randomized", "TreeCV randomized"),
    ("standard", "fixed", "Standard fixed"),
    ("standard", "randomized", "Standard randomized"),
];

fn k_order(k: &str) -> (usize, String) {
    match k.parse::<usize>() {
        Ok(v) => (v, String::new()),
        Err(_) => (usize::MAX, k.to_string()),
    }
}

fn render(dir: &Path, c: &TreecvConfig, records: &[Record]) -> Result<Rendered, ExperimentError> {
    let g = groups(records);
    let mut files = Vec::new();
    // Summary table through Polars.
    let summary: Vec<Record> = g
        .iter()
        .map(|((d, l, m, o, k, n), v)| {
            Record::new()
                .with("dataset", d.as_str())
                .with("synthetic", v.synthetic)
                .with("learner", l.as_str())
                .with("method", m.as_str())
                .with("order", o.as_str())
                .with("k", k.as_str())
                .with("k_value", v.k_value)
                .with("n", *n)
                .with("reps", v.estimate.count)
                .with("estimate_mean", v.estimate.mean)
                .with("estimate_std", v.estimate.std())
                .with("seconds_mean", v.seconds.mean)
                .with("seconds_std", v.seconds.std())
                .with("updates_mean", v.updates.mean)
                .with("passes_mean", v.passes.mean)
                .with("copies_mean", v.copies.mean)
                .with("peak_models_max", v.peak)
        })
        .collect();
    files.extend(write_table(&to_frame(&summary)?, dir, "summary")?);

    let mut md = String::new();
    let run = c.name.get_ref();
    let _ = writeln!(md, "### Run `{run}`\n");
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let published: Option<Published> = toml::from_str(PUBLISHED).ok();

    // Table 2 layout: per (dataset, learner, n): rows k, columns method × order.
    let mut blocks: BTreeMap<(String, String, i64), Vec<String>> = BTreeMap::new();
    for (d, l, _, _, k, n) in g.keys() {
        let ks = blocks.entry((d.clone(), l.clone(), *n)).or_default();
        if !ks.contains(k) {
            ks.push(k.clone());
        }
    }
    let many_n = blocks.len() > 4;
    if !many_n {
        for ((d, l, n), mut ks) in blocks.clone() {
            ks.sort_by_key(|k| k_order(k));
            let synthetic = g.iter().any(|(key, v)| key.0 == d && v.synthetic);
            let scale = 100.0;
            let _ = writeln!(
                md,
                "**Table 2 layout — {l} on `{d}`{} (n = {n}), CV estimate ×100, mean ± std over repetitions**\n",
                if synthetic { " (SYNTHETIC)" } else { "" }
            );
            let _ = writeln!(
                md,
                "| k | TreeCV fixed | TreeCV randomized | Standard fixed | Standard randomized |"
            );
            let _ = writeln!(md, "|---|---|---|---|---|");
            for k in &ks {
                let mut row = format!("| {k} |");
                for (m, o, _) in COLS {
                    let key = (
                        d.clone(),
                        l.clone(),
                        m.to_string(),
                        o.to_string(),
                        k.clone(),
                        n,
                    );
                    match g.get(&key) {
                        Some(v) => {
                            let _ = write!(
                                row,
                                " {:.3} ± {:.4} ({} reps) |",
                                v.estimate.mean * scale,
                                v.estimate.std() * scale,
                                v.estimate.count
                            );
                        }
                        None => row.push_str(" N/A |"),
                    }
                }
                let _ = writeln!(md, "{row}");
            }
            md.push('\n');
            if let Some(p) = published
                .as_ref()
                .and_then(|p| c.paper_table.as_ref().and_then(|t| p.table2.get(t)))
            {
                let _ = writeln!(md, "Published (paper, {} — {}):\n", p.dataset, p.units);
                let _ = writeln!(md, "| k | TreeCV fixed | TreeCV randomized | Standard fixed | Standard randomized |");
                let _ = writeln!(md, "|---|---|---|---|---|");
                for r in &p.rows {
                    let cell = |v: Option<[f64; 2]>| {
                        v.map_or("N/A".to_string(), |[m, s]| format!("{m:.3} ± {s:.4}"))
                    };
                    let _ = writeln!(
                        md,
                        "| {} | {} | {} | {} | {} |",
                        r.k,
                        cell(r.treecv_fixed),
                        cell(r.treecv_randomized),
                        cell(r.standard_fixed),
                        cell(r.standard_randomized)
                    );
                }
                md.push('\n');
            }
        }
    }

    // Table 2 as a figure: estimate (×100) against k, one panel per block.
    if !many_n && !blocks.is_empty() {
        let mut panels = Vec::new();
        for (d, l, n) in blocks.keys() {
            let mut series = Vec::new();
            for (idx, (m, o, label)) in COLS.iter().enumerate() {
                let mut pts: Vec<(f64, f64, f64)> = g
                    .iter()
                    .filter(|(kk, _)| {
                        &kk.0 == d && &kk.1 == l && kk.5 == *n && kk.2 == *m && kk.3 == *o
                    })
                    .map(|(_, v)| {
                        (
                            v.k_value as f64,
                            v.estimate.mean * 100.0,
                            v.estimate.std() * 100.0,
                        )
                    })
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                if !pts.is_empty() {
                    series.push(Series {
                        label: label.to_string(),
                        points: pts,
                        color: idx,
                        marker: idx / 2,
                    });
                }
            }
            panels.push(Panel {
                title: format!("{} on {d} (n = {n})", l.to_uppercase()),
                x_label: "k (folds; the last point is k = n)".into(),
                y_label: "CV estimate x100 (mean ± std)".into(),
                log_x: true,
                log_y: false,
                series,
            });
        }
        let cols = panels.len().min(2);
        let rows = panels.len().div_ceil(cols.max(1));
        let synthetic = g.values().any(|v| v.synthetic);
        let fig = Figure {
            title: format!("Table 2 as a figure: CV estimate against k — run `{run}`"),
            caption: format!(
                "error bars: one standard deviation over repetitions; {}",
                if synthetic {
                    "data: SYNTHETIC"
                } else {
                    "real data (a substitute for the paper's; see the note)"
                }
            ),
            rows,
            cols,
            panels,
        };
        files.extend(figures::render(&fig, dir, "table2")?);
        let _ = writeln!(md, "![Table 2 as a figure, run {run}]({run}/table2.svg)\n");
    }

    // Cost table: TreeCV vs standard, time ratio and updates.
    let mut cost = String::new();
    let mut tree_groups: Vec<(&GroupKey, &Group)> =
        g.iter().filter(|(k, _)| k.2 == "treecv").collect();
    tree_groups.sort_by_key(|(k, _)| (k.0.clone(), k.1.clone(), k.3.clone(), k_order(&k.4), k.5));
    for ((d, l, _, o, k, n), v) in tree_groups {
        let std_key = (
            d.clone(),
            l.clone(),
            "standard".to_string(),
            o.clone(),
            k.clone(),
            *n,
        );
        let once_key = (
            d.clone(),
            l.clone(),
            "train_once".to_string(),
            o.clone(),
            "n".to_string(),
            *n,
        );
        let std = g.get(&std_key);
        let once = g.get(&once_key).or_else(|| {
            g.iter()
                .find(|(kk, _)| {
                    kk.0 == *d && kk.1 == *l && kk.2 == "train_once" && kk.3 == *o && kk.5 == *n
                })
                .map(|(_, v)| v)
        });
        let _ = writeln!(
            cost,
            "| {d} | {l} | {o} | {k} | {n} | {:.4} | {} | {} | {:.2} | {} | {} |",
            v.seconds.mean,
            std.map_or("–".into(), |s| format!("{:.4}", s.seconds.mean)),
            std.map_or("–".into(), |s| format!(
                "{:.2}",
                s.seconds.mean / v.seconds.mean
            )),
            v.passes.mean,
            std.map_or("–".into(), |s| format!("{:.1}", s.passes.mean)),
            once.map_or("–".into(), |t| format!(
                "{:.1}",
                v.seconds.mean / t.seconds.mean
            )),
        );
    }
    if !cost.is_empty() {
        let _ = writeln!(md, "**Cost: TreeCV against standard k-CV** (seconds are means over repetitions; passes = point-updates / n; \"TreeCV / one pass\" = TreeCV time over the time of one training pass over the same n points)\n");
        let _ = writeln!(md, "| dataset | learner | order | k | n | TreeCV s | standard s | standard/TreeCV | TreeCV passes | standard passes | TreeCV / one pass |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
        md.push_str(&cost);
        md.push('\n');
    }

    // Figure 2 layout when the run varies n.
    let ns: std::collections::BTreeSet<i64> = g.keys().map(|k| k.5).collect();
    if ns.len() > 1 {
        // The paper's row order: PEGASOS, then LSQSGD, then anything else.
        let learners: Vec<String> = {
            let mut v: Vec<String> = g.keys().map(|k| k.1.clone()).collect();
            let rank = |l: &str| {
                ["pegasos", "lsqsgd"]
                    .iter()
                    .position(|x| *x == l)
                    .unwrap_or(9)
            };
            v.sort_by_key(|l| (rank(l), l.clone()));
            v.dedup();
            v
        };
        let mut panels = Vec::new();
        for l in &learners {
            let data_names: Vec<String> = {
                let mut v: Vec<String> = g
                    .keys()
                    .filter(|k| &k.1 == l)
                    .map(|k| k.0.clone())
                    .collect();
                v.sort();
                v.dedup();
                v
            };
            let dname = data_names.join(", ");
            for (title, order, loo) in [
                ("k-CV, fixed order", "fixed", false),
                ("k-CV, randomized order", "randomized", false),
                ("LOOCV (log-log)", "", true),
            ] {
                let mut series = Vec::new();
                let mut keys: Vec<(String, String, String)> = g
                    .keys()
                    .filter(|k| &k.1 == l && (k.2 == "treecv" || k.2 == "standard"))
                    .filter(|k| {
                        if loo {
                            k.4 == "n"
                        } else {
                            k.4 != "n" && k.3 == order
                        }
                    })
                    .map(|k| (k.2.clone(), k.3.clone(), k.4.clone()))
                    .collect();
                keys.sort_by_key(|(m, o, k)| (m.clone(), o.clone(), k_order(k)));
                keys.dedup();
                let ks: Vec<String> = {
                    let mut v: Vec<String> = keys.iter().map(|(_, _, k)| k.clone()).collect();
                    v.sort_by_key(|k| k_order(k));
                    v.dedup();
                    v
                };
                for (idx, (m, o, k)) in keys.iter().enumerate() {
                    // Colour by k (by order in the LOOCV panel), marker by method.
                    let color = if loo {
                        usize::from(o == "randomized") + 2 * usize::from(m != "treecv")
                    } else {
                        ks.iter().position(|x| x == k).unwrap_or(idx)
                    };
                    let pts: Vec<(f64, f64, f64)> = g
                        .iter()
                        .filter(|(kk, _)| &kk.1 == l && &kk.2 == m && &kk.3 == o && &kk.4 == k)
                        .map(|(kk, v)| (kk.5 as f64, v.seconds.mean, v.seconds.std()))
                        .collect();
                    let name = if m == "treecv" { "TreeCV" } else { "standard" };
                    let label = if loo {
                        format!("{name} {o}")
                    } else {
                        format!("{name} k={k}")
                    };
                    series.push(Series {
                        label,
                        points: pts,
                        color,
                        marker: usize::from(m != "treecv"),
                    });
                }
                panels.push(Panel {
                    title: format!("{} — {title}", l.to_uppercase()),
                    x_label: format!("n ({dname})"),
                    y_label: "seconds".into(),
                    log_x: loo,
                    log_y: loo,
                    series,
                });
            }
        }
        let synthetic = g.values().any(|v| v.synthetic);
        let fig = Figure {
            title: format!("Figure 2 layout: running time against n — run `{run}`"),
            caption: format!(
                "mean ± std over repetitions; {}",
                if synthetic {
                    "data: SYNTHETIC shape-matched stand-ins (not the paper's datasets)"
                } else {
                    "real data"
                }
            ),
            rows: learners.len(),
            cols: 3,
            panels,
        };
        files.extend(figures::render(&fig, dir, "figure2")?);
        let _ = writeln!(md, "![Figure 2 layout, run {run}]({run}/figure2.svg)\n");
    }
    write_atomic(&dir.join("report-section.md"), md.as_bytes())?;
    files.push(dir.join("report-section.md"));
    Ok(Rendered {
        files,
        markdown: md,
    })
}
