//! Rendering of a `treecv` run from its rows (stored records read as
//! [`TreecvRow`]s): the summary table, the Table 2 layout and its figure,
//! the Figure 2 layout (`figure2.rs`), and the cost table (appendix,
//! `cost.rs`); figure columns are styled in `column.rs`.

mod column;
mod cost;
mod figure2;

use super::config::{TreecvConfig, FIGURE2_SECTION, TABLE2_SECTION};
use super::rows::{
    groups, k_order, reps_label, table2_head, Group, GroupKey, SummaryRow, TreecvRow, COLS,
};
use crate::experiments::{ExperimentError, Rendered};
use crate::results::figures::{self, Figure, Panel};
use crate::results::md_table::MdTable;
use crate::results::rows::to_records;
use crate::results::scorecard::anchor;
use crate::results::table::{to_frame, write_table};
use column::push_column;
use cost::cost_table;
use figure2::figure2;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Render a run from its rows: the summary table, the Table 2 layout (and
/// figure) or the Figure 2 layout, the cost table (appendix) and the run's
/// report section.
pub(super) fn render(
    dir: &Path,
    c: &TreecvConfig,
    rows: &[TreecvRow],
) -> Result<Rendered, ExperimentError> {
    let g = groups(rows);
    let mut files = Vec::new();
    // k in numeric order (5, 10, 100, n), as the report's tables show it.
    let mut sorted: Vec<(&GroupKey, &Group)> = g.iter().collect();
    sorted.sort_by(|(a, _), (b, _)| {
        (&a.0, &a.1, &a.2, &a.3, k_order(&a.4), a.5).cmp(&(
            &b.0,
            &b.1,
            &b.2,
            &b.3,
            k_order(&b.4),
            b.5,
        ))
    });
    let summary: Vec<SummaryRow> = sorted.iter().map(|(k, v)| SummaryRow::of(k, v)).collect();
    files.extend(write_table(
        &to_frame(&to_records(&summary)?)?,
        dir,
        "summary",
    )?);

    let mut md = String::new();
    let run = c.name.get_ref();
    let _ = writeln!(md, "### Run `{run}`\n");
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }

    // Table 2 layout: per (dataset, learner, n): rows k, columns method × order.
    let mut blocks: BTreeMap<(String, String, i64), Vec<String>> = BTreeMap::new();
    for (d, l, _, _, k, n) in g.keys() {
        let ks = blocks.entry((d.clone(), l.clone(), *n)).or_default();
        if !ks.contains(k) {
            ks.push(k.clone());
        }
    }
    let many_n = blocks.len() > 4;
    if !many_n {
        for ((d, l, n), mut ks) in blocks.clone() {
            ks.sort_by_key(|k| k_order(k));
            let synthetic = g.iter().any(|(key, v)| key.0 == d && v.synthetic);
            let reps = reps_label(
                g.iter()
                    .filter(|(key, _)| key.0 == d && key.1 == l && key.5 == n)
                    .map(|(_, v)| v),
            );
            let _ = writeln!(
                md,
                "**Table 2 layout — {l} on `{d}`{} (n = {n}), CV estimate ×100, mean ± std over {reps} repetitions**\n",
                if synthetic { " (SYNTHETIC)" } else { "" }
            );
            let mut table = MdTable::new(table2_head());
            for k in &ks {
                let cells = COLS.iter().map(|(m, o, _)| {
                    let key = (
                        d.clone(),
                        l.clone(),
                        m.to_string(),
                        o.to_string(),
                        k.clone(),
                        n,
                    );
                    g.get(&key).map_or("N/A".to_string(), |v| {
                        format!(
                            "{:.3} ± {:.4}",
                            v.estimate.mean * 100.0,
                            v.estimate.std() * 100.0
                        )
                    })
                });
                table.row(std::iter::once(k.clone()).chain(cells));
            }
            md.push_str(&table.markdown());
            md.push('\n');
            if c.paper_table.is_some() {
                let _ = writeln!(md, "The paper's Table 2 for this learner, and its pattern statistics beside ours, are in [Table 2: the paper's pattern against ours](#{}).\n", anchor(TABLE2_SECTION));
            }
        }
    }

    // Table 2 as a figure: estimate (×100) against k, one panel per block.
    if !many_n && !blocks.is_empty() {
        let mut panels = Vec::new();
        for (d, l, n) in blocks.keys() {
            let mut panel = Panel {
                title: String::new(),
                x_label: "k (folds; the last point is k = n)".into(),
                y_label: "CV estimate x100 (mean ± 1 sd)".into(),
                log_x: true,
                ..Panel::default()
            };
            let mut reps = Vec::new();
            for (idx, (m, o, label)) in COLS.iter().enumerate() {
                // Columns side by side: each shifted a little along the log k axis
                // so that the four error bars at one k can be told apart.
                let shift = 10f64.powf((idx as f64 - 1.5) * 0.03);
                let mut pts: Vec<(f64, f64, f64)> = g
                    .iter()
                    .filter(|(kk, _)| {
                        &kk.0 == d && &kk.1 == l && kk.5 == *n && kk.2 == *m && kk.3 == *o
                    })
                    .map(|(_, v)| {
                        reps.push(v.clone());
                        (
                            v.k_value as f64 * shift,
                            v.estimate.mean * 100.0,
                            v.estimate.std() * 100.0,
                        )
                    })
                    .collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                if !pts.is_empty() {
                    let marker = usize::from(*m != "treecv");
                    push_column(&mut panel, (m, o), label.to_string(), pts, (idx, marker));
                }
            }
            panel.title = format!(
                "{} on {d} (n = {n}), {} repetitions",
                l.to_uppercase(),
                reps_label(reps.iter())
            );
            panels.push(panel);
        }
        let cols = panels.len().min(2);
        let rows = panels.len().div_ceil(cols.max(1));
        let synthetic = g.values().any(|v| v.synthetic);
        let fig = Figure {
            title: format!("Table 2 as a figure: CV estimate against k — run `{run}`"),
            caption: format!(
                "solid: TreeCV, dashed: standard k-CV; filled markers: fixed order, hollow: randomized; columns shifted slightly along k so that their error bars (± 1 sd over repetitions) do not overlap; {}",
                if synthetic {
                    "data: SYNTHETIC"
                } else {
                    "real data (what it stands for, if anything, is in the run's description)"
                }
            ),
            rows,
            cols,
            panels,
        };
        files.extend(figures::render(&fig, dir, "table2")?);
        let _ = writeln!(md, "![Table 2 as a figure, run {run}]({run}/table2.svg)\n");
    }

    let appendix = cost_table(run, &g, c.exclusive);

    // Figure 2 layout when the run varies n.
    let ns: std::collections::BTreeSet<i64> = g.keys().map(|k| k.5).collect();
    if ns.len() > 1 {
        let fig = figure2(run, &g);
        files.extend(figures::render(&fig, dir, "figure2")?);
        let _ = writeln!(md, "![Figure 2 layout, run {run}]({run}/figure2.svg)\n");
        let _ = writeln!(md, "The paper's quoted times and randomization factors beside ours: [Figure 2: the paper's times against ours](#{}).\n", anchor(FIGURE2_SECTION));
    }
    if !appendix.is_empty() {
        let _ = writeln!(
            md,
            "Cost of TreeCV against standard k-CV (seconds, passes): [appendix](#{}).\n",
            anchor(&format!("Cost: run `{run}`"))
        );
    }
    Rendered::section(dir, md, appendix, files)
}
