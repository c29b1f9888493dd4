//! Provenance of stored runs: was a run made from a clean tree, at a
//! revision whose code of its kind is still the code that renders it?
//!
//! A commit whose message carries the trailer `Numbers: unchanged` (a
//! refactor shown not to change any number: the golden test passes and the
//! stored runs' re-rendered tables are identical) does not make older runs
//! stale: such runs are listed as made before a numbers-neutral change, not
//! flagged. `Numbers: unchanged except a, b` (a fix that changes the named
//! runs' numbers only) flags runs `a` and `b` and no other.

use crate::results::manifest::Manifest;
use crate::results::md_table::MdTable;

/// Later commits that touched a kind's code: those that may change numbers,
/// and those marked `Numbers: unchanged`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Later {
    /// Commits without the trailer.
    pub changing: usize,
    /// Commits with the `Numbers: unchanged` trailer.
    pub neutral: usize,
}

/// What the report says of a run's provenance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// Problems that flag the run (dirty tree, code changed since, no revision).
    pub problems: Vec<String>,
    /// Later numbers-neutral commits to the kind's code (not a flag).
    pub neutral: usize,
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
                        "revision {} is older than the code that renders it ({n} later commit{} the kind's code)",
                        short(&sha),
                        if n == 1 { " touches" } else { "s touch" }
                    ));
                }
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
/// provenance, in report order) against this cvbench's revision.
pub fn section(checked: &[(String, Provenance)], head: &Head) -> String {
    let against = match &head.revision {
        Some(h) => format!("against this cvbench's revision `{}`", short(h)),
        None => "this cvbench was not built from a git checkout".to_string(),
    };
    let flagged: Vec<_> = checked
        .iter()
        .filter(|(_, p)| !p.problems.is_empty())
        .collect();
    let unchecked: Vec<_> = checked
        .iter()
        .filter(|(_, p)| p.problems.is_empty() && p.unchecked.is_some())
        .collect();
    let mut md = String::new();
    if checked.is_empty() {
        md.push_str("No runs.\n\n");
    } else if flagged.is_empty() && unchecked.is_empty() {
        md.push_str(&format!("Every run was made from a clean tree at a revision whose code of its kind is unchanged since, but for changes recorded as leaving every number as it was (`manifest.json`, `git_revision`, {against}).\n\n"));
    }
    if !flagged.is_empty() {
        let mut t = MdTable::new(["run", "problem"]);
        for (run, p) in &flagged {
            t.row([format!("`{run}`"), MdTable::text(&p.problems.join("; "))]);
        }
        md.push_str(&format!("{} of {} runs are flagged: their numbers may not come from the code as it is now (`manifest.json`, `git_revision`, {against}). Re-run them to clear the flag.\n\n{}\n", flagged.len(), checked.len(), t.markdown()));
    }
    if !unchecked.is_empty() {
        let mut t = MdTable::new(["run", "not checked because"]);
        for (run, p) in &unchecked {
            t.row([
                format!("`{run}`"),
                MdTable::text(p.unchecked.as_deref().unwrap_or_default()),
            ]);
        }
        md.push_str(&format!(
            "{} of {} runs could not be checked against the code ({against}):\n\n{}\n",
            unchecked.len(),
            checked.len(),
            t.markdown()
        ));
    }
    let neutral: Vec<_> = checked
        .iter()
        .filter(|(_, p)| p.problems.is_empty() && p.neutral > 0)
        .collect();
    if !neutral.is_empty() {
        let names: Vec<String> = neutral
            .iter()
            .map(|(run, p)| format!("`{run}` ({})", p.neutral))
            .collect();
        md.push_str(&format!("Made before later changes to their kind's code that are recorded as leaving every number as it was (refactors under which the quick runs' numbers and the stored runs' re-rendered tables stay identical; count in brackets), not flagged: {}.\n\n", names.join(", ")));
    }
    md
}

/// Whether a commit message leaves the numbers of run `run` unchanged: it
/// carries the trailer `Numbers: unchanged`, or `Numbers: unchanged except
/// a, b` (a fix that changes the named runs' numbers only) and `run` is not
/// named. With `run` = `None`, any such trailer counts.
pub fn numbers_unchanged_for(message: &str, run: Option<&str>) -> bool {
    message.lines().any(|l| {
        let Some((k, v)) = l.split_once(':') else {
            return false;
        };
        let v = v.trim();
        let lower = v.to_ascii_lowercase();
        if !k.trim().eq_ignore_ascii_case("numbers") || !lower.starts_with("unchanged") {
            return false;
        }
        let rest = v["unchanged".len()..].trim_start();
        let named = rest
            .get(.."except".len())
            .filter(|w| w.eq_ignore_ascii_case("except"))
            .map(|_| rest["except".len()..].split(',').map(str::trim));
        match (named, run) {
            (Some(mut names), Some(run)) => !names.any(|n| n == run),
            _ => true,
        }
    })
}

/// Commits since `rev` (up to HEAD) that touched `paths`, split by the
/// `Numbers: unchanged` trailer as it applies to `run` (merge commits are not counted: the commits
/// they bring are), from `git` in the current folder; `None`
/// when git or the revision is not available.
pub fn git_commits_since(rev: &str, paths: &[&str], run: &str) -> Option<Later> {
    let mut cmd = std::process::Command::new("git");
    cmd.args([
        "log",
        "--no-merges",
        "--format=%B%x1e",
        &format!("{rev}..HEAD"),
        "--",
    ]);
    cmd.args(paths);
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut later = Later::default();
    for msg in text.split('\u{1e}').filter(|m| !m.trim().is_empty()) {
        if numbers_unchanged_for(msg, Some(run)) {
            later.neutral += 1;
        } else {
            later.changing += 1;
        }
    }
    Some(later)
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
            })
        });
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].contains("3 later commits"), "{p:?}");
        // Older, but nothing of the kind's code changed since: not flagged.
        assert!(provenance(&manifest("abc"), &h("def"), never)
            .problems
            .is_empty());
        // Only numbers-neutral commits since: not flagged, but counted.
        let p = provenance(&manifest("abc"), &h("def"), |_: &str| {
            Some(Later {
                changing: 0,
                neutral: 2,
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
        assert!(s.contains("could not be checked"), "{s}");
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
    fn the_trailer_is_recognised_only_as_a_key_value_line() {
        assert!(numbers_unchanged_for(
            "Refactor\n\nNumbers: unchanged\n",
            None
        ));
        assert!(numbers_unchanged_for("x\n\nnumbers:  Unchanged", None));
        assert!(numbers_unchanged_for(
            "x\n\nNumbers: unchanged (golden passes)",
            None
        ));
        assert!(!numbers_unchanged_for("Numbers changed: the fix", None));
        assert!(!numbers_unchanged_for("Numbers: changed (bug fix)", None));
    }

    #[test]
    fn a_trailer_with_except_flags_the_named_runs_only() {
        let msg = "Fix\n\nNumbers: unchanged except seeding-heart-loocv, svm-cv-a9a\n";
        assert!(!numbers_unchanged_for(msg, Some("seeding-heart-loocv")));
        assert!(!numbers_unchanged_for(msg, Some("svm-cv-a9a")));
        assert!(numbers_unchanged_for(msg, Some("seeding-heart")));
        assert!(numbers_unchanged_for(msg, None));
        assert!(numbers_unchanged_for(
            "x\n\nNumbers: unchanged",
            Some("seeding-heart-loocv")
        ));
        assert!(!numbers_unchanged_for("x\n\nNumbers: changed", Some("a")));
    }
}
