//! Results: record tables (Polars) and typed rows, Markdown tables, figures
//! (plotters), manifests and scorecard rows. Below the experiment kinds; the
//! report that reads every kind's runs is [`crate::report`].

pub mod atomic;
pub mod columns;
pub mod figures;
pub mod grid_contour;
pub mod manifest;
pub mod md_table;
pub mod output;
pub mod png;
mod record_de;
pub mod rows;
pub mod scorecard;
pub mod table;

pub use table::{Record, ResultsError, Value};
