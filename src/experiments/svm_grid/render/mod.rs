//! A run's section from its stored rows: the best (C, gamma) per reuse level
//! beside `svm-grid`'s, the agreement of every point's rate with
//! `svm-grid`'s, the cost table per reuse level, the contour figure per
//! dataset and the practical guide table beside the published numbers; the
//! rows grouped per level in [`levels`], the costliest points in `costly.rs`.

mod costly;
pub mod levels;

use super::config::SvmGridConfig;
use super::rows::{GridRow, ROLE_GUIDE, ROLE_PEER, ROLE_PEER_POINT};
use super::verdicts::published::Published;
use crate::experiments::timing::Spread;
use crate::experiments::ExperimentError;
use crate::results::grid_contour::{render_to, ContourData};
use crate::results::md_table::MdTable;
use crate::svm::grid::pyfmt::{grid_rate, py_float};
use crate::svm::grid::Grid;
use costly::costly_points;
use levels::{choose, levels, pkey, PKey};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Seconds as the cost table prints them: the median, with the range and
/// the count when timed several times.
fn fmt_seconds(sp: &Spread) -> String {
    if sp.repeats > 1 {
        format!(
            "{:.3} ({:.3}–{:.3}, {} runs)",
            sp.median, sp.min, sp.max, sp.repeats
        )
    } else {
        format!("{:.3}", sp.median)
    }
}

fn fmt_exp(v: Option<f64>) -> String {
    v.map_or("–".into(), py_float)
}

/// The section and the files written.
pub(super) fn render(
    dir: &Path,
    c: &SvmGridConfig,
    grid: &Grid,
    rows: &[GridRow],
) -> Result<(String, Vec<PathBuf>), ExperimentError> {
    let mut md = String::new();
    let mut files = Vec::new();
    let _ = writeln!(md, "### Run `{}`\n", c.name.get_ref());
    if !c.description.is_empty() {
        let _ = writeln!(md, "{}\n", c.description.trim());
    }
    if !c.note.is_empty() {
        let _ = writeln!(md, "> **Note.** {}\n", c.note.trim());
    }
    let lv = levels(rows);
    let peer_best: BTreeMap<String, &GridRow> = rows
        .iter()
        .filter(|r| r.role == ROLE_PEER && r.core.method == "svm-grid")
        .map(|r| (r.core.dataset.clone(), r))
        .collect();
    let sklearn: BTreeMap<String, &GridRow> = rows
        .iter()
        .filter(|r| r.role == ROLE_PEER && r.core.method == "sklearn")
        .map(|r| (r.core.dataset.clone(), r))
        .collect();
    let mut peer_pts: BTreeMap<String, BTreeMap<PKey, f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.role == ROLE_PEER_POINT) {
        peer_pts
            .entry(r.core.dataset.clone())
            .or_default()
            .insert(pkey(r.log2c, r.log2g), r.rate.unwrap_or(f64::NAN));
    }

    let _ = writeln!(md, "**Best (C, gamma) per reuse level, beside `svm-grid`'s** ({} grid points, {}-fold CV on LIBSVM's folds; rate = `svm-train -v`'s printed rate; agreement = points whose rate equals `svm-grid`'s)\n", grid.points.len(), c.k.as_ref().map_or(5, |k| *k.get_ref()));
    let mut t = MdTable::new([
        "dataset",
        "reuse",
        "exact",
        "log2 C",
        "log2 gamma",
        "CV rate %",
        "svm-grid's choice",
        "same choice",
        "points equal to svm-grid's",
        "max |rate diff|",
    ]);
    for (ds, levels) in &lv {
        for (name, s) in levels {
            let Some(b) = choose(grid, s) else { continue };
            let peer = peer_best.get(ds);
            let pchoice = peer.map_or("–".into(), |p| {
                format!(
                    "{} / {} / {}",
                    fmt_exp(p.log2c),
                    fmt_exp(p.log2g),
                    fmt_exp(p.rate)
                )
            });
            let same = peer.map_or("–".into(), |p| {
                if p.log2c == b.log2c && p.log2g == b.log2g {
                    "yes".to_string()
                } else {
                    "NO".to_string()
                }
            });
            let (eq, maxd) = match peer_pts.get(ds) {
                Some(pp) => {
                    let mut eq = 0;
                    let mut maxd: f64 = 0.0;
                    for (k, &(cc, n)) in &s.points {
                        if let Some(&pr) = pp.get(k) {
                            let ours = grid_rate(cc as usize, n as usize);
                            if ours == pr {
                                eq += 1;
                            }
                            maxd = maxd.max((ours - pr).abs());
                        }
                    }
                    (format!("{eq} of {}", s.points.len()), format!("{maxd:.4}"))
                }
                None => ("–".into(), "–".into()),
            };
            t.row([
                ds.clone(),
                name.clone(),
                if s.exact {
                    "yes".into()
                } else {
                    "warm start".to_string()
                },
                fmt_exp(b.log2c),
                fmt_exp(b.log2g),
                py_float(b.rate),
                pchoice,
                same,
                eq,
                maxd,
            ]);
        }
    }
    md.push_str(&t.markdown());
    md.push('\n');

    let max_cells = lv
        .values()
        .flat_map(|v| v.iter().map(|(_, s)| s.cells))
        .max()
        .unwrap_or(0);
    let cells = if max_cells <= 1 {
        "each level is one cell, whose gammas run as many at a time as the threads and the memory budget allow, the largest first, as in `cvbench grid`".to_string()
    } else {
        format!("a level ran in up to {max_cells} cells of gamma rows (`rows_per_cell`), one after another, computing the distance blocks once, in its first cell; the gammas of a cell run several at a time, as in `cvbench grid`")
    };
    let _ = writeln!(md, "**Cost per reuse level** (whole grid; SMO iterations and kernel evaluations summed over points and folds, kernel fills = values exponentiated from the distance blocks; Newton steps = Newton steps on the free set between SMO rounds (`newton`); seconds = wall time of the level's cells, one at a time on this machine: the median of the timed runs, with their range and count, where a cell was timed several times (`timing_repeats`), and speed-ups are ratios of medians; speed-up against `none`, `svm-grid` and scikit-learn timed in the same run; {cells}; the points that need the most SMO iterations follow below the table)\n");
    let mut t = MdTable::new([
        "dataset",
        "reuse",
        "threads",
        "SMO iterations",
        "Newton steps",
        "kernel evals (solver)",
        "kernel fills",
        "distance pairs",
        "block s",
        "seconds",
        "x vs none",
        "x vs svm-grid",
        "x vs scikit-learn",
        "note",
    ]);
    for (ds, levels) in &lv {
        let none_s = levels
            .iter()
            .find(|(n, _)| n == "none")
            .map(|(_, s)| s.wall_s);
        let peer_s = peer_best.get(ds).map(|p| p.spread().median);
        let sk_s = sklearn.get(ds).map(|p| p.spread().median);
        for (name, s) in levels {
            let ratio = |base: Option<f64>| {
                base.filter(|b| b.is_finite() && s.wall_s > 0.0)
                    .map_or("–".into(), |b| format!("{:.1}", b / s.wall_s))
            };
            t.row([
                ds.clone(),
                name.clone(),
                s.threads.to_string(),
                s.iterations.to_string(),
                s.newton_steps.to_string(),
                s.kernel_evals.to_string(),
                s.kernel_fills.to_string(),
                s.distance_pairs.to_string(),
                format!("{:.3}", s.block_s),
                fmt_seconds(&s.spread()),
                ratio(none_s),
                ratio(peer_s),
                ratio(sk_s),
                MdTable::text(&s.note),
            ]);
        }
        if let Some(p) = peer_best.get(ds) {
            let ps = p.spread();
            t.row([
                ds.clone(),
                "svm-grid (grid.py, one svm-train at a time)".into(),
                "1".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                fmt_seconds(&ps),
                "–".into(),
                "1.0".into(),
                sk_s.filter(|s| s.is_finite() && ps.median > 0.0)
                    .map_or("–".into(), |s| format!("{:.1}", s / ps.median)),
                String::new(),
            ]);
        }
        if let Some(p) = sklearn.get(ds) {
            let ks = p.spread();
            let x = peer_s
                .filter(|s| s.is_finite())
                .map_or("–".into(), |s| format!("{:.1}", s / ks.median));
            t.row([
                ds.clone(),
                "scikit-learn GridSearchCV(SVC())".into(),
                p.threads.to_string(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                fmt_seconds(&ks),
                "–".into(),
                x,
                "1.0".into(),
                MdTable::text(&format!(
                    "chooses C = {}, gamma = {} (mean fold accuracy {:.4}%)",
                    p.c.map_or("–".into(), py_float),
                    p.gamma.map_or("–".into(), py_float),
                    p.rate.unwrap_or(f64::NAN)
                )),
            ]);
        }
    }
    md.push_str(&t.markdown());
    md.push('\n');
    md.push_str(&costly_points(&lv));

    // The contour of the first exact level (else the first level) per dataset.
    for (ds, levels) in &lv {
        let pick = levels.iter().find(|(_, s)| s.exact).or(levels.first());
        let Some((name, s)) = pick else { continue };
        let pts: Vec<(f64, f64, f64)> = grid
            .points
            .iter()
            .filter_map(|p| {
                let (cc, n) = *s.points.get(&pkey(p.log2c, p.log2g))?;
                Some((p.log2c?, p.log2g?, grid_rate(cc as usize, n as usize)))
            })
            .collect();
        if pts.is_empty() {
            continue;
        }
        let best = choose(grid, s).and_then(|b| Some((b.log2c?, b.log2g?, b.rate)));
        let n = rows
            .iter()
            .find(|r| r.core.dataset == *ds)
            .map_or(0, |r| r.n);
        let synthetic = rows
            .iter()
            .any(|r| r.core.dataset == *ds && r.core.synthetic);
        let data = ContourData {
            title: format!("{ds}: {}-fold CV accuracy over (C, gamma)", c.k.as_ref().map_or(5, |k| *k.get_ref())),
            subtitle: format!(
                "{}{ds}{}, {n} rows; LIBSVM folds; reuse {name}; {} points, one run (deterministic)",
                if synthetic { "SYNTHETIC " } else { "" },
                if c.scale { " scaled to [-1, 1]" } else { "" },
                pts.len()
            ),
            points: pts,
            c_range: grid.c.as_ref().map_or((0.0, 0.0), |a| (a.begin, a.end)),
            g_range: grid.g.as_ref().map_or((0.0, 0.0), |a| (a.begin, a.end)),
            best,
        };
        let stem: String = format!("contour-{ds}")
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() || ch == '-' || ch == '.' {
                    ch
                } else {
                    '_'
                }
            })
            .collect();
        let written = render_to(&data, &dir.join(format!("{stem}.png")))?;
        files.extend(written);
        let run = c.name.get_ref();
        let _ = writeln!(md, "![{ds} contour]({run}/{stem}.svg)\n");
    }

    let guide: Vec<&GridRow> = rows.iter().filter(|r| r.role == ROLE_GUIDE).collect();
    if !guide.is_empty() {
        let published = Published::load()?;
        let _ = writeln!(md, "**The practical guide's Appendix A** (Hsu, Chang & Lin): test accuracy with default parameters on the original data, after scaling to [-1, 1] (ranges learned on the training file, applied to the test file, as `svm-scale -s`/`-r`), at the (C, gamma) our grid chooses (as today's `grid.py`) and at the guide's published choice\n");
        let mut t = MdTable::new([
            "dataset",
            "step",
            "C",
            "gamma",
            "CV rate %",
            "test accuracy % (ours)",
            "published %",
        ]);
        for r in &guide {
            let p = published.guide.iter().find(|g| g.dataset == r.core.dataset);
            let pubv = p.map(|p| match r.step.as_str() {
                "original-default" => format!("{}", p.original),
                "scaled-default" => format!("{}", p.scaled),
                "grid-chosen" => format!(
                    "{} (at C = {}, gamma = {})",
                    p.grid,
                    2f64.powf(p.log2c),
                    2f64.powf(p.log2g)
                ),
                "guide-point" => format!("{}", p.grid),
                _ => "–".into(),
            });
            t.row([
                r.core.dataset.clone(),
                r.step.clone(),
                r.c.map_or("–".into(), py_float),
                r.gamma.map_or("–".into(), |g| format!("{g:.6}")),
                r.cv_rate.map_or("–".into(), py_float),
                r.rate.map_or("–".into(), |v| {
                    format!("{v:.3} ({}/{})", r.correct, r.n_test)
                }),
                pubv.unwrap_or_else(|| "–".into()),
            ]);
        }
        md.push_str(&t.markdown());
        md.push('\n');
    }
    Ok((md, files))
}
