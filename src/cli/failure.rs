//! What a command's failure is (its exit code and error), and the checks
//! every command shares.

use std::path::PathBuf;

use crate::config::ConfigFile;
use crate::experiments::ExperimentError;

/// An error with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    /// 1 = a run failed, 2 = bad usage, config or data.
    pub code: i32,
    /// The error.
    pub error: anyhow::Error,
}

pub(super) fn classify(e: ExperimentError) -> Failure {
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

pub(super) fn check_threads(t: usize) -> Result<(), Failure> {
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

pub(super) fn usage(e: impl Into<anyhow::Error>) -> Failure {
    Failure {
        code: 2,
        error: e.into(),
    }
}

pub(super) fn read_configs(paths: &[PathBuf]) -> Result<Vec<ConfigFile>, Failure> {
    paths
        .iter()
        .map(|p| ConfigFile::read(p).map_err(|e| classify(e.into())))
        .collect()
}
