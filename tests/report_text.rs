//! What a reader of the report sees (issue 54): the report speaks of papers,
//! data and runs, never of the code that made it. Neither `REPORT.md` nor
//! `index.html` names a source file (`evidence.rs`), a code path
//! (`Kind::scorecard`) or the commit trailer "Numbers: unchanged", for the
//! quick configs' report and for the stored results' report; and both open
//! with the summary a reader can act on (what was run, what held, what did
//! not and why, what to run next).

use crate::common;

use std::path::Path;

/// Every mention of code in `text`: words ending in `.rs`, `a::b` paths,
/// `src/` paths and the trailer "Numbers: unchanged" (any case), each with
/// some context.
fn code_mentions(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let context = |i: usize| {
        let mut s = i.saturating_sub(40);
        while !text.is_char_boundary(s) {
            s -= 1;
        }
        let mut e = (i + 40).min(text.len());
        while !text.is_char_boundary(e) {
            e += 1;
        }
        text[s..e].replace('\n', " ")
    };
    let mut out = Vec::new();
    for i in 0..b.len() {
        let rs = b[i..].starts_with(b".rs")
            && i > 0
            && word(b[i - 1])
            && b.get(i + 3).is_none_or(|c| !word(*c));
        let path = b[i..].starts_with(b"::")
            && i > 0
            && word(b[i - 1])
            && b.get(i + 2).is_some_and(|c| c.is_ascii_alphabetic());
        let src = b[i..].starts_with(b"src/") && (i == 0 || !word(b[i - 1]));
        if rs || path || src {
            out.push(context(i));
        }
    }
    let lower = text.to_ascii_lowercase();
    for (i, _) in lower.match_indices("numbers: unchanged") {
        out.push(context(i));
    }
    out
}

#[test]
fn code_mentions_finds_file_names_code_paths_and_the_trailer() {
    assert_eq!(code_mentions("see `evidence.rs`; done").len(), 1);
    assert_eq!(code_mentions("rule (code: `Kind::scorecard`)").len(), 1);
    assert_eq!(
        code_mentions("commits marked `Numbers: unchanged`").len(),
        1
    );
    assert_eq!(code_mentions("in src/report/mod.rs").len(), 2);
    // Outputs, links and images are not code.
    let clean = "`records.csv`, 3 hrs, <img src=\"run/f.svg\">, https://x.org/a, `seeding.csv`";
    assert_eq!(code_mentions(clean), Vec::<String>::new());
}

/// The report files of `dir`, each checked: no code mention, and the
/// summary first.
fn check_report(dir: &Path) {
    let mut bad = Vec::new();
    for f in ["REPORT.md", "index.html"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        for m in code_mentions(&text) {
            bad.push(format!("{f}: …{m}…"));
        }
    }
    assert!(
        bad.is_empty(),
        "{}: the report names code:\n{}",
        dir.display(),
        bad.join("\n")
    );
    let md = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
    let first = md.lines().find(|l| l.starts_with("## ")).unwrap_or("");
    assert_eq!(first, "## Summary", "{}", dir.display());
    let summary = &md[md.find("## Summary").unwrap()..md.find("## Contents").unwrap()];
    for part in ["**What was run:**", "**What held:**", "**Next:**"] {
        assert!(summary.contains(part), "no {part} in:\n{summary}");
    }
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let h2 = html.find("<h2").unwrap();
    assert!(html[h2..].starts_with("<h2 id=\"summary\">Summary</h2>"));
}

/// The report of the quick configs (`make quick`), made here.
#[test]
fn the_quick_report_names_no_code_and_opens_with_the_summary() {
    let dir = common::quick_results();
    check_report(&dir.join("quick"));
    let md = std::fs::read_to_string(dir.join("quick/REPORT.md")).unwrap();
    assert!(md.contains("These are the quick configs"), "{md}");
    assert!(md.contains("`make reproduce`"), "{md}");
}

/// The stored results' report, as committed and as `cvbench report`
/// renders it again from the stored records.
#[test]
fn the_stored_report_names_no_code_and_opens_with_the_summary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    check_report(&root.join("results"));
    check_report(common::rerendered_stored_results());
}
