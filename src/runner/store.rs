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
    dir.join("cells")
        .join(format!("{:016x}.json", crate::seed::derive(0, key)))
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
                crate::seed::derive(1, &text),
                crate::seed::derive(2, &text)
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
/// created with `create_new`, holding host and pid). Released on drop. A
/// lock left by a dead process on this host is taken over.
pub struct AssemblyLock(PathBuf);

impl AssemblyLock {
    /// Wait for and take the lock of run folder `dir`.
    pub fn acquire(dir: &Path) -> Result<AssemblyLock, ResultsError> {
        let path = dir.join(".assemble.lock");
        let host = crate::results::atomic::host();
        let me = format!("{host} {}", std::process::id());
        let start = Instant::now();
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    use std::io::Write;
                    let _ = f.write_all(me.as_bytes());
                    return Ok(AssemblyLock(path));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&path).unwrap_or_default();
                    let mut it = holder.split_whitespace();
                    let stale = match (it.next(), it.next().and_then(|p| p.parse::<u32>().ok())) {
                        (Some(h), Some(pid)) if h == host => {
                            !crate::results::atomic::pid_alive(pid)
                        }
                        // Another host's lock: trust it for ten minutes.
                        _ => start.elapsed() > Duration::from_secs(600),
                    };
                    if stale {
                        let _ = std::fs::remove_file(&path);
                    } else {
                        std::thread::sleep(Duration::from_millis(100));
                    }
                }
                Err(source) => return Err(ResultsError::Io { path, source }),
            }
        }
    }
}

impl Drop for AssemblyLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
