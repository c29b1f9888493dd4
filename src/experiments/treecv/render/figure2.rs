//! The Figure 2 layout: seconds against n, a row per learner; k-CV fixed,
//! k-CV randomized and LOOCV columns.

use super::column::push_column;
use crate::experiments::treecv::rows::{k_order, reps_label, Group, GroupKey};
use crate::results::figures::{Figure, Panel};
use std::collections::BTreeMap;

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
pub fn figure2(run: &str, g: &BTreeMap<GroupKey, Group>) -> Figure {
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
            ("k-CV, fixed order (log-log)", "fixed", false),
            ("k-CV, randomized order (log-log)", "randomized", false),
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
                // Log axes everywhere: times span decades over n and k, and
                // on a linear axis the fast series sit on each other near 0.
                log_x: true,
                log_y: true,
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
                push_column(&mut panel, (m, o), label, pts, (k_style(k), k_style(k)));
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
