//! The runner: executes a plan's cells on a rayon pool, with a progress bar,
//! resuming finished cells (each cell's records are stored atomically under
//! `<run>/cells/`, see [`store`]), then assembles the run folder from the
//! cell files: `records.parquet` (CSV on request), the kind's tables and
//! figures, and `manifest.json` (see [`collect`]).
//!
//! Results do not depend on the thread count: every cell has its own seed and
//! records are assembled in the plan's cell order. With a [`Shard`], only that
//! shard's cells run (see [`shard`]); the folder is assembled when every cell
//! is there, by `cvbench collect` or by the shard that finds them all.
//!
//! Several processes may share one results folder (shards on a cluster, or
//! two runs started by mistake): cell files are written under unique
//! temporary names and renamed, and the assembly takes a lock file.

pub mod collect;
pub mod estimate;
pub mod out;
pub mod plan_summary;
pub mod prepare;
pub mod progress;
pub mod shard;
pub mod slurm;
pub mod store;

use crate::config::ConfigFile;
use crate::experiments::{Context, ExperimentError};
use crate::results::Record;
pub use prepare::{prepare, validate, Prepared};
use rayon::prelude::*;
pub use shard::Shard;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use store::{Origin, StoredCell};

/// Options of `cvbench run`.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Results root; the run goes to `<out>/<name>/`.
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Ignore finished cells and recompute everything (with a shard: its own cells).
    pub fresh: bool,
    /// Plan and print, run nothing.
    pub dry_run: bool,
    /// How to show progress (a bar on a terminal, plain lines in a log).
    pub progress: progress::ProgressMode,
    /// Run only this shard's cells.
    pub shard: Option<Shard>,
    /// Also write `records.csv` beside `records.parquet`.
    pub records_csv: bool,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The run folder.
    pub dir: PathBuf,
    /// Cells in the plan.
    pub cells: usize,
    /// Cells of this shard (all cells when unsharded).
    pub mine: usize,
    /// Of those, cells reused from an earlier run.
    pub resumed: usize,
    /// Whether the run folder was assembled (records, tables, manifest).
    pub assembled: bool,
    /// Files written by the assembly.
    pub files: Vec<PathBuf>,
}

/// Test-only hooks, not for normal use, so that tests can interrupt or kill a
/// run midway without racing it: `CVBENCH_TEST_CELL_DELAY_MS` sleeps this
/// long before each cell; `CVBENCH_TEST_HOLD_CELLS=N[:FILE]` holds each cell
/// after the first `N` started ones until `FILE` exists (for good without
/// `FILE`). `started` counts the cells started before this one.
fn test_delay(started: usize) {
    if let Ok(Some(d)) = crate::config::env::test_cell_delay() {
        std::thread::sleep(d);
    }
    let Ok(hold) = std::env::var("CVBENCH_TEST_HOLD_CELLS") else {
        return;
    };
    let (n, file) = match hold.split_once(':') {
        Some((n, f)) => (n, Some(PathBuf::from(f))),
        None => (hold.as_str(), None),
    };
    if n.parse::<usize>().is_ok_and(|n| started >= n) {
        while file.as_ref().is_none_or(|f| !f.exists()) {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// Run a config end to end (or one shard's share of it). Config and data
/// errors surface before any cell runs. All of the run's parallel work
/// (planning, cells, and the parallel methods inside a cell) runs on one
/// pool of `opts.threads` threads.
pub fn run(
    cfg: &ConfigFile,
    ctx: &Context,
    opts: &RunOptions,
) -> Result<RunSummary, ExperimentError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.unwrap_or(0))
        .build()
        .map_err(|e| ExperimentError::Cell {
            cell: String::new(),
            message: format!("thread pool: {e}"),
        })?;
    pool.install(|| run_in_pool(cfg, ctx, opts))
}

fn run_in_pool(
    cfg: &ConfigFile,
    ctx: &Context,
    opts: &RunOptions,
) -> Result<RunSummary, ExperimentError> {
    // Every CVBENCH_* variable, before anything is deleted or written.
    crate::config::env::check()?;
    out::check(&opts.out)?;
    let p = prepare(cfg, ctx, &opts.out)?;
    let (plan, dir) = (p.plan.as_ref(), p.dir.clone());
    let cells = plan.cells();
    let mine: Vec<usize> = match &opts.shard {
        None => (0..cells.len()).collect(),
        Some(s) => {
            let a = Shard::assign(plan, s.count);
            (0..cells.len()).filter(|&i| a[i] == s.index).collect()
        }
    };
    let summary = |resumed, assembled, files| RunSummary {
        dir: dir.clone(),
        cells: cells.len(),
        mine: mine.len(),
        resumed,
        assembled,
        files,
    };
    if opts.dry_run {
        let done = mine
            .iter()
            .filter(|&&i| {
                !opts.fresh
                    && store::load(&dir, &cells[i].key, cells[i].seed, &p.identities[i]).is_some()
            })
            .count();
        let share = opts.shard.as_ref().map_or(String::new(), |s| {
            format!(" ({} for shard {s})", mine.len())
        });
        if opts.progress != progress::ProgressMode::Quiet {
            println!(
                "{}: {} cells{share}: {done} already done, {} would run into {}{}",
                cfg.path.display(),
                cells.len(),
                mine.len() - done,
                dir.display(),
                plan_summary::cost_text(plan, &mine, &opts.out)
            );
        }
        return Ok(summary(done, false, vec![]));
    }
    let started = Instant::now();
    let started_unix = crate::results::manifest::unix_now();
    if opts.fresh && opts.shard.is_none() {
        let _ = std::fs::remove_dir_all(dir.join("cells"));
    }
    out::make(&opts.out, &dir)?;
    crate::results::atomic::clean_stale(&dir);
    // Temporary folders of earlier runs that were killed (SIGKILL).
    crate::interrupt::remove_orphan_temp_dirs();
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| {
            opts.fresh
                || store::load(&dir, &cells[i].key, cells[i].seed, &p.identities[i]).is_none()
        })
        .collect();
    let resumed = mine.len() - todo.len();
    let prefix = match &opts.shard {
        Some(s) => format!("{} shard {s}", plan.name()),
        None => plan.name().to_string(),
    };
    let bar = progress::Progress::new(opts.progress, &prefix, todo.len() as u64);
    if resumed > 0 {
        bar.println(&format!(
            "{prefix}: resuming, {resumed} of {} cells already done (use --fresh to recompute)",
            mine.len()
        ));
    }
    // Cells at once (recorded in the manifest): one for timing plans.
    let threads = if plan.exclusive() {
        1
    } else {
        opts.threads.unwrap_or(0)
    };
    let host = crate::results::atomic::host();
    let shard_label = opts.shard.as_ref().map(|s| s.to_string());
    let failed = AtomicBool::new(false);
    let started_cells = AtomicUsize::new(0);
    let run_one = |i: usize| -> Result<(), ExperimentError> {
        if failed.load(Ordering::Relaxed) {
            return Err(ExperimentError::Cell {
                cell: cells[i].key.clone(),
                message: "skipped after an earlier failure".into(),
            });
        }
        test_delay(started_cells.fetch_add(1, Ordering::SeqCst));
        let t = Instant::now();
        let records: Vec<Record> = plan
            .run_cell(i)
            .inspect_err(|_| failed.store(true, Ordering::Relaxed))?;
        let stored = StoredCell {
            key: cells[i].key.clone(),
            seed: cells[i].seed,
            identity: p.identities[i].clone(),
            origin: Some(Origin {
                shard: shard_label.clone(),
                host: host.clone(),
                finished_unix: crate::results::manifest::unix_now(),
                seconds: t.elapsed().as_secs_f64(),
            }),
            records,
        };
        store::save(&dir, &stored)?;
        bar.inc();
        Ok(())
    };
    // Timing-sensitive plans run their cells one at a time, so that a cell
    // may use the whole pool (parallel TreeCV) undisturbed; the pool is the
    // run's (we are inside `pool.install`), so `--threads` bounds it too.
    let outcomes: Vec<Result<(), ExperimentError>> = if plan.exclusive() {
        todo.iter().map(|&i| run_one(i)).collect()
    } else {
        todo.par_iter().map(|&i| run_one(i)).collect()
    };
    bar.finish();
    // Report the error that caused the stop, not a cell skipped because of it.
    let skipped = |e: &ExperimentError| matches!(e, ExperimentError::Cell { message, .. } if message.starts_with("skipped"));
    let mut first_err: Option<ExperimentError> = None;
    for e in outcomes.into_iter().filter_map(Result::err) {
        if first_err
            .as_ref()
            .is_none_or(|f| skipped(f) && !skipped(&e))
        {
            first_err = Some(e);
        }
    }
    if let Some(e) = first_err {
        return Err(e);
    }
    let info = collect::RunInfo {
        config: cfg,
        threads,
        started_unix,
        started,
        records_csv: opts.records_csv,
    };
    // A shard assembles only when it finds every cell there (it is the last).
    if opts.shard.is_some() && !collect::missing(&p).is_empty() {
        return Ok(summary(resumed, false, vec![]));
    }
    let files = collect::assemble(&p, &info).map_err(|e| match e {
        // Unsharded, every cell was there a moment ago: another process
        // removed some (a concurrent `--fresh`), not a missing shard.
        ExperimentError::Incomplete {
            run,
            missing,
            total,
        } if opts.shard.is_none() => ExperimentError::Raced {
            run,
            missing,
            total,
        },
        e => e,
    })?;
    Ok(summary(resumed, true, files))
}
