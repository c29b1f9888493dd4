//! Cell keys, unique by construction, and the list of a plan's cells.
//!
//! A key is a sequence of parts (a dataset label, a learner name, `k=10`,
//! ...) joined by `|`. Each part is escaped (`\` becomes `\\`, `|` becomes
//! `\|`) before it is joined, so a label that contains `|` can never forge a
//! separator: two different part sequences always give two different keys
//! (`x|s` + `b` is `x\|s|b`, `x` + `s|b` is `x|s\|b`). A part without `|` or
//! `\` is written as it is, so the keys (and so the seeds) of every config
//! whose labels have neither stay what they were.
//!
//! [`CellList`] collects a plan's cells and refuses a key it already holds:
//! two config entries that would share a cell (and so its seed and its
//! file) are an error at the entry's line and column, never a silent
//! overwrite.

use super::Cell;
use crate::config::{ConfigError, ConfigFile};
use cvbench_engine::api::seed;
use std::collections::HashMap;
use std::fmt::Display;
use std::ops::Range;

/// A cell key under construction: parts joined by `|`, each escaped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellKey(String);

/// `text` with `\` and `|` escaped by a backslash.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == '|' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl CellKey {
    /// A key whose first part is `first`.
    pub fn new(first: impl Display) -> CellKey {
        CellKey(escape(&first.to_string()))
    }

    /// Append a part (escaped).
    pub fn part(mut self, text: impl Display) -> CellKey {
        self.0.push('|');
        self.0.push_str(&escape(&text.to_string()));
        self
    }

    /// Append a `name=value` part (the value escaped; `name` is a fixed word).
    pub fn field(self, name: &str, value: impl Display) -> CellKey {
        self.part(format!("{name}={value}"))
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The parts of a key, unescaped (the inverse of building it).
    pub fn parts(key: &str) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut chars = key.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let (Some(n), Some(last)) = (chars.next(), out.last_mut()) {
                        last.push(n);
                    }
                }
                '|' => out.push(String::new()),
                c => {
                    if let Some(last) = out.last_mut() {
                        last.push(c);
                    }
                }
            }
        }
        out
    }
}

impl Display for CellKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The cells of a plan as it is expanded, with the config span each came
/// from; a key is held once (see [`CellList::push`]) and the total is
/// bounded by [`super::MAX_CELLS`].
pub struct CellList<'a> {
    cfg: &'a ConfigFile,
    base_seed: u64,
    cells: Vec<Cell>,
    origin: HashMap<String, Range<usize>>,
}

impl<'a> CellList<'a> {
    /// An empty list for `cfg`, whose cells are seeded from `base_seed`.
    pub fn new(cfg: &'a ConfigFile, base_seed: u64) -> CellList<'a> {
        CellList {
            cfg,
            base_seed,
            cells: Vec::new(),
            origin: HashMap::new(),
        }
    }

    /// Add the cell `key`, listed by the config entry at `span`. A key
    /// already held is an error naming both entries' lines: the two would
    /// share one seed and one cell file.
    pub fn push(&mut self, key: CellKey, span: Range<usize>) -> Result<(), ConfigError> {
        self.add(key, span, false).map(|_| ())
    }

    /// Like [`CellList::push`], but a key already held is skipped (returns
    /// false): for kinds whose blocks may list one cell twice by design.
    pub fn push_or_skip(&mut self, key: CellKey, span: Range<usize>) -> Result<bool, ConfigError> {
        self.add(key, span, true)
    }

    fn add(&mut self, key: CellKey, span: Range<usize>, skip: bool) -> Result<bool, ConfigError> {
        let key = key.0;
        if let Some(first) = self.origin.get(&key) {
            if skip {
                return Ok(false);
            }
            let (line, col) = self.cfg.line_col(first.start);
            return Err(self.cfg.invalid(
                span,
                &format!(
                    "this entry gives the cell `{key}` a second time (first at line {line}, column {col}): the two would share one seed and one result"
                ),
                "remove the duplicate entry, or give it its own label",
            ));
        }
        if self.cells.len() == super::MAX_CELLS {
            return Err(self.cfg.invalid(
                span,
                &format!("the config expands to more than {} cells", super::MAX_CELLS),
                "use fewer repetitions or smaller lists, or split the config",
            ));
        }
        self.cells.push(Cell {
            seed: seed::derive(self.base_seed, &key),
            key: key.clone(),
        });
        self.origin.insert(key, span);
        Ok(true)
    }

    /// Cells so far.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there is no cell yet.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells, in the order they were added.
    pub fn into_cells(self) -> Vec<Cell> {
        self.cells
    }
}

/// An error at the second of two equal entries of a config list: `items`
/// are the entries' identities (what would make their cells collide) with
/// their spans; `what` names the list (`k`, `methods`, a setting's `label`).
pub fn no_duplicates<T: PartialEq + Display>(
    cfg: &ConfigFile,
    what: &str,
    items: impl IntoIterator<Item = (T, Range<usize>)>,
) -> Result<(), ConfigError> {
    let mut seen: Vec<(T, Range<usize>)> = Vec::new();
    for (v, span) in items {
        if let Some((_, first)) = seen.iter().find(|(w, _)| *w == v) {
            let (line, col) = cfg.line_col(first.start);
            return Err(cfg.invalid(
                span,
                &format!(
                    "`{what}` lists {v} twice (also at line {line}, column {col}): both would give the same cells"
                ),
                &format!("remove the duplicate from `{what}`"),
            ));
        }
        seen.push((v, span));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_parts_never_collide_and_plain_ones_stay() {
        let a = CellKey::new("x|s").part("b");
        let b = CellKey::new("x").part("s|b");
        assert_ne!(a, b);
        assert_eq!(a.as_str(), r"x\|s|b");
        assert_eq!(CellKey::parts(a.as_str()), ["x|s", "b"]);
        assert_eq!(CellKey::parts(b.as_str()), ["x", "s|b"]);
        let c = CellKey::new(r"a\").part("b");
        let d = CellKey::new("a").part(r"\b");
        assert_ne!(c, d);
        // Plain labels give the keys of before (so the same seeds).
        let plain = CellKey::new("heart_scale")
            .part("paper")
            .field("k", 10)
            .part("ours");
        assert_eq!(plain.as_str(), "heart_scale|paper|k=10|ours");
    }

    #[test]
    fn duplicates_are_errors_at_the_second_entry() {
        let cfg = ConfigFile::from_text("x.toml", "k = [3, 3]\n");
        let mut l = CellList::new(&cfg, 1);
        l.push(CellKey::new("a"), 5..6).unwrap();
        let e = l.push(CellKey::new("a"), 8..9).unwrap_err().to_string();
        assert!(
            e.starts_with("x.toml:1:9:") && e.contains("line 1, column 6"),
            "{e}"
        );
        assert!(!l.push_or_skip(CellKey::new("a"), 8..9).unwrap());
        assert_eq!(l.len(), 1);
        let e = no_duplicates(&cfg, "k", [(3, 5..6), (3, 8..9)])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml:1:9") && e.contains("`k` lists 3 twice"),
            "{e}"
        );
    }
}
