//! The error type of the progressive-validation experiments.

use thiserror::Error;

/// Errors of the progressive-validation experiments.
#[derive(Debug, Error)]
pub enum ProgressiveError {
    /// A parameter is out of range or inconsistent.
    #[error("invalid progressive-validation setting: {0}")]
    Invalid(String),
    /// A cross-validation procedure rejected its input.
    #[error(transparent)]
    Cv(#[from] cvbench_engine::api::errors::CvError),
}
