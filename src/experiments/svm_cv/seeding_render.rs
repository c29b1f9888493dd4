//! The alpha-seeding part of an `svm_cv` run's report (Wen et al. 2017):
//! Table 1 (k = 10: init and rest seconds, iterations, accuracy per method),
//! the exactness check of every seeded run against the baseline (objective
//! per fold, held-out rows that flipped), Table 3 (baseline vs SIR vs tree
//! at k = 3, 10, 100, with speed-ups beside the paper's) and the
//! leave-one-out figure (time of each method relative to SIR), all computed
//! from the run's records and `experiments/svm/published.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

use super::PUBLISHED;
use crate::experiments::ExperimentError;
use crate::results::figures::{self, Figure, Panel, Series};
use crate::results::table::{to_frame, write_table};
use crate::results::Record;

/// The baseline and the seeded methods, in table order.
pub(super) const METHODS: [&str; 7] = ["ours", "ato", "mir", "sir", "avg", "top", "tree"];

#[derive(Deserialize, Default)]
struct Published {
    #[serde(default)]
    table1: Vec<toml::Table>,
    #[serde(default)]
    table3: Vec<toml::Table>,
}

fn num(t: &toml::Table, key: &str) -> f64 {
    match t.get(key) {
        Some(toml::Value::Float(f)) => *f,
        Some(toml::Value::Integer(i)) => *i as f64,
        _ => f64::NAN,
    }
}

fn pub_row<'a>(rows: &'a [toml::Table], dataset: &str) -> Option<&'a toml::Table> {
    let d = dataset.to_lowercase();
    rows.iter().find(|t| {
        t.get("dataset")
            .and_then(|v| v.as_str())
            .is_some_and(|p| d.contains(p))
    })
}

/// Totals of one (dataset, setting, k, method) run.
#[derive(Clone, Debug, Default)]
pub(super) struct RunTotals {
    /// Seeding seconds plus the solver set-up of seeded solves.
    pub init_s: f64,
    /// Everything else: SMO, prediction, extra solves' SMO.
    pub rest_s: f64,
    /// SMO iterations of the rounds and the extra solves.
    pub iterations: f64,
    /// CV accuracy %.
    pub accuracy: f64,
    /// Majority-class rate %.
    pub majority: f64,
    /// Rounds.
    pub rounds: usize,
}

impl RunTotals {
    /// init + rest.
    pub fn total(&self) -> f64 {
        self.init_s + self.rest_s
    }
}

type Key = (String, String, String); // dataset, setting, k

/// Group round and extra rows of our solver's methods by (dataset, setting, k) and method.
fn group(records: &[Record]) -> BTreeMap<Key, BTreeMap<String, Vec<&Record>>> {
    let mut out: BTreeMap<Key, BTreeMap<String, Vec<&Record>>> = BTreeMap::new();
    for r in records {
        let m = r.text("method");
        if !METHODS.contains(&m.as_str()) {
            continue;
        }
        out.entry((r.text("dataset"), r.text("setting"), r.text("k")))
            .or_default()
            .entry(m)
            .or_default()
            .push(r);
    }
    out
}

pub(super) fn totals(rows: &[&Record], method: &str) -> RunTotals {
    let mut t = RunTotals::default();
    for r in rows {
        let seed = r.number("seed_s");
        let seed = if seed.is_finite() { seed } else { 0.0 };
        let init = r.number("init_s");
        let seeded = method != "ours" && r.number("fold") >= 0.0 && seed > 0.0;
        let (i, rest) = if seeded {
            (seed + init, r.number("train_s") + r.number("predict_s"))
        } else {
            (
                seed,
                init + r.number("train_s") + r.number("predict_s").max(0.0),
            )
        };
        t.init_s += i;
        t.rest_s += rest;
        t.iterations += r.number("iterations");
        if r.number("fold") >= 0.0 {
            t.rounds += 1;
        }
    }
    if let Some(r) = rows.first() {
        t.accuracy = r.number("cv_accuracy_pct");
        t.majority = r.number("majority_pct");
    }
    t
}

/// Exactness of a seeded run against the baseline: the largest relative
/// objective gap over folds, the folds whose correct count differs, and the
/// held-out rows whose prediction flipped (from `wrong_rows`).
pub(super) fn exactness(base: &[&Record], got: &[&Record]) -> (f64, Vec<(i64, usize)>, usize) {
    let by_fold = |rows: &[&Record]| -> BTreeMap<i64, (f64, i64, BTreeSet<String>)> {
        rows.iter()
            .filter(|r| r.number("fold") >= 0.0)
            .map(|r| {
                let wrong = r
                    .text("wrong_rows")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                (
                    r.number("fold") as i64,
                    (r.number("objective"), r.number("correct") as i64, wrong),
                )
            })
            .collect()
    };
    let (b, g) = (by_fold(base), by_fold(got));
    let mut gap = 0.0f64;
    let mut folds = Vec::new();
    let mut flipped = 0;
    for (h, (ob, cb, wb)) in &b {
        let Some((og, cg, wg)) = g.get(h) else {
            gap = f64::INFINITY;
            continue;
        };
        gap = gap.max((ob - og).abs() / ob.abs().max(1e-12));
        let flips = wb.symmetric_difference(wg).count();
        flipped += flips;
        if cb != cg || flips > 0 {
            folds.push((*h, flips));
        }
    }
    (gap, folds, flipped)
}

fn fmt_s(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.4}")
    }
}

/// The seeding sections of a run's report, and their tables and figure.
pub(super) fn render(
    dir: &Path,
    run: &str,
    records: &[Record],
) -> Result<(String, Vec<std::path::PathBuf>), ExperimentError> {
    let groups = group(records);
    let seeded_any = groups
        .values()
        .any(|m| m.keys().any(|k| k.as_str() != "ours"));
    if !seeded_any {
        return Ok((String::new(), vec![]));
    }
    let published: Published = toml::from_str(PUBLISHED).unwrap_or_default();
    let mut md = String::new();
    let mut files = Vec::new();
    let mut rows = Vec::new();
    for ((d, st, k), methods) in &groups {
        let base = methods.get("ours");
        let bt = base.map(|b| totals(b, "ours"));
        for (m, rr) in methods {
            let t = totals(rr, m);
            let (gap, folds, flipped) = match base {
                Some(b) if m != "ours" => exactness(b, rr),
                _ => (0.0, vec![], 0),
            };
            let max_flips = folds.iter().map(|f| f.1).max().unwrap_or(0);
            let verdict = if m == "ours" {
                "baseline"
            } else if base.is_none() {
                "no baseline"
            } else if gap <= 1e-3 && max_flips <= 1 {
                "exact"
            } else {
                "NOT EXACT"
            };
            rows.push(
                Record::new()
                    .with("dataset", d.as_str())
                    .with("setting", st.as_str())
                    .with("k", k.as_str())
                    .with("method", m.as_str())
                    .with("rounds", t.rounds)
                    .with("init_s", t.init_s)
                    .with("rest_s", t.rest_s)
                    .with("total_s", t.total())
                    .with("iterations", t.iterations)
                    .with("accuracy_pct", t.accuracy)
                    .with("majority_pct", t.majority)
                    .with(
                        "speedup_vs_baseline",
                        bt.as_ref().map_or(f64::NAN, |b| b.total() / t.total()),
                    )
                    .with("max_rel_objective_gap", gap)
                    .with(
                        "folds_changed",
                        folds
                            .iter()
                            .map(|(h, f)| format!("{h}:{f}"))
                            .collect::<Vec<_>>()
                            .join(" "),
                    )
                    .with("rows_flipped", flipped)
                    .with("exactness", verdict),
            );
        }
    }
    files.extend(write_table(&to_frame(&rows)?, dir, "seeding")?);
    let sorted_k = |k: &str| -> f64 {
        if k == "n" {
            f64::INFINITY
        } else {
            k.parse().unwrap_or(f64::NAN)
        }
    };
    let mut sorted: Vec<&Record> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        (a.text("dataset"), a.text("setting"))
            .cmp(&(b.text("dataset"), b.text("setting")))
            .then(sorted_k(&a.text("k")).total_cmp(&sorted_k(&b.text("k"))))
            .then(
                METHODS
                    .iter()
                    .position(|m| *m == a.text("method"))
                    .cmp(&METHODS.iter().position(|m| *m == b.text("method"))),
            )
    });
    let _ = writeln!(md, "**Alpha seeding: every method against the baseline** (`seeding.csv`; init = seeding plus the solver's set-up from the seed, rest = SMO and prediction, extra solves (AVG/TOP's full model, the tree's inner nodes) included; exact = every fold's objective within 1e-3 relative of the baseline's and at most one held-out row flipped per fold; `ours` = our LibSVM-equivalent baseline)\n");
    let _ = writeln!(md, "| dataset | setting | k | method | init s | rest s | total s | speed-up | #iter | acc % | majority % | max obj gap | folds changed (fold:rows) | exact |");
    let _ = writeln!(
        md,
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for r in &sorted {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2}x | {:.0} | {:.2} | {:.2} | {:.1e} | {} | {} |",
            r.text("dataset"),
            r.text("setting"),
            r.text("k"),
            r.text("method"),
            fmt_s(r.number("init_s")),
            fmt_s(r.number("rest_s")),
            fmt_s(r.number("total_s")),
            r.number("speedup_vs_baseline"),
            r.number("iterations"),
            r.number("accuracy_pct"),
            r.number("majority_pct"),
            r.number("max_rel_objective_gap"),
            if r.text("folds_changed").is_empty() { "none".to_string() } else { r.text("folds_changed") },
            r.text("exactness"),
        );
    }
    md.push('\n');
    md.push_str(&paper_tables(&rows, &published));
    if let Some(fig) = loocv_figure(run, &rows) {
        files.extend(figures::render(&fig, dir, "loocv_relative_to_sir")?);
        let _ = writeln!(
            md,
            "![Leave-one-out time relative to SIR, run {run}]({run}/loocv_relative_to_sir.svg)\n"
        );
    }
    Ok((md, files))
}

fn find<'a>(rows: &'a [Record], d: &str, st: &str, k: &str, m: &str) -> Option<&'a Record> {
    rows.iter().find(|r| {
        r.text("dataset") == d
            && r.text("setting") == st
            && r.text("k") == k
            && r.text("method") == m
    })
}

/// Table 1 (k = 10) and Table 3 (k = 3, 10, 100) beside the published values.
fn paper_tables(rows: &[Record], p: &Published) -> String {
    let mut md = String::new();
    let pairs: BTreeSet<(String, String)> = rows
        .iter()
        .map(|r| (r.text("dataset"), r.text("setting")))
        .collect();
    let mut t1 = String::new();
    for (d, st) in &pairs {
        let Some(pr) = pub_row(&p.table1, d) else {
            continue;
        };
        for (m, pm) in [
            ("ours", "libsvm"),
            ("ato", "ato"),
            ("mir", "mir"),
            ("sir", "sir"),
            ("tree", ""),
        ] {
            let Some(r) = find(rows, d, st, "10", m) else {
                continue;
            };
            let (pi, prs, pit) = if pm == "libsvm" {
                (0.0, num(pr, "libsvm_s"), num(pr, "libsvm_iterations"))
            } else if pm.is_empty() {
                (f64::NAN, f64::NAN, f64::NAN)
            } else {
                (
                    num(pr, &format!("{pm}_init_s")),
                    num(pr, &format!("{pm}_rest_s")),
                    num(pr, &format!("{pm}_iterations")),
                )
            };
            let pacc = num(pr, "libsvm_accuracy");
            let pit = if pit.is_nan() {
                "–".to_string()
            } else {
                format!("{pit:.0}")
            };
            let _ = writeln!(
                t1,
                "| {d} | {st} | {m} | {} | {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} |",
                fmt_s(pi),
                fmt_s(prs),
                fmt_s(r.number("init_s")),
                fmt_s(r.number("rest_s")),
                pit,
                r.number("iterations"),
                pacc,
                r.number("accuracy_pct"),
                r.number("majority_pct")
            );
        }
    }
    if !t1.is_empty() {
        let _ = writeln!(md, "**Beside the paper's Table 1 (k = 10; their seconds: C++ on a 6-core E5-2620; ours: this machine; `ours` row = our LibSVM-equivalent baseline beside their LibSVM; `tree` is ours, not in the paper; the paper's accuracy is LibSVM's = SIR's)**\n");
        let _ = writeln!(md, "| dataset | setting | method | paper init s | paper rest s | ours init s | ours rest s | paper #iter | ours #iter | paper acc % | ours acc % | majority % |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|---|");
        md.push_str(&t1);
        md.push('\n');
    }
    let mut t3 = String::new();
    for (d, st) in &pairs {
        let pr = pub_row(&p.table3, d);
        for (col, k) in ["3", "10", "100"].iter().enumerate() {
            let Some(b) = find(rows, d, st, k, "ours") else {
                continue;
            };
            let paper = pr.and_then(|t| {
                let l = t.get("libsvm_s")?.as_array()?.get(col)?.as_float()?;
                let s = t.get("sir_s")?.as_array()?.get(col)?.as_float()?;
                Some((l, s))
            });
            let sir = find(rows, d, st, k, "sir");
            let tree = find(rows, d, st, k, "tree");
            let t = |r: Option<&Record>| r.map_or(f64::NAN, |r| r.number("total_s"));
            let bt = b.number("total_s");
            let _ = writeln!(
                t3,
                "| {d} | {st} | {k} | {} | {} | {} | {:.2}x | {} | {} | {:.2}x | {:.2}x |",
                paper.map_or("–".into(), |p| fmt_s(p.0)),
                paper.map_or("–".into(), |p| fmt_s(p.1)),
                paper.map_or("–".into(), |p| format!("{:.2}x", p.0 / p.1)),
                bt / t(sir),
                fmt_s(bt),
                fmt_s(t(sir)),
                bt / t(tree),
                bt / t(sir).min(t(tree)),
            );
        }
    }
    if !t3.is_empty() {
        let _ = writeln!(md, "**Beside the paper's Table 3 (seconds of the whole k-fold CV; speed-up = baseline / method)**\n");
        let _ = writeln!(md, "| dataset | setting | k | paper LibSVM s | paper SIR s | paper SIR speed-up | ours SIR speed-up | ours baseline s | ours SIR s | ours tree speed-up | best of SIR/tree |");
        let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
        md.push_str(&t3);
        md.push('\n');
    }
    md
}

/// The supplement's Figure 2: leave-one-out time of each method relative to
/// SIR, one group of bars per (dataset, setting), log scale.
fn loocv_figure(run: &str, rows: &[Record]) -> Option<Figure> {
    let groups: Vec<(String, String)> = rows
        .iter()
        .filter(|r| r.text("k") == "n" && r.text("method") == "sir")
        .map(|r| (r.text("dataset"), r.text("setting")))
        .collect();
    if groups.is_empty() {
        return None;
    }
    let order = ["ours", "avg", "top", "ato", "mir", "tree"];
    let mut series = Vec::new();
    for (i, m) in order.iter().enumerate() {
        let off = (i as f64 - (order.len() as f64 - 1.0) / 2.0) * 0.8 / order.len() as f64;
        let pts: Vec<(f64, f64, f64)> = groups
            .iter()
            .enumerate()
            .filter_map(|(g, (d, st))| {
                let sir = find(rows, d, st, "n", "sir")?.number("total_s");
                let v = find(rows, d, st, "n", m)?.number("total_s");
                (v.is_finite() && sir > 0.0).then_some((g as f64 + off, v / sir, 0.0))
            })
            .collect();
        if !pts.is_empty() {
            series.push(Series {
                label: if *m == "ours" {
                    "LibSVM baseline (ours)".into()
                } else {
                    m.to_uppercase()
                },
                points: pts,
                color: i,
                marker: i,
                bars: true,
            });
        }
    }
    let reps = rows
        .iter()
        .filter(|r| r.text("k") == "n")
        .map(|r| r.number("rounds"))
        .fold(0.0, f64::max);
    Some(Figure {
        title: format!("Leave-one-out CV time relative to SIR — run `{run}`"),
        caption: format!("bars: total seconds of each method / SIR's (1 = as fast as SIR; log scale); one LOOCV run per bar ({reps:.0} rounds at most)"),
        rows: 1,
        cols: 1,
        panels: vec![Panel {
            title: String::new(),
            x_label: "dataset — setting".into(),
            y_label: "time / SIR time".into(),
            log_y: true,
            x_ticks: groups.iter().map(|(d, st)| format!("{d} — {st}")).collect(),
            series,
            ..Panel::default()
        }],
    })
}

/// The benchmark across runs: for every (dataset, setting, k) with seeded
/// runs, the fastest exact method's whole-run wall time against LIBSVM's
/// `svm-train -v k` (or, where only that was run, `svm-train` on each of our
/// folds) from any run of the results folder, with the runs named.
pub(super) fn benchmark(runs: &[(String, Vec<Record>)]) -> Vec<Record> {
    // (dataset, setting, k) -> (run, seconds) of the peer, -v preferred.
    let mut peer: BTreeMap<Key, (String, String, f64)> = BTreeMap::new();
    for (run, records) in runs {
        for r in records {
            let m = r.text("method");
            let kind = match m.as_str() {
                "libsvm_v" => "svm-train -v k",
                "libsvm" => "svm-train per fold (sum)",
                _ => continue,
            };
            let key = (r.text("dataset"), r.text("setting"), r.text("k"));
            let secs = if m == "libsvm_v" {
                r.number("train_s")
            } else {
                records
                    .iter()
                    .filter(|q| {
                        q.text("method") == "libsvm"
                            && (q.text("dataset"), q.text("setting"), q.text("k")) == key
                    })
                    .map(|q| q.number("train_s") + q.number("predict_s").max(0.0))
                    .sum()
            };
            let better = match peer.get(&key) {
                None => true,
                Some((_, k0, _)) => k0 != "svm-train -v k" && m == "libsvm_v",
            };
            if better {
                peer.insert(key, (run.clone(), kind.to_string(), secs));
            }
        }
    }
    let mut out = Vec::new();
    for (run, records) in runs {
        let groups = group(records);
        let mut seeding = BTreeMap::new();
        for ((d, st, k), methods) in &groups {
            let Some(base) = methods.get("ours") else {
                continue;
            };
            for (m, rr) in methods {
                if m == "ours" {
                    continue;
                }
                let (gap, folds, _) = exactness(base, rr);
                if gap > 1e-3 || folds.iter().any(|f| f.1 > 1) {
                    continue;
                }
                let wall = rr.first().map_or(f64::NAN, |r| r.number("cell_wall_s"));
                let e = seeding
                    .entry((d.clone(), st.clone(), k.clone()))
                    .or_insert((
                        m.clone(),
                        wall,
                        base[0].number("cell_wall_s"),
                        base[0].number("cv_accuracy_pct"),
                        rr[0].number("cv_accuracy_pct"),
                    ));
                if wall < e.1 {
                    *e = (m.clone(), wall, e.2, e.3, rr[0].number("cv_accuracy_pct"));
                }
            }
        }
        for (key, (m, wall, base_wall, base_acc, acc)) in seeding {
            let Some((prun, pkind, psecs)) = peer.get(&key) else {
                continue;
            };
            out.push(
                Record::new()
                    .with("run", run.as_str())
                    .with("dataset", key.0.as_str())
                    .with("setting", key.1.as_str())
                    .with("k", key.2.as_str())
                    .with("best_exact_method", m.as_str())
                    .with("best_wall_s", wall)
                    .with("baseline_wall_s", base_wall)
                    .with("peer_run", prun.as_str())
                    .with("peer", pkind.as_str())
                    .with("peer_s", *psecs)
                    .with("speedup_vs_peer", psecs / wall)
                    .with("accuracy_pct", acc)
                    .with("baseline_accuracy_pct", base_acc),
            );
        }
    }
    out
}

/// The benchmark as Markdown.
pub(super) fn benchmark_table(rows: &[Record]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "**Benchmark: the fastest exact seeded method against LIBSVM** (`svm-seeding-vs-svm-train.csv`; wall seconds of the whole k-fold CV on this machine; our seeded runs use the fold-shared kernel cache and, where the method allows (tree, AVG/TOP), both cores; `svm-train` is single-threaded; the peer's time comes from the run named, measured in another session on the same machine)\n");
    let _ = writeln!(md, "| run | dataset | setting | k | best exact method | its wall s | our baseline wall s | LIBSVM | LIBSVM s (run) | speed-up vs LIBSVM | acc % (baseline) |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} ({}) | {:.1}x | {:.4} ({:.4}) |",
            r.text("run"),
            r.text("dataset"),
            r.text("setting"),
            r.text("k"),
            r.text("best_exact_method"),
            fmt_s(r.number("best_wall_s")),
            fmt_s(r.number("baseline_wall_s")),
            r.text("peer"),
            fmt_s(r.number("peer_s")),
            r.text("peer_run"),
            r.number("speedup_vs_peer"),
            r.number("accuracy_pct"),
            r.number("baseline_accuracy_pct"),
        );
    }
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, fold: i64, obj: f64, correct: i64, wrong: &str) -> Record {
        Record::new()
            .with("dataset", "synthetic-d")
            .with("setting", "paper")
            .with("k", "10")
            .with("method", method)
            .with("fold", fold)
            .with("objective", obj)
            .with("correct", correct)
            .with("wrong_rows", wrong)
            .with("iterations", 100i64)
            .with("init_s", 0.01)
            .with("train_s", 1.0)
            .with("predict_s", 0.1)
            .with("seed_s", if method == "ours" { 0.0 } else { 0.02 })
            .with("cv_accuracy_pct", 90.0)
            .with("majority_pct", 50.0)
            .with("cell_wall_s", 1.2)
    }

    #[test]
    fn exactness_counts_flipped_rows_and_objective_gaps() {
        let base = [
            row("ours", 0, -10.0, 8, "3 5"),
            row("ours", 1, -12.0, 9, "14"),
        ];
        let same = [
            row("sir", 0, -10.000001, 8, "3 5"),
            row("sir", 1, -12.0, 9, "14"),
        ];
        let b: Vec<&Record> = base.iter().collect();
        let (gap, folds, flipped) = exactness(&b, &same.iter().collect::<Vec<_>>());
        assert!(gap < 1e-6 && folds.is_empty() && flipped == 0);
        // One row flips in fold 1 (14 now right, 17 now wrong): two rows differ.
        let moved = [
            row("sir", 0, -10.0, 8, "3 5"),
            row("sir", 1, -12.0, 9, "17"),
        ];
        let (_, folds, flipped) = exactness(&b, &moved.iter().collect::<Vec<_>>());
        assert_eq!((folds, flipped), (vec![(1, 2)], 2));
        // A gap beyond 1e-3 relative is reported as such.
        let far = [
            row("sir", 0, -10.1, 8, "3 5"),
            row("sir", 1, -12.0, 9, "14"),
        ];
        let (gap, _, _) = exactness(&b, &far.iter().collect::<Vec<_>>());
        assert!(gap > 1e-3);
    }

    #[test]
    fn render_writes_the_seeding_table_with_verdicts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut recs = vec![
            row("ours", 0, -10.0, 8, "3"),
            row("ours", 1, -12.0, 9, "14"),
        ];
        recs.extend([row("sir", 0, -10.0, 8, "3"), row("sir", 1, -12.0, 9, "14")]);
        recs.extend([
            row("mir", 0, -10.5, 8, "3"),
            row("mir", 1, -12.0, 9, "14 15 16"),
        ]);
        let (md, files) = render(dir.path(), "t", &recs).expect("render");
        assert!(files.iter().any(|f| f.ends_with("seeding.csv")));
        let line = |m: &str| {
            md.lines()
                .find(|l| l.contains(&format!("| 10 | {m} |")))
                .unwrap_or("")
                .to_string()
        };
        assert!(line("sir").ends_with("| exact |"), "{}", line("sir"));
        assert!(line("mir").ends_with("| NOT EXACT |"), "{}", line("mir"));
    }
}
