//! The crate's architecture, checked: lower layers never import higher ones,
//! no two source files import each other, directly or around a loop, and no
//! file under a kind's `verdicts/` folder imports anything under a
//! `render/` folder (a folder rule, checked on every line of those files).
//!
//! Imports are read from the source text: `crate::`, `super::` and `self::`
//! paths (with `{...}` groups), and paths that start with a child module's
//! name, in the whole file. Comments, unit-test modules (wherever they are
//! in the file) and `pub use` re-exports (a parent naming what its children
//! offer) are not imports for the layer and cycle rules; for the folder rule
//! only comments are not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The engine crate's top-level modules from the bottom up; a module may
/// import its own rank and below.
const ENGINE_LAYERS: &[(&str, u8)] = &[
    ("seed", 0),
    ("cancel", 0),
    ("data", 1),
    ("learners", 3),
    ("cv", 4),
    ("svm", 4),
    ("api", 5),
];

/// The harness crate's top-level modules from the bottom up (the engine
/// crate is below them all).
const HARNESS_LAYERS: &[(&str, u8)] = &[
    ("interrupt", 0),
    ("atomic_write", 1),
    ("pyfmt", 1),
    ("config", 2),
    ("fetch", 2),
    ("peers", 5),
    ("results", 6),
    ("experiments", 7),
    ("runner", 8),
    ("report", 8),
    ("cli", 9),
];

type Module = Vec<String>;

/// Every module file under `src/` (but `main.rs`), by module path.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut m: Module = rel.iter().map(|c| c.to_string_lossy().into()).collect();
            if m.last().is_some_and(|l| l == "mod" || l == "lib") {
                m.pop();
            }
            if m == ["main"] || m.first().is_some_and(|f| f == "bin") {
                continue;
            }
            out.insert(m, std::fs::read_to_string(&p).unwrap());
        }
    }
    out
}

/// The end (byte offset just past the closing `}`) of the block whose `{`
/// is at `open`, skipping braces inside string, raw string and char
/// literals and comments.
fn block_end(text: &str, open: usize) -> usize {
    let b = text.as_bytes();
    let (mut i, mut depth) = (open, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'r' if matches!(b.get(i + 1), Some(b'#' | b'"'))
                && !b[i.saturating_sub(1)].is_ascii_alphanumeric() =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let from = i + 2 + hashes;
                    i = text[from..]
                        .find(&close)
                        .map_or(b.len(), |p| from + p + close.len())
                        - 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A char literal ('{', '\'', '\u{7b}'), not a lifetime.
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The whole file without its unit-test modules: every `#[cfg(test)] mod`
/// (a body in braces, or a `mod name;` declaration of a test file) is cut
/// out, wherever it is, and the rest is kept.
fn without_test_modules(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let skipped = after.len() - item.len();
        if item.starts_with("mod ")
            || item.starts_with("pub mod ")
            || item.starts_with("pub(crate) mod ")
        {
            let semi = item.find(';');
            let open = item.find('{');
            let end = match (semi, open) {
                (Some(s), Some(o)) if s < o => s + 1,
                (Some(s), None) => s + 1,
                (_, Some(o)) => block_end(item, o),
                (None, None) => item.len(),
            };
            rest = &item[end..];
        } else {
            out.push_str(&rest[at..at + "#[cfg(test)]".len() + skipped]);
            rest = item;
        }
    }
    out.push_str(rest);
    out
}

/// The code of a file that can import: the whole file but its unit-test
/// modules, comments and `pub use` re-exports.
fn code(text: &str) -> String {
    let text = without_test_modules(text);
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        if t.starts_with("pub use ")
            || t.starts_with("pub(crate) use ")
            || t.starts_with("pub(super) use ")
        {
            skipping = true;
        }
        if !skipping {
            out.push_str(line.split("//").next().unwrap_or(""));
            out.push('\n');
        }
        if skipping && t.contains(';') {
            skipping = false;
        }
    }
    out
}

#[test]
fn test_modules_are_cut_wherever_they_are() {
    let text = "#[cfg(test)]\nmod a;\nuse crate::x::Y;\n#[cfg(test)]\nmod t {\n    const C: char = '{';\n    use crate::z::W;\n    fn f() { let _ = \"}\"; }\n}\nuse crate::v::U;\n";
    let c = code(text);
    assert!(
        c.contains("crate::x::Y") && c.contains("crate::v::U"),
        "{c}"
    );
    assert!(!c.contains("crate::z::W") && !c.contains("mod a"), "{c}");
}

fn ident(s: &str) -> usize {
    s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len())
}

/// The module paths a file's code names, absolute.
fn imports(m: &Module, code: &str, children: &BTreeSet<String>) -> Vec<Module> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let n = ident(rest);
        if n == 0 {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word = &rest[..n];
        let prev = i.checked_sub(1).map(|j| bytes[j]);
        let free = !matches!(prev, Some(b':' | b'_' | b'.'))
            && !prev.is_some_and(|b| b.is_ascii_alphanumeric());
        if !(free && rest[n..].starts_with("::")) {
            i += n;
            continue;
        }
        let mut base: Module = match word {
            "crate" => Vec::new(),
            "self" => m.clone(),
            "super" => m[..m.len().saturating_sub(1)].to_vec(),
            w if children.contains(w) => {
                let mut b = m.clone();
                b.push(w.to_string());
                b
            }
            _ => {
                i += n;
                continue;
            }
        };
        let mut j = i + n;
        // Follow `::segment`s (and further `super`s).
        while code[j..].starts_with("::") {
            let seg = &code[j + 2..];
            let k = ident(seg);
            if k == 0 {
                break;
            }
            if &seg[..k] == "super" {
                base.pop();
            } else {
                base.push(seg[..k].to_string());
            }
            j += 2 + k;
        }
        if code[j..].starts_with("::{") {
            // A group: each top-level item's first segment.
            let body = &code[j + 3..];
            let (mut depth, mut start) = (0usize, 0usize);
            for (p, c) in body.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        let item = body[start..p].trim();
                        let mut b = base.clone();
                        b.push(item[..ident(item)].to_string());
                        out.push(b);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let item = body[start..p].trim();
                        let mut b = base.clone();
                        b.push(item[..ident(item)].to_string());
                        out.push(b);
                        start = p + 1;
                    }
                    _ => {}
                }
            }
        }
        out.push(base);
        i = j;
    }
    out
}

/// The module file a path lives in: its longest prefix that is a file.
fn file_of<'a>(path: &[String], files: &'a BTreeMap<Module, String>) -> Option<&'a Module> {
    (1..=path.len())
        .rev()
        .find_map(|n| files.get_key_value(&path[..n]).map(|(k, _)| k))
}

#[test]
fn lower_layers_never_import_higher_ones_and_no_file_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    layer_problems(&root.join("crates/cvbench-engine/src"), ENGINE_LAYERS);
    layer_problems(&root.join("src"), HARNESS_LAYERS);
}

/// The layer and cycle rules on one crate's `src`.
fn layer_problems(src: &Path, layers: &[(&str, u8)]) {
    let files = modules(src);
    assert!(
        files.len() > 10,
        "{}: only {} files",
        src.display(),
        files.len()
    );
    let rank: BTreeMap<&str, u8> = layers.iter().copied().collect();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (m, text) in &files {
        let children: BTreeSet<String> = files
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].clone())
            .collect();
        for path in imports(m, &code(text), &children) {
            let Some(target) = file_of(&path, &files) else {
                continue;
            };
            if target == m || target.is_empty() || m.is_empty() {
                continue;
            }
            if let (Some(a), Some(b)) = (rank.get(m[0].as_str()), rank.get(target[0].as_str())) {
                if b > a {
                    wrong.push(format!(
                        "{} imports {} (a higher layer)",
                        m.join("/"),
                        target.join("/")
                    ));
                }
            }
            graph.entry(m.clone()).or_default().insert(target.clone());
        }
    }
    for m in files.keys().filter(|m| !m.is_empty()) {
        assert!(
            rank.contains_key(m[0].as_str()),
            "top-level module `{}` has no layer in tests/layers.rs",
            m[0]
        );
    }
    // A cycle: a path from a file back to itself.
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(Module, Vec<String>)> = vec![(start.clone(), vec![start.join("/")])];
        while let Some((v, trail)) = stack.pop() {
            for w in graph.get(&v).into_iter().flatten() {
                if w == start {
                    wrong.push(format!(
                        "import cycle: {} -> {}",
                        trail.join(" -> "),
                        start.join("/")
                    ));
                } else if seen.insert(w.clone()) {
                    let mut t = trail.clone();
                    t.push(w.join("/"));
                    stack.push((w.clone(), t));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "architecture:\n{}", wrong.join("\n"));
}

/// The text of a file without its comments (line, doc and block comments);
/// unlike [`code`], unit-test modules and `pub use` lines are kept: the
/// folder rule below holds for every line of a file.
fn without_comments(text: &str) -> String {
    // Line comments first: a doc line may hold `/*` (`src/experiments/*/`).
    let lines = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = lines.as_str();
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..]
            .find("*/")
            .map_or("", |e| &rest[at + 2 + e + 2..]);
    }
    out.push_str(rest);
    out
}

/// Whether `text` names `render::` as a path segment (`render::x`,
/// `super::render::x`, `crate::experiments::k::render::x`, a group's
/// `{render::x}`), not as the end of a longer name (`prerender::`).
fn names_render_path(text: &str) -> bool {
    text.match_indices("render::").any(|(at, _)| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Every file under `<src>/experiments/<kind>/verdicts/` that imports
/// anything under a kind's `render/`: by the words `render::`, or by a path
/// (`super::render`, `crate::experiments::<kind>::render`, a group that
/// holds `render`) that resolves into a `render` module of a kind; with
/// the import, in words.
fn verdicts_importing_render(src: &Path) -> Vec<String> {
    let files = modules(src);
    let mut out = Vec::new();
    for (m, text) in &files {
        if !(m.len() >= 3 && m[0] == "experiments" && m[2] == "verdicts") {
            continue;
        }
        let children: BTreeSet<String> = files
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].clone())
            .collect();
        let code = without_comments(text);
        let by_path = imports(m, &code, &children)
            .into_iter()
            .find(|p| p.len() >= 3 && p[0] == "experiments" && p[2] == "render");
        if let Some(p) = by_path {
            out.push(format!("{} imports {}", m.join("/"), p.join("/")));
        } else if names_render_path(&code) {
            out.push(format!("{} names `render::`", m.join("/")));
        }
    }
    out
}

/// CONTRIBUTING.md: `render/` imports `verdicts/` where a table prints the
/// paper's numbers or a rule's words, never the reverse. A folder rule: no
/// file under any kind's `verdicts/` (its unit tests included) imports
/// anything under a `render/`; what both need (rows computed from the
/// records, evidence floors, groupings) lives at the kind's top (issue 55).
#[test]
fn no_verdicts_file_imports_render() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let verdicts = modules(&src)
        .keys()
        .filter(|m| m.len() >= 3 && m[0] == "experiments" && m[2] == "verdicts")
        .count();
    // The four kinds' verdicts, at least: a rule that finds no file checks
    // nothing.
    assert!(verdicts >= 8, "only {verdicts} files under verdicts/");
    let wrong = verdicts_importing_render(&src);
    assert!(
        wrong.is_empty(),
        "verdicts/ imports render/ (move what both need to the kind's top):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_verdicts_file_importing_render_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "experiments/k/mod.rs",
        "pub mod render;\npub mod verdicts;\n",
    );
    write("experiments/k/render/mod.rs", "pub mod cost;\n");
    write("experiments/k/render/cost.rs", "pub fn cost() {}\n");
    write("experiments/k/levels.rs", "pub fn levels() {}\n");
    let cases = [
        "use crate::experiments::k::render::cost::cost;\n",
        "use super::super::render::cost;\n",
        "use crate::experiments::k::{levels, render};\n",
        "use super::super::{render as r};\n",
        "#[cfg(test)]\nmod tests {\n    use crate::experiments::k::render::cost::cost;\n}\n",
        "pub use crate::experiments::other::render::x;\n",
        "fn f() { render::cost::cost() }\n",
    ];
    for case in cases {
        write("experiments/k/verdicts/mod.rs", "pub mod scorecard;\n");
        write("experiments/k/verdicts/scorecard.rs", case);
        let found = verdicts_importing_render(src);
        assert_eq!(found.len(), 1, "{case}: {found:?}");
        assert!(
            found[0].starts_with("experiments/k/verdicts/scorecard"),
            "{found:?}"
        );
    }
    // What is not an import of a renderer: comments, other modules, a
    // longer name, a function named render.
    write(
        "experiments/k/verdicts/scorecard.rs",
        "//! Printed by render::cost.\n/* render::cost */\nuse crate::experiments::k::levels::levels;\nuse crate::x::prerender::y;\nfn f() { figures::render(1) }\n",
    );
    assert!(verdicts_importing_render(src).is_empty());
    // The same import from render/ into verdicts/ is allowed.
    write(
        "experiments/k/render/cost.rs",
        "use crate::experiments::k::verdicts::scorecard;\n",
    );
    assert!(verdicts_importing_render(src).is_empty());
}
