//! The command line: `run`, `collect`, `slurm`, `validate`, `report`,
//! `export`, `datasets`, `fetch`, `svm`.
//! Exit codes: 0 success, 1 a run failed, 2 bad usage, config or data.

mod args;
mod failure;
// `cvbench grid` and `cvbench svm` document their private helpers by
// link; those links resolve in `cargo doc --document-private-items`.
#[allow(rustdoc::private_intra_doc_links)]
pub mod grid;
mod inspect;
pub mod memory;
pub mod on_interrupt;
mod run_cmd;
#[allow(rustdoc::private_intra_doc_links)]
pub mod svm;

pub use args::{OutputFlags, RunIo};
pub use failure::{error_text, max_threads, Failure};

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

/// Subcommands. The variants' doc comments are clap's help text, which
/// writes placeholders as `<name>`, not HTML.
#[derive(Subcommand, Debug)]
#[allow(rustdoc::invalid_html_tags)]
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
        /// Results root whose stored runs of the same kind give the
        /// estimate in minutes.
        #[arg(long, default_value = args::RESULTS_DIR)]
        out: PathBuf,
        #[command(flatten)]
        output: OutputFlags,
    },
    /// Re-render tables, figures, REPORT.md and index.html from stored results.
    Report {
        /// Results root.
        #[arg(default_value = args::RESULTS_DIR)]
        dir: PathBuf,
        /// Also write each run's records.csv (records are stored as Parquet).
        #[arg(long)]
        csv: bool,
        /// Write nothing: print the config of every stale run (one made
        /// before a commit that may have moved its numbers, from a dirty
        /// tree, or without a revision), one per line, and why on stderr
        /// (what `make refresh` re-runs).
        #[arg(long, conflicts_with = "csv")]
        stale: bool,
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
    /// Train one SVM on a LibSVM file (any of svm-train's -s 0..4 and -t 0..4)
    /// and print what LIBSVM's svm-train prints (same options and defaults; -v
    /// K for cross-validation).
    Svm(Box<svm::SvmArgs>),
    /// Search (C, gamma) by k-fold CV (with -s 1..4: nu or epsilon too): a
    /// drop-in for LIBSVM's grid.py (`svm-grid`), same options and output,
    /// with reuse across grid points and folds (`cvbench grid --help`).
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

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    // Every CVBENCH_* variable, before any command deletes or writes anything.
    crate::config::env::check().map_err(failure::usage)?;
    match cli.command {
        Command::Run {
            io,
            threads,
            fresh,
            dry_run,
            shard,
            csv,
            output,
        } => run_cmd::run_configs(io, threads, fresh, dry_run, shard, csv, output),
        Command::Collect { io } => run_cmd::collect(io),
        Command::Slurm {
            tasks,
            partition,
            time,
            cpus,
            mem,
            submit,
            io,
        } => run_cmd::slurm(tasks, partition, time, cpus, mem, submit, io),
        Command::Validate {
            config,
            data_dir,
            cells,
            out,
            output,
        } => inspect::validate(config, data_dir, cells, &out, output),
        Command::Export {
            table,
            out,
            reproducible,
        } => inspect::export(&table, out.as_deref(), reproducible).map_err(failure::usage),
        Command::Report { dir, csv, stale } => inspect::report(&dir, csv, stale),
        Command::Datasets { data_dir } => inspect::datasets(data_dir),
        Command::Grid(args) => grid::run(&args).map_err(|e| {
            // Bad options, ranges, data or parameters are usage errors.
            let code = if e
                .downcast_ref::<cvbench_engine::api::errors::GridError>()
                .is_some()
                || e.downcast_ref::<cvbench_engine::api::errors::SvmError>()
                    .is_some()
                || e.downcast_ref::<cvbench_engine::api::errors::DataError>()
                    .is_some()
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
            let code = if e
                .downcast_ref::<cvbench_engine::api::errors::SvmError>()
                .is_some()
                || e.downcast_ref::<cvbench_engine::api::errors::DataError>()
                    .is_some()
                || e.downcast_ref::<svm::SvmUsage>().is_some()
                || e.downcast_ref::<cvbench_engine::api::errors::ModelFileError>()
                    .is_some()
            {
                2
            } else {
                1
            };
            Failure { code, error: e }
        }),
        Command::Fetch { names, data_dir } => inspect::fetch(names, data_dir),
    }
}
