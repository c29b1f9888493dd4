//! The Section 5 table's check: our rows against the published ones (the
//! rows paired, the tie rules' fit, the check).

use super::conclusions::summaries;
use super::published::{Published, PublishedRow};
use crate::experiments::progressive::paper::{BklSummary, TieKind};
use crate::experiments::progressive::rows::Row;

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

/// The paper's table beside ours: one row per (published row, tie rule).
#[derive(Clone, Debug, PartialEq)]
pub struct TableComparison {
    /// The published row.
    pub published: PublishedRow,
    /// Our summary of the same setting under one tie rule.
    pub ours: BklSummary,
}

impl TableComparison {
    /// Ours minus published, true error (fresh-set measurement, as the paper).
    pub fn true_error_diff(&self) -> f64 {
        self.ours.true_fresh.mean - self.published.true_error
    }

    /// Ours minus published, discrepancy.
    pub fn discrepancy_diff(&self) -> f64 {
        self.ours.disc_fresh.mean - self.published.discrepancy
    }

    /// The discrepancy difference in units of our standard error.
    pub fn discrepancy_z(&self) -> f64 {
        self.discrepancy_diff() / self.ours.disc_fresh.se
    }
}

/// Pair each published row with our summaries (both tie rules) of the same
/// procedure and sizes (delay 0).
pub fn compare_table(published: &Published, summaries: &[BklSummary]) -> Vec<TableComparison> {
    let mut out = Vec::new();
    for row in &published.table {
        for s in summaries.iter().filter(|s| {
            s.procedure == row.procedure && s.n_train == row.n_train && s.s == row.s && s.delay == 0
        }) {
            out.push(TableComparison {
                published: row.clone(),
                ours: s.clone(),
            });
        }
    }
    out
}

/// How well one tie rule's discrepancies fit the published ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TieFit {
    /// The tie rule.
    pub tie: TieKind,
    /// Sum over rows of squared (ours − published) / our standard error.
    pub chi2_ours: f64,
    /// Sum over rows of squared (ours − published) / published ±.
    pub chi2_published: f64,
    /// Largest |ours − published| / published ± over the rows.
    pub worst_published: f64,
}

/// Which tie rule's discrepancies are closer to the published ones, best
/// (smallest `chi2_published`) first.
pub fn tie_rule_fit(comparisons: &[TableComparison]) -> Vec<TieFit> {
    let mut fit: Vec<TieFit> = TieKind::ALL
        .iter()
        .map(|&t| {
            let rows: Vec<&TableComparison> =
                comparisons.iter().filter(|c| c.ours.tie == t).collect();
            let zp = |c: &TableComparison| c.discrepancy_diff() / c.published.discrepancy_pm;
            TieFit {
                tie: t,
                chi2_ours: rows.iter().map(|c| c.discrepancy_z().powi(2)).sum(),
                chi2_published: rows.iter().map(|c| zp(c).powi(2)).sum(),
                worst_published: rows.iter().map(|c| zp(c).abs()).fold(0.0, f64::max),
            }
        })
        .collect();
    fit.sort_by(|a, b| a.chi2_published.total_cmp(&b.chi2_published));
    fit
}
