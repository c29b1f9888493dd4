//! Across every `svm_cv` run of a results folder: every exact seeded
//! method of each (dataset, setting, k, cache, threads) against LIBSVM
//! timed in the same run — `svm-train -v k` and the per-fold `svm-train`
//! runs. Like with like: no method is picked after the run (each exact one
//! has its row), a ratio is printed only against a peer timed in the same
//! run, with its interval by the one evidence rule
//! ([`crate::experiments::evidence`]), and the row names our threads and
//! cache beside `svm-train`'s one thread.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::markdown::cells;
use super::seeding_totals::{exactness, fmt_s, group};
use crate::experiments::evidence::{self, Sample};
use crate::experiments::svm_cv::rows::{write_rows, BenchRow, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::timing::{parse_runs, Spread};
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;

/// A cell's timed runs from its first row: every repeat where the records
/// keep them, else the median and range, else `fallback` seconds timed once.
fn sample_of(r: &SvmRow, fallback: f64) -> Sample {
    match (r.wall_median_s, r.wall_min_s, r.wall_max_s) {
        (Some(median), Some(min), Some(max)) if r.timing_repeats >= 1 => Sample::from(Spread {
            median,
            min,
            max,
            repeats: r.timing_repeats,
            runs: parse_runs(&r.wall_runs_s),
        }),
        _ => Sample::once(fallback),
    }
}

/// LIBSVM's timings of one run per (dataset, setting, k): `svm-train -v k`
/// (its timed runs) and the per-fold runs (the sum of the processes'
/// seconds, one timing).
type Peers = BTreeMap<(String, String, String), (Option<Sample>, Option<f64>)>;

fn peers_of(rows: &[SvmRow]) -> Peers {
    let mut out = Peers::new();
    for r in rows {
        let key = (r.core.dataset.clone(), r.setting.clone(), r.k.clone());
        match r.core.method.as_str() {
            "libsvm_v" => out.entry(key).or_default().0 = Some(sample_of(r, r.train_s)),
            "libsvm" => {
                let f = out.entry(key).or_default().1.get_or_insert(0.0);
                *f += r.train_s + r.predict_s.unwrap_or(f64::NAN).max(0.0);
            }
            _ => {}
        }
    }
    out
}

/// A method's rows by set-up: its cache and threads.
fn setups<'a>(rr: &[&'a SvmRow]) -> BTreeMap<(String, u64), Vec<&'a SvmRow>> {
    let mut s: BTreeMap<(String, u64), Vec<&'a SvmRow>> = BTreeMap::new();
    for r in rr {
        s.entry((r.cache.clone(), r.threads)).or_default().push(*r);
    }
    s
}

/// The benchmark across runs: for every run with seeded methods and a
/// LIBSVM peer timed in the same run, one row per exact seeded method and
/// (cache, threads) set-up.
fn benchmark(runs: &[(String, Vec<SvmRow>)]) -> Vec<BenchRow> {
    let mut out = Vec::new();
    for (run, rows) in runs {
        let peers = peers_of(rows);
        for (key, methods) in &group(rows) {
            let Some(&(ref v, per_fold)) = peers.get(key) else {
                continue;
            };
            let Some(base) = methods.get("ours") else {
                continue;
            };
            // Whole runs only: a first-rounds estimate is no wall time.
            if first_rounds_of(base.iter().copied()).is_some() {
                continue;
            }
            let bases = setups(base);
            for (m, rr) in methods.iter().filter(|(m, _)| m.as_str() != "ours") {
                for ((cache, threads), got) in setups(rr) {
                    // The baseline at the same set-up where it ran, else any.
                    let b = bases
                        .get(&(cache.clone(), threads))
                        .or_else(|| bases.values().next())
                        .expect("ours has rows");
                    let (gap, folds, _) = exactness(b, &got);
                    if gap > 1e-3 || folds.iter().any(|f| f.1 > 1) {
                        continue;
                    }
                    let ours = sample_of(got[0], got[0].cell_wall_s);
                    let vs = v.as_ref().map(|p| evidence::ratio(p, &ours));
                    let vs_fold = per_fold.map(|s| s / ours.median());
                    out.push(BenchRow {
                        run: run.clone(),
                        dataset: key.0.clone(),
                        setting: key.1.clone(),
                        k: key.2.clone(),
                        method: m.clone(),
                        cache: cache.clone(),
                        threads,
                        wall_s: ours.median(),
                        timed_runs: ours.repeats(),
                        baseline_wall_s: sample_of(b[0], b[0].cell_wall_s).median(),
                        accuracy_pct: got[0].cv_accuracy_pct.unwrap_or(f64::NAN),
                        baseline_accuracy_pct: b[0].cv_accuracy_pct.unwrap_or(f64::NAN),
                        svm_train_v_s: v.as_ref().map_or(f64::NAN, Sample::median),
                        svm_train_v_runs: v.as_ref().map_or(0, Sample::repeats),
                        speedup_vs_svm_train_v: vs.map_or(f64::NAN, |r| r.point),
                        speedup_vs_svm_train_v_lo: vs.map_or(f64::NAN, |r| r.lo),
                        speedup_vs_svm_train_v_hi: vs.map_or(f64::NAN, |r| r.hi),
                        speedup_words: vs.map_or_else(|| "–".into(), |r| r.short()),
                        per_fold_s: per_fold.unwrap_or(f64::NAN),
                        speedup_vs_per_fold: vs_fold.unwrap_or(f64::NAN),
                    });
                }
            }
        }
    }
    out
}

fn benchmark_table(rows: &[BenchRow]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "**Benchmark: every exact seeded method against LIBSVM timed in the same run** (`svm-seeding-vs-svm-train.csv`; wall seconds of the whole k-fold CV on this machine, the median of the cell's timed runs; every exact seeded method of the run has its row, none picked after the run; our threads and kernel cache as recorded (– where the run predates the record), `svm-train` on one thread with its own `-m` cache; the speed-up against `svm-train -v k` with its 95% interval by the one evidence rule ({}); the per-fold `svm-train` runs (sum of the processes, timed once) where they ran; runs without a LIBSVM peer of their own have no row)\n", evidence::RULE);
    let mut t = MdTable::new("run | dataset | setting | k | method | cache | threads | its wall s (runs) | our baseline wall s | svm-train -v k s (runs) | speed-up vs svm-train -v k | svm-train per fold s | speed-up vs per fold | acc % (baseline)".split(" | "));
    for r in rows {
        let opt = |x: f64, s: String| if x.is_nan() { "–".into() } else { s };
        t.row(cells(
            [&r.run, &r.dataset, &r.setting, &r.k],
            [
                r.method.clone(),
                if r.cache.is_empty() {
                    "–".into()
                } else {
                    r.cache.clone()
                },
                if r.threads == 0 {
                    "–".into()
                } else {
                    r.threads.to_string()
                },
                format!("{} ({})", fmt_s(r.wall_s), r.timed_runs),
                fmt_s(r.baseline_wall_s),
                opt(
                    r.svm_train_v_s,
                    format!("{} ({})", fmt_s(r.svm_train_v_s), r.svm_train_v_runs),
                ),
                r.speedup_words.clone(),
                opt(r.per_fold_s, fmt_s(r.per_fold_s)),
                opt(
                    r.speedup_vs_per_fold,
                    format!("{:.1}x (timed once)", r.speedup_vs_per_fold),
                ),
                format!("{:.4} ({:.4})", r.accuracy_pct, r.baseline_accuracy_pct),
            ],
        ));
    }
    md + &t.markdown() + "\n"
}

/// The benchmark section of the overview of every run, and its table
/// `svm-seeding-vs-svm-train` in `root` (nothing when no seeded run has a
/// LIBSVM peer).
pub(crate) fn benchmark_section(
    root: &Path,
    runs: &[(String, Vec<SvmRow>)],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let bench = benchmark(runs);
    if bench.is_empty() {
        return Ok((String::new(), Vec::new()));
    }
    let files = write_rows(&bench, root, "svm-seeding-vs-svm-train")?;
    Ok((benchmark_table(&bench), files))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, fold: i64, wall: f64, cache: &str) -> SvmRow {
        let mut r = SvmRow {
            setting: "s".into(),
            k: "10".into(),
            fold,
            objective: Some(-1.0),
            cv_accuracy_pct: Some(90.0),
            cell_wall_s: wall,
            train_s: wall,
            threads: 2,
            cache: cache.into(),
            ..SvmRow::default()
        };
        r.core.dataset = "d".into();
        r.core.method = method.into();
        r
    }

    fn timed(mut r: SvmRow, runs: &[f64]) -> SvmRow {
        let mut s = runs.to_vec();
        s.sort_by(f64::total_cmp);
        r.timing_repeats = runs.len() as u64;
        r.wall_median_s = Some(s[s.len() / 2]);
        r.wall_min_s = Some(s[0]);
        r.wall_max_s = Some(s[s.len() - 1]);
        r.wall_runs_s = runs
            .iter()
            .map(f64::to_string)
            .collect::<Vec<_>>()
            .join(";");
        r
    }

    /// Every exact method and set-up has its row (none picked), the ratio
    /// is against the same run's peer with a bootstrap interval, and a run
    /// without a peer of its own has no row (another run's is no
    /// like-with-like timing).
    #[test]
    fn every_method_against_the_same_runs_peer_only() {
        let run = vec![
            timed(row("ours", 0, 10.0, "shared"), &[10.0, 11.0, 9.0]),
            timed(row("sir", 0, 2.0, "shared"), &[2.0, 2.1, 1.9]),
            timed(row("tree", 0, 3.0, "shared"), &[3.0, 3.1, 2.9]),
            timed(row("sir", 0, 4.0, "per_solve"), &[4.0, 4.1, 3.9]),
            timed(row("libsvm_v", -1, 40.0, ""), &[40.0, 41.0, 39.0]),
            row("libsvm", 0, 30.0, ""),
            row("libsvm", 1, 30.0, ""),
        ];
        let b = benchmark(&[("a".into(), run.clone())]);
        let got: Vec<(&str, &str)> = b
            .iter()
            .map(|r| (r.method.as_str(), r.cache.as_str()))
            .collect();
        assert_eq!(
            got,
            [("sir", "per_solve"), ("sir", "shared"), ("tree", "shared")],
            "{b:?}"
        );
        let sir = &b[1];
        assert_eq!((sir.speedup_vs_svm_train_v, sir.per_fold_s), (20.0, 60.0));
        assert!(sir.speedup_vs_svm_train_v_lo <= 20.0 && sir.speedup_vs_svm_train_v_hi >= 20.0);
        assert!(sir.speedup_words.contains('['), "{}", sir.speedup_words);
        let md = benchmark_table(&b);
        assert!(md.contains("| sir | shared | 2 | 2.00 (3) |"), "{md}");
        // A peer in another run only: no row.
        let ours_only: Vec<SvmRow> = run
            .iter()
            .filter(|r| !r.core.method.starts_with("libsvm"))
            .cloned()
            .collect();
        let other = run
            .iter()
            .filter(|r| r.core.method.starts_with("libsvm"))
            .cloned()
            .collect();
        assert!(benchmark(&[("a".into(), ours_only), ("old".into(), other)]).is_empty());
        // A peer timed once: the ratio has no interval, said so.
        let mut once = run.clone();
        once[4] = row("libsvm_v", -1, 40.0, "");
        let b = benchmark(&[("a".into(), once)]);
        assert!(b[1].speedup_words.contains("timed once"), "{b:?}");
    }
}
