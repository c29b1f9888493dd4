//! Temporary-file names for atomic writes that stay safe when several
//! processes (on one machine or several, over a shared file system) write the
//! same results folder: every writer gets its own temporary name, stamped with
//! its host and process id, so one writer's rename never takes another's file.
//! A temporary file left behind by a killed process is recognised as stale
//! (its process no longer runs on this host) and removed by [`clean_stale`].

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// This machine's host name, with `.` replaced (it is a field separator in
/// temporary names), or `unknown`.
pub fn host() -> String {
    let h = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    if h.is_empty() {
        "unknown".into()
    } else {
        h
    }
}

fn host_field() -> String {
    host().replace(['.', '/'], "_")
}

/// A temporary name next to `path`, unique per host, process and call:
/// `<file>.<host>.<pid>.<n>.tmp`.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(
        "{name}.{}.{}.{n}.tmp",
        host_field(),
        std::process::id()
    ))
}

/// Whether process `pid` runs on this machine (see [`crate::interrupt::pid_alive`]).
pub fn pid_alive(pid: u32) -> bool {
    crate::interrupt::pid_alive(pid)
}

/// Whether a temporary file name (as made by [`temp_path`]) belongs to a
/// process that is gone: same host and a dead pid, or another host's file
/// untouched for more than a day.
fn is_stale(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let parts: Vec<&str> = name.rsplitn(5, '.').collect();
    let [tmp, n, pid, host, _file] = parts[..] else {
        return false;
    };
    if tmp != "tmp" || n.parse::<u64>().is_err() {
        return false;
    }
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if host == host_field() {
        return pid != std::process::id() && !pid_alive(pid);
    }
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > 24 * 3600)
}

/// Remove stale temporary files under `dir` (recursively); returns how many.
/// Files of writers still running are left alone.
pub fn clean_stale(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => removed += clean_stale(&p),
            Ok(_) if is_stale(&p) && std::fs::remove_file(&p).is_ok() => removed += 1,
            _ => {}
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_are_unique_and_only_dead_writers_are_stale() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("cells").join("a.json");
        let t1 = temp_path(&target);
        let t2 = temp_path(&target);
        assert_ne!(t1, t2);
        assert_eq!(t1.parent(), target.parent());
        assert!(t1.to_string_lossy().ends_with(".tmp"));
        std::fs::create_dir_all(t1.parent().unwrap()).unwrap();
        // Ours (alive) stays; a dead pid on this host goes; foreign names stay.
        std::fs::write(&t1, b"x").unwrap();
        let dead = target.with_file_name(format!("a.json.{}.{}.0.tmp", host_field(), u32::MAX));
        std::fs::write(&dead, b"x").unwrap();
        let other = target.with_file_name("notes.tmp");
        std::fs::write(&other, b"x").unwrap();
        assert_eq!(clean_stale(dir.path()), 1);
        assert!(t1.exists() && other.exists() && !dead.exists());
    }
}
