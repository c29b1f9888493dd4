//! Theorems 1–5 from the stored k-fold and progressive-check rows: the
//! moment table and Theorem 3's figure, the tail tables and Theorem 5.

use std::fmt::Write as _;

use serde::Serialize;

use super::super::config::ProgressiveConfig;
use super::super::rows::{kfold_groups, pv_groups, Row};
use super::super::stats::Summary;
use super::super::theorems::{by_n_k, moment_rows, tail_rows, theorem5_row, TailRow};
use super::out::{ci, Out};
use crate::experiments::ExperimentError;
use crate::results::figures::{Figure, Panel, Series, Style};
use crate::results::md_table::MdTable;

/// One row of `theorems12.csv`: a moment of the k-fold and hold-out
/// discrepancies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MomentTableRow {
    /// Population / learner.
    pub population: String,
    /// Data set size.
    pub n: usize,
    /// Folds.
    pub k: usize,
    /// Moment order.
    pub m: u32,
    /// Repetitions.
    pub reps: usize,
    /// `E|ê_K − ē_K|^m`.
    pub kfold_mean: f64,
    /// Its 95% half-width.
    pub kfold_ci95: f64,
    /// `E|ê_1 − ē_1|^m`.
    pub holdout_mean: f64,
    /// Its 95% half-width.
    pub holdout_ci95: f64,
    /// k-fold / hold-out.
    pub ratio: f64,
    /// Paired difference hold-out − k-fold.
    pub diff_mean: f64,
    /// Its 95% half-width.
    pub diff_ci95: f64,
}

/// One row of `theorem3_tails.csv` / `theorem4_tails.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TailTableRow {
    /// Population / learner.
    pub population: String,
    /// Data set size.
    pub n: usize,
    /// The estimator.
    pub estimator: String,
    /// The bound's effective test size.
    pub s: usize,
    /// The deviation `a`.
    pub a: f64,
    /// Repetitions.
    pub reps: usize,
    /// Frequency of `ê − ē > a`, with its Wilson 95% interval.
    pub upper: f64,
    /// Lower end of the interval.
    pub upper_lo: f64,
    /// Upper end of the interval.
    pub upper_hi: f64,
    /// Frequency of `ê − ē < −a`, with its Wilson 95% interval.
    pub lower: f64,
    /// Lower end of the interval.
    pub lower_lo: f64,
    /// Upper end of the interval.
    pub lower_hi: f64,
    /// `exp(−2a²s)`.
    pub bound: f64,
    /// Whether either interval lies above the bound.
    pub bound_violated: bool,
}

impl TailTableRow {
    fn new(population: &str, n: usize, t: &TailRow) -> TailTableRow {
        TailTableRow {
            population: population.to_string(),
            n,
            estimator: t.estimator.clone(),
            s: t.s,
            a: t.a,
            reps: t.reps,
            upper: t.upper,
            upper_lo: t.upper_ci.0,
            upper_hi: t.upper_ci.1,
            lower: t.lower,
            lower_lo: t.lower_ci.0,
            lower_hi: t.lower_ci.1,
            bound: t.bound,
            bound_violated: t.violated(),
        }
    }
}

/// One row of `theorem5.csv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theorem5TableRow {
    /// Population / learner.
    pub population: String,
    /// Training points.
    pub n_train: usize,
    /// Progressive set size.
    pub s: usize,
    /// Repetitions.
    pub reps: usize,
    /// `E(ê_P − ē_P)²`.
    pub progressive_sq_mean: f64,
    /// Its 95% half-width.
    pub progressive_sq_ci95: f64,
    /// `E(ê'_P − ē_P)²`.
    pub fresh_sq_mean: f64,
    /// Its 95% half-width.
    pub fresh_sq_ci95: f64,
    /// Paired difference fresh − progressive.
    pub diff_mean: f64,
    /// Its 95% half-width.
    pub diff_ci95: f64,
    /// `E(ê − ē)²` of the hold-out trained on `n_train`.
    pub holdout_sq_mean: f64,
    /// Mean true error of the progressive hypothesis.
    pub true_progressive_mean: f64,
    /// Mean true error of the hold-out hypothesis.
    pub true_holdout_mean: f64,
}

/// Tail rows whose interval lies above the bound.
fn violations(tails: &[TailTableRow]) -> usize {
    tails.iter().filter(|r| r.bound_violated).count()
}

/// Theorems 1–3 from the k-fold rows: `theorems12.csv`,
/// `theorem3_tails.csv`, Theorem 3's figure and their Markdown.
pub(super) fn kfold_section(
    out: &mut Out,
    c: &ProgressiveConfig,
    rows: &[&Row],
) -> Result<(), ExperimentError> {
    let run = out.run;
    let by_pop = kfold_groups(rows.iter().copied());
    let mut table = Vec::new();
    let mut tails_table = Vec::new();
    let mut panels = Vec::new();
    let _ = writeln!(out.md, "**Theorems 1–2** — E|ê_K − ē_K|^m (k-fold hypothesis) against E|ê_1 − ē_1|^m (hold-out of n/k = fold 1 of the same run, so the comparison is paired). ± = 95% confidence half-width (1.96 s.e.). Theorem 1: ratio ≤ 1; Theorem 2: < 1 for m ≥ 2, 2 < k < n.\n");
    let mut t = MdTable::new([
        "population / learner",
        "n",
        "k",
        "m",
        "k-fold",
        "hold-out n/k",
        "ratio",
        "hold-out − k-fold",
        "verdict",
    ]);
    for (pop, recs) in &by_pop {
        for m in moment_rows(recs, &c.moments) {
            let verdict = if m.kfold_smaller() {
                "k-fold smaller (significant)"
            } else if m.kfold_larger() {
                "k-fold LARGER (significant)"
            } else {
                "no significant difference"
            };
            t.row([
                pop.clone(),
                m.n.to_string(),
                m.k.to_string(),
                m.m.to_string(),
                ci(&m.kfold),
                ci(&m.holdout),
                format!("{:.3}", m.ratio()),
                ci(&m.diff),
                verdict.to_string(),
            ]);
            table.push(MomentTableRow {
                population: pop.clone(),
                n: m.n,
                k: m.k,
                m: m.m,
                reps: m.kfold.n,
                kfold_mean: m.kfold.mean,
                kfold_ci95: m.kfold.ci95(),
                holdout_mean: m.holdout.mean,
                holdout_ci95: m.holdout.ci95(),
                ratio: m.ratio(),
                diff_mean: m.diff.mean,
                diff_ci95: m.diff.ci95(),
            });
        }
        // Theorem 3: tails per (n, k).
        for (n, k, sel) in by_n_k(recs) {
            let dk: Vec<f64> = sel.iter().map(|r| r.est_k - r.true_k).collect();
            let d1: Vec<f64> = sel.iter().map(|r| r.est_1 - r.true_1).collect();
            let s = n / k;
            let tk = tail_rows(&format!("k-fold (k={k})"), &dk, s, &c.tail_a);
            let t1 = tail_rows(&format!("hold-out n/k={s}"), &d1, s, &c.tail_a);
            for t in tk.iter().chain(&t1) {
                tails_table.push(TailTableRow::new(pop, n, t));
            }
            panels.push(tail_panel(
                &format!("{pop}, n={n}, k={k}, {} reps", sel.len()),
                &[&tk, &t1],
                s,
            ));
        }
    }
    out.md_table(&t);
    out.table(&table, "theorems12")?;
    out.table(&tails_table, "theorem3_tails")?;
    let cols = panels.len().clamp(1, 3);
    let fig = Figure {
        title: format!("Theorem 3: Pr[ê − ē > a] against exp(−2a²n/k) — run `{run}`"),
        caption: "markers: upper-tail frequency Pr[estimate - true > a] over repetitions for the k-fold estimate and for the hold-out of n/k (bars: Wilson 95% intervals); thin dashed line: the Hoeffding bound exp(-2a^2 n/k) that Theorem 3 gives both"
            .into(),
        rows: panels.len().div_ceil(cols),
        cols,
        panels,
    };
    out.figure(&fig, "theorem3")?;
    let _ = writeln!(out.md, "**Theorem 3** — the frequency of ê − ē > a for the k-fold estimate and for the hold-out of n/k, against exp(−2a²·n/k), for a in {:?} (`theorem3_tails.csv` has both tails and Wilson intervals). Rows where the lower end of the 95% interval exceeds the bound: {}.\n\n![Theorem 3, run {run}]({run}/theorem3.svg)\n", c.tail_a, violations(&tails_table));
    Ok(())
}

fn tail_panel(title: &str, tails: &[&Vec<TailRow>], s: usize) -> Panel {
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

/// Theorems 4–5 from the progressive-check rows: `theorem5.csv`,
/// `theorem4_tails.csv` and their Markdown.
pub(super) fn pv_section(
    out: &mut Out,
    c: &ProgressiveConfig,
    rows: &[&Row],
) -> Result<(), ExperimentError> {
    let groups = pv_groups(rows.iter().copied());
    let mut table = Vec::new();
    let mut tails_table = Vec::new();
    let _ = writeln!(out.md, "**Theorem 5** — E(ê_P − ē_P)² (progressive estimate) against E(ê'_P − ē_P)² (the progressive hypothesis tested on a fresh hold-out of size s); ± = 95% half-width. Theorem 5: fresh − progressive ≥ 0. For reference, E(ê − ē)² of the plain hold-out trained on n_train (a different, worse hypothesis), and the true errors.\n");
    let mut t = MdTable::new([
        "population / learner",
        "n_train",
        "s",
        "progressive",
        "fresh hold-out for ē_P",
        "fresh − progressive",
        "hold-out (n_train, s)",
        "ē_P",
        "ē hold-out",
    ]);
    for ((pop, n_train, s), recs) in &groups {
        let Some(t5) = theorem5_row(recs) else {
            continue;
        };
        let tp = Summary::of(&recs.iter().map(|r| r.true_p).collect::<Vec<_>>());
        let th = Summary::of(&recs.iter().map(|r| r.true_ho).collect::<Vec<_>>());
        t.row([
            pop.clone(),
            n_train.to_string(),
            s.to_string(),
            ci(&t5.progressive),
            ci(&t5.fresh),
            ci(&t5.diff),
            ci(&t5.holdout),
            format!("{:.3}", tp.mean),
            format!("{:.3}", th.mean),
        ]);
        table.push(Theorem5TableRow {
            population: pop.clone(),
            n_train: *n_train,
            s: *s,
            reps: t5.progressive.n,
            progressive_sq_mean: t5.progressive.mean,
            progressive_sq_ci95: t5.progressive.ci95(),
            fresh_sq_mean: t5.fresh.mean,
            fresh_sq_ci95: t5.fresh.ci95(),
            diff_mean: t5.diff.mean,
            diff_ci95: t5.diff.ci95(),
            holdout_sq_mean: t5.holdout.mean,
            true_progressive_mean: tp.mean,
            true_holdout_mean: th.mean,
        });
        let dev: Vec<f64> = recs.iter().map(|r| r.est_p - r.true_p).collect();
        let dho: Vec<f64> = recs.iter().map(|r| r.est_ho - r.true_ho).collect();
        for t in tail_rows("progressive", &dev, *s, &c.tail_a)
            .iter()
            .chain(&tail_rows("hold-out", &dho, *s, &c.tail_a))
        {
            tails_table.push(TailTableRow::new(pop, n_train + s, t));
        }
    }
    out.md_table(&t);
    out.table(&table, "theorem5")?;
    out.table(&tails_table, "theorem4_tails")?;
    let _ = writeln!(out.md, "**Theorem 4** — tail frequencies of ê_P − ē_P against exp(−2a²s) are in `theorem4_tails.csv` (both tails, Wilson 95% intervals, the hold-out alongside). Rows where the lower end of the interval exceeds the bound: {}.\n", violations(&tails_table));
    Ok(())
}
