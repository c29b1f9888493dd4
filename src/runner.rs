//! The runner: executes a plan's cells on a rayon pool, with a progress bar,
//! resuming finished cells (each cell's records are stored atomically under
//! `<run>/cells/`), then writes `records.parquet`/`records.csv`, renders the
//! kind's tables and figures and writes `manifest.json`.
//!
//! Results do not depend on the thread count: every cell has its own seed and
//! records are assembled in the plan's cell order.

use crate::config::ConfigFile;
use crate::experiments::{Context, ExperimentError, Plan};
use crate::results::manifest::Manifest;
use crate::results::table::{to_frame, write_atomic, write_table};
use crate::results::{Record, ResultsError};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Options of `cvbench run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Results root; the run goes to `<out>/<name>/`.
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Ignore finished cells and recompute everything.
    pub fresh: bool,
    /// Plan and print, run nothing.
    pub dry_run: bool,
    /// Show a progress bar.
    pub progress: bool,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The run folder.
    pub dir: PathBuf,
    /// Cells in the plan.
    pub cells: usize,
    /// Cells reused from an earlier run.
    pub resumed: usize,
    /// Files written.
    pub files: Vec<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct StoredCell {
    key: String,
    seed: u64,
    records: Vec<Record>,
}

fn cell_path(dir: &Path, key: &str) -> PathBuf {
    dir.join("cells")
        .join(format!("{:016x}.json", crate::seed::derive(0, key)))
}

fn load_cell(dir: &Path, key: &str, seed: u64) -> Option<Vec<Record>> {
    let text = std::fs::read_to_string(cell_path(dir, key)).ok()?;
    let c: StoredCell = serde_json::from_str(&text).ok()?;
    (c.key == key && c.seed == seed).then_some(c.records)
}

/// Run a config end to end. Config and data errors surface before any cell runs.
pub fn run(
    cfg: &ConfigFile,
    ctx: &Context,
    opts: &RunOptions,
) -> Result<RunSummary, ExperimentError> {
    let kind = kind_of(cfg)?;
    let kind_name = kind.name();
    let plan = kind.plan(cfg, ctx)?;
    let dir = opts.out.join(plan.name());
    let cells = plan.cells();
    if opts.dry_run {
        println!(
            "{}: {} cells would run into {}",
            cfg.path.display(),
            cells.len(),
            dir.display()
        );
        return Ok(RunSummary {
            dir,
            cells: cells.len(),
            resumed: 0,
            files: vec![],
        });
    }
    let started = Instant::now();
    let started_unix = crate::results::manifest::unix_now();
    if opts.fresh {
        let _ = std::fs::remove_dir_all(dir.join("cells"));
    }
    std::fs::create_dir_all(dir.join("cells")).map_err(|source| ResultsError::Io {
        path: dir.clone(),
        source,
    })?;
    let mut results: Vec<Option<Vec<Record>>> = cells
        .iter()
        .map(|c| {
            if opts.fresh {
                None
            } else {
                load_cell(&dir, &c.key, c.seed)
            }
        })
        .collect();
    let resumed = results.iter().filter(|r| r.is_some()).count();
    let todo: Vec<usize> = (0..cells.len()).filter(|&i| results[i].is_none()).collect();
    let bar = if opts.progress {
        ProgressBar::new(todo.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} cells, {elapsed} elapsed, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(plan.name().to_string());
    if resumed > 0 {
        bar.println(format!(
            "{}: resuming, {resumed} of {} cells already done (use --fresh to recompute)",
            plan.name(),
            cells.len()
        ));
    }
    let threads = if plan.exclusive() {
        1
    } else {
        opts.threads.unwrap_or(0)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ExperimentError::Cell {
            cell: String::new(),
            message: format!("thread pool: {e}"),
        })?;
    let failed = AtomicBool::new(false);
    let run_one = |i: usize| -> Result<(usize, Vec<Record>), ExperimentError> {
        if failed.load(Ordering::Relaxed) {
            return Err(ExperimentError::Cell {
                cell: cells[i].key.clone(),
                message: "skipped after an earlier failure".into(),
            });
        }
        let out = plan
            .run_cell(i)
            .inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
        let stored = StoredCell {
            key: cells[i].key.clone(),
            seed: cells[i].seed,
            records: out.clone(),
        };
        let json = serde_json::to_vec(&stored).map_err(|e| ExperimentError::Cell {
            cell: cells[i].key.clone(),
            message: e.to_string(),
        })?;
        write_atomic(&cell_path(&dir, &cells[i].key), &json)?;
        bar.inc(1);
        Ok((i, out))
    };
    // Timing-sensitive plans run their cells in the calling thread, one at a time,
    // so that a cell may still use the global pool (parallel TreeCV) undisturbed.
    let outcomes: Vec<Result<(usize, Vec<Record>), ExperimentError>> = if plan.exclusive() {
        todo.iter().map(|&i| run_one(i)).collect()
    } else {
        pool.install(|| todo.par_iter().map(|&i| run_one(i)).collect())
    };
    bar.finish_and_clear();
    // Report the error that caused the stop, not a cell skipped because of it.
    let skipped = |e: &ExperimentError| matches!(e, ExperimentError::Cell { message, .. } if message.starts_with("skipped"));
    let mut first_err: Option<ExperimentError> = None;
    for o in outcomes {
        match o {
            Ok((i, recs)) => results[i] = Some(recs),
            Err(e) => {
                if first_err
                    .as_ref()
                    .is_none_or(|f| skipped(f) && !skipped(&e))
                {
                    first_err = Some(e);
                }
            }
        }
    }
    if let Some(e) = first_err {
        return Err(e);
    }
    let records: Vec<Record> = results.into_iter().flatten().flatten().collect();
    let mut files = write_table(&to_frame(&records)?, &dir, "records")?;
    let rendered = kind.render(&dir, cfg, &records)?;
    files.extend(rendered.files);
    let manifest = Manifest::new(
        kind_name,
        plan.name(),
        cfg,
        plan.base_seed(),
        cells.iter().map(|c| (c.key.clone(), c.seed)).collect(),
        threads,
        started_unix,
        started.elapsed().as_secs_f64(),
        files
            .iter()
            .map(|f| f.strip_prefix(&dir).unwrap_or(f).display().to_string())
            .collect(),
    );
    let mpath = dir.join("manifest.json");
    write_atomic(&mpath, &manifest.to_json())?;
    files.push(mpath);
    Ok(RunSummary {
        dir,
        cells: cells.len(),
        resumed,
        files,
    })
}

/// Plan a config and list its cells (for `cvbench validate`).
pub fn validate(cfg: &ConfigFile, ctx: &Context) -> Result<Box<dyn Plan>, ExperimentError> {
    kind_of(cfg)?.plan(cfg, ctx)
}

/// The experiment kind a config names (an error naming the known kinds otherwise).
fn kind_of(cfg: &ConfigFile) -> Result<&'static dyn crate::experiments::Kind, ExperimentError> {
    let kinds = crate::experiments::kinds();
    let known: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let name = cfg.kind(&known)?;
    // `cfg.kind` only returns names from `known`, so the search succeeds.
    Ok(kinds
        .into_iter()
        .find(|k| k.name() == name)
        .unwrap_or(&crate::experiments::treecv::TreecvKind))
}
