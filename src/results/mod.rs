//! Results: record tables (Polars), figures (plotters), manifests and the report.

pub mod atomic;
pub mod figures;
pub mod manifest;
pub mod md_table;
pub mod report;
pub mod rows;
pub mod scorecard;
pub mod table;

pub use table::{Record, ResultsError, Value};
