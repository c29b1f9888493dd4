//! Wen et al.'s Table 1 (k = 10) and Table 3 (k = 3, 10, 100) beside ours,
//! from a run's seeding rows and the published numbers.

use std::collections::BTreeSet;

use super::seeding_totals::fmt_s;
use crate::experiments::svm_cv::rows::SeedingRow;
use crate::experiments::svm_cv::verdicts::published::{Published, TABLE3_K};
use crate::results::md_table::MdTable;

/// The (dataset, setting) pairs of the seeding rows.
pub(super) fn pairs(rows: &[SeedingRow]) -> BTreeSet<(String, String)> {
    rows.iter()
        .map(|r| (r.dataset.clone(), r.setting.clone()))
        .collect()
}

/// Table 1 (k = 10) beside the published values.
pub(super) fn paper_table1(rows: &[SeedingRow], p: &Published) -> String {
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

/// A method's speed-up over the baseline `b` as a Table 3 cell: printed
/// only where both ran with the same kernel cache and threads (else the
/// cell says what differs), "not run" without the method; the number where
/// it is one.
fn speedup_cell(b: &SeedingRow, r: Option<&SeedingRow>) -> (Option<f64>, String) {
    let Some(r) = r else {
        return (None, "not run".into());
    };
    if r.setup != b.setup {
        return (
            None,
            format!(
                "– (not like with like: baseline {}, {} {})",
                b.setup,
                r.method.to_uppercase(),
                r.setup
            ),
        );
    }
    match r.speedup_vs_baseline.filter(|x| x.is_finite()) {
        Some(x) => (Some(x), format!("{x:.2}x")),
        None => (None, "– (no baseline time)".into()),
    }
}

/// Table 3 (k = 3, 10, 100) beside the published values.
pub(super) fn paper_table3(rows: &[SeedingRow], p: &Published) -> String {
    let mut t = MdTable::new("dataset | setting | k | paper LibSVM s | paper SIR s | paper SIR speed-up | ours SIR speed-up | ours baseline s | ours SIR s | ours tree speed-up | best of SIR/tree".split(" | "));
    for (d, st) in &pairs(rows) {
        let pr = p.table3_for(d);
        for (col, k) in TABLE3_K.iter().enumerate() {
            let Some(b) = SeedingRow::find(rows, d, st, k, "ours") else {
                continue;
            };
            let paper = pr.map(|t| (t.libsvm_s[col], t.sir_s[col]));
            let row = |m: &str| SeedingRow::find(rows, d, st, k, m);
            let (sir_x, sir_cell) = speedup_cell(b, row("sir"));
            let (tree_x, tree_cell) = speedup_cell(b, row("tree"));
            let best = match (sir_x, tree_x) {
                (Some(a), Some(t)) => format!("{:.2}x", a.max(t)),
                (Some(x), None) | (None, Some(x)) => format!("{x:.2}x"),
                (None, None) => "–".into(),
            };
            t.row([
                d.clone(),
                st.clone(),
                k.to_string(),
                paper.map_or("–".into(), |p| fmt_s(p.0)),
                paper.map_or("–".into(), |p| fmt_s(p.1)),
                paper.map_or("–".into(), |p| format!("{:.2}x", p.0 / p.1)),
                sir_cell,
                fmt_s(b.total_s),
                row("sir").map_or("not run".into(), |r| fmt_s(r.total_s)),
                tree_cell,
                best,
            ]);
        }
    }
    if t.is_empty() {
        return String::new();
    }
    format!("**Beside the paper's Table 3 (seconds of the whole k-fold CV, summed over its rounds; speed-up = baseline / method in wall seconds, the median of the timed runs, where the records have them: on several threads the summed seconds count a per-round baseline's parallel rounds once each; printed only between cells of the same kernel cache and threads)**\n\n{t}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test fixture: fabricated seeding rows, not measurements.
    fn row(m: &str, setup: &str, total: f64, x: Option<f64>) -> SeedingRow {
        SeedingRow {
            dataset: "own".into(),
            setting: "defaults".into(),
            k: "10".into(),
            method: m.into(),
            total_s: total,
            speedup_vs_baseline: x,
            setup: setup.into(),
            ..SeedingRow::default()
        }
    }

    /// A user's own run: SIR on two threads with a shared cache beside a
    /// one-thread baseline gets no speed-up, and the table says why; the
    /// tree at the baseline's set-up gets its number; nothing is NaN.
    #[test]
    fn table3_prints_speed_ups_only_like_with_like_and_no_nan() {
        let (seq, par) = ("per-solve cache, 1 thread", "shared cache, 2 threads");
        let rows = [
            row("ours", seq, 1.0, Some(1.0)),
            row("sir", par, 0.2, Some(5.0)),
            row("tree", seq, 0.5, Some(2.0)),
        ];
        let p = Published::load().unwrap();
        let md = paper_table3(&rows, &p);
        assert!(
            md.contains("| – (not like with like: baseline per-solve cache, 1 thread, SIR shared cache, 2 threads) | 1.00 | 0.2000 | 2.00x | 2.00x |"),
            "{md}"
        );
        assert!(!md.contains("5.00x") && !md.contains("NaN"), "{md}");
        // Without SIR: "not run", never NaN.
        let md = paper_table3(&[rows[0].clone()], &p);
        assert!(
            md.contains("| not run | 1.00 | not run | not run | – |"),
            "{md}"
        );
        assert!(!md.contains("NaN"), "{md}");
    }
}
