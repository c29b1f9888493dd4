//! Method names of runs with the `caches` / `threads` keys: the plan names
//! each variant of our solver's methods `method [cache, Nt]`. A run with one
//! variant per method (one cache mode, one thread count: a like-with-like
//! seeding run) is read under the plain method names, so that its seeding
//! tables and scorecard rows exist; its set-up stays in the rows' `cache` and
//! `threads` columns ([`SvmRow::setup`]). A run with several variants of a
//! method (an ablation) keeps the variant names: its ablation table reads
//! them.

use super::rows::SvmRow;
use std::collections::{BTreeMap, BTreeSet};

/// The plain method of a variant name (`sir [shared, 2t]` → `sir`).
pub fn base_method(name: &str) -> &str {
    name.split_once(" [").map_or(name, |(b, _)| b)
}

/// `rows` with every method that has a single variant in the run renamed
/// to its plain name.
pub fn plain_names(mut rows: Vec<SvmRow>) -> Vec<SvmRow> {
    let mut variants: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in &rows {
        variants
            .entry(base_method(&r.core.method).to_string())
            .or_default()
            .insert(r.core.method.clone());
    }
    for r in &mut rows {
        let base = base_method(&r.core.method).to_string();
        if base != r.core.method && variants.get(&base).is_some_and(|v| v.len() == 1) {
            r.core.method = base;
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rows::Core;

    fn row(m: &str) -> SvmRow {
        SvmRow {
            core: Core {
                method: m.into(),
                ..Core::default()
            },
            ..SvmRow::default()
        }
    }

    #[test]
    fn single_variants_get_plain_names_and_ablations_keep_theirs() {
        let rows = plain_names(vec![
            row("ours [per_solve, 1t]"),
            row("sir [per_solve, 1t]"),
            row("tree [shared, 1t]"),
            row("tree [shared, 2t]"),
            row("libsvm"),
        ]);
        let names: Vec<&str> = rows.iter().map(|r| r.core.method.as_str()).collect();
        assert_eq!(
            names,
            [
                "ours",
                "sir",
                "tree [shared, 1t]",
                "tree [shared, 2t]",
                "libsvm"
            ]
        );
        assert_eq!(base_method("sir [shared, 2t]"), "sir");
    }
}
