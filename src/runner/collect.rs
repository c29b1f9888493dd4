//! Assembling a run folder from its cell files, without recomputing:
//! `records.parquet` (cells in plan order; `records.csv` on request), the kind's tables
//! and figures, and `manifest.json` with which shard, host and time made each
//! cell. Used by `cvbench run` after its cells and by `cvbench collect` after
//! the shards of a cluster job. Nothing is written unless every cell is there.

use super::prepare::{prepare, Prepared};
use super::store::{self, AssemblyLock, StoredCell};
use crate::config::ConfigFile;
use crate::experiments::{Context, ExperimentError};
use crate::results::manifest::{CellRun, Manifest};
use crate::results::table::{to_frame, write_atomic, write_csv, write_parquet};
use crate::results::Record;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the manifest says about the process that assembles.
pub struct RunInfo<'a> {
    /// The config.
    pub config: &'a ConfigFile,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Start time, seconds since the Unix epoch.
    pub started_unix: u64,
    /// Start instant (for the manifest's seconds).
    pub started: Instant,
    /// Also write `records.csv` (records are stored as Parquet).
    pub records_csv: bool,
}

/// Keys of the cells that have no matching stored file, in plan order.
pub fn missing(p: &Prepared) -> Vec<String> {
    let cells = p.plan.cells();
    (0..cells.len())
        .filter(|&i| store::load(&p.dir, &cells[i].key, cells[i].seed, &p.identities[i]).is_none())
        .map(|i| cells[i].key.clone())
        .collect()
}

fn load_all(p: &Prepared) -> Result<Vec<StoredCell>, ExperimentError> {
    let cells = p.plan.cells();
    let mut out = Vec::with_capacity(cells.len());
    let mut absent = Vec::new();
    for (c, id) in cells.iter().zip(&p.identities) {
        match store::load(&p.dir, &c.key, c.seed, id) {
            Some(s) => out.push(s),
            None => absent.push(c.key.clone()),
        }
    }
    if absent.is_empty() {
        Ok(out)
    } else {
        Err(ExperimentError::Incomplete {
            run: p.plan.name().to_string(),
            missing: absent,
            total: cells.len(),
        })
    }
}

/// Assemble the run folder from its cell files (under the folder's lock);
/// an [`ExperimentError::Incomplete`] error, with nothing written, when cells
/// are missing. Returns the files written.
pub fn assemble(p: &Prepared, info: &RunInfo) -> Result<Vec<PathBuf>, ExperimentError> {
    let stored = load_all(p)?;
    let _lock = AssemblyLock::acquire(&p.dir)?;
    let dir = &p.dir;
    let records: Vec<Record> = stored.iter().flat_map(|s| s.records.clone()).collect();
    // Records are stored as Parquet (the canonical copy); CSV on request
    // (`run --csv`, or `cvbench export` later).
    let frame = to_frame(&records)?;
    let mut files = vec![dir.join("records.parquet")];
    write_parquet(&frame, &files[0])?;
    let csv = dir.join("records.csv");
    if info.records_csv {
        write_csv(&frame, &csv)?;
        files.push(csv);
    } else if csv.is_file() {
        // A stale copy from an earlier run would disagree with the records.
        let _ = std::fs::remove_file(&csv);
    }
    let rendered = p.kind.render(dir, info.config, &records)?;
    files.extend(rendered.files);
    let mut manifest = Manifest::new(
        p.kind.name(),
        p.plan.name(),
        info.config,
        p.plan.base_seed(),
        p.plan
            .cells()
            .iter()
            .map(|c| (c.key.clone(), c.seed))
            .collect(),
        info.threads,
        info.started_unix,
        info.started.elapsed().as_secs_f64(),
        files
            .iter()
            .map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string())
            .collect(),
    );
    // Per-cell bookkeeping changes on every re-run: kept beside the cells,
    // untracked; the manifest keeps the cells' own compute time.
    let runs: Vec<CellRun> = stored
        .iter()
        .map(|s| {
            let o = s.origin.clone().unwrap_or_default();
            CellRun {
                key: s.key.clone(),
                shard: o.shard,
                host: o.host,
                finished_unix: o.finished_unix,
                seconds: o.seconds,
            }
        })
        .collect();
    manifest.compute_seconds = Some(runs.iter().map(|r| r.seconds).sum());
    crate::results::manifest::write_cell_runs(dir, &runs)?;
    let mpath = dir.join("manifest.json");
    write_atomic(&mpath, &manifest.to_json())?;
    files.push(mpath);
    Ok(files)
}

/// `cvbench collect`: check `out` ([`super::out::check`]), plan every
/// config, check that all their cells are there (else an
/// [`ExperimentError::Incomplete`] for the first incomplete one, having
/// written nothing for any) and that every run folder can be written (else
/// an [`ExperimentError::Output`], exit code 2), then assemble each run
/// folder.
/// Returns each config's run folder and files.
pub fn collect(
    configs: &[ConfigFile],
    ctx: &Context,
    out: &Path,
) -> Result<Vec<(PathBuf, Vec<PathBuf>)>, ExperimentError> {
    let started = Instant::now();
    let started_unix = crate::results::manifest::unix_now();
    super::out::check(out)?;
    let prepared: Vec<Prepared> = configs
        .iter()
        .map(|c| prepare(c, ctx, out))
        .collect::<Result<_, _>>()?;
    let mut incomplete: Vec<ExperimentError> = prepared
        .iter()
        .filter_map(|p| {
            let absent = missing(p);
            (!absent.is_empty()).then(|| ExperimentError::Incomplete {
                run: p.plan.name().to_string(),
                missing: absent,
                total: p.plan.cells().len(),
            })
        })
        .collect();
    if !incomplete.is_empty() {
        // Name every incomplete run; the first is the error returned.
        for e in &incomplete[1..] {
            eprintln!("error: {e}");
        }
        return Err(incomplete.swap_remove(0));
    }
    // A run folder that cannot be written (read-only, permission denied)
    // is refused before any is assembled.
    for p in &prepared {
        super::out::probe(out, &p.dir)?;
    }
    let mut out = Vec::new();
    for (p, cfg) in prepared.iter().zip(configs) {
        crate::results::atomic::clean_stale(&p.dir);
        let info = RunInfo {
            config: cfg,
            threads: 0,
            started_unix,
            started,
            records_csv: false,
        };
        out.push((p.dir.clone(), assemble(p, &info)?));
    }
    Ok(out)
}
