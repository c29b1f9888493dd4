//! The command line: `run`, `collect`, `slurm`, `validate`, `report`,
//! `export`, `datasets`, `fetch`, `svm`.
//! Exit codes: 0 success, 1 a run failed, 2 bad usage, config or data.

pub mod grid;
pub mod memory;
pub mod on_interrupt;
pub mod svm;

use crate::config::ConfigFile;
use crate::data::DataDir;
use crate::experiments::{Context, ExperimentError};
use crate::runner::{self, RunOptions};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// cvbench: reproduce and extend research on fast cross-validation.
#[derive(Parser, Debug)]
#[command(name = "cvbench", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// What `run`, `collect` and `slurm` share: the configs, the results root
/// and the data directory.
#[derive(clap::Args, Debug)]
pub struct RunIo {
    /// Config files (TOML).
    #[arg(required = true)]
    pub configs: Vec<PathBuf>,
    /// Results root.
    #[arg(long, default_value = "results")]
    pub out: PathBuf,
    /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

/// `--quiet` and `--json`, shared by `run` and `validate`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct OutputFlags {
    /// Print nothing but errors (no progress, no summary).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Print one JSON object: what ran and where the outputs are (progress
    /// lines still go to standard error unless --quiet).
    #[arg(long)]
    pub json: bool,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one or more configs; results go to OUT/<config name>/.
    Run {
        #[command(flatten)]
        io: RunIo,
        /// Worker threads for cells (default: all cores). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Recompute every cell instead of resuming finished ones.
        #[arg(long)]
        fresh: bool,
        /// Parse, load data and plan; run nothing.
        #[arg(long)]
        dry_run: bool,
        /// Run only shard I of N (`I/N`, 0-based), or `slurm` for the array task's
        /// share (SLURM_ARRAY_TASK_ID of the array's task count).
        #[arg(long, value_name = "I/N|slurm")]
        shard: Option<String>,
        /// Also write each run's records as CSV (`records.csv`; records are
        /// stored as Parquet, and `cvbench export` converts them later).
        #[arg(long)]
        csv: bool,
        #[command(flatten)]
        output: OutputFlags,
    },
    /// Assemble records, tables, figures and manifests from the cell files of
    /// finished shards, recomputing nothing (exit 1, writing nothing, when cells
    /// are missing).
    Collect {
        #[command(flatten)]
        io: RunIo,
    },
    /// Write a SLURM job array (one shard per task) and a dependent collect job
    /// under OUT/<name>/slurm/ (OUT/slurm/ for several configs); submit with --submit.
    Slurm {
        /// Array tasks (shards).
        #[arg(long)]
        tasks: usize,
        /// SLURM partition.
        #[arg(long)]
        partition: Option<String>,
        /// Time limit per task (SLURM format, e.g. 04:00:00).
        #[arg(long)]
        time: Option<String>,
        /// CPUs per task (also the threads of each shard).
        #[arg(long)]
        cpus: Option<usize>,
        /// Memory per task (SLURM format, e.g. 8G).
        #[arg(long)]
        mem: Option<String>,
        /// Submit with sbatch (else only write the scripts and submit.sh).
        #[arg(long)]
        submit: bool,
        #[command(flatten)]
        io: RunIo,
    },
    /// Parse a config, load its data, expand the grid and summarise the cells
    /// (per dataset, method, k, ...) and their estimated cost.
    Validate {
        /// Config file.
        config: PathBuf,
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Also list every cell (key and seed).
        #[arg(long)]
        cells: bool,
        #[command(flatten)]
        output: OutputFlags,
    },
    /// Re-render tables, figures, REPORT.md and index.html from stored results.
    Report {
        /// Results root.
        #[arg(default_value = "results")]
        dir: PathBuf,
        /// Also write each run's records.csv (records are stored as Parquet).
        #[arg(long)]
        csv: bool,
    },
    /// Write a stored table (a `.parquet` file, or a run folder's records) as CSV.
    Export {
        /// A `.parquet` table, or a run folder (its `records.parquet`).
        table: PathBuf,
        /// Output file (`-` for standard output; default: beside the table, `.csv`).
        #[arg(long, short = 'o')]
        out: Option<PathBuf>,
        /// Only the columns that are the same on any thread count, shard
        /// split and repeated run (no timing, no `_sched` counter), to
        /// compare two runs of one config.
        #[arg(long)]
        reproducible: bool,
    },
    /// List known datasets: found where, or how to get them.
    Datasets {
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// Train one C-SVC on a LibSVM file and print what LIBSVM's svm-train prints
    /// (same options and defaults; -v K for cross-validation).
    Svm(Box<svm::SvmArgs>),
    /// Search (C, gamma) by k-fold CV: a drop-in for LIBSVM's grid.py
    /// (`svm-grid`), same options and output, with reuse across grid points
    /// and folds (`cvbench grid --help`).
    Grid(Box<grid::GridArgs>),
    /// Download datasets from their canonical sources and verify checksums.
    Fetch {
        /// Dataset names (default: all).
        names: Vec<String>,
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
}

/// An error with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    /// 1 = a run failed, 2 = bad usage, config or data.
    pub code: i32,
    /// The error.
    pub error: anyhow::Error,
}

fn classify(e: ExperimentError) -> Failure {
    let code = match e {
        ExperimentError::Config(_) | ExperimentError::Data(_) | ExperimentError::Output { .. } => 2,
        _ => 1,
    };
    Failure {
        code,
        error: e.into(),
    }
}

/// The most worker threads `--threads` accepts: more only adds overhead
/// (results do not depend on the thread count).
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    (8 * cores).max(64)
}

fn check_threads(t: usize) -> Result<(), Failure> {
    let max = max_threads();
    if t == 0 || t > max {
        return Err(usage(anyhow::anyhow!(
            "--threads {t} is out of range: use 1..={max} (this machine has {} cores; results do not depend on the thread count)",
            std::thread::available_parallelism().map_or(1, usize::from)
        )));
    }
    Ok(())
}

/// An error and its causes on one line, each text once: a cause whose text
/// the message already contains (`path: No such file or directory`) is not
/// repeated.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut s = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !s.contains(&c) {
            s.push_str(": ");
            s.push_str(&c);
        }
    }
    s
}

fn usage(e: impl Into<anyhow::Error>) -> Failure {
    Failure {
        code: 2,
        error: e.into(),
    }
}

fn read_configs(paths: &[PathBuf]) -> Result<Vec<ConfigFile>, Failure> {
    paths
        .iter()
        .map(|p| ConfigFile::read(p).map_err(|e| classify(e.into())))
        .collect()
}

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    // Every CVBENCH_* variable, before any command deletes or writes anything.
    crate::config::env::check().map_err(usage)?;
    match cli.command {
        Command::Run {
            io:
                RunIo {
                    configs,
                    out,
                    data_dir,
                },
            threads,
            fresh,
            dry_run,
            shard,
            csv,
            output,
        } => {
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
            let files: Vec<ConfigFile> = configs
                .iter()
                .map(|p| ConfigFile::read(p).map_err(|e| classify(e.into())))
                .collect::<Result<_, _>>()?;
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
        Command::Collect { io } => {
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
        Command::Slurm {
            tasks,
            partition,
            time,
            cpus,
            mem,
            submit,
            io,
        } => {
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
        Command::Validate {
            config,
            data_dir,
            cells,
            output,
        } => {
            let ctx = Context::new(DataDir::resolve(data_dir));
            let f = ConfigFile::read(&config).map_err(|e| classify(e.into()))?;
            let plan = runner::validate(&f, &ctx).map_err(classify)?;
            let all: Vec<usize> = (0..plan.cells().len()).collect();
            if output.json {
                let mut j = serde_json::json!({
                    "command": "validate",
                    "config": config.display().to_string(),
                    "valid": true,
                    "name": plan.name(),
                    "cells": plan.cells().len(),
                    "estimated_cost": all.iter().map(|&i| plan.cost(i)).sum::<Option<f64>>(),
                });
                if cells {
                    j["cell_list"] = plan
                        .cells()
                        .iter()
                        .map(|c| serde_json::json!({"key": c.key, "seed": c.seed}))
                        .collect();
                }
                println!("{j}");
                return Ok(());
            }
            if output.quiet {
                return Ok(());
            }
            if cells {
                for c in plan.cells() {
                    println!("{}  seed={}", c.key, c.seed);
                }
            }
            print!("{}", runner::plan_summary::cell_summary(plan.as_ref()));
            println!(
                "{}: valid, {} cells{}, output folder `{}`{}",
                config.display(),
                plan.cells().len(),
                runner::plan_summary::cost_text(plan.as_ref(), &all),
                plan.name(),
                if cells {
                    ""
                } else {
                    " (--cells lists every cell)"
                }
            );
            Ok(())
        }
        Command::Export {
            table,
            out,
            reproducible,
        } => export(&table, out.as_deref(), reproducible).map_err(usage),
        Command::Report { dir, csv } => {
            if !dir.is_dir() {
                return Err(usage(anyhow::anyhow!(
                    "{}: no such results folder (give the folder `cvbench run --out` wrote, default `results`)",
                    dir.display()
                )));
            }
            let files = crate::report::report(&dir, csv).map_err(classify)?;
            for f in files {
                println!("wrote {}", f.display());
            }
            Ok(())
        }
        Command::Datasets { data_dir } => {
            let dir = DataDir::resolve(data_dir);
            let from = match dir.source() {
                crate::data::data_dir::DataDirSource::Flag => "from --data-dir",
                crate::data::data_dir::DataDirSource::Env => "from $CVBENCH_DATA_DIR",
                crate::data::data_dir::DataDirSource::Default => "the default",
            };
            println!("data directory: {} ({from})", dir.path().display());
            for st in crate::data::registry::status(&dir) {
                print!("{st}");
            }
            Ok(())
        }
        Command::Grid(args) => grid::run(&args).map_err(|e| {
            // Bad options, ranges, data or parameters are usage errors.
            let code = if e.downcast_ref::<crate::svm::grid::GridError>().is_some()
                || e.downcast_ref::<crate::svm::SvmError>().is_some()
                || e.downcast_ref::<crate::data::DataError>().is_some()
                || e.downcast_ref::<std::io::Error>().is_some()
            {
                2
            } else {
                1
            };
            Failure { code, error: e }
        }),
        Command::Svm(args) => svm::run(&args).map_err(|e| {
            // Bad data or parameters are usage errors; a failed solve is a run failure.
            let code = if e.downcast_ref::<crate::svm::SvmError>().is_some()
                || e.downcast_ref::<crate::data::DataError>().is_some()
                || e.downcast_ref::<svm::SvmUsage>().is_some()
                || e.downcast_ref::<crate::svm::model_file::ModelFileError>()
                    .is_some()
            {
                2
            } else {
                1
            };
            Failure { code, error: e }
        }),
        Command::Fetch { names, data_dir } => {
            let dir = DataDir::resolve(data_dir);
            let names = if names.is_empty() {
                crate::data::Registry::builtin().names()
            } else {
                names
            };
            let opts = crate::data::fetch::FetchOptions::default();
            let mut failed = Vec::new();
            for name in &names {
                match crate::data::fetch::fetch_by_name(name, &dir, &opts) {
                    Ok(rep) => {
                        for w in &rep.warnings {
                            eprintln!("{w}");
                        }
                        println!(
                            "{name}: ok ({} file(s) in {})",
                            rep.files.len(),
                            dir.path().display()
                        );
                    }
                    Err(e @ crate::data::DataError::UnknownDataset { .. }) => {
                        return Err(usage(e));
                    }
                    Err(e) => {
                        eprintln!("{name}: {e}");
                        if matches!(e, crate::data::DataError::Download { .. }) {
                            // No network (or the source moved): say how else to get it.
                            eprintln!(
                                "{name}: could not download. Without network access, put the files into {} by hand:",
                                dir.path().display()
                            );
                            for st in crate::data::registry::status(&dir) {
                                if st.name == *name {
                                    eprint!("{st}");
                                }
                            }
                        }
                        failed.push(name.clone());
                    }
                }
            }
            if failed.is_empty() {
                Ok(())
            } else {
                Err(Failure {
                    code: 1,
                    error: anyhow::anyhow!(
                        "could not fetch: {} (`cvbench datasets` lists every dataset, where it was looked for and how to get it)",
                        failed.join(", ")
                    ),
                })
            }
        }
    }
}

/// `cvbench export`: a stored Parquet table as CSV (the same CSV `run`
/// writes for summary tables); `reproducible` drops the timing and `_sched`
/// columns. The output is checked before the table is read: never the
/// input, never a `.parquet` name (whatever link leads to it); a link is
/// written through, a device or pipe written to (see
/// [`crate::results::output`]).
fn export(
    table: &std::path::Path,
    out: Option<&std::path::Path>,
    reproducible: bool,
) -> anyhow::Result<()> {
    use crate::results::{output, table as t};
    let file = if table.is_dir() {
        table.join("records.parquet")
    } else {
        table.to_path_buf()
    };
    if !file.is_file() {
        anyhow::bail!(
            "{}: no such table (give a .parquet file under a results folder, or a run folder holding records.parquet)",
            file.display()
        );
    }
    let dest = match out {
        Some(p) if p.as_os_str() == "-" => None,
        Some(p) => Some(p.to_path_buf()),
        None => Some(file.with_extension("csv")),
    };
    let (inputs, protected) = ([file.as_path()], [t::TABLE_EXTENSION]);
    if let Some(d) = &dest {
        output::check_user_file(d, &inputs, &protected)?;
    }
    let mut df = t::read_parquet(&file)?;
    if reproducible {
        let keep: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|n| n.to_string())
            .filter(|n| crate::results::columns::is_reproducible(n))
            .collect();
        df = df.select(keep)?;
    }
    let bytes = t::csv_bytes(&df, &file)?;
    match dest {
        None => {
            use std::io::Write as _;
            std::io::stdout().write_all(&bytes)?;
        }
        Some(d) => {
            output::write_user_file(&d, &bytes, &inputs, &protected)?;
            println!("wrote {}", d.display());
        }
    }
    Ok(())
}
