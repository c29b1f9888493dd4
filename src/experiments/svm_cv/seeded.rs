//! Records of a CV run with our solver, seeded or not: one row per round
//! (with the rows it predicted wrong, so that seeded runs can be compared
//! with the baseline row by row), plus one row per extra solve (the full
//! model of AVG/TOP, the inner nodes of the tree) with `fold = -2`.

use super::fold_row;
use crate::data::Dataset;
use crate::results::Record;
use crate::svm::cv::{CvResult, CvRound};
use crate::svm::folds::Folds;
use crate::svm::smo::SolveStats;
use crate::svm::SeededCvResult;

fn counters(s: &SolveStats) -> [f64; 6] {
    [
        s.kernel_evals as f64,
        s.cache_hits as f64,
        s.cache_misses as f64,
        s.shared_hits as f64,
        s.shrink_events as f64,
        s.kkt_violation,
    ]
}

/// The record of one round.
pub(super) fn round_row(base: &Record, r: &CvRound, cv_accuracy_pct: f64, wall: f64) -> Record {
    let s = &r.stats;
    fold_row(
        base,
        r.fold as i64,
        r.n_train,
        r.n_test,
        r.correct,
        s.iterations,
        s.objective,
        s.rho,
        s.n_sv,
        s.n_bsv,
        counters(s),
        [s.timings.init_s, s.timings.train_s, s.timings.predict_s],
        cv_accuracy_pct,
        wall,
    )
}

/// The columns every `svm_cv` record ends with: seeding seconds, what the
/// row is (`round`, `cv`, `extra: ...`), the held-out rows predicted wrong
/// (space-separated, empty when unknown), and how the solves ran.
pub(super) fn push_tail(
    row: &mut Record,
    seed_s: f64,
    role: &str,
    wrong_rows: String,
    parallel: bool,
    shared_cache: bool,
) {
    row.push("seed_s", seed_s);
    row.push("role", role);
    row.push("wrong_rows", wrong_rows);
    row.push("parallel", parallel);
    row.push("shared_cache", shared_cache);
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

/// Every record of a seeded CV run.
pub(super) fn seeded_rows(
    base: &Record,
    data: &Dataset,
    folds: &Folds,
    res: &SeededCvResult,
    wall: f64,
) -> Vec<Record> {
    let acc = res.cv.accuracy_pct;
    let mut out: Vec<Record> = res
        .cv
        .rounds
        .iter()
        .map(|r| {
            let mut row = round_row(base, r, acc, wall);
            let wrong = wrong_rows(data, folds, &res.cv, r);
            push_tail(
                &mut row,
                r.seed_s,
                "round",
                wrong,
                res.parallel,
                res.shared_cache,
            );
            row
        })
        .collect();
    for e in &res.extra {
        let s = &e.stats;
        let mut row = fold_row(
            base,
            -2,
            e.n_train,
            0,
            0,
            s.iterations,
            s.objective,
            s.rho,
            s.n_sv,
            s.n_bsv,
            counters(s),
            [s.timings.init_s, s.timings.train_s, 0.0],
            acc,
            wall,
        );
        let role = format!("extra: {}", e.label);
        push_tail(
            &mut row,
            e.seed_s,
            &role,
            String::new(),
            res.parallel,
            res.shared_cache,
        );
        out.push(row);
    }
    out
}
