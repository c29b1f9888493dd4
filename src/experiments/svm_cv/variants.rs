//! Method names of runs with the `caches` / `threads` / `solvers` keys: the
//! plan names each variant of our solver's methods `method [cache, Nt]`
//! (a peer's `method [Nt]`), with the solver appended where it is not the
//! default SMO (`method [cache, Nt, batched]`, or `method [batched]`
//! without `caches` / `threads`), so that an SMO cell's name is that of a
//! config without `solvers`. A run with one
//! variant per method (one cache mode, one thread count: a like-with-like
//! seeding run) is read under the plain method names, so that its seeding
//! tables and scorecard rows exist; its set-up stays in the rows' `cache` and
//! `threads` columns ([`SvmRow::setup`]). A run with several variants of a
//! method (an ablation) keeps the variant names: its ablation table reads
//! them. A variant of another solver than the SMO keeps its name always:
//! the plain names are the LIBSVM-identical solver's, which the per-fold
//! comparisons with `svm-train` and the paper's tables read.

use super::rows::SvmRow;
use cvbench_engine::api::strategies::{CacheMode, SolverKind};
use std::collections::{BTreeMap, BTreeSet};

/// The name of a cell's method in its records: `method` with its
/// `(cache, threads)` variant (`peer`: threads only) and a solver other
/// than the SMO.
pub fn variant_name(
    method: &str,
    axes: Option<(CacheMode, usize)>,
    peer: bool,
    solver: SolverKind,
) -> String {
    let mut parts = match axes {
        Some((_, t)) if peer => vec![format!("{t}t")],
        Some((cache, t)) => vec![cache.to_string(), format!("{t}t")],
        None => Vec::new(),
    };
    if solver != SolverKind::Smo {
        parts.push(solver.to_string());
    }
    if parts.is_empty() {
        method.to_string()
    } else {
        format!("{method} [{}]", parts.join(", "))
    }
}

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
        let smo = r.solver_or_smo() == SolverKind::Smo.as_str();
        if smo && base != r.core.method && variants.get(&base).is_some_and(|v| v.len() == 1) {
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

    /// Issue 44: the SMO's names are those of a config without `solvers`;
    /// another solver is in the name, and its single variant keeps it (the
    /// plain names are the LIBSVM-identical solver's).
    #[test]
    fn another_solver_is_named_and_never_gets_the_plain_name() {
        let name = |axes, peer, solver| variant_name("sir", axes, peer, solver);
        let two = Some((CacheMode::Shared, 2));
        assert_eq!(name(None, false, SolverKind::Smo), "sir");
        assert_eq!(name(two, false, SolverKind::Smo), "sir [shared, 2t]");
        assert_eq!(name(two, true, SolverKind::Smo), "sir [2t]");
        assert_eq!(name(None, false, SolverKind::Batched), "sir [batched]");
        assert_eq!(
            name(two, false, SolverKind::Batched),
            "sir [shared, 2t, batched]"
        );
        assert_eq!(base_method("sir [shared, 2t, batched]"), "sir");
        let batched = |m: &str| SvmRow {
            solver: SolverKind::Batched.as_str().into(),
            ..row(m)
        };
        let rows = plain_names(vec![
            row("ours [per_solve, 1t]"),
            batched("tree [per_solve, 1t, batched]"),
            batched("train [batched]"),
        ]);
        let names: Vec<&str> = rows.iter().map(|r| r.core.method.as_str()).collect();
        assert_eq!(
            names,
            ["ours", "tree [per_solve, 1t, batched]", "train [batched]"]
        );
    }
}
