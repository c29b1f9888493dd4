//! Wen et al.'s artifacts judged from stored records: Table 1's LibSVM row
//! (our LibSVM-equivalent baseline), Table 1's seeding rows, Table 3 and the
//! leave-one-out figure. The seeding rows come from each run's `seeding`
//! table (`seeding.parquet`, written by the run's render from its records).

use super::config::{num, num_at, pub_row, Published};
use super::rows::{SeedingRow, SvmRow};
use crate::results::rows::from_records;
use crate::results::scorecard::{DataUsed, ScoreRow, StoredRun, Verdict};
use crate::results::table::{from_frame, read_parquet};

const PAPER: &str = "Wen et al. (AAAI 2017)";
/// The paper's datasets as named in `published.toml`, with their names in the paper.
const DATASETS: [(&str, &str); 5] = [
    ("a9a", "Adult"),
    ("heart", "Heart"),
    ("madelon", "Madelon"),
    ("mnist", "MNIST"),
    ("w8a", "Webdata"),
];

/// What data a run's dataset is, against the paper's `key` dataset.
pub fn data_used(dataset: &str, key: &str, setting: &str) -> DataUsed {
    let d = dataset.to_lowercase();
    let paper_setting = setting == "paper";
    let base = if d.contains("heart_scale") || (key == "heart" && d != "heart") {
        Some(format!("{dataset} instead of the unscaled heart"))
    } else if key == "mnist" && (d.contains("5k") || d.contains("subset")) {
        Some(format!(
            "{dataset}: a 5,000-image subset instead of all 60,000 images"
        ))
    } else {
        None
    };
    match (base, paper_setting) {
        (Some(b), true) => DataUsed::Substitute(b),
        (Some(b), false) => {
            DataUsed::Substitute(format!("{b}; setting `{setting}`, not the paper's"))
        }
        (None, true) => DataUsed::Paper(dataset.to_string()),
        (None, false) => {
            DataUsed::Substitute(format!("{dataset} at setting `{setting}`, not the paper's"))
        }
    }
}

fn key_of(dataset: &str) -> Option<&'static str> {
    let d = dataset.to_lowercase();
    DATASETS.iter().map(|x| x.0).find(|k| d.contains(k))
}

/// The seeding table of a run (empty when it has none or it does not read).
pub fn seeding_rows(run: &StoredRun) -> Vec<SeedingRow> {
    let p = run.dir.join("seeding.parquet");
    if !p.is_file() {
        return Vec::new();
    }
    read_parquet(&p)
        .and_then(|df| from_frame(&df))
        .and_then(|records| from_records(&records))
        .unwrap_or_default()
}

/// The baseline (LibSVM row) of Table 1: our accuracy and total iterations at
/// k = 10, paper setting, method `ours` (else `libsvm`), over every run
/// (each with its rows).
fn baseline_k10(
    runs: &[(&StoredRun, Vec<SvmRow>)],
    key: &str,
) -> Option<(String, String, f64, f64, f64)> {
    for m in ["ours", "libsvm"] {
        for (run, records) in runs {
            let rows: Vec<&SvmRow> = records
                .iter()
                .filter(|r| {
                    key_of(&r.core.dataset) == Some(key)
                        && r.setting == "paper"
                        && r.k == "10"
                        && r.core.method == m
                })
                .collect();
            if let Some(first) = rows.first() {
                let iters: f64 = rows.iter().map(|r| r.iterations as f64).sum();
                return Some((
                    run.name.clone(),
                    first.core.dataset.clone(),
                    first.cv_accuracy_pct.unwrap_or(f64::NAN),
                    iters,
                    first.majority_pct,
                ));
            }
        }
    }
    None
}

const BASELINE_RULE: &str = "reproduced: accuracy within 0.01 points and #iter within 1% of the paper's LibSVM, on the paper's data; pattern reproduced: the accuracy alone, or, where the paper's accuracy is its majority-class rate (Heart, Madelon, MNIST: a kernel matrix close to the identity), ours equal to our majority-class rate on substitute data";

/// Verdict of the LibSVM row from the accuracy difference, the iteration
/// ratio, whether the paper's accuracy is its majority rate and ours is ours
/// (`majority_both`), and the data.
pub fn baseline_verdict(
    acc_diff: f64,
    iter_ratio: f64,
    majority_both: bool,
    data: &DataUsed,
) -> Verdict {
    let acc = acc_diff.abs() <= 0.01 || (majority_both && !matches!(data, DataUsed::Paper(_)));
    let iters = (iter_ratio - 1.0).abs() <= 0.01;
    match (acc, iters, data) {
        (true, true, DataUsed::Paper(_)) => Verdict::Reproduced,
        (true, _, _) => Verdict::PatternReproduced,
        _ => Verdict::NotReproduced,
    }
}

const SEEDING_RULE: &str = "one verdict per method the paper reports (ATO, MIR, SIR): pattern reproduced: the method exact (same optimum as the baseline), with fewer SMO iterations than the baseline and faster in total than it, as in the paper's row; reproduced: that plus the paper's accuracy, on the paper's data and setting; not run: the method or the baseline has no run, or they ran with different kernel caches or threads (a speed verdict compares like with like), or both took under 0.5 s (no evidence of a speed-up)";

/// The seeded methods of Table 1, each judged on its own.
pub const TABLE1_SEEDED: [&str; 3] = ["ato", "mir", "sir"];

/// Verdicts of a Table 1 seeding group (the rows of one dataset, setting,
/// k = 10): one `(method, verdict, words)` per method of [`TABLE1_SEEDED`].
pub fn seeding_verdicts(
    rows: &[&SeedingRow],
    paper_acc: f64,
    data: &DataUsed,
) -> Vec<(&'static str, Verdict, String)> {
    let base = rows.iter().find(|r| r.method == "ours");
    TABLE1_SEEDED
        .iter()
        .map(|&m| {
            let Some(base) = base else {
                return (m, Verdict::NotRun, "no baseline run".to_string());
            };
            let Some(r) = rows.iter().find(|r| r.method == m) else {
                return (m, Verdict::NotRun, format!("{} not run", m.to_uppercase()));
            };
            if r.setup != base.setup {
                return (
                    m,
                    Verdict::NotRun,
                    format!(
                        "not like with like: the baseline ran with {}, {} with {} (the ablation configs compare them at equal cache and threads)",
                        base.setup,
                        m.to_uppercase(),
                        r.setup
                    ),
                );
            }
            if base.total_s.max(r.total_s) < super::ablation::MIN_EVIDENCE_S {
                return (
                    m,
                    Verdict::NotRun,
                    format!(
                        "too short to be evidence of a speed-up: baseline {:.3} s, {} {:.3} s (#iter {:.0} against {:.0}; {})",
                        base.total_s,
                        m.to_uppercase(),
                        r.total_s,
                        r.iterations,
                        base.iterations,
                        exactness_words(&[r])
                    ),
                );
            }
            let exact = r.exactness == "exact";
            let fewer = r.iterations < base.iterations;
            let faster = r.total_s < base.total_s;
            let words = format!(
                "#iter baseline {:.0}, {} {:.0}; speed-up {:.2}x ({:.3} s against {:.3} s); {}; accuracy {:.2}%",
                base.iterations,
                m.to_uppercase(),
                r.iterations,
                base.total_s / r.total_s,
                r.total_s,
                base.total_s,
                exactness_words(&[r]),
                base.accuracy_pct
            );
            let acc = (base.accuracy_pct - paper_acc).abs() <= 0.01;
            let v = match (exact && fewer && faster, acc, data) {
                (true, true, DataUsed::Paper(_)) => Verdict::Reproduced,
                (true, _, _) => Verdict::PatternReproduced,
                _ => Verdict::NotReproduced,
            };
            (m, v, words)
        })
        .collect()
}

/// What "exact" means in a verdict, and where held-out rows flipped.
fn exactness_words(seeded: &[&&SeedingRow]) -> String {
    let flips: Vec<String> = seeded
        .iter()
        .filter(|r| r.rows_flipped > 0)
        .map(|r| {
            format!(
                "{} flipped {} row(s) ({})",
                r.method.to_uppercase(),
                r.rows_flipped,
                r.folds_changed
            )
        })
        .collect();
    let all = seeded.iter().all(|r| r.exactness == "exact");
    let head = if all {
        "exact (every round's objective within 1e-3 relative of the baseline's, at most one held-out row flipped per fold)"
    } else {
        "NOT exact (a round's objective off by more than 1e-3 relative, or more than one held-out row flipped in a fold)"
    };
    if flips.is_empty() {
        format!("{head}; no row flipped")
    } else {
        format!("{head}; {}", flips.join(", "))
    }
}

const TABLE3_RULE: &str = "pattern reproduced: SIR faster than the baseline at every k run, and the largest speed-up at the same k as in the paper (among the k run); not run: fewer than two k (Table 3 is a trend over k); else not reproduced (times are this machine's, so never 'reproduced')";

/// Table 3 verdict from (k, our speed-up, the paper's speed-up) triples.
pub fn table3_verdict(s: &[(String, f64, f64)]) -> Verdict {
    // Table 3 is a trend over k: one k cannot show it.
    if s.len() < 2 {
        return Verdict::NotRun;
    }
    let faster = s.iter().all(|x| x.1 > 1.0);
    let argmax = |f: &dyn Fn(&(String, f64, f64)) -> f64| {
        s.iter()
            .max_by(|a, b| f(a).total_cmp(&f(b)))
            .map(|x| x.0.clone())
    };
    let same_peak = argmax(&|x| x.1) == argmax(&|x| x.2);
    if faster && same_peak {
        Verdict::PatternReproduced
    } else {
        Verdict::NotReproduced
    }
}

const LOOCV_RULE: &str = "pattern reproduced: the baseline slower than SIR, and SIR within 1.25x of the fastest of AVG, TOP, ATO, MIR and SIR (the paper: SIR fastest except on Heart and Madelon, where MIR is slightly faster)";

/// LOOCV verdict of one (dataset, setting): time / SIR per method.
pub fn loocv_verdict(ratios: &[(String, f64)]) -> Verdict {
    let base = ratios.iter().find(|r| r.0 == "ours").map(|r| r.1);
    let fastest = ratios
        .iter()
        .filter(|r| matches!(r.0.as_str(), "avg" | "top" | "ato" | "mir" | "sir"))
        .map(|r| r.1)
        .fold(f64::INFINITY, f64::min);
    match base {
        None => Verdict::NotRun,
        Some(b) if b > 1.0 && 1.0 <= 1.25 * fastest => Verdict::PatternReproduced,
        Some(_) => Verdict::NotReproduced,
    }
}

fn seeding_section(run: &str) -> String {
    format!("Run `{run}`")
}

/// The Wen et al. rows of the scorecard.
pub fn scorecard(runs: &[&StoredRun]) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    let published = Published::load();
    let typed: Vec<(&StoredRun, Vec<SvmRow>)> = runs
        .iter()
        .map(|r| (*r, SvmRow::read(&r.records).unwrap_or_default()))
        .collect();
    let seeding: Vec<(&StoredRun, Vec<SeedingRow>)> = runs
        .iter()
        .map(|r| (*r, seeding_rows(r)))
        .filter(|(_, rows)| !rows.is_empty())
        .collect();
    let overview = "SVM k-fold CV — Wen et al. (AAAI 2017)";
    for (key, name) in DATASETS {
        let t1 = pub_row(&published.table1, key);
        let paper_acc = t1.as_ref().map_or(f64::NAN, |t| num(t, "libsvm_accuracy"));
        let paper_iter = t1
            .as_ref()
            .map_or(f64::NAN, |t| num(t, "libsvm_iterations"));
        // Table 1, LibSVM row.
        match baseline_k10(&typed, key) {
            Some((run, dataset, acc, iters, majority)) => {
                let data = data_used(&dataset, key, "paper");
                let paper_majority = t1
                    .as_ref()
                    .and_then(|t| t.get("accuracy_is_majority"))
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                let majority_both = paper_majority && (acc - majority).abs() <= 0.01;
                out.push(ScoreRow {
                    paper: PAPER.into(),
                    artifact: format!(
                        "Table 1, {name}: LibSVM row (ours = the LibSVM-equivalent baseline)"
                    ),
                    paper_value: format!("{paper_acc:.2}%, {paper_iter:.0} iterations"),
                    ours: format!("{acc:.2}% (majority class {majority:.2}%), {iters:.0} iterations (`{run}`)"),
                    verdict: baseline_verdict(acc - paper_acc, iters / paper_iter, majority_both, &data),
                    data,
                    rule: BASELINE_RULE.into(),
                    section: seeding_section(&run),
                });
            }
            None => out.push(ScoreRow {
                paper: PAPER.into(),
                artifact: format!(
                    "Table 1, {name}: LibSVM row (ours = the LibSVM-equivalent baseline)"
                ),
                paper_value: format!("{paper_acc:.2}%, {paper_iter:.0} iterations"),
                ours: "no run at the paper's setting with k = 10".into(),
                data: DataUsed::None,
                verdict: Verdict::NotRun,
                rule: BASELINE_RULE.into(),
                section: overview.into(),
            }),
        }
        // Table 1, seeding rows (every setting run, the paper's first).
        let mut groups: Vec<(&StoredRun, String, String)> = Vec::new();
        for (run, rows) in &seeding {
            for r in rows
                .iter()
                .filter(|r| r.k == "10" && key_of(&r.dataset) == Some(key))
            {
                let g = (*run, r.dataset.clone(), r.setting.clone());
                if !groups
                    .iter()
                    .any(|x| x.0.name == g.0.name && x.1 == g.1 && x.2 == g.2)
                {
                    groups.push(g);
                }
            }
        }
        groups.sort_by_key(|g| g.2 != "paper");
        let paper_value = t1.as_ref().map_or("–".into(), |t| {
            format!(
                "#iter LibSVM {:.0}, ATO {:.0}, MIR {:.0}, SIR {:.0}; SIR speed-up {:.2}x",
                num(t, "libsvm_iterations"),
                num(t, "ato_iterations"),
                num(t, "mir_iterations"),
                num(t, "sir_iterations"),
                num(t, "libsvm_s") / (num(t, "sir_init_s") + num(t, "sir_rest_s"))
            )
        });
        if groups.is_empty() {
            for m in TABLE1_SEEDED {
                out.push(ScoreRow {
                    paper: PAPER.into(),
                    artifact: format!("Table 1, {name}: {} row", m.to_uppercase()),
                    paper_value: paper_value.clone(),
                    ours: "no seeding run with k = 10".into(),
                    data: DataUsed::None,
                    verdict: Verdict::NotRun,
                    rule: SEEDING_RULE.into(),
                    section: overview.into(),
                });
            }
        }
        for (run, dataset, setting) in &groups {
            let rows_all = &seeding.iter().find(|x| x.0.name == run.name).map(|x| &x.1);
            let rows: Vec<&SeedingRow> = rows_all
                .map(|v| {
                    v.iter()
                        .filter(|r| r.k == "10" && &r.dataset == dataset && &r.setting == setting)
                        .collect()
                })
                .unwrap_or_default();
            let data = data_used(dataset, key, setting);
            for (m, verdict, words) in seeding_verdicts(&rows, paper_acc, &data) {
                out.push(ScoreRow {
                    paper: PAPER.into(),
                    artifact: format!(
                        "Table 1, {name}: {} row (setting `{setting}`)",
                        m.to_uppercase()
                    ),
                    paper_value: paper_value.clone(),
                    ours: format!("{words} (`{}`)", run.name),
                    data: data.clone(),
                    verdict,
                    rule: SEEDING_RULE.into(),
                    section: seeding_section(&run.name),
                });
            }
        }
        // Table 3.
        let t3 = pub_row(&published.table3, key);
        let mut speedups: Vec<(String, f64, f64)> = Vec::new();
        let mut t3_run = None;
        let mut t3_data = DataUsed::None;
        for (run, rows) in &seeding {
            for (col, k) in ["3", "10", "100"].iter().enumerate() {
                let hit = rows.iter().find(|r| {
                    key_of(&r.dataset) == Some(key)
                        && r.setting == "paper"
                        && r.k == *k
                        && r.method == "sir"
                });
                let Some(s) = hit else { continue };
                let Some(b) = SeedingRow::find(rows, &s.dataset, "paper", k, "ours") else {
                    continue;
                };
                if speedups.iter().any(|x| x.0 == *k) {
                    continue;
                }
                let paper = t3
                    .as_ref()
                    .and_then(|t| Some(num_at(t, "libsvm_s", col)? / num_at(t, "sir_s", col)?));
                speedups.push((
                    k.to_string(),
                    b.total_s / s.total_s,
                    paper.unwrap_or(f64::NAN),
                ));
                t3_run.get_or_insert(run.name.clone());
                t3_data = data_used(&s.dataset, key, "paper");
            }
        }
        speedups.sort_by_key(|x| x.0.parse::<u32>().unwrap_or(u32::MAX));
        let paper3 = t3.as_ref().map_or("–".into(), |t| {
            let l: Vec<f64> = t
                .get("libsvm_s")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|x| x.as_float()).collect())
                .unwrap_or_default();
            let s: Vec<f64> = t
                .get("sir_s")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|x| x.as_float()).collect())
                .unwrap_or_default();
            ["3", "10", "100"]
                .iter()
                .zip(l.iter().zip(&s))
                .map(|(k, (l, s))| format!("k={k} {:.2}x", l / s))
                .collect::<Vec<_>>()
                .join(", ")
        });
        out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: format!("Table 3, {name} (SIR speed-up over LibSVM)"),
            paper_value: paper3,
            ours: if speedups.is_empty() {
                "no seeding run with SIR at the paper's setting".into()
            } else {
                speedups
                    .iter()
                    .map(|(k, o, _)| format!("k={k} {o:.2}x"))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + &format!(" (`{}`)", t3_run.clone().unwrap_or_default())
            },
            verdict: table3_verdict(&speedups),
            data: t3_data,
            rule: TABLE3_RULE.into(),
            section: t3_run.map_or_else(|| overview.to_string(), |r| seeding_section(&r)),
        });
    }
    // The leave-one-out figure.
    let mut any = false;
    for (run, rows) in &seeding {
        let mut groups: Vec<(String, String)> = rows
            .iter()
            .filter(|r| r.k == "n" && r.method == "sir")
            .map(|r| (r.dataset.clone(), r.setting.clone()))
            .collect();
        groups.dedup();
        for (d, st) in groups {
            let Some(sir) = SeedingRow::find(rows, &d, &st, "n", "sir") else {
                continue;
            };
            let ratios: Vec<(String, f64)> = rows
                .iter()
                .filter(|r| r.dataset == d && r.setting == st && r.k == "n")
                .map(|r| (r.method.clone(), r.total_s / sir.total_s))
                .collect();
            any = true;
            let key = key_of(&d).unwrap_or("");
            out.push(ScoreRow {
                paper: PAPER.into(),
                artifact: format!("LOOCV figure (supplement), {d} `{st}`"),
                paper_value: "time / SIR: SIR fastest except on Heart and Madelon (MIR slightly better); LibSVM up to 167x slower (Webdata)".into(),
                ours: ratios
                    .iter()
                    .map(|(m, x)| format!("{} {x:.2}", if m == "ours" { "baseline".to_string() } else { m.to_uppercase() }))
                    .collect::<Vec<_>>()
                    .join(", "),
                verdict: loocv_verdict(&ratios),
                data: data_used(&d, key, &st),
                rule: LOOCV_RULE.into(),
                section: seeding_section(&run.name),
            });
        }
    }
    if !any {
        out.push(ScoreRow {
            paper: PAPER.into(),
            artifact: "LOOCV figure (supplement)".into(),
            paper_value:
                "time / SIR: SIR fastest except on Heart and Madelon (MIR slightly better)".into(),
            ours: "no leave-one-out seeding run".into(),
            data: DataUsed::None,
            verdict: Verdict::NotRun,
            rule: LOOCV_RULE.into(),
            section: overview.into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::svm_cv::rows::write_rows;

    /// Issue 18, 6: "exact" says what it means and where rows flipped.
    #[test]
    fn exactness_words_name_the_rule_and_the_flips() {
        let mut a = row("sir", "10", 1.0, 5.0, "exact");
        a.rows_flipped = 1;
        a.folds_changed = "3:117".into();
        let b = row("mir", "10", 1.0, 5.0, "exact");
        let w = exactness_words(&[&&a, &&b]);
        assert!(
            w.contains("within 1e-3 relative") && w.contains("SIR flipped 1 row(s) (3:117)"),
            "{w}"
        );
        let c = row("ato", "10", 1.0, 5.0, "not exact");
        assert!(exactness_words(&[&&c]).starts_with("NOT exact"));
        assert!(exactness_words(&[&&b]).ends_with("no row flipped"));
    }

    /// Issue 18, 3: a Table 3 verdict needs at least two k.
    #[test]
    fn table3_with_one_k_is_not_run() {
        let one = [("10".to_string(), 3.0, 2.0)];
        assert_eq!(table3_verdict(&one), Verdict::NotRun);
        let two = [("3".to_string(), 2.0, 1.5), ("10".to_string(), 3.0, 2.0)];
        assert_eq!(table3_verdict(&two), Verdict::PatternReproduced);
        let peak_elsewhere = [("3".to_string(), 4.0, 1.5), ("10".to_string(), 3.0, 2.0)];
        assert_eq!(table3_verdict(&peak_elsewhere), Verdict::NotReproduced);
    }

    fn row(m: &str, k: &str, total: f64, iters: f64, exact: &str) -> SeedingRow {
        SeedingRow {
            dataset: "madelon".into(),
            setting: "paper".into(),
            k: k.into(),
            method: m.into(),
            rest_s: total,
            total_s: total,
            iterations: iters,
            accuracy_pct: 50.0,
            majority_pct: 50.0,
            speedup_vs_baseline: Some(1.0),
            max_rel_objective_gap: Some(0.0),
            exactness: exact.into(),
            ..SeedingRow::default()
        }
    }

    fn run_with(dir: &std::path::Path, name: &str, rows: &[SeedingRow]) -> StoredRun {
        write_rows(rows, dir, "seeding").unwrap();
        StoredRun {
            name: name.into(),
            dir: dir.to_path_buf(),
            manifest: serde_json::from_str(r#"{"kind":"svm_cv","name":"s","config_path":"c","config":"","seed":1,"cells":[],"threads":0,"git_revision":"x","machine":{"hostname":"h","os":"l","cpus":1,"cpu_model":"c","memory_bytes":null},"versions":{"cvbench":"0","profile":"debug","rustc":"r"},"started_unix":0,"seconds":0.0,"files":[]}"#).unwrap(),
            records: Vec::new(),
        }
    }

    /// Madelon at k = 3, 10, 100 (SIR's total at k = 10 given) and k = n.
    fn madelon(sir_total: f64) -> Vec<SeedingRow> {
        let mut v = Vec::new();
        for (k, base) in [("3", 8.0), ("10", 50.0), ("100", 600.0)] {
            let sir = if k == "10" {
                sir_total
            } else {
                base / (k.len() as f64 * 3.0)
            };
            v.push(row("ours", k, base, 9000.0, "baseline"));
            v.push(row("ato", k, base * 0.5, 5000.0, "exact"));
            v.push(row("mir", k, base * 0.3, 1800.0, "exact"));
            v.push(row("sir", k, sir, 1800.0, "exact"));
        }
        for (m, t) in [
            ("ours", 100.0),
            ("avg", 3.0),
            ("top", 3.0),
            ("ato", 3.0),
            ("mir", 0.9),
            ("sir", 1.0),
        ] {
            let exact = if m == "ours" { "baseline" } else { "exact" };
            v.push(row(m, "n", t, 100.0, exact));
        }
        v
    }

    /// The verdict of the first scorecard row whose artifact starts with `artifact`.
    fn verdict_of(rows: &[ScoreRow], artifact: &str) -> Verdict {
        let r = rows.iter().find(|r| r.artifact.starts_with(artifact));
        r.map_or(Verdict::NotRun, |r| r.verdict)
    }

    #[test]
    fn seeding_rows_are_not_run_without_a_seeding_table_and_judged_with_one() {
        let rows = scorecard(&[]);
        assert!(rows
            .iter()
            .filter(|r| ["ATO row", "MIR row", "SIR row"]
                .iter()
                .any(|m| r.artifact.contains(m))
                || r.artifact.starts_with("Table 3")
                || r.artifact.starts_with("LOOCV"))
            .all(|r| r.verdict == Verdict::NotRun));
        let t1 = "Table 1, Madelon: SIR row (setting `paper`)";
        let t1_ato = "Table 1, Madelon: ATO row (setting `paper`)";
        let (t3, loocv) = ("Table 3, Madelon", "LOOCV figure (supplement), madelon");
        let dir = tempfile::tempdir().unwrap();
        let rows = scorecard(&[&run_with(dir.path(), "seeding-madelon", &madelon(10.0))]);
        assert_eq!(verdict_of(&rows, t1), Verdict::Reproduced);
        assert_eq!(verdict_of(&rows, t1_ato), Verdict::Reproduced);
        assert_eq!(verdict_of(&rows, t3), Verdict::PatternReproduced);
        assert_eq!(verdict_of(&rows, loocv), Verdict::PatternReproduced);
        // A baseline with another cache or thread count: no speed verdict.
        let mut unlike = madelon(10.0);
        for r in unlike.iter_mut().filter(|r| r.method == "ours") {
            r.setup = "per-solve cache, 1 thread".into();
        }
        let dir3 = tempfile::tempdir().unwrap();
        let rows3 = scorecard(&[&run_with(dir3.path(), "seeding-madelon", &unlike)]);
        assert_eq!(verdict_of(&rows3, t1), Verdict::NotRun);
        // Milliseconds are no evidence of a speed-up.
        let dir4 = tempfile::tempdir().unwrap();
        let mut short = madelon(10.0);
        for r in short.iter_mut() {
            r.total_s *= 1e-3;
        }
        let rows4 = scorecard(&[&run_with(dir4.path(), "seeding-madelon", &short)]);
        assert_eq!(verdict_of(&rows4, t1), Verdict::NotRun);
        // SIR now slower than the baseline at k = 10: its Table 1 row and
        // Table 3 flip; ATO (still faster) keeps its own verdict (issue 18, 4).
        let dir2 = tempfile::tempdir().unwrap();
        let rows = scorecard(&[&run_with(dir2.path(), "seeding-madelon", &madelon(80.0))]);
        assert_eq!(verdict_of(&rows, t1), Verdict::NotReproduced);
        assert_eq!(verdict_of(&rows, t1_ato), Verdict::Reproduced);
        assert_eq!(verdict_of(&rows, t3), Verdict::NotReproduced);
    }

    #[test]
    fn baseline_and_loocv_rules() {
        let paper = DataUsed::Paper("a9a".into());
        let sub = DataUsed::Substitute("x".into());
        assert_eq!(
            baseline_verdict(0.0, 1.00002, false, &paper),
            Verdict::Reproduced
        );
        assert_eq!(
            baseline_verdict(0.0, 1.2, false, &sub),
            Verdict::PatternReproduced
        );
        assert_eq!(
            baseline_verdict(21.5, 1.1, false, &sub),
            Verdict::NotReproduced
        );
        // MNIST subset on raw pixels: 50.44% = its majority rate, as the paper's 50.85% is.
        assert_eq!(
            baseline_verdict(-0.41, 0.08, true, &sub),
            Verdict::PatternReproduced
        );
        assert_eq!(
            baseline_verdict(-0.41, 0.08, true, &paper),
            Verdict::NotReproduced
        );
        assert!(matches!(
            data_used("heart_scale", "heart", "paper"),
            DataUsed::Substitute(_)
        ));
        assert!(matches!(
            data_used("mnist-even-odd-5k", "mnist", "paper"),
            DataUsed::Substitute(_)
        ));
        assert!(matches!(
            data_used("a9a", "a9a", "libsvm-defaults"),
            DataUsed::Substitute(_)
        ));
        let r = |v: &[(&str, f64)]| {
            v.iter()
                .map(|(m, x)| (m.to_string(), *x))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            loocv_verdict(&r(&[("ours", 5.0), ("sir", 1.0), ("mir", 0.9)])),
            Verdict::PatternReproduced
        );
        assert_eq!(
            loocv_verdict(&r(&[("ours", 5.0), ("sir", 1.0), ("avg", 0.5)])),
            Verdict::NotReproduced
        );
        assert_eq!(loocv_verdict(&r(&[("sir", 1.0)])), Verdict::NotRun);
    }
}
