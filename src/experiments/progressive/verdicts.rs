//! Blum, Kalai & Langford's artifacts judged from stored records: Figure 1,
//! the Section 5 table, the two conclusions the paper draws from them, and
//! Theorems 1–5. Feeds the report's conclusions section (`overview`) and the
//! scorecard (`scorecard`).

use super::config::{parse, ProgressiveConfig};
use super::paper::{
    compare_table, published, tie_rule_fit, BklSummary, Procedure, Published, TieKind,
};
use super::render::theorems::by_n_k;
use super::rows::{bkl_summaries, kfold_groups, pv_groups, read_rows, study, Row};
use super::stats::Summary;
use super::theorems::{moment_rows, tail_rows, theorem5_row};
use crate::config::ConfigFile;
use crate::experiments::published::PublishedError;
use crate::experiments::ExperimentError;
use crate::results::md_table::MdTable;
use crate::results::scorecard::{DataUsed, ScoreRow, StoredRun, Verdict};
use crate::results::Record;
use std::fmt::Write as _;

const PAPER: &str = "BKL (COLT 1999)";
/// Heading of the conclusions section.
pub const CONCLUSIONS_SECTION: &str = "BKL: the paper's conclusions against ours";
/// A difference is significant beyond this many standard errors.
pub const Z: f64 = 2.0;

fn summaries(rows: &[Row], name: &str) -> Vec<BklSummary> {
    bkl_summaries(&study(rows, name))
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
pub fn conclusion_a(rows: &[Row]) -> Vec<(TieKind, f64, Summary, Summary)> {
    let s = summaries(rows, "table");
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
pub fn conclusion_b(rows: &[Row]) -> Option<(f64, Summary, Summary)> {
    let s = summaries(rows, "figure1");
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
pub fn figure1_check(rows: &[Row]) -> Option<(bool, String)> {
    let s = summaries(rows, "figure1");
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
    // The rule allows 4 s.e. plus 1e-3 (a floor for means with a tiny
    // s.e.); the words report the plain distance in s.e.
    let mut within = true;
    // Points whose repetitions all have the same true error (s.e. 0): their
    // distance in s.e. is undefined; counted apart with the largest gap.
    let (mut zero_se, mut zero_gap) = (0usize, 0.0f64);
    let mut worst = (0.0f64, 0.0f64);
    for x in &half {
        let diff = (x.true_exact.mean - x.expected_true).abs();
        within &= diff <= 4.0 * x.true_exact.se + 1e-3;
        // A gap below 1e-9 is floating-point rounding of an exact equality
        // (the closed form and a constant simulation), not a distance.
        let diff = if diff < 1e-9 { 0.0 } else { diff };
        if x.true_exact.se > 0.0 {
            if diff / x.true_exact.se > worst_z {
                worst_z = diff / x.true_exact.se;
                worst = (diff, x.true_exact.se);
            }
        } else {
            zero_se += 1;
            zero_gap = zero_gap.max(diff);
        }
    }
    let ok = checked > 0 && below == checked && within;
    let zero = if zero_se > 0 {
        format!(" ({zero_se} points with s.e. 0, largest gap {zero_gap:.1e})")
    } else {
        String::new()
    };
    Some((
        ok,
        format!(
            "progressive below hold-out at {below} of {checked} n; simulation vs closed form: worst {worst_z:.1} s.e. (a gap of {:.1e} with s.e. {:.1e}; the rule allows 4 s.e. + 1e-3; gaps below 1e-9 are rounding, counted as 0){zero} ({} reps)",
            worst.0,
            worst.1,
            half[0].true_exact.n
        ),
    ))
}

/// The Section 5 table: with the best-fitting tie rule every row's true
/// error and discrepancy are within 2 published ± of the paper's.
pub fn table_check(p: &Published, rows: &[Row]) -> Option<(bool, String)> {
    let s = summaries(rows, "table");
    let cmp = compare_table(p, &s);
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

/// A stored run read back: its name, its config (when it still parses) and
/// its typed rows.
struct TypedRun<'a> {
    name: &'a str,
    config: Option<ProgressiveConfig>,
    rows: Vec<Row>,
}

impl<'a> TypedRun<'a> {
    /// The run's rows; a run whose records do not read as rows has none (its
    /// render reports the error).
    fn of(run: &'a StoredRun) -> TypedRun<'a> {
        TypedRun {
            name: &run.name,
            config: parse(&ConfigFile::from_text(
                &run.manifest.config_path,
                &run.manifest.config,
            ))
            .ok(),
            rows: read_rows(&run.records).unwrap_or_default(),
        }
    }

    fn has(&self, name: &str) -> bool {
        self.rows.iter().any(|r| r.study == name)
    }
}

/// Whether a row is a theorem check (k-fold or progressive).
fn is_theorem_row(r: &Row) -> bool {
    matches!(r.study.as_str(), "kfold" | "progressive_check")
}

/// Theorem `t` (1–5) over every theorem run: rows checked and rows where our
/// records contradict it at 95%.
fn theorem(t: u32, runs: &[&TypedRun]) -> Option<TheoremOutcome> {
    let (mut rows, mut violations) = (0, 0);
    for run in runs {
        let c = run.config.as_ref();
        let ms = c.map_or_else(|| vec![1, 2, 3, 4], |c| c.moments.clone());
        let a = c.map_or_else(|| vec![0.05, 0.1, 0.2], |c| c.tail_a.clone());
        match t {
            1..=3 => {
                for recs in kfold_groups(study(&run.rows, "kfold")).values() {
                    if t == 3 {
                        for (n, k, sel) in by_n_k(recs) {
                            let d: Vec<f64> = sel.iter().map(|r| r.est_k - r.true_k).collect();
                            for row in tail_rows("k-fold", &d, n / k, &a) {
                                rows += 1;
                                violations += usize::from(row.violated());
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
                        violations += usize::from(if t == 1 {
                            m.kfold_larger()
                        } else {
                            !m.kfold_smaller()
                        });
                    }
                }
            }
            _ => {
                for recs in pv_groups(study(&run.rows, "progressive_check")).values() {
                    if t == 4 {
                        let s = recs.first().map_or(0, |r| r.s);
                        let d: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
                        for row in tail_rows("progressive", &d, s, &a) {
                            rows += 1;
                            violations += usize::from(row.violated());
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
    ("Theorem 1", "every moment E|ê−ē|^m of the k-fold estimate ≤ the n/k hold-out's", "not contradicted by the simulation: no (n, k, m) row where the k-fold moment is significantly larger (paired 95% interval)"),
    ("Theorem 2", "strictly smaller for m ≥ 2, 2 < k < n", "not contradicted by the simulation: every (n, k, m ≥ 2, 2 < k < n) row has the k-fold moment significantly smaller"),
    ("Theorem 3", "Pr[ê − ē > a] ≤ exp(−2a²n/k) for the k-fold estimate", "not contradicted by the simulation: no (n, k, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 4", "Pr[ê_P − ē_P > a] ≤ exp(−2a²s) for progressive validation", "not contradicted by the simulation: no (n, s, a) row where the lower end of the Wilson 95% interval of either tail exceeds the bound"),
    ("Theorem 5", "E(ê_P − ē_P)² ≤ E(ê'_P − ē_P)² (progressive no worse than a fresh hold-out of s)", "not contradicted by the simulation: no (n_train, s) row where fresh − progressive is significantly negative"),
];

/// One of the paper's artifacts on the scorecard.
struct Artifact<'a> {
    name: &'a str,
    /// The paper's value when a run checks it.
    claim: &'a str,
    rule: &'a str,
    /// The verdict when the check holds: `Reproduced` for a table, figure
    /// or conclusion; `NotContradicted` for a theorem checked by simulation.
    holds: Verdict,
}

/// What a run found for an artifact: our words, whether it reproduces, the
/// data used and the report section to look at.
type Checked<'a> = (String, bool, &'a DataUsed, String);

impl Artifact<'_> {
    /// The artifact's scorecard row: reproduced or not when `checked`,
    /// otherwise "not run" (with the paper's value `short` under `section`).
    fn row(&self, checked: Option<Checked>, (short, section): (&str, &str)) -> ScoreRow {
        let (paper_value, ours, data, verdict, section) = match checked {
            Some((ours, ok, data, section)) => (
                self.claim,
                ours,
                data.clone(),
                if ok {
                    self.holds
                } else {
                    Verdict::NotReproduced
                },
                section,
            ),
            None => (
                short,
                "no run".to_string(),
                DataUsed::None,
                Verdict::NotRun,
                section.to_string(),
            ),
        };
        ScoreRow {
            check: false,
            paper: PAPER.into(),
            artifact: self.name.into(),
            paper_value: paper_value.into(),
            ours,
            data,
            verdict,
            rule: self.rule.into(),
            section,
        }
    }
}

/// "(mean ± s.e.) against (mean ± s.e.)".
fn against(pv: &Summary, ho: &Summary) -> String {
    format!(
        "{:.3} ± {:.3} against {:.3} ± {:.3}",
        pv.mean, pv.se, ho.mean, ho.se
    )
}

/// The progressive-validation rows of the scorecard.
pub fn scorecard(runs: &[&StoredRun]) -> Result<Vec<ScoreRow>, PublishedError> {
    let p = published()?;
    let typed: Vec<TypedRun> = runs.iter().map(|r| TypedRun::of(r)).collect();
    let first_with = |name: &str| typed.iter().find(|r| r.has(name));
    let title = "Progressive validation vs hold-out — Blum, Kalai, Langford (COLT 1999)";
    let run_section = |r: &TypedRun| format!("Run `{}`", r.name);
    let paper_data = DataUsed::Paper(
        "the paper's synthetic boolean problem (N = 1000), its own generator".into(),
    );
    let mut out = Vec::new();
    let fig_run = first_with("figure1");
    let table_run = first_with("table");
    out.push(Artifact {
        name: "Figure 1 (true error against n)",
        claim: "progressive validation's hypothesis has a lower true error than the hold-out's at every n",
        holds: Verdict::Reproduced,
        rule: "reproduced: progressive's mean true error below the hold-out's at every n where the hold-out's exceeds 0.01, and every simulated mean within 4 s.e. (+1e-3) of the closed form",
    }
    .row(
        fig_run.and_then(|r| {
            figure1_check(&r.rows).map(|(ok, words)| (words, ok, &paper_data, run_section(r)))
        }),
        ("progressive below hold-out", title),
    ));
    let published_rows = "PV(5,10) .205 / .088; HO(5,10) .436 / .120; HO(9,10) .235 / .109";
    out.push(Artifact {
        name: "Section 5 table",
        claim: &format!("{published_rows} (true error / discrepancy)"),
        holds: Verdict::Reproduced,
        rule: "reproduced: with the best-fitting tie rule, every row's true error and |true − estimate| within 2 published ± of the paper's",
    }
    .row(
        table_run.and_then(|r| {
            table_check(&p, &r.rows).map(|(ok, words)| (words, ok, &paper_data, run_section(r)))
        }),
        (published_rows, title),
    ));
    // Conclusion A, under the best-fitting tie rule.
    let ca = table_run.map(|r| conclusion_a(&r.rows)).unwrap_or_default();
    let best_tie = table_run
        .and_then(|r| {
            tie_rule_fit(&compare_table(&p, &summaries(&r.rows, "table")))
                .first()
                .map(|f| f.tie)
        })
        .unwrap_or(TieKind::Random);
    out.push(Artifact {
        name: "Conclusion: PV(5,10) estimates better than Hold-out(9,10)",
        claim: "|true − est.| .088 ± .011 against .109 ± .015",
        holds: Verdict::Reproduced,
        rule: "reproduced: PV(5,10)'s mean |true − estimate| smaller than Hold-out(9,10)'s by more than 2 s.e. (Welch z test on the 1000 repetitions, best-fitting tie rule); a tie (|z| ≤ 2) or the reverse: not reproduced",
    }
    .row(
        ca.iter().find(|c| c.0 == best_tie).or(ca.first()).map(|(t, z, pv, ho)| {
            let words = format!(
                "{} (ties {}): z = {z:.1}, {}",
                against(pv, ho),
                t.label(),
                outcome(*z)
            );
            (words, *z < -Z, &paper_data, CONCLUSIONS_SECTION.to_string())
        }),
        (".088 against .109", CONCLUSIONS_SECTION),
    ));
    out.push(Artifact {
        name: "Conclusion: progressive with n = 15 beats hold-out with n = 19",
        claim: "Figure 1: progressive at n = 15 below hold-out at n = 19",
        holds: Verdict::Reproduced,
        rule: "reproduced: the progressive hypothesis' mean true error at n = 15 below the hold-out's at n = 19 by more than 2 s.e. (Welch z test)",
    }
    .row(
        fig_run.and_then(|r| conclusion_b(&r.rows)).map(|(z, pv, ho)| {
            let words = format!("{}: z = {z:.1}, {}", against(&pv, &ho), outcome(z));
            (words, z < -Z, &paper_data, CONCLUSIONS_SECTION.to_string())
        }),
        ("Figure 1", CONCLUSIONS_SECTION),
    ));
    // Theorems.
    let th_runs: Vec<&TypedRun> = typed
        .iter()
        .filter(|r| r.rows.iter().any(is_theorem_row))
        .collect();
    let mut pops: Vec<&str> = th_runs
        .iter()
        .flat_map(|r| r.rows.iter())
        .filter(|r| is_theorem_row(r))
        .map(|r| r.population.as_str())
        .collect();
    pops.sort_unstable();
    pops.dedup();
    let real: Vec<&str> = pops
        .iter()
        .copied()
        .filter(|p| !p.contains("synthetic"))
        .collect();
    let data = if pops.is_empty() {
        DataUsed::None
    } else if real.is_empty() {
        paper_data.clone()
    } else {
        DataUsed::Substitute(format!(
            "the paper's synthetic problem and real data ({})",
            real.join(", ")
        ))
    };
    let section = th_runs
        .first()
        .map_or_else(|| CONCLUSIONS_SECTION.to_string(), |r| run_section(r));
    for (i, (name, claim, rule)) in THEOREMS.iter().enumerate() {
        let checked = theorem(i as u32 + 1, &th_runs).map(|o| {
            let words = format!("{} rows checked: {}", o.rows, o.words);
            (words, o.violations == 0, &data, section.clone())
        });
        let theorem = Artifact {
            name,
            claim,
            rule,
            holds: Verdict::NotContradicted,
        };
        out.push(theorem.row(checked, (claim, &section)));
    }
    Ok(out)
}

/// The conclusions section: both of the paper's conclusions with the test
/// used and its outcome (a tie is stated as a tie), from every run's stored
/// records.
pub fn overview(runs: &[(String, Vec<Record>)]) -> Result<String, ExperimentError> {
    let mut t = MdTable::new([
        "run",
        "conclusion (the paper)",
        "ties",
        "ours: better",
        "ours: worse",
        "z",
        "outcome",
    ]);
    for (run, records) in runs {
        let rows: Vec<Row> = read_rows(records)?;
        let vs = |pv: &Summary, ho: &Summary| {
            [
                format!("{:.3} ± {:.3}", pv.mean, pv.se),
                format!("{:.3} ± {:.3}", ho.mean, ho.se),
            ]
        };
        for (tie, z, pv, ho) in conclusion_a(&rows) {
            let [better, worse] = vs(&pv, &ho);
            t.row([
                format!("`{run}`"),
                "PV(5,10) estimates better than Hold-out(9,10): \\|true − est.\\| .088 ± .011 vs .109 ± .015".into(),
                tie.label().to_string(),
                better,
                worse,
                format!("{z:.1}"),
                outcome(z).to_string(),
            ]);
        }
        if let Some((z, pv, ho)) = conclusion_b(&rows) {
            let [better, worse] = vs(&pv, &ho);
            t.row([
                format!("`{run}`"),
                "progressive with n = 15 (5 + 10) has a lower true error than hold-out with n = 19 (9 + 10)".into(),
                "any (true error does not depend on it)".into(),
                better,
                worse,
                format!("{z:.1}"),
                outcome(z).to_string(),
            ]);
        }
    }
    let mut md = String::new();
    if !t.is_empty() {
        let _ = writeln!(md, "### {CONCLUSIONS_SECTION}\n");
        let _ = writeln!(md, "Each conclusion is tested on our repetitions with a two-sample (Welch) z test of the means (the settings draw independent data, so the comparison is unpaired); |z| ≤ {Z} is reported as a tie.\n");
        md.push_str(&t.markdown());
        md.push('\n');
    }
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::{to_records, Core};

    /// Table records: PV(5,10), HO(5,10) and HO(9,10) under both tie rules,
    /// with the given mean |true − estimate| and true error per procedure.
    fn table_records(pv_disc: f64, ho9_disc: f64) -> Vec<Row> {
        let mut out = Vec::new();
        for rep in 0..400usize {
            let wiggle = if rep % 2 == 0 { 0.03 } else { -0.03 };
            for (proc_, n_train, truth, disc) in [
                ("progressive", 5i64, 0.208, pv_disc),
                ("hold_out", 5, 0.429, 0.12),
                ("hold_out", 9, 0.235, ho9_disc),
            ] {
                for tie in ["half", "random"] {
                    out.push(Row {
                        study: "table".into(),
                        learner: "eliminator".into(),
                        tie: tie.into(),
                        n_train: Some(n_train),
                        s: Some(10),
                        delay: Some(0),
                        estimate: Some(truth + disc + wiggle),
                        true_error: Some(truth),
                        true_fresh: Some(truth),
                        survivors: Some(1),
                        ..Row::new(
                            Core::default(),
                            rep,
                            "synthetic-bkl(N=1000,tie=half)".into(),
                            proc_,
                        )
                    });
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
        let run = |rows: Vec<Row>| {
            let records = to_records(&rows).unwrap();
            StoredRun {
            name: "bkl".into(),
            dir: std::path::PathBuf::new(),
            manifest: serde_json::from_str(r#"{"kind":"progressive","name":"bkl","config_path":"c","config":"","seed":1,"cells":[],"threads":0,"git_revision":"x","machine":{"hostname":"h","os":"l","cpus":1,"cpu_model":"c","memory_bytes":null},"versions":{"cvbench":"0","profile":"debug","rustc":"r"},"started_unix":0,"seconds":0.0,"files":[]}"#).unwrap(),
            records,
        }
        };
        let verdict = |r: &StoredRun| {
            scorecard(&[r])
                .unwrap()
                .into_iter()
                .find(|x| x.artifact.starts_with("Conclusion: PV(5,10)"))
                .unwrap()
                .verdict
        };
        assert_eq!(verdict(&run(holds)), Verdict::Reproduced);
        assert_eq!(verdict(&run(tie)), Verdict::NotReproduced);
        // No figure-1 or theorem records: those rows are "not run".
        let rows = scorecard(&[&run(table_records(0.05, 0.1))]).unwrap();
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

    /// Issue 18, 7: a theorem the simulation does not contradict is "not
    /// contradicted by the simulation", never "reproduced"; one it
    /// contradicts is NOT reproduced.
    #[test]
    fn theorems_are_not_contradicted_or_contradicted_never_reproduced() {
        // Theorem 5 rows: progressive's squared deviation against a fresh
        // hold-out's; `prog_dev` and `fresh_dev` alternate in sign.
        let rows = |prog_dev: f64, fresh_dev: f64| -> Vec<Row> {
            (0..200usize)
                .map(|rep| {
                    let sign = if rep % 2 == 0 { 1.0 } else { -1.0 };
                    Row {
                        study: "progressive_check".into(),
                        learner: "eliminator".into(),
                        n_train: Some(5),
                        s: Some(10),
                        estimate: Some(0.3 + sign * prog_dev),
                        true_error: Some(0.3),
                        fresh_estimate: Some(0.3 + sign * fresh_dev),
                        ..Row::new(Core::default(), rep, "synthetic-bkl".into(), "progressive")
                    }
                })
                .collect()
        };
        let verdict = |rows: Vec<Row>| {
            let run = StoredRun {
                name: "th".into(),
                dir: std::path::PathBuf::new(),
                manifest: serde_json::from_str(r#"{"kind":"progressive","name":"th","config_path":"c","config":"","seed":1,"cells":[],"threads":0,"git_revision":"x","machine":{"hostname":"h","os":"l","cpus":1,"cpu_model":"c","memory_bytes":null},"versions":{"cvbench":"0","profile":"debug","rustc":"r"},"started_unix":0,"seconds":0.0,"files":[]}"#).unwrap(),
                records: to_records(&rows).unwrap(),
            };
            let out = scorecard(&[&run]).unwrap();
            let t5 = out.iter().find(|x| x.artifact == "Theorem 5").unwrap();
            (t5.verdict, t5.rule.clone())
        };
        let (v, rule) = verdict(rows(0.0, 0.1));
        assert_eq!(v, Verdict::NotContradicted);
        assert!(rule.starts_with("not contradicted by the simulation"));
        assert_eq!(verdict(rows(0.1, 0.0)).0, Verdict::NotReproduced);
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
