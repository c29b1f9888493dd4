//! Interruption without leftovers: after Ctrl-C (SIGINT) or SIGTERM no
//! temporary file of ours survives.
//!
//! - Every atomic write ([`crate::results::table::write_atomic`]) holds
//!   [`write_guard`] while its temporary file exists.
//! - Other temporary files (the decompressed copy `cvbench svm --peer` hands
//!   to `svm-train`) are [`TempFile`]s: removed on drop, and registered so that
//!   an interruption removes them too.
//! - [`install`] (called once by the binary) starts a thread that, on SIGINT or
//!   SIGTERM, waits for the write in flight to finish (taking the write lock
//!   and keeping it, so no new one starts), removes the registered temporary
//!   files and exits with 130 (SIGINT) or 143 (SIGTERM).
//!
//! A process killed with SIGKILL gets no chance to clean up; the runner's
//! resume logic is what copes with that.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

static WRITES: Mutex<()> = Mutex::new(());
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

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

/// Remove every registered temporary file (while holding the write lock) and
/// exit with `code`. Never returns.
fn clean_exit(code: i32) -> ! {
    let _writes = write_guard();
    for p in lock(&TEMPS).iter() {
        let _ = std::fs::remove_file(p);
    }
    eprintln!(
        "interrupted: stopped (finished cells are kept; run the same command again to resume)"
    );
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
}
