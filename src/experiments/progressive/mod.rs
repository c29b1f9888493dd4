//! Blum, Kalai & Langford (1999), "Beating the Hold-Out: Bounds for K-fold
//! and Progressive Cross-Validation".
//!
//! - [`generator`]: the paper's synthetic boolean problem and fresh test sets.
//! - [`exact`]: the closed-form true error of the feature eliminator (with
//!   its derivation) and the survivor-count distribution.
//! - [`paper`]: Figure 1 and the table of Section 5 (hold-out against
//!   progressive validation), as plain record rows and summaries (the
//!   paper's numbers, typed, in `verdicts/published.rs`).
//! - [`theorems`]: empirical checks of Theorems 1–5 on any
//!   [`Population`](theorems::Population) (the synthetic problem, or a real
//!   learner on a real dataset with a test set as the distribution).
//! - [`stream`]: the running progressive loss of a learner over a data
//!   stream, beside the hold-out estimate and the test-set error.
//! - [`kind`]: the `progressive` experiment kind (the `Kind` impl), with
//!   its config schema in [`config`], planning (every check, one cell per
//!   run) in `plan.rs` (a real population's data in `load.rs`), running a
//!   cell in `run.rs`, the typed record rows in
//!   [`rows`], tables and figures in [`render`] and the scorecard in
//!   [`verdicts`].

pub mod config;
mod error;
pub mod exact;
pub mod generator;
pub mod kind;
mod load;
pub mod paper;
mod plan;
pub mod render;
pub mod rows;
mod run;
pub mod stats;
pub mod stream;
pub mod theorems;
pub mod verdicts;

pub use error::ProgressiveError;

#[cfg(test)]
mod tests;
