//! Model selection over a (C, gamma) grid (issue 19): LIBSVM's `grid.py`
//! reproduced point for point with reuse across grid points and folds, its
//! cost per reuse level, and Hsu, Chang & Lin's practical guide (Appendix A)
//! reproduced from a config.
//!
//! One cell = one dataset × reuse level × gamma row of the grid (rows per
//! point and fold, and one with the cell's costs), plus one `svm-grid` peer
//! cell per dataset and one guide cell per `[[guide]]` entry.
//!
//! Files: `config.rs` (schema, published numbers), `plan.rs` (config →
//! cells), `run.rs` (a cell → rows; `ovo.rs` on more than two classes),
//! `rows.rs` (the typed rows), and from
//! stored rows only: `levels.rs` (the rows per reuse level and grid.py's
//! choice, read by both of the next), `render/` (the section, tables,
//! contour) and `verdicts/` (the scorecard and its rules; they never import
//! `render/`). A config with `svm_type` other than `c_svc` (issue 56) runs
//! `formulation/`: a (C, gamma, epsilon or nu) grid beside independent
//! `svm-train -s N -v k` calls, rendered by `render/formulation.rs` and
//! judged by `verdicts/formulation.rs`.

pub mod config;
pub mod formulation;
pub mod levels;
mod ovo;
mod plan;
mod render;
pub mod rows;
mod run;
pub mod verdicts;

use super::{About, ExperimentError, Kind, Rendered};
use crate::results::scorecard::{ScoreRow, StoredRun};
use config::SvmGridConfig;
use cvbench_engine::api::formulation::SvmType;
use rows::GridRow;

/// The `svm_grid` experiment kind.
pub struct SvmGridKind;

/// What the report and the runner say of this kind, and how it plans a
/// config and renders a run.
const ABOUT: About = About {
    name: "svm_grid",
    title: "Model selection — Hsu, Chang & Lin's practical guide and grid.py",
    notes_folder: "guide",
    sources: &[
        "src/experiments/svm_grid",
        "src/experiments/timing.rs",
        "crates/cvbench-engine/src/svm",
    ],
    cost_unit: None,
    key_parts: &["dataset", "reuse level or peer", "test set"],
    required_columns: &["dataset", "role", "k", "iterations", "kernel_evals"],
    plan: |cfg, ctx| {
        let c: SvmGridConfig = cfg.parse()?;
        match formulation::formulation(cfg, &c)? {
            SvmType::CSvc => Ok(Box::new(plan::plan(cfg, ctx)?)),
            t => Ok(Box::new(formulation::plan(cfg, ctx, c, t)?)),
        }
    },
    render: |dir, config, records| {
        let c: SvmGridConfig = config.parse()?;
        if formulation::formulation(config, &c)? != SvmType::CSvc {
            let rows = formulation::rows::FormulationGridRow::read(records)?;
            let (md, files) = render::formulation::render(dir, c.name.get_ref(), &rows)?;
            return Rendered::section(dir, md, String::new(), files);
        }
        let grid = c.grid(config)?;
        let rows = GridRow::read(records)?;
        let (md, files) = render::render(dir, &c, &grid, &rows)?;
        Rendered::section(dir, md, String::new(), files)
    },
};

impl Kind for SvmGridKind {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn scorecard(&self, runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, ExperimentError> {
        let is_f = |r: &&&StoredRun| {
            crate::experiments::svm_cv::formulation::is_formulation_run(&r.records)
        };
        let (other, c_svc): (Vec<&StoredRun>, Vec<&StoredRun>) = runs.iter().partition(is_f);
        let mut out = verdicts::scorecard::scorecard(&c_svc)?;
        out.extend(verdicts::formulation::scorecard(&other));
        Ok(out)
    }
}
