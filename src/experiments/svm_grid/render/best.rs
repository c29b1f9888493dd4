//! The best (C, gamma) per reuse level beside `svm-grid`'s, with the
//! agreement of every point's rate with `svm-grid`'s.

use super::peers::Peers;
use crate::experiments::svm_grid::config::SvmGridConfig;
use crate::experiments::svm_grid::levels::{choose, LevelStats};
use crate::pyfmt::{grid_rate, py_float};
use crate::results::md_table::MdTable;
use cvbench_engine::api::grid_search::Grid;
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn fmt_exp(v: Option<f64>) -> String {
    v.map_or("–".into(), py_float)
}

/// The table with its caption.
pub fn best_table(
    c: &SvmGridConfig,
    grid: &Grid,
    lv: &BTreeMap<String, Vec<(String, LevelStats)>>,
    peers: &Peers,
) -> String {
    let mut md = String::new();
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
    for (ds, levels) in lv {
        for (name, s) in levels {
            let Some(b) = choose(grid, s) else { continue };
            let peer = peers.svm_grid.get(ds);
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
            let (eq, maxd) = match peers.points.get(ds) {
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

    md
}
