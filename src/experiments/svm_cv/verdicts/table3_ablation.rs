//! Table 3 points from runs without a seeding table. An ablation run (its
//! methods at several kernel caches or thread counts, named by variant)
//! writes no seeding table, yet holds the baseline (rounds one by one from
//! zero) and SIR (one chain) at each of its set-ups: each set-up's pair at
//! one of the paper's k is a like-with-like point of the Table 3 row of that
//! (dataset, setting, set-up), judged by the same rule as the seeding
//! tables' points ([`Table3Point::of`], the one evidence rule over the
//! cells' timed runs).

use super::published::TABLE3_K;
use super::scorecard_rules::{Spread, Table3Point};
use crate::experiments::svm_cv::ablation_rows::{ablation, AblationRow};
use crate::experiments::svm_cv::rows::{SeedingRow, SvmRow};

/// A Table 3 row's key: dataset, setting and the set-up in words
/// ([`SvmRow::setup`]).
pub type Table3Key = (String, String, String);

/// The set-up in the seeding tables' words (`shared cache, 2 threads`).
fn setup_words(r: &AblationRow) -> String {
    SvmRow {
        cache: r.cache.clone(),
        threads: r.threads,
        ..SvmRow::default()
    }
    .setup()
}

fn spread(r: &AblationRow) -> Spread {
    Spread {
        median: r.wall_median_s,
        min: r.wall_min_s,
        max: r.wall_max_s,
        repeats: r.repeats,
        runs: r.wall_runs.clone(),
    }
}

/// The Table 3 points of a run's ablation rows: for every SIR chain on our
/// SMO at one of the paper's k on a dataset `is_key` accepts, beside the
/// baseline at the same cache, threads and budget; `paper(k)` is the
/// paper's speed-up at that k.
pub fn ablation_points(
    records: &[SvmRow],
    is_key: impl Fn(&str) -> bool,
    paper: impl Fn(&str) -> f64,
) -> Vec<(Table3Key, Table3Point)> {
    let rows = ablation(records);
    let smo = |r: &&AblationRow| r.solver == "smo";
    let mut out = Vec::new();
    for s in rows.iter().filter(smo).filter(|r| {
        r.seeder == "sir"
            && r.order == "chain"
            && is_key(&r.dataset)
            && TABLE3_K.contains(&r.k.as_str())
    }) {
        let Some(b) = rows.iter().filter(smo).find(|b| {
            b.seeder == "zero"
                && b.order == "per_round"
                && (&b.dataset, &b.setting, &b.k, &b.cache, b.threads)
                    == (&s.dataset, &s.setting, &s.k, &s.cache, s.threads)
                && b.cache_mb.total_cmp(&s.cache_mb).is_eq()
        }) else {
            continue;
        };
        let setup = setup_words(s);
        let seeding_row = |r: &AblationRow| SeedingRow {
            total_s: r.wall_median_s,
            setup: setup.clone(),
            ..SeedingRow::default()
        };
        let point = Table3Point::of(
            &s.k,
            &seeding_row(b),
            &seeding_row(s),
            paper(&s.k),
            (Some(spread(b)), Some(spread(s))),
        );
        out.push(((s.dataset.clone(), s.setting.clone(), setup), point));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(method: &str, cache: &str, order: &str, seeder: &str, runs: &[f64]) -> SvmRow {
        let mut r = SvmRow {
            setting: "m2000".into(),
            k: "10".into(),
            fold: 0,
            role: "round".into(),
            cache: cache.into(),
            order: order.into(),
            seeder: seeder.into(),
            threads: 2,
            cache_mb: Some(2000.0),
            timing_repeats: runs.len() as u64,
            wall_median_s: Some(runs[runs.len() / 2]),
            wall_min_s: Some(runs[0]),
            wall_max_s: Some(runs[runs.len() - 1]),
            wall_runs_s: runs
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(";"),
            ..SvmRow::default()
        };
        r.core.dataset = "a9a".into();
        r.core.method = method.into();
        r
    }

    /// Each cache's baseline and SIR pair make one point, like with like,
    /// with a bootstrap interval; another dataset or a k the paper has not
    /// makes none.
    #[test]
    fn each_setups_pair_is_one_point() {
        let recs = vec![
            round(
                "ours [shared, 2t]",
                "shared",
                "per_round",
                "zero",
                &[9.0, 10.0, 11.0],
            ),
            round(
                "sir [shared, 2t]",
                "shared",
                "chain",
                "sir",
                &[1.9, 2.0, 2.1],
            ),
            round(
                "ours [per_solve, 2t]",
                "per_solve",
                "per_round",
                "zero",
                &[19.0, 20.0, 21.0],
            ),
            round(
                "sir [per_solve, 2t]",
                "per_solve",
                "chain",
                "sir",
                &[4.9, 5.0, 5.1],
            ),
        ];
        let pts = ablation_points(&recs, |d| d == "a9a", |_| 1.8);
        let keys: Vec<&str> = pts.iter().map(|p| p.0 .2.as_str()).collect();
        assert_eq!(
            keys,
            ["per-solve cache, 2 threads", "shared cache, 2 threads"]
        );
        let shared = &pts[1].1;
        assert!(shared.like && shared.not_evidence.is_none(), "{shared:?}");
        assert!((shared.ours.point - 5.0).abs() < 1e-9 && shared.paper == 1.8);
        assert!(ablation_points(&recs, |d| d == "w8a", |_| 1.0).is_empty());
    }
}
