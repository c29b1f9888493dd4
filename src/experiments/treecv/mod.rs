//! The TreeCV paper (Joulani, György, Szepesvári 2015): TreeCV against
//! standard k-CV for incremental learners, fixed and randomized orders.
//! Table 2 (CV estimates, mean ± std over repetitions) and Figure 2 (running
//! time against n; a PEGASOS row and an LSQSGD row; k-CV fixed, k-CV
//! randomized and LOOCV columns).
//!
//! The parts: the config schema and its checks in [`config`], planning in
//! `plan.rs`, running a cell in `run.rs`, the typed records in [`rows`],
//! rendering a run in `render/` and the comparisons with the paper in
//! [`verdicts`].

use super::{About, ExperimentError, Kind};
use crate::results::rows::from_records;
use crate::results::scorecard::{ScoreRow, StoredRun};
use crate::results::Record;
use std::path::{Path, PathBuf};

pub mod config;
mod plan;
mod render;
pub mod rows;
mod run;
pub mod verdicts;

pub use self::config::{Grid, Method, TreecvConfig, MAX_REPETITIONS};
pub use self::rows::TreecvRow;
pub use super::MAX_CELLS;
/// The learner spec of `[[learners]]` (shared with other kinds).
pub use cvbench_engine::api::learners::{LearnerSpec, LearnerType};

/// The `treecv` experiment kind.
pub struct TreecvKind;

/// What the report and the runner say of this kind, and how it plans a
/// config and renders a run.
const ABOUT: About = About {
    name: "treecv",
    title: "TreeCV vs standard k-CV — Joulani, György, Szepesvári (IJCAI 2015)",
    notes_folder: "treecv",
    sources: &[
        "src/experiments/treecv",
        "crates/cvbench-engine/src/cv",
        "crates/cvbench-engine/src/learners",
    ],
    cost_unit: Some("point updates x stored features per row"),
    key_parts: &["dataset", "learner", "method", "order"],
    required_columns: &["dataset", "learner", "method", "k", "n", "estimate"],
    plan: |cfg, ctx| Ok(Box::new(plan::plan(cfg, ctx)?)),
    render: |dir, config, records| {
        let c: TreecvConfig = config.parse()?;
        render::render(dir, &c, &from_records(records)?)
    },
};

impl Kind for TreecvKind {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn overview(
        &self,
        root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<PathBuf>)>, ExperimentError> {
        let typed = super::typed_runs(runs, from_records::<TreecvRow>)?;
        // The bootstrap intervals are seeded from each run's config seed, as
        // its manifest records it.
        let seeds: verdicts::scorecard::Seeds = runs
            .iter()
            .filter_map(|(name, _)| {
                let text = std::fs::read(root.join(name).join("manifest.json")).ok()?;
                let m: crate::results::manifest::Manifest = serde_json::from_slice(&text).ok()?;
                Some((name.clone(), m.seed))
            })
            .collect();
        let md = verdicts::scorecard::overview(&typed, &seeds)?;
        Ok((!md.is_empty()).then_some((md, Vec::new())))
    }

    /// The scorecard rows; a run whose records do not read as
    /// [`TreecvRow`]s is left out here (rendering it reports the error).
    fn scorecard(&self, runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, ExperimentError> {
        let typed: Vec<(String, Vec<TreecvRow>)> = runs
            .iter()
            .filter_map(|r| Some((r.name.clone(), from_records(&r.records).ok()?)))
            .collect();
        let seeds: verdicts::scorecard::Seeds = runs
            .iter()
            .map(|r| (r.name.clone(), r.manifest.seed))
            .collect();
        Ok(verdicts::scorecard::scorecard(&typed, &seeds)?)
    }
}
