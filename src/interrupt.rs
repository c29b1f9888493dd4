//! Interruption without leftovers: after Ctrl-C (SIGINT) or SIGTERM no
//! temporary file of ours survives.
//!
//! - Every atomic write ([`crate::atomic_write`], the harness's `results::table::write_atomic`) holds
//!   [`write_guard`] while its temporary file exists.
//! - Other temporary files (the decompressed copy `cvbench svm --peer` hands
//!   to `svm-train`) are [`TempFile`]s, temporary folders [`TempDir`]s, and a
//!   run folder's assembly lock is [`register`]ed: removed on drop, and
//!   registered so that an interruption removes them too.
//! - Temporary folders are named `<prefix>...-<pid>` under the system's
//!   temporary folder (see [`TEMP_DIR_PREFIXES`]): on an interruption those of
//!   this process are removed, and [`remove_orphan_temp_dirs`] (called when a
//!   run starts) removes those of processes that are gone (killed with
//!   SIGKILL, or older builds).
//! - Child processes (`svm-train`, `svm-predict`, `svm-grid`, the Python
//!   peers) are run through [`output`]: each in a process group of its own
//!   (so a terminal's Ctrl-C reaches cvbench alone, and cvbench decides the
//!   order) and registered while it runs.
//! - [`install`] (called once by the binary) starts a thread that, on SIGINT or
//!   SIGTERM, in this order: marks the process interrupted ([`interrupted`];
//!   no child starts after that), kills every registered child's process
//!   group and waits until the children are reaped, waits for the write in
//!   flight to finish (taking the write lock and keeping it, so no new one
//!   starts), removes the registered temporary files, prints the command's
//!   message ([`set_message`]) and exits with 130 (SIGINT) or 143 (SIGTERM).
//! - A failure observed after the interruption (a child killed by it, a file
//!   of a removed temporary folder) is the interruption's, not a failure of
//!   its own: [`output`] and [`stop_if_interrupted`] never return once the
//!   process is interrupted, so the watcher's exit code and message are the
//!   only ones (the binary calls [`stop_if_interrupted`] before it reports
//!   an error or exits).
//!
//! A process killed with SIGKILL gets no chance to clean up; the runner's
//! resume logic is what copes with that.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Name prefixes of our temporary folders under the system's temporary
/// folder; each such folder's name ends with `-<pid>` of its process.
pub const TEMP_DIR_PREFIXES: &[&str] = &["cvbench-svm-", "cvbench-tmp-"];

static WRITES: Mutex<()> = Mutex::new(());
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Set (under [`CHILDREN`]'s lock) when SIGINT/SIGTERM arrives.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Process ids (each its own process group's id) of the running children.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// What the interruption message says after `interrupted: stopped`.
static MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// How long the watcher waits for killed children to be reaped before it
/// removes the temporary files anyway (they are killed with SIGKILL, so this
/// bound is only reached when the machine stalls).
const CHILD_REAP_TIMEOUT: Duration = Duration::from_secs(60);

fn lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Hold this while a temporary file of an atomic write exists (create, write,
/// rename): an interruption waits for it, so it never sees a partial file.
pub fn write_guard() -> MutexGuard<'static, ()> {
    lock(&WRITES)
}

/// A temporary file removed on drop, and on SIGINT/SIGTERM (see the module docs).
#[derive(Debug)]
pub struct TempFile {
    path: tempfile::TempPath,
}

impl TempFile {
    /// A new file in the system's temporary folder holding `bytes`; its name
    /// starts with `prefix` and ends with `suffix`. Nothing is left behind
    /// when writing fails.
    pub fn with_contents(prefix: &str, suffix: &str, bytes: &[u8]) -> std::io::Result<TempFile> {
        use std::io::Write;
        let mut f = {
            // Create and register under the write lock: an interruption
            // either comes before the file exists or sees it registered.
            let _writes = write_guard();
            let f = tempfile::Builder::new()
                .prefix(prefix)
                .suffix(suffix)
                .tempfile()?;
            lock(&TEMPS).push(f.path().to_path_buf());
            f
        };
        let written = f.write_all(bytes).and_then(|()| f.flush());
        // From here on the file is removed when `t` drops, also on error.
        let t = TempFile {
            path: f.into_temp_path(),
        };
        written?;
        Ok(t)
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let p: &Path = &self.path;
        lock(&TEMPS).retain(|q| q != p);
        // `tempfile::TempPath` removes the file when it drops, right after this.
    }
}

/// A path (a file such as a lock, or a folder) that an interruption removes;
/// dropping the guard only unregisters it (the owner removes it).
#[derive(Debug)]
pub struct Registered(PathBuf);

/// Register `path` for removal on SIGINT/SIGTERM until the guard drops. Call
/// it while holding [`write_guard`] around the path's creation, so that an
/// interruption either comes before the path exists or sees it registered.
pub fn register(path: &Path) -> Registered {
    lock(&TEMPS).push(path.to_path_buf());
    Registered(path.to_path_buf())
}

impl Drop for Registered {
    fn drop(&mut self) {
        let p = &self.0;
        lock(&TEMPS).retain(|q| q != p);
    }
}

/// A temporary folder `<tmp>/<name>-<pid>`, removed with its content on
/// drop and on SIGINT/SIGTERM. `name` must start with one of
/// [`TEMP_DIR_PREFIXES`] (so that a folder left by a killed process is found).
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    _registered: Registered,
}

impl TempDir {
    /// Create `<tmp>/<name>-<pid>` (emptied first if it is there).
    pub fn new(name: &str) -> std::io::Result<TempDir> {
        let path = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _writes = write_guard();
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        let registered = register(&path);
        Ok(TempDir {
            path,
            _registered: registered,
        })
    }

    /// A new folder `<tmp>/cvbench-tmp-<what>-<n>-<pid>`, `n` counting the
    /// folders this process made, so that any number may exist at once.
    pub fn unique(what: &str) -> std::io::Result<TempDir> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        TempDir::new(&format!("cvbench-tmp-{what}-{n}"))
    }

    /// Where the folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Whether process `pid` runs on this machine (`/proc/<pid>` exists; where
/// there is no `/proc`, assumed alive, so nothing of another is removed).
pub fn pid_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

/// Our temporary folders under `tmp` (names with a prefix of
/// [`TEMP_DIR_PREFIXES`] ending in `-<pid>`) whose process `gone` says is gone.
fn our_temp_dirs(tmp: &Path, gone: &dyn Fn(u32) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            TEMP_DIR_PREFIXES.iter().any(|p| name.starts_with(p))
                && name
                    .rsplit_once('-')
                    .and_then(|(_, pid)| pid.parse::<u32>().ok())
                    .is_some_and(gone)
        })
        .map(|e| e.path())
        .collect()
}

/// Remove the temporary folders left by processes of ours that are gone
/// (killed with SIGKILL, which leaves no chance to clean up); returns how
/// many. Folders of running processes are left alone.
pub fn remove_orphan_temp_dirs() -> usize {
    let me = std::process::id();
    let gone = |pid: u32| pid != me && !pid_alive(pid);
    our_temp_dirs(&std::env::temp_dir(), &gone)
        .iter()
        .filter(|p| std::fs::remove_dir_all(p).is_ok())
        .count()
}

/// Whether SIGINT or SIGTERM has arrived (the process is on its way out).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Once the process is interrupted, never return: the watcher thread is
/// cleaning up and exits the process with the interruption's code. Call it
/// where a failure could be the interruption's doing, before reporting it.
pub fn stop_if_interrupted() {
    if interrupted() {
        wait_for_the_exit();
    }
}

/// Wait for the watcher thread to exit the process.
fn wait_for_the_exit() -> ! {
    loop {
        std::thread::park();
    }
}

/// Set what the interruption message says after `interrupted: stopped`
/// (what is kept and how to go on; each command says its own).
pub fn set_message(message: impl Into<String>) {
    *lock(&MESSAGE) = Some(message.into());
}

/// The interruption message: `interrupted: stopped (<message>)`.
fn message() -> String {
    match lock(&MESSAGE).as_deref() {
        Some(m) => format!("interrupted: stopped ({m})"),
        None => "interrupted: stopped".into(),
    }
}

/// Run `cmd` to completion and collect its output, as [`Command::output`]
/// does (standard input from `/dev/null`), in a process group of its own and
/// registered, so that an interruption kills it (and whatever it started)
/// before removing the files it may be writing. Once the process is
/// interrupted this never returns (see [`stop_if_interrupted`]): the
/// child's failure is the interruption's.
pub fn output(cmd: &mut Command) -> std::io::Result<Output> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    let child = {
        // Spawn and register under the lock the watcher marks the
        // interruption under: a child either is killed or never starts.
        let mut children = lock(&CHILDREN);
        if interrupted() {
            drop(children);
            wait_for_the_exit();
        }
        let child = cmd.spawn()?;
        children.push(child.id());
        child
    };
    let pid = child.id();
    let out = child.wait_with_output();
    lock(&CHILDREN).retain(|&p| p != pid);
    stop_if_interrupted();
    out
}

/// Whether a process of process group `pgid` still runs (zombies, which
/// write nothing, do not count: an orphan's may wait long for its reaper).
/// Reads `/proc` on Linux; elsewhere any member counts.
#[cfg(unix)]
fn group_alive(pgid: u32) -> bool {
    if cfg!(target_os = "linux") {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return false;
        };
        entries.flatten().any(|e| {
            std::fs::read_to_string(e.path().join("stat"))
                .ok()
                .and_then(|stat| live_group_of(&stat))
                == Some(pgid)
        })
    } else {
        // SAFETY: kill with signal 0 only checks that the group exists.
        unsafe { libc::killpg(pgid as libc::pid_t, 0) == 0 }
    }
}

/// The process group of a `/proc/<pid>/stat` line's process, unless it is a
/// zombie (or dead): `pid (comm) state ppid pgrp ...`.
#[cfg(unix)]
fn live_group_of(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    let state = f.next()?;
    let pgrp = f.nth(1)?.parse().ok()?;
    (state != "Z" && state != "X").then_some(pgrp)
}

/// Mark the process interrupted, kill every registered child's process
/// group and wait (up to [`CHILD_REAP_TIMEOUT`]) until the children are
/// reaped by the threads that run them and their groups are gone.
fn stop_children() {
    let killed: Vec<u32> = {
        let children = lock(&CHILDREN);
        INTERRUPTED.store(true, Ordering::SeqCst);
        #[cfg(unix)]
        for &pid in children.iter() {
            // SAFETY: signalling the process group of a child we started
            // (its id is the group's, see `output`) and have not reaped yet.
            unsafe {
                libc::killpg(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        children.clone()
    };
    let deadline = Instant::now() + CHILD_REAP_TIMEOUT;
    let done = || {
        #[cfg(unix)]
        let groups_gone = !killed.iter().any(|&g| group_alive(g));
        #[cfg(not(unix))]
        let groups_gone = true;
        lock(&CHILDREN).is_empty() && groups_gone
    };
    while !done() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Stop the children ([`stop_children`]), then remove every registered
/// temporary file (while holding the write lock) and exit with `code`.
/// Never returns.
fn clean_exit(code: i32) -> ! {
    stop_children();
    let _writes = write_guard();
    for p in lock(&TEMPS).iter() {
        if p.is_dir() {
            let _ = std::fs::remove_dir_all(p);
        } else {
            let _ = std::fs::remove_file(p);
        }
    }
    // Temporary folders of this process that were not registered.
    let me = std::process::id();
    for p in our_temp_dirs(&std::env::temp_dir(), &|pid| pid == me) {
        let _ = std::fs::remove_dir_all(p);
    }
    eprintln!("{}", message());
    std::process::exit(code)
}

/// Install the SIGINT/SIGTERM watcher and restore the default SIGPIPE action
/// (so that `cvbench validate x.toml | head -1` ends quietly instead of
/// failing on the closed pipe). Call once, from the binary's `main`.
pub fn install() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        // SAFETY: setting a signal's disposition to SIG_DFL at startup, before
        // any thread of ours exists, touches no Rust state.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
            let _ = std::thread::Builder::new()
                .name("cvbench-signals".into())
                .spawn(move || {
                    if let Some(sig) = signals.forever().next() {
                        clean_exit(128 + sig);
                    }
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_file_is_registered_and_removed_on_drop() {
        let t = TempFile::with_contents("cvbench-test-", ".txt", b"abc").unwrap();
        let p = t.path().to_path_buf();
        assert_eq!(std::fs::read(&p).unwrap(), b"abc");
        assert!(lock(&TEMPS).contains(&p));
        drop(t);
        assert!(!p.exists());
        assert!(!lock(&TEMPS).contains(&p));
    }

    #[cfg(unix)]
    #[test]
    fn children_run_in_a_process_group_of_their_own() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "cat /proc/$$/stat; echo err >&2"]);
        let out = output(&mut cmd).unwrap();
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stderr), "err\n");
        if cfg!(target_os = "linux") {
            // The group is the child's own, not ours.
            let pgid = live_group_of(&String::from_utf8_lossy(&out.stdout));
            // SAFETY: getpgrp has no preconditions.
            let ours = unsafe { libc::getpgrp() } as u32;
            assert!(pgid.is_some_and(|g| g != ours), "{pgid:?} vs ours {ours}");
        }
        assert!(output(&mut Command::new("/no/such/program")).is_err());
        assert!(!interrupted());
    }

    #[cfg(unix)]
    #[test]
    fn stat_lines_give_the_group_of_live_processes() {
        assert_eq!(live_group_of("12 (sh) S 1 12 12 0 -1"), Some(12));
        assert_eq!(live_group_of("12 (a) b) R 1 40 12 0"), Some(40));
        assert_eq!(live_group_of("12 (sh) Z 1 12 12 0"), None);
        assert_eq!(live_group_of("garbage"), None);
    }

    #[test]
    fn temp_dirs_are_registered_and_orphans_found_by_pid() {
        let d = TempDir::new("cvbench-tmp-unit").unwrap();
        let p = d.path().to_path_buf();
        std::fs::write(p.join("x"), b"1").unwrap();
        assert!(lock(&TEMPS).contains(&p));
        drop(d);
        assert!(!p.exists() && !lock(&TEMPS).contains(&p));
        let tmp = tempfile::tempdir().unwrap();
        for name in [
            "cvbench-svm-ab-12",
            "cvbench-svm-ab-13",
            "other-12",
            "cvbench-svm-x",
        ] {
            std::fs::create_dir(tmp.path().join(name)).unwrap();
        }
        let found = our_temp_dirs(tmp.path(), &|pid| pid == 12);
        assert_eq!(found, [tmp.path().join("cvbench-svm-ab-12")]);
    }
}
