//! The costliest points table: per dataset, the points with the most SMO
//! iterations and every reuse level's count there.

use crate::experiments::svm_grid::levels::{LevelStats, PKey};
use crate::results::md_table::MdTable;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Per dataset, the five points with the most SMO iterations at the first
/// level (summed over folds), with every level's count there: where a point
/// is slow for every method, this says so.
pub fn costly_points(lv: &BTreeMap<String, Vec<(String, LevelStats)>>) -> String {
    let mut md = String::new();
    for (ds, levels) in lv {
        let Some((first, fs)) = levels.first() else {
            continue;
        };
        let mut top: Vec<(&PKey, &u64)> = fs.point_iters.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        top.truncate(5);
        if top.is_empty() {
            continue;
        }
        let _ = writeln!(
            md,
            "**Costliest points on {ds}** (SMO iterations summed over the folds, the five largest at `{first}`, with every level's count at the same point)\n"
        );
        let mut head: Vec<String> = vec!["log2 C".into(), "log2 gamma".into()];
        head.extend(levels.iter().map(|(n, _)| n.clone()));
        let mut t = MdTable::new(head);
        for (k, _) in top {
            let f =
                |b: Option<u64>| b.map_or("–".into(), |v| format!("{:.1}", f64::from_bits(v)));
            let mut row = vec![f(k.0), f(k.1)];
            row.extend(
                levels
                    .iter()
                    .map(|(_, s)| s.point_iters.get(k).map_or("–".into(), |v| v.to_string())),
            );
            t.row(row);
        }
        md.push_str(&t.markdown());
        md.push('\n');
    }
    md
}
