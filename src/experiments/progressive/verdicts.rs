//! Blum, Kalai & Langford's artifacts judged from stored records: Figure 1,
//! the Section 5 table, the two conclusions the paper draws from them, and
//! Theorems 1–5. Feeds the report's conclusions section (`overview`) and the
//! scorecard (`scorecard`).

use super::kind::{ProgressiveConfig, Row};
use super::paper::{
    compare_table, summarize, tie_rule_fit, BklSummary, Procedure, Published, TieKind,
};
use super::stats::Summary;
use super::theorems::{moment_rows, tail_rows, theorem5_row, KFoldRecord, ProgressiveRecord};
use crate::config::ConfigFile;
use crate::results::scorecard::{DataUsed, ScoreRow, StoredRun, Verdict};
use crate::results::Record;
use std::collections::BTreeMap;
use std::fmt::Write as _;

const PAPER: &str = "BKL (COLT 1999)";
/// Heading of the conclusions section.
pub const CONCLUSIONS_SECTION: &str = "BKL: the paper's conclusions against ours";
/// A difference is significant beyond this many standard errors.
pub const Z: f64 = 2.0;

fn rows_of(records: &[Record], study: &str) -> Vec<Row> {
    records
        .iter()
        .map(Row::from_record)
        .filter(|r| r.study == study)
        .collect()
}

fn summaries(records: &[Record], study: &str) -> Vec<BklSummary> {
    let rows = rows_of(records, study);
    let refs: Vec<&Row> = rows.iter().collect();
    let n_features = super::render::n_features_of(&refs);
    let recs: Vec<_> = refs
        .iter()
        .filter_map(|r| super::render::to_bkl(r))
        .collect();
    summarize(&recs, n_features)
}

/// A two-sample (Welch) z statistic of `a.mean − b.mean`.
pub fn welch_z(a: &Summary, b: &Summary) -> f64 {
    (a.mean - b.mean) / (a.se.powi(2) + b.se.powi(2)).sqrt()
}

/// The outcome of a comparison "`better` is smaller than `worse`" in words.
pub fn outcome(z: f64) -> &'static str {
    if z < -Z {
        "holds (significant)"
    } else if z > Z {
        "REVERSED (significant)"
    } else {
        "tie (no significant difference)"
    }
}

fn find(
    s: &[BklSummary],
    p: Procedure,
    n_train: usize,
    sz: usize,
    tie: TieKind,
) -> Option<&BklSummary> {
    s.iter().find(|x| {
        x.procedure == p && x.n_train == n_train && x.s == sz && x.delay == 0 && x.tie == tie
    })
}

/// Conclusion A: PV(5, 10)'s estimate is closer to its true error than
/// Hold-out(9, 10)'s: (z, PV discrepancy, HO discrepancy) per tie rule.
pub fn conclusion_a(records: &[Record]) -> Vec<(TieKind, f64, Summary, Summary)> {
    let s = summaries(records, "table");
    TieKind::ALL
        .into_iter()
        .filter_map(|t| {
            let pv = find(&s, Procedure::Progressive, 5, 10, t)?;
            let ho = find(&s, Procedure::HoldOut, 9, 10, t)?;
            Some((
                t,
                welch_z(&pv.disc_fresh, &ho.disc_fresh),
                pv.disc_fresh,
                ho.disc_fresh,
            ))
        })
        .collect()
}

/// Conclusion B: the progressive hypothesis at n = 15 (5 + 10) has a smaller
/// true error than the hold-out's at n = 19 (9 + 10): (z, PV, HO).
pub fn conclusion_b(records: &[Record]) -> Option<(f64, Summary, Summary)> {
    let s = summaries(records, "figure1");
    let pv = find(&s, Procedure::Progressive, 5, 10, TieKind::Half)?;
    let ho = find(&s, Procedure::HoldOut, 9, 10, TieKind::Half)?;
    Some((
        welch_z(&pv.true_exact, &ho.true_exact),
        pv.true_exact,
        ho.true_exact,
    ))
}

/// Figure 1: at every n where the hold-out's expected true error exceeds
/// 0.01 the progressive hypothesis' mean true error is below the hold-out's,
/// and every simulated mean is within 4 standard errors (+ 1e-3) of its
/// closed form. Returns (holds, words).
pub fn figure1_check(records: &[Record]) -> Option<(bool, String)> {
    let s = summaries(records, "figure1");
    let half: Vec<&BklSummary> = s
        .iter()
        .filter(|x| x.tie == TieKind::Half && x.delay == 0)
        .collect();
    if half.is_empty() {
        return None;
    }
    let mut below = 0;
    let mut checked = 0;
    let mut worst_z: f64 = 0.0;
    for ho in half.iter().filter(|x| x.procedure == Procedure::HoldOut) {
        if let Some(pv) = half.iter().find(|x| {
            x.procedure == Procedure::Progressive && x.n_train == ho.n_train && x.s == ho.s
        }) {
            if ho.expected_true > 0.01 {
                checked += 1;
                below += usize::from(pv.true_exact.mean < ho.true_exact.mean);
            }
        }
    }
    for x in &half {
        let z = (x.true_exact.mean - x.expected_true).abs() / (x.true_exact.se + 1e-3 / 4.0);
        worst_z = worst_z.max(z);
    }
    let ok = checked > 0 && below == checked && worst_z <= 4.0;
    Some((
        ok,
        format!(
            "progressive below hold-out at {below} of {checked} n; simulation vs closed form: worst {worst_z:.1} s.e. ({} reps)",
            half[0].true_exact.n
        ),
    ))
}

/// The Section 5 table: with the best-fitting tie rule every row's true
/// error and discrepancy are within 2 published ± of the paper's.
pub fn table_check(records: &[Record]) -> Option<(bool, String)> {
    let p = Published::from_toml(super::kind::PUBLISHED).ok()?;
    let s = summaries(records, "table");
    let cmp = compare_table(&p, &s);
    if cmp.is_empty() {
        return None;
    }
    let best = tie_rule_fit(&cmp).first().copied()?;
    let rows: Vec<_> = cmp.iter().filter(|c| c.ours.tie == best.tie).collect();
    let worst_true = rows
        .iter()
        .map(|c| c.true_error_diff().abs() / c.published.true_error_pm)
        .fold(0.0, f64::max);
    let worst_disc = rows
        .iter()
        .map(|c| c.discrepancy_diff().abs() / c.published.discrepancy_pm)
        .fold(0.0, f64::max);
    let ok = worst_true <= 2.0 && worst_disc <= 2.0;
    let vals = rows
        .iter()
        .map(|c| {
            format!(
                "{} {:.3} / {:.3}",
                c.published.label, c.ours.true_fresh.mean, c.ours.disc_fresh.mean
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    Some((
        ok,
        format!(
            "ties {} (best fit): {vals} (true error / discrepancy); worst row {worst_true:.1} published ± (true error), {worst_disc:.1} (discrepancy)",
            best.tie.label()
        ),
    ))
}

struct TheoremOutcome {
    rows: usize,
    violations: usize,
    words: String,
}

fn config_of(run: &StoredRun) -> Option<ProgressiveConfig> {
    ConfigFile::from_text(&run.manifest.config_path, &run.manifest.config)
        .parse()
        .ok()
}

fn kfold_by_pop(records: &[Record]) -> BTreeMap<String, Vec<KFoldRecord>> {
    let mut by: BTreeMap<String, Vec<KFoldRecord>> = BTreeMap::new();
    for r in rows_of(records, "kfold") {
        by.entry(format!("{} / {}", r.population, r.learner))
            .or_default()
            .push(KFoldRecord {
                n: r.n.max(0) as usize,
                k: r.k.max(0) as usize,
                rep: r.rep.max(0) as usize,
                est_k: r.estimate,
                true_k: r.true_error,
                est_1: r.holdout_estimate,
                true_1: r.holdout_true,
            });
    }
    by
}

fn pv_by_pop(records: &[Record]) -> BTreeMap<(String, i64, i64), Vec<ProgressiveRecord>> {
    super::render::pv_groups(rows_of(records, "progressive_check").iter())
}

/// Theorem `t` (1–5) over every theorem run: rows checked and rows where our
/// records contradict it at 95%.
fn theorem(t: u32, runs: &[&StoredRun]) -> Option<TheoremOutcome> {
    let (mut rows, mut violations) = (0, 0);
    for run in runs {
        let c = config_of(run);
        let ms = c
            .as_ref()
            .map_or_else(|| vec![1, 2, 3, 4], |c| c.moments.clone());
        let a = c
            .as_ref()
            .map_or_else(|| vec![0.05, 0.1, 0.2], |c| c.tail_a.clone());
        match t {
            1..=3 => {
                for recs in kfold_by_pop(&run.records).values() {
                    if t == 3 {
                        let mut nk: Vec<(usize, usize)> = recs.iter().map(|r| (r.n, r.k)).collect();
                        nk.sort_unstable();
                        nk.dedup();
                        for (n, k) in nk {
                            let d: Vec<f64> = recs
                                .iter()
                                .filter(|r| r.n == n && r.k == k)
                                .map(|r| r.est_k - r.true_k)
                                .collect();
                            for row in tail_rows("k-fold", &d, n / k, &a) {
                                rows += 1;
                                violations += usize::from(
                                    row.upper_ci.0 > row.bound || row.lower_ci.0 > row.bound,
                                );
                            }
                        }
                        continue;
                    }
                    for m in moment_rows(recs, &ms) {
                        // Theorem 2: m >= 2 and 2 < k < n only.
                        if t == 2 && (m.m < 2 || m.k <= 2 || m.k >= m.n) {
                            continue;
                        }
                        rows += 1;
                        let sig_larger = m.diff.mean + m.diff.ci95() < 0.0;
                        let sig_smaller = m.diff.mean - m.diff.ci95() > 0.0;
                        violations += usize::from(if t == 1 { sig_larger } else { !sig_smaller });
                    }
                }
            }
            _ => {
                for recs in pv_by_pop(&run.records).values() {
                    if t == 4 {
                        let s = recs.first().map_or(0, |r| r.s);
                        let d: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
                        for row in tail_rows("progressive", &d, s, &a) {
                            rows += 1;
                            violations += usize::from(
                                row.upper_ci.0 > row.bound || row.lower_ci.0 > row.bound,
                            );
                        }
                    } else if let Some(r5) = theorem5_row(recs) {
                        rows += 1;
                        violations += usize::from(r5.diff.mean + r5.diff.ci95() < 0.0);
                    }
                }
            }
        }
    }
    (rows > 0).then(|| TheoremOutcome {
        rows,
        violations,
        words: format!("{} of {rows} rows contradict it at 95%", violations),
    })
}

const THEOREMS: [(&str, &str, &str); 5] = [
    ("Theorem 1", "every moment E|ê−ē|^m of the k-fold estimate ≤ the n/k hold-out's", "reproduced: no (n, k, m) row where the k-fold moment is significantly larger (paired 95% interval)"),
    ("Theorem 2", "strictly smaller for m ≥ 2, 2 < k < n", "reproduced: every (n, k, m ≥ 2, 2 < k < n) row has the k-fold moment significantly smaller"),
    ("Theorem 3", "Pr[ê − ē > a] ≤ exp(−2a²n/k) for the k-fold estimate", "reproduced: no (n, k, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 4", "Pr[ê_P − ē_P > a] ≤ exp(−2a²s) for progressive validation", "reproduced: no (n, s, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 5", "E(ê_P − ē_P)² ≤ E(ê'_P − ē_P)² (progressive no worse than a fresh hold-out of s)", "reproduced: no (n_train, s) row where fresh − progressive is significantly negative"),
];

fn bkl_runs<'a>(runs: &'a [&'a StoredRun], study: &str) -> Vec<&'a StoredRun> {
    runs.iter()
        .copied()
        .filter(|r| r.records.iter().any(|x| x.text("study") == study))
        .collect()
}

/// The progressive-validation rows of the scorecard.
pub fn scorecard(runs: &[&StoredRun]) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    let paper_data = DataUsed::Paper(
        "the paper's synthetic boolean problem (N = 1000), its own generator".into(),
    );
    let not_run = |artifact: &str, paper: &str, rule: &str, section: &str| ScoreRow {
        paper: PAPER.into(),
        artifact: artifact.into(),
        paper_value: paper.into(),
        ours: "no run".into(),
        data: DataUsed::None,
        verdict: Verdict::NotRun,
        rule: rule.into(),
        section: section.into(),
    };
    // Figure 1.
    let rule1 = "reproduced: progressive's mean true error below the hold-out's at every n where the hold-out's exceeds 0.01, and every simulated mean within 4 s.e. (+1e-3) of the closed form";
    let fig_runs = bkl_runs(runs, "figure1");
    match fig_runs.first().and_then(|r| figure1_check(&r.records).map(|c| (r, c))) {
        Some((r, (ok, words))) => out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: "Figure 1 (true error against n)".into(),
            paper_value: "progressive validation's hypothesis has a lower true error than the hold-out's at every n".into(),
            ours: words,
            data: paper_data.clone(),
            verdict: if ok { Verdict::Reproduced } else { Verdict::NotReproduced },
            rule: rule1.into(),
            section: format!("Run `{}`", r.name),
        }),
        None => out.push(not_run("Figure 1 (true error against n)", "progressive below hold-out", rule1, "Progressive validation vs hold-out — Blum, Kalai, Langford (COLT 1999)")),
    }
    // The table.
    let rule2 = "reproduced: with the best-fitting tie rule, every row's true error and |true − estimate| within 2 published ± of the paper's";
    let table_runs = bkl_runs(runs, "table");
    match table_runs.first().and_then(|r| table_check(&r.records).map(|c| (r, c))) {
        Some((r, (ok, words))) => out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: "Section 5 table".into(),
            paper_value: "PV(5,10) .205 / .088; HO(5,10) .436 / .120; HO(9,10) .235 / .109 (true error / discrepancy)".into(),
            ours: words,
            data: paper_data.clone(),
            verdict: if ok { Verdict::Reproduced } else { Verdict::NotReproduced },
            rule: rule2.into(),
            section: format!("Run `{}`", r.name),
        }),
        None => out.push(not_run("Section 5 table", "PV(5,10) .205 / .088; HO(5,10) .436 / .120; HO(9,10) .235 / .109", rule2, "Progressive validation vs hold-out — Blum, Kalai, Langford (COLT 1999)")),
    }
    // Conclusion A.
    let rule_a = "reproduced: PV(5,10)'s mean |true − estimate| smaller than Hold-out(9,10)'s by more than 2 s.e. (Welch z test on the 1000 repetitions, best-fitting tie rule); a tie (|z| ≤ 2) or the reverse: not reproduced";
    let ca = table_runs
        .first()
        .map(|r| conclusion_a(&r.records))
        .unwrap_or_default();
    let best_tie = table_runs
        .first()
        .and_then(|r| {
            let p = Published::from_toml(super::kind::PUBLISHED).ok()?;
            tie_rule_fit(&compare_table(&p, &summaries(&r.records, "table")))
                .first()
                .map(|f| f.tie)
        })
        .unwrap_or(TieKind::Random);
    match ca.iter().find(|c| c.0 == best_tie).or(ca.first()) {
        Some((t, z, pv, ho)) => out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: "Conclusion: PV(5,10) estimates better than Hold-out(9,10)".into(),
            paper_value: "|true − est.| .088 ± .011 against .109 ± .015".into(),
            ours: format!(
                "{:.3} ± {:.3} against {:.3} ± {:.3} (ties {}): z = {z:.1}, {}",
                pv.mean,
                pv.se,
                ho.mean,
                ho.se,
                t.label(),
                outcome(*z)
            ),
            data: paper_data.clone(),
            verdict: if *z < -Z {
                Verdict::Reproduced
            } else {
                Verdict::NotReproduced
            },
            rule: rule_a.into(),
            section: CONCLUSIONS_SECTION.into(),
        }),
        None => out.push(not_run(
            "Conclusion: PV(5,10) estimates better than Hold-out(9,10)",
            ".088 against .109",
            rule_a,
            CONCLUSIONS_SECTION,
        )),
    }
    // Conclusion B.
    let rule_b = "reproduced: the progressive hypothesis' mean true error at n = 15 below the hold-out's at n = 19 by more than 2 s.e. (Welch z test)";
    match fig_runs.first().and_then(|r| conclusion_b(&r.records)) {
        Some((z, pv, ho)) => out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: "Conclusion: progressive with n = 15 beats hold-out with n = 19".into(),
            paper_value: "Figure 1: progressive at n = 15 below hold-out at n = 19".into(),
            ours: format!(
                "{:.3} ± {:.3} against {:.3} ± {:.3}: z = {z:.1}, {}",
                pv.mean,
                pv.se,
                ho.mean,
                ho.se,
                outcome(z)
            ),
            data: paper_data.clone(),
            verdict: if z < -Z {
                Verdict::Reproduced
            } else {
                Verdict::NotReproduced
            },
            rule: rule_b.into(),
            section: CONCLUSIONS_SECTION.into(),
        }),
        None => out.push(not_run(
            "Conclusion: progressive with n = 15 beats hold-out with n = 19",
            "Figure 1",
            rule_b,
            CONCLUSIONS_SECTION,
        )),
    }
    // Theorems.
    let th_runs: Vec<&StoredRun> = runs
        .iter()
        .copied()
        .filter(|r| {
            r.records
                .iter()
                .any(|x| matches!(x.text("study").as_str(), "kfold" | "progressive_check"))
        })
        .collect();
    let pops: Vec<String> = {
        let mut v: Vec<String> = th_runs
            .iter()
            .flat_map(|r| r.records.iter())
            .filter(|x| matches!(x.text("study").as_str(), "kfold" | "progressive_check"))
            .map(|x| x.text("population"))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let synthetic_only = pops.iter().all(|p| p.contains("synthetic"));
    let data = if pops.is_empty() {
        DataUsed::None
    } else if synthetic_only {
        paper_data.clone()
    } else {
        DataUsed::Substitute(format!(
            "the paper's synthetic problem and real data ({})",
            pops.iter()
                .filter(|p| !p.contains("synthetic"))
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    for (i, (name, claim, rule)) in THEOREMS.iter().enumerate() {
        let section = th_runs.first().map_or_else(
            || CONCLUSIONS_SECTION.to_string(),
            |r| format!("Run `{}`", r.name),
        );
        match theorem(i as u32 + 1, &th_runs) {
            Some(o) => out.push(ScoreRow {
                paper: PAPER.into(),
                artifact: (*name).into(),
                paper_value: (*claim).into(),
                ours: format!("{} rows checked: {}", o.rows, o.words),
                data: data.clone(),
                verdict: if o.violations == 0 {
                    Verdict::Reproduced
                } else {
                    Verdict::NotReproduced
                },
                rule: (*rule).into(),
                section,
            }),
            None => out.push(not_run(name, claim, rule, &section)),
        }
    }
    out
}

/// The conclusions section: both of the paper's conclusions with the test
/// used and its outcome (a tie is stated as a tie).
pub fn overview(runs: &[(String, Vec<Record>)]) -> String {
    let mut md = String::new();
    for (run, records) in runs {
        let a = conclusion_a(records);
        let b = conclusion_b(records);
        if a.is_empty() && b.is_none() {
            continue;
        }
        if md.is_empty() {
            let _ = writeln!(md, "### {CONCLUSIONS_SECTION}\n");
            let _ = writeln!(md, "Each conclusion is tested on our repetitions with a two-sample (Welch) z test of the means (the settings draw independent data, so the comparison is unpaired); |z| ≤ {Z} is reported as a tie.\n");
            let _ = writeln!(md, "| run | conclusion (the paper) | ties | ours: better | ours: worse | z | outcome |");
            let _ = writeln!(md, "|---|---|---|---|---|---|---|");
        }
        for (t, z, pv, ho) in &a {
            let _ = writeln!(md, "| `{run}` | PV(5,10) estimates better than Hold-out(9,10): \\|true − est.\\| .088 ± .011 vs .109 ± .015 | {} | {:.3} ± {:.3} | {:.3} ± {:.3} | {z:.1} | {} |", t.label(), pv.mean, pv.se, ho.mean, ho.se, outcome(*z));
        }
        if let Some((z, pv, ho)) = b {
            let _ = writeln!(md, "| `{run}` | progressive with n = 15 (5 + 10) has a lower true error than hold-out with n = 19 (9 + 10) | any (true error does not depend on it) | {:.3} ± {:.3} | {:.3} ± {:.3} | {z:.1} | {} |", pv.mean, pv.se, ho.mean, ho.se, outcome(z));
        }
    }
    if !md.is_empty() {
        md.push('\n');
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table records: PV(5,10), HO(5,10) and HO(9,10) under both tie rules,
    /// with the given mean |true − estimate| and true error per procedure.
    fn table_records(pv_disc: f64, ho9_disc: f64) -> Vec<Record> {
        let mut out = Vec::new();
        for rep in 0..400i64 {
            let wiggle = if rep % 2 == 0 { 0.03 } else { -0.03 };
            for (proc_, n_train, truth, disc) in [
                ("progressive", 5i64, 0.208, pv_disc),
                ("hold_out", 5, 0.429, 0.12),
                ("hold_out", 9, 0.235, ho9_disc),
            ] {
                for tie in ["half", "random"] {
                    let row = Row {
                        study: "table".into(),
                        population: "synthetic-bkl(N=1000,tie=half)".into(),
                        learner: "eliminator".into(),
                        procedure: proc_.into(),
                        tie: tie.into(),
                        n_train,
                        s: 10,
                        delay: 0,
                        rep,
                        estimate: truth + disc + wiggle,
                        true_error: truth,
                        true_fresh: truth,
                        survivors: 1,
                        ..Row::default()
                    };
                    out.push(row.record());
                }
            }
        }
        out
    }

    #[test]
    fn conclusion_a_is_a_tie_when_the_discrepancies_agree_and_holds_when_they_differ() {
        let holds = table_records(0.05, 0.10);
        let a = conclusion_a(&holds);
        assert_eq!(a.len(), 2);
        assert!(
            a.iter().all(|c| c.1 < -Z),
            "{:?}",
            a.iter().map(|c| c.1).collect::<Vec<_>>()
        );
        let tie = table_records(0.10, 0.10);
        assert!(conclusion_a(&tie).iter().all(|c| c.1.abs() <= Z));
        assert_eq!(outcome(0.3), "tie (no significant difference)");
        // Through the scorecard: the verdict flips.
        let run = |records| {
            StoredRun {
            name: "bkl".into(),
            dir: std::path::PathBuf::new(),
            manifest: serde_json::from_str(r#"{"kind":"progressive","name":"bkl","config_path":"c","config":"","seed":1,"cells":[],"threads":0,"git_revision":"x","machine":{"hostname":"h","os":"l","cpus":1,"cpu_model":"c","memory_bytes":null},"versions":{"cvbench":"0","profile":"debug","rustc":"r"},"started_unix":0,"seconds":0.0,"files":[]}"#).unwrap(),
            records,
        }
        };
        let verdict = |r: &StoredRun| {
            scorecard(&[r])
                .into_iter()
                .find(|x| x.artifact.starts_with("Conclusion: PV(5,10)"))
                .unwrap()
                .verdict
        };
        assert_eq!(verdict(&run(holds)), Verdict::Reproduced);
        assert_eq!(verdict(&run(tie)), Verdict::NotReproduced);
        // No figure-1 or theorem records: those rows are "not run".
        let rows = scorecard(&[&run(table_records(0.05, 0.1))]);
        let f1 = rows
            .iter()
            .find(|x| x.artifact.starts_with("Figure 1"))
            .unwrap();
        assert_eq!(f1.verdict, Verdict::NotRun);
        assert!(rows
            .iter()
            .filter(|x| x.artifact.starts_with("Theorem"))
            .all(|x| x.verdict == Verdict::NotRun));
    }

    #[test]
    fn welch_z_of_known_summaries() {
        let a = Summary::of(&[1.0, 3.0]);
        let b = Summary::of(&[1.0, 3.0]);
        assert_eq!(welch_z(&a, &b), 0.0);
        let c = Summary::of(&[5.0, 7.0]);
        // (2 - 6) / sqrt(1 + 1)
        assert!((welch_z(&a, &c) + 4.0 / 2f64.sqrt()).abs() < 1e-12);
    }
}
