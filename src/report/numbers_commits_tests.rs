//! Tests of [`super::numbers_commits`] on a throwaway git repository: a
//! commit is numbers-neutral only through a real `Numbers: unchanged`
//! trailer, and only commits to code the numbers depend on count.

use super::numbers_commits::{
    commits_since_in, config_changed, numbers_pathspecs, trailer_leaves_unchanged,
};
use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn commit(dir: &Path, file: &str, message: &str) -> String {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::write(&path, format!("{old}x\n")).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

#[test]
fn only_a_real_trailer_leaves_numbers_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    git(dir, &["init", "-q"]);
    let base = commit(dir, "src/experiments/svm_cv/plan.rs", "start");
    let sources = ["src/experiments/svm_cv", "crates/cvbench-engine/src/svm"];
    // Inline in the subject: not a trailer, the commit moves the numbers.
    commit(
        dir,
        "src/experiments/svm_cv/plan.rs",
        "Refactor the plan (Numbers: unchanged)",
    );
    // A real trailer: neutral.
    commit(
        dir,
        "crates/cvbench-engine/src/svm/smo.rs",
        "Split smo\n\nBody.\n\nNumbers: unchanged (golden tests pass)",
    );
    // Before the engine moved: the old path counts too.
    commit(dir, "src/svm/smo.rs", "Fix the SMO step");
    // Render-only folders and unrelated code move no number.
    commit(
        dir,
        "src/experiments/svm_cv/verdicts/targets.rs",
        "New verdict words",
    );
    commit(dir, "src/experiments/svm_cv/render/cost.rs", "New table");
    commit(dir, "docs/cli.md", "Docs");
    // A fix naming another run leaves this one unchanged.
    commit(
        dir,
        "src/runner.rs",
        "Fix\n\nNumbers: unchanged except other-run",
    );
    let l = commits_since_in(dir, &base, &sources, "this-run").unwrap();
    assert_eq!((l.changing, l.neutral), (2, 2), "{l:?}");
    assert!(l.moved_by[0].ends_with(" Fix the SMO step"), "{l:?}");
    assert!(
        l.moved_by[1].ends_with(" Refactor the plan (Numbers: unchanged)"),
        "{l:?}"
    );
    // The named run is moved by the fix.
    let l = commits_since_in(dir, &base, &sources, "other-run").unwrap();
    assert_eq!((l.changing, l.neutral), (3, 1), "{l:?}");
    // A revision the repository does not know: unknown, not clean.
    assert!(commits_since_in(dir, "0123456789abcdef", &sources, "r").is_none());
}

#[test]
fn trailer_values_are_read_as_unchanged_or_unchanged_except() {
    assert!(trailer_leaves_unchanged("unchanged", None));
    assert!(trailer_leaves_unchanged(
        "Unchanged (golden passes)",
        Some("a")
    ));
    assert!(!trailer_leaves_unchanged("changed (bug fix)", None));
    assert!(!trailer_leaves_unchanged("", None));
    let v = "unchanged except seeding-heart-loocv, svm-cv-a9a";
    assert!(!trailer_leaves_unchanged(v, Some("seeding-heart-loocv")));
    assert!(!trailer_leaves_unchanged(v, Some("svm-cv-a9a")));
    assert!(trailer_leaves_unchanged(v, Some("seeding-heart")));
    assert!(trailer_leaves_unchanged(v, None));
    let noted = "unchanged except a, b (b's cells, now timed 3 times, a, b)";
    assert!(!trailer_leaves_unchanged(noted, Some("b")));
    assert!(trailer_leaves_unchanged(noted, Some("c")));
}

#[test]
fn pathspecs_follow_the_engine_move_and_leave_out_render_only_code() {
    let p = numbers_pathspecs(&["src/experiments/treecv", "crates/cvbench-engine/src/cv"]);
    for want in [
        "src/experiments/treecv",
        "crates/cvbench-engine/src/cv",
        "src/cv",
        "src/runner",
        "crates/cvbench-engine/src/data",
        ":(exclude)src/experiments/treecv/verdicts",
    ] {
        assert!(p.iter().any(|q| q == want), "{want} not in {p:?}");
    }
    assert!(!p.iter().any(|q| q == "src/peers"), "{p:?}");
    let p = numbers_pathspecs(&["src/experiments/svm_cv", "crates/cvbench-engine/src/svm"]);
    assert!(
        p.iter().any(|q| q == "src/peers") && p.iter().any(|q| q == "src/svm"),
        "{p:?}"
    );
}

#[test]
fn a_changed_config_makes_its_run_stale_but_comments_and_names_do_not() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let run = "# old comment\nkind = \"svm_cv\"\nname = \"a\"\ntiming_repeats = 1\n";
    std::fs::write(
        dir.join("c.toml"),
        "# new\nkind = \"svm_cv\"\nname = \"b\"\ntiming_repeats = 1\n",
    )
    .unwrap();
    assert_eq!(config_changed(dir, "c.toml", run), None);
    std::fs::write(
        dir.join("c.toml"),
        "kind = \"svm_cv\"\nname = \"a\"\ntiming_repeats = 3\n",
    )
    .unwrap();
    assert!(config_changed(dir, "c.toml", run)
        .unwrap()
        .contains("config `c.toml` has changed"));
    assert_eq!(config_changed(dir, "gone.toml", run), None);
}
