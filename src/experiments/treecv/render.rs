//! Rendering of a `treecv` run from its stored records: the Table 2 layout
//! and its figure, the Figure 2 layout, and the cost table (appendix).

use super::TreecvConfig;
use crate::experiments::{ExperimentError, Rendered};
use crate::results::figures::{self, Figure, Panel, Series, Style};
use crate::results::scorecard::anchor;
use crate::results::table::{to_frame, write_atomic, write_table};
use crate::results::Record;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Default, Clone)]
pub(super) struct Stats {
    pub count: usize,
    pub mean: f64,
    m2: f64,
}

impl Stats {
    pub fn add(&mut self, x: f64) {
        self.count += 1;
        let d = x - self.mean;
        self.mean += d / self.count as f64;
        self.m2 += d * (x - self.mean);
    }
    pub fn std(&self) -> f64 {
        if self.count > 1 {
            (self.m2 / (self.count - 1) as f64).sqrt()
        } else {
            0.0
        }
    }
}

pub(super) type GroupKey = (String, String, String, String, String, i64);

#[derive(Default, Clone)]
pub(super) struct Group {
    pub estimate: Stats,
    pub seconds: Stats,
    pub updates: Stats,
    pub passes: Stats,
    pub copies: Stats,
    pub peak: f64,
    pub synthetic: bool,
    pub k_value: i64,
}

fn s(r: &Record, c: &str) -> String {
    r.text(c)
}

fn f(r: &Record, c: &str) -> f64 {
    r.number(c)
}

pub(super) fn groups(records: &[Record]) -> BTreeMap<GroupKey, Group> {
    let mut g: BTreeMap<GroupKey, Group> = BTreeMap::new();
    for r in records {
        let key = (
            s(r, "dataset"),
            s(r, "learner"),
            s(r, "method"),
            s(r, "order"),
            s(r, "k"),
            f(r, "n") as i64,
        );
        let e = g.entry(key).or_default();
        e.estimate.add(f(r, "estimate"));
        e.seconds.add(f(r, "seconds"));
        e.updates.add(f(r, "updates"));
        e.passes.add(f(r, "passes"));
        e.copies.add(f(r, "copies"));
        e.peak = e.peak.max(f(r, "peak_models"));
        e.synthetic = matches!(r.get("synthetic"), Some(crate::results::Value::Bool(true)));
        e.k_value = f(r, "k_value") as i64;
    }
    g
}

#[derive(Deserialize)]
pub(super) struct Published {
    pub table2: BTreeMap<String, PublishedTable>,
    #[serde(default)]
    pub figure2: Vec<PublishedTime>,
    #[serde(default)]
    pub randomization_factor: BTreeMap<String, f64>,
}

/// A running time quoted in the paper's Figure 2 text.
#[derive(Deserialize)]
pub(super) struct PublishedTime {
    pub learner: String,
    pub what: String,
    pub method: String,
    pub order: String,
    pub k: String,
    pub n: i64,
    pub seconds: f64,
}

#[derive(Deserialize)]
pub(super) struct PublishedTable {
    pub dataset: String,
    pub units: String,
    pub rows: Vec<PublishedRow>,
}

#[derive(Deserialize)]
pub(super) struct PublishedRow {
    pub k: String,
    pub treecv_fixed: Option<[f64; 2]>,
    pub treecv_randomized: Option<[f64; 2]>,
    pub standard_fixed: Option<[f64; 2]>,
    pub standard_randomized: Option<[f64; 2]>,
}

pub(super) const COLS: [(&str, &str, &str); 4] = [
    ("treecv", "fixed", "TreeCV fixed"),
    ("treecv", "randomized", "TreeCV randomized"),
    ("standard", "fixed", "Standard fixed"),
    ("standard", "randomized", "Standard randomized"),
];

pub(super) fn k_order(k: &str) -> (usize, String) {
    match k.parse::<usize>() {
        Ok(v) => (v, String::new()),
        Err(_) => (usize::MAX, k.to_string()),
    }
}

/// Repetitions per point: "R" when every group has R, "R1–R2" otherwise.
pub(super) fn reps_label<'a>(groups: impl Iterator<Item = &'a Group>) -> String {
    let (mut lo, mut hi) = (usize::MAX, 0);
    for g in groups {
        lo = lo.min(g.estimate.count);
        hi = hi.max(g.estimate.count);
    }
    match (lo, hi) {
        (usize::MAX, _) => "0".into(),
        (a, b) if a == b => a.to_string(),
        (a, b) => format!("{a}–{b}"),
    }
}

/// The paper's Table 2 of `learner` as Markdown (printed once, in the overview).
pub(super) fn published_table(p: &PublishedTable) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "| k | TreeCV fixed | TreeCV randomized | Standard fixed | Standard randomized |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    for r in &p.rows {
        let cell =
            |v: Option<[f64; 2]>| v.map_or("N/A".to_string(), |[m, s]| format!("{m:.3} ± {s:.4}"));
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            r.k,
            cell(r.treecv_fixed),
            cell(r.treecv_randomized),
            cell(r.standard_fixed),
            cell(r.standard_randomized)
        );
    }
    md.push('\n');
    md
}

/// Line style of a (method, order) column: dashed for standard CV, hollow
/// markers for the randomized order.
fn column_style(method: &str, order: &str) -> Style {
    Style {
        dashed: method != "treecv",
        thin: false,
        hollow: order == "randomized",
    }
}

pub(super) fn render(
    dir: &Path,
    c: &TreecvConfig,
    records: &[Record],
) -> Result<Rendered, ExperimentError> {
    let g = groups(records);
    let mut files = Vec::new();
    // Summary table through Polars.
    let summary: Vec<Record> = g
        .iter()
        .map(|((d, l, m, o, k, n), v)| {
            Record::new()
                .with("dataset", d.as_str())
                .with("synthetic", v.synthetic)
                .with("learner", l.as_str())
                .with("method", m.as_str())
                .with("order", o.as_str())
                .with("k", k.as_str())
                .with("k_value", v.k_value)
                .with("n", *n)
                .with("reps", v.estimate.count)
                .with("estimate_mean", v.estimate.mean)
                .with("estimate_std", v.estimate.std())
                .with("seconds_mean", v.seconds.mean)
                .with("seconds_std", v.seconds.std())
                .with("updates_mean", v.updates.mean)
                .with("passes_mean", v.passes.mean)
                .with("copies_mean", v.copies.mean)
                .with("peak_models_max", v.peak)
        })
        .collect();
    files.extend(write_table(&to_frame(&summary)?, dir, "summary")?);

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
            let _ = writeln!(
                md,
                "| k | TreeCV fixed | TreeCV randomized | Standard fixed | Standard randomized |"
            );
            let _ = writeln!(md, "|---|---|---|---|---|");
            for k in &ks {
                let mut row = format!("| {k} |");
                for (m, o, _) in COLS {
                    let key = (
                        d.clone(),
                        l.clone(),
                        m.to_string(),
                        o.to_string(),
                        k.clone(),
                        n,
                    );
                    match g.get(&key) {
                        Some(v) => {
                            let _ = write!(
                                row,
                                " {:.3} ± {:.4} |",
                                v.estimate.mean * 100.0,
                                v.estimate.std() * 100.0,
                            );
                        }
                        None => row.push_str(" N/A |"),
                    }
                }
                let _ = writeln!(md, "{row}");
            }
            md.push('\n');
            if c.paper_table.is_some() {
                let _ = writeln!(md, "The paper's Table 2 for this learner, and its pattern statistics beside ours, are in [Table 2: the paper's pattern against ours](#{}).\n", anchor(super::scorecard::TABLE2_SECTION));
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
                    panel.push(
                        Series {
                            bars: false,
                            label: label.to_string(),
                            points: pts,
                            color: idx,
                            marker: usize::from(*m != "treecv"),
                        },
                        column_style(m, o),
                    );
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
                    "real data (a substitute for the paper's; see the note)"
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
        let _ = writeln!(md, "The paper's quoted times and randomization factors beside ours: [Figure 2: the paper's times against ours](#{}).\n", anchor(super::scorecard::FIGURE2_SECTION));
    }
    if !appendix.is_empty() {
        let _ = writeln!(
            md,
            "Cost of TreeCV against standard k-CV (seconds, passes): [appendix](#{}).\n",
            anchor(&format!("Cost: run `{run}`"))
        );
    }
    write_atomic(&dir.join("report-section.md"), md.as_bytes())?;
    files.push(dir.join("report-section.md"));
    Ok(Rendered {
        files,
        markdown: md,
        appendix,
    })
}

/// The cost table (TreeCV against standard k-CV: time ratio and passes), for
/// the appendix; empty when the run has no TreeCV cells.
fn cost_table(run: &str, g: &BTreeMap<GroupKey, Group>, exclusive: bool) -> String {
    let mut cost = String::new();
    let mut tree_groups: Vec<(&GroupKey, &Group)> =
        g.iter().filter(|(k, _)| k.2 == "treecv").collect();
    tree_groups.sort_by_key(|(k, _)| (k.0.clone(), k.1.clone(), k.3.clone(), k_order(&k.4), k.5));
    for ((d, l, _, o, k, n), v) in tree_groups {
        let key = |m: &str, k: &str| {
            (
                d.clone(),
                l.clone(),
                m.to_string(),
                o.clone(),
                k.to_string(),
                *n,
            )
        };
        let std = g.get(&key("standard", k));
        let once = g.get(&key("train_once", "n")).or_else(|| {
            g.iter()
                .find(|(kk, _)| {
                    kk.0 == *d && kk.1 == *l && kk.2 == "train_once" && kk.3 == *o && kk.5 == *n
                })
                .map(|(_, v)| v)
        });
        let _ = writeln!(
            cost,
            "| {d} | {l} | {o} | {k} | {n} | {} | {:.4} | {} | {} | {:.2} | {} | {} |",
            v.seconds.count,
            v.seconds.mean,
            std.map_or("–".into(), |s| format!("{:.4}", s.seconds.mean)),
            std.map_or("–".into(), |s| format!(
                "{:.2}",
                s.seconds.mean / v.seconds.mean
            )),
            v.passes.mean,
            std.map_or("–".into(), |s| format!("{:.1}", s.passes.mean)),
            once.map_or("–".into(), |t| format!(
                "{:.1}",
                v.seconds.mean / t.seconds.mean
            )),
        );
    }
    if cost.is_empty() {
        return cost;
    }
    let mut md = format!("### Cost: run `{run}`\n\nTreeCV against standard k-CV (seconds are means over repetitions; passes = point-updates / n; \"TreeCV / one pass\" = TreeCV time over the time of one training pass over the same n points). {}\n\n", if exclusive { "The cells ran one at a time (`exclusive`), so the seconds are timings." } else { "**The cells of this run ran several at a time (not `exclusive`): its seconds are indicative only; the passes are exact.**" });
    let _ = writeln!(md, "| dataset | learner | order | k | n | reps | TreeCV s | standard s | standard/TreeCV | TreeCV passes | standard passes | TreeCV / one pass |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    md.push_str(&cost);
    md.push('\n');
    md
}

/// Colour and marker of a k (the same in every panel of Figure 2).
fn k_style(k: &str) -> usize {
    match k {
        "5" => 0,
        "10" => 1,
        "100" => 2,
        "n" => 4,
        other => 5 + other.len() % 3,
    }
}

/// Figure 2: seconds against n, a row per learner, columns k-CV fixed, k-CV
/// randomized and LOOCV.
fn figure2(run: &str, g: &BTreeMap<GroupKey, Group>) -> Figure {
    // The paper's row order: PEGASOS, then LSQSGD, then anything else.
    let learners: Vec<String> = {
        let mut v: Vec<String> = g.keys().map(|k| k.1.clone()).collect();
        let rank = |l: &str| {
            ["pegasos", "lsqsgd"]
                .iter()
                .position(|x| *x == l)
                .unwrap_or(9)
        };
        v.sort_by_key(|l| (rank(l), l.clone()));
        v.dedup();
        v
    };
    let mut panels = Vec::new();
    for l in &learners {
        let data_names: Vec<String> = {
            let mut v: Vec<String> = g
                .keys()
                .filter(|k| &k.1 == l)
                .map(|k| k.0.clone())
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let dname = data_names.join(", ");
        for (title, order, loo) in [
            ("k-CV, fixed order", "fixed", false),
            ("k-CV, randomized order", "randomized", false),
            ("LOOCV (log-log)", "", true),
        ] {
            let mut keys: Vec<(String, String, String)> = g
                .keys()
                .filter(|k| &k.1 == l && (k.2 == "treecv" || k.2 == "standard"))
                .filter(|k| {
                    if loo {
                        k.4 == "n"
                    } else {
                        k.4 != "n" && k.3 == order
                    }
                })
                .map(|k| (k.2.clone(), k.3.clone(), k.4.clone()))
                .collect();
            // TreeCV first, then standard; k numerically.
            keys.sort_by_key(|(m, o, k)| (m != "treecv", o.clone(), k_order(k)));
            keys.dedup();
            let mut panel = Panel {
                x_label: format!("n ({dname})"),
                y_label: "seconds (mean ± 1 sd)".into(),
                log_x: loo,
                log_y: loo,
                ..Panel::default()
            };
            let mut used = Vec::new();
            for (m, o, k) in &keys {
                let sel: Vec<(&GroupKey, &Group)> = g
                    .iter()
                    .filter(|(kk, _)| &kk.1 == l && &kk.2 == m && &kk.3 == o && &kk.4 == k)
                    .collect();
                used.extend(sel.iter().map(|(_, v)| (*v).clone()));
                let pts: Vec<(f64, f64, f64)> = sel
                    .iter()
                    .map(|(kk, v)| (kk.5 as f64, v.seconds.mean, v.seconds.std()))
                    .collect();
                let name = if m == "treecv" { "TreeCV" } else { "standard" };
                let label = if loo {
                    format!("{name} LOOCV, {o}")
                } else {
                    format!("{name} k={k}")
                };
                panel.push(
                    Series {
                        bars: false,
                        label,
                        points: pts,
                        color: k_style(k),
                        marker: k_style(k),
                    },
                    column_style(m, o),
                );
            }
            panel.title = format!(
                "{} — {title}, {} reps per point",
                l.to_uppercase(),
                reps_label(used.iter())
            );
            panels.push(panel);
        }
    }
    let synthetic = g.values().any(|v| v.synthetic);
    Figure {
        title: format!("Figure 2 layout: running time against n — run `{run}`"),
        caption: format!(
            "solid: TreeCV, dashed: standard k-CV; colour and marker: k (the same in every panel); filled markers: fixed order, hollow: randomized (standard LOOCV only up to n = 10,000, as in the paper); error bars ± 1 sd over repetitions; {}",
            if synthetic {
                "data: SYNTHETIC shape-matched stand-ins (not the paper's datasets)"
            } else {
                "real data"
            }
        ),
        rows: learners.len(),
        cols: 3,
        panels,
    }
}
