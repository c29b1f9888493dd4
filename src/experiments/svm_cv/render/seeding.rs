//! The alpha-seeding part of an `svm_cv` run's report (Wen et al. 2017): the
//! seeding table of every method against the baseline (with the exactness
//! check of every seeded run: objective per fold, held-out rows that
//! flipped), then the paper's Table 1 and Table 3 beside ours
//! (`paper_tables.rs`) and the leave-one-out figure (`loocv_figure.rs`), all
//! computed from the run's rows and `experiments/svm/published.toml`; the
//! totals and exactness in `seeding_totals.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::loocv_figure::loocv_figure;
use super::markdown::{cells, link_figure};
use super::paper_tables::{paper_table1, paper_table3};
use super::seeding_totals::{exactness, fmt_s, group, methods, speedup, totals};
use crate::experiments::evidence;
use crate::experiments::svm_cv::rows::{write_rows, Key, SeedingRow, SvmRow};
use crate::experiments::svm_cv::seeded::first_rounds_of;
use crate::experiments::svm_cv::verdicts::published::Published;
use crate::experiments::svm_cv::verdicts::scorecard_rules::Spread;
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;

/// The seeding rows of one (dataset, setting, k): every method against the baseline.
pub(super) fn seeding_rows(
    (d, st, k): &Key,
    methods: &BTreeMap<String, Vec<&SvmRow>>,
) -> Vec<SeedingRow> {
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
pub(super) fn speed_cell(
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
        (Some(b), Some(m)) => evidence::ratio(
            &evidence::Sample::from(b.clone()),
            &evidence::Sample::from(m.clone()),
        )
        .short(),
        _ => match r.speedup_vs_baseline {
            Some(x) if x.is_finite() => format!("{x:.2}x (summed seconds: no interval)"),
            _ => "– (no times recorded)".into(),
        },
    }
}

/// The table of every method against the baseline, sorted by dataset,
/// setting, k (numerically, `n` last) and method.
pub(super) fn seeding_table(
    rows: &[SeedingRow],
    spreads: &BTreeMap<(Key, String), Spread>,
) -> MdTable {
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
pub(crate) fn render(
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
    let _ = writeln!(md, "**Alpha seeding: every method against the baseline** (`seeding.csv`; init = seeding plus the solver's set-up from the seed, rest = SMO and prediction, extra solves (AVG/TOP's full model, the tree's inner nodes) included, seconds summed over the rounds; speed-up = the baseline's wall seconds over the method's (medians of the timed runs, with the 95% interval of the ratio over them: a bootstrap over every timed run where the records keep them, else the range bound of the cells' medians and ranges; summed seconds only where the records have no wall times), printed only between cells of the same kernel cache and threads; exact = every fold's objective within 1e-3 relative of the baseline's and at most one held-out row flipped per fold; `ours` = our LibSVM-equivalent baseline)\n");
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
                    runs: crate::experiments::timing::parse_runs(&r.wall_runs_s),
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

#[cfg(test)]
mod tests {
    use super::super::seeding_totals::tests::row;
    use super::*;

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
            runs: Vec::new(),
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
