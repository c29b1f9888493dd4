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
