//! SVM k-fold cross-validation (Wen et al., AAAI 2017, the "LibSVM" baseline
//! of their Tables 1 and 3): every round trains a C-SVC from alpha = 0 with
//! our SMO solver, beside LIBSVM's own `svm-train` run on exactly the same
//! training folds (the peer), and our shared-cache parallel variant.
//!
//! One cell = one dataset × setting × k × method: a whole CV run, recorded
//! one row per round (fold), plus a `fold = -1` row for `svm-train -v k`.

mod render;
pub mod scorecard;
mod seeded;
mod seeding_render;

use seeded::{round_row, seeded_rows};

use super::{Cell, Context, ExperimentError, Kind, Plan, PlanHead, Rendered};
use crate::config::{ConfigFile, KValue};
use crate::data::{Dataset, DatasetSpec};
use crate::peers::libsvm::{self as peer, PeerOutcome};
use crate::results::Record;
use crate::seed;
use crate::svm::cv::{cross_validate, CvOptions};
use crate::svm::folds::Folds;
use crate::svm::{seeded_cross_validate, SeededOptions};
use crate::svm::{SeedingMethod, SvmParams};
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use toml::Spanned;

/// The published numbers (experiments/svm/published.toml), embedded.
pub const PUBLISHED: &str = include_str!("../../../experiments/svm/published.toml");

/// The `svm_cv` experiment kind.
pub struct SvmCvKind;

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
    /// Alpha seeding for leave-one-out, DeCoste & Wagstaff (k = n only).
    Avg,
    /// Alpha seeding for leave-one-out, Lee et al. (k = n only).
    Top,
    /// Beyond the paper: rounds in TreeCV order, warm started from the parent node.
    Tree,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Ours => "ours",
            Method::OursSharedParallel => "ours_shared_parallel",
            Method::Libsvm => "libsvm",
            Method::LibsvmV => "libsvm_v",
            Method::Ato => "ato",
            Method::Mir => "mir",
            Method::Sir => "sir",
            Method::Avg => "avg",
            Method::Top => "top",
            Method::Tree => "tree",
        }
    }

    /// The seeding method of a seeded CV method (`None` for the others).
    pub fn seeding(self) -> Option<SeedingMethod> {
        match self {
            Method::Ato => Some(SeedingMethod::Ato),
            Method::Mir => Some(SeedingMethod::Mir),
            Method::Sir => Some(SeedingMethod::Sir),
            Method::Avg => Some(SeedingMethod::Avg),
            Method::Top => Some(SeedingMethod::Top),
            Method::Tree => Some(SeedingMethod::Tree),
            _ => None,
        }
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

/// A hyper-parameter setting.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// Name in outputs, e.g. "paper" or "libsvm-defaults".
    pub label: String,
    /// Box constraint C (default 1).
    pub c: Option<f64>,
    /// RBF gamma (default 1 / number of features).
    pub gamma: Option<f64>,
    /// Linear kernel instead of RBF.
    #[serde(default)]
    pub linear: bool,
    /// Stopping tolerance (default 1e-3).
    pub eps: Option<f64>,
    /// Kernel cache in MB (default 100).
    pub cache_mb: Option<f64>,
    /// Shrinking (default true).
    pub shrinking: Option<bool>,
}

/// The `svm_cv` config schema.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvmCvConfig {
    /// Must be "svm_cv".
    pub kind: String,
    /// Output folder name.
    pub name: Spanned<String>,
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
    /// Datasets (binary labels).
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
}

struct CellSpec {
    dataset: usize,
    setting: usize,
    k: KValue,
    method: Method,
}

struct SvmPlan {
    seeded_shared_cache: bool,
    seeded_parallel: bool,
    head: PlanHead,
    fold_mode: FoldMode,
    datasets: Vec<(String, Arc<Dataset>)>,
    settings: Vec<(String, SvmParams)>,
    specs: Vec<CellSpec>,
}

fn params_of(s: &Setting, d: usize, float: bool) -> SvmParams {
    let mut p = if s.linear {
        SvmParams::linear(s.c.unwrap_or(1.0))
    } else {
        SvmParams::rbf(
            s.c.unwrap_or(1.0),
            s.gamma.unwrap_or(if d > 0 { 1.0 / d as f64 } else { 0.0 }),
        )
    };
    if let Some(e) = s.eps {
        p.eps = e;
    }
    if let Some(m) = s.cache_mb {
        p.cache_mb = m;
    }
    if let Some(h) = s.shrinking {
        p.shrinking = h;
    }
    if float {
        // The peer always passes -c, -g and -e, which this svm-train build
        // reads as single precision (see peer::as_parsed_by_svm_train).
        p = peer::as_parsed_by_svm_train(&p);
    }
    p
}

fn majority_pct(data: &Dataset) -> f64 {
    let pos = data.y.iter().filter(|&&y| y > 0.0).count();
    100.0 * pos.max(data.n() - pos) as f64 / data.n().max(1) as f64
}

fn gamma_of(p: &SvmParams) -> f64 {
    match p.kernel {
        crate::svm::KernelKind::Rbf { gamma } => gamma,
        crate::svm::KernelKind::Linear => f64::NAN,
    }
}

impl SvmPlan {
    fn base(&self, c: &CellSpec, cell: &Cell) -> Record {
        let (dname, data) = &self.datasets[c.dataset];
        let (label, p) = &self.settings[c.setting];
        Record::new()
            .with("dataset", dname.as_str())
            .with("synthetic", data.is_synthetic())
            .with("n", data.n())
            .with("d", data.d())
            .with("setting", label.as_str())
            .with("c", p.c)
            .with("gamma", gamma_of(p))
            .with("eps", p.eps)
            .with("k", c.k.label())
            .with("k_value", c.k.resolve(data.n()))
            .with(
                "folds",
                match self.fold_mode {
                    FoldMode::Libsvm => "libsvm",
                    FoldMode::Stratified => "stratified",
                },
            )
            .with("method", c.method.as_str())
            .with("seed", cell.seed.to_string())
            .with("majority_pct", majority_pct(data))
    }

    fn folds(&self, data: &Dataset, k: usize, cell: &Cell) -> Result<Folds, ExperimentError> {
        let err = |e: crate::svm::SvmError| ExperimentError::Cell {
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

#[allow(clippy::too_many_arguments)]
fn fold_row(
    base: &Record,
    fold: i64,
    n_train: usize,
    n_test: usize,
    correct: usize,
    iterations: u64,
    objective: f64,
    rho: f64,
    n_sv: usize,
    n_bsv: usize,
    counters: [f64; 6],
    times: [f64; 3],
    cv_accuracy_pct: f64,
    wall_s: f64,
) -> Record {
    let mut r = base.clone();
    r.push("fold", fold);
    r.push("n_train", n_train);
    r.push("n_test", n_test);
    r.push("correct", correct);
    r.push(
        "fold_accuracy_pct",
        if n_test > 0 {
            100.0 * correct as f64 / n_test as f64
        } else {
            f64::NAN
        },
    );
    r.push("iterations", iterations);
    r.push("objective", objective);
    r.push("rho", rho);
    r.push("n_sv", n_sv);
    r.push("n_bsv", n_bsv);
    for (name, v) in [
        "kernel_evals",
        "cache_hits",
        "cache_misses",
        "shared_hits",
        "shrink_events",
        "kkt_violation",
    ]
    .iter()
    .zip(counters)
    {
        r.push(name, v);
    }
    r.push("init_s", times[0]);
    r.push("train_s", times[1]);
    r.push("predict_s", times[2]);
    r.push("cv_accuracy_pct", cv_accuracy_pct);
    r.push("cell_wall_s", wall_s);
    r
}

impl Plan for SvmPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let c = &self.specs[i];
        let cell = &self.head.cells[i];
        let (_, data) = &self.datasets[c.dataset];
        let (_, params) = &self.settings[c.setting];
        let k = c.k.resolve(data.n());
        let base = self.base(c, cell);
        let fail = |m: String| ExperimentError::Cell {
            cell: cell.key.clone(),
            message: m,
        };
        let t0 = Instant::now();
        match c.method {
            Method::Ours | Method::OursSharedParallel => {
                let folds = self.folds(data, k, cell)?;
                let opts = if c.method == Method::Ours {
                    CvOptions::default()
                } else {
                    CvOptions {
                        parallel: true,
                        shared_cache_mb: Some(params.cache_mb.max(100.0) * 4.0),
                    }
                };
                let res =
                    cross_validate(data, &folds, params, &opts).map_err(|e| fail(e.to_string()))?;
                let wall = t0.elapsed().as_secs_f64();
                Ok(res
                    .rounds
                    .iter()
                    .map(|r| {
                        let mut row = round_row(&base, r, res.accuracy_pct, wall);
                        let wrong = seeded::wrong_rows(data, &folds, &res, r);
                        seeded::push_tail(
                            &mut row,
                            0.0,
                            "round",
                            wrong,
                            opts.parallel,
                            opts.shared_cache_mb.is_some(),
                        );
                        row
                    })
                    .collect())
            }
            m @ (Method::Ato
            | Method::Mir
            | Method::Sir
            | Method::Avg
            | Method::Top
            | Method::Tree) => {
                let folds = self.folds(data, k, cell)?;
                let opts = SeededOptions {
                    method: m.seeding().unwrap_or(SeedingMethod::None),
                    shared_cache_mb: self
                        .seeded_shared_cache
                        .then(|| params.cache_mb.max(100.0) * 4.0),
                    parallel: self.seeded_parallel,
                    seed: cell.seed,
                };
                let res = seeded_cross_validate(data, &folds, params, &opts)
                    .map_err(|e| fail(e.to_string()))?;
                let wall = t0.elapsed().as_secs_f64();
                Ok(seeded_rows(&base, data, &folds, &res, wall))
            }
            Method::Libsvm => {
                let folds = self.folds(data, k, cell)?;
                let work = tempdir(&cell.key).map_err(|e| fail(e.to_string()))?;
                let mut rows = Vec::new();
                let mut total_correct = 0;
                for h in 0..folds.k() {
                    let train = folds.train_rows(h);
                    let test = folds.test_rows(h);
                    let out =
                        peer::run_fold(data, &train, test, params, work.path(), &format!("f{h}"))
                            .map_err(|e| fail(e.to_string()))?;
                    let PeerOutcome::Ran(f) = out else {
                        return Err(fail(format!(
                            "svm-train is not available ({})",
                            peer::SKIPPED_NO_SVM_TRAIN
                        )));
                    };
                    let t = &f.train;
                    let correct = f.predict.as_ref().map_or(0, |p| p.correct);
                    total_correct += correct;
                    rows.push((
                        h,
                        train.len(),
                        test.len(),
                        correct,
                        t.clone(),
                        f.predict.map_or(0.0, |p| p.wall_s),
                    ));
                }
                let acc = 100.0 * total_correct as f64 / data.n() as f64;
                let wall = t0.elapsed().as_secs_f64();
                Ok(rows
                    .into_iter()
                    .map(|(h, ntr, nte, correct, t, pw)| {
                        let mut row = fold_row(
                            &base,
                            h as i64,
                            ntr,
                            nte,
                            correct,
                            t.iterations.first().copied().unwrap_or(0),
                            t.obj.first().copied().unwrap_or(f64::NAN),
                            t.rho.first().copied().unwrap_or(f64::NAN),
                            t.n_sv.first().copied().unwrap_or(0),
                            t.n_bsv.first().copied().unwrap_or(0),
                            [f64::NAN; 6],
                            [f64::NAN, t.wall_s, pw],
                            acc,
                            wall,
                        );
                        seeded::push_tail(&mut row, f64::NAN, "round", String::new(), false, false);
                        row
                    })
                    .collect())
            }
            Method::LibsvmV => {
                let work = tempdir(&cell.key).map_err(|e| fail(e.to_string()))?;
                let all: Vec<usize> = (0..data.n()).collect();
                let file = work.path().join("all.libsvm");
                peer::write_rows(data, &all, &file).map_err(|e| fail(e.to_string()))?;
                let PeerOutcome::Ran(t) = peer::run_svm_train(&file, params, Some(k), None)
                    .map_err(|e| fail(e.to_string()))?
                else {
                    return Err(fail("svm-train is not available".into()));
                };
                let acc = t.cv_accuracy_pct.unwrap_or(f64::NAN);
                let wall = t0.elapsed().as_secs_f64();
                let mut row = fold_row(
                    &base,
                    -1,
                    data.n(),
                    data.n(),
                    (acc / 100.0 * data.n() as f64).round() as usize,
                    t.iterations.iter().sum(),
                    t.obj.iter().sum(),
                    f64::NAN,
                    t.n_sv.iter().sum(),
                    t.n_bsv.iter().sum(),
                    [f64::NAN; 6],
                    [f64::NAN, t.wall_s, f64::NAN],
                    acc,
                    wall,
                );
                seeded::push_tail(&mut row, f64::NAN, "cv", String::new(), false, false);
                Ok(vec![row])
            }
        }
    }
}

fn tempdir(key: &str) -> std::io::Result<tempdir_lite::TempDir> {
    tempdir_lite::TempDir::new(&format!("cvbench-svm-{:016x}", seed::derive(0, key)))
}

/// A minimal self-deleting temporary directory (the peer's fold files).
mod tempdir_lite {
    use std::path::{Path, PathBuf};

    /// A directory under the system temp dir, removed on drop.
    pub struct TempDir(PathBuf);

    impl TempDir {
        /// Create `<tmp>/<name>-<pid>`.
        pub fn new(name: &str) -> std::io::Result<TempDir> {
            let p = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
            std::fs::create_dir_all(&p)?;
            Ok(TempDir(p))
        }
        /// The path.
        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Kind for SvmCvKind {
    fn name(&self) -> &'static str {
        "svm_cv"
    }
    fn title(&self) -> &'static str {
        "SVM k-fold CV — Wen et al. (AAAI 2017)"
    }
    fn notes_folder(&self) -> &'static str {
        "svm"
    }
    fn sources(&self) -> &'static [&'static str] {
        &["src/experiments/svm_cv", "src/svm"]
    }

    fn plan(&self, cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
        let c: SvmCvConfig = cfg.parse()?;
        cfg.non_empty("datasets", c.datasets.get_ref().len(), c.datasets.span())?;
        cfg.non_empty("settings", c.settings.get_ref().len(), c.settings.span())?;
        cfg.non_empty("k", c.k.get_ref().len(), c.k.span())?;
        cfg.non_empty("methods", c.methods.get_ref().len(), c.methods.span())?;
        let peers_wanted = c
            .methods
            .get_ref()
            .iter()
            .any(|m| matches!(m, Method::Libsvm | Method::LibsvmV));
        let peers_ok = peer::available();
        if peers_wanted && !peers_ok {
            eprintln!(
                "{}: note: svm-train/svm-predict not found, the `libsvm` and `libsvm_v` cells are skipped (`make peers` installs LIBSVM's tools)",
                cfg.path.display()
            );
        }
        let float = c.libsvm_float_params.unwrap_or(true);
        let mut datasets = Vec::new();
        for spec in c.datasets.get_ref() {
            let data = ctx.dataset(spec)?;
            let bad = data.y.iter().any(|&y| y != 1.0 && y != -1.0);
            if bad || data.n() < 2 {
                return Err(cfg
                    .invalid(
                        c.datasets.span(),
                        &format!(
                            "dataset {} needs labels in {{-1, +1}} and at least 2 rows",
                            data.name
                        ),
                        "add a label transform (one_vs_rest, even_odd or map)",
                    )
                    .into());
            }
            datasets.push((data.name.clone(), data));
        }
        let mut specs = Vec::new();
        let mut cells = Vec::new();
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
                        if matches!(m, Method::Libsvm | Method::LibsvmV) && !peers_ok {
                            continue;
                        }
                        if m == Method::LibsvmV && k == data.n() {
                            continue; // svm-train -v n is plain LOOCV; the per-fold peer covers it
                        }
                        let key = format!(
                            "{dname}|{}|k={}|{}",
                            s.get_ref().label,
                            kv.get_ref().label(),
                            m.as_str()
                        );
                        cells.push(Cell {
                            seed: seed::derive(c.seed, &key),
                            key,
                        });
                        specs.push(CellSpec {
                            dataset: di,
                            setting: si,
                            k: *kv.get_ref(),
                            method: m,
                        });
                    }
                }
            }
        }
        let settings = c
            .settings
            .get_ref()
            .iter()
            .map(|s| {
                (
                    s.get_ref().label.clone(),
                    params_of(s.get_ref(), datasets[0].1.d(), float),
                )
            })
            .collect::<Vec<_>>();
        // Every setting's values checked now, with line:col, not at its first cell.
        for s in c.settings.get_ref() {
            let given = params_of(s.get_ref(), datasets[0].1.d(), false);
            let checked = if float {
                peer::as_parsed_checked(&given).map(|_| ())
            } else {
                given.validate()
            };
            checked.map_err(|e| {
                cfg.invalid(
                    s.span(),
                    &format!("setting `{}`: {e}", s.get_ref().label),
                    "use c, eps and cache_mb finite and > 0, gamma finite and >= 0",
                )
            })?;
        }
        // Settings are resolved per dataset when gamma defaults to 1/d.
        let settings = if datasets.len() == 1 {
            settings
        } else {
            for s in c.settings.get_ref() {
                if s.get_ref().gamma.is_none()
                    && !s.get_ref().linear
                    && datasets.iter().any(|(_, d)| d.d() != datasets[0].1.d())
                {
                    return Err(cfg
                        .invalid(
                            s.span(),
                            "gamma defaults to 1/d, but the datasets have different d",
                            "give gamma explicitly or use one dataset per config",
                        )
                        .into());
                }
            }
            settings
        };
        Ok(Box::new(SvmPlan {
            seeded_shared_cache: c.seeded_shared_cache.unwrap_or(true),
            seeded_parallel: c.seeded_parallel.unwrap_or(true),
            head: PlanHead {
                kind: "svm_cv",
                name: c.name.into_inner(),
                base_seed: c.seed,
                exclusive: c.exclusive.unwrap_or(true),
                cells,
            },
            fold_mode: c.folds.unwrap_or(FoldMode::Libsvm),
            datasets,
            settings,
            specs,
        }))
    }

    fn render(
        &self,
        dir: &Path,
        config: &ConfigFile,
        records: &[Record],
    ) -> Result<Rendered, ExperimentError> {
        let c: SvmCvConfig = config.parse()?;
        render::render(dir, &c, records)
    }

    fn overview(
        &self,
        root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<std::path::PathBuf>)>, ExperimentError> {
        render::overview(root, runs)
    }

    fn scorecard(
        &self,
        runs: &[&crate::results::scorecard::StoredRun],
    ) -> Vec<crate::results::scorecard::ScoreRow> {
        scorecard::scorecard(runs)
    }
}
