//! The `svm_grid` kind for LIBSVM's other formulations (`svm_type =
//! "nu_svc"`, `"one_class"`, `"epsilon_svr"`, `"nu_svr"`; issue 56): the
//! grid of C, gamma and the formulation's own parameter (`log2p` for
//! epsilon-SVR, `nu` for the others; nu-SVC and one-class have no C) run by
//! the engine's formulation grid (`api::formulation_grid`) at each reuse
//! level the config lists (`none`: each solve its own `-m` cache, one at a
//! time; `gamma`: one kernel cache per gamma; `threads`: the config's
//! threads; for epsilon-SVR also `cpath`: warm starts along C and epsilon,
//! each point exact to the stopping tolerance), choosing the least CV mean squared error for the SVRs (the
//! highest accuracy otherwise, grid.py's tie-break) as `cvbench grid -s N`
//! does; and with `peer = true` the same grid as independent `svm-train -s
//! N -v k` calls, grid.py's way, its choice checked against ours.
//!
//! Files: this one (the checks, the points, the plan and its cells),
//! `rows.rs` (the typed rows, read by `render/formulation.rs` and
//! `verdicts/formulation.rs`).

pub mod rows;

use super::config::SvmGridConfig;
use crate::config::{ConfigError, ConfigFile};
use crate::experiments::cell_key::CellKey;
use crate::experiments::svm_cv::formulation as names;
use crate::experiments::timing::{check_policy, runs_text, timed, Repeats, Walls};
use crate::experiments::{Cell, Context, ExperimentError, Plan, PlanHead};
use crate::peers::libsvm::{self as peer, PeerOutcome};
use crate::peers::libsvm_formulation::run_svm_train_formulation;
use crate::results::rows::{to_records, Core};
use crate::results::Record;
use cvbench_engine::api::data::{printf_g, Dataset};
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{libsvm_folds, CvSummary};
use cvbench_engine::api::formulation_grid::{
    formulation_points, nu_values, run_formulation_grid, FormulationBest, FormulationGridOptions,
    FormulationPoint, NamedPoint,
};
use cvbench_engine::api::grid_search::{Axis, Reuse};
use cvbench_engine::api::params::{default_gamma, thread_pool, KernelKind, SvmParams};
use cvbench_engine::api::seed;
use rows::{FormulationGridRow, PEER_LEVEL, ROLE_PEER_POINT, ROLE_POINT};
use std::sync::Arc;
use toml::Spanned;

/// nu-SVC's and one-class's nu axis when the config gives none (`cvbench grid`'s).
const DEFAULT_NU: &str = "0.1,0.7,0.2";

/// The keys of a formulation grid a C-SVC grid config must not give.
pub fn check_c_svc(cfg: &ConfigFile, c: &SvmGridConfig) -> Result<(), ConfigError> {
    for (key, span) in [
        ("log2p", c.log2p.as_ref().map(|v| v.span())),
        ("nu", c.nu.as_ref().map(|v| v.span())),
    ] {
        if let Some(s) = span {
            return Err(cfg.invalid(
                s,
                &format!("`{key}` is an axis of the other formulations; this grid is C-SVC (svm_type unset or \"c_svc\")"),
                "set svm_type, or remove the key",
            ));
        }
    }
    Ok(())
}

/// `[begin, end, step]` as the CLI's `b,e,s` text, or an error at its line.
fn triple(cfg: &ConfigFile, key: &str, v: &Spanned<Vec<f64>>) -> Result<String, ConfigError> {
    let r = v.get_ref();
    if r.len() != 3 {
        return Err(cfg.invalid(
            v.span(),
            &format!("{key} needs [begin, end, step], got {} numbers", r.len()),
            &format!("write e.g. {key} = [-5, -1, 2]"),
        ));
    }
    Ok(format!("{},{},{}", r[0], r[1], r[2]))
}

/// A grid axis of exponents (`log2c`, `log2g`), its default when unset.
fn axis(
    cfg: &ConfigFile,
    key: &str,
    v: &Option<Spanned<Vec<f64>>>,
    default: Axis,
) -> Result<Option<Axis>, ConfigError> {
    let Some(v) = v else { return Ok(Some(default)) };
    let text = triple(cfg, key, v)?;
    Axis::parse(key, &text).map_err(|e| cfg.invalid(v.span(), &e.to_string(), "fix the range"))
}

/// The grid's named points and what each runs, from the config and the
/// data's feature count `d` (C, gamma, nu, p as `svm-train` parses them).
fn points(
    cfg: &ConfigFile,
    c: &SvmGridConfig,
    svm_type: SvmType,
    d: usize,
) -> Result<(Vec<NamedPoint>, Vec<FormulationPoint>, SvmParams), ConfigError> {
    let no_c = matches!(svm_type, SvmType::NuSvc { .. } | SvmType::OneClass { .. });
    if let (true, Some(v)) = (no_c, &c.log2c) {
        return Err(cfg.invalid(
            v.span(),
            &format!("`log2c` with svm_type = \"{}\": it has no C (svm-train ignores -c); its grid is nu x gamma", svm_type.name()),
            "remove log2c and give nu = [begin, end, step]",
        ));
    }
    let c_axis = if no_c {
        None
    } else {
        axis(cfg, "log2c", &c.log2c, Axis::default_c())?
    };
    let g_axis = axis(cfg, "log2g", &c.log2g, Axis::default_g())?;
    let is_svr = matches!(svm_type, SvmType::EpsilonSvr { .. });
    let third: Vec<Option<f64>> = match (is_svr, &c.log2p, &c.nu) {
        (true, _, Some(v)) | (false, Some(v), _) => {
            return Err(cfg.invalid(
                v.span(),
                &format!(
                    "svm_type = \"{}\" takes {}",
                    svm_type.name(),
                    if is_svr {
                        "log2p, not nu"
                    } else {
                        "nu, not log2p"
                    }
                ),
                "remove the other formulation's axis",
            ))
        }
        (true, Some(v), None) => {
            let text = triple(cfg, "log2p", v)?;
            let a = Axis::parse("log2p", &text)
                .map_err(|e| cfg.invalid(v.span(), &e.to_string(), "fix the range"))?;
            match a {
                Some(a) => a
                    .values()
                    .map_err(|e| cfg.invalid(v.span(), &e.to_string(), "fix the range"))?
                    .into_iter()
                    .map(Some)
                    .collect(),
                None => vec![None],
            }
        }
        (false, None, Some(v)) => {
            let text = triple(cfg, "nu", v)?;
            nu_values("nu", &text)
                .map_err(|e| cfg.invalid(v.span(), &e.to_string(), "give nu in (0, 1]"))?
                .into_iter()
                .map(Some)
                .collect()
        }
        (false, None, None) if no_c => nu_values("nu", DEFAULT_NU)
            .map_err(|e| cfg.invalid(c.name.span(), &e.to_string(), ""))?
            .into_iter()
            .map(Some)
            .collect(),
        _ => vec![None],
    };
    let span = c.name.span();
    let named = formulation_points(c_axis, g_axis, &third).map_err(|e| {
        cfg.invalid(
            span.clone(),
            &e.to_string(),
            "use larger steps or shorter ranges",
        )
    })?;
    let round = |v: f64| f64::from(v as f32);
    let base = SvmParams {
        kernel: KernelKind::Rbf {
            gamma: default_gamma(d),
        },
        cache_mb: c.cache_mb.unwrap_or(100.0),
        ..SvmParams::rbf(1.0, default_gamma(d))
    };
    let mut out = Vec::with_capacity(named.len());
    for &(lc, lg, t) in &named {
        let mut p = base.clone();
        p.c = lc.map_or(1.0, |e| 2f64.powf(e));
        if let Some(e) = lg {
            p.kernel = KernelKind::Rbf {
                gamma: 2f64.powf(e),
            };
        }
        let mut p = peer::as_parsed_checked(&p)
            .map_err(|e| cfg.invalid(span.clone(), &e.to_string(), "fix the ranges"))?;
        if lg.is_none() {
            // svm-train computes its default 1/num_features in double.
            p.kernel = KernelKind::Rbf {
                gamma: default_gamma(d),
            };
        }
        let t = match (svm_type, t) {
            (SvmType::EpsilonSvr { .. }, Some(e)) => SvmType::EpsilonSvr {
                p: round(2f64.powf(e)),
            },
            (SvmType::NuSvc { .. }, Some(nu)) => SvmType::NuSvc { nu: round(nu) },
            (SvmType::OneClass { .. }, Some(nu)) => SvmType::OneClass { nu: round(nu) },
            (SvmType::NuSvr { .. }, Some(nu)) => SvmType::NuSvr { nu: round(nu) },
            (t, _) => t,
        };
        out.push(FormulationPoint {
            c: p.c,
            gamma: p.kernel.gamma().unwrap_or(0.0),
            svm_type: t,
        });
    }
    Ok((named, out, peer::as_parsed_by_svm_train(&base)))
}

/// One of our reuse levels as a cell runs it.
#[derive(Clone, Debug)]
struct Level {
    /// Its name (`gamma+threads`, ...).
    name: String,
    /// One kernel cache per gamma.
    shared: bool,
    /// Threads.
    threads: usize,
    /// epsilon-SVR's warm starts along C and epsilon (`cpath`): each point
    /// exact to the stopping tolerance, not bit for bit.
    warm: bool,
}

/// What a cell runs.
enum Work {
    /// Our grid at a reuse level.
    Ours(Level),
    /// The peer: every point an independent `svm-train -s N -v k`.
    Peer,
}

/// A dataset with its grid: the named points, what each runs, and the
/// base parameters (kernel, tolerance, `-m`, shrinking).
type GridData = (
    Arc<Dataset>,
    Vec<NamedPoint>,
    Vec<FormulationPoint>,
    SvmParams,
);

/// A planned formulation grid run.
pub(super) struct FormulationGridPlan {
    head: PlanHead,
    repeats: Repeats,
    k: usize,
    memory_mb: f64,
    svm_type: SvmType,
    datasets: Vec<GridData>,
    specs: Vec<(usize, Work)>,
}

/// Parse, check and expand a formulation grid config.
pub(super) fn plan(
    cfg: &ConfigFile,
    ctx: &Context,
    c: SvmGridConfig,
    svm_type: SvmType,
) -> Result<FormulationGridPlan, ExperimentError> {
    cfg.non_empty("datasets", &c.datasets)?;
    let k = c.folds(cfg)?;
    let repeats = check_policy(cfg, &c.timing_repeats, &c.timed_fewer_because)?;
    let threads = c.threads(cfg)?;
    for (what, bad) in [
        ("guide", !c.guide.is_empty()),
        ("scale", c.scale),
        ("rows_per_cell", c.rows_per_cell.is_some()),
    ] {
        if bad {
            return Err(cfg
                .invalid(
                    c.name.span(),
                    &format!(
                        "`{what}` is the C-SVC grid's; svm_type = \"{}\" does not take it",
                        svm_type.name()
                    ),
                    &format!("remove `{what}` (scale the data file beforehand)"),
                )
                .into());
        }
    }
    let mut levels = Vec::new();
    cfg.non_empty("reuse", &c.reuse)?;
    for s in c.reuse.get_ref() {
        let r = Reuse::parse(s.get_ref()).map_err(|e| {
            cfg.invalid(s.span(), &e, "e.g. reuse = [\"gamma\", \"gamma+threads\"]")
        })?;
        let svr = matches!(svm_type, SvmType::EpsilonSvr { .. });
        if (r.c_path && !svr) || r.newton || r.fold_seeding.is_some() {
            return Err(cfg
                .invalid(
                    s.span(),
                    &format!("reuse `{}` with svm_type = \"{}\": the formulations have the exact levels none, gamma (one kernel cache per gamma) and threads, and epsilon-SVR also cpath (warm starts along C and epsilon)", r.name(), svm_type.name()),
                    if svr {
                        "use reuse = [\"gamma+threads\", \"gamma+cpath+threads\"]"
                    } else {
                        "use reuse = [\"none\"], [\"gamma\"] or [\"gamma+threads\"]"
                    },
                )
                .into());
        }
        levels.push(Level {
            name: r.name(),
            shared: r.gamma_blocks,
            threads: if r.threads { threads } else { 1 },
            warm: r.c_path,
        });
    }
    let peers_ok = c.peer && peer::available();
    if c.peer && !peers_ok {
        eprintln!(
            "{}: note: svm-train not found: the svm-train peer cells are skipped (`make peers` installs LIBSVM's tools)",
            cfg.path.display()
        );
    }
    let mut datasets = Vec::new();
    let mut cells = Vec::new();
    let mut specs = Vec::new();
    for spec in c.datasets.get_ref() {
        let data = ctx.dataset(spec)?;
        if data.n() < k {
            return Err(cfg
                .invalid(
                    c.datasets.span(),
                    &format!(
                        "dataset {} has {} rows: the grid needs at least k = {k}",
                        data.name,
                        data.n()
                    ),
                    "choose a smaller k",
                )
                .into());
        }
        let (named, pts, base) = points(cfg, &c, svm_type, data.libsvm_max_index())?;
        let di = datasets.len();
        let mut push = |key: CellKey, work: Work| {
            let key = key.as_str().to_string();
            cells.push(Cell {
                seed: seed::derive(c.seed, &key),
                key,
            });
            specs.push((di, work));
        };
        for level in &levels {
            push(
                CellKey::new(&data.name)
                    .part(svm_type.name())
                    .part(&level.name),
                Work::Ours(level.clone()),
            );
        }
        if peers_ok {
            push(
                CellKey::new(&data.name)
                    .part(svm_type.name())
                    .part(PEER_LEVEL),
                Work::Peer,
            );
        }
        datasets.push((data, named, pts, base));
    }
    Ok(FormulationGridPlan {
        head: PlanHead {
            kind: "svm_grid",
            name: c.name.into_inner(),
            base_seed: c.seed,
            exclusive: c.exclusive.unwrap_or(true),
            cells,
        },
        repeats,
        k,
        memory_mb: c
            .memory_mb
            .unwrap_or(cvbench_engine::api::params::grid_memory_mb(false)),
        svm_type,
        datasets,
        specs,
    })
}

/// One point's numbers: the summary and SMO iterations (and ours' kernel
/// evaluations).
type PointOut = (CvSummary, u64, Option<f64>);

impl FormulationGridPlan {
    fn ours(&self, di: usize, level: &Level) -> Result<(Vec<PointOut>, Walls), String> {
        let (data, _, pts, base) = &self.datasets[di];
        let folds = libsvm_folds(data, self.k, self.svm_type).map_err(|e| e.to_string())?;
        let pool = thread_pool(level.threads).map_err(|e| e.to_string())?;
        let opts = FormulationGridOptions {
            memory_mb: self.memory_mb,
            shared_cache: level.shared,
            // Off: svm-train's numbers point by point; on (epsilon-SVR's
            // cpath): each point to the stopping tolerance.
            warm_start: level.warm,
        };
        timed(self.repeats, || {
            let mut out: Vec<Option<PointOut>> = vec![None; pts.len()];
            let mut sink =
                |i: usize, r: cvbench_engine::api::formulation_grid::FormulationPointResult| {
                    out[i] = Some((
                        r.summary,
                        r.iterations,
                        Some((r.kernel_evals + r.shared_evals) as f64),
                    ));
                    Ok(())
                };
            pool.install(|| run_formulation_grid(data, &folds, base, pts, &opts, &mut sink))
                .map_err(|e| e.to_string())?;
            out.into_iter()
                .map(|p| p.ok_or_else(|| "a grid point was not run".to_string()))
                .collect()
        })
    }

    fn peer(&self, di: usize, key: &str) -> Result<(Vec<PointOut>, Walls), String> {
        let (data, _, pts, base) = &self.datasets[di];
        let work =
            crate::interrupt::TempDir::new(&format!("cvbench-gridf-{:016x}", seed::derive(0, key)))
                .map_err(|e| e.to_string())?;
        let file = work.path().join("all.libsvm");
        let all: Vec<usize> = (0..data.n()).collect();
        peer::write_rows(data, &all, &file).map_err(|e| e.to_string())?;
        timed(self.repeats, || {
            let mut out = Vec::with_capacity(pts.len());
            for p in pts {
                let params = SvmParams {
                    c: p.c,
                    kernel: KernelKind::Rbf { gamma: p.gamma },
                    ..base.clone()
                };
                let t =
                    match run_svm_train_formulation(&file, &params, p.svm_type, Some(self.k), None)
                    {
                        Ok(PeerOutcome::Ran(t)) => t,
                        Ok(PeerOutcome::Skipped(why)) => return Err(why),
                        Err(e) => return Err(e.to_string()),
                    };
                let summary = match (t.mse, t.squared_correlation, t.train.cv_accuracy_pct) {
                    (Some(mse), Some(r2), _) => CvSummary::Regression {
                        mse,
                        squared_correlation: r2,
                    },
                    (_, _, Some(a)) => CvSummary::Accuracy {
                        correct: (a / 100.0 * data.n() as f64).round() as usize,
                        total: data.n(),
                    },
                    _ => {
                        return Err(format!(
                            "svm-train printed no CV summary at C = {}, gamma = {}",
                            p.c, p.gamma
                        ))
                    }
                };
                out.push((summary, t.train.iterations.iter().sum(), None));
            }
            Ok(out)
        })
    }
}

impl Plan for FormulationGridPlan {
    fn head(&self) -> &PlanHead {
        &self.head
    }

    fn run_cell(&self, i: usize) -> Result<Vec<Record>, ExperimentError> {
        let (di, work) = &self.specs[i];
        let cell = &self.head.cells[i];
        let (res, level, role, threads) = match work {
            Work::Ours(level) => (
                self.ours(*di, level),
                level.name.clone(),
                ROLE_POINT,
                level.threads,
            ),
            Work::Peer => (
                self.peer(*di, &cell.key),
                PEER_LEVEL.to_string(),
                ROLE_PEER_POINT,
                1,
            ),
        };
        let (outs, walls) = res.map_err(|message| ExperimentError::Cell {
            cell: cell.key.clone(),
            message,
        })?;
        let (data, named, pts, _) = &self.datasets[*di];
        let mut best = FormulationBest::new(self.svm_type.is_regression());
        let mut best_i = None;
        let mut rows = Vec::with_capacity(outs.len());
        for (j, ((summary, iterations, evals), (&(lc, lg, t), p))) in
            outs.iter().zip(named.iter().zip(pts)).enumerate()
        {
            let (mse, r2, acc) = match *summary {
                CvSummary::Regression {
                    mse,
                    squared_correlation,
                } => (Some(mse), Some(squared_correlation), None),
                s @ CvSummary::Accuracy { .. } => (None, None, s.accuracy_pct()),
            };
            let score = mse.or(acc).unwrap_or(f64::NAN);
            if best.update(lc, lg, t, score) {
                best_i = Some(j);
            }
            rows.push(FormulationGridRow {
                core: Core {
                    dataset: data.name.clone(),
                    synthetic: data.is_synthetic(),
                    method: level.clone(),
                    seconds: walls.median(),
                    ..self.head.core(i)
                },
                svm_type: self.svm_type.name().into(),
                role: role.into(),
                level: level.clone(),
                k: self.k as u64,
                point: j as u64,
                log2c: lc,
                log2g: lg,
                third: t,
                c: p.c,
                gamma: p.gamma,
                param: match p.svm_type {
                    SvmType::EpsilonSvr { p } => p,
                    SvmType::NuSvc { nu } | SvmType::OneClass { nu } | SvmType::NuSvr { nu } => nu,
                    SvmType::CSvc => f64::NAN,
                },
                mse,
                squared_correlation: r2,
                accuracy_pct: acc,
                printed: mse.or(acc).map_or(String::new(), printf_g),
                iterations: *iterations,
                kernel_evals: *evals,
                threads: threads as u64,
                timing_repeats: walls.runs(),
                wall_median_s: walls.median(),
                wall_min_s: walls.min().unwrap_or(f64::NAN),
                wall_max_s: walls.max().unwrap_or(f64::NAN),
                wall_runs_s: runs_text(&walls),
                ..FormulationGridRow::default()
            });
        }
        if let Some(j) = best_i {
            rows[j].best = true;
        }
        Ok(to_records(&rows)?)
    }
}

/// The config's formulation: `svm_type` by the engine's names (C-SVC when unset).
pub fn formulation(cfg: &ConfigFile, c: &SvmGridConfig) -> Result<SvmType, ConfigError> {
    let Some(name) = &c.svm_type else {
        return Ok(SvmType::CSvc);
    };
    names::parse(name.get_ref()).ok_or_else(|| {
        cfg.invalid(
            name.span(),
            &format!("unknown svm_type `{}`", name.get_ref()),
            &format!("use one of: {}", names::names()),
        )
    })
}
