//! SVM k-fold cross-validation (Wen et al., AAAI 2017, the "LibSVM" baseline
//! of their Tables 1 and 3): every round trains a C-SVC from alpha = 0 with
//! our SMO solver, beside LIBSVM's own `svm-train` run on exactly the same
//! training folds (the peer), and our shared-cache parallel variant.
//!
//! One cell = one dataset × setting × k × method: a whole CV run, recorded
//! one row per round (fold), plus a `fold = -1` row for `svm-train -v k`.
//!
//! Files: `config.rs` (schema, checks), `setting.rs` (one `[[settings]]`
//! entry), `plan.rs` (config → cells; `one_vs_one.rs` on more than two
//! classes, `variants.rs` the method names of cache / thread / solver
//! variants), `run.rs`, `seeded.rs` and `multiclass.rs` (a cell → rows),
//! `rows.rs` (the typed rows, and the tables derived from them), and from
//! stored rows only: `ablation_rows.rs` and `cost_rows.rs` (the ablation's
//! and the cost table's rows, with `solver_axis.rs`: what both `render/`
//! and `verdicts/` read), `render/` (a run's section, one file per table or
//! figure, and the overview of every run) and `verdicts/` (the paper's
//! published numbers, the scorecard and its rules; they never import
//! `render/`). A config with `svm_type` other than `c_svc` (nu-SVC,
//! one-class, epsilon-SVR, nu-SVR; issue 56) runs `formulation/` instead:
//! its own plan, cells and rows, rendered by `render/formulation.rs` and
//! judged by `verdicts/formulation.rs`.

pub mod ablation_rows;
pub mod config;
pub mod cost_rows;
pub mod formulation;
mod multiclass;
mod one_vs_one;
mod plan;
pub mod render;
pub mod rows;
mod run;
mod seeded;
mod setting;
pub mod solver_axis;
mod variants;
pub mod verdicts;

pub use config::{FoldMode, Method, Setting, SvmCvConfig, PUBLISHED};

use super::{About, ExperimentError, Kind, Rendered};
use crate::results::scorecard::{ScoreRow, StoredRun};
use crate::results::Record;
use cvbench_engine::api::formulation::SvmType;
use rows::SvmRow;
use std::path::{Path, PathBuf};

/// The `svm_cv` experiment kind.
pub struct SvmCvKind;

/// What the report and the runner say of this kind, and how it plans a
/// config and renders a run.
const ABOUT: About = About {
    name: "svm_cv",
    title: "SVM k-fold CV — Wen et al. (AAAI 2017)",
    notes_folder: "svm",
    sources: &[
        "src/experiments/svm_cv",
        "src/experiments/timing.rs",
        "src/experiments/memory.rs",
        "src/cli/memory.rs",
        "crates/cvbench-engine/src/svm",
    ],
    cost_unit: Some("training rows x rounds x timed repetitions"),
    key_parts: &["dataset", "setting", "k", "method"],
    required_columns: &[
        "dataset",
        "setting",
        "method",
        "k",
        "fold",
        "correct",
        "iterations",
    ],
    plan: |cfg, ctx| {
        let c: SvmCvConfig = cfg.parse()?;
        match c.formulation(cfg)? {
            SvmType::CSvc => Ok(Box::new(plan::plan(cfg, ctx)?)),
            t => {
                plan::check_duplicates(cfg, &c)?;
                Ok(Box::new(formulation::plan::plan(cfg, ctx, c, t)?))
            }
        }
    },
    render: |dir, config, records| {
        let c: SvmCvConfig = config.parse()?;
        if c.formulation(config)? != SvmType::CSvc {
            let rows = formulation::rows::FormulationRow::read(records)?;
            let (md, files) = render::formulation::render(dir, c.name.get_ref(), &rows)?;
            return Rendered::section(dir, md, String::new(), files);
        }
        let rows = variants::plain_names(SvmRow::read(records)?);
        let (mut md, mut files) = render::render(dir, &c, &rows)?;
        let (seeding_md, seeding_files) = render::seeding::render(dir, c.name.get_ref(), &rows)?;
        md.push_str(&seeding_md);
        files.extend(seeding_files);
        Rendered::section(dir, md, String::new(), files)
    },
};

impl Kind for SvmCvKind {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    /// Training rows summed over the stored rounds, times their timed
    /// repetitions: [`Plan::cost`](super::Plan::cost)'s unit, from the records.
    fn stored_cost(&self, records: &[Record]) -> Option<f64> {
        let rows = SvmRow::read(records).ok()?;
        let cost: f64 = rows
            .iter()
            .filter(|r| r.fold >= 0 && r.role.starts_with(seeded::ROLE_ROUND))
            .map(|r| r.n_train as f64 * r.timing_repeats.max(1) as f64)
            .sum();
        (cost > 0.0).then_some(cost)
    }

    fn overview(
        &self,
        root: &Path,
        runs: &[(String, Vec<Record>)],
    ) -> Result<Option<(String, Vec<PathBuf>)>, ExperimentError> {
        // Runs of the other formulations have their own sections only.
        let runs: Vec<(String, Vec<Record>)> = runs
            .iter()
            .filter(|(_, r)| !formulation::is_formulation_run(r))
            .cloned()
            .collect();
        let typed = super::typed_runs(&runs, |r| SvmRow::read(r).map(variants::plain_names))?;
        // The benchmark first, then our SMO against svm-train.
        let (mut md, mut files) = render::benchmark::benchmark_section(root, &typed)?;
        md.push_str(&render::flips::section(&typed));
        let (vs_md, vs_files) = render::overview::overview(root, &typed)?;
        if md.is_empty() && vs_md.is_empty() {
            return Ok(None);
        }
        md.push_str(&vs_md);
        files.extend(vs_files);
        Ok(Some((md, files)))
    }

    fn scorecard(&self, runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, ExperimentError> {
        let (other, c_svc): (Vec<&StoredRun>, Vec<&StoredRun>) = runs
            .iter()
            .partition(|r| formulation::is_formulation_run(&r.records));
        let mut out = verdicts::scorecard::scorecard(&c_svc)?;
        out.extend(verdicts::formulation::scorecard(&other));
        Ok(out)
    }
}
