//! Planning a progressive config: every check that needs more than the
//! schema (sizes, populations, datasets, learners), then one cell per BKL
//! run, theorem setting or stream repetition.

use std::sync::Arc;
use toml::Spanned;

use super::config::{
    self, ProgressiveConfig, StreamBlock, MAX_CHECKPOINTS, MAX_FRESH_EXAMPLES, MAX_MEMBERS,
    MAX_POINTS, MIN_STREAM,
};
use super::generator::BklProblem;
use super::load::load_pair;
use super::paper::{BklRun, Procedure};
use super::rows::procedure_name;
use super::theorems::BklPopulation;
use super::verdicts::published::Published;
use crate::config::{ConfigError, ConfigFile};
use crate::experiments::cell_key::{CellKey, CellList};
use crate::experiments::{Context, ExperimentError, PlanHead, MAX_CELLS, MAX_REPETITIONS};
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::learners::{AnyLearner, LearnerSpec};
use std::ops::Range;

/// A loaded population.
pub(super) enum PopInst {
    /// The synthetic BKL problem.
    Synthetic(BklPopulation),
    /// A real learner on a training pool, with a test set as the distribution.
    Real {
        train: Arc<Dataset>,
        test: Arc<Dataset>,
        learner: AnyLearner,
        shuffle: bool,
    },
}

impl PopInst {
    /// The population's name in records.
    pub(super) fn name(&self) -> String {
        match self {
            PopInst::Synthetic(p) => format!(
                "synthetic-bkl(N={},tie={})",
                p.problem.n_features,
                p.tie.label()
            ),
            PopInst::Real { train, .. } => train.name.clone(),
        }
    }

    /// The learner's name in records.
    pub(super) fn learner(&self) -> String {
        match self {
            PopInst::Synthetic(p) => format!("eliminator(tie={})", p.tie.label()),
            PopInst::Real { learner, .. } => learner.name(),
        }
    }
}

/// What one cell runs.
pub(super) enum Work {
    /// A BKL run (Figure 1, table or delay row).
    Bkl { study: &'static str, run: BklRun },
    /// A k-fold theorem check on population `pop`.
    KFold {
        pop: usize,
        n: usize,
        k: usize,
        reps: usize,
    },
    /// A progressive theorem check on population `pop`.
    Pv {
        pop: usize,
        n_train: usize,
        s: usize,
        reps: usize,
    },
    /// One repetition of a learner on stream `data`.
    Stream {
        data: usize,
        learner: AnyLearner,
        rep: usize,
    },
}

/// A stream block with its loaded data.
pub(super) struct StreamData {
    pub(super) train: Arc<Dataset>,
    pub(super) test: Arc<Dataset>,
    pub(super) block: StreamBlock,
}

/// The planned cells of a progressive config and what they need.
pub(super) struct ProgressivePlan {
    pub(super) head: PlanHead,
    pub(super) pops: Vec<PopInst>,
    pub(super) streams: Vec<StreamData>,
    pub(super) work: Vec<Work>,
}

/// Check a real-data learner of a progressive config: the shared checks of
/// [`LearnerSpec::check`], then what progressive studies refuse (`on`, and
/// ridge). Errors point at the learner in the config.
fn real_learner(cfg: &ConfigFile, spec: &Spanned<LearnerSpec>) -> Result<AnyLearner, ConfigError> {
    let span = spec.span();
    if spec.get_ref().on.is_some() {
        return Err(cfg.invalid(
            span,
            "`on` applies to treecv learners only: a progressive learner runs on its own population or stream",
            "remove `on`",
        ));
    }
    let learner = spec.get_ref().check().map_err(|e| {
        cfg.invalid(
            span.clone(),
            &e.to_string(),
            "remove the key, fix its value or change the learner type",
        )
    })?;
    if let AnyLearner::Ridge(_) = learner {
        return Err(cfg.invalid(
            span,
            "ridge cannot be used in a progressive study: progressive validation evaluates the loss one point at a time, and ridge solves its d x d system at every evaluation",
            "use type = \"pegasos\" or type = \"lsqsgd\"",
        ));
    }
    Ok(learner)
}

/// The cells of a progressive plan as they are listed, with what each runs.
struct Cells<'a> {
    list: CellList<'a>,
    work: Vec<Work>,
}

impl Cells<'_> {
    /// Add a cell listed by the config entry at `span` (a key listed twice
    /// is an error at the second entry).
    fn push(&mut self, key: CellKey, span: Range<usize>, w: Work) -> Result<(), ConfigError> {
        self.list.push(key, span)?;
        self.work.push(w);
        Ok(())
    }
}

/// Check a progressive config and build its plan: one cell per BKL run,
/// theorem setting (k-fold or progressive) and stream repetition.
pub(super) fn plan(cfg: &ConfigFile, ctx: &Context) -> Result<ProgressivePlan, ExperimentError> {
    let c: ProgressiveConfig = config::parse(cfg)?;
    check_whole(cfg, &c)?;
    let mut cells = Cells {
        list: CellList::new(cfg, c.seed),
        work: Vec::new(),
    };
    if let Some(bkl) = &c.bkl {
        plan_bkl(cfg, c.seed, bkl, &mut cells)?;
    }
    let pops = plan_theorems(cfg, ctx, &c, &mut cells)?;
    let streams = plan_streams(cfg, ctx, &c, &mut cells)?;
    Ok(ProgressivePlan {
        head: PlanHead {
            kind: "progressive",
            name: c.name.into_inner(),
            base_seed: c.seed,
            exclusive: false,
            cells: cells.list.into_cells(),
        },
        pops,
        streams,
        work: cells.work,
    })
}

/// Whole-config checks, reported at `name`.
fn check_whole(cfg: &ConfigFile, c: &ProgressiveConfig) -> Result<(), ConfigError> {
    let whole = [
        (
            c.bkl.is_none() && c.theorems.is_empty() && c.stream.is_empty(),
            "the config has no study",
            "add a [bkl] section, [[theorems]] blocks or [[stream]] blocks",
        ),
        (
            c.tail_a.is_empty() || c.moments.is_empty(),
            "`tail_a` and `moments` must not be empty",
            "remove them to use the defaults, or give at least one value",
        ),
        (
            c.tail_a.iter().any(|a| !(*a >= 0.0 && a.is_finite())),
            "tail_a values must be >= 0",
            "fix tail_a",
        ),
    ];
    match whole.iter().find(|w| w.0) {
        Some((_, message, fix)) => Err(cfg.invalid(c.name.span(), message, fix)),
        None => Ok(()),
    }
}

/// A BKL study's `repetitions` (1 or more) and `fresh_examples` (0 or
/// more) within their limits; `study` names its table (`figure1`, `table`).
fn repetitions_in_range(
    cfg: &ConfigFile,
    span: &Range<usize>,
    study: &str,
    repetitions: usize,
    fresh_examples: usize,
) -> Result<(), ConfigError> {
    let key = |k: &str| format!("{study}.{k}");
    in_range(
        cfg,
        span,
        &key("repetitions"),
        repetitions,
        1,
        MAX_REPETITIONS,
    )?;
    in_range(
        cfg,
        span,
        &key("fresh_examples"),
        fresh_examples,
        0,
        MAX_FRESH_EXAMPLES,
    )
}

/// `value` (of the key `what`) must be in `lo..=hi`: an error at `span` otherwise.
fn in_range(
    cfg: &ConfigFile,
    span: &Range<usize>,
    what: &str,
    value: usize,
    lo: usize,
    hi: usize,
) -> Result<(), ConfigError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(cfg.invalid(
        span.clone(),
        &format!("{what} = {value} is not in {lo}..={hi}"),
        &format!("set {what} between {lo} and {hi}"),
    ))
}

/// The BKL study's cells: Figure 1 (hold-out and progressive for each `n`)
/// and the table's rows (with their delays).
fn plan_bkl(
    cfg: &ConfigFile,
    seed: u64,
    bkl: &Spanned<config::BklSection>,
    cells: &mut Cells,
) -> Result<(), ExperimentError> {
    let span = bkl.span();
    let b = bkl.get_ref();
    BklProblem::new(b.n_features)
        .map_err(|e| cfg.invalid(span.clone(), &e.to_string(), "set n_features >= 1"))?;
    if let Some(f) = &b.figure1 {
        plan_figure1(cfg, seed, &span, b.n_features, f, cells)?;
    }
    if let Some(t) = &b.table {
        plan_table(cfg, seed, &span, b.n_features, t, cells)?;
    }
    Ok(())
}

/// Figure 1's cells: hold-out and progressive for each total size `n`.
fn plan_figure1(
    cfg: &ConfigFile,
    seed: u64,
    span: &Range<usize>,
    n_features: usize,
    f: &config::Figure1Spec,
    cells: &mut Cells,
) -> Result<(), ExperimentError> {
    let span = span.clone();
    repetitions_in_range(cfg, &span, "figure1", f.repetitions, f.fresh_examples)?;
    in_range(cfg, &span, "figure1.n_max", f.n_max, 1, MAX_POINTS)?;
    if f.s == 0 || f.n_min < f.s || f.n_max < f.n_min {
        return Err(cfg
            .invalid(
                span,
                "figure1 needs s >= 1 and s <= n_min <= n_max",
                "the paper uses n_min = 10, n_max = 30, s = 10, repetitions = 1000",
            )
            .into());
    }
    let sizes = (f.n_max - f.n_min).saturating_add(1);
    if sizes.saturating_mul(2) > MAX_CELLS {
        return Err(cfg
            .invalid(
                span,
                &format!("figure1 n_min..n_max spans {sizes} sizes, more than {MAX_CELLS} cells"),
                "the paper uses n_min = 10, n_max = 30",
            )
            .into());
    }
    for n in f.n_min..=f.n_max {
        for procedure in [Procedure::HoldOut, Procedure::Progressive] {
            let run = BklRun {
                n_features,
                n_train: n - f.s,
                s: f.s,
                procedure,
                delay: 0,
                fresh: f.fresh_examples,
                reps: f.repetitions,
                seed,
            };
            // Cell keys keep the spellings `reps=` and `fresh=` of
            // before the config keys were renamed: a key seeds its
            // cell, so renaming it would change the numbers.
            let key = CellKey::new("figure1")
                .field("N", n_features)
                .field("n", n)
                .field("s", f.s)
                .part(procedure_name(procedure))
                .field("reps", f.repetitions)
                .field("fresh", f.fresh_examples);
            let study = "figure1";
            cells.push(key, span.clone(), Work::Bkl { study, run })?;
        }
    }
    Ok(())
}

/// The table's cells: one per published row (and delay).
fn plan_table(
    cfg: &ConfigFile,
    seed: u64,
    span: &Range<usize>,
    n_features: usize,
    t: &config::TableSpec,
    cells: &mut Cells,
) -> Result<(), ExperimentError> {
    let span = span.clone();
    repetitions_in_range(cfg, &span, "table", t.repetitions, t.fresh_examples)?;
    for &d in &t.delays {
        in_range(cfg, &span, "a table delay", d, 0, MAX_POINTS)?;
    }
    let published = Published::load()?;
    for row in &published.table {
        let mut delays = vec![0];
        if row.procedure == Procedure::Progressive {
            delays.extend(t.delays.iter().copied().filter(|&d| d > 0));
        }
        for delay in delays {
            let run = BklRun {
                n_features,
                n_train: row.n_train,
                s: row.s,
                procedure: row.procedure,
                delay,
                fresh: t.fresh_examples,
                reps: t.repetitions,
                seed,
            };
            let study = if delay == 0 { "table" } else { "delay" };
            let key = CellKey::new(study)
                .field("N", n_features)
                .field("train", row.n_train)
                .field("s", row.s)
                .part(procedure_name(row.procedure))
                .field("delay", delay)
                .field("reps", t.repetitions)
                .field("fresh", t.fresh_examples);
            cells.push(key, span.clone(), Work::Bkl { study, run })?;
        }
    }
    Ok(())
}

/// A theorem block's population, checked and loaded.
fn population(
    cfg: &ConfigFile,
    ctx: &Context,
    seed: u64,
    tb: &Spanned<config::TheoremBlock>,
) -> Result<PopInst, ConfigError> {
    let span = tb.span();
    let p = &tb.get_ref().population;
    match (&p.synthetic, &p.train) {
        (Some(s), None) => {
            if p.learner.is_some() || p.test.is_some() || p.test_fraction.is_some() {
                return Err(cfg.invalid(
                    span,
                    "a synthetic population takes no learner or test set",
                    "remove learner/test/test_fraction",
                ));
            }
            let problem = BklProblem::new(s.n_features)
                .map_err(|e| cfg.invalid(span.clone(), &e.to_string(), "set n_features >= 1"))?;
            Ok(PopInst::Synthetic(BklPopulation {
                problem,
                tie: s.tie,
            }))
        }
        (None, Some(train)) => {
            let l = p.learner.as_ref().ok_or_else(|| {
                cfg.invalid(
                    span.clone(),
                    "a real population needs a learner",
                    "add learner = { type = \"pegasos\", lambda = 1e-4 }",
                )
            })?;
            let learner = real_learner(cfg, l)?;
            let (tr, te) = load_pair(ctx, train, p.test.as_deref(), p.test_fraction, seed)
                .map_err(|m| cfg.invalid(span.clone(), &m, "check the dataset names and files"))?;
            if learner.requires_binary_labels() && tr.y.iter().any(|&y| y != 1.0 && y != -1.0) {
                return Err(cfg.invalid(
                    span,
                    &format!("pegasos needs ±1 labels, {} has others", tr.name),
                    "use a binary dataset",
                ));
            }
            Ok(PopInst::Real {
                train: tr,
                test: te,
                learner,
                shuffle: p.shuffle,
            })
        }
        _ => Err(cfg.invalid(
            span,
            "a population is either `synthetic = {...}` or `train = \"...\"`",
            "give exactly one of them",
        )),
    }
}

/// The theorem blocks' cells (one per k-fold and progressive setting) and
/// their populations.
fn plan_theorems(
    cfg: &ConfigFile,
    ctx: &Context,
    c: &ProgressiveConfig,
    cells: &mut Cells,
) -> Result<Vec<PopInst>, ConfigError> {
    let mut pops = Vec::new();
    for tb in &c.theorems {
        let span = tb.span();
        let t = tb.get_ref();
        let inst = population(cfg, ctx, c.seed, tb)?;
        in_range(cfg, &span, "repetitions", t.repetitions, 1, MAX_REPETITIONS)?;
        if t.kfold.is_empty() && t.progressive.is_empty() {
            return Err(cfg.invalid(
                span,
                "this theorems block has no setting: `kfold` and `progressive` are both empty",
                "add kfold = [{ n = 12, k = 3 }] or progressive = [{ n_train = 5, s = 10 }]",
            ));
        }
        let pi = pops.len();
        let (pop_name, pop_learner) = (inst.name(), inst.learner());
        let pool_n = match &inst {
            PopInst::Real { train, .. } => train.n(),
            PopInst::Synthetic(_) => MAX_POINTS,
        };
        pops.push(inst);
        for kf in &t.kfold {
            in_range(cfg, &span, "a k-fold setting's n", kf.n, 2, pool_n)?;
            if kf.k < 2 || kf.k > kf.n || !kf.n.is_multiple_of(kf.k) {
                return Err(cfg.invalid(
                    span,
                    &format!("k-fold setting n = {}, k = {} is invalid", kf.n, kf.k),
                    "use 2 <= k <= n with k dividing n (and n within the dataset)",
                ));
            }
            let key = CellKey::new("kfold")
                .part(&pop_name)
                .part(&pop_learner)
                .field("n", kf.n)
                .field("k", kf.k)
                .field("reps", t.repetitions);
            let reps = t.repetitions;
            let (n, k) = (kf.n, kf.k);
            cells.push(
                key,
                span.clone(),
                Work::KFold {
                    pop: pi,
                    n,
                    k,
                    reps,
                },
            )?;
        }
        for pv in &t.progressive {
            if pv.s == 0 || pv.n_train.saturating_add(pv.s) > pool_n {
                return Err(cfg.invalid(
                    span,
                    &format!("progressive setting needs s >= 1 and n_train + s <= {pool_n} (the population's points)"),
                    "fix the setting",
                ));
            }
            let key = CellKey::new("progressive_check")
                .part(&pop_name)
                .part(&pop_learner)
                .field("train", pv.n_train)
                .field("s", pv.s)
                .field("reps", t.repetitions);
            let work = Work::Pv {
                pop: pi,
                n_train: pv.n_train,
                s: pv.s,
                reps: t.repetitions,
            };
            cells.push(key, span.clone(), work)?;
        }
    }
    Ok(pops)
}

/// The stream blocks' cells (one per learner and repetition) and their data.
fn plan_streams(
    cfg: &ConfigFile,
    ctx: &Context,
    c: &ProgressiveConfig,
    cells: &mut Cells,
) -> Result<Vec<StreamData>, ConfigError> {
    let mut streams = Vec::new();
    for sb in &c.stream {
        let span = sb.span();
        let b = sb.get_ref();
        if !(b.holdout_fraction > 0.0 && b.holdout_fraction < 1.0) || b.learners.is_empty() {
            return Err(cfg.invalid(
                span,
                "a stream needs learners and 0 < holdout_fraction < 1",
                "fix the stream block",
            ));
        }
        in_range(cfg, &span, "repetitions", b.repetitions, 1, MAX_REPETITIONS)?;
        in_range(cfg, &span, "checkpoints", b.checkpoints, 1, MAX_CHECKPOINTS)?;
        in_range(cfg, &span, "members", b.members, 1, MAX_MEMBERS)?;
        if b.repetitions.saturating_mul(b.learners.len()) > MAX_CELLS {
            return Err(cfg.invalid(
                span,
                &format!("repetitions × learners is more than {MAX_CELLS} cells"),
                "use fewer repetitions (each is a cell)",
            ));
        }
        let learners = b
            .learners
            .iter()
            .map(|l| real_learner(cfg, l))
            .collect::<Result<Vec<_>, _>>()?;
        let (tr, te) = load_pair(ctx, &b.train, b.test.as_deref(), b.test_fraction, c.seed)
            .map_err(|m| cfg.invalid(span.clone(), &m, "check the dataset names and files"))?;
        if tr.n() < MIN_STREAM {
            return Err(cfg.invalid(
                span,
                &format!("the stream has {} points, fewer than {MIN_STREAM}", tr.n()),
                "use more data",
            ));
        }
        if let Some(n) = b.n {
            in_range(cfg, &span, "n", n, MIN_STREAM, tr.n())?;
        }
        let di = streams.len();
        let train_name = tr.name.clone();
        streams.push(StreamData {
            train: tr,
            test: te,
            block: b.clone(),
        });
        for learner in learners {
            for rep in 0..b.repetitions {
                let key = CellKey::new("stream")
                    .part(&train_name)
                    .part(learner.name())
                    .field("n", b.n.map_or("all".to_string(), |n| n.to_string()))
                    .field("rep", rep);
                let learner = learner.clone();
                cells.push(
                    key,
                    span.clone(),
                    Work::Stream {
                        data: di,
                        learner,
                        rep,
                    },
                )?;
            }
        }
    }
    Ok(streams)
}
