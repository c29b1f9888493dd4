//! The commands that run configs: `run` (on this machine, or one shard),
//! `collect` (assemble finished shards) and `slurm` (a job array).

use super::args::{OutputFlags, RunIo};
use super::failure::{check_threads, classify, read_configs, usage, Failure};
use crate::experiments::Context;
use crate::runner::{self, RunOptions};
use cvbench_engine::api::data::DataDir;

/// `cvbench run`: validate every config, then run each (or its shard).
pub(super) fn run_configs(
    io: RunIo,
    threads: Option<usize>,
    fresh: bool,
    dry_run: bool,
    shard: Option<String>,
    csv: bool,
    output: OutputFlags,
) -> Result<(), Failure> {
    let RunIo {
        configs,
        out,
        data_dir,
    } = io;
    let shard = shard
        .map(|s| runner::Shard::parse(&s, |k| std::env::var(k).ok()))
        .transpose()
        .map_err(usage)?;
    if let Some(t) = threads {
        check_threads(t)?;
    }
    runner::out::check(&out).map_err(classify)?;
    let ctx = Context::new(DataDir::resolve(data_dir));
    // Validate every config before running any, so a typo in the last
    // one does not waste the first one's hours.
    let files = read_configs(&configs)?;
    let mut names: Vec<(String, &std::path::Path)> = Vec::new();
    for f in &files {
        let plan = runner::validate(f, &ctx).map_err(classify)?;
        if let Some((_, first)) = names.iter().find(|(n, _)| n == plan.name()) {
            return Err(usage(anyhow::anyhow!(
                "{} and {} both have name = \"{}\": their results would overwrite each other in {}\n  fix: give each config its own `name`",
                first.display(),
                f.path.display(),
                plan.name(),
                out.join(plan.name()).display()
            )));
        }
        names.push((plan.name().to_string(), &f.path));
    }
    let opts = RunOptions {
        out,
        threads,
        fresh,
        dry_run,
        progress: if output.quiet || (output.json && dry_run) {
            runner::progress::ProgressMode::Quiet
        } else {
            runner::progress::ProgressMode::Auto
        },
        shard,
        records_csv: csv,
    };
    let mut json_runs = Vec::new();
    for f in &files {
        let s = runner::run(f, &ctx, &opts).map_err(classify)?;
        json_runs.push(serde_json::json!({
            "config": f.path.display().to_string(),
            "dir": s.dir.display().to_string(),
            "cells": s.cells,
            "mine": s.mine,
            "resumed": s.resumed,
            "dry_run": dry_run,
            "shard": opts.shard.as_ref().map(|sh| sh.to_string()),
            "assembled": s.assembled,
            "files": s.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        }));
        match &opts.shard {
            _ if dry_run || output.quiet || output.json => {}
            None => println!(
                "{}: {} cells ({} resumed) -> {}",
                f.path.display(),
                s.cells,
                s.resumed,
                s.dir.display()
            ),
            Some(sh) => println!(
                "{}: shard {sh}: {} of {} cells ({} resumed) -> {}{}",
                f.path.display(),
                s.mine,
                s.cells,
                s.resumed,
                s.dir.display(),
                if s.assembled {
                    " (every cell present: assembled)"
                } else {
                    ""
                }
            ),
        }
    }
    if output.json {
        println!(
            "{}",
            serde_json::json!({ "command": "run", "runs": json_runs })
        );
    }
    Ok(())
}

/// `cvbench collect`: assemble the runs whose shards are all finished.
pub(super) fn collect(io: RunIo) -> Result<(), Failure> {
    let RunIo {
        configs,
        out,
        data_dir,
    } = io;
    let ctx = Context::new(DataDir::resolve(data_dir));
    let files = read_configs(&configs)?;
    for (dir, written) in runner::collect::collect(&files, &ctx, &out).map_err(classify)? {
        println!("{}: assembled {} files", dir.display(), written.len());
    }
    Ok(())
}

/// `cvbench slurm`: write (and with `submit`, submit) a job array of shards
/// and a dependent collect job.
pub(super) fn slurm(
    tasks: usize,
    partition: Option<String>,
    time: Option<String>,
    cpus: Option<usize>,
    mem: Option<String>,
    submit: bool,
    io: RunIo,
) -> Result<(), Failure> {
    let RunIo {
        configs,
        out,
        data_dir,
    } = io;
    let data = DataDir::resolve(data_dir);
    let data_path = data.path().to_path_buf();
    let ctx = Context::new(data);
    let files = read_configs(&configs)?;
    let mut names = Vec::new();
    let mut cells = 0;
    let mut exclusive = false;
    for f in &files {
        let plan = runner::validate(f, &ctx).map_err(classify)?;
        cells += plan.cells().len();
        exclusive |= plan.exclusive();
        names.push(plan.name().to_string());
    }
    let bin = std::env::current_exe().map_err(|e| Failure {
        code: 1,
        error: anyhow::anyhow!("cannot locate the cvbench binary: {e}"),
    })?;
    let opts = runner::slurm::SlurmOptions {
        tasks,
        partition,
        time,
        cpus,
        mem,
        exclusive,
    };
    let fail = |e: runner::slurm::SlurmError| Failure {
        code: if matches!(e, runner::slurm::SlurmError::Value { .. }) {
            2
        } else {
            1
        },
        error: e.into(),
    };
    opts.check(cells).map_err(fail)?;
    let s = runner::slurm::write_scripts(&configs, &names, &out, &data_path, &bin, &opts)
        .map_err(fail)?;
    println!(
        "wrote {}, {} and {}",
        s.array.display(),
        s.collect.display(),
        s.submit.display()
    );
    if submit {
        let (array, collect) = runner::slurm::submit(&s).map_err(fail)?;
        println!("submitted array job {array} ({tasks} tasks) and collect job {collect} (afterok:{array})");
    } else {
        println!("submit with: sh {}", s.submit.display());
    }
    Ok(())
}
