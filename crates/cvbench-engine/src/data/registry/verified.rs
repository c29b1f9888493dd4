//! Registry files are checked against the registry's sha256 when a dataset
//! is loaded, not only by `cvbench fetch`: a file saved under a registry
//! name with other content (100 rows of heart_scale saved as `heart_scale`)
//! is refused, never run and recorded as that dataset.
//!
//! Hashing a large file (mnist) on every run would cost seconds, so a file
//! that matched its pin is remembered by its canonical path, size and
//! modification time (on Unix also its inode and change time, which no
//! copy can preserve): in this process, and in a small cache file,
//! [`CACHE_FILE`], in the user's cache folder (`$XDG_CACHE_HOME/cvbench/`,
//! else `$HOME/.cache/cvbench/`), else in the data directory. A cache that
//! cannot be read or written only means hashing again; a changed file is
//! hashed again.

use crate::data::limits::{read_text_limited, VERIFIED_CACHE_FILE};
use crate::data::read::compress;
use crate::data::DataError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The cache file's name (in the user's cache folder or the data directory).
pub const CACHE_FILE: &str = "cvbench-verified-sha256.json";

/// The most files the cache remembers; beyond it, entries of files that no
/// longer exist are dropped, then all.
const MAX_ENTRIES: usize = 10_000;

/// What identifies one version of a file without reading it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    size: u64,
    mtime_s: i64,
    mtime_ns: i64,
    ino: u64,
    ctime_s: i64,
    ctime_ns: i64,
}

impl Stamp {
    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            size: m.size(),
            mtime_s: m.mtime(),
            mtime_ns: m.mtime_nsec(),
            ino: m.ino(),
            ctime_s: m.ctime(),
            ctime_ns: m.ctime_nsec(),
        }
    }

    #[cfg(not(unix))]
    fn of(m: &std::fs::Metadata) -> Stamp {
        let t = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        Stamp {
            size: m.len(),
            mtime_s: t.as_secs() as i64,
            mtime_ns: i64::from(t.subsec_nanos()),
            ino: 0,
            ctime_s: 0,
            ctime_ns: 0,
        }
    }
}

/// A file version that matched `pin`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Verified {
    stamp: Stamp,
    pin: String,
}

type Entries = BTreeMap<String, Verified>;

/// The files verified in this process (also serialises hashing, so that a
/// file is hashed at most once per process).
fn memo() -> &'static Mutex<Entries> {
    static MEMO: OnceLock<Mutex<Entries>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(Entries::new()))
}

/// Where the cache file may be, in order of preference: the user's cache
/// folder (an absolute `$XDG_CACHE_HOME`, else `$HOME/.cache`), then the
/// data directory.
fn cache_files(data_dir: &Path) -> Vec<PathBuf> {
    let abs = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let user = abs(std::env::var_os("XDG_CACHE_HOME"))
        .or_else(|| abs(std::env::var_os("HOME")).map(|h| h.join(".cache")));
    user.map(|u| u.join("cvbench").join(CACHE_FILE))
        .into_iter()
        .chain([data_dir.join(CACHE_FILE)])
        .collect()
}

fn read_cache(file: &Path) -> Entries {
    read_text_limited(file, &VERIFIED_CACHE_FILE)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Add `key` to the first cache file that can be written (atomically: a
/// temporary file renamed into place). Failures are ignored.
fn remember(files: &[PathBuf], key: &str, v: &Verified) {
    for file in files {
        let Some(dir) = file.parent() else { continue };
        if std::fs::create_dir_all(dir).is_err() {
            continue;
        }
        let mut entries = read_cache(file);
        if entries.len() >= MAX_ENTRIES {
            entries.retain(|k, _| Path::new(k).exists());
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(key.to_string(), v.clone());
        let Ok(json) = serde_json::to_vec(&entries) else {
            return;
        };
        let tmp = dir.join(format!(".{CACHE_FILE}.{}.tmp", std::process::id()));
        if std::fs::write(&tmp, json).is_ok() && std::fs::rename(&tmp, file).is_ok() {
            return;
        }
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The cache key of `path` (its canonical path) and its current version,
/// verified against `pin`.
fn version(path: &Path, pin: &str) -> Result<(String, Verified), DataError> {
    let canonical = std::fs::canonicalize(path).map_err(|e| DataError::io(path, e))?;
    let meta = std::fs::metadata(&canonical).map_err(|e| DataError::io(path, e))?;
    let v = Verified {
        stamp: Stamp::of(&meta),
        pin: pin.to_string(),
    };
    Ok((canonical.to_string_lossy().into_owned(), v))
}

/// Remember that file `path` (in data directory `data_dir`) matched `pin`
/// (hashed elsewhere: `cvbench fetch`, `DatasetEntry::verify`), so that
/// loading it does not hash it again. Best effort: failures are ignored.
pub fn record(path: &Path, pin: &str, data_dir: &Path) {
    let Ok((key, v)) = version(path, pin) else {
        return;
    };
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    if memo.get(&key) != Some(&v) {
        remember(&cache_files(data_dir), &key, &v);
        memo.insert(key, v);
    }
}

/// Check file `path` of registry dataset `dataset` against `pin`, the
/// sha256 of its decompressed content (`raw`: of its bytes as stored),
/// unless this version of the file was verified before (see the module
/// docs). A mismatch is a [`DataError::WrongContent`] naming the file, both
/// hashes and the fix.
pub fn check(
    dataset: &str,
    path: &Path,
    pin: &str,
    raw: bool,
    data_dir: &Path,
) -> Result<(), DataError> {
    let (key, want) = version(path, pin)?;
    // Held while hashing: one hash per file and process.
    let mut memo = memo().lock().unwrap_or_else(|e| e.into_inner());
    if memo.get(&key) == Some(&want) {
        return Ok(());
    }
    let files = cache_files(data_dir);
    if files.iter().any(|f| read_cache(f).get(&key) == Some(&want)) {
        memo.insert(key, want);
        return Ok(());
    }
    let actual = if raw {
        let f = std::fs::File::open(path).map_err(|e| DataError::io(path, e))?;
        compress::sha256_reader(f).map_err(|e| DataError::io(path, e))?
    } else {
        compress::sha256_decompressed(path)?
    };
    if actual != pin {
        return Err(DataError::WrongContent {
            dataset: dataset.to_string(),
            path: path.to_path_buf(),
            expected: pin.to_string(),
            actual,
        });
    }
    remember(&files, &key, &want);
    memo.insert(key, want);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_file_is_remembered_until_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d");
        std::fs::write(&p, b"1 1:1\n").unwrap();
        let pin = compress::sha256_reader(&b"1 1:1\n"[..]).unwrap();
        check("d", &p, &pin, false, dir.path()).unwrap();
        // Wrong pin: refused with both hashes and the fix.
        let e = check("d", &p, &"0".repeat(64), false, dir.path())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&pin) && e.contains(&"0".repeat(64)) && e.contains("cvbench fetch d"),
            "{e}"
        );
        // Changed content: hashed again, refused.
        std::fs::write(&p, b"-1 1:1\n").unwrap();
        assert!(check("d", &p, &pin, false, dir.path()).is_err());
        // A recorded match is trusted while the file is unchanged (proof
        // that it is not hashed again).
        let fake = "f".repeat(64);
        record(&p, &fake, dir.path());
        check("d", &p, &fake, false, dir.path()).unwrap();
    }

    #[test]
    fn the_cache_file_keeps_entries_across_processes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d");
        std::fs::write(&p, b"1 1:1\n").unwrap();
        let (key, v) = version(&p, "abc").unwrap();
        let files = [dir.path().join("sub/cache.json")];
        remember(&files, &key, &v);
        assert_eq!(read_cache(&files[0]).get(&key), Some(&v));
        // A damaged cache is empty, and is rewritten.
        std::fs::write(&files[0], b"{not json").unwrap();
        assert!(read_cache(&files[0]).is_empty());
        remember(&files, &key, &v);
        assert_eq!(read_cache(&files[0]).len(), 1);
        // An unwritable place is skipped for the next one.
        let blocked = dir.path().join("file");
        std::fs::write(&blocked, b"").unwrap();
        let files = [blocked.join("cache.json"), dir.path().join("second.json")];
        remember(&files, &key, &v);
        assert_eq!(read_cache(&files[1]).get(&key), Some(&v));
    }
}
