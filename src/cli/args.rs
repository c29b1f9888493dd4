//! Option groups that several commands share.

use std::path::PathBuf;

/// The results root when none is given (`run --out`, `report`, `validate
/// --out`).
pub const RESULTS_DIR: &str = "results";

/// What `run`, `collect` and `slurm` share: the configs, the results root
/// and the data directory.
#[derive(clap::Args, Debug)]
pub struct RunIo {
    /// Config files (TOML).
    #[arg(required = true)]
    pub configs: Vec<PathBuf>,
    /// Results root.
    #[arg(long, default_value = RESULTS_DIR)]
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
