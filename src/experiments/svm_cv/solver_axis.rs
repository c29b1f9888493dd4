//! The solver axis of the `svm_cv` rows (issue 44): the solvers' order in
//! the registry, and whether a run has another solver than the SMO (only
//! then do the tables, and the lines of our speed targets, name the
//! solver). Read by `render/` and `verdicts/` alike; the speed-up cell the
//! tables write is in `render/markdown.rs`.

use crate::experiments::cell_key::CellKey;
use cvbench_engine::api::strategies::SolverKind;

/// A solver's place in the registry's order (unknown names last), so that
/// a method's runs on each solver are listed side by side, the SMO first.
pub fn solver_rank(name: &str) -> usize {
    SolverKind::parse(name)
        .and_then(|k| SolverKind::ALL.iter().position(|&s| s == k))
        .unwrap_or(SolverKind::ALL.len())
}

/// Whether the rows hold a run of another solver than the SMO: only then
/// do the tables show the solver (a run of the SMO alone renders as it did
/// before the axis).
pub fn has_solver_axis<'a>(solvers: impl IntoIterator<Item = &'a str>) -> bool {
    solvers
        .into_iter()
        .any(|s| !s.is_empty() && s != SolverKind::Smo.as_str())
}

/// A cell's key with its solver: the SMO's keys are those of a config
/// without `solvers` (its stored cells stay valid); another solver is a
/// field of the key.
pub fn with_solver(key: CellKey, solver: SolverKind) -> CellKey {
    if solver == SolverKind::Smo {
        key
    } else {
        key.field("solver", solver.as_str())
    }
}

/// A run's name in tables, figures and verdicts: its method, with
/// `+<solver>` where another solver than the SMO ran it (an empty solver is
/// a record made before the axis: the SMO).
pub fn method_label(method: &str, solver: &str) -> String {
    if solver.is_empty() || solver == SolverKind::Smo.as_str() {
        method.to_string()
    } else {
        format!("{method}+{solver}")
    }
}
