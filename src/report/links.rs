//! Links inside the report: a `[text](#anchor)` whose anchor no heading (or
//! `id="..."`) of the report has becomes plain `text`, so that every link of
//! `REPORT.md` and `index.html` leads somewhere, whichever runs are present.

use crate::results::scorecard::anchor;
use std::collections::BTreeSet;

/// The anchors a Markdown text defines: one per heading (as
/// [`anchor`] makes it) and one per `id="..."` attribute.
pub fn anchors(md: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in md.lines() {
        let t = line.trim_start_matches('#');
        if t.len() < line.len() && t.starts_with(' ') {
            out.insert(anchor(t));
        }
    }
    let mut rest = md;
    while let Some(p) = rest.find("id=\"") {
        rest = &rest[p + 4..];
        if let Some(e) = rest.find('"') {
            out.insert(rest[..e].to_string());
        }
    }
    out
}

/// `md` with every link to a missing anchor replaced by its text.
pub fn drop_dead_links(md: &str) -> String {
    let have = anchors(md);
    let mut out = String::with_capacity(md.len());
    let mut rest = md;
    while let Some(p) = rest.find("](#") {
        let after = &rest[p + 3..];
        let (Some(end), Some(open)) = (after.find(')'), rest[..p].rfind('[')) else {
            out.push_str(&rest[..p + 3]);
            rest = after;
            continue;
        };
        let target = &after[..end];
        if have.contains(target) {
            out.push_str(&rest[..p + 3 + end + 1]);
        } else {
            out.push_str(&rest[..open]);
            out.push_str(&rest[open + 1..p]);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_to_missing_anchors_become_text() {
        let md = "## Run `a`\n\nsee [a](#run-a), [b](#run-b) and [c](https://x.org).\n| [section](#nope) |\n<a id=\"here\"></a> [h](#here)\n";
        let out = drop_dead_links(md);
        assert_eq!(
            out,
            "## Run `a`\n\nsee [a](#run-a), b and [c](https://x.org).\n| section |\n<a id=\"here\"></a> [h](#here)\n"
        );
    }
}
