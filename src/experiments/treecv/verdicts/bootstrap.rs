//! Bootstrap confidence intervals on Table 2's spread ratios: the
//! repetitions of a (dataset, learner, n) block are resampled with
//! replacement (the same repetitions for every column and k, since a
//! repetition's permutation is shared by them), and each resample's
//! std(k = 100) / std(k = 5) per column and standard-fixed / TreeCV-fixed std
//! at k = 100 are recomputed. The 2.5% and 97.5% quantiles are the interval.
//! Seeded from the run's config seed, so the intervals are the same on
//! every render.

use crate::experiments::treecv::rows::{TreecvRow, COLS};
use cvbench_engine::api::seed;
use rand::RngExt as _;
use std::collections::BTreeMap;

/// Resamples per interval.
pub const RESAMPLES: usize = 2000;

/// 95% intervals of a block's ratios.
#[derive(Clone, Debug, PartialEq)]
pub struct RatioIntervals {
    /// std(k=100)/std(k=5) per column of [`COLS`], (low, high).
    pub shrink: [(f64, f64); 4],
    /// Standard-fixed / TreeCV-fixed std at k = 100, (low, high).
    pub std_over_tree: (f64, f64),
    /// Resamples drawn.
    pub resamples: usize,
}

fn std(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    if v.len() < 2 {
        return f64::NAN;
    }
    let m = v.iter().sum::<f64>() / n;
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// The intervals of (dataset, learner, n) from a run's rows, seeded by
/// `config_seed`; `None` when a column lacks k = 5 or k = 100 or fewer than
/// two repetitions have every value.
pub fn intervals(
    rows: &[TreecvRow],
    dataset: &str,
    learner: &str,
    n: i64,
    config_seed: u64,
) -> Option<RatioIntervals> {
    // rep -> [column][k5, k100] estimates.
    let mut by_rep: BTreeMap<i64, [[Option<f64>; 2]; 4]> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.core.dataset == dataset && r.learner == learner && r.n == n)
    {
        let Some(c) = COLS
            .iter()
            .position(|(m, o, _)| r.core.method == *m && r.order == *o)
        else {
            continue;
        };
        let slot = match r.k.as_str() {
            "5" => 0,
            "100" => 1,
            _ => continue,
        };
        by_rep.entry(r.core.rep.unwrap_or(-1)).or_default()[c][slot] = Some(r.estimate);
    }
    let complete: Vec<[[f64; 2]; 4]> = by_rep
        .values()
        .filter_map(|v| {
            let mut out = [[0.0; 2]; 4];
            for c in 0..4 {
                for s in 0..2 {
                    out[c][s] = v[c][s]?;
                }
            }
            Some(out)
        })
        .collect();
    if complete.len() < 2 {
        return None;
    }
    let mut rng = seed::rng(seed::derive(
        config_seed,
        &format!("bootstrap|data={dataset}|learner={learner}|n={n}"),
    ));
    let r = complete.len();
    let mut shrink: [Vec<f64>; 4] = Default::default();
    let mut over = Vec::with_capacity(RESAMPLES);
    let mut col = vec![0.0; r];
    let mut idx = vec![0usize; r];
    for _ in 0..RESAMPLES {
        for i in idx.iter_mut() {
            *i = rng.random_range(0..r);
        }
        let mut s100 = [0.0; 4];
        for (c, out) in shrink.iter_mut().enumerate() {
            let mut sd = [0.0; 2];
            for (s, v) in sd.iter_mut().enumerate() {
                for (j, &i) in idx.iter().enumerate() {
                    col[j] = complete[i][c][s];
                }
                *v = std(&col);
            }
            s100[c] = sd[1];
            out.push(sd[1] / sd[0]);
        }
        over.push(s100[2] / s100[0]);
    }
    let ci = |v: &mut Vec<f64>| {
        // A resample whose k = 5 spread is zero has no ratio: left out.
        v.retain(|x| x.is_finite());
        v.sort_by(f64::total_cmp);
        (quantile(v, 0.025), quantile(v, 0.975))
    };
    let mut out = [(f64::NAN, f64::NAN); 4];
    for (c, v) in shrink.iter_mut().enumerate() {
        out[c] = ci(v);
    }
    Some(RatioIntervals {
        shrink: out,
        std_over_tree: ci(&mut over),
        resamples: RESAMPLES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    /// One PEGASOS row of dataset `d` at n = 100.
    fn row(rep: usize, method: &str, order: &str, k: &str, estimate: f64) -> TreecvRow {
        TreecvRow {
            core: Core {
                dataset: "d".into(),
                method: method.into(),
                rep: Some(rep as i64),
                ..Core::default()
            },
            learner: "pegasos".into(),
            order: order.into(),
            k: k.into(),
            n: 100,
            estimate,
            ..TreecvRow::default()
        }
    }

    fn rows(spread100: f64, reps: usize) -> Vec<TreecvRow> {
        let mut out = Vec::new();
        for rep in 0..reps {
            let u = ((rep * 7919) % 101) as f64 / 100.0 - 0.5;
            for (m, o, _) in COLS {
                for (k, s) in [("5", 0.01), ("100", spread100)] {
                    let wide = if m == "standard" { 2.0 } else { 1.0 };
                    out.push(row(rep, m, o, k, 0.3 + s * u * wide));
                }
            }
        }
        out
    }

    #[test]
    fn intervals_cover_the_ratio_are_seeded_and_narrow_with_repetitions() {
        let r = rows(0.005, 100);
        let a = intervals(&r, "d", "pegasos", 100, 7).unwrap();
        assert_eq!(a, intervals(&r, "d", "pegasos", 100, 7).unwrap(), "seeded");
        assert_ne!(a, intervals(&r, "d", "pegasos", 100, 8).unwrap());
        assert_eq!(a.resamples, RESAMPLES);
        // Every column's spread halves exactly: the ratio is 0.5 in every
        // resample, and standard's spread is twice TreeCV's.
        for (lo, hi) in a.shrink {
            assert!(
                (lo - 0.5).abs() < 1e-9 && (hi - 0.5).abs() < 1e-9,
                "{lo} {hi}"
            );
        }
        assert!((a.std_over_tree.0 - 2.0).abs() < 1e-9);
        assert!(intervals(&r, "d", "pegasos", 999, 7).is_none());
    }

    /// Independent noise at k = 5 and k = 100: the interval covers the
    /// true ratio (0.5) and narrows with more repetitions.
    #[test]
    fn intervals_cover_the_true_ratio_and_narrow_with_more_repetitions() {
        let noisy = |reps: usize| -> Vec<TreecvRow> {
            let mut rng = seed::rng(3);
            let mut out = Vec::new();
            for rep in 0..reps {
                for (m, o, _) in COLS {
                    for (k, s) in [("5", 0.02), ("100", 0.01)] {
                        // A sum of uniforms: close to normal, sd = s.
                        let z: f64 = (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0;
                        out.push(row(rep, m, o, k, 0.3 + s * z));
                    }
                }
            }
            out
        };
        let width = |c: &RatioIntervals| c.shrink[0].1 - c.shrink[0].0;
        let few = intervals(&noisy(20), "d", "pegasos", 100, 1).unwrap();
        let rows = noisy(400);
        let many = intervals(&rows, "d", "pegasos", 100, 1).unwrap();
        for (c, (lo, hi)) in many.shrink.iter().enumerate() {
            // The sample's own ratio lies inside its interval, and near the
            // true 0.5 (its s.e. is about 0.035 here).
            let (m, o, _) = COLS[c];
            let est = |k: &str| -> Vec<f64> {
                rows.iter()
                    .filter(|r| r.core.method == m && r.order == o && r.k == k)
                    .map(|r| r.estimate)
                    .collect()
            };
            let point = std(&est("100")) / std(&est("5"));
            assert!(*lo < point && point < *hi, "{lo} {point} {hi}");
            assert!(
                (point - 0.5).abs() < 0.12 && hi - lo < 0.3,
                "{lo} {point} {hi}"
            );
        }
        assert!(width(&many) < 0.5 * width(&few), "{many:?} {few:?}");
    }
}
