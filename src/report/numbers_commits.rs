//! The commits that may have moved a stored run's numbers: every commit
//! since the run's revision that touched code its numbers depend on, less
//! those that say, in a git trailer, that they leave the numbers unchanged.
//!
//! The trailer is read as git reads trailers (`%(trailers:key=Numbers)`:
//! the last paragraph of the message, `Numbers: unchanged ...`); the same
//! words inline in a subject or in the body's prose are not a trailer.
//! `Numbers: unchanged except a, b` (a fix that changes the named runs'
//! numbers only) leaves every run but `a` and `b` unchanged.

use super::provenance::{short, Later};
use std::path::Path;

/// Where the engine's folders were before they moved into the engine crate
/// (issue 55), and where they are now: history before the move is read
/// under the old path, history after it under the new one.
const MOVED: &[(&str, &str)] = &[
    ("src/svm", "crates/cvbench-engine/src/svm"),
    ("src/cv", "crates/cvbench-engine/src/cv"),
    ("src/learners", "crates/cvbench-engine/src/learners"),
    ("src/data", "crates/cvbench-engine/src/data"),
    ("src/seed.rs", "crates/cvbench-engine/src/seed.rs"),
];

/// Code every kind's numbers depend on besides its own sources: the data
/// readers and the seeds (both before and after the engine moved into its
/// crate) and the runner that times and stores the cells.
const COMMON: &[&str] = &[
    "src/data",
    "crates/cvbench-engine/src/data",
    "src/seed.rs",
    "crates/cvbench-engine/src/seed.rs",
    "src/runner",
    "src/runner.rs",
];

/// Folders under a kind's own folder that only render stored records
/// (re-rendered by every `cvbench report`): a commit there moves no number.
const RENDER_ONLY: &[&str] = &["verdicts", "render"];

/// The git pathspecs of the code a kind's numbers depend on: its sources,
/// each moved folder under both its old and its new path, the common code,
/// and the peers (`src/peers`) where the kind times the SVM against them;
/// less the kind's render-only folders.
pub fn numbers_pathspecs(sources: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |p: &str| {
        if !out.iter().any(|q| q == p) {
            out.push(p.to_string());
        }
    };
    for s in sources {
        add(s);
        for (old, new) in MOVED {
            if s == old {
                add(new);
            }
            if s == new {
                add(old);
            }
        }
    }
    for c in COMMON {
        add(c);
    }
    if sources.iter().any(|s| s.ends_with("src/svm")) {
        add("src/peers");
    }
    for s in sources {
        if s.starts_with("src/experiments/") && !s.ends_with(".rs") {
            for r in RENDER_ONLY {
                add(&format!(":(exclude){s}/{r}"));
            }
        }
    }
    out
}

/// Whether the `Numbers` trailer values of one commit (as
/// `%(trailers:key=Numbers,valueonly)` prints them, one per line) leave the
/// numbers of run `run` unchanged: `unchanged`, or `unchanged except a, b`
/// without `run` among the names. With `run` = `None`, any such value counts.
pub fn trailer_leaves_unchanged(values: &str, run: Option<&str>) -> bool {
    values.lines().any(|v| {
        let v = v.trim();
        let Some(head) = v.get(.."unchanged".len()) else {
            return false;
        };
        if !head.eq_ignore_ascii_case("unchanged") {
            return false;
        }
        let rest = v["unchanged".len()..].trim_start();
        let named = rest
            .get(.."except".len())
            .filter(|w| w.eq_ignore_ascii_case("except"))
            // The names end at a bracketed note: `except a, b (how checked)`.
            .map(|_| {
                let names = &rest["except".len()..];
                names[..names.find('(').unwrap_or(names.len())]
                    .split(',')
                    .map(str::trim)
            });
        match (named, run) {
            (Some(mut names), Some(run)) => !names.any(|n| n == run),
            _ => true,
        }
    })
}

/// The git log format [`parse_log`] reads: hash, subject and the `Numbers`
/// trailer values, fields split by 0x1f, commits by 0x1e.
pub const LOG_FORMAT: &str = "--format=%H%x1f%s%x1f%(trailers:key=Numbers,valueonly)%x1e";

/// The commits of a `git log` in [`LOG_FORMAT`], split by whether their
/// trailer leaves run `run`'s numbers unchanged.
pub fn parse_log(text: &str, run: &str) -> Later {
    let mut later = Later::default();
    for commit in text.split('\u{1e}').filter(|m| !m.trim().is_empty()) {
        let mut f = commit.trim_start_matches('\n').splitn(3, '\u{1f}');
        let sha = f.next().unwrap_or_default().trim();
        let subject = f.next().unwrap_or_default().trim();
        let trailer = f.next().unwrap_or_default();
        if trailer_leaves_unchanged(trailer, Some(run)) {
            later.neutral += 1;
        } else {
            later.changing += 1;
            later.moved_by.push(format!("{} {subject}", short(sha)));
        }
    }
    later
}

/// Commits since `rev` (up to HEAD) in the git checkout at `dir` that
/// touched the code run `run`'s numbers depend on (`sources`, read through
/// [`numbers_pathspecs`]); merge commits are not counted (the commits they
/// bring are). `None` when git or the revision is not available.
pub fn commits_since_in(dir: &Path, rev: &str, sources: &[&str], run: &str) -> Option<Later> {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args([
            "log",
            "--no-merges",
            LOG_FORMAT,
            &format!("{rev}..HEAD"),
            "--",
        ])
        .args(numbers_pathspecs(sources))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(parse_log(&String::from_utf8_lossy(&out.stdout), run))
}

/// `commits_since_in` (above) the current folder.
pub fn git_commits_since(rev: &str, sources: &[&str], run: &str) -> Option<Later> {
    commits_since_in(Path::new("."), rev, sources, run)
}

/// Whether the config a run was made from (its text in the manifest) now
/// reads differently in the config file at `path` under `dir`: keys that
/// only name or describe the run (`name`, `description`, `note`) and
/// comments aside. `None` when the file is not there (a report made outside
/// the checkout, or a config since removed) or says the same.
pub fn config_changed(dir: &Path, path: &str, recorded: &str) -> Option<String> {
    let now = std::fs::read_to_string(dir.join(path)).ok()?;
    let content = |text: &str| -> Option<toml::Table> {
        let mut t: toml::Table = text.parse().ok()?;
        for k in ["name", "description", "note"] {
            t.remove(k);
        }
        Some(t)
    };
    let same = match (content(&now), content(recorded)) {
        (Some(a), Some(b)) => a == b,
        _ => now == recorded,
    };
    (!same).then(|| format!("stale: its config `{path}` has changed since the run"))
}
