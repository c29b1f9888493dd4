//! Rows of a CV run with our solver, seeded or not: one row per round
//! (with the rows it predicted wrong, so that seeded runs can be compared
//! with the baseline row by row), plus one row per extra solve (the full
//! model of AVG/TOP, the inner nodes of the tree) with `fold = -2`; and the
//! row parts every method's rows share.

use super::rows::SvmRow;
use cvbench_engine::data::Dataset;
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::cv::{CvResult, CvRound};
use cvbench_engine::svm::smo::SolveStats;
use cvbench_engine::svm::SeededCvResult;

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

/// Wen et al.'s first-rounds estimate: the timed wall seconds (median, min,
/// max) of a cell that ran the first `ran` of `k` rounds become those of
/// all `k` rounds, the one-off solves' seconds `once_s` (AVG and TOP's full
/// model) counted once and the rest `k / ran` times. The cell's measured
/// seconds stay in `cell_wall_s` (and the core `seconds`); the rows of the
/// rounds run say how many ran ([`first_rounds_of`]).
pub(super) fn estimate_whole_run(rows: &mut [SvmRow], once_s: f64, ran: usize, k: usize) {
    let whole = |wall: f64| {
        let once = once_s.clamp(0.0, wall);
        once + (wall - once) * k as f64 / ran.max(1) as f64
    };
    for r in rows {
        r.wall_median_s = r.wall_median_s.map(whole);
        r.wall_min_s = r.wall_min_s.map(whole);
        r.wall_max_s = r.wall_max_s.map(whole);
    }
}

/// `Some((rounds run, k))` when one CV run's rows (our solver's) hold
/// fewer rounds than its k: a first-rounds estimate, whose wall seconds
/// are estimated ([`estimate_whole_run`]); `None` for a whole run.
pub fn first_rounds_of<'a>(rows: impl IntoIterator<Item = &'a SvmRow>) -> Option<(u64, u64)> {
    let mut ran = 0;
    let mut k = 0;
    for r in rows {
        if r.fold >= 0 && !r.order.is_empty() {
            ran += 1;
            k = r.k_value;
        }
    }
    (ran > 0 && ran < k).then_some((ran, k))
}

/// Each class pair's SMO iterations, space-separated (the
/// `pair_iterations` column of one-vs-one rows).
pub(super) fn pair_iterations(iters: &[u64]) -> String {
    iters
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
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

/// A round row's role: `round`, [`ROLE_ONE_CLASS`] where the training rows
/// held one class, or [`ROLE_ROUND_AGAIN`] where the warm-started solve was
/// degenerate and the round was solved again from zero
/// ([`CvRound::cold_resolve`]).
fn round_role(r: &CvRound) -> &'static str {
    if r.single_class {
        ROLE_ONE_CLASS
    } else if r.cold_resolve {
        ROLE_ROUND_AGAIN
    } else {
        ROLE_ROUND
    }
}

/// The role of a round's row; the other roles of a round start with it.
pub const ROLE_ROUND: &str = "round";

/// The role of a round whose training rows hold one class: LIBSVM's
/// degenerate case (`svm_train` with one class), which solves nothing and
/// gives a model predicting that class (objective 0, no support vectors),
/// ours and `svm-train`'s alike.
pub const ROLE_ONE_CLASS: &str =
    "round, one class in the training fold (LIBSVM's degenerate case: no solve, objective 0, the model predicts that class)";

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
        r.shared_extra_kernel_evals_sched = res
            .shared_cache
            .then_some(res.cv.shared_extra_kernel_evals as f64);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(fold: i64, k: u64, wall: f64) -> SvmRow {
        SvmRow {
            fold,
            k_value: k,
            order: "chain".into(),
            wall_median_s: Some(wall),
            wall_min_s: Some(wall - 1.0),
            wall_max_s: Some(wall + 1.0),
            ..SvmRow::default()
        }
    }

    /// The estimate counts the one-off solves once and scales the rest by
    /// k / rounds run; whole runs are not estimates.
    #[test]
    fn whole_run_estimate_from_first_rounds() {
        // 10 of 100 rounds in 12 s, of which a 2 s full model: 2 + 10 * 10.
        let mut rows = vec![round(0, 100, 12.0), round(1, 100, 12.0)];
        rows.push(SvmRow {
            fold: -2,
            ..round(-2, 100, 12.0)
        });
        estimate_whole_run(&mut rows, 2.0, 10, 100);
        assert_eq!(rows[0].wall_median_s, Some(102.0));
        assert_eq!(rows[0].wall_min_s, Some(2.0 + 9.0 * 10.0));
        assert_eq!(rows[2].wall_max_s, Some(2.0 + 11.0 * 10.0));
        // Two round rows of k = 100: an estimate from 2 rounds.
        assert_eq!(first_rounds_of(&rows), Some((2, 100)));
        let whole: Vec<SvmRow> = (0..3).map(|h| round(h, 3, 1.0)).collect();
        assert_eq!(first_rounds_of(&whole), None);
        // LIBSVM's rows (no order) are never an estimate.
        let peer = SvmRow {
            order: String::new(),
            ..round(0, 3, 1.0)
        };
        assert_eq!(first_rounds_of([&peer]), None);
    }
}
