//! The cost table (the appendix): TreeCV against standard k-CV, time ratio
//! and passes.

use crate::experiments::treecv::rows::{k_order, Group, GroupKey};
use crate::results::md_table::MdTable;
use std::collections::BTreeMap;

/// The cost table (TreeCV against standard k-CV: time ratio and passes), for
/// the appendix; empty when the run has no TreeCV cells.
pub fn cost_table(run: &str, g: &BTreeMap<GroupKey, Group>, exclusive: bool) -> String {
    let mut table = MdTable::new([
        "dataset",
        "learner",
        "order",
        "k",
        "n",
        "reps",
        "TreeCV s",
        "standard s",
        "standard/TreeCV",
        "TreeCV passes",
        "standard passes",
        "TreeCV / one pass",
    ]);
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
        let std_cell = |f: &dyn Fn(&Group) -> String| std.map_or("–".into(), f);
        table.row([
            d.clone(),
            l.clone(),
            o.clone(),
            k.clone(),
            n.to_string(),
            v.seconds.count.to_string(),
            format!("{:.4}", v.seconds.mean),
            std_cell(&|s| format!("{:.4}", s.seconds.mean)),
            std_cell(&|s| format!("{:.2}", s.seconds.mean / v.seconds.mean)),
            format!("{:.2}", v.passes.mean),
            std_cell(&|s| format!("{:.1}", s.passes.mean)),
            once.map_or("–".into(), |t| {
                format!("{:.1}", v.seconds.mean / t.seconds.mean)
            }),
        ]);
    }
    if table.is_empty() {
        return String::new();
    }
    format!("### Cost: run `{run}`\n\nTreeCV against standard k-CV (seconds are means over repetitions; passes = point-updates / n; \"TreeCV / one pass\" = TreeCV time over the time of one training pass over the same n points). {}\n\n{}\n", if exclusive { "The cells ran one at a time (`exclusive`), so the seconds are timings." } else { "**The cells of this run ran several at a time (not `exclusive`): its seconds are indicative only; the passes are exact.**" }, table.markdown())
}
