//! The user documents stay true to the tree: the README names no commit hash
//! (numbers come from stored runs, which record their own revision), and
//! every file or folder the README, `docs/` and CONTRIBUTING.md point to
//! (a relative link, or a path in backticks under one of the repository's
//! top-level folders) exists.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked: README.md, CONTRIBUTING.md and every `docs/*.md`.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

/// Words of 7 to 40 lowercase hex digits with a letter and a digit: what a
/// git commit hash looks like (a sha256 of 64 digits is not one).
fn commit_hashes(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| (7..=40).contains(&w.len()))
        .filter(|w| {
            w.chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        })
        .filter(|w| {
            w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_alphabetic())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_names_no_commit_hash() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert_eq!(commit_hashes(&text), Vec::<String>::new());
}

#[test]
fn the_hash_rule_finds_hashes() {
    assert_eq!(commit_hashes("built at 3991e23, not 2000"), vec!["3991e23"]);
    assert!(commit_hashes(&"ab12".repeat(16)).is_empty());
}

/// Relative link targets `](path)` and `](path#anchor)`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
    }
    out
}

/// Paths in backticks under the repository's top-level folders, without
/// placeholders (`<run>`, `*`, `{a,b}`, `...`, `$VAR`).
fn code_paths(text: &str) -> Vec<String> {
    const TOP: [&str; 9] = [
        "configs/",
        "src/",
        "experiments/",
        "docs/",
        "tests/",
        "benches/",
        "python/",
        ".ci/",
        "Makefile",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| TOP.iter().any(|p| t.starts_with(p)))
        .filter(|t| !t.contains(['<', '*', '{', '$', ' ', '|', '[']) && !t.contains("..."))
        .map(|t| t.trim_end_matches([':', ',', '.']).to_string())
        .collect()
}

#[test]
fn every_file_the_documents_point_to_exists() {
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let dir = doc.parent().unwrap();
        checked += links(&text).len() + code_paths(&text).len();
        for l in links(&text) {
            if !dir.join(&l).exists() {
                missing.push(format!("{}: link {l}", doc.display()));
            }
        }
        for p in code_paths(&text) {
            if !Path::new(&root()).join(&p).exists() {
                missing.push(format!("{}: `{p}`", doc.display()));
            }
        }
    }
    assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
    assert!(
        checked > 50,
        "only {checked} paths found: the extraction broke"
    );
}

#[test]
fn paths_and_links_are_extracted() {
    let text = "see `src/svm/smo.rs`, `results/<run>/`, `configs/*.toml` and [x](docs/cli.md#make-targets)";
    assert_eq!(code_paths(text), vec!["src/svm/smo.rs"]);
    assert_eq!(links(text), vec!["docs/cli.md"]);
}
