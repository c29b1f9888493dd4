//! The `progressive` experiment kind: configs → cells → records for the
//! BKL reproduction (Figure 1, the table, delays), the theorem checks
//! (synthetic and real populations) and progressive loss on data streams.
//!
//! Every record has the same columns (see [`Row`]): the shared core columns,
//! then the studies' own; a column that does not apply to a study holds
//! `""`, `-1` or NaN (`None` in the typed row). The parts live beside this
//! file: the schema in [`config`](super::config), planning in `plan.rs`,
//! running a cell in `run.rs`, the rows in [`rows`](super::rows), tables and
//! figures in [`render`](super::render) and the scorecard in
//! [`verdicts`](super::verdicts).

use std::path::Path;

use super::plan;
use crate::experiments::{About, ExperimentError, Kind};
use crate::results::Record;

pub use super::config::{
    BklSection, Figure1Spec, KfCfg, PopulationCfg, ProgressiveConfig, PvCfg, StreamBlock,
    SyntheticCfg, TableSpec, TheoremBlock,
};
pub use super::rows::Row;
pub use super::verdicts::published::PUBLISHED;

/// The `progressive` experiment kind.
pub struct ProgressiveKind;

/// What the report and the runner say of this kind, and how it plans a
/// config and renders a run.
const ABOUT: About = About {
    name: "progressive",
    title: "Progressive validation vs hold-out — Blum, Kalai, Langford (COLT 1999)",
    notes_folder: "progressive",
    sources: &[
        "src/experiments/progressive",
        "crates/cvbench-engine/src/cv",
        "crates/cvbench-engine/src/learners",
    ],
    cost_unit: None,
    key_parts: &["study"],
    required_columns: &["study", "procedure", "n", "estimate"],
    plan: |cfg, ctx| Ok(Box::new(plan::plan(cfg, ctx)?)),
    render: |dir, config, records| {
        let c = super::config::parse(config)?;
        super::render::render(dir, &c, records)
    },
};

impl Kind for ProgressiveKind {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn overview(
        &self,
        _root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<std::path::PathBuf>)>, ExperimentError> {
        let md = super::verdicts::conclusions::overview(runs)?;
        Ok((!md.is_empty()).then_some((md, Vec::new())))
    }

    fn scorecard(
        &self,
        runs: &[&crate::results::scorecard::StoredRun],
    ) -> Result<Vec<crate::results::scorecard::ScoreRow>, ExperimentError> {
        Ok(super::verdicts::scorecard::scorecard(runs)?)
    }
}
