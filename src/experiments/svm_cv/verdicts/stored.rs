//! What Wen et al.'s verdicts read from a stored run: its seeding table
//! (`seeding.parquet`, written by the run's render from its records) and,
//! from its records, the baseline's support-vector fraction, a cell's timed
//! runs, and the rounds solved again from zero with their cost.

use super::scorecard_rules::{Resolved, Spread};
use crate::experiments::svm_cv::rows::{SeedingRow, SvmRow};
use crate::results::rows::from_records;
use crate::results::scorecard::StoredRun;
use crate::results::table::{from_frame, read_parquet};

/// The seeding table of a run (empty when it has none or it does not read).
pub fn seeding_rows(run: &StoredRun) -> Vec<SeedingRow> {
    let p = run.dir.join("seeding.parquet");
    if !p.is_file() {
        return Vec::new();
    }
    read_parquet(&p)
        .and_then(|df| from_frame(&df))
        .and_then(|records| from_records(&records))
        .unwrap_or_default()
}

/// The baseline's mean nSV / training rows over the rounds of (dataset,
/// setting, k) in a run's records.
pub fn sv_fraction(records: &[SvmRow], dataset: &str, setting: &str, k: &str) -> Option<f64> {
    let f: Vec<f64> = records
        .iter()
        .filter(|r| {
            r.core.dataset == dataset
                && r.setting == setting
                && r.k == k
                && r.core.method == "ours"
                && r.fold >= 0
                && r.n_train > 0
        })
        .map(|r| r.n_sv as f64 / r.n_train as f64)
        .collect();
    (!f.is_empty()).then(|| f.iter().sum::<f64>() / f.len() as f64)
}

/// The timed runs of method `m`'s cell for (dataset, setting, k) in a
/// run's records (one run for a cell timed once; `None` when the records
/// have no wall times or no rows).
pub fn spread_of(
    records: &[SvmRow],
    dataset: &str,
    setting: &str,
    k: &str,
    m: &str,
) -> Option<Spread> {
    let r = rounds_of(records, dataset, setting, k, m).next()?;
    Some(Spread {
        median: r.wall_median_s?,
        min: r.wall_min_s?,
        max: r.wall_max_s?,
        repeats: r.timing_repeats,
        runs: crate::experiments::timing::parse_runs(&r.wall_runs_s),
    })
    .filter(|s| s.repeats >= 1)
}

/// The round rows of method `m` at (dataset, setting, k).
pub fn rounds_of<'a>(
    records: &'a [SvmRow],
    dataset: &'a str,
    setting: &'a str,
    k: &'a str,
    m: &'a str,
) -> impl Iterator<Item = &'a SvmRow> {
    records.iter().filter(move |r| {
        r.core.dataset == dataset
            && r.setting == setting
            && r.k == k
            && r.core.method == m
            && r.fold >= 0
    })
}

/// How many of method `m`'s rounds (dataset, setting, k) were solved again
/// from zero, out of its rounds.
pub fn resolved_of(records: &[SvmRow], dataset: &str, setting: &str, k: &str, m: &str) -> Resolved {
    let (again, rounds) = rounds_of(records, dataset, setting, k, m).fold((0, 0), |(a, n), r| {
        (
            a + usize::from(r.role == crate::experiments::svm_cv::seeded::ROLE_ROUND_AGAIN),
            n + 1,
        )
    });
    Resolved {
        method: m.to_string(),
        again,
        rounds,
    }
}

/// The summed seconds method `m`'s rounds solved again from zero spent on
/// their solves from zero (dataset, setting, k): a re-solve is the
/// baseline's solve of the same round (same training rows, `alpha = 0`),
/// so each costs the baseline's round seconds of that fold (set-up,
/// training, prediction); 0 without re-solves or a baseline.
pub fn resolve_cost_of(records: &[SvmRow], dataset: &str, setting: &str, k: &str, m: &str) -> f64 {
    let again = crate::experiments::svm_cv::seeded::ROLE_ROUND_AGAIN;
    rounds_of(records, dataset, setting, k, m)
        .filter(|r| r.role == again)
        .filter_map(|r| {
            rounds_of(records, dataset, setting, k, "ours")
                .find(|b| b.fold == r.fold)
                .map(|b| b.init_s.unwrap_or(0.0) + b.train_s + b.predict_s.unwrap_or(0.0))
        })
        .sum()
}
