//! Files the command line writes for the user (model files, `cvbench grid`'s
//! `-out` and `--json` files), written so that no partial file is ever left:
//! the bytes go to a temporary file in the target's folder, which is synced
//! to disk and then renamed over the target ([`write_atomic`]). A failed
//! write (a full disk, a quota) removes the temporary file and leaves the
//! previous file, if any, as it was; the error names the file.
//!
//! A symbolic link at the target is written through (its target is
//! replaced, the link stays); a character device or a FIFO (`/dev/null`,
//! `/dev/full`, a named pipe) is written in place, as a shell redirection
//! would, so that its write error is an error and the device stays. [`same_file`] tells whether two paths are one
//! file (device and inode on Unix, so a hard link is caught too), which the
//! commands use to refuse an output that is one of their inputs.
//!
//! Test hook, not for normal use: `CVBENCH_TEST_FAIL_WRITES_AFTER=N` makes
//! every write through this module fail with "no space left on device"
//! after `N` bytes, so that a test sees what a full disk does.

use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cvbench_engine::api::errors::DataError;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Whether `a` and `b` name one existing file: the same device and inode on
/// Unix (a hard link, a symbolic link or another spelling of the path is
/// the same file), the same canonical path elsewhere. `false` when either
/// does not exist.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// Where a write to `path` goes: the file a symbolic link at `path` leads to
/// (when it resolves), else `path` itself.
fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// A fresh temporary name beside `target`: `.<file>.<pid>.<n>.tmp`.
fn temp_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Write `bytes` to `file` and sync it to disk (the default of
/// [`write_atomic_via`]; the test hook in the module docs cuts it short).
fn write_synced(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    let limit = std::env::var("CVBENCH_TEST_FAIL_WRITES_AFTER")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    match limit {
        Some(n) if n < bytes.len() => {
            file.write_all(&bytes[..n])?;
            Err(std::io::Error::new(
                ErrorKind::StorageFull,
                "No space left on device (CVBENCH_TEST_FAIL_WRITES_AFTER)",
            ))
        }
        _ => {
            file.write_all(bytes)?;
            file.sync_all()
        }
    }
}

/// Replace the file at `path` with `bytes` atomically (see the module docs):
/// afterwards `path` holds either all of `bytes` or, on an error, what it
/// held before (nothing new when it did not exist).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DataError> {
    write_atomic_via(path, bytes, write_synced)
}

/// [`write_atomic`] without syncing to disk, for a file replaced again and
/// again (the grid's `-out` file after every point): a failed write still
/// leaves the previous file whole; the caller syncs the last version with
/// [`write_atomic`].
pub fn replace_unsynced(path: &Path, bytes: &[u8]) -> Result<(), DataError> {
    replace(path, bytes, false, |file, bytes| {
        // The test hook applies here too (it syncs only when it does not fail).
        if std::env::var_os("CVBENCH_TEST_FAIL_WRITES_AFTER").is_some() {
            write_synced(file, bytes)
        } else {
            file.write_all(bytes)
        }
    })
}

/// [`write_atomic`] with the step that writes and syncs the temporary file
/// given (tests inject a writer that fails midway, or one that writes to
/// `/dev/full`). The folder of `path` must exist.
pub fn write_atomic_via(
    path: &Path,
    bytes: &[u8],
    write: impl FnOnce(&mut File, &[u8]) -> std::io::Result<()>,
) -> Result<(), DataError> {
    replace(path, bytes, true, write)
}

/// Write `bytes` to a temporary file through `write`, rename it over
/// `path` (or remove it on an error), and sync the folder when `sync`.
fn replace(
    path: &Path,
    bytes: &[u8],
    sync: bool,
    write: impl FnOnce(&mut File, &[u8]) -> std::io::Result<()>,
) -> Result<(), DataError> {
    let target = resolve(path);
    let failed = |source: std::io::Error| DataError::Output {
        path: path.to_path_buf(),
        source,
    };
    if is_stream(&target) {
        return write_stream(&target, bytes).map_err(failed);
    }
    let tmp = temp_path(&target);
    // An interruption waits for this write and removes the temporary file
    // should it still exist, so that none survives it.
    let _writing = crate::interrupt::write_guard();
    let _registered = crate::interrupt::register(&tmp);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(failed)?;
    let done = (|| {
        // A replaced file keeps its permissions.
        if let Ok(m) = std::fs::metadata(&target) {
            if m.is_file() {
                file.set_permissions(m.permissions())?;
            }
        }
        write(&mut file, bytes)?;
        drop(file);
        std::fs::rename(&tmp, &target)
    })();
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(failed(e));
    }
    if sync {
        sync_folder(&target);
    }
    Ok(())
}

/// Whether `path` exists and is neither a regular file nor a folder (a
/// device, a FIFO): written in place, never replaced.
pub fn is_stream(path: &Path) -> bool {
    std::fs::metadata(resolve(path)).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Write `bytes` to the device or FIFO `path` in place.
pub fn write_stream(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    let limit = std::env::var("CVBENCH_TEST_FAIL_WRITES_AFTER")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    if limit.is_some_and(|n| n < bytes.len()) {
        return Err(std::io::Error::new(
            ErrorKind::StorageFull,
            "No space left on device (CVBENCH_TEST_FAIL_WRITES_AFTER)",
        ));
    }
    f.write_all(bytes)?;
    f.flush()
}

/// Sync the folder holding `path`, so that the rename survives a crash
/// (best effort: not every system can open a folder for syncing).
fn sync_folder(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.model");
        std::fs::write(&p, b"old model\n").unwrap();
        let half = |f: &mut File, b: &[u8]| -> std::io::Result<()> {
            f.write_all(&b[..b.len() / 2])?;
            Err(std::io::Error::new(ErrorKind::StorageFull, "disk full"))
        };
        let err = write_atomic_via(&p, b"new model, long enough\n", half).unwrap_err();
        assert!(err.to_string().contains("m.model"), "{err}");
        assert_eq!(std::fs::read(&p).unwrap(), b"old model\n");
        assert!(leftovers(dir.path()).is_empty());
        // A new file that fails is not there at all.
        let q = dir.path().join("new.model");
        assert!(write_atomic_via(&q, b"abcdef", half).is_err());
        assert!(!q.exists() && leftovers(dir.path()).is_empty());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_write_to_a_full_device_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.json");
        // The bytes go to /dev/full, as to a full disk; the flush fails.
        let full = |_: &mut File, b: &[u8]| -> std::io::Result<()> {
            let mut f = std::fs::OpenOptions::new().write(true).open("/dev/full")?;
            f.write_all(b)?;
            f.flush()?;
            f.sync_all()
        };
        let err = write_atomic_via(&p, &[b'x'; 100_000], full).unwrap_err();
        assert!(
            matches!(&err, DataError::Output { source, .. } if source.kind() == ErrorKind::StorageFull),
            "{err}"
        );
        assert!(!p.exists() && leftovers(dir.path()).is_empty());
    }

    #[test]
    fn writes_replace_whole_files_and_follow_symbolic_links() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.txt");
            std::os::unix::fs::symlink(&p, &link).unwrap();
            write_atomic(&link, b"three").unwrap();
            assert!(std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(std::fs::read(&p).unwrap(), b"three");
        }
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn hard_links_and_symbolic_links_are_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("hs");
        std::fs::write(&a, b"1 1:1\n").unwrap();
        let hard = dir.path().join("hs_hard");
        std::fs::hard_link(&a, &hard).unwrap();
        assert!(same_file(&a, &hard));
        assert!(same_file(&a, &dir.path().join(".").join("hs")));
        let other = dir.path().join("other");
        std::fs::write(&other, b"1 1:1\n").unwrap();
        assert!(!same_file(&a, &other));
        assert!(!same_file(&a, &dir.path().join("missing")));
    }
}
