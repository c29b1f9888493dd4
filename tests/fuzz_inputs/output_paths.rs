//! Output paths (issue 40): `export -o`, `run --out` and `report DIR` get
//! odd paths — existing files and folders, symbolic links (to a file, a
//! folder, nowhere, a loop), a device, names with spaces and newlines,
//! missing parents, paths under a file, stored tables — with odd tails
//! (`/`, `/sub`, `/out.csv`). Each command must return or fail, never
//! panic, and change nothing outside the path it was given (or where its
//! links lead, or the folders made above it); the device stays a device.

use super::{cases, report, runner, SERIAL};
use clap::Parser as _;
use cvbench::cli::{run, Cli};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

const CONFIG: &str = r#"kind = "treecv"
name = "tiny"
seed = 1
repetitions = 1

[[datasets]]
synthetic = { generator = "linear-classification", n = 40, d = 2 }
label = "tiny-synthetic"

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["standard"]
orders = ["fixed"]
k = [4]
"#;

/// Paths relative to the sandbox (an absolute one stays as it is).
const BASES: &[&str] = &[
    "",
    "file.csv",
    "dir",
    "link-file",
    "link-dir",
    "dangling",
    "loop-a",
    "name with spaces.csv",
    "new\nline.csv",
    "missing/parent/x.csv",
    "file.csv/under",
    "res",
    "res/tiny",
    "res/tiny/records.parquet",
    "res/tiny/summary.csv",
    "x.parquet",
    "null-device",
];

const TAILS: &[&str] = &["", "/", "/sub", "/out.csv"];

/// What is at each path under a folder (links not followed): kind, inode,
/// size and modification time, enough to see a file replaced or changed.
type Snapshot = BTreeMap<PathBuf, (char, u64, u64, i128)>;

fn snapshot(dir: &Path, into: &mut Snapshot) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(m) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        let t = m.file_type();
        let kind = if t.is_symlink() {
            'l'
        } else if t.is_dir() {
            'd'
        } else if t.is_file() {
            'f'
        } else {
            's'
        };
        let mtime = i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec());
        // A folder's own size and time change when entries come and go:
        // those are judged by the entries.
        let (size, mtime) = if kind == 'd' {
            (0, 0)
        } else {
            (m.len(), mtime)
        };
        into.insert(p.clone(), (kind, m.ino(), size, mtime));
        if kind == 'd' {
            snapshot(&p, into);
        }
    }
}

/// Follow the symbolic links at `p` itself (as the commands do).
fn follow(p: &Path) -> PathBuf {
    let mut p = p.to_path_buf();
    for _ in 0..8 {
        match std::fs::read_link(&p) {
            Ok(to) if to.is_relative() => p = p.parent().unwrap_or(Path::new("")).join(to),
            Ok(to) => p = to,
            Err(_) => break,
        }
    }
    p
}

/// The sandbox: a finished run under `res/`, and the odd entries of [`BASES`].
fn sandbox() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let s = d.path();
    std::fs::write(s.join("cfg.toml"), CONFIG).unwrap();
    let res = s.join("res").display().to_string();
    let cfg = s.join("cfg.toml").display().to_string();
    invoke(&["run", &cfg, "--out", &res, "--quiet"]).expect("the sandbox's run");
    std::fs::write(s.join("file.csv"), "a,b\n").unwrap();
    std::fs::create_dir(s.join("dir")).unwrap();
    std::fs::write(s.join("name with spaces.csv"), "x").unwrap();
    let link = |to: &str, name: &str| std::os::unix::fs::symlink(to, s.join(name)).unwrap();
    link("file.csv", "link-file");
    link("dir", "link-dir");
    link("nowhere/x.csv", "dangling");
    link("loop-b", "loop-a");
    link("loop-a", "loop-b");
    // A private null device as root (a regression then replaces this one,
    // not the machine's); else a link to the machine's.
    let made = std::process::Command::new("mknod")
        .arg(s.join("null-device"))
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|st| st.success());
    if !made {
        link("/dev/null", "null-device");
    }
    d
}

/// Run the command line in this process: `Ok` or the failure's exit code
/// (a line clap refuses counts as code 2).
fn invoke(args: &[&str]) -> Result<(), i32> {
    let argv: Vec<OsString> = std::iter::once("cvbench")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect();
    let cli = Cli::try_parse_from(argv).map_err(|_| 2)?;
    run(cli).map_err(|f| f.code)
}

/// Whether a change at `changed` is inside `given` (or where its links
/// lead), or a folder made above it.
fn allowed(changed: &Path, given: &Path, after: &Snapshot) -> bool {
    let inside = [given.to_path_buf(), follow(given)]
        .iter()
        .chain(std::fs::canonicalize(given).ok().as_ref())
        .any(|g| changed.starts_with(g));
    let folder_above =
        given.starts_with(changed) && after.get(changed).is_some_and(|(kind, ..)| *kind == 'd');
    inside || folder_above
}

fn command() -> impl Strategy<Value = (usize, usize, usize)> {
    (0..3usize, 0..BASES.len(), 0..TAILS.len())
}

/// One command on one odd path, and the checks: `Ok(true)` when it
/// succeeded, `Ok(false)` when it failed with exit code 1 or 2.
fn case(s: &Path, cmd: usize, base: usize, tail: usize) -> Result<bool, TestCaseError> {
    let given = PathBuf::from(format!("{}/{}{}", s.display(), BASES[base], TAILS[tail]));
    let p = given.display().to_string();
    let cfg = s.join("cfg.toml").display().to_string();
    let input = s.join("res/tiny").display().to_string();
    let args: Vec<&str> = match cmd {
        0 => vec!["export", &input, "-o", &p],
        1 => vec!["run", &cfg, "--out", &p, "--quiet"],
        _ => vec!["report", &p],
    };
    let mut before = Snapshot::new();
    snapshot(s, &mut before);
    let succeeded = match invoke(&args) {
        Ok(()) => true,
        Err(code) => {
            prop_assert!(code == 1 || code == 2, "exit {code} for {args:?}");
            false
        }
    };
    let mut after = Snapshot::new();
    snapshot(s, &mut after);
    for (path, was) in &before {
        let now = after.get(path);
        // A link or a device stays what it is, even at the path given.
        if matches!(was.0, 'l' | 's') {
            prop_assert!(
                now.is_some_and(|n| n.0 == was.0),
                "{args:?} replaced or removed the link or device {}",
                path.display()
            );
        }
        if now != Some(was) {
            prop_assert!(
                allowed(path, &given, &after),
                "{args:?} changed or removed {}",
                path.display()
            );
        }
    }
    for path in after.keys().filter(|p| !before.contains_key(*p)) {
        prop_assert!(
            allowed(path, &given, &after),
            "{args:?} made {}",
            path.display()
        );
    }
    use std::os::unix::fs::FileTypeExt;
    let null = std::fs::metadata(s.join("null-device")).map(|m| m.file_type());
    prop_assert!(
        null.is_ok_and(|t| t.is_char_device()),
        "{args:?}: the device was replaced"
    );
    let records = std::fs::read(s.join("res/tiny/records.parquet")).unwrap_or_default();
    prop_assert!(
        records.starts_with(b"PAR1"),
        "{args:?}: records.parquet is no longer Parquet"
    );
    Ok(succeeded)
}

/// `export -o`, `run --out` and `report DIR` on odd paths: an error or a
/// success, never a panic, nothing changed outside the path given; links
/// and the device stay what they are and the stored tables stay Parquet.
/// Every command on every base path first (no tail), then random cases.
#[cfg(unix)]
#[test]
fn fuzz_output_paths() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let d = sandbox();
    let s = d.path().to_path_buf();
    let count = AtomicUsize::new(0);
    let (ok, failed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let tally = |succeeded: bool| {
        count.fetch_add(1, Ordering::Relaxed);
        let c = if succeeded { &ok } else { &failed };
        c.fetch_add(1, Ordering::Relaxed);
    };
    for cmd in 0..3 {
        for base in 0..BASES.len() {
            match case(&s, cmd, base, 0) {
                Ok(succeeded) => tally(succeeded),
                Err(e) => panic!("{e}"),
            }
        }
    }
    runner(cases(32))
        .run(&command(), |(cmd, base, tail)| {
            let succeeded = case(&s, cmd, base, tail)?;
            tally(succeeded);
            Ok(())
        })
        .unwrap();
    report("output-paths", &count);
    println!(
        "fuzz-output-paths {} succeeded, {} refused",
        ok.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed)
    );
}
