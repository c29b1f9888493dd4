//! Blum, Kalai & Langford's artifacts on the scorecard: Figure 1, the
//! Section 5 table, the two conclusions and Theorems 1–5, each row with its
//! rule.

use super::conclusions::{conclusion_a, conclusion_b, outcome, CONCLUSIONS_SECTION, Z};
use super::figure1::{figure1_check, Figure1, FIGURE1_RULE};
use super::published::Published;
use super::section5_table::table_check;
use super::stored::TypedRun;
use super::theorems::{is_theorem_row, theorem, THEOREMS};
use crate::experiments::progressive::paper::TieKind;
use crate::experiments::progressive::stats::Summary;
use crate::experiments::published::PublishedError;
use crate::results::scorecard::{Counted, DataUsed, ScoreRow, StoredRun, Verdict};

const PAPER: &str = "BKL (COLT 1999)";

/// One of the paper's artifacts on the scorecard.
struct Artifact<'a> {
    name: &'a str,
    /// The paper's value when a run checks it.
    claim: &'a str,
    rule: &'a str,
    /// The verdict when the check holds: `Reproduced` for a table, figure
    /// or conclusion; `NotContradicted` for a theorem checked by simulation.
    holds: Verdict,
    /// How the headline counts it: `Exploratory` when its rule was fixed
    /// after seeing the data.
    counted: Counted,
}

/// What a run found for an artifact: our words, whether it reproduces
/// (`None`: the run's numbers cannot decide the rule), the data used and
/// the report section to look at.
type Checked<'a> = (String, Option<bool>, &'a DataUsed, String);

impl Artifact<'_> {
    /// The artifact's scorecard row: reproduced or not when `checked`,
    /// otherwise "not run" (with the paper's value `short` under `section`).
    fn row(&self, checked: Option<Checked>, (short, section): (&str, &str)) -> ScoreRow {
        let (paper_value, ours, data, verdict, section) = match checked {
            Some((ours, ok, data, section)) => (
                self.claim,
                ours,
                data.clone(),
                match ok {
                    Some(true) => self.holds,
                    Some(false) => Verdict::NotReproduced,
                    None => Verdict::Inconclusive,
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
            counted: self.counted,
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

/// The Section 5 table's rule: exploratory, since both of its choices were
/// fixed after seeing the data.
const SECTION5_RULE: &str = "exploratory (fixed after seeing the data, so counted apart): the tie rule is the one whose discrepancies fit the published ones best (the paper is silent on ties), and the tolerance is 2 published ± (a ± the paper does not define); under them, reproduced: every row's true error and |true − estimate| within 2 published ± of the paper's";

/// Conclusion A's rule, derived from the paper's text: the paper is silent
/// on how a tie of the survivors' vote is scored, so its claim must hold
/// under each rule it allows.
const CONCLUSION_A_RULE: &str = "reproduced: PV(5,10)'s mean |true − estimate| smaller than Hold-out(9,10)'s by more than 2 s.e. (Welch z test on the 1000 repetitions) under every tie rule: the paper is silent on how a tie of the survivors' vote is scored (Section 5), so its claim must hold for ties scored 1/2 and for ties broken at random; a tie (|z| ≤ 2) or the reverse under either: not reproduced";

/// Conclusion A over the tie rules of `ca` (from [`conclusion_a`]): our
/// words (every rule's numbers) and whether it holds under every rule;
/// `None` without rows.
fn conclusion_a_check(ca: &[(TieKind, f64, Summary, Summary)]) -> Option<(String, bool)> {
    if ca.is_empty() {
        return None;
    }
    let words = ca
        .iter()
        .map(|(t, z, pv, ho)| {
            format!(
                "{} (ties {}): z = {z:.1}, {}",
                against(pv, ho),
                t.label(),
                outcome(*z)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let every = ca.len() == TieKind::ALL.len() && ca.iter().all(|c| c.1 < -Z);
    Some((words, every))
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
    let p = Published::load()?;
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
        counted: Counted::Paper,
        rule: FIGURE1_RULE,
    }
    .row(
        fig_run.and_then(|r| {
            figure1_check(&r.rows).map(|(found, words)| {
                let ok = match found {
                    Figure1::Holds => Some(true),
                    Figure1::Fails => Some(false),
                    Figure1::SimulationOff => None,
                };
                (words, ok, &paper_data, run_section(r))
            })
        }),
        ("progressive below hold-out", title),
    ));
    let published_rows = "PV(5,10) .205 / .088; HO(5,10) .436 / .120; HO(9,10) .235 / .109";
    out.push(
        Artifact {
            name: "Section 5 table",
            claim: &format!("{published_rows} (true error / discrepancy)"),
            holds: Verdict::Reproduced,
            counted: Counted::Exploratory,
            rule: SECTION5_RULE,
        }
        .row(
            table_run.and_then(|r| {
                table_check(&p, &r.rows)
                    .map(|(ok, words)| (words, Some(ok), &paper_data, run_section(r)))
            }),
            (published_rows, title),
        ),
    );
    // Conclusion A, under every tie rule (the paper is silent on ties).
    let ca = table_run.map(|r| conclusion_a(&r.rows)).unwrap_or_default();
    out.push(
        Artifact {
            name: "Conclusion: PV(5,10) estimates better than Hold-out(9,10)",
            claim: "|true − est.| .088 ± .011 against .109 ± .015",
            holds: Verdict::Reproduced,
            counted: Counted::Paper,
            rule: CONCLUSION_A_RULE,
        }
        .row(
            conclusion_a_check(&ca).map(|(words, ok)| {
                (
                    words,
                    Some(ok),
                    &paper_data,
                    CONCLUSIONS_SECTION.to_string(),
                )
            }),
            (".088 against .109", CONCLUSIONS_SECTION),
        ),
    );
    out.push(Artifact {
        name: "Conclusion: progressive with n = 15 beats hold-out with n = 19",
        claim: "Figure 1: progressive at n = 15 below hold-out at n = 19",
        holds: Verdict::Reproduced,
        counted: Counted::Paper,
        rule: "reproduced: the progressive hypothesis' mean true error at n = 15 below the hold-out's at n = 19 by more than 2 s.e. (Welch z test)",
    }
    .row(
        fig_run.and_then(|r| conclusion_b(&r.rows)).map(|(z, pv, ho)| {
            let words = format!("{}: z = {z:.1}, {}", against(&pv, &ho), outcome(z));
            (words, Some(z < -Z), &paper_data, CONCLUSIONS_SECTION.to_string())
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
            (words, Some(o.violations == 0), &data, section.clone())
        });
        let theorem = Artifact {
            name,
            claim,
            rule,
            holds: Verdict::NotContradicted,
            counted: Counted::Paper,
        };
        out.push(theorem.row(checked, (claim, &section)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::progressive::rows::Row;
    use crate::results::rows::{to_records, Core};

    /// A record of the synthetic BKL study `study` (s = 10, no delay, one
    /// survivor) whose estimate is its true error `truth`.
    fn bkl_row(study: &str, tie: &str, n_train: i64, rep: usize, proc_: &str, truth: f64) -> Row {
        Row {
            study: study.into(),
            learner: "eliminator".into(),
            tie: tie.into(),
            n_train: Some(n_train),
            s: Some(10),
            delay: Some(0),
            estimate: Some(truth),
            true_error: Some(truth),
            true_fresh: Some(truth),
            survivors: Some(1),
            ..Row::new(
                Core::default(),
                rep,
                "synthetic-bkl(N=1000,tie=half)".into(),
                proc_,
            )
        }
    }

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
                    let r = bkl_row("table", tie, n_train, rep, proc_, truth);
                    out.push(Row {
                        estimate: Some(truth + disc + wiggle),
                        ..r
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

    /// A stored `progressive` run holding `rows` (a test fixture).
    fn stored(rows: &[Row]) -> StoredRun {
        StoredRun {
            name: "bkl".into(),
            dir: std::path::PathBuf::new(),
            manifest: serde_json::from_str(r#"{"kind":"progressive","name":"bkl","config_path":"c","config":"","seed":1,"cells":[],"threads":0,"git_revision":"x","machine":{"hostname":"h","os":"l","cpus":1,"cpu_model":"c","memory_bytes":null},"versions":{"cvbench":"0","profile":"debug","rustc":"r"},"started_unix":0,"seconds":0.0,"files":[]}"#).unwrap(),
            records: to_records(rows).unwrap(),
        }
    }

    /// Issue 43: rules fixed after seeing the data. The paper is silent on
    /// ties, so Conclusion A must hold under every tie rule (it was judged
    /// under the rule that fits the published table best: here ties scored
    /// 1/2, under which it holds, while random ties give a tie: the verdict
    /// flips from reproduced to NOT reproduced); the Section 5 table, whose
    /// tie rule and tolerance of 2 published ± were fixed after seeing the
    /// data, is counted apart as exploratory.
    #[test]
    fn conclusion_a_must_hold_under_every_tie_rule_and_the_section5_table_is_exploratory() {
        let by_tie = |tie: &str, pv: f64, ho9: f64| -> Vec<Row> {
            table_records(pv, ho9)
                .into_iter()
                .filter(|r| r.tie == tie)
                .collect()
        };
        // Ties 1/2: the published discrepancies (.088 against .109), a
        // significant difference; random ties: .15 against .15, a tie.
        let mut rows = by_tie("half", 0.088, 0.109);
        rows.extend(by_tie("random", 0.15, 0.15));
        let out = scorecard(&[&stored(&rows)]).unwrap();
        let ca = out
            .iter()
            .find(|x| x.artifact.starts_with("Conclusion: PV(5,10)"))
            .unwrap();
        assert_eq!(ca.verdict, Verdict::NotReproduced, "{}", ca.ours);
        assert!(
            ca.ours.contains("(ties half): z = ") && ca.ours.contains("(ties random): z = "),
            "{}",
            ca.ours
        );
        assert!(ca.rule.contains("the paper is silent"), "{}", ca.rule);
        assert_eq!(ca.counted, Counted::Paper);
        // Under both rules it holds: reproduced.
        let mut both = by_tie("half", 0.088, 0.109);
        both.extend(by_tie("random", 0.088, 0.109));
        let out_both = scorecard(&[&stored(&both)]).unwrap();
        assert!(out_both
            .iter()
            .any(|x| x.artifact.starts_with("Conclusion: PV(5,10)")
                && x.verdict == Verdict::Reproduced));
        let t = out
            .iter()
            .find(|x| x.artifact == "Section 5 table")
            .unwrap();
        assert_eq!(t.counted, Counted::Exploratory);
        assert!(t.rule.starts_with("exploratory"), "{}", t.rule);
        assert!(out
            .iter()
            .filter(|x| x.artifact != "Section 5 table")
            .all(|x| x.counted == Counted::Paper));
        let h = crate::results::scorecard::headline(&out);
        assert!(
            h.contains("| BKL (COLT 1999) | Section 5 table (exploratory: rule fixed after seeing the data) | 1 |"),
            "{h}"
        );
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

    /// Figure 1 records (ties scored 1/2) for n = 10..=30, s = 10: each
    /// procedure's true error at repetition `rep` is `truth(procedure,
    /// n_train, rep)`.
    fn figure1_records(truth: impl Fn(&str, i64, usize) -> f64) -> Vec<Row> {
        let mut out = Vec::new();
        for rep in 0..100usize {
            for n_train in 0..=20i64 {
                for proc_ in ["progressive", "hold_out"] {
                    let t = truth(proc_, n_train, rep);
                    out.push(bkl_row("figure1", "half", n_train, rep, proc_, t));
                }
            }
        }
        out
    }

    /// Issue 54: Figure 1's claim is the comparison alone. A run whose
    /// progressive hypothesis is below the hold-out's at every n but whose
    /// simulated means are off their closed form (a check of our run, not
    /// of the paper) was judged NOT reproduced while its words said "below
    /// at 15 of 15 n"; it cannot decide the figure: inconclusive, and the
    /// words name the point that is off. On the closed form itself the
    /// figure is reproduced; with progressive above the hold-out at one n,
    /// not reproduced.
    #[test]
    fn figure1_is_inconclusive_not_refuted_when_only_the_simulation_is_off_its_closed_form() {
        let figure1 = |rows: Vec<Row>| {
            scorecard(&[&stored(&rows)])
                .unwrap()
                .into_iter()
                .find(|x| x.artifact.starts_with("Figure 1"))
                .unwrap()
        };
        // The closed form of each point, read back from a first pass.
        let s = super::super::conclusions::summaries(&figure1_records(|_, _, _| 0.1), "figure1");
        let exact = |proc_: &str, n_train: i64| {
            s.iter()
                .find(|x| {
                    x.procedure.label() == proc_.replace('_', "-") && x.n_train as i64 == n_train
                })
                .unwrap()
                .expected_true
        };
        let on_closed_form = figure1(figure1_records(|p, n, _| exact(p, n)));
        assert_eq!(
            on_closed_form.verdict,
            Verdict::Reproduced,
            "{}",
            on_closed_form.ours
        );
        // Every simulated mean 0.01 above its closed form (s.e. 0): progressive
        // still below the hold-out at every n.
        let off = figure1(figure1_records(|p, n, _| exact(p, n) + 0.01));
        assert!(
            off.ours
                .starts_with("progressive below hold-out at 15 of 15 n"),
            "{}",
            off.ours
        );
        assert_eq!(off.verdict, Verdict::Inconclusive, "{}", off.ours);
        assert!(off.ours.contains("is off its closed form"), "{}", off.ours);
        assert!(off.rule.contains("inconclusive"), "{}", off.rule);
        // Progressive above the hold-out at n = 15, with a spread over the
        // repetitions that puts its closed form within 4 s.e.: the claim
        // fails on a simulation that agrees with the closed form.
        let gap = exact("hold_out", 5) - exact("progressive", 5) + 0.001;
        let above = figure1(figure1_records(|p, n, rep| {
            if p == "progressive" && n == 5 {
                let wiggle = if rep % 2 == 0 { 5.0 * gap } else { -5.0 * gap };
                exact("hold_out", 5) + 0.001 + wiggle
            } else {
                exact(p, n)
            }
        }));
        assert!(
            above
                .ours
                .starts_with("progressive below hold-out at 14 of 15 n"),
            "{}",
            above.ours
        );
        assert_eq!(above.verdict, Verdict::NotReproduced, "{}", above.ours);
    }
}
