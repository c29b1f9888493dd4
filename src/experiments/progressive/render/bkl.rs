//! BKL Figure 1, the table of Section 5 and progressive validation with a
//! delay: figures, CSV tables and Markdown, from the stored BKL rows.

use std::fmt::Write as _;

use serde::Serialize;

use super::super::exact::{expected_progressive_true_error, expected_true_error};
use super::super::paper::{BklSummary, Procedure, TieKind};
use super::super::rows::{bkl_summaries, n_features_of, Row};
use super::super::verdicts::published::Published;
use super::super::verdicts::section5_table::{compare_table, tie_rule_fit, TableComparison};
use super::out::{pm, Out};
use crate::experiments::ExperimentError;
use crate::results::figures::{Figure, Panel, Series, Style};
use crate::results::md_table::MdTable;

/// One row of `figure1.csv` (and the first columns of `table.csv`): a
/// [`BklSummary`] flattened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SummaryRow {
    /// Procedure label (`hold-out`, `progressive`).
    pub procedure: &'static str,
    /// Training examples before the test set.
    pub n_train: usize,
    /// Test / progressive set size.
    pub s: usize,
    /// Progressive delay.
    pub delay: usize,
    /// Tie rule.
    pub tie: &'static str,
    /// Repetitions.
    pub reps: usize,
    /// Exact true error: mean, sd, s.e.
    pub true_exact_mean: f64,
    /// Standard deviation over repetitions.
    pub true_exact_sd: f64,
    /// Standard error of the mean.
    pub true_exact_se: f64,
    /// Fresh-set true error: mean (NaN without a fresh set).
    pub true_fresh_mean: f64,
    /// Standard deviation over repetitions.
    pub true_fresh_sd: f64,
    /// Standard error of the mean.
    pub true_fresh_se: f64,
    /// Mean estimate.
    pub estimate_mean: f64,
    /// `|fresh true error − estimate|`: mean.
    pub disc_fresh_mean: f64,
    /// Standard deviation over repetitions.
    pub disc_fresh_sd: f64,
    /// Standard error of the mean.
    pub disc_fresh_se: f64,
    /// `|exact true error − estimate|`: mean.
    pub disc_exact_mean: f64,
    /// Standard error of the mean.
    pub disc_exact_se: f64,
    /// Closed-form expectation of the true error.
    pub expected_true_closed_form: f64,
}

impl From<&BklSummary> for SummaryRow {
    fn from(x: &BklSummary) -> SummaryRow {
        SummaryRow {
            procedure: x.procedure.label(),
            n_train: x.n_train,
            s: x.s,
            delay: x.delay,
            tie: x.tie.label(),
            reps: x.true_exact.n,
            true_exact_mean: x.true_exact.mean,
            true_exact_sd: x.true_exact.std,
            true_exact_se: x.true_exact.se,
            true_fresh_mean: x.true_fresh.mean,
            true_fresh_sd: x.true_fresh.std,
            true_fresh_se: x.true_fresh.se,
            estimate_mean: x.estimate.mean,
            disc_fresh_mean: x.disc_fresh.mean,
            disc_fresh_sd: x.disc_fresh.std,
            disc_fresh_se: x.disc_fresh.se,
            disc_exact_mean: x.disc_exact.mean,
            disc_exact_se: x.disc_exact.se,
            expected_true_closed_form: x.expected_true,
        }
    }
}

/// One row of `table.csv`: our summary beside the published row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    /// Our summary.
    #[serde(flatten)]
    pub ours: SummaryRow,
    /// The published row's label.
    pub row: String,
    /// Published true error and its ±.
    pub published_true_error: f64,
    /// Published ± of the true error.
    pub published_true_error_pm: f64,
    /// Published discrepancy.
    pub published_discrepancy: f64,
    /// Published ± of the discrepancy.
    pub published_discrepancy_pm: f64,
    /// Ours − published, true error.
    pub true_error_diff: f64,
    /// Ours − published, discrepancy.
    pub discrepancy_diff: f64,
}

impl From<&TableComparison> for TableRow {
    fn from(c: &TableComparison) -> TableRow {
        TableRow {
            ours: SummaryRow::from(&c.ours),
            row: c.published.label.clone(),
            published_true_error: c.published.true_error,
            published_true_error_pm: c.published.true_error_pm,
            published_discrepancy: c.published.discrepancy,
            published_discrepancy_pm: c.published.discrepancy_pm,
            true_error_diff: c.true_error_diff(),
            discrepancy_diff: c.discrepancy_diff(),
        }
    }
}

/// Figure 1: the figure, `figure1.csv` and its Markdown table.
pub(super) fn figure1(out: &mut Out, rows: &[&Row]) -> Result<(), ExperimentError> {
    let run = out.run;
    let n_features = n_features_of(rows);
    let sums = bkl_summaries(rows);
    let table: Vec<SummaryRow> = sums.iter().map(SummaryRow::from).collect();
    out.table(&table, "figure1")?;
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
    let n_of = |x: &BklSummary| (x.n_train + x.s) as f64;
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
        let series = |label: String, points: Vec<(f64, f64, f64)>| Series {
            bars: false,
            label,
            points,
            color: pi,
            marker: pi,
        };
        truth.push(
            series(
                format!("{name}: simulated"),
                half.iter()
                    .map(|x| (n_of(x), x.true_exact.mean, x.true_exact.std))
                    .collect(),
            ),
            Style::default(),
        );
        truth.push(
            series(
                format!("{}: closed-form expectation", procedure.label()),
                half.iter()
                    .map(|x| (n_of(x), x.expected_true, 0.0))
                    .collect(),
            ),
            Style {
                dashed: true,
                thin: true,
                hollow: false,
            },
        );
        for tie in TieKind::ALL {
            disc.push(
                series(
                    format!("{}, ties {}", procedure.label(), tie.label()),
                    sums.iter()
                        .filter(|x| x.procedure == procedure && x.tie == tie)
                        .map(|x| (n_of(x), x.disc_exact.mean, x.disc_exact.se))
                        .collect(),
                ),
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
    out.figure(&fig, "figure1")?;
    let _ = writeln!(
        out.md,
        "**Figure 1** — true error of the hold-out and progressive hypotheses against n (mean ± one standard deviation over {reps} repetitions, as in the paper; the true error is exact, from the closed form in the number of surviving features; thin dashed lines: closed-form expectations, no simulation).\n\n![Figure 1, run {run}]({run}/figure1.svg)\n"
    );
    let mut t = MdTable::new([
        "n",
        "hold-out true error",
        "progressive true error",
        "hold-out E (closed form)",
        "progressive E (closed form)",
    ]);
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
        let e = |x: Option<&BklSummary>| format!("{:.4}", x.map_or(f64::NAN, |x| x.expected_true));
        t.row([n.to_string(), f(h), f(p), e(h), e(p)]);
    }
    out.md_table(&t);
    Ok(())
}

/// The table of Section 5 beside the published one, the tie-rule fit, the
/// closed forms and (with delay rows) progressive validation with a delay.
pub(super) fn paper_table(
    out: &mut Out,
    rows: &[&Row],
    delay_rows: &[&Row],
) -> Result<(), ExperimentError> {
    let n_features = n_features_of(rows);
    let sums = bkl_summaries(rows);
    let cmp = compare_table(&Published::load()?, &sums);
    let table: Vec<TableRow> = cmp.iter().map(TableRow::from).collect();
    out.table(&table, "table")?;
    let reps = sums.first().map_or(0, |x| x.true_fresh.n);
    let _ = writeln!(out.md, "**The table of Section 5** — SYNTHETIC data (N = {n_features}); {reps} repetitions; true error measured on fresh examples as in the paper (the exact value is in `table.csv`). Ours: mean ± standard error of the mean over repetitions (sd = standard deviation across repetitions). Published ± as printed (the paper does not define it).\n");
    let mut t = MdTable::new([
        "row",
        "ties",
        "true error: published",
        "ours",
        "ours − published",
        "\\|true − est.\\|: published",
        "ours (sd)",
        "ours − published",
        "in published ±",
    ]);
    for c in &cmp {
        let o = &c.ours;
        t.row([
            c.published.label.clone(),
            o.tie.label().to_string(),
            format!(
                "{:.3} ± {:.3}",
                c.published.true_error, c.published.true_error_pm
            ),
            pm(&o.true_fresh),
            format!("{:+.3}", c.true_error_diff()),
            format!(
                "{:.3} ± {:.3}",
                c.published.discrepancy, c.published.discrepancy_pm
            ),
            format!("{} ({:.3})", pm(&o.disc_fresh), o.disc_fresh.std),
            format!("{:+.3}", c.discrepancy_diff()),
            format!("{:+.1}", c.discrepancy_diff() / c.published.discrepancy_pm),
        ]);
    }
    out.md_table(&t);
    let fit = tie_rule_fit(&cmp);
    if let (Some(best), Some(other)) = (fit.first(), fit.get(1)) {
        let _ = writeln!(
            out.md,
            "**Which tie rule?** The true error does not depend on the tie rule (a tie costs 1/2 in expectation under any rule, by the bit-flip symmetry of the generator), so only the discrepancy column can tell the rules apart: scoring a tie as 1/2 makes the estimate less noisy, hence a smaller |true − estimate|. Sum over the three rows of ((ours − published) / published ±)²: **{}** {:.2} (worst row {:.1}±), {} {:.2} (worst row {:.1}±); in units of our standard error: {} {:.1}, {} {:.1}. The published discrepancies are most consistent with ties **broken at random** (`{}` fits best) — equivalently any fixed default label, which has the same distribution of losses by the bit-flip symmetry.\n",
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
        out.md,
        "Closed-form expected true errors (no simulation): hold-out trained on 5: {ho5:.4}; on 9: {ho9:.4}; progressive hypothesis (5, 10): {pv:.4}.\n"
    );
    if !delay_rows.is_empty() {
        delay_table(out, &sums, delay_rows);
    }
    Ok(())
}

/// Progressive validation with a delay: the delay rows beside the table's
/// progressive rows (`table_sums`, delay 0).
fn delay_table(out: &mut Out, table_sums: &[BklSummary], delay_rows: &[&Row]) {
    let mut sums = bkl_summaries(delay_rows);
    sums.extend(
        table_sums
            .iter()
            .filter(|x| x.procedure == Procedure::Progressive)
            .cloned(),
    );
    sums.sort_by_key(|x| (x.tie, x.delay));
    let _ = writeln!(out.md, "**Progressive validation with a delay** (test point i joins training d points later; d = 0 is the paper's procedure, d = s − 1 the hold-out):\n");
    let mut t = MdTable::new([
        "train, s",
        "delay d",
        "ties",
        "true error (exact)",
        "closed-form E",
        "\\|true − est.\\|",
    ]);
    for x in &sums {
        t.row([
            format!("{}, {}", x.n_train, x.s),
            x.delay.to_string(),
            x.tie.label().to_string(),
            pm(&x.true_exact),
            format!("{:.4}", x.expected_true),
            pm(&x.disc_exact),
        ]);
    }
    out.md_table(&t);
}
