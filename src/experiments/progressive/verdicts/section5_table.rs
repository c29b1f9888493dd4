//! The Section 5 table's check: our rows against the published ones.

use super::conclusions::summaries;
use crate::experiments::progressive::paper::{compare_table, tie_rule_fit, Published};
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
