//! Provenance of stored runs: was a run made from a clean tree, at a
//! revision whose code of its kind is still the code that renders it?
//!
//! A run is current when no commit since its revision touched code its
//! numbers depend on, or every such commit carries the git trailer
//! `Numbers: unchanged` (a refactor shown not to change any number); else
//! it is stale, and the report names the commits that may have moved it
//! ([`super::numbers_commits`] reads the log). `Numbers: unchanged except
//! a, b` (a fix that changes the named runs' numbers only) makes runs `a`
//! and `b` stale and no other.

use crate::results::manifest::Manifest;
use crate::results::md_table::MdTable;

/// Later commits that touched a kind's code: those that may change numbers,
/// and those marked `Numbers: unchanged`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Later {
    /// Commits without the trailer.
    pub changing: usize,
    /// Commits with the `Numbers: unchanged` trailer.
    pub neutral: usize,
    /// The commits without the trailer: short hash and subject, newest first.
    pub moved_by: Vec<String>,
}

/// What the report says of a run's provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// Problems that flag the run (dirty tree, code changed since, no revision).
    pub problems: Vec<String>,
    /// Later numbers-neutral commits to the kind's code (not a flag).
    pub neutral: usize,
    /// The later commits that may have moved the run's numbers (short hash
    /// and subject, newest first): why the run is stale.
    pub moved_by: Vec<String>,
    /// Why the run's revision could not be checked against this cvbench's
    /// code (neither flagged nor claimed clean).
    pub unchecked: Option<String>,
}

/// The cvbench that renders the report: its built-in revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The commit (without `-dirty`); `None` when not built from a checkout.
    pub revision: Option<String>,
}

impl Head {
    /// This binary's revision, built in at compile time.
    pub fn of_this_build() -> Head {
        Head::parse(crate::results::manifest::BUILD_REVISION)
    }

    /// A revision as a manifest records it.
    pub fn parse(rev: &str) -> Head {
        let sha = rev.trim().trim_end_matches("-dirty");
        let known = !sha.is_empty() && sha.chars().all(|c| c.is_ascii_hexdigit());
        Head {
            revision: known.then(|| sha.to_string()),
        }
    }
}

/// The first 10 characters of a revision.
pub fn short(rev: &str) -> &str {
    let end = rev.char_indices().nth(10).map_or(rev.len(), |(i, _)| i);
    &rev[..end]
}

/// A recorded revision as the report prints it.
pub fn revision_text(rev: &str) -> String {
    let r = rev.trim();
    match Head::parse(r).revision {
        Some(sha) => format!(
            "{}{}",
            short(&sha),
            if r.ends_with("-dirty") { "-dirty" } else { "" }
        ),
        None => "(no git revision: not built from a git checkout)".to_string(),
    }
}

/// The provenance of a run: made from a dirty tree, without a recorded
/// revision, or from a revision older than the code of its kind now.
/// `later(rev)` counts the commits since `rev` that touched that code
/// (`None`: unknown, e.g. the report does not run inside cvbench's checkout).
pub fn provenance(
    manifest: &Manifest,
    head: &Head,
    later: impl Fn(&str) -> Option<Later>,
) -> Provenance {
    let mut out = Provenance::default();
    let rev = manifest.git_revision.trim();
    let Some(sha) = Head::parse(rev).revision else {
        out.problems.push(
            "no cvbench git revision recorded (made by a cvbench not built from a git checkout)"
                .to_string(),
        );
        return out;
    };
    if rev.ends_with("-dirty") {
        out.problems
            .push("made from a tree with uncommitted changes (`-dirty`)".to_string());
    }
    let Some(head) = &head.revision else {
        out.unchecked = Some(
            "this cvbench was not built from a git checkout, so its code cannot be compared".into(),
        );
        return out;
    };
    if sha != *head {
        match later(&sha) {
            Some(l) => {
                out.neutral = l.neutral;
                let n = l.changing;
                if n > 0 {
                    out.problems.push(format!(
                        "stale: {n} later commit{} code its numbers depend on without a trailer recording that it leaves every number as it was ({})",
                        if n == 1 { " touches" } else { "s touch" },
                        l.moved_by
                            .iter()
                            .map(|c| c.split(' ').next().unwrap_or_default())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                out.moved_by = l.moved_by;
            }
            None => {
                out.unchecked = Some(format!(
                    "revision {} is not in the git history of the folder the report ran in (run `cvbench report` inside cvbench's checkout to check it)",
                    short(&sha)
                ));
            }
        }
    }
    out
}

/// The report's provenance section for the runs checked (name and
/// provenance, in report order) against this cvbench's revision: how many
/// runs are current, and a row per run saying whether it is current and,
/// when not, why (the hashes of the commits that may have moved its
/// numbers; the report names no code, so not their subjects).
pub fn section(checked: &[(String, Provenance)], head: &Head) -> String {
    let against = match &head.revision {
        Some(h) => format!("against this cvbench's revision `{}`", short(h)),
        None => "this cvbench was not built from a git checkout".to_string(),
    };
    if checked.is_empty() {
        return "No runs.\n\n".to_string();
    }
    let stale = checked
        .iter()
        .filter(|(_, p)| !p.problems.is_empty())
        .count();
    let unchecked = checked
        .iter()
        .filter(|(_, p)| p.problems.is_empty() && p.unchecked.is_some())
        .count();
    let current = checked.len() - stale - unchecked;
    let mut md = String::new();
    if stale == 0 && unchecked == 0 {
        md.push_str(&format!("Every run is current: made from a clean tree at a revision whose code its numbers depend on is unchanged since, but for commits whose trailer records that they leave every number as it was (`manifest.json`, `git_revision`, {against}).\n\n"));
    } else {
        md.push_str(&format!("{current} of {} runs are current, {stale} stale{} (`manifest.json`, `git_revision`, {against}). A run is current when no commit since its revision touched code its numbers depend on (its kind's code but for the code that only renders stored records, the engine, the data readers, the runner, and for the SVM kinds the peers), or every such commit carries a git trailer recording that it leaves every number as it was (and how that was checked), and its config file reads as it did (comments, names and descriptions aside); a stale run's numbers may not be what the code gives now. `make refresh` re-runs exactly the stale runs (resumable); `git show HASH` gives a commit.\n\n", checked.len(), if unchecked > 0 { format!(", {unchecked} not checked") } else { String::new() }));
    }
    let mut t = MdTable::new(["run", "current", "why not"]);
    for (run, p) in checked {
        let (state, why) = if !p.problems.is_empty() {
            ("stale", p.problems.join("; "))
        } else if let Some(u) = &p.unchecked {
            ("not checked", u.clone())
        } else if p.neutral > 0 {
            (
                "yes",
                format!(
                    "{} later commit{} to its code, each with a trailer recording that it leaves every number as it was",
                    p.neutral,
                    if p.neutral == 1 { "" } else { "s" }
                ),
            )
        } else {
            ("yes", String::new())
        };
        t.row([format!("`{run}`"), state.to_string(), MdTable::text(&why)]);
    }
    md.push_str(&t.markdown());
    md.push('\n');
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(rev: &str) -> Manifest {
        let mut m: Manifest = serde_json::from_str(
            r#"{"kind":"treecv","name":"r","config_path":"c.toml","config":"","seed":1,"cells":[],"threads":0,"git_revision":"","machine":{"hostname":"h","os":"linux","cpus":2,"cpu_model":"x","memory_bytes":null},"versions":{"cvbench":"0.1.0","profile":"release","rustc":"r"},"started_unix":0,"seconds":1.0,"files":[]}"#,
        )
        .unwrap();
        m.git_revision = rev.into();
        m
    }

    #[test]
    fn provenance_flags_dirty_and_older_revisions_but_not_neutral_commits() {
        let never = |_: &str| Some(Later::default());
        let h = |r: &str| Head::parse(r);
        assert!(provenance(&manifest("abc"), &h("abc"), never)
            .problems
            .is_empty());
        let p = provenance(&manifest("abc-dirty"), &h("abc"), never).problems;
        assert_eq!(p.len(), 1);
        assert!(p[0].contains("uncommitted"));
        let p = provenance(&manifest("abc"), &h("def"), |r: &str| {
            (r == "abc").then_some(Later {
                changing: 3,
                neutral: 0,
                moved_by: vec![
                    "1111111111 a".into(),
                    "2222222222 b".into(),
                    "3333333333 c".into(),
                ],
            })
        });
        assert_eq!(p.problems.len(), 1);
        assert!(
            p.problems[0].contains("stale: 3 later commits touch"),
            "{p:?}"
        );
        assert!(
            p.problems[0].contains("(1111111111, 2222222222, 3333333333)"),
            "{p:?}"
        );
        assert_eq!(p.moved_by.len(), 3);
        // Older, but nothing of the kind's code changed since: not flagged.
        assert!(provenance(&manifest("abc"), &h("def"), never)
            .problems
            .is_empty());
        // Only numbers-neutral commits since: not flagged, but counted.
        let p = provenance(&manifest("abc"), &h("def"), |_: &str| {
            Some(Later {
                changing: 0,
                neutral: 2,
                moved_by: vec![],
            })
        });
        assert!(p.problems.is_empty());
        assert_eq!(p.neutral, 2);
    }

    #[test]
    fn runs_outside_a_checkout_are_said_so_and_never_claimed_clean() {
        let never = |_: &str| Some(Later::default());
        let p = provenance(
            &manifest("unknown (not a git checkout)"),
            &Head::parse("abc"),
            never,
        );
        assert!(
            p.problems[0].contains("no cvbench git revision recorded"),
            "{p:?}"
        );
        // A revision the report's folder does not know: not checked, not clean.
        let p = provenance(&manifest("abc"), &Head::parse("def"), |_: &str| None);
        assert!(p.problems.is_empty() && p.unchecked.is_some());
        let s = section(&[("r".into(), p)], &Head::parse("def"));
        assert!(!s.contains("Every run was made from a clean tree"), "{s}");
        assert!(s.contains("| `r` | not checked | revision abc"), "{s}");
        // A report made by a cvbench without a revision says so in full.
        let s = section(
            &[(
                "r".into(),
                provenance(&manifest("abc"), &Head::parse("unknown (x"), never),
            )],
            &Head::parse("unknown (x"),
        );
        assert!(s.contains("not built from a git checkout"), "{s}");
        assert!(!s.contains("(n`"), "{s}");
        assert_eq!(
            revision_text("unknown (not a git checkout)"),
            "(no git revision: not built from a git checkout)"
        );
    }

    #[test]
    fn the_section_says_per_run_whether_it_is_current_and_which_commits_moved_it() {
        let head = Head::parse("def");
        let stale = provenance(&manifest("abc"), &head, |_: &str| {
            Some(Later {
                changing: 1,
                neutral: 1,
                moved_by: vec!["1234567890 Fix the SMO step".into()],
            })
        });
        let current = provenance(&manifest("abc"), &head, |_: &str| {
            Some(Later {
                changing: 0,
                neutral: 2,
                moved_by: vec![],
            })
        });
        let s = section(&[("a".into(), stale), ("b".into(), current)], &head);
        assert!(s.starts_with("1 of 2 runs are current, 1 stale"), "{s}");
        assert!(s.contains("| `a` | stale | stale: 1 later commit touches code its numbers depend on without a trailer recording that it leaves every number as it was (1234567890) |"), "{s}");
        assert!(s.contains("| `b` | yes | 2 later commits to its code, each with a trailer recording that it leaves every number as it was |"), "{s}");
    }
}
