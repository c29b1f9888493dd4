//! The alpha-seeding part of an `svm_cv` run's report (Wen et al. 2017):
//! Table 1 (k = 10: init and rest seconds, iterations, accuracy per method),
//! the exactness check of every seeded run against the baseline (objective
//! per fold, held-out rows that flipped), Table 3 (baseline vs SIR vs tree
//! at k = 3, 10, 100, with speed-ups beside the paper's) and the
//! leave-one-out figure (time of each method relative to SIR), all computed
//! from the run's rows and `experiments/svm/published.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::markdown::{cells, link_figure};
use super::published::{Published, TABLE3_K};
use super::rows::{write_rows, Key, SeedingRow, SvmRow};
use super::scorecard_rules::{compare_times, Spread};
use super::seeded::first_rounds_of;
use crate::experiments::evidence;
use crate::experiments::ExperimentError;
use crate::results::figures::{Figure, Panel, Series};
use crate::results::md_table::MdTable;
use crate::svm::SeedingMethod;

/// The baseline and the seeded methods, in table order: `ours` and every
/// seeded preset of the registry ([`SeedingMethod::ALL`]).
pub(super) fn methods() -> Vec<&'static str> {
    std::iter::once("ours")
        .chain(
            SeedingMethod::ALL
                .iter()
                .filter(|m| **m != SeedingMethod::None)
                .map(|m| m.as_str()),
        )
        .collect()
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
    /// The cell's wall seconds (the median of its timed runs), where the
    /// records have them.
    pub wall_s: Option<f64>,
}

impl RunTotals {
    /// init + rest.
    pub fn total(&self) -> f64 {
        self.init_s + self.rest_s
    }
}

/// Group round and extra rows of our solver's methods by (dataset, setting, k) and method.
pub(super) fn group(rows: &[SvmRow]) -> BTreeMap<Key, BTreeMap<String, Vec<&SvmRow>>> {
    let mut out: BTreeMap<Key, BTreeMap<String, Vec<&SvmRow>>> = BTreeMap::new();
    let methods = methods();
    for r in rows {
        let m = &r.core.method;
        if !methods.contains(&m.as_str()) {
            continue;
        }
        out.entry((r.core.dataset.clone(), r.setting.clone(), r.k.clone()))
            .or_default()
            .entry(m.clone())
            .or_default()
            .push(r);
    }
    out
}

/// The totals of one method's rows.
pub(super) fn totals(rows: &[&SvmRow], method: &str) -> RunTotals {
    let mut t = RunTotals::default();
    for r in rows {
        let seed = r.seed_s.unwrap_or(0.0);
        let init = r.init_s.unwrap_or(f64::NAN);
        let predict = r.predict_s.unwrap_or(f64::NAN);
        let seeded = method != "ours" && r.fold >= 0 && seed > 0.0;
        let (i, rest) = if seeded {
            (seed + init, r.train_s + predict)
        } else {
            (seed, init + r.train_s + predict.max(0.0))
        };
        t.init_s += i;
        t.rest_s += rest;
        t.iterations += r.iterations as f64;
        if r.fold >= 0 {
            t.rounds += 1;
        }
    }
    if let Some(r) = rows.first() {
        t.accuracy = r.cv_accuracy_pct.unwrap_or(f64::NAN);
        t.majority = r.majority_pct;
    }
    t.wall_s = rows
        .iter()
        .find(|r| r.fold >= 0)
        .and_then(|r| r.wall_median_s);
    t
}

/// A method's speed-up over the baseline, from the seconds
/// [`compare_times`] chooses (the one place that decides between the
/// cells' wall seconds and the summed round seconds): the wall medians
/// where both cells have them (w8a, k = 100, 2 threads: the baseline's
/// 752 s summed are 377 s of wall time).
pub(super) fn speedup(base: &RunTotals, t: &RunTotals) -> f64 {
    let wall = |s: f64| Spread {
        median: s,
        min: s,
        max: s,
        repeats: 1,
    };
    let (b, m, _) = compare_times(
        base.total(),
        t.total(),
        (base.wall_s.map(wall), t.wall_s.map(wall)),
    );
    b / m
}

/// Exactness of a seeded run against the baseline: the largest relative
/// objective gap over folds, the folds whose correct count differs, and the
/// held-out rows whose prediction flipped (from `wrong_rows`).
pub(super) fn exactness(base: &[&SvmRow], got: &[&SvmRow]) -> (f64, Vec<(i64, usize)>, usize) {
    let by_fold = |rows: &[&SvmRow]| -> BTreeMap<i64, (f64, u64, BTreeSet<String>)> {
        rows.iter()
            .filter(|r| r.fold >= 0)
            .map(|r| {
                let wrong = r
                    .wrong_rows
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                (r.fold, (r.objective.unwrap_or(f64::NAN), r.correct, wrong))
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

/// Seconds for a table: `–` when unknown, fewer decimals when large.
pub(super) fn fmt_s(x: f64) -> String {
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

/// The seeding rows of one (dataset, setting, k): every method against the baseline.
fn seeding_rows((d, st, k): &Key, methods: &BTreeMap<String, Vec<&SvmRow>>) -> Vec<SeedingRow> {
    let base = methods.get("ours");
    let bt = base.map(|b| totals(b, "ours"));
    let mut out = Vec::new();
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
        out.push(SeedingRow {
            dataset: d.clone(),
            setting: st.clone(),
            k: k.clone(),
            method: m.clone(),
            rounds: t.rounds as u64,
            init_s: t.init_s,
            rest_s: t.rest_s,
            total_s: t.total(),
            iterations: t.iterations,
            accuracy_pct: t.accuracy,
            majority_pct: t.majority,
            speedup_vs_baseline: bt.as_ref().map(|b| speedup(b, &t)),
            max_rel_objective_gap: Some(gap),
            folds_changed: folds
                .iter()
                .map(|(h, f)| format!("{h}:{f}"))
                .collect::<Vec<_>>()
                .join(" "),
            rows_flipped: flipped as u64,
            exactness: verdict.into(),
            setup: rr.first().map(|r| r.setup()).unwrap_or_default(),
        });
    }
    out
}

/// A seeding row's speed-up over the baseline as a table cell: with its
/// 95% interval ([`evidence::ratio`]) where both cells were timed several
/// times, and only between cells of the same cache and threads (else what
/// differs).
fn speed_cell(
    r: &SeedingRow,
    rows: &[SeedingRow],
    spreads: &BTreeMap<(Key, String), Spread>,
) -> String {
    let Some(base) = SeedingRow::find(rows, &r.dataset, &r.setting, &r.k, "ours") else {
        return "– (no baseline run)".into();
    };
    if r.method == "ours" {
        return "1.00x (baseline)".into();
    }
    if base.setup != r.setup {
        return format!(
            "– (not like with like: the baseline ran with {})",
            base.setup
        );
    }
    let key = |m: &str| {
        (
            (r.dataset.clone(), r.setting.clone(), r.k.clone()),
            m.to_string(),
        )
    };
    match (spreads.get(&key("ours")), spreads.get(&key(&r.method))) {
        (Some(b), Some(m)) => {
            evidence::ratio(&evidence::Sample::from(*b), &evidence::Sample::from(*m)).short()
        }
        _ => match r.speedup_vs_baseline {
            Some(x) if x.is_finite() => format!("{x:.2}x (summed seconds: no interval)"),
            _ => "– (no times recorded)".into(),
        },
    }
}

/// The table of every method against the baseline, sorted by dataset,
/// setting, k (numerically, `n` last) and method.
fn seeding_table(rows: &[SeedingRow], spreads: &BTreeMap<(Key, String), Spread>) -> MdTable {
    let sorted_k = |k: &str| -> f64 {
        if k == "n" {
            f64::INFINITY
        } else {
            k.parse().unwrap_or(f64::NAN)
        }
    };
    let methods = methods();
    let method_pos = |m: &str| methods.iter().position(|x| *x == m);
    let mut sorted: Vec<&SeedingRow> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        (&a.dataset, &a.setting)
            .cmp(&(&b.dataset, &b.setting))
            .then(sorted_k(&a.k).total_cmp(&sorted_k(&b.k)))
            .then(method_pos(&a.method).cmp(&method_pos(&b.method)))
    });
    let mut t = MdTable::new("dataset | setting | k | method | cache, threads | init s | rest s | total s | speed-up | #iter | acc % | majority % | max obj gap | folds changed (fold:rows) | exact".split(" | "));
    for r in sorted {
        t.row(cells(
            [&r.dataset, &r.setting, &r.k, &r.method],
            [
                r.setup.clone(),
                fmt_s(r.init_s),
                fmt_s(r.rest_s),
                fmt_s(r.total_s),
                speed_cell(r, rows, spreads),
                format!("{:.0}", r.iterations),
                format!("{:.2}", r.accuracy_pct),
                format!("{:.2}", r.majority_pct),
                format!("{:.1e}", r.max_rel_objective_gap.unwrap_or(f64::NAN)),
                if r.folds_changed.is_empty() {
                    "none".to_string()
                } else {
                    r.folds_changed.clone()
                },
                r.exactness.clone(),
            ],
        ));
    }
    t
}

/// The seeding sections of a run's report, and their tables and figure.
pub(super) fn render(
    dir: &Path,
    run: &str,
    records: &[SvmRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let groups = group(records);
    let seeded_any = groups
        .values()
        .any(|m| m.keys().any(|k| k.as_str() != "ours"));
    if !seeded_any {
        return Ok((String::new(), vec![]));
    }
    let published = Published::load()?;
    let mut md = String::new();
    let mut files = Vec::new();
    let rows: Vec<SeedingRow> = groups
        .iter()
        .flat_map(|(key, methods)| seeding_rows(key, methods))
        .collect();
    files.extend(write_rows(&rows, dir, "seeding")?);
    let estimate = groups
        .values()
        .flat_map(|m| m.values())
        .find_map(|rr| first_rounds_of(rr.iter().copied()));
    let _ = writeln!(md, "**Alpha seeding: every method against the baseline** (`seeding.csv`; init = seeding plus the solver's set-up from the seed, rest = SMO and prediction, extra solves (AVG/TOP's full model, the tree's inner nodes) included, seconds summed over the rounds; speed-up = the baseline's wall seconds over the method's (medians of the timed runs, with the 95% interval of the ratio over them: the range bound of the cells' medians and ranges, see `evidence.rs`; summed seconds only where the records have no wall times), printed only between cells of the same kernel cache and threads; exact = every fold's objective within 1e-3 relative of the baseline's and at most one held-out row flipped per fold; `ours` = our LibSVM-equivalent baseline)\n");
    let spreads: BTreeMap<(Key, String), Spread> = groups
        .iter()
        .flat_map(|(key, methods)| {
            methods.iter().filter_map(move |(m, rr)| {
                let r = rr.iter().find(|r| r.fold >= 0)?;
                let s = Spread {
                    median: r.wall_median_s?,
                    min: r.wall_min_s?,
                    max: r.wall_max_s?,
                    repeats: r.timing_repeats.max(1),
                };
                Some(((key.clone(), m.clone()), s))
            })
        })
        .collect();
    md.push_str(&seeding_table(&rows, &spreads).markdown());
    md.push('\n');
    md.push_str(&paper_table1(&rows, &published));
    md.push_str(&paper_table3(&rows, &published));
    if let Some(fig) = loocv_figure(run, &rows, estimate) {
        let alt = "Leave-one-out time relative to SIR";
        files.extend(link_figure(
            &fig,
            (dir, run, "loocv_relative_to_sir"),
            alt,
            &mut md,
        )?);
    }
    Ok((md, files))
}

/// The (dataset, setting) pairs of the seeding rows.
fn pairs(rows: &[SeedingRow]) -> BTreeSet<(String, String)> {
    rows.iter()
        .map(|r| (r.dataset.clone(), r.setting.clone()))
        .collect()
}

/// Table 1 (k = 10) beside the published values.
fn paper_table1(rows: &[SeedingRow], p: &Published) -> String {
    let mut t = MdTable::new("dataset | setting | method | paper init s | paper rest s | ours init s | ours rest s | paper #iter | ours #iter | paper acc % | ours acc % | majority %".split(" | "));
    for (d, st) in &pairs(rows) {
        let Some(pr) = p.table1_for(d) else {
            continue;
        };
        for (m, pm) in [
            ("ours", "libsvm"),
            ("ato", "ato"),
            ("mir", "mir"),
            ("sir", "sir"),
            ("tree", ""),
        ] {
            let Some(r) = SeedingRow::find(rows, d, st, "10", m) else {
                continue;
            };
            let ((pi, prs), pit) = match (pr.seconds(pm), pr.iterations(pm)) {
                (Some(s), Some(i)) => (s, i),
                _ => ((f64::NAN, f64::NAN), f64::NAN),
            };
            let pit = if pit.is_nan() {
                "–".to_string()
            } else {
                format!("{pit:.0}")
            };
            t.row([
                d.clone(),
                st.clone(),
                m.to_string(),
                fmt_s(pi),
                fmt_s(prs),
                fmt_s(r.init_s),
                fmt_s(r.rest_s),
                pit,
                format!("{:.0}", r.iterations),
                format!("{:.2}", pr.libsvm_accuracy),
                format!("{:.2}", r.accuracy_pct),
                format!("{:.2}", r.majority_pct),
            ]);
        }
    }
    if t.is_empty() {
        return String::new();
    }
    format!("**Beside the paper's Table 1 (k = 10; their seconds: C++ on a 6-core E5-2620; ours: this machine; `ours` row = our LibSVM-equivalent baseline beside their LibSVM; `tree` is ours, not in the paper; the paper's accuracy is LibSVM's = SIR's)**\n\n{t}\n")
}

/// Table 3 (k = 3, 10, 100) beside the published values.
fn paper_table3(rows: &[SeedingRow], p: &Published) -> String {
    let mut t = MdTable::new("dataset | setting | k | paper LibSVM s | paper SIR s | paper SIR speed-up | ours SIR speed-up | ours baseline s | ours SIR s | ours tree speed-up | best of SIR/tree".split(" | "));
    for (d, st) in &pairs(rows) {
        let pr = p.table3_for(d);
        for (col, k) in TABLE3_K.iter().enumerate() {
            let Some(b) = SeedingRow::find(rows, d, st, k, "ours") else {
                continue;
            };
            let paper = pr.map(|t| (t.libsvm_s[col], t.sir_s[col]));
            let row = |m: &str| SeedingRow::find(rows, d, st, k, m);
            let total = |m: &str| row(m).map_or(f64::NAN, |r| r.total_s);
            let speedup = |m: &str| {
                row(m)
                    .and_then(|r| r.speedup_vs_baseline)
                    .unwrap_or(f64::NAN)
            };
            let (bt, sir) = (b.total_s, total("sir"));
            let (sir_x, tree_x) = (speedup("sir"), speedup("tree"));
            t.row([
                d.clone(),
                st.clone(),
                k.to_string(),
                paper.map_or("–".into(), |p| fmt_s(p.0)),
                paper.map_or("–".into(), |p| fmt_s(p.1)),
                paper.map_or("–".into(), |p| format!("{:.2}x", p.0 / p.1)),
                format!("{sir_x:.2}x"),
                fmt_s(bt),
                fmt_s(sir),
                format!("{tree_x:.2}x"),
                format!("{:.2}x", sir_x.max(tree_x)),
            ]);
        }
    }
    if t.is_empty() {
        return String::new();
    }
    format!("**Beside the paper's Table 3 (seconds of the whole k-fold CV, summed over its rounds; speed-up = baseline / method in wall seconds, the median of the timed runs, where the records have them: on several threads the summed seconds count a per-round baseline's parallel rounds once each)**\n\n{t}\n")
}

/// A method's time over SIR's, from the same seconds the speed verdicts
/// compare ([`speedup`]: wall seconds where the records have them): the
/// ratio of the two speed-ups over the baseline, else of the summed seconds.
fn relative_time(m: &SeedingRow, sir: &SeedingRow) -> f64 {
    match (m.speedup_vs_baseline, sir.speedup_vs_baseline) {
        (Some(xm), Some(xs)) if xm > 0.0 && xs.is_finite() => xs / xm,
        _ if sir.total_s > 0.0 => m.total_s / sir.total_s,
        _ => f64::NAN,
    }
}

/// The supplement's Figure 2: leave-one-out time of each method relative to
/// SIR, one group of bars per (dataset, setting), log scale.
fn loocv_figure(run: &str, rows: &[SeedingRow], estimate: Option<(u64, u64)>) -> Option<Figure> {
    let groups: Vec<(String, String)> = rows
        .iter()
        .filter(|r| r.k == "n" && r.method == "sir")
        .map(|r| (r.dataset.clone(), r.setting.clone()))
        .collect();
    if groups.is_empty() {
        return None;
    }
    // The methods with a bar: the bars of a group share its width, side
    // by side (a method no run holds takes no slot).
    let order: Vec<&str> = methods()
        .into_iter()
        .filter(|m| *m != "sir")
        .filter(|m| {
            groups
                .iter()
                .any(|(d, st)| SeedingRow::find(rows, d, st, "n", m).is_some())
        })
        .collect();
    let mut series = Vec::new();
    for (i, m) in order.iter().enumerate() {
        let off = (i as f64 - (order.len() as f64 - 1.0) / 2.0) * 0.8 / order.len() as f64;
        let pts: Vec<(f64, f64, f64)> = groups
            .iter()
            .enumerate()
            .filter_map(|(g, (d, st))| {
                let sir = SeedingRow::find(rows, d, st, "n", "sir")?;
                let v = SeedingRow::find(rows, d, st, "n", m)?;
                let x = relative_time(v, sir);
                x.is_finite().then_some((g as f64 + off, x, 0.0))
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
        .filter(|r| r.k == "n")
        .map(|r| r.rounds as f64)
        .fold(0.0, f64::max);
    Some(Figure {
        title: format!("Leave-one-out CV time relative to SIR — run `{run}`"),
        caption: match estimate {
            None => format!("bars: each method's seconds / SIR's, in wall seconds (the median of the timed runs) where the records have them, as the speed verdicts (1 = as fast as SIR; log scale); one LOOCV run per bar ({reps:.0} rounds at most)"),
            Some((ran, k)) => format!("bars: each method's wall seconds / SIR's, ESTIMATED for all {k} rounds from the first {ran} run (Wen et al.'s estimate), as the speed verdicts (1 = as fast as SIR; log scale); one LOOCV run per bar"),
        },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    /// Issue 43: a speed-up is printed only between cells of the same
    /// cache and threads (else what differs), with its interval, and never
    /// as `NaNx`.
    #[test]
    fn speed_cells_compare_like_with_like_and_carry_their_interval() {
        let row = |m: &str, setup: &str| SeedingRow {
            dataset: "d".into(),
            setting: "s".into(),
            k: "10".into(),
            method: m.into(),
            setup: setup.into(),
            speedup_vs_baseline: Some(2.43),
            ..SeedingRow::default()
        };
        let rows = vec![
            row("ours", "per-solve cache, 1 thread"),
            row("sir", "shared cache, 2 threads"),
            row("mir", "per-solve cache, 1 thread"),
        ];
        let key = |m: &str| {
            (
                ("d".to_string(), "s".to_string(), "10".to_string()),
                m.to_string(),
            )
        };
        let sp = |median: f64| Spread {
            median,
            min: median * 0.95,
            max: median * 1.05,
            repeats: 5,
        };
        let spreads = BTreeMap::from([(key("ours"), sp(2.0)), (key("mir"), sp(1.0))]);
        let sir = speed_cell(&rows[1], &rows, &spreads);
        assert!(
            sir.contains("not like with like") && !sir.contains("2.43"),
            "{sir}"
        );
        assert_eq!(speed_cell(&rows[2], &rows, &spreads), "2.00x [1.81, 2.21]");
        let alone = [row("sir", "x")];
        assert_eq!(
            speed_cell(&alone[0], &alone, &spreads),
            "– (no baseline run)"
        );
    }

    /// Issue 18: the speed-up is a ratio of wall seconds; summed round
    /// seconds count a per-round baseline's parallel rounds once each.
    #[test]
    fn speedup_uses_wall_seconds_where_the_records_have_them() {
        let t = |rest_s: f64, wall_s: Option<f64>| RunTotals {
            rest_s,
            wall_s,
            ..RunTotals::default()
        };
        // w8a, k = 100, 2 threads: 752 s summed, 377 s wall; SIR 38 s, 39 s.
        let x = speedup(&t(752.0, Some(377.0)), &t(38.0, Some(39.0)));
        assert!((x - 377.0 / 39.0).abs() < 1e-12, "{x}");
        assert_eq!(speedup(&t(8.0, None), &t(2.0, Some(1.0))), 4.0);
    }

    /// Issue 18: the LOOCV figure's bars are the same wall-second ratios
    /// as the verdicts (a baseline whose rounds ran two at a time sums to
    /// twice its wall time), not the summed seconds.
    #[test]
    fn loocv_bars_use_the_verdicts_wall_seconds() {
        let row = |m: &str, total_s: f64, x: Option<f64>| SeedingRow {
            method: m.into(),
            total_s,
            speedup_vs_baseline: x,
            ..SeedingRow::default()
        };
        // Baseline 20 s summed, 10 s wall; SIR 5 s (wall 5 s: 2x).
        let sir = row("sir", 5.0, Some(2.0));
        let ours = row("ours", 20.0, Some(1.0));
        assert_eq!(relative_time(&ours, &sir), 2.0);
        assert_eq!(relative_time(&row("avg", 10.0, None), &sir), 2.0);
        assert!(relative_time(&ours, &row("sir", 0.0, None)).is_nan());
    }

    /// A seeder the config can run but the tables drop would be silent
    /// data loss: every preset of the registry is a config method and a
    /// table row.
    #[test]
    fn every_seeding_preset_is_a_config_method_and_a_table_row() {
        use super::super::config::Method;
        let shown = methods();
        for &m in SeedingMethod::ALL {
            if m == SeedingMethod::None {
                continue;
            }
            let parsed: Method =
                serde::Deserialize::deserialize(serde::de::value::StrDeserializer::<
                    serde::de::value::Error,
                >::new(m.as_str()))
                .unwrap_or_else(|e| panic!("preset {m} is not a config method: {e}"));
            assert_eq!(parsed.seeding(), Some(m));
            assert_eq!(parsed.as_str(), m.as_str());
            assert!(shown.contains(&m.as_str()), "preset {m} has no table row");
        }
    }

    fn row(method: &str, fold: i64, obj: f64, correct: u64, wrong: &str) -> SvmRow {
        SvmRow {
            core: Core {
                dataset: "synthetic-d".into(),
                method: method.into(),
                ..Core::default()
            },
            setting: "paper".into(),
            k: "10".into(),
            fold,
            objective: Some(obj),
            correct,
            wrong_rows: wrong.into(),
            iterations: 100,
            init_s: Some(0.01),
            train_s: 1.0,
            predict_s: Some(0.1),
            seed_s: Some(if method == "ours" { 0.0 } else { 0.02 }),
            cv_accuracy_pct: Some(90.0),
            majority_pct: 50.0,
            cell_wall_s: 1.2,
            ..SvmRow::default()
        }
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
        let b: Vec<&SvmRow> = base.iter().collect();
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
