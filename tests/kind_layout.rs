//! Each experiment kind owns its paper in one layout (issue 43): under
//! `src/experiments/<kind>/` the run side (config, plan, run, rows, ...) at
//! the top, `render/` (one file per table or figure) and `verdicts/` (the
//! kind's published numbers, scorecard and rules); no render or scorecard
//! code flat at the kind's top.
//!
//! And two house rules on every Rust file (issue 55), with no exemption:
//! none is over 600 lines (split it into files named for what they do), and
//! none names its module's file with a `path` attribute (a module's file is
//! where Rust looks for it: `x.rs` declares `mod y;` in `x/y.rs`, a unit
//! test file is a sibling module the parent declares under `#[cfg(test)]`).

use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const MAX_LINES: usize = 600;

/// The folders whose Rust files the house rules cover (relative to the
/// crate root), and `build.rs`.
const RUST_ROOTS: &[&str] = &[
    "src",
    "tests",
    "python/src",
    "benches",
    "examples",
    "crates",
];

/// Names a kind's top folder may not hold: render and scorecard code lives
/// in `render/` and `verdicts/`.
const FLAT_PREFIXES: &[&str] = &["render", "scorecard", "verdicts", "seeding_render"];

/// The engine's SVM layer: its `mod.rs` and every room's (one folder per job).
const ENGINE_SVM: &str = "crates/cvbench-engine/src/svm";

/// The rooms of the SVM layer a newcomer finds by name ("" is the layer's
/// own `mod.rs`).
const SVM_ROOMS: &[&str] = &[
    "",
    "kernel",
    "cache",
    "smo",
    "formulation",
    "simd",
    "batched",
    "model",
    "cv",
    "seeding",
    "multiclass",
    "grid",
];

/// The engine's data layer: its `mod.rs` and every room's.
const ENGINE_DATA: &str = "crates/cvbench-engine/src/data";

/// The rooms of the data layer ("" is the layer's own `mod.rs`): reading
/// files, the named datasets, preprocessing.
const DATA_ROOMS: &[&str] = &["", "read", "registry", "transform"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The kind folders: every folder directly under `src/experiments/`.
fn kind_folders() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("src/experiments"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

/// The problems of one kind folder's layout, in words.
fn layout_problems(kind: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let name = kind.file_name().unwrap().to_string_lossy().to_string();
    for sub in ["render", "verdicts"] {
        let d = kind.join(sub);
        if !d.is_dir() {
            out.push(format!("{name}: no {sub}/ folder"));
        } else if !d.join("mod.rs").is_file() {
            out.push(format!("{name}: {sub}/ has no mod.rs"));
        }
    }
    for e in std::fs::read_dir(kind).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            continue;
        }
        let file = p.file_name().unwrap().to_string_lossy().to_string();
        if file.ends_with(".rs") && FLAT_PREFIXES.iter().any(|x| file.starts_with(x)) {
            out.push(format!(
                "{name}: {file} is flat at the kind's top: move it into render/ or verdicts/"
            ));
        }
    }
    out
}

#[test]
fn every_kind_has_render_and_verdicts_and_nothing_of_them_flat_at_its_top() {
    let kinds = kind_folders();
    // The four kinds of today, at least: a test that finds no folder checks
    // nothing.
    for k in ["progressive", "svm_cv", "svm_grid", "treecv"] {
        assert!(
            kinds.iter().any(|p| p.ends_with(k)),
            "no kind folder {k} under src/experiments"
        );
    }
    let problems: Vec<String> = kinds.iter().flat_map(|k| layout_problems(k)).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_flat_render_or_scorecard_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let kind = dir.path().join("k");
    std::fs::create_dir_all(kind.join("render")).unwrap();
    std::fs::write(kind.join("render/mod.rs"), "").unwrap();
    std::fs::write(kind.join("scorecard_rules.rs"), "").unwrap();
    std::fs::write(kind.join("config.rs"), "").unwrap();
    let p = layout_problems(&kind);
    assert_eq!(p.len(), 2, "{p:?}");
    assert!(p[0].contains("no verdicts/"), "{p:?}");
    assert!(p[1].contains("scorecard_rules.rs is flat"), "{p:?}");
}

/// Every Rust file the house rules cover: its path relative to the crate
/// root (`/`-separated) and its text.
fn covered_files() -> Vec<(String, String)> {
    let root = root();
    let mut files: Vec<PathBuf> = RUST_ROOTS
        .iter()
        .map(|r| root.join(r))
        .filter(|d| d.is_dir())
        .flat_map(|d| rust_files(&d))
        .collect();
    files.push(root.join("build.rs"));
    files
        .into_iter()
        .filter(|p| p.is_file())
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            (rel, text)
        })
        .collect()
}

/// Whether `text` has a `path` attribute on a module (`path = "..."` as the
/// attribute, or inside a `cfg_attr`), whatever the spacing.
fn has_path_attribute(text: &str) -> bool {
    text.match_indices("#[").any(|(at, _)| {
        let attr = &text[at + 2..];
        let attr = &attr[..attr.find(']').unwrap_or(attr.len())];
        let squeezed: String = attr.chars().filter(|c| !c.is_whitespace()).collect();
        squeezed.starts_with("path=")
            || (squeezed.starts_with("cfg_attr(") && squeezed.contains(",path="))
    })
}

/// The house rules' problems of one file, in words.
fn rule_problems(rel: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines = text.lines().count();
    if lines > MAX_LINES {
        out.push(format!(
            "{rel}: {lines} lines (over {MAX_LINES}: split it into files named for what they do)"
        ));
    }
    if has_path_attribute(text) {
        out.push(format!(
            "{rel}: a `path` attribute (put the module's file where Rust looks for it)"
        ));
    }
    out
}

#[test]
fn no_rust_file_is_over_600_lines_or_has_a_path_attribute() {
    let files = covered_files();
    // Every covered folder, at least: a test that finds no file checks nothing.
    for r in [
        "src/",
        "tests/",
        "python/src/",
        "crates/cvbench-engine/src/",
    ] {
        assert!(
            files.iter().any(|(rel, _)| rel.starts_with(r)),
            "no Rust file under {r}"
        );
    }
    let problems: Vec<String> = files
        .iter()
        .flat_map(|(rel, text)| rule_problems(rel, text))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_long_file_and_a_path_attribute_are_reported() {
    let at_limit = "x\n".repeat(MAX_LINES);
    assert!(rule_problems("a.rs", &at_limit).is_empty());
    let over = rule_problems("a.rs", &format!("{at_limit}x\n"));
    assert!(over.len() == 1 && over[0].contains("601 lines"), "{over:?}");
    // Built in pieces, so that this file holds no such attribute itself.
    for attr in [
        concat!("#", "[path = \"x_tests.rs\"]\nmod tests;\n"),
        concat!("#", "[ path=\"y.rs\" ]\nmod y;\n"),
        concat!("#", "[cfg_attr(test, path = \"z.rs\")]\nmod z;\n"),
    ] {
        let p = rule_problems("b.rs", attr);
        assert!(
            p.len() == 1 && p[0].contains("`path` attribute"),
            "{attr}: {p:?}"
        );
    }
    for fine in [
        "#[cfg(test)]\nmod tests;\n",
        "let p = std::path::Path::new(\"x\");\n",
        "#[derive(Debug)]\nstruct Path;\n",
    ] {
        assert!(rule_problems("c.rs", fine).is_empty(), "{fine}");
    }
}

/// The modules `text` declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`
/// and the like, test modules included).
fn declared_modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("pub").map_or(l, |r| {
                r.trim_start()
                    .strip_prefix('(')
                    .and_then(|r| r.split_once(')'))
                    .map_or(r, |(_, r)| r)
                    .trim_start()
            });
            let name = rest.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            Some(name.to_string())
        })
        .collect()
}

/// The modules `text` declares that its `//!` doc does not name (in
/// backticks, as a link or as code).
fn undocumented_modules(text: &str) -> Vec<String> {
    let doc: String = text
        .lines()
        .filter(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    declared_modules(text)
        .into_iter()
        .filter(|m| !doc.contains(&format!("`{m}`")))
        .collect()
}

/// Every room of `layer` is there, and every `mod.rs` under it (the
/// layer's own and every room's) names every module it declares in its
/// doc; at least `at_least` modules are declared in all (a test that finds
/// none checks nothing).
fn rooms_name_every_module(layer: &str, rooms: &[&str], at_least: usize) {
    let dir = root().join(layer);
    let mods: Vec<PathBuf> = rust_files(&dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|f| f == "mod.rs"))
        .collect();
    for room in rooms {
        let m = dir.join(room).join("mod.rs");
        assert!(mods.contains(&m), "no room {layer}/{room}/mod.rs");
    }
    let mut declared = 0;
    let mut problems = Vec::new();
    for m in &mods {
        let text = std::fs::read_to_string(m).unwrap();
        declared += declared_modules(&text).len();
        let missing = undocumented_modules(&text);
        if !missing.is_empty() {
            let rel = m.strip_prefix(root()).unwrap().display();
            problems.push(format!("{rel}'s doc does not name {missing:?}"));
        }
    }
    assert!(
        declared >= at_least,
        "{declared} modules declared in {mods:?}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The engine's `svm/mod.rs` "Layout" doc names every room, and every
/// room's `mod.rs` doc names every module in it.
#[test]
fn the_svm_layout_doc_lists_every_module() {
    rooms_name_every_module(ENGINE_SVM, SVM_ROOMS, 71);
}

/// The data layer's rooms (reading files, the registry, preprocessing):
/// `data/mod.rs` names every room and file beside them, every room's
/// `mod.rs` every module in it.
#[test]
fn the_data_rooms_list_every_module() {
    rooms_name_every_module(ENGINE_DATA, DATA_ROOMS, 16);
}

#[test]
fn a_module_its_doc_does_not_name_is_reported() {
    assert_eq!(
        declared_modules(
            "pub mod a;\nmod b;\npub(crate) mod c;\n#[cfg(test)]\nmod d_tests;\nmod e {\n"
        ),
        ["a", "b", "c", "d_tests"]
    );
    let text = "//! Modules:\n//! - [`a`]: one.\n//! - `c`: three.\npub mod a;\nmod b;\npub(super) mod c;\n// `b`\n";
    assert_eq!(undocumented_modules(text), ["b"]);
}
