//! The cost per reuse level: SMO iterations, kernel work and seconds, with
//! the speed-ups against `none`, `svm-grid` and scikit-learn timed in the
//! same run.

use super::peers::Peers;
use crate::experiments::svm_grid::levels::LevelStats;
use crate::experiments::timing::Spread;
use crate::pyfmt::py_float;
use crate::results::md_table::MdTable;
use std::collections::BTreeMap;
use std::fmt::Write as _;

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

/// The "x vs none" cell: where the level ran on other threads than `none`,
/// the ratio says so, since it is then not the reuse's alone.
fn vs_none(ratio: String, none_threads: Option<u64>, threads: u64) -> String {
    match none_threads {
        Some(n) if n != threads && ratio != "–" => {
            format!("{ratio} ({threads} threads against {n})")
        }
        _ => ratio,
    }
}

/// The table with its caption.
pub fn cost_table(lv: &BTreeMap<String, Vec<(String, LevelStats)>>, peers: &Peers) -> String {
    let mut md = String::new();
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
    let _ = writeln!(md, "**Cost per reuse level** (whole grid; SMO iterations and kernel evaluations summed over points and folds, kernel fills = kernel values filled from the distance blocks (n^2 per gamma); Newton steps = Newton steps on the free set between SMO rounds (`newton`); seconds = wall time of the level's cells, one at a time on this machine: the median of the timed runs, with their range and count, where a cell was timed several times (`timing_repeats`; a level of several cells sums its cells' medians, ranges and runs, the runs rank by rank, fastest with fastest), and speed-ups are ratios of medians (with their 95% bootstrap interval over those runs in the scorecard's R21 rows); speed-up against `none` (where a level ran on other threads than `none`, the cell says so), `svm-grid` and scikit-learn timed in the same run; {cells}; the points that need the most SMO iterations follow below the table)\n");
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
    for (ds, levels) in lv {
        let none = levels.iter().find(|(n, _)| n == "none").map(|(_, s)| s);
        let none_s = none.map(|s| s.wall_s);
        let peer_s = peers.svm_grid.get(ds).map(|p| p.spread().median);
        let sk_s = peers.sklearn.get(ds).map(|p| p.spread().median);
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
                vs_none(ratio(none_s), none.map(|n| n.threads), s.threads),
                ratio(peer_s),
                ratio(sk_s),
                MdTable::text(&s.note),
            ]);
        }
        // A peer's row: its threads and seconds, its speed against svm-grid
        // and scikit-learn; our levels' counts do not apply.
        let mut peer_row = |who: &str, threads: String, spread, vs: [String; 2], note| {
            let none = || "–".to_string();
            let [vs_svm_grid, vs_sklearn] = vs;
            t.row([
                ds.clone(),
                who.into(),
                threads,
                none(),
                none(),
                none(),
                none(),
                none(),
                none(),
                fmt_seconds(&spread),
                none(),
                vs_svm_grid,
                vs_sklearn,
                note,
            ]);
        };
        if let Some(p) = peers.svm_grid.get(ds) {
            let ps = p.spread();
            let x = sk_s
                .filter(|s| s.is_finite() && ps.median > 0.0)
                .map_or("–".into(), |s| format!("{:.1}", s / ps.median));
            let who = "svm-grid (grid.py, one svm-train at a time)";
            peer_row(who, "1".into(), ps, ["1.0".into(), x], String::new());
        }
        if let Some(p) = peers.sklearn.get(ds) {
            let ks = p.spread();
            let x = peer_s
                .filter(|s| s.is_finite())
                .map_or("–".into(), |s| format!("{:.1}", s / ks.median));
            let note = MdTable::text(&format!(
                "chooses C = {}, gamma = {} (mean fold accuracy {:.4}%)",
                p.c.map_or("–".into(), py_float),
                p.gamma.map_or("–".into(), py_float),
                p.rate.unwrap_or(f64::NAN)
            ));
            let who = "scikit-learn GridSearchCV(SVC())";
            peer_row(who, p.threads.to_string(), ks, [x, "1.0".into()], note);
        }
    }
    md.push_str(&t.markdown());
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A speed-up against `none` on other threads says so; at equal threads
    /// and without a number it is unchanged.
    #[test]
    fn a_speed_up_against_none_on_other_threads_says_so() {
        assert_eq!(
            vs_none("3.4".into(), Some(1), 2),
            "3.4 (2 threads against 1)"
        );
        assert_eq!(vs_none("1.4".into(), Some(1), 1), "1.4");
        assert_eq!(vs_none("–".into(), Some(1), 2), "–");
        assert_eq!(vs_none("2.0".into(), None, 2), "2.0");
    }
}
