//! Across every `svm_cv` run of a results folder: the fastest exact seeded
//! method of each (dataset, setting, k) against LIBSVM — `svm-train -v k`
//! and the per-fold `svm-train` runs, each preferably timed in the same run
//! as ours (else from another run, and the table says which).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::markdown::cells;
use super::seeding_totals::{exactness, fmt_s, group};
use crate::experiments::svm_cv::rows::{write_rows, BenchRow, Key, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;

/// The benchmark across runs: for every (dataset, setting, k) with seeded
/// runs, the fastest exact method's whole-run wall time against LIBSVM's
/// `svm-train -v k` (or, where only that was run, `svm-train` on each of our
/// folds) from any run of the results folder, with the runs named.
fn benchmark(runs: &[(String, Vec<SvmRow>)]) -> Vec<BenchRow> {
    // Every LIBSVM timing: (run, (dataset, setting, k), -v?, seconds).
    let mut peers: Vec<(String, Key, bool, f64)> = Vec::new();
    for (run, rows) in runs {
        let mut per_fold: BTreeMap<Key, f64> = BTreeMap::new();
        for r in rows {
            let key = (r.core.dataset.clone(), r.setting.clone(), r.k.clone());
            match r.core.method.as_str() {
                "libsvm_v" => {
                    peers.push((run.clone(), key, true, r.wall_median_s.unwrap_or(r.train_s)))
                }
                "libsvm" => {
                    *per_fold.entry(key).or_default() +=
                        r.train_s + r.predict_s.unwrap_or(f64::NAN).max(0.0)
                }
                _ => {}
            }
        }
        peers.extend(
            per_fold
                .into_iter()
                .map(|(k, s)| (run.clone(), k, false, s)),
        );
    }
    // The peer of a kind for a key: the same run's first, else another's.
    let peer_of = |run: &str, key: &Key, v: bool| {
        let of = |same: bool| {
            peers
                .iter()
                .find(|p| &p.1 == key && p.2 == v && (p.0 == run) == same)
        };
        of(true).or_else(|| of(false))
    };
    let mut out = Vec::new();
    for (run, rows) in runs {
        let mut seeding: BTreeMap<Key, BenchRow> = BTreeMap::new();
        for (key, methods) in &group(rows) {
            let Some(base) = methods.get("ours") else {
                continue;
            };
            // Whole runs only: a first-rounds estimate is no wall time.
            if first_rounds_of(base.iter().copied()).is_some() {
                continue;
            }
            for (m, rr) in methods {
                if m == "ours" {
                    continue;
                }
                let (gap, folds, _) = exactness(base, rr);
                if gap > 1e-3 || folds.iter().any(|f| f.1 > 1) {
                    continue;
                }
                let wall = rr
                    .first()
                    .map_or(f64::NAN, |r| r.wall_median_s.unwrap_or(r.cell_wall_s));
                let acc = rr[0].cv_accuracy_pct.unwrap_or(f64::NAN);
                let e = seeding.entry(key.clone()).or_insert(BenchRow {
                    best_exact_method: m.clone(),
                    best_wall_s: wall,
                    baseline_wall_s: base[0].wall_median_s.unwrap_or(base[0].cell_wall_s),
                    threads: rr[0].threads,
                    baseline_accuracy_pct: base[0].cv_accuracy_pct.unwrap_or(f64::NAN),
                    accuracy_pct: acc,
                    ..BenchRow::default()
                });
                if wall < e.best_wall_s {
                    (e.best_exact_method, e.best_wall_s, e.accuracy_pct) = (m.clone(), wall, acc);
                    e.threads = rr[0].threads;
                }
            }
        }
        for ((d, st, k), best) in seeding {
            let key = (d.clone(), st.clone(), k.clone());
            let v = peer_of(run, &key, true);
            let f = peer_of(run, &key, false);
            let Some(primary) = v.or(f) else {
                continue;
            };
            let how = if primary.2 {
                "svm-train -v k"
            } else {
                "svm-train per fold (sum)"
            };
            out.push(BenchRow {
                run: run.clone(),
                dataset: d,
                setting: st,
                k,
                peer_run: primary.0.clone(),
                peer: how.into(),
                peer_s: primary.3,
                speedup_vs_peer: primary.3 / best.best_wall_s,
                peer_same_run: primary.0 == *run,
                per_fold_s: f.map_or(f64::NAN, |p| p.3),
                per_fold_run: f.map_or(String::new(), |p| p.0.clone()),
                speedup_vs_per_fold: f.map_or(f64::NAN, |p| p.3 / best.best_wall_s),
                ..best
            });
        }
    }
    out
}
fn benchmark_table(rows: &[BenchRow]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "**Benchmark: the fastest exact seeded method against LIBSVM** (`svm-seeding-vs-svm-train.csv`; wall seconds of the whole k-fold CV on this machine, the median where a cell was timed several times; the threads of our best run as recorded (– where the run predates the record; seeded runs then used the fold-shared cache and, where the method allows, both cores); `svm-train` is single-threaded; each LIBSVM time comes from the run named — \"same run\" when it was timed beside ours, else from another run and session on the same machine, which is no like-for-like timing; both `svm-train -v k` and the per-fold runs where either was timed)\n");
    let mut t = MdTable::new("run | dataset | setting | k | best exact method | threads | its wall s | our baseline wall s | LIBSVM | LIBSVM s (run) | speed-up vs LIBSVM | svm-train per fold s (run) | speed-up vs per fold | acc % (baseline)".split(" | "));
    for r in rows {
        t.row(cells(
            [&r.run, &r.dataset, &r.setting, &r.k],
            [
                r.best_exact_method.clone(),
                if r.threads == 0 {
                    "–".into()
                } else {
                    r.threads.to_string()
                },
                fmt_s(r.best_wall_s),
                fmt_s(r.baseline_wall_s),
                r.peer.clone(),
                format!(
                    "{} ({})",
                    fmt_s(r.peer_s),
                    if r.peer_same_run {
                        "same run".to_string()
                    } else {
                        format!("{}, another run", r.peer_run)
                    }
                ),
                format!("{:.1}x", r.speedup_vs_peer),
                if r.per_fold_s.is_nan() {
                    "not run".into()
                } else {
                    format!("{} ({})", fmt_s(r.per_fold_s), r.per_fold_run)
                },
                if r.speedup_vs_per_fold.is_nan() {
                    "–".into()
                } else {
                    format!("{:.1}x", r.speedup_vs_per_fold)
                },
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

    fn row(method: &str, fold: i64, wall: f64) -> SvmRow {
        let mut r = SvmRow {
            setting: "s".into(),
            k: "10".into(),
            fold,
            objective: Some(-1.0),
            cv_accuracy_pct: Some(90.0),
            cell_wall_s: wall,
            train_s: wall,
            threads: 2,
            ..SvmRow::default()
        };
        r.core.dataset = "d".into();
        r.core.method = method.into();
        r
    }

    /// The LIBSVM time of the same run wins over another run's, and both
    /// `-v` and the per-fold runs are reported.
    #[test]
    fn the_same_runs_peer_first_and_both_peers_reported() {
        let ours = vec![row("ours", 0, 10.0), row("sir", 0, 2.0)];
        let mut with_v = ours.clone();
        with_v.push(row("libsvm_v", -1, 40.0));
        let other = vec![
            row("libsvm_v", -1, 80.0),
            row("libsvm", 0, 30.0),
            row("libsvm", 1, 30.0),
        ];
        let b = benchmark(&[("a".into(), with_v), ("old".into(), other.clone())]);
        assert_eq!(b.len(), 1, "{b:?}");
        assert!(b[0].peer_same_run && b[0].peer_s == 40.0, "{b:?}");
        assert_eq!((b[0].speedup_vs_peer, b[0].per_fold_s), (20.0, 60.0));
        assert_eq!(b[0].per_fold_run, "old");
        let md = benchmark_table(&b);
        assert!(
            md.contains("same run") && md.contains("60.00 (old)"),
            "{md}"
        );
        // Without a peer of its own, another run's, said so.
        let b = benchmark(&[("a".into(), ours), ("old".into(), other)]);
        assert!(!b[0].peer_same_run && b[0].peer_s == 80.0, "{b:?}");
        assert!(benchmark_table(&b).contains("old, another run"));
    }
}
