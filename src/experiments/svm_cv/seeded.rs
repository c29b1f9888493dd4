//! Rows of a CV run with our solver, seeded or not: one row per round
//! (with the rows it predicted wrong, so that seeded runs can be compared
//! with the baseline row by row), plus one row per extra solve (the full
//! model of AVG/TOP, the inner nodes of the tree) with `fold = -2`; and the
//! row parts every method's rows share.

use super::rows::SvmRow;
use crate::data::Dataset;
use crate::svm::cv::{CvResult, CvRound};
use crate::svm::folds::Folds;
use crate::svm::smo::SolveStats;
use crate::svm::SeededCvResult;

/// How a row's solves ran: the columns every `svm_cv` row ends with.
pub(super) struct Tail {
    /// Seeding seconds (`None` for LIBSVM).
    pub seed_s: Option<f64>,
    /// What the row is (`round`, `cv`, `extra: ...`).
    pub role: String,
    /// The held-out rows predicted wrong, space-separated (empty when unknown).
    pub wrong_rows: String,
    /// Whether the solves ran in parallel.
    pub parallel: bool,
    /// Whether the solves shared one kernel cache.
    pub shared_cache: bool,
}

/// `base` for the solve of held-out fold `fold` (-1: `svm-train -v k`,
/// -2: an extra solve) with its sizes, and the row's tail.
pub(super) fn fold_row(
    base: &SvmRow,
    fold: i64,
    [n_train, n_test, correct]: [usize; 3],
    tail: Tail,
) -> SvmRow {
    SvmRow {
        fold,
        n_train: n_train as u64,
        n_test: n_test as u64,
        correct: correct as u64,
        fold_accuracy_pct: (n_test > 0).then(|| 100.0 * correct as f64 / n_test as f64),
        seed_s: tail.seed_s,
        role: tail.role,
        wrong_rows: tail.wrong_rows,
        parallel: tail.parallel,
        shared_cache: tail.shared_cache,
        ..base.clone()
    }
}

/// The cell's CV accuracy and wall seconds, on every row of the cell.
pub(super) fn finish(rows: &mut [SvmRow], cv_accuracy_pct: Option<f64>, wall: f64) {
    for r in rows {
        r.cv_accuracy_pct = cv_accuracy_pct;
        r.cell_wall_s = wall;
        r.core.seconds = wall;
    }
}

/// `row` with the statistics of our solver's solve (prediction seconds
/// `predict_s`).
pub(super) fn solved(mut row: SvmRow, s: &SolveStats, predict_s: f64) -> SvmRow {
    row.iterations = s.iterations;
    row.objective = Some(s.objective);
    row.rho = Some(s.rho);
    row.n_sv = s.n_sv as u64;
    row.n_bsv = s.n_bsv as u64;
    row.kernel_evals = Some(s.kernel_evals as f64);
    row.cache_hits = Some(s.cache_hits as f64);
    row.cache_misses = Some(s.cache_misses as f64);
    row.shared_hits = Some(s.shared_hits as f64);
    row.shrink_events = Some(s.shrink_events as f64);
    row.kkt_violation = Some(s.kkt_violation);
    row.init_s = Some(s.timings.init_s);
    row.train_s = s.timings.train_s;
    row.predict_s = Some(predict_s);
    row
}

/// The row of one round.
pub(super) fn round_row(base: &SvmRow, r: &CvRound, tail: Tail) -> SvmRow {
    let row = fold_row(base, r.fold as i64, [r.n_train, r.n_test, r.correct], tail);
    solved(row, &r.stats, r.stats.timings.predict_s)
}

/// The held-out rows of round `r` that `res` predicted wrong.
pub(super) fn wrong_rows(data: &Dataset, folds: &Folds, res: &CvResult, r: &CvRound) -> String {
    folds
        .test_rows(r.fold)
        .iter()
        .filter(|&&i| res.predictions[i] != data.y[i])
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A round row's role: `round`, or [`ROLE_ROUND_AGAIN`] where the
/// warm-started solve was degenerate and the round was solved again from
/// zero ([`CvRound::cold_resolve`]).
fn round_role(r: &CvRound) -> &'static str {
    if r.cold_resolve {
        ROLE_ROUND_AGAIN
    } else {
        "round"
    }
}

/// The role of a round solved again from zero (see [`round_role`]).
pub const ROLE_ROUND_AGAIN: &str = "round, solved again from zero";

/// Every row of a seeded CV run (accuracy and wall time left to [`finish`]).
pub(super) fn seeded_rows(
    base: &SvmRow,
    data: &Dataset,
    folds: &Folds,
    res: &SeededCvResult,
) -> Vec<SvmRow> {
    let tail = |seed_s: f64, role: String, wrong_rows: String| Tail {
        seed_s: Some(seed_s),
        role,
        wrong_rows,
        parallel: res.parallel,
        shared_cache: res.shared_cache,
    };
    let mut out: Vec<SvmRow> = res
        .cv
        .rounds
        .iter()
        .map(|r| {
            let wrong = wrong_rows(data, folds, &res.cv, r);
            round_row(base, r, tail(r.seed_s, round_role(r).into(), wrong))
        })
        .collect();
    for e in &res.extra {
        let role = format!("extra: {}", e.label);
        let row = fold_row(
            base,
            -2,
            [e.n_train, 0, 0],
            tail(e.seed_s, role, String::new()),
        );
        out.push(solved(row, &e.stats, 0.0));
    }
    for r in &mut out {
        r.block_kernel_evals = Some(res.cv.block_kernel_evals as f64);
        r.shared_kernel_evals = res
            .shared_cache
            .then_some(res.cv.shared_kernel_evals as f64);
    }
    out
}
