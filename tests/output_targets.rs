//! Where the harness's outputs go: `export -o` onto devices, pipes, links,
//! its own input and Parquet tables; concurrent `report`s and `run`s
//! sharing a run folder; temporary files after an interruption or a full
//! disk; `report` and `collect` on a folder they cannot write; `validate`
//! into a pipe closed early. Each runs the built binary on a tiny run of
//! its own.
//!
//! The full-disk and read-only cases mount a small tmpfs, which needs root:
//! elsewhere they print `SKIPPED` (the read-only case then uses `chmod`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::common;
use common::{assert_exit, cvbench, ok, stderr};

fn command(args: &[&str], cwd: &Path) -> Command {
    let mut c = common::command(cwd);
    c.args(args);
    c
}

fn spawn(args: &[&str], cwd: &Path) -> Child {
    command(args, cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cvbench")
}

const TINY: &str = r#"kind = "treecv"
name = "tiny"
seed = 1
repetitions = 1

[[datasets]]
synthetic = { generator = "linear-classification", n = 60, d = 3 }
label = "tiny-synthetic"

[[learners]]
type = "pegasos"
lambda = 1e-3

[[grid]]
methods = ["treecv", "standard"]
orders = ["fixed"]
k = [5]
"#;

/// Write `tiny.toml` into `dir` and run it into `<dir>/<out>`; returns the
/// run folder.
fn tiny_run(dir: &Path, out: &str) -> PathBuf {
    std::fs::write(dir.join("tiny.toml"), TINY).unwrap();
    ok(&cvbench(
        &["run", "tiny.toml", "--out", out, "--quiet"],
        dir,
    ));
    dir.join(out).join("tiny")
}

/// Temporary files under `dir`: names holding `.tmp` (ours end in `.tmp`;
/// older builds drew figures into `<stem>.tmp.png`).
fn temps(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let p = e.path();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(temps(&p));
        } else if e.file_name().to_string_lossy().contains(".tmp") {
            found.push(p);
        }
    }
    found
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A tmpfs of `size` (e.g. `1m`) mounted on a temporary folder, unmounted
/// on drop; `None` (with a `SKIPPED` line) where mounting is not allowed.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str, test: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = is_root()
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
                .arg(dir.path())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        if !mounted {
            println!("SKIPPED {test}: cannot mount a tmpfs (needs root)");
            return None;
        }
        Some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn remount_read_only(&self) -> bool {
        Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.path()).status();
    }
}

/// Fill the file system of `dir` to the last byte, then free `free` bytes.
fn fill_disk(dir: &Path, free: u64) {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let chunk = vec![7u8; 4096];
    while f.write_all(&chunk).is_ok() {}
    let _ = f.flush();
    drop(f);
    let len = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len.saturating_sub(free))
        .unwrap();
}

#[cfg(unix)]
fn file_type(p: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let Ok(m) = std::fs::symlink_metadata(p) else {
        return "missing";
    };
    let t = m.file_type();
    if t.is_symlink() {
        "link"
    } else if t.is_char_device() {
        "char device"
    } else if t.is_fifo() {
        "fifo"
    } else if t.is_dir() {
        "dir"
    } else {
        "file"
    }
}

/// `/dev/<name>` (memory device minor `minor`): as root a private node of it
/// under `dir` (`mknod`), else the machine's (which a non-root process
/// cannot replace).
#[cfg(unix)]
fn device(dir: &Path, name: &str, minor: u32) -> String {
    let private = dir.join(name);
    let made = is_root()
        && Command::new("mknod")
            .arg(&private)
            .args(["c", "1", &minor.to_string()])
            .status()
            .is_ok_and(|s| s.success());
    if made {
        private.display().to_string()
    } else {
        format!("/dev/{name}")
    }
}

/// Issue 40, 1: `export -o` writes a device, a pipe and a link's target in
/// place (the device, pipe and link stay), fails clearly on `/dev/full`,
/// and refuses its own input and any `.parquet` name (also behind a link),
/// so that `report` still finds every table.
#[cfg(unix)]
#[test]
fn export_writes_devices_pipes_and_links_and_refuses_inputs_and_tables() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let run = tiny_run(dir, "res");
    let csv = ok(&cvbench(&["export", "res/tiny", "-o", "-"], dir));
    assert!(csv.starts_with("kind,"), "{csv}");
    // /dev/full: "No space left on device", exit != 0, still a device; and
    // /dev/null. As root, private nodes of the same devices, so that a
    // build with the bug replaces those, not the machine's.
    let (full, null) = (device(dir, "full", 7), device(dir, "null", 3));
    let o = cvbench(&["export", "res/tiny/records.parquet", "-o", &full], dir);
    assert_exit(&o, 2, &[&full, "No space left on device"]);
    assert_eq!(file_type(Path::new(&full)), "char device");
    ok(&cvbench(&["export", "res/tiny", "-o", &null], dir));
    assert_eq!(file_type(Path::new(&null)), "char device");
    // A FIFO is written to, as `> fifo` would.
    let fifo = dir.join("pipe");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    ok(&cvbench(&["export", "res/tiny", "-o", "pipe"], dir));
    assert_eq!(reader.join().unwrap(), csv);
    assert_eq!(file_type(&fifo), "fifo");
    // A link is written through: the target gets the CSV, the link stays;
    // a dangling link into an existing folder makes its target.
    std::fs::write(dir.join("real.csv"), "old").unwrap();
    std::os::unix::fs::symlink("real.csv", dir.join("link.csv")).unwrap();
    ok(&cvbench(&["export", "res/tiny", "-o", "link.csv"], dir));
    assert_eq!(file_type(&dir.join("link.csv")), "link");
    assert_eq!(std::fs::read_to_string(dir.join("real.csv")).unwrap(), csv);
    std::os::unix::fs::symlink("made.csv", dir.join("to-made.csv")).unwrap();
    ok(&cvbench(&["export", "res/tiny", "-o", "to-made.csv"], dir));
    assert_eq!(file_type(&dir.join("to-made.csv")), "link");
    assert_eq!(std::fs::read_to_string(dir.join("made.csv")).unwrap(), csv);
    // Its own input, a stored table, a link to one, any `.parquet` name:
    // refused, nothing changed.
    let records = std::fs::read(run.join("records.parquet")).unwrap();
    let summary = std::fs::read(run.join("summary.parquet")).unwrap();
    std::os::unix::fs::symlink("res/tiny/summary.parquet", dir.join("sneaky.csv")).unwrap();
    for (input, out) in [
        ("res/tiny", "res/tiny/records.parquet"),
        ("res/tiny/records.parquet", "res/tiny/records.parquet"),
        ("res/tiny", "res/tiny/summary.parquet"),
        ("res/tiny", "sneaky.csv"),
        ("res/tiny", "new.PARQUET"),
    ] {
        let o = cvbench(&["export", input, "-o", out], dir);
        assert_exit(&o, 2, &[out, ".parquet", "fix:"]);
    }
    std::fs::copy(run.join("records.parquet"), dir.join("t.data")).unwrap();
    let o = cvbench(&["export", "t.data", "-o", "t.data"], dir);
    assert_exit(&o, 2, &["is the input"]);
    let o = cvbench(&["export", "res/tiny", "-o", "res"], dir);
    assert_exit(&o, 2, &["is a folder"]);
    assert_eq!(std::fs::read(run.join("records.parquet")).unwrap(), records);
    assert_eq!(std::fs::read(run.join("summary.parquet")).unwrap(), summary);
    assert!(!dir.join("new.PARQUET").exists());
    assert_eq!(std::fs::read(dir.join("t.data")).unwrap(), records);
    assert_eq!(file_type(&dir.join("sneaky.csv")), "link");
    let o = cvbench(&["report", "res"], dir);
    ok(&o);
    assert!(!stderr(&o).contains("left out"), "{}", stderr(&o));
    assert!(temps(dir).is_empty(), "{:?}", temps(dir));
}

/// Issue 40, 2: two `report`s and a `run` re-assembling the same folder at
/// once all succeed and every run stays in REPORT.md (they once shared one
/// temporary figure name); and threads rendering one figure at once never
/// trip over each other's temporary files.
#[test]
fn concurrent_reports_and_runs_never_share_a_temporary_name() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    tiny_run(dir, "res");
    for _trial in 0..3 {
        let children = [
            spawn(&["report", "res"], dir),
            spawn(&["report", "res"], dir),
            spawn(&["run", "tiny.toml", "--out", "res", "--quiet"], dir),
        ];
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "exit {:?}: {}", o.status, stderr(&o));
            assert!(!stderr(&o).contains("left out"), "{}", stderr(&o));
        }
        let report = std::fs::read_to_string(dir.join("res/REPORT.md")).unwrap();
        assert!(!report.contains("Skipped folders"), "{report}");
        assert!(report.contains("tiny"), "{report}");
        assert!(temps(dir).is_empty(), "{:?}", temps(dir));
    }
    // In one process: threads drawing one figure into one folder.
    use cvbench::results::figures::{render, Figure, Panel, Series};
    let fig = Figure {
        title: "t".into(),
        caption: "synthetic".into(),
        rows: 1,
        cols: 1,
        panels: vec![Panel {
            title: "p".into(),
            series: vec![Series {
                label: "s".into(),
                points: vec![(1.0, 1.0, 0.0), (2.0, 3.0, 0.5)],
                ..Series::default()
            }],
            ..Panel::default()
        }],
    };
    let out = dir.join("figs");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..3 {
                    render(&fig, &out, "same").unwrap();
                }
            });
        }
    });
    assert!(temps(&out).is_empty(), "{:?}", temps(&out));
}

/// Issue 40, 3: SIGINT while `report` writes its files leaves no temporary
/// file (the figure's once survived as `table2.tmp.png`). The signal is sent
/// as soon as a temporary file is seen (polled), or not at all if the
/// report is done first; either way none may remain.
#[cfg(unix)]
#[test]
fn sigint_during_report_leaves_no_temporary_file() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    tiny_run(dir, "res");
    let mut interrupted = 0;
    for _trial in 0..6 {
        let mut child = spawn(&["report", "res"], dir);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if !temps(dir).is_empty() {
                // SAFETY: kill with a valid signal on our own child's pid.
                unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
                interrupted += 1;
                break;
            }
            assert!(std::time::Instant::now() < deadline, "report hangs");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let o = child.wait_with_output().unwrap();
        assert!(
            matches!(o.status.code(), Some(0 | 130)),
            "exit {:?}: {}",
            o.status,
            stderr(&o)
        );
        assert!(temps(dir).is_empty(), "left behind: {:?}", temps(dir));
    }
    println!("interrupted {interrupted} of 6 reports while a temporary file existed");
}

/// Issue 40, 3 and 4: on a full disk `report` fails (exit != 0, naming the
/// file and "No space left on device"), keeps the REPORT.md that was there
/// and leaves no temporary file; so does `export`.
#[test]
fn a_full_disk_fails_report_and_export_and_keeps_what_was_there() {
    let Some(fs) = Tmpfs::mount("2m", "a_full_disk_fails_report_and_export") else {
        return;
    };
    let root = fs.path();
    tiny_run(root, "res");
    ok(&cvbench(&["report", "res"], root));
    let before = std::fs::read(root.join("res/REPORT.md")).unwrap();
    let html = std::fs::read(root.join("res/index.html")).unwrap();
    // Room for a short REPORT.md but not for a table (the report once
    // skipped the run and replaced REPORT.md, exit 0), then room for the
    // tables but not for a figure (whose temporary file once stayed).
    for free in [4096, 24 * 1024] {
        fill_disk(root, free);
        let o = cvbench(&["report", "res"], root);
        let e = stderr(&o);
        assert!(!o.status.success(), "exit 0 with {free} bytes free: {e}");
        assert!(e.contains("No space left on device"), "{e}");
        assert!(!e.contains("panicked"), "{e}");
        assert_eq!(std::fs::read(root.join("res/REPORT.md")).unwrap(), before);
        assert_eq!(std::fs::read(root.join("res/index.html")).unwrap(), html);
        assert!(temps(root).is_empty(), "left behind: {:?}", temps(root));
    }
    // Export a table bigger than the room left.
    fill_disk(root, 0);
    let o = cvbench(&["export", "res/tiny", "-o", "out.csv"], root);
    assert_exit(&o, 2, &["out.csv", "No space left on device"]);
    assert!(!root.join("out.csv").exists());
    assert!(temps(root).is_empty(), "left behind: {:?}", temps(root));
}

/// Issue 40, 5: `collect` into a folder it cannot write (read-only, or a
/// path under a file) is a usage error, exit 2, as the README says.
#[test]
fn collect_into_a_folder_it_cannot_write_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("tiny.toml"), TINY).unwrap();
    std::fs::write(dir.join("file"), "x").unwrap();
    let o = cvbench(&["collect", "tiny.toml", "--out", "file/res"], dir);
    assert_exit(&o, 2, &["--out file/res", "is a file", "fix:"]);
    if is_root() {
        let Some(fs) = Tmpfs::mount("4m", "collect_into_a_read_only_folder") else {
            return;
        };
        tiny_run(fs.path(), "res");
        assert!(fs.remount_read_only(), "remount read-only");
        let o = cvbench(
            &[
                "collect",
                "tiny.toml",
                "--out",
                &fs.path().join("res").display().to_string(),
            ],
            dir,
        );
        assert_exit(&o, 2, &["read-only file system", "fix:"]);
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let run = tiny_run(dir, "res");
            std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o555)).unwrap();
            let o = cvbench(&["collect", "tiny.toml", "--out", "res"], dir);
            std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_exit(&o, 2, &["permission denied", "fix:"]);
        }
    }
}

/// `validate --cells` into a pipe its reader closes after one line (like
/// `| head -1`) ends without a panic or a "Broken pipe" message.
#[test]
fn validate_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        TINY.replace("repetitions = 1", "repetitions = 5000"),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cvbench"))
        .args(["validate", "c.toml", "--cells"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("rep=0"), "{first}");
    // The reader is dropped here, closing the pipe (like `| head -1`).
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert!(!e.contains("panicked") && !e.contains("Broken pipe"), "{e}");
    assert_ne!(o.status.code(), Some(101));
}
