//! The command line: `run`, `validate`, `report`, `datasets`, `fetch`, `svm`.
//! Exit codes: 0 success, 1 a run failed, 2 bad usage, config or data.

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

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one or more configs; results go to OUT/<config name>/.
    Run {
        /// Config files (TOML).
        #[arg(required = true)]
        configs: Vec<PathBuf>,
        /// Results root.
        #[arg(long, default_value = "results")]
        out: PathBuf,
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Worker threads for cells (default: all cores). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// Recompute every cell instead of resuming finished ones.
        #[arg(long)]
        fresh: bool,
        /// Parse, load data and plan; run nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Parse a config, load its data, expand the grid and print the cells.
    Validate {
        /// Config file.
        config: PathBuf,
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// Re-render tables, figures, REPORT.md and index.html from stored results.
    Report {
        /// Results root.
        #[arg(default_value = "results")]
        dir: PathBuf,
    },
    /// List known datasets: found where, or how to get them.
    Datasets {
        /// Data directory (else $CVBENCH_DATA_DIR, else ./data).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// Train one C-SVC on a LibSVM file and print what LIBSVM's svm-train prints
    /// (same options and defaults; -v K for cross-validation).
    Svm(crate::svm::command::SvmArgs),
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
        ExperimentError::Config(_) | ExperimentError::Data(_) => 2,
        _ => 1,
    };
    Failure {
        code,
        error: e.into(),
    }
}

fn usage(e: impl Into<anyhow::Error>) -> Failure {
    Failure {
        code: 2,
        error: e.into(),
    }
}

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Run {
            configs,
            out,
            data_dir,
            threads,
            fresh,
            dry_run,
        } => {
            if threads == Some(0) {
                return Err(usage(anyhow::anyhow!("--threads must be at least 1")));
            }
            let ctx = Context::new(DataDir::resolve(data_dir));
            // Validate every config before running any, so a typo in the last
            // one does not waste the first one's hours.
            let files: Vec<ConfigFile> = configs
                .iter()
                .map(|p| ConfigFile::read(p).map_err(|e| classify(e.into())))
                .collect::<Result<_, _>>()?;
            for f in &files {
                runner::validate(f, &ctx).map_err(classify)?;
            }
            let opts = RunOptions {
                out,
                threads,
                fresh,
                dry_run,
                progress: !dry_run,
            };
            for f in &files {
                let s = runner::run(f, &ctx, &opts).map_err(classify)?;
                if !dry_run {
                    println!(
                        "{}: {} cells ({} resumed) -> {}",
                        f.path.display(),
                        s.cells,
                        s.resumed,
                        s.dir.display()
                    );
                }
            }
            Ok(())
        }
        Command::Validate { config, data_dir } => {
            let ctx = Context::new(DataDir::resolve(data_dir));
            let f = ConfigFile::read(&config).map_err(|e| classify(e.into()))?;
            let plan = runner::validate(&f, &ctx).map_err(classify)?;
            for c in plan.cells() {
                println!("{}  seed={}", c.key, c.seed);
            }
            println!(
                "{}: valid, {} cells, output folder `{}`",
                config.display(),
                plan.cells().len(),
                plan.name()
            );
            Ok(())
        }
        Command::Report { dir } => {
            let files = crate::results::report::report(&dir).map_err(classify)?;
            for f in files {
                println!("wrote {}", f.display());
            }
            Ok(())
        }
        Command::Datasets { data_dir } => {
            let dir = DataDir::resolve(data_dir);
            println!(
                "data directory: {} ({:?})",
                dir.path().display(),
                dir.source()
            );
            for st in crate::data::registry::status(&dir) {
                print!("{st}");
            }
            Ok(())
        }
        Command::Svm(args) => crate::svm::command::run(&args).map_err(|e| {
            // Bad data or parameters are usage errors; a failed solve is a run failure.
            let code = if e.downcast_ref::<crate::svm::SvmError>().is_some()
                || e.downcast_ref::<crate::data::DataError>().is_some()
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
                        failed.push(name.clone());
                    }
                }
            }
            if failed.is_empty() {
                Ok(())
            } else {
                Err(Failure {
                    code: 1,
                    error: anyhow::anyhow!("could not fetch: {}", failed.join(", ")),
                })
            }
        }
    }
}
