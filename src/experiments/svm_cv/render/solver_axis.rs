//! The solver axis of the `svm_cv` tables (issue 44): the solvers' order
//! in the registry, whether a run has another solver than the SMO (only
//! then do the tables show the solver), and the speed-up cell the ablation
//! and the one-training table write.

use crate::svm::SolverKind;

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

/// A speed-up with its 95% interval (`lo`, `hi`; NaN when timed once) as
/// the tables write it: `2.00x [1.50, 2.75]`, marked inconclusive where
/// the interval holds 1.
pub fn speedup_cell(x: f64, lo: f64, hi: f64) -> String {
    if lo.is_nan() {
        format!("{x:.2}x (timed once: no interval, inconclusive)")
    } else {
        let holds = if lo <= 1.0 && 1.0 <= hi {
            " (inconclusive: the interval holds 1)"
        } else {
            ""
        };
        format!("{x:.2}x [{lo:.2}, {hi:.2}]{holds}")
    }
}
