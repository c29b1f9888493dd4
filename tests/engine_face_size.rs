//! The engine's face stays small: the public items of
//! `crates/cvbench-engine/src/api/` are counted, and the count may not grow
//! past [`CEILING`]. A new capability enters through the face, so a change
//! that adds to it either replaces something there or raises the ceiling
//! here, in the same commit, for a reviewer to see.
//!
//! The rule, per `.rs` file directly under `api/` (but `tests.rs`), with
//! everything from its first `#[cfg(test)]` line on left out:
//!
//! - every line that starts (after its indentation) with `pub fn`,
//!   `pub struct`, `pub enum`, `pub const`, `pub static`, `pub trait`,
//!   `pub type` or `pub mod` counts one (methods of the face's own types
//!   included);
//! - every `pub use` counts one per name it brings in: each leaf of its
//!   path tree (`a::{b, c::{d, e}}` is three; `x as y` is one);
//! - `pub(crate)`, `pub(super)` and struct fields do not count.

use std::path::Path;

/// The most public items the face may have (the count when it was set:
/// issue 55 took it from 219 to 197; issue 56's `api::formulation` added
/// six: the module, `SvmType`, `fit_formulation`, `FormulationFit` and its
/// `model_text` and `predict`; its `-t 4` added one:
/// `training::check_training_features`, the precomputed kernel's
/// serial-number checks that `cvbench svm` names the file's line of; the
/// Python formulations one more, `FormulationFit::ovo_model`; its
/// `api::formulation_cv` nine: the module, `libsvm_folds`,
/// `cross_validate_formulation`, `FormulationCv` and its `lines`, and the
/// re-exported `CvSummary`, `FormulationCvOptions`, `FormulationCvResult`,
/// `FormulationRound`); its seeded epsilon-SVR CV one,
/// `cross_validate_formulation_seeded`; its `api::formulation_grid` nine:
/// the module, `run_formulation_grid`, `FormulationBest`,
/// `FormulationGridOptions`, `FormulationPoint`, `FormulationPointResult`,
/// `formulation_points`, `nu_values`, `NamedPoint`); its `-b 1` for
/// nu-SVC and the SVRs one, `formulation::fit_formulation_with`; issue
/// 58's grid budget one, `params::grid_memory_mb`, the one default of
/// `cvbench grid`, GridSearchSVC and the harness).
const CEILING: usize = 226;

/// Public items of one face file's text, by the rule above.
fn count_items(text: &str) -> usize {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut n = 0;
    let kinds = [
        "fn ", "struct ", "enum ", "const ", "static ", "trait ", "type ", "mod ",
    ];
    let mut rest = text;
    while let Some(i) = rest.find("pub ") {
        let line_start = rest[..i].rfind('\n').map_or(0, |j| j + 1);
        let at_line_start = rest[line_start..i].trim().is_empty();
        let after = &rest[i + "pub ".len()..];
        if at_line_start && after.starts_with("use ") {
            let end = after.find(';').unwrap_or(after.len());
            n += use_leaves(&after["use ".len()..end]);
            rest = &after[end..];
            continue;
        }
        if at_line_start && kinds.iter().any(|k| after.starts_with(k)) {
            n += 1;
        }
        rest = after;
    }
    n
}

/// The names a `use` tree brings in: its leaves (the text between `{`,
/// `}` and `,` that is not a path prefix ending in `::`).
fn use_leaves(tree: &str) -> usize {
    tree.split(['{', '}', ','])
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.ends_with("::"))
        .count()
}

#[test]
fn the_counter_follows_its_rule() {
    let text = r#"
//! A doc line naming pub fn nothing.
pub mod rooms;
mod hidden;
pub use crate::a::{b, c::{d, e as f}};
pub use crate::g::H;
pub(crate) fn inner() {}
pub struct S {
    pub field: u8,
}
impl S {
    pub fn new() -> S { S { field: 0 } }
    pub(super) fn helper(&self) {}
}
pub const K: usize = 1;
pub enum E { A }
#[cfg(test)]
mod tests {
    pub fn not_counted() {}
}
"#;
    // rooms; b, d, f; H; S; new; K; E.
    assert_eq!(count_items(text), 9);
    assert_eq!(use_leaves("crate::{a, b::{c, d}, e::f}"), 4);
}

#[test]
fn the_face_does_not_grow() {
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/cvbench-engine/src/api");
    let mut total = 0;
    let mut per_file = Vec::new();
    for e in std::fs::read_dir(&api).unwrap().flatten() {
        let p = e.path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.extension().is_none_or(|x| x != "rs") || name == "tests.rs" {
            continue;
        }
        let n = count_items(&std::fs::read_to_string(&p).unwrap());
        per_file.push(format!("{name}: {n}"));
        total += n;
    }
    per_file.sort();
    assert!(
        total <= CEILING,
        "the engine's face has {total} public items, more than its ceiling of {CEILING} \
         ({}): make a face function do the work inside the engine instead of \
         re-exporting its parts, or raise CEILING in this file with the reason",
        per_file.join(", ")
    );
}
