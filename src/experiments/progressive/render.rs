//! Tables, figures and the report section of the `progressive` kind, from
//! stored records only.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::exact::{expected_progressive_true_error, expected_true_error};
use super::kind::{ProgressiveConfig, Row, PUBLISHED};
use super::paper::{
    compare_table, summarize, tie_rule_fit, BklRecord, BklSummary, Procedure, Published, TieKind,
};
use super::stats::Summary;
use super::theorems::{moment_rows, tail_rows, theorem5_row, KFoldRecord, ProgressiveRecord};
use crate::experiments::{ExperimentError, Rendered};
use crate::results::figures::{self, Figure, Panel, Series, Style};
use crate::results::table::{to_frame, write_atomic, write_table};
use crate::results::Record;

pub(super) fn to_bkl(r: &Row) -> Option<BklRecord> {
    let procedure = match r.procedure.as_str() {
        "hold_out" => Procedure::HoldOut,
        "progressive" => Procedure::Progressive,
        _ => return None,
    };
    let tie = match r.tie.as_str() {
        "half" => TieKind::Half,
        "random" => TieKind::Random,
        _ => return None,
    };
    Some(BklRecord {
        procedure,
        n_train: r.n_train.max(0) as usize,
        s: r.s.max(0) as usize,
        delay: r.delay.max(0) as usize,
        rep: r.rep.max(0) as usize,
        tie,
        estimate: r.estimate,
        true_exact: r.true_error,
        true_fresh: r.true_fresh,
        survivors: r.survivors.max(0) as usize,
    })
}

pub(super) fn n_features_of(rows: &[&Row]) -> usize {
    rows.iter()
        .find_map(|r| {
            let p = &r.population;
            let start = p.find("N=")? + 2;
            let end = p[start..].find(|c: char| !c.is_ascii_digit())? + start;
            p[start..end].parse().ok()
        })
        .unwrap_or(1000)
}

/// Four decimals, or scientific notation for small non-zero values.
fn num(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-3 {
        format!("{x:.2e}")
    } else {
        format!("{x:.4}")
    }
}

fn pm(s: &Summary) -> String {
    if s.mean.is_finite() {
        format!("{:.3} ± {:.3}", s.mean, s.se)
    } else {
        "–".into()
    }
}

/// Render every study present in `records`.
pub fn render(
    dir: &Path,
    c: &ProgressiveConfig,
    records: &[Record],
) -> Result<Rendered, ExperimentError> {
    let rows: Vec<Row> = records.iter().map(Row::from_record).collect();
    let by = |study: &str| -> Vec<&Row> { rows.iter().filter(|r| r.study == study).collect() };
    let run = c.name.get_ref();
    let mut md = String::new();
    let mut files = Vec::new();
    let _ = writeln!(md, "### Run `{run}`\n");
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let fig1 = by("figure1");
    if !fig1.is_empty() {
        figure1(dir, run, &fig1, &mut md, &mut files)?;
    }
    let table = by("table");
    if !table.is_empty() {
        paper_table(dir, &table, &by("delay"), &mut md, &mut files)?;
    }
    let kf = by("kfold");
    if !kf.is_empty() {
        kfold_section(dir, run, c, &kf, &mut md, &mut files)?;
    }
    let pv = by("progressive_check");
    if !pv.is_empty() {
        pv_section(dir, c, &pv, &mut md, &mut files)?;
    }
    let st = by("stream");
    if !st.is_empty() {
        stream_section(dir, run, &st, &by("stream_summary"), &mut md, &mut files)?;
    }
    write_atomic(&dir.join("report-section.md"), md.as_bytes())?;
    files.push(dir.join("report-section.md"));
    Ok(Rendered {
        files,
        markdown: md,
        appendix: String::new(),
    })
}

fn figure1(
    dir: &Path,
    run: &str,
    rows: &[&Row],
    md: &mut String,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<(), ExperimentError> {
    let n_features = n_features_of(rows);
    let recs: Vec<BklRecord> = rows.iter().filter_map(|r| to_bkl(r)).collect();
    let sums = summarize(&recs, n_features);
    let table: Vec<Record> = sums.iter().map(summary_record).collect();
    files.extend(write_table(&to_frame(&table)?, dir, "figure1")?);
    let s = sums.first().map_or(10, |x| x.s);
    let reps = sums.first().map_or(0, |x| x.true_exact.n);
    let mut truth = Panel {
        title: format!("true error of the produced hypothesis (bars: 1 sd over {reps} reps)"),
        x_label: "n (total examples)".into(),
        y_label: "true error".into(),
        ..Panel::default()
    };
    let mut disc = Panel {
        title: format!("|true error - estimate| (bars: 1 s.e. over {reps} reps)"),
        x_label: "n (total examples)".into(),
        y_label: "mean |true - estimate|".into(),
        ..Panel::default()
    };
    for (pi, procedure) in [Procedure::HoldOut, Procedure::Progressive]
        .into_iter()
        .enumerate()
    {
        let half: Vec<&BklSummary> = sums
            .iter()
            .filter(|x| x.procedure == procedure && x.tie == TieKind::Half)
            .collect();
        let name = if procedure == Procedure::HoldOut {
            format!("hold-out (train n-{s}, test {s})")
        } else {
            format!("progressive (train n-{s}, validate on {s})")
        };
        truth.push(
            Series {
                bars: false,
                label: format!("{name}: simulated"),
                points: half
                    .iter()
                    .map(|x| {
                        (
                            (x.n_train + x.s) as f64,
                            x.true_exact.mean,
                            x.true_exact.std,
                        )
                    })
                    .collect(),
                color: pi,
                marker: pi,
            },
            Style::default(),
        );
        truth.push(
            Series {
                bars: false,
                label: format!("{}: closed-form expectation", procedure.label()),
                points: half
                    .iter()
                    .map(|x| ((x.n_train + x.s) as f64, x.expected_true, 0.0))
                    .collect(),
                color: pi,
                marker: pi,
            },
            Style {
                dashed: true,
                thin: true,
                hollow: false,
            },
        );
        for tie in TieKind::ALL {
            disc.push(
                Series {
                    bars: false,
                    label: format!("{}, ties {}", procedure.label(), tie.label()),
                    points: sums
                        .iter()
                        .filter(|x| x.procedure == procedure && x.tie == tie)
                        .map(|x| ((x.n_train + x.s) as f64, x.disc_exact.mean, x.disc_exact.se))
                        .collect(),
                    color: pi,
                    marker: pi,
                },
                Style {
                    dashed: tie == TieKind::Random,
                    thin: false,
                    hollow: tie == TieKind::Random,
                },
            );
        }
    }
    let fig = Figure {
        title: format!("BKL Figure 1: true error against n — run `{run}`"),
        caption: format!(
            "SYNTHETIC data, the paper's generator (N = {n_features} boolean features, one is the label); {reps} repetitions; exact true errors; colour: procedure; thin dashed lines: closed-form expectations (no simulation); right panel: solid = ties scored 1/2, dashed with hollow markers = ties broken at random"
        ),
        rows: 1,
        cols: 2,
        panels: vec![truth, disc],
    };
    files.extend(figures::render(&fig, dir, "figure1")?);
    let _ = writeln!(
        md,
        "**Figure 1** — true error of the hold-out and progressive hypotheses against n (mean ± one standard deviation over {reps} repetitions, as in the paper; the true error is exact, from the closed form in the number of surviving features; thin dashed lines: closed-form expectations, no simulation).\n\n![Figure 1, run {run}]({run}/figure1.svg)\n"
    );
    let _ = writeln!(md, "| n | hold-out true error | progressive true error | hold-out E (closed form) | progressive E (closed form) |");
    let _ = writeln!(md, "|---|---|---|---|---|");
    let mut ns: Vec<usize> = sums.iter().map(|x| x.n_train + x.s).collect();
    ns.sort_unstable();
    ns.dedup();
    for n in ns {
        let get = |p: Procedure| {
            sums.iter()
                .find(|x| x.procedure == p && x.tie == TieKind::Half && x.n_train + x.s == n)
        };
        let (h, p) = (get(Procedure::HoldOut), get(Procedure::Progressive));
        let f = |x: Option<&BklSummary>| {
            x.map_or("–".into(), |x| {
                format!("{:.3} (sd {:.3})", x.true_exact.mean, x.true_exact.std)
            })
        };
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {:.4} | {:.4} |",
            f(h),
            f(p),
            h.map_or(f64::NAN, |x| x.expected_true),
            p.map_or(f64::NAN, |x| x.expected_true)
        );
    }
    md.push('\n');
    Ok(())
}

fn summary_record(x: &BklSummary) -> Record {
    Record::new()
        .with("procedure", x.procedure.label())
        .with("n_train", x.n_train)
        .with("s", x.s)
        .with("delay", x.delay)
        .with("tie", x.tie.label())
        .with("reps", x.true_exact.n)
        .with("true_exact_mean", x.true_exact.mean)
        .with("true_exact_sd", x.true_exact.std)
        .with("true_exact_se", x.true_exact.se)
        .with("true_fresh_mean", x.true_fresh.mean)
        .with("true_fresh_sd", x.true_fresh.std)
        .with("true_fresh_se", x.true_fresh.se)
        .with("estimate_mean", x.estimate.mean)
        .with("disc_fresh_mean", x.disc_fresh.mean)
        .with("disc_fresh_sd", x.disc_fresh.std)
        .with("disc_fresh_se", x.disc_fresh.se)
        .with("disc_exact_mean", x.disc_exact.mean)
        .with("disc_exact_se", x.disc_exact.se)
        .with("expected_true_closed_form", x.expected_true)
}

fn paper_table(
    dir: &Path,
    rows: &[&Row],
    delay_rows: &[&Row],
    md: &mut String,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<(), ExperimentError> {
    let n_features = n_features_of(rows);
    let recs: Vec<BklRecord> = rows.iter().filter_map(|r| to_bkl(r)).collect();
    let sums = summarize(&recs, n_features);
    let published = Published::from_toml(PUBLISHED).map_err(|e| ExperimentError::Cell {
        cell: "published.toml".into(),
        message: e.to_string(),
    })?;
    let cmp = compare_table(&published, &sums);
    let table: Vec<Record> = cmp
        .iter()
        .map(|c| {
            summary_record(&c.ours)
                .with("row", c.published.label.as_str())
                .with("published_true_error", c.published.true_error)
                .with("published_true_error_pm", c.published.true_error_pm)
                .with("published_discrepancy", c.published.discrepancy)
                .with("published_discrepancy_pm", c.published.discrepancy_pm)
                .with("true_error_diff", c.true_error_diff())
                .with("discrepancy_diff", c.discrepancy_diff())
        })
        .collect();
    files.extend(write_table(&to_frame(&table)?, dir, "table")?);
    let reps = sums.first().map_or(0, |x| x.true_fresh.n);
    let _ = writeln!(md, "**The table of Section 5** — SYNTHETIC data (N = {n_features}); {reps} repetitions; true error measured on fresh examples as in the paper (the exact value is in `table.csv`). Ours: mean ± standard error of the mean over repetitions (sd = standard deviation across repetitions). Published ± as printed (the paper does not define it).\n");
    let _ = writeln!(md, "| row | ties | true error: published | ours | ours − published | \\|true − est.\\|: published | ours (sd) | ours − published | in published ± |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for c in &cmp {
        let o = &c.ours;
        let _ = writeln!(
            md,
            "| {} | {} | {:.3} ± {:.3} | {} | {:+.3} | {:.3} ± {:.3} | {} ({:.3}) | {:+.3} | {:+.1} |",
            c.published.label,
            o.tie.label(),
            c.published.true_error,
            c.published.true_error_pm,
            pm(&o.true_fresh),
            c.true_error_diff(),
            c.published.discrepancy,
            c.published.discrepancy_pm,
            pm(&o.disc_fresh),
            o.disc_fresh.std,
            c.discrepancy_diff(),
            c.discrepancy_diff() / c.published.discrepancy_pm,
        );
    }
    md.push('\n');
    let fit = tie_rule_fit(&cmp);
    if let (Some(best), Some(other)) = (fit.first(), fit.get(1)) {
        let _ = writeln!(
            md,
            "**Which tie rule?** The true error does not depend on the tie rule (a tie costs 1/2 in expectation under any rule; see `exact.rs`), so only the discrepancy column can tell the rules apart: scoring a tie as 1/2 makes the estimate less noisy, hence a smaller |true − estimate|. Sum over the three rows of ((ours − published) / published ±)²: **{}** {:.2} (worst row {:.1}±), {} {:.2} (worst row {:.1}±); in units of our standard error: {} {:.1}, {} {:.1}. The published discrepancies are most consistent with ties **broken at random** (`{}` fits best) — equivalently any fixed default label, which has the same distribution of losses by the bit-flip symmetry.\n",
            best.tie.label(),
            best.chi2_published,
            best.worst_published,
            other.tie.label(),
            other.chi2_published,
            other.worst_published,
            best.tie.label(),
            best.chi2_ours,
            other.tie.label(),
            other.chi2_ours,
            best.tie.label(),
        );
    }
    let ho5 = expected_true_error(n_features, 5);
    let ho9 = expected_true_error(n_features, 9);
    let pv = expected_progressive_true_error(n_features, 5, 10);
    let _ = writeln!(
        md,
        "Closed-form expected true errors (no simulation): hold-out trained on 5: {ho5:.4}; on 9: {ho9:.4}; progressive hypothesis (5, 10): {pv:.4}.\n"
    );
    if !delay_rows.is_empty() {
        let recs: Vec<BklRecord> = delay_rows.iter().filter_map(|r| to_bkl(r)).collect();
        let mut sums = summarize(&recs, n_features);
        sums.extend(
            summarize(
                &rows.iter().filter_map(|r| to_bkl(r)).collect::<Vec<_>>(),
                n_features,
            )
            .into_iter()
            .filter(|x| x.procedure == Procedure::Progressive),
        );
        sums.sort_by_key(|x| (x.tie, x.delay));
        let _ = writeln!(md, "**Progressive validation with a delay** (test point i joins training d points later; d = 0 is the paper's procedure, d = s − 1 the hold-out):\n");
        let _ = writeln!(md, "| train, s | delay d | ties | true error (exact) | closed-form E | \\|true − est.\\| |");
        let _ = writeln!(md, "|---|---|---|---|---|---|");
        for x in &sums {
            let _ = writeln!(
                md,
                "| {}, {} | {} | {} | {} | {:.4} | {} |",
                x.n_train,
                x.s,
                x.delay,
                x.tie.label(),
                pm(&x.true_exact),
                x.expected_true,
                pm(&x.disc_exact)
            );
        }
        md.push('\n');
    }
    Ok(())
}

fn kfold_section(
    dir: &Path,
    run: &str,
    c: &ProgressiveConfig,
    rows: &[&Row],
    md: &mut String,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<(), ExperimentError> {
    let mut by_pop: BTreeMap<String, Vec<KFoldRecord>> = BTreeMap::new();
    for r in rows {
        by_pop
            .entry(format!("{} / {}", r.population, r.learner))
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
    let mut table = Vec::new();
    let mut tails_table = Vec::new();
    let mut panels = Vec::new();
    let _ = writeln!(md, "**Theorems 1–2** — E|ê_K − ē_K|^m (k-fold hypothesis) against E|ê_1 − ē_1|^m (hold-out of n/k = fold 1 of the same run, so the comparison is paired). ± = 95% confidence half-width (1.96 s.e.). Theorem 1: ratio ≤ 1; Theorem 2: < 1 for m ≥ 2, 2 < k < n.\n");
    let _ = writeln!(md, "| population / learner | n | k | m | k-fold | hold-out n/k | ratio | hold-out − k-fold | verdict |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for (pop, recs) in &by_pop {
        for m in moment_rows(recs, &c.moments) {
            let ci = |s: &Summary| format!("{} ± {}", num(s.mean), num(s.ci95()));
            let verdict = if m.diff.mean - m.diff.ci95() > 0.0 {
                "k-fold smaller (significant)"
            } else if m.diff.mean + m.diff.ci95() < 0.0 {
                "k-fold LARGER (significant)"
            } else {
                "no significant difference"
            };
            let _ = writeln!(
                md,
                "| {pop} | {} | {} | {} | {} | {} | {:.3} | {} | {verdict} |",
                m.n,
                m.k,
                m.m,
                ci(&m.kfold),
                ci(&m.holdout),
                m.ratio(),
                ci(&m.diff)
            );
            table.push(
                Record::new()
                    .with("population", pop.as_str())
                    .with("n", m.n)
                    .with("k", m.k)
                    .with("m", u64::from(m.m))
                    .with("reps", m.kfold.n)
                    .with("kfold_mean", m.kfold.mean)
                    .with("kfold_ci95", m.kfold.ci95())
                    .with("holdout_mean", m.holdout.mean)
                    .with("holdout_ci95", m.holdout.ci95())
                    .with("ratio", m.ratio())
                    .with("diff_mean", m.diff.mean)
                    .with("diff_ci95", m.diff.ci95()),
            );
        }
        // Theorem 3: tails per (n, k).
        let mut nk: Vec<(usize, usize)> = recs.iter().map(|r| (r.n, r.k)).collect();
        nk.sort_unstable();
        nk.dedup();
        for (n, k) in nk {
            let sel: Vec<&KFoldRecord> = recs.iter().filter(|r| r.n == n && r.k == k).collect();
            let dk: Vec<f64> = sel.iter().map(|r| r.est_k - r.true_k).collect();
            let d1: Vec<f64> = sel.iter().map(|r| r.est_1 - r.true_1).collect();
            let s = n / k;
            let tk = tail_rows(&format!("k-fold (k={k})"), &dk, s, &c.tail_a);
            let t1 = tail_rows(&format!("hold-out n/k={s}"), &d1, s, &c.tail_a);
            for t in tk.iter().chain(&t1) {
                tails_table.push(tail_record(pop, n, t));
            }
            panels.push(tail_panel(
                &format!("{pop}, n={n}, k={k}, {} reps", sel.len()),
                &[&tk, &t1],
                s,
            ));
        }
    }
    md.push('\n');
    files.extend(write_table(&to_frame(&table)?, dir, "theorems12")?);
    files.extend(write_table(
        &to_frame(&tails_table)?,
        dir,
        "theorem3_tails",
    )?);
    let cols = panels.len().clamp(1, 3);
    let fig = Figure {
        title: format!("Theorem 3: Pr[ê − ē > a] against exp(−2a²n/k) — run `{run}`"),
        caption: "markers: upper-tail frequency Pr[estimate - true > a] over repetitions for the k-fold estimate and for the hold-out of n/k (bars: Wilson 95% intervals); thin dashed line: the Hoeffding bound exp(-2a^2 n/k) that Theorem 3 gives both"
            .into(),
        rows: panels.len().div_ceil(cols),
        cols,
        panels,
    };
    files.extend(figures::render(&fig, dir, "theorem3")?);
    let violations = tails_table
        .iter()
        .filter(|r| {
            matches!(
                r.get("bound_violated"),
                Some(crate::results::Value::Bool(true))
            )
        })
        .count();
    let _ = writeln!(md, "**Theorem 3** — the frequency of ê − ē > a for the k-fold estimate and for the hold-out of n/k, against exp(−2a²·n/k), for a in {:?} (`theorem3_tails.csv` has both tails and Wilson intervals). Rows where the lower end of the 95% interval exceeds the bound: {violations}.\n\n![Theorem 3, run {run}]({run}/theorem3.svg)\n", c.tail_a);
    Ok(())
}

fn tail_record(pop: &str, n: usize, t: &super::theorems::TailRow) -> Record {
    Record::new()
        .with("population", pop)
        .with("n", n)
        .with("estimator", t.estimator.as_str())
        .with("s", t.s)
        .with("a", t.a)
        .with("reps", t.reps)
        .with("upper", t.upper)
        .with("upper_lo", t.upper_ci.0)
        .with("upper_hi", t.upper_ci.1)
        .with("lower", t.lower)
        .with("lower_lo", t.lower_ci.0)
        .with("lower_hi", t.lower_ci.1)
        .with("bound", t.bound)
        .with(
            "bound_violated",
            t.upper_ci.0 > t.bound || t.lower_ci.0 > t.bound,
        )
}

fn tail_panel(title: &str, tails: &[&Vec<super::theorems::TailRow>], s: usize) -> Panel {
    let mut panel = Panel {
        title: title.to_string(),
        x_label: "a".into(),
        y_label: "Pr[estimate - true > a]".into(),
        ..Panel::default()
    };
    for (i, t) in tails.iter().enumerate() {
        panel.push(
            Series {
                bars: false,
                label: t.first().map_or(String::new(), |x| x.estimator.clone()),
                points: t
                    .iter()
                    .map(|x| (x.a, x.upper, (x.upper_ci.1 - x.upper_ci.0) / 2.0))
                    .collect(),
                color: i,
                marker: i,
            },
            Style::default(),
        );
    }
    if let Some(t) = tails.first() {
        panel.push(
            Series {
                bars: false,
                label: format!("bound exp(-2 a^2 s), s = {s}"),
                points: t.iter().map(|x| (x.a, x.bound, 0.0)).collect(),
                color: 7,
                marker: 3,
            },
            Style {
                dashed: true,
                thin: true,
                hollow: false,
            },
        );
    }
    panel
}

/// Progressive-check rows grouped by (population / learner, n_train, s).
pub(super) fn pv_groups<'a>(
    rows: impl Iterator<Item = &'a Row>,
) -> BTreeMap<(String, i64, i64), Vec<ProgressiveRecord>> {
    let mut groups: BTreeMap<(String, i64, i64), Vec<ProgressiveRecord>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((format!("{} / {}", r.population, r.learner), r.n_train, r.s))
            .or_default()
            .push(ProgressiveRecord {
                n_train: r.n_train.max(0) as usize,
                s: r.s.max(0) as usize,
                rep: r.rep.max(0) as usize,
                est_p: r.estimate,
                true_p: r.true_error,
                fresh_p: r.fresh_estimate,
                est_ho: r.holdout_estimate,
                true_ho: r.holdout_true,
            });
    }
    groups
}

fn pv_section(
    dir: &Path,
    c: &ProgressiveConfig,
    rows: &[&Row],
    md: &mut String,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<(), ExperimentError> {
    let groups = pv_groups(rows.iter().copied());
    let mut table = Vec::new();
    let mut tails_table = Vec::new();
    let _ = writeln!(md, "**Theorem 5** — E(ê_P − ē_P)² (progressive estimate) against E(ê'_P − ē_P)² (the progressive hypothesis tested on a fresh hold-out of size s); ± = 95% half-width. Theorem 5: fresh − progressive ≥ 0. For reference, E(ê − ē)² of the plain hold-out trained on n_train (a different, worse hypothesis), and the true errors.\n");
    let _ = writeln!(md, "| population / learner | n_train | s | progressive | fresh hold-out for ē_P | fresh − progressive | hold-out (n_train, s) | ē_P | ē hold-out |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for ((pop, n_train, s), recs) in &groups {
        let Some(t5) = theorem5_row(recs) else {
            continue;
        };
        let ci = |x: &Summary| format!("{} ± {}", num(x.mean), num(x.ci95()));
        let tp = Summary::of(&recs.iter().map(|r| r.true_p).collect::<Vec<_>>());
        let th = Summary::of(&recs.iter().map(|r| r.true_ho).collect::<Vec<_>>());
        let _ = writeln!(
            md,
            "| {pop} | {n_train} | {s} | {} | {} | {} | {} | {:.3} | {:.3} |",
            ci(&t5.progressive),
            ci(&t5.fresh),
            ci(&t5.diff),
            ci(&t5.holdout),
            tp.mean,
            th.mean
        );
        table.push(
            Record::new()
                .with("population", pop.as_str())
                .with("n_train", *n_train)
                .with("s", *s)
                .with("reps", t5.progressive.n)
                .with("progressive_sq_mean", t5.progressive.mean)
                .with("progressive_sq_ci95", t5.progressive.ci95())
                .with("fresh_sq_mean", t5.fresh.mean)
                .with("fresh_sq_ci95", t5.fresh.ci95())
                .with("diff_mean", t5.diff.mean)
                .with("diff_ci95", t5.diff.ci95())
                .with("holdout_sq_mean", t5.holdout.mean)
                .with("true_progressive_mean", tp.mean)
                .with("true_holdout_mean", th.mean),
        );
        let dev: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
        let dho: Vec<f64> = recs.iter().map(|r| r.est_ho - r.true_ho).collect();
        let su = (*s).max(0) as usize;
        for t in tail_rows("progressive", &dev, su, &c.tail_a)
            .iter()
            .chain(&tail_rows("hold-out", &dho, su, &c.tail_a))
        {
            tails_table.push(tail_record(pop, (*n_train + *s).max(0) as usize, t));
        }
    }
    md.push('\n');
    files.extend(write_table(&to_frame(&table)?, dir, "theorem5")?);
    files.extend(write_table(
        &to_frame(&tails_table)?,
        dir,
        "theorem4_tails",
    )?);
    let violations = tails_table
        .iter()
        .filter(|r| {
            matches!(
                r.get("bound_violated"),
                Some(crate::results::Value::Bool(true))
            )
        })
        .count();
    let _ = writeln!(md, "**Theorem 4** — tail frequencies of ê_P − ē_P against exp(−2a²s) are in `theorem4_tails.csv` (both tails, Wilson 95% intervals, the hold-out alongside). Rows where the lower end of the interval exceeds the bound: {violations}.\n");
    Ok(())
}

fn stream_section(
    dir: &Path,
    run: &str,
    rows: &[&Row],
    summaries: &[&Row],
    md: &mut String,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<(), ExperimentError> {
    let mut groups: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.population.clone(), r.learner.clone()))
            .or_default()
            .push(r);
    }
    let mut panels = Vec::new();
    for ((data, learner), pts) in &groups {
        let rep0: Vec<&&Row> = pts.iter().filter(|r| r.rep == 0).collect();
        let sum = summaries
            .iter()
            .find(|r| &r.population == data && &r.learner == learner && r.rep == 0);
        let xs: Vec<f64> = rep0.iter().map(|r| (r.t + 1) as f64).collect();
        let (x0, x1) = (
            xs.first().copied().unwrap_or(1.0),
            xs.last().copied().unwrap_or(1.0),
        );
        let mut series = vec![
            Series {
                bars: false,
                label: "running progressive loss".into(),
                points: rep0
                    .iter()
                    .map(|r| ((r.t + 1) as f64, r.estimate, 0.0))
                    .collect(),
                color: 0,
                marker: 0,
            },
            Series {
                bars: false,
                label: "test-set loss of the current model".into(),
                points: rep0
                    .iter()
                    .map(|r| ((r.t + 1) as f64, r.test_error, 0.0))
                    .collect(),
                color: 1,
                marker: 1,
            },
        ];
        if let Some(s) = sum {
            series.push(Series {
                bars: false,
                label: format!("hold-out estimate (last {} points)", s.s),
                points: vec![(x0, s.holdout_estimate, 0.0), (x1, s.holdout_estimate, 0.0)],
                color: 2,
                marker: 2,
            });
            series.push(Series {
                bars: false,
                label: "test-set loss of the hold-out hypothesis".into(),
                points: vec![(x0, s.holdout_true, 0.0), (x1, s.holdout_true, 0.0)],
                color: 3,
                marker: 3,
            });
        }
        let styles = (0..series.len())
            .map(|i| Style {
                dashed: i >= 2,
                thin: false,
                hollow: false,
            })
            .collect();
        panels.push(Panel {
            title: format!("{learner} on {data}, one pass (1 repetition)"),
            styles,
            x_label: "points seen (log scale)".into(),
            y_label: if learner == "lsqsgd" {
                "squared error".into()
            } else {
                "misclassification rate".into()
            },
            log_x: true,
            series,
            ..Panel::default()
        });
    }
    let cols = panels.len().clamp(1, 2);
    let fig = Figure {
        title: format!("Progressive validation on data streams — run `{run}`"),
        caption: "real data; one pass of each learner over a seeded random order; markers at log-spaced checkpoints; dashed horizontal lines: the hold-out estimate (train on the first 90%, test on the last 10%) and its hypothesis' test-set loss".into(),
        rows: panels.len().div_ceil(cols),
        cols,
        panels,
    };
    files.extend(figures::render(&fig, dir, "stream")?);
    let table: Vec<Record> = summaries
        .iter()
        .map(|s| {
            Record::new()
                .with("dataset", s.population.as_str())
                .with("learner", s.learner.as_str())
                .with("n", s.n)
                .with("rep", s.rep)
                .with("progressive_estimate", s.estimate)
                .with("progressive_hypothesis_test_loss", s.true_error)
                .with("progressive_hypothesis_test_loss_se", s.true_fresh)
                .with("final_model_test_loss", s.test_error)
                .with("holdout_size", s.s)
                .with("holdout_estimate", s.holdout_estimate)
                .with("holdout_hypothesis_test_loss", s.holdout_true)
        })
        .collect();
    files.extend(write_table(&to_frame(&table)?, dir, "stream")?);
    let _ = writeln!(md, "**Progressive validation on streams** — one pass of each learner over a random order of the training set; the running progressive loss (each model tested on the next point before learning it), the test-set loss of the current model at log-spaced checkpoints, and a hold-out estimate (train on the first 90%, test on the last 10%).\n\n![Streams, run {run}]({run}/stream.svg)\n");
    let _ = writeln!(md, "| dataset | learner | n | progressive estimate | test loss of the progressive hypothesis (sampled members ± s.e.) | final model test loss | hold-out estimate | hold-out hypothesis test loss |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for s in summaries {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.4} | {:.4} ± {:.4} | {:.4} | {:.4} | {:.4} |",
            s.population,
            s.learner,
            s.n,
            s.estimate,
            s.true_error,
            s.true_fresh,
            s.test_error,
            s.holdout_estimate,
            s.holdout_true
        );
    }
    md.push('\n');
    Ok(())
}
