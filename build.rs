//! Build script: records cvbench's own git revision (with `-dirty` when the
//! tree had uncommitted changes outside `results/`) as the environment
//! variable `CVBENCH_GIT_REVISION`, so that a run's manifest names the code
//! that made it, whichever folder the binary runs in.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    // `--no-optional-locks`: `git status` must not refresh (write) the index,
    // which this script watches, or every build would re-run it and
    // recompile the crate.
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let value = match git(&["rev-parse", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = git(&[
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                ":(exclude)results",
            ])
            .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{rev}-dirty")
            } else {
                rev
            }
        }
        _ => "unknown (not built from a git checkout)".to_string(),
    };
    println!("cargo:rustc-env=CVBENCH_GIT_REVISION={value}");
    // Re-run when HEAD moves (a commit, checkout or reset) or a tracked file
    // outside results/ changes (what the `-dirty` flag looks at). Not on the
    // index: any `git status` or `git diff` may rewrite it (refreshing stat
    // data after `make quick` rewrites results/quick), which recompiled the
    // crate on the next build although nothing had changed.
    let mut watch: Vec<String> = ["HEAD", "packed-refs"]
        .iter()
        .filter_map(|p| git(&["rev-parse", "--git-path", p]))
        .collect();
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.extend(git(&["rev-parse", "--git-path", &r]));
    }
    // The top-level entries git tracks (build.rs, Cargo.toml, src, tests,
    // README.md, ...), results/ aside; outside a checkout, the sources.
    let tracked: Vec<String> = git(&["ls-tree", "--name-only", "HEAD"])
        .map(|s| s.lines().map(str::to_string).collect())
        .unwrap_or_else(|| {
            ["build.rs", "Cargo.toml", "Cargo.lock", "src", "benches"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        });
    watch.extend(tracked.into_iter().filter(|e| e != "results"));
    // Only paths that exist: cargo re-runs the script on every build while a
    // watched path is missing (a repository without `packed-refs`).
    for w in watch
        .into_iter()
        .filter(|w| std::path::Path::new(w).exists())
    {
        println!("cargo:rerun-if-changed={w}");
    }
}
