//! No crate reaches past the engine's face: every `.rs` file of the harness
//! (`src/`), the root tests, benches and examples and the Python package
//! (`python/src`) names nothing of `cvbench_engine` but `api` (and its
//! submodules). The engine's own tests, benches and examples
//! (`crates/cvbench-engine/`) are the only callers of its rooms.

use std::path::{Path, PathBuf};

/// Every path of `text` that names `cvbench_engine::X` for an `X` other
/// than `api`: plain paths (`cvbench_engine::svm::Folds`), grouped imports
/// (`cvbench_engine::{api, svm::Folds}`, nested groups included), `self`
/// and the crate renamed (`use cvbench_engine as e;`, then `e::svm`).
fn past_the_face(text: &str) -> Vec<String> {
    // `cvbench_engine :: svm` is a path too: drop the spaces around `::`.
    let mut text = text.to_string();
    while text.contains(" ::") || text.contains(":: ") {
        text = text.replace(" ::", "::").replace(":: ", "::");
    }
    let text = text.as_str();
    let mut bad = Vec::new();
    let mut names = vec!["cvbench_engine".to_string()];
    // A rename of the crate (`use cvbench_engine as e;`) is followed too.
    for (i, _) in text.match_indices("cvbench_engine as ") {
        let rest = &text[i + "cvbench_engine as ".len()..];
        let alias: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !alias.is_empty() {
            names.push(alias);
        }
    }
    for name in &names {
        let needle = format!("{name}::");
        for (i, _) in text.match_indices(&needle) {
            // A longer identifier ending in the name is not the crate.
            let before = text[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[i + needle.len()..];
            for head in heads(rest) {
                if head != "api" {
                    bad.push(format!("{name}::{head}"));
                }
            }
        }
    }
    bad
}

/// The first segment of each path after `cvbench_engine::`: one
/// identifier, or each entry of a `{...}` group (`self` counts as a name
/// that is not `api`).
fn heads(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0usize;
        let mut entries = vec![String::new()];
        for c in group.chars() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    entries.push(String::new());
                    continue;
                }
                _ => {}
            }
            entries.last_mut().unwrap().push(c);
        }
        return entries
            .iter()
            .map(|e| ident(e.trim_start()))
            .filter(|h| !h.is_empty())
            .collect();
    }
    vec![ident(rest)]
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_scanner_catches_every_form() {
    let cases = [
        (
            "use cvbench_engine::svm::Folds;",
            vec!["cvbench_engine::svm"],
        ),
        (
            "use cvbench_engine::{api, svm::grid::Best};",
            vec!["cvbench_engine::svm"],
        ),
        (
            "use cvbench_engine::{\n    api::data::Dataset,\n    data::{atomic, Dataset},\n};",
            vec!["cvbench_engine::data"],
        ),
        (
            "use cvbench_engine::{self, api};",
            vec!["cvbench_engine::self"],
        ),
        (
            "let f = cvbench_engine::svm::cv::folds::Folds::libsvm(&ds, 5);",
            vec!["cvbench_engine::svm"],
        ),
        (
            "/// See [`cvbench_engine::seed::derive`].",
            vec!["cvbench_engine::seed"],
        ),
        (
            "use cvbench_engine as e;\nuse e::interrupt::install;",
            vec!["e::interrupt"],
        ),
        (
            "use cvbench_engine :: { api , cv::Order };",
            vec!["cvbench_engine::cv"],
        ),
        ("use cvbench_engine::api::{fit, data::Dataset};", vec![]),
        ("use cvbench_engine::api;\napi::fit(&ds, &spec)", vec![]),
        ("use my_cvbench_engine::svm::X;", vec![]),
    ];
    for (text, want) in cases {
        assert_eq!(past_the_face(text), want, "{text}");
    }
}

#[test]
fn no_crate_reaches_past_the_engines_face() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples", "python/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let this = Path::new(file!()).file_name().unwrap();
    let mut bad = Vec::new();
    let mut through_the_face = 0;
    for f in &files {
        if f.file_name() == Some(this) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        if text.contains("cvbench_engine::api") {
            through_the_face += 1;
        }
        for p in past_the_face(&text) {
            bad.push(format!("{}: {p}", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(files.len() > 100, "scanned only {} files", files.len());
    assert!(
        through_the_face > 50,
        "only {through_the_face} files name cvbench_engine::api: is the scan reading the tree?"
    );
    assert!(
        bad.is_empty(),
        "these name the engine past its face (use cvbench_engine::api instead):\n{}",
        bad.join("\n")
    );
}
