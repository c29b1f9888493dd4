//! The `progressive` experiment kind: configs → cells → records for the
//! BKL reproduction (Figure 1, the table, delays), the theorem checks
//! (synthetic and real populations) and progressive loss on data streams.
//!
//! Every record has the same columns (see [`Row`]); a column that does not
//! apply to a study holds `""`, `-1` or NaN.

use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

use super::generator::BklProblem;
use super::paper::{run_bkl, BklRun, Procedure, Published, TieKind};
use super::stream::{progressive_stream, StreamSpec};
use super::theorems::{
    run_kfold_check, run_progressive_check, BklPopulation, DatasetPopulation, KFoldCheck,
    ProgressiveCheck,
};
use super::ProgressiveError;
use crate::config::ConfigFile;
use crate::data::Dataset;
use crate::experiments::{Cell, Context, ExperimentError, Kind, Plan, Rendered};
use crate::learners::{IncrementalLearner, Lsqsgd, Pegasos};
use crate::results::Record;
use crate::seed;

/// The published table (experiments/progressive/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../experiments/progressive/published.toml");

/// The `progressive` experiment kind.
pub struct ProgressiveKind;

/// Figure 1: hold-out against progressive validation for a range of `n`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure1Spec {
    /// Smallest total size `n` (the paper: 10).
    pub n_min: usize,
    /// Largest total size `n` (the paper: 30).
    pub n_max: usize,
    /// Test / progressive set size (the paper: 10).
    pub s: usize,
    /// Repetitions per `n` (the paper: 1000).
    pub reps: usize,
    /// Fresh examples for the measured true error (0: exact true error only).
    #[serde(default)]
    pub fresh: usize,
}

/// The table of Section 5 (rows from `published.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Repetitions per row (the paper: 1000).
    pub reps: usize,
    /// Fresh examples for the measured true error (the paper: 10,000).
    pub fresh: usize,
    /// Extra progressive rows with these delays (same sizes as the PV row).
    #[serde(default)]
    pub delays: Vec<usize>,
}

/// The synthetic BKL study.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BklSection {
    /// Number of features `N` (default 1000).
    #[serde(default = "default_features")]
    pub n_features: usize,
    /// Figure 1.
    pub figure1: Option<Figure1Spec>,
    /// The table.
    pub table: Option<TableSpec>,
}

fn default_features() -> usize {
    1000
}

/// A learner for real data.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnerCfg {
    /// `"pegasos"` or `"lsqsgd"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// PEGASOS regularisation (default 1e-6).
    pub lambda: Option<f64>,
    /// LSQSGD constant step (default n^-1/2).
    pub step: Option<f64>,
}

/// A population for the theorem checks.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PopulationCfg {
    /// The synthetic problem: `{ n_features = 1000, tie = "half" }`.
    pub synthetic: Option<SyntheticCfg>,
    /// Registry name of the training pool (real data).
    pub train: Option<String>,
    /// Registry name of the test set standing in for the distribution.
    pub test: Option<String>,
    /// Without `test`: hold out this fraction of `train` as the test set.
    pub test_fraction: Option<f64>,
    /// The learner (real data).
    pub learner: Option<LearnerCfg>,
    /// Shuffle each fold hypothesis' training points (order-sensitive learners).
    #[serde(default)]
    pub shuffle: bool,
}

/// The synthetic population.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticCfg {
    /// Number of features.
    #[serde(default = "default_features")]
    pub n_features: usize,
    /// Tie rule.
    #[serde(default = "default_tie")]
    pub tie: TieKind,
}

fn default_tie() -> TieKind {
    TieKind::Half
}

/// A k-fold setting `(n, k)`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KfCfg {
    /// Data set size.
    pub n: usize,
    /// Folds.
    pub k: usize,
}

/// A progressive setting `(n_train, s)`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PvCfg {
    /// Training points.
    pub n_train: usize,
    /// Progressive set size.
    pub s: usize,
}

/// One block of theorem checks on one population.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TheoremBlock {
    /// The population.
    pub population: PopulationCfg,
    /// Repetitions per setting.
    pub reps: usize,
    /// k-fold settings (Theorems 1–3).
    #[serde(default)]
    pub kfold: Vec<KfCfg>,
    /// Progressive settings (Theorems 4–5).
    #[serde(default)]
    pub progressive: Vec<PvCfg>,
}

/// One stream study.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamBlock {
    /// Registry name of the stream.
    pub train: String,
    /// Registry name of the test set.
    pub test: Option<String>,
    /// Without `test`: hold out this fraction of `train` as the test set.
    pub test_fraction: Option<f64>,
    /// Learners.
    pub learners: Vec<LearnerCfg>,
    /// Log-spaced checkpoints (default 40).
    #[serde(default = "default_checkpoints")]
    pub checkpoints: usize,
    /// Hold-out fraction of the stream for the hold-out estimate (default 0.1).
    #[serde(default = "default_holdout")]
    pub holdout_fraction: f64,
    /// Sampled members of the progressive hypothesis (default 100).
    #[serde(default = "default_members")]
    pub members: usize,
    /// Stream orders (default 1).
    #[serde(default = "default_one")]
    pub reps: usize,
    /// Use only the first `n` points of the (shuffled) stream.
    pub n: Option<usize>,
}

fn default_checkpoints() -> usize {
    40
}
fn default_holdout() -> f64 {
    0.1
}
fn default_members() -> usize {
    100
}
fn default_one() -> usize {
    1
}

/// The `progressive` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressiveConfig {
    /// Must be "progressive".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// Note printed in the report.
    #[serde(default)]
    pub note: String,
    /// Base seed.
    pub seed: u64,
    /// The synthetic BKL study (Figure 1, table).
    pub bkl: Option<Spanned<BklSection>>,
    /// Theorem checks.
    #[serde(default)]
    pub theorems: Vec<Spanned<TheoremBlock>>,
    /// Stream studies.
    #[serde(default)]
    pub stream: Vec<Spanned<StreamBlock>>,
    /// Deviations `a` for the tail (Hoeffding) tables.
    #[serde(default = "default_tail_a")]
    pub tail_a: Vec<f64>,
    /// Moment orders for Theorems 1–2.
    #[serde(default = "default_moments")]
    pub moments: Vec<u32>,
}

fn default_tail_a() -> Vec<f64> {
    (1..=10).map(|i| f64::from(i) * 0.05).collect()
}
fn default_moments() -> Vec<u32> {
    vec![1, 2, 3, 4]
}

/// A concrete real-data learner.
#[derive(Clone, Debug)]
pub enum RealLearner {
    /// PEGASOS.
    Pegasos(Pegasos),
    /// LSQSGD.
    Lsqsgd(Lsqsgd),
}

impl RealLearner {
    fn from_cfg(c: &LearnerCfg) -> Result<RealLearner, String> {
        let positive = |v: Option<f64>, key: &str| match v {
            Some(x) if !(x > 0.0 && x.is_finite()) => Err(format!("`{key}` must be > 0")),
            _ => Ok(()),
        };
        positive(c.lambda, "lambda")?;
        positive(c.step, "step")?;
        match c.kind.as_str() {
            "pegasos" if c.step.is_none() => Ok(RealLearner::Pegasos(Pegasos {
                lambda: c.lambda.unwrap_or(1e-6),
                project: false,
            })),
            "lsqsgd" if c.lambda.is_none() => Ok(RealLearner::Lsqsgd(Lsqsgd {
                step: c.step,
                radius: None,
            })),
            "pegasos" => Err("`step` applies to lsqsgd only".into()),
            "lsqsgd" => Err("`lambda` applies to pegasos only".into()),
            other => Err(format!(
                "unknown learner type `{other}` (use \"pegasos\" or \"lsqsgd\")"
            )),
        }
    }

    fn name(&self) -> String {
        match self {
            RealLearner::Pegasos(l) => l.name(),
            RealLearner::Lsqsgd(l) => l.name(),
        }
    }

    fn short(&self) -> &'static str {
        match self {
            RealLearner::Pegasos(_) => "pegasos",
            RealLearner::Lsqsgd(_) => "lsqsgd",
        }
    }
}

/// A loaded population.
enum PopInst {
    Synthetic(BklPopulation),
    Real {
        train: Arc<Dataset>,
        test: Arc<Dataset>,
        learner: RealLearner,
        shuffle: bool,
    },
}

impl PopInst {
    fn name(&self) -> String {
        match self {
            PopInst::Synthetic(p) => format!(
                "synthetic-bkl(N={},tie={})",
                p.problem.n_features,
                p.tie.label()
            ),
            PopInst::Real { train, .. } => train.name.clone(),
        }
    }

    fn learner(&self) -> String {
        match self {
            PopInst::Synthetic(p) => format!("eliminator(tie={})", p.tie.label()),
            PopInst::Real { learner, .. } => learner.name(),
        }
    }
}

enum Work {
    Bkl {
        study: &'static str,
        run: BklRun,
    },
    KFold {
        pop: usize,
        n: usize,
        k: usize,
        reps: usize,
    },
    Pv {
        pop: usize,
        n_train: usize,
        s: usize,
        reps: usize,
    },
    Stream {
        data: usize,
        learner: RealLearner,
        rep: usize,
    },
}

struct StreamData {
    train: Arc<Dataset>,
    test: Arc<Dataset>,
    block: StreamBlock,
}

struct ProgressivePlan {
    name: String,
    seed: u64,
    pops: Vec<PopInst>,
    streams: Vec<StreamData>,
    work: Vec<Work>,
    cells: Vec<Cell>,
}

/// One record row; every study fills the columns that apply to it.
#[derive(Clone, Debug)]
pub struct Row {
    /// `figure1`, `table`, `delay`, `kfold`, `progressive_check`,
    /// `stream` (one row per checkpoint) or `stream_summary`.
    pub study: String,
    /// Population / dataset name.
    pub population: String,
    /// Learner name.
    pub learner: String,
    /// Procedure (`hold_out`, `progressive`, `kfold`, `stream`).
    pub procedure: String,
    /// Tie rule (`half`, `random`, or `""`).
    pub tie: String,
    /// Data set size.
    pub n: i64,
    /// Training points before the test set.
    pub n_train: i64,
    /// Test / progressive / hold-out size.
    pub s: i64,
    /// Folds.
    pub k: i64,
    /// Progressive delay.
    pub delay: i64,
    /// Repetition.
    pub rep: i64,
    /// Stream position (points learnt).
    pub t: i64,
    /// The procedure's estimate (stream: running progressive loss).
    pub estimate: f64,
    /// Exact / test-set true error of the produced hypothesis.
    pub true_error: f64,
    /// True error measured on fresh examples.
    pub true_fresh: f64,
    /// Hold-out estimate (k-fold: fold 1; progressive check / stream: plain hold-out).
    pub holdout_estimate: f64,
    /// True error of the hold-out hypothesis.
    pub holdout_true: f64,
    /// `ê'_P`: the progressive hypothesis on `s` fresh points.
    pub fresh_estimate: f64,
    /// Stream: test error at `t` (summary: of the final model).
    pub test_error: f64,
    /// Survivors (BKL), or -1.
    pub survivors: i64,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            study: String::new(),
            population: String::new(),
            learner: String::new(),
            procedure: String::new(),
            tie: String::new(),
            n: -1,
            n_train: -1,
            s: -1,
            k: -1,
            delay: -1,
            rep: -1,
            t: -1,
            estimate: f64::NAN,
            true_error: f64::NAN,
            true_fresh: f64::NAN,
            holdout_estimate: f64::NAN,
            holdout_true: f64::NAN,
            fresh_estimate: f64::NAN,
            test_error: f64::NAN,
            survivors: -1,
        }
    }
}

impl Row {
    /// As a harness record.
    pub fn record(&self) -> Record {
        Record::new()
            .with("study", self.study.as_str())
            .with("population", self.population.as_str())
            .with("synthetic", self.population.contains("synthetic"))
            .with("learner", self.learner.as_str())
            .with("procedure", self.procedure.as_str())
            .with("tie", self.tie.as_str())
            .with("n", self.n)
            .with("n_train", self.n_train)
            .with("s", self.s)
            .with("k", self.k)
            .with("delay", self.delay)
            .with("rep", self.rep)
            .with("t", self.t)
            .with("estimate", self.estimate)
            .with("true_error", self.true_error)
            .with("true_fresh", self.true_fresh)
            .with("holdout_estimate", self.holdout_estimate)
            .with("holdout_true", self.holdout_true)
            .with("fresh_estimate", self.fresh_estimate)
            .with("test_error", self.test_error)
            .with("survivors", self.survivors)
    }

    /// Back from a stored record (missing columns keep their defaults).
    pub fn from_record(r: &Record) -> Row {
        use crate::results::Value;
        let s = |c: &str| match r.get(c) {
            Some(Value::Str(x)) => x.clone(),
            _ => String::new(),
        };
        let i = |c: &str| match r.get(c) {
            Some(Value::Int(x)) => *x,
            Some(Value::Float(x)) if x.is_finite() => *x as i64,
            _ => -1,
        };
        let f = |c: &str| match r.get(c) {
            Some(Value::Float(x)) => *x,
            Some(Value::Int(x)) => *x as f64,
            _ => f64::NAN,
        };
        Row {
            study: s("study"),
            population: s("population"),
            learner: s("learner"),
            procedure: s("procedure"),
            tie: s("tie"),
            n: i("n"),
            n_train: i("n_train"),
            s: i("s"),
            k: i("k"),
            delay: i("delay"),
            rep: i("rep"),
            t: i("t"),
            estimate: f("estimate"),
            true_error: f("true_error"),
            true_fresh: f("true_fresh"),
            holdout_estimate: f("holdout_estimate"),
            holdout_true: f("holdout_true"),
            fresh_estimate: f("fresh_estimate"),
            test_error: f("test_error"),
            survivors: i("survivors"),
        }
    }
}

fn procedure_name(p: Procedure) -> &'static str {
    match p {
        Procedure::HoldOut => "hold_out",
        Procedure::Progressive => "progressive",
    }
}

fn cell_err(key: &str, e: impl std::fmt::Display) -> ExperimentError {
    ExperimentError::Cell {
        cell: key.to_string(),
        message: e.to_string(),
    }
}

impl Plan for ProgressivePlan {
    fn name(&self) -> &str {
        &self.name
    }
    fn base_seed(&self) -> u64 {
        self.seed
    }
    fn exclusive(&self) -> bool {
        false
    }
    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let key = &self.cells[i].key;
        let cell_seed = self.cells[i].seed;
        let rows = match &self.work[i] {
            Work::Bkl { study, run } => {
                let recs = run_bkl(run).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: (*study).to_string(),
                        population: format!("synthetic-bkl(N={})", run.n_features),
                        learner: format!("eliminator(tie={})", r.tie.label()),
                        procedure: procedure_name(r.procedure).into(),
                        tie: r.tie.label().into(),
                        n: (r.n_train + r.s) as i64,
                        n_train: r.n_train as i64,
                        s: r.s as i64,
                        delay: r.delay as i64,
                        rep: r.rep as i64,
                        estimate: r.estimate,
                        true_error: r.true_exact,
                        true_fresh: r.true_fresh,
                        survivors: r.survivors as i64,
                        ..Row::default()
                    })
                    .collect::<Vec<Row>>()
            }
            Work::KFold { pop, n, k, reps } => {
                let p = &self.pops[*pop];
                let recs = kfold_on(p, *n, *k, *reps, cell_seed).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "kfold".into(),
                        population: p.name(),
                        learner: p.learner(),
                        procedure: "kfold".into(),
                        n: r.n as i64,
                        n_train: (r.n - r.n / r.k) as i64,
                        s: (r.n / r.k) as i64,
                        k: r.k as i64,
                        rep: r.rep as i64,
                        estimate: r.est_k,
                        true_error: r.true_k,
                        holdout_estimate: r.est_1,
                        holdout_true: r.true_1,
                        ..Row::default()
                    })
                    .collect()
            }
            Work::Pv {
                pop,
                n_train,
                s,
                reps,
            } => {
                let p = &self.pops[*pop];
                let recs =
                    pv_on(p, *n_train, *s, *reps, cell_seed).map_err(|e| cell_err(key, e))?;
                recs.into_iter()
                    .map(|r| Row {
                        study: "progressive_check".into(),
                        population: p.name(),
                        learner: p.learner(),
                        procedure: "progressive".into(),
                        n: (r.n_train + r.s) as i64,
                        n_train: r.n_train as i64,
                        s: r.s as i64,
                        delay: 0,
                        rep: r.rep as i64,
                        estimate: r.est_p,
                        true_error: r.true_p,
                        fresh_estimate: r.fresh_p,
                        holdout_estimate: r.est_ho,
                        holdout_true: r.true_ho,
                        ..Row::default()
                    })
                    .collect()
            }
            Work::Stream { data, learner, rep } => {
                let sd = &self.streams[*data];
                stream_rows(sd, learner, *rep, cell_seed).map_err(|e| cell_err(key, e))?
            }
        };
        Ok(rows.iter().map(Row::record).collect())
    }
}

fn kfold_on(
    p: &PopInst,
    n: usize,
    k: usize,
    reps: usize,
    seed: u64,
) -> Result<Vec<super::theorems::KFoldRecord>, ProgressiveError> {
    match p {
        PopInst::Synthetic(pop) => run_kfold_check(
            pop,
            &KFoldCheck {
                n,
                k,
                reps,
                shuffle: false,
                seed,
            },
        ),
        PopInst::Real {
            train,
            test,
            learner,
            shuffle,
        } => {
            let check = KFoldCheck {
                n,
                k,
                reps,
                shuffle: *shuffle,
                seed,
            };
            match learner {
                RealLearner::Pegasos(l) => {
                    run_kfold_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
                }
                RealLearner::Lsqsgd(l) => {
                    run_kfold_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
                }
            }
        }
    }
}

fn pv_on(
    p: &PopInst,
    n_train: usize,
    s: usize,
    reps: usize,
    seed: u64,
) -> Result<Vec<super::theorems::ProgressiveRecord>, ProgressiveError> {
    let check = ProgressiveCheck {
        n_train,
        s,
        reps,
        seed,
    };
    match p {
        PopInst::Synthetic(pop) => run_progressive_check(pop, &check),
        PopInst::Real {
            train,
            test,
            learner,
            ..
        } => match learner {
            RealLearner::Pegasos(l) => {
                run_progressive_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
            }
            RealLearner::Lsqsgd(l) => {
                run_progressive_check(&DatasetPopulation::new(l.clone(), train, test)?, &check)
            }
        },
    }
}

fn stream_rows(
    sd: &StreamData,
    learner: &RealLearner,
    rep: usize,
    seed: u64,
) -> Result<Vec<Row>, ProgressiveError> {
    let b = &sd.block;
    let train: Arc<Dataset> = match b.n {
        Some(n) if n < sd.train.n() => {
            let rows = rand::seq::index::sample(
                &mut seed::rng(seed::derive(seed, "subsample")),
                sd.train.n(),
                n,
            )
            .into_vec();
            Arc::new(sd.train.subset(&rows, sd.train.name.clone()))
        }
        _ => sd.train.clone(),
    };
    let holdout =
        ((train.n() as f64 * b.holdout_fraction).round() as usize).clamp(1, train.n() - 1);
    let spec = StreamSpec {
        checkpoints: b.checkpoints,
        holdout,
        members: b.members,
        seed,
    };
    let res = match learner {
        RealLearner::Pegasos(l) => progressive_stream(l, &train, &sd.test, &spec)?,
        RealLearner::Lsqsgd(l) => progressive_stream(l, &train, &sd.test, &spec)?,
    };
    let base = Row {
        population: train.name.clone(),
        learner: learner.short().to_string(),
        procedure: "progressive".into(),
        n: res.n as i64,
        rep: rep as i64,
        delay: 0,
        ..Row::default()
    };
    let mut rows: Vec<Row> = res
        .points
        .iter()
        .map(|p| Row {
            study: "stream".into(),
            t: p.t as i64,
            estimate: p.running_loss,
            test_error: p.test_error,
            ..base.clone()
        })
        .collect();
    rows.push(Row {
        study: "stream_summary".into(),
        s: res.holdout as i64,
        estimate: res.progressive_estimate,
        true_error: res.progressive_true,
        true_fresh: res.progressive_true_se,
        holdout_estimate: res.holdout_estimate,
        holdout_true: res.holdout_test_error,
        test_error: res.final_test_error,
        ..base
    });
    Ok(rows)
}

/// Load `train` and either `test` or a split of `train` (seeded).
fn load_pair(
    ctx: &Context,
    train: &str,
    test: Option<&str>,
    test_fraction: Option<f64>,
    seed: u64,
) -> Result<(Arc<Dataset>, Arc<Dataset>), String> {
    let load = |name: &str| {
        crate::data::registry::load(name, &ctx.data_dir)
            .inspect(|d| ctx.note_use(&format!("registry:{name}"), d))
            .map(Arc::new)
            .map_err(|e| e.to_string())
    };
    let tr = load(train)?;
    match (test, test_fraction) {
        (Some(t), None) => {
            let te = load(t)?;
            if te.d() != tr.d() {
                return Err(format!(
                    "{train} has {} features but {t} has {}",
                    tr.d(),
                    te.d()
                ));
            }
            if te.n() == 0 {
                return Err(format!("test set {t} has no rows"));
            }
            Ok((tr, te))
        }
        (None, Some(f)) if f > 0.0 && f < 1.0 => {
            let n = tr.n();
            let n_test = ((n as f64 * f).round() as usize).clamp(1, n.saturating_sub(1));
            let perm = rand::seq::index::sample(
                &mut seed::rng(seed::derive(seed, &format!("split/{train}"))),
                n,
                n,
            )
            .into_vec();
            let (a, b) = perm.split_at(n - n_test);
            Ok((
                Arc::new(tr.subset(a, format!("{train}(train split)"))),
                Arc::new(tr.subset(b, format!("{train}(test split)"))),
            ))
        }
        (None, Some(_)) => Err("`test_fraction` must be in (0, 1)".into()),
        (Some(_), Some(_)) => Err("give either `test` or `test_fraction`, not both".into()),
        (None, None) => Err("give `test` (a dataset name) or `test_fraction`".into()),
    }
}

impl Kind for ProgressiveKind {
    fn name(&self) -> &'static str {
        "progressive"
    }

    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
        let c: ProgressiveConfig = cfg.parse()?;
        let mut work = Vec::new();
        let mut cells = Vec::new();
        let mut keys = std::collections::HashSet::new();
        let mut push = |key: String, w: Work, work: &mut Vec<Work>| {
            if keys.insert(key.clone()) {
                cells.push(Cell {
                    seed: seed::derive(c.seed, &key),
                    key,
                });
                work.push(w);
            }
        };
        if c.bkl.is_none() && c.theorems.is_empty() && c.stream.is_empty() {
            return Err(cfg
                .invalid(
                    c.name.span(),
                    "the config has no study",
                    "add a [bkl] section, [[theorems]] blocks or [[stream]] blocks",
                )
                .into());
        }
        if c.tail_a.is_empty() || c.moments.is_empty() {
            return Err(cfg
                .invalid(
                    c.name.span(),
                    "`tail_a` and `moments` must not be empty",
                    "remove them to use the defaults, or give at least one value",
                )
                .into());
        }
        for a in &c.tail_a {
            if !(*a >= 0.0 && a.is_finite()) {
                return Err(cfg
                    .invalid(c.name.span(), "tail_a values must be >= 0", "fix tail_a")
                    .into());
            }
        }
        if let Some(bkl) = &c.bkl {
            let span = bkl.span();
            let b = bkl.get_ref();
            BklProblem::new(b.n_features)
                .map_err(|e| cfg.invalid(span.clone(), &e.to_string(), "set n_features >= 1"))?;
            if let Some(f) = &b.figure1 {
                if f.s == 0 || f.reps == 0 || f.n_min < f.s || f.n_max < f.n_min {
                    return Err(cfg
                        .invalid(
                            span,
                            "figure1 needs s >= 1, reps >= 1 and s <= n_min <= n_max",
                            "the paper uses n_min = 10, n_max = 30, s = 10, reps = 1000",
                        )
                        .into());
                }
                let sizes = (f.n_max - f.n_min).saturating_add(1);
                if sizes.saturating_mul(2) > super::super::MAX_CELLS {
                    return Err(cfg
                        .invalid(
                            span,
                            &format!(
                                "figure1 n_min..n_max spans {sizes} sizes, more than {} cells",
                                super::super::MAX_CELLS
                            ),
                            "the paper uses n_min = 10, n_max = 30",
                        )
                        .into());
                }
                for n in f.n_min..=f.n_max {
                    for procedure in [Procedure::HoldOut, Procedure::Progressive] {
                        let run = BklRun {
                            n_features: b.n_features,
                            n_train: n - f.s,
                            s: f.s,
                            procedure,
                            delay: 0,
                            fresh: f.fresh,
                            reps: f.reps,
                            seed: c.seed,
                        };
                        let key = format!(
                            "figure1|N={}|n={n}|s={}|{}|reps={}|fresh={}",
                            b.n_features,
                            f.s,
                            procedure_name(procedure),
                            f.reps,
                            f.fresh
                        );
                        push(
                            key,
                            Work::Bkl {
                                study: "figure1",
                                run,
                            },
                            &mut work,
                        );
                    }
                }
            }
            if let Some(t) = &b.table {
                if t.reps == 0 {
                    return Err(cfg
                        .invalid(span, "table.reps must be >= 1", "the paper uses 1000")
                        .into());
                }
                let published =
                    Published::from_toml(PUBLISHED).map_err(|e| cell_err("published.toml", e))?;
                for row in &published.table {
                    let mut delays = vec![0];
                    if row.procedure == Procedure::Progressive {
                        delays.extend(t.delays.iter().copied().filter(|&d| d > 0));
                    }
                    for delay in delays {
                        let run = BklRun {
                            n_features: b.n_features,
                            n_train: row.n_train,
                            s: row.s,
                            procedure: row.procedure,
                            delay,
                            fresh: t.fresh,
                            reps: t.reps,
                            seed: c.seed,
                        };
                        let study = if delay == 0 { "table" } else { "delay" };
                        let key = format!(
                            "{study}|N={}|train={}|s={}|{}|delay={delay}|reps={}|fresh={}",
                            b.n_features,
                            row.n_train,
                            row.s,
                            procedure_name(row.procedure),
                            t.reps,
                            t.fresh
                        );
                        push(key, Work::Bkl { study, run }, &mut work);
                    }
                }
            }
        }
        let mut pops = Vec::new();
        for tb in &c.theorems {
            let span = tb.span();
            let t = tb.get_ref();
            let p = &t.population;
            let inst = match (&p.synthetic, &p.train) {
                (Some(s), None) => {
                    if p.learner.is_some() || p.test.is_some() || p.test_fraction.is_some() {
                        return Err(cfg
                            .invalid(
                                span,
                                "a synthetic population takes no learner or test set",
                                "remove learner/test/test_fraction",
                            )
                            .into());
                    }
                    let problem = BklProblem::new(s.n_features).map_err(|e| {
                        cfg.invalid(span.clone(), &e.to_string(), "set n_features >= 1")
                    })?;
                    PopInst::Synthetic(BklPopulation {
                        problem,
                        tie: s.tie,
                    })
                }
                (None, Some(train)) => {
                    let l = p.learner.as_ref().ok_or_else(|| {
                        cfg.invalid(
                            span.clone(),
                            "a real population needs a learner",
                            "add learner = { type = \"pegasos\", lambda = 1e-4 }",
                        )
                    })?;
                    let learner = RealLearner::from_cfg(l)
                        .map_err(|m| cfg.invalid(span.clone(), &m, "fix the learner"))?;
                    let (tr, te) =
                        load_pair(ctx, train, p.test.as_deref(), p.test_fraction, c.seed).map_err(
                            |m| cfg.invalid(span.clone(), &m, "check the dataset names and files"),
                        )?;
                    if matches!(learner, RealLearner::Pegasos(_))
                        && tr.y.iter().any(|&y| y != 1.0 && y != -1.0)
                    {
                        return Err(cfg
                            .invalid(
                                span,
                                &format!("pegasos needs ±1 labels, {} has others", tr.name),
                                "use a binary dataset",
                            )
                            .into());
                    }
                    PopInst::Real {
                        train: tr,
                        test: te,
                        learner,
                        shuffle: p.shuffle,
                    }
                }
                _ => {
                    return Err(cfg
                        .invalid(
                            span,
                            "a population is either `synthetic = {...}` or `train = \"...\"`",
                            "give exactly one of them",
                        )
                        .into())
                }
            };
            if t.reps == 0 {
                return Err(cfg.invalid(span, "reps must be >= 1", "set reps").into());
            }
            if t.kfold.is_empty() && t.progressive.is_empty() {
                return Err(cfg
                    .invalid(
                        span,
                        "this theorems block has no setting: `kfold` and `progressive` are both empty",
                        "add kfold = [{ n = 12, k = 3 }] or progressive = [{ n_train = 5, s = 10 }]",
                    )
                    .into());
            }
            let pi = pops.len();
            let pname = format!("{}|{}", inst.name(), inst.learner());
            let pool_n = match &inst {
                PopInst::Real { train, .. } => train.n(),
                PopInst::Synthetic(_) => usize::MAX,
            };
            pops.push(inst);
            for kf in &t.kfold {
                if kf.k < 2 || kf.k > kf.n || !kf.n.is_multiple_of(kf.k) || kf.n > pool_n {
                    return Err(cfg
                        .invalid(
                            span,
                            &format!("k-fold setting n = {}, k = {} is invalid", kf.n, kf.k),
                            "use 2 <= k <= n with k dividing n (and n within the dataset)",
                        )
                        .into());
                }
                push(
                    format!("kfold|{pname}|n={}|k={}|reps={}", kf.n, kf.k, t.reps),
                    Work::KFold {
                        pop: pi,
                        n: kf.n,
                        k: kf.k,
                        reps: t.reps,
                    },
                    &mut work,
                );
            }
            for pv in &t.progressive {
                if pv.s == 0 || pv.n_train + pv.s > pool_n {
                    return Err(cfg
                        .invalid(
                            span,
                            "progressive setting needs s >= 1 and n_train + s within the dataset",
                            "fix the setting",
                        )
                        .into());
                }
                push(
                    format!(
                        "progressive_check|{pname}|train={}|s={}|reps={}",
                        pv.n_train, pv.s, t.reps
                    ),
                    Work::Pv {
                        pop: pi,
                        n_train: pv.n_train,
                        s: pv.s,
                        reps: t.reps,
                    },
                    &mut work,
                );
            }
        }
        let mut streams = Vec::new();
        for sb in &c.stream {
            let span = sb.span();
            let b = sb.get_ref();
            if !(b.holdout_fraction > 0.0 && b.holdout_fraction < 1.0) || b.learners.is_empty() {
                return Err(cfg
                    .invalid(
                        span,
                        "a stream needs learners and 0 < holdout_fraction < 1",
                        "fix the stream block",
                    )
                    .into());
            }
            if b.reps.saturating_mul(b.learners.len()) > super::super::MAX_CELLS {
                return Err(cfg
                    .invalid(
                        span,
                        &format!(
                            "reps × learners is more than {} cells",
                            super::super::MAX_CELLS
                        ),
                        "use fewer repetitions (each is a cell)",
                    )
                    .into());
            }
            let (tr, te) = load_pair(ctx, &b.train, b.test.as_deref(), b.test_fraction, c.seed)
                .map_err(|m| cfg.invalid(span.clone(), &m, "check the dataset names and files"))?;
            if tr.n() < 10 {
                return Err(cfg
                    .invalid(span, "the stream has fewer than 10 points", "use more data")
                    .into());
            }
            let di = streams.len();
            streams.push(StreamData {
                train: tr,
                test: te,
                block: b.clone(),
            });
            for lc in &b.learners {
                let learner = RealLearner::from_cfg(lc)
                    .map_err(|m| cfg.invalid(span.clone(), &m, "fix the learner"))?;
                for rep in 0..b.reps {
                    push(
                        format!(
                            "stream|{}|{}|n={}|rep={rep}",
                            streams[di].train.name,
                            learner.name(),
                            b.n.map_or("all".to_string(), |n| n.to_string())
                        ),
                        Work::Stream {
                            data: di,
                            learner: learner.clone(),
                            rep,
                        },
                        &mut work,
                    );
                }
            }
        }
        Ok(Box::new(ProgressivePlan {
            name: c.name.into_inner(),
            seed: c.seed,
            pops,
            streams,
            work,
            cells,
        }))
    }

    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError> {
        let c: ProgressiveConfig = config.parse()?;
        super::render::render(dir, &c, records)
    }

    fn overview(
        &self,
        _root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<std::path::PathBuf>)>, ExperimentError> {
        let md = super::verdicts::overview(runs);
        Ok((!md.is_empty()).then_some((md, Vec::new())))
    }

    fn scorecard(
        &self,
        runs: &[&crate::results::scorecard::StoredRun],
    ) -> Vec<crate::results::scorecard::ScoreRow> {
        super::verdicts::scorecard(runs)
    }
}
