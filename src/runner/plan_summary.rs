//! What `cvbench validate` and `cvbench run --dry-run` say about a plan: the
//! cells counted per value of each part of their keys (datasets, methods,
//! k, ...) and the estimated cost (in the kind's unit and in minutes at the
//! stored runs' rate), instead of one line per cell.

use super::estimate;
use crate::experiments::{registry, Plan};
use crate::results::manifest::Machine;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Parts with more distinct values than this are only counted.
const MAX_LISTED: usize = 12;

/// The estimated cost of the cells `which`, as a clause to append (empty
/// when the kind estimates none): the raw count in the kind's unit, and
/// beside it the minutes it should take at the rate of the stored runs of
/// the same kind under the results folder `root` ([`estimate`]).
pub fn cost_text(plan: &dyn Plan, which: &[usize], root: &Path) -> String {
    let costs: Option<Vec<f64>> = which.iter().map(|&i| plan.cost(i)).collect();
    match costs {
        Some(c) if !c.is_empty() => {
            let total: f64 = c.iter().sum();
            let max = c.iter().copied().fold(0.0, f64::max);
            let stored = registry::kind_named(plan.head().kind)
                .map(|k| estimate::stored_costs(root, k))
                .unwrap_or_default();
            let rate = estimate::rate(&stored.costs, &Machine::this(), plan.name());
            format!(
                ", estimated cost {} (largest cell {}; {}): {}",
                sci(total),
                sci(max),
                unit(plan.head().kind),
                estimate::duration_text(total, rate.as_ref(), stored.without_cost)
            )
        }
        _ => String::new(),
    }
}

/// The kind's cost unit ([`crate::experiments::Kind::cost_unit`]).
fn unit(kind: &str) -> &'static str {
    registry::kind_named(kind)
        .and_then(|k| k.cost_unit())
        .unwrap_or("the kind's cost units")
}

/// `1.2e9`-style for large numbers, plain below 10^5.
fn sci(x: f64) -> String {
    if x < 1e5 {
        format!("{x:.0}")
    } else {
        let e = x.log10().floor();
        format!("{:.1}e{}", x / 10f64.powf(e), e as i64)
    }
}

/// What the unnamed parts of a kind's cell keys are, by position
/// ([`crate::experiments::Kind::key_parts`]).
fn part_names(kind: &str) -> &'static [&'static str] {
    registry::kind_named(kind).map_or(&[], |k| k.key_parts())
}

/// The cells counted per value of each `|`-separated part of their keys
/// (parts written `name=value` are named by `name`, others by position),
/// one line per part.
pub fn cell_summary(plan: &dyn Plan) -> String {
    let cells = plan.cells();
    let names = part_names(plan.head().kind);
    // By the part's name, in order of first appearance (cells of one plan
    // may have different named parts, e.g. threads without cache).
    let mut parts: Vec<(String, BTreeMap<String, usize>)> = Vec::new();
    for c in cells {
        for (j, part) in c.key.split('|').enumerate() {
            let (name, value) = match part.split_once('=') {
                Some((n, v)) if !n.contains('(') => (n.to_string(), v.to_string()),
                _ => (
                    names
                        .get(j)
                        .map_or_else(|| format!("part {}", j + 1), |n| (*n).to_string()),
                    part.to_string(),
                ),
            };
            let at = match parts.iter().position(|(n, _)| *n == name) {
                Some(at) => at,
                None => {
                    parts.push((name, BTreeMap::new()));
                    parts.len() - 1
                }
            };
            *parts[at].1.entry(value).or_insert(0) += 1;
        }
    }
    let mut out = String::new();
    for (name, values) in &parts {
        if name == "rep" || name == "seed" {
            let n = values.len();
            let _ = writeln!(out, "  {name}: {n} value{}", if n == 1 { "" } else { "s" });
            continue;
        }
        if values.len() > MAX_LISTED {
            let _ = writeln!(out, "  {name}: {} distinct values", values.len());
            continue;
        }
        let mut v: Vec<(&String, &usize)> = values.iter().collect();
        // Numbers in numeric order (5, 10, 100), words after.
        v.sort_by(|a, b| match (a.0.parse::<f64>(), b.0.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y),
            (Ok(_), Err(_)) => std::cmp::Ordering::Less,
            (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
            _ => a.0.cmp(b.0),
        });
        let list: Vec<String> = v.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        let _ = writeln!(out, "  {name}: {}", list.join(", "));
    }
    out
}
