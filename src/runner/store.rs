//! Per-cell files under `<run>/cells/`: what a cell produced, under an
//! identity that covers everything its numbers depend on, and who made it
//! (shard, host, time). Also the lock that makes the final assembly of a run
//! folder happen once at a time when several processes share it.

use crate::experiments::Plan;
use crate::results::table::write_atomic;
use crate::results::{Record, ResultsError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Who made a cell, when, and how long it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Origin {
    /// The shard that ran it (`I/N`, with the SLURM job when under SLURM);
    /// `None` for an unsharded run.
    #[serde(default)]
    pub shard: Option<String>,
    /// Host name.
    #[serde(default)]
    pub host: String,
    /// Finish time, seconds since the Unix epoch.
    #[serde(default)]
    pub finished_unix: u64,
    /// Wall-clock seconds the cell took.
    #[serde(default)]
    pub seconds: f64,
}

/// One finished cell, as stored in `cells/<hash>.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredCell {
    /// The cell key.
    pub key: String,
    /// The cell seed.
    pub seed: u64,
    /// The cell's identity (see [`identities`]); a cell is reused only if it matches.
    #[serde(default)]
    pub identity: String,
    /// Who made it.
    #[serde(default)]
    pub origin: Option<Origin>,
    /// The cell's record rows.
    pub records: Vec<Record>,
}

/// The file of the cell with key `key`.
pub fn cell_path(dir: &Path, key: &str) -> PathBuf {
    dir.join("cells").join(format!(
        "{:016x}.json",
        cvbench_engine::api::seed::derive(0, key)
    ))
}

/// A config's content without presentational keys (`name`, `description`,
/// `note`), canonically serialized; the raw text if it does not parse.
fn config_content(text: &str) -> String {
    match toml::from_str::<toml::Table>(text) {
        Ok(mut t) => {
            for k in ["name", "description", "note"] {
                t.remove(k);
            }
            serde_json::to_string(&t).unwrap_or_else(|_| text.to_string())
        }
        Err(_) => text.to_string(),
    }
}

/// Every cell's identity: a hash of the code-revision policy (the crate
/// version: cells are reused across builds of one version, and recomputed
/// when the version changes or with `--fresh`), the kind, the cell's key and
/// seed, the cell's spec (or the whole config content when the kind gives
/// none) and the content fingerprints of the datasets the plan loaded.
pub fn identities(
    kind: &str,
    config_text: &str,
    plan: &dyn Plan,
    data: &[(String, u64)],
) -> Vec<String> {
    let whole = config_content(config_text);
    let data: String = data
        .iter()
        .map(|(spec, fp)| format!("{spec}={fp:016x};"))
        .collect();
    plan.cells()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let spec = plan.cell_spec(i).unwrap_or_else(|| whole.clone());
            let text = format!(
                "cvbench {}|{kind}|{}|{}|{spec}|{data}",
                env!("CARGO_PKG_VERSION"),
                c.key,
                c.seed
            );
            format!(
                "{:016x}{:016x}",
                cvbench_engine::api::seed::derive(1, &text),
                cvbench_engine::api::seed::derive(2, &text)
            )
        })
        .collect()
}

/// Load a stored cell if it is there and matches key, seed and identity.
pub fn load(dir: &Path, key: &str, seed: u64, identity: &str) -> Option<StoredCell> {
    let text = std::fs::read_to_string(cell_path(dir, key)).ok()?;
    let c: StoredCell = serde_json::from_str(&text).ok()?;
    (c.key == key && c.seed == seed && c.identity == identity).then_some(c)
}

/// Store a finished cell atomically.
pub fn save(dir: &Path, cell: &StoredCell) -> Result<(), ResultsError> {
    let json = serde_json::to_vec(cell)
        .map_err(|e| ResultsError::Malformed(format!("cell {}: {e}", cell.key)))?;
    write_atomic(&cell_path(dir, &cell.key), &json)
}

/// An exclusive lock on a run folder's assembly (`<run>/.assemble.lock`,
/// created with `create_new`, holding host, pid and the process's start
/// time). Released on drop and on SIGINT/SIGTERM (it is registered with
/// [`crate::interrupt`]).
///
/// A lock is taken over when its holder is gone: on this host, a dead pid,
/// a pid now running another process (its start time differs: pid reuse), or
/// our own pid (left by an earlier process that had it); an empty or
/// unreadable lock older than [`EMPTY_LOCK_GRACE`]. Otherwise the waiter
/// says once what it waits for, and gives up after the timeout
/// (`CVBENCH_LOCK_TIMEOUT_S`, default [`LOCK_TIMEOUT`]) with an error naming
/// the lock file and how to remove it.
pub struct AssemblyLock {
    path: PathBuf,
    _registered: crate::interrupt::Registered,
}

/// How long a waiter waits for a lock held by a live process.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(600);

/// How old an empty or unreadable lock file must be to count as abandoned
/// (its creator writes the holder right after creating it).
pub const EMPTY_LOCK_GRACE: Duration = Duration::from_secs(10);

/// The start time of process `pid` (clock ticks since boot, field 22 of
/// `/proc/<pid>/stat`), when known.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Who holds a lock, as written in the lock file: `host pid [start]`.
#[derive(Debug, PartialEq)]
struct Holder {
    host: String,
    pid: u32,
    start: Option<u64>,
}

impl Holder {
    fn me() -> Holder {
        let pid = std::process::id();
        Holder {
            host: crate::results::atomic::host(),
            pid,
            start: start_time(pid),
        }
    }

    fn parse(text: &str) -> Option<Holder> {
        let mut it = text.split_whitespace();
        let host = it.next()?.to_string();
        let pid = it.next()?.parse().ok()?;
        let start = it.next().and_then(|s| s.parse().ok());
        Some(Holder { host, pid, start })
    }

    fn text(&self) -> String {
        match self.start {
            Some(s) => format!("{} {} {s}", self.host, self.pid),
            None => format!("{} {}", self.host, self.pid),
        }
    }

    /// Why this holder (on our host) is gone, if it is.
    fn gone_here(&self) -> Option<&'static str> {
        if self.pid == std::process::id() {
            return Some("it names this process's own pid (left by an earlier process)");
        }
        if !crate::interrupt::pid_alive(self.pid) {
            return Some("its process is no longer running");
        }
        match (self.start, start_time(self.pid)) {
            (Some(a), Some(b)) if a != b => {
                Some("its pid now belongs to another process (pid reuse)")
            }
            _ => None,
        }
    }
}

/// Whether the lock file at `path` is abandoned, and why.
fn abandoned(path: &Path, here: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    match Holder::parse(&text) {
        Some(h) if h.host == here => h.gone_here().map(|why| format!("{why}: `{}`", text.trim())),
        Some(_) => None,
        None => {
            let age = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok());
            age.filter(|a| *a > EMPTY_LOCK_GRACE)
                .map(|a| format!("it is empty or unreadable and {} s old", a.as_secs()))
        }
    }
}

fn lock_timeout() -> Duration {
    // A bad value is refused before the run starts (`config::env::check`).
    crate::config::env::lock_timeout()
        .ok()
        .flatten()
        .unwrap_or(LOCK_TIMEOUT)
}

impl AssemblyLock {
    /// Wait for and take the lock of run folder `dir`.
    pub fn acquire(dir: &Path) -> Result<AssemblyLock, ResultsError> {
        let path = dir.join(".assemble.lock");
        let me = Holder::me();
        let timeout = lock_timeout();
        let start = Instant::now();
        let mut said = false;
        loop {
            let created = {
                // Create and register under the write lock: an interruption
                // either comes before the lock exists or removes it.
                let _writes = crate::interrupt::write_guard();
                std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                    .map(|f| (f, crate::interrupt::register(&path)))
            };
            match created {
                Ok((mut f, registered)) => {
                    use std::io::Write;
                    let _ = f.write_all(me.text().as_bytes());
                    return Ok(AssemblyLock {
                        path,
                        _registered: registered,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if let Some(why) = abandoned(&path, &me.host) {
                        eprintln!("{}: taking over the assembly lock: {why}", path.display());
                        let _ = std::fs::remove_file(&path);
                        continue;
                    }
                    let holder = std::fs::read_to_string(&path).unwrap_or_default();
                    let holder = match Holder::parse(&holder) {
                        Some(h) => format!("host {} pid {}", h.host, h.pid),
                        None => "a process that has not written its name yet".to_string(),
                    };
                    if start.elapsed() >= timeout {
                        return Err(ResultsError::Io {
                            path: path.clone(),
                            source: std::io::Error::new(
                                std::io::ErrorKind::TimedOut,
                                format!(
                                    "gave up after {} s waiting for the assembly lock held by {holder}\n  fix: if no cvbench process of that host is assembling this run, delete {} and run the command again",
                                    timeout.as_secs(),
                                    path.display()
                                ),
                            ),
                        });
                    }
                    if !said {
                        eprintln!(
                            "{}: waiting for {holder} to finish assembling this run (giving up after {} s)",
                            path.display(),
                            timeout.as_secs()
                        );
                        said = true;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(source) => return Err(ResultsError::Io { path, source }),
            }
        }
    }
}

impl Drop for AssemblyLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holders_are_recognised() {
        let me = Holder::me();
        assert_eq!(Holder::parse(&me.text()), Some(Holder { ..Holder::me() }));
        assert!(me.gone_here().is_some(), "our own pid in a lock is stale");
        let dead = Holder {
            pid: u32::MAX - 1,
            ..Holder::me()
        };
        assert!(dead.gone_here().unwrap().contains("no longer running"));
        if std::os::unix::process::parent_id() > 1 && start_time(1).is_some() {
            let reused = Holder {
                pid: std::os::unix::process::parent_id(),
                start: Some(u64::MAX),
                ..Holder::me()
            };
            assert!(reused.gone_here().unwrap().contains("pid reuse"));
        }
        assert_eq!(Holder::parse(""), None);
    }

    #[test]
    fn an_empty_lock_is_taken_over_after_the_grace_and_a_live_one_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".assemble.lock");
        std::fs::write(&path, "").unwrap();
        assert!(
            abandoned(&path, "h").is_none(),
            "fresh empty lock: its creator is writing"
        );
        let old = std::time::SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(abandoned(&path, "h").unwrap().contains("empty"));
        // Another host's live-looking lock: not abandoned.
        std::fs::write(&path, "elsewhere 1 5").unwrap();
        assert!(abandoned(&path, "h").is_none());
    }
}
