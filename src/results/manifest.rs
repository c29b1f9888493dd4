//! `manifest.json`: what ran (config text, seeds), where (git revision,
//! machine), with what (versions) and when (times). Written with every run.

use crate::config::ConfigFile;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::Command;

/// The manifest of a run folder.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// Experiment kind.
    pub kind: String,
    /// Run name (folder name).
    pub name: String,
    /// Path of the config file as given.
    pub config_path: String,
    /// The config text, verbatim.
    pub config: String,
    /// Base seed.
    pub seed: u64,
    /// Every cell's key and seed.
    pub cells: Vec<(String, u64)>,
    /// Worker threads used for cells (0 = all cores).
    pub threads: usize,
    /// cvbench's own git revision, built in at compile time (`-dirty` when
    /// it was built from a tree with uncommitted changes outside `results/`).
    pub git_revision: String,
    /// The git revision of the folder the run was started in, when that is a
    /// git checkout (the user's project, or cvbench's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workdir_git_revision: Option<String>,
    /// Machine description.
    pub machine: Machine,
    /// Versions.
    pub versions: Versions,
    /// Start time, seconds since the Unix epoch.
    pub started_unix: u64,
    /// Wall-clock seconds of the run (including resumed cells' loading).
    pub seconds: f64,
    /// Seconds the cells took to compute, summed over cells, also those a
    /// resumed run loaded (absent in manifests of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_seconds: Option<f64>,
    /// Files written, relative to the run folder.
    pub files: Vec<String>,
    /// Which shard, host and time made each cell: only in manifests of older
    /// versions; now in the untracked [`CELL_RUNS_FILE`] beside the cells,
    /// since it changes on every re-run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cell_runs: Vec<CellRun>,
}

/// Where a run folder keeps [`CellRun`]s (in its untracked `cells/` folder).
pub const CELL_RUNS_FILE: &str = "cells/runs.json";

/// cvbench's git revision, built in at compile time by `build.rs`.
pub const BUILD_REVISION: &str = env!("CVBENCH_GIT_REVISION");

/// Write the per-cell bookkeeping of a run folder to [`CELL_RUNS_FILE`].
pub fn write_cell_runs(dir: &Path, runs: &[CellRun]) -> Result<(), super::ResultsError> {
    let bytes = serde_json::to_vec_pretty(runs).unwrap_or_default();
    super::table::write_atomic(&dir.join(CELL_RUNS_FILE), &bytes)
}

/// Read [`CELL_RUNS_FILE`] of a run folder (empty when absent).
pub fn read_cell_runs(dir: &Path) -> Vec<CellRun> {
    std::fs::read_to_string(dir.join(CELL_RUNS_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Where and when one cell was computed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CellRun {
    /// The cell key.
    pub key: String,
    /// The shard (`I/N`, with the SLURM job when under SLURM); `None` unsharded.
    pub shard: Option<String>,
    /// Host name.
    pub host: String,
    /// Finish time, seconds since the Unix epoch.
    pub finished_unix: u64,
    /// Wall-clock seconds the cell took.
    pub seconds: f64,
}

/// The machine a run ran on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    /// Host name.
    pub hostname: String,
    /// OS and architecture.
    pub os: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// CPU model (from /proc/cpuinfo where available).
    pub cpu_model: String,
    /// The CPU beyond its model name, where /proc/cpuinfo gives it: vendor,
    /// family, model and stepping numbers and the SIMD extensions the
    /// kernels and matrix products may use ([`cpu_id`]). Two CPUs of one
    /// model name ("AMD EPYC") can be different generations, with and
    /// without AVX-512, and run the same code at different speeds. Absent
    /// in runs stored before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_id: Option<String>,
    /// Total memory in bytes, where known.
    pub memory_bytes: Option<u64>,
}

/// Versions of the software.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Versions {
    /// cvbench version.
    pub cvbench: String,
    /// Build profile (debug/release).
    pub profile: String,
    /// `rustc -V` at run time, where available.
    pub rustc: String,
}

fn cmd(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The git revision of the working directory when it is a git checkout.
pub fn workdir_revision() -> Option<String> {
    cmd("git", &["rev-parse", "HEAD"]).filter(|r| !r.is_empty())
}

/// The SIMD extensions [`Machine::cpu_id`] names where the CPU has them.
const SIMD: [&str; 8] = [
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
];

/// The first processor's [`Machine::cpu_id`] from the text of
/// /proc/cpuinfo (x86's fields; `None` where they are missing).
pub fn cpu_id(cpuinfo: &str) -> Option<String> {
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let (vendor, family, model) = (field("vendor_id")?, field("cpu family")?, field("model")?);
    let stepping = field("stepping").unwrap_or_else(|| "?".into());
    let flags = field("flags").unwrap_or_default();
    let have: Vec<&str> = SIMD
        .into_iter()
        .filter(|f| flags.split_whitespace().any(|x| x == *f))
        .collect();
    let simd = if have.is_empty() {
        "no SSE4.2 or AVX".to_string()
    } else {
        have.join(" ")
    };
    Some(format!(
        "{vendor} family {family} model {model} stepping {stepping}; {simd}"
    ))
}

impl Machine {
    /// The CPU in words: the model name, and [`Machine::cpu_id`] where
    /// recorded.
    pub fn cpu_text(&self) -> String {
        match &self.cpu_id {
            Some(id) => format!("{} ({id})", self.cpu_model),
            None => self.cpu_model.clone(),
        }
    }

    /// Describe this machine.
    pub fn this() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map_or_else(|| "unknown".to_string(), |s| s.trim().to_string());
        let memory_bytes = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
            })
            .map(|kb| kb * 1024);
        Machine {
            hostname: std::fs::read_to_string("/etc/hostname")
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| "unknown".into()),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu_id: cpu_id(&cpuinfo),
            cpu_model,
            memory_bytes,
        }
    }
}

impl Manifest {
    /// Assemble a manifest for a finished run.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kind: &str,
        name: &str,
        cfg: &ConfigFile,
        seed: u64,
        cells: Vec<(String, u64)>,
        threads: usize,
        started_unix: u64,
        seconds: f64,
        files: Vec<String>,
    ) -> Manifest {
        Manifest {
            kind: kind.to_string(),
            name: name.to_string(),
            config_path: cfg.path.display().to_string(),
            config: cfg.text.clone(),
            seed,
            cells,
            threads,
            git_revision: BUILD_REVISION.to_string(),
            workdir_git_revision: workdir_revision(),
            machine: Machine::this(),
            versions: Versions {
                cvbench: env!("CARGO_PKG_VERSION").to_string(),
                profile: if cfg!(debug_assertions) {
                    "debug"
                } else {
                    "release"
                }
                .to_string(),
                rustc: cmd("rustc", &["-V"]).unwrap_or_else(|| "unknown".into()),
            },
            started_unix,
            seconds,
            compute_seconds: None,
            files,
            cell_runs: Vec::new(),
        }
    }

    /// Pretty JSON bytes.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_named_by_its_numbers_and_simd_extensions() {
        let zen3 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse4_2 avx fma avx2 sha_ni\n\nprocessor\t: 1\n";
        assert_eq!(
            cpu_id(zen3).as_deref(),
            Some("AuthenticAMD family 25 model 1 stepping 1; sse4_2 avx avx2 fma")
        );
        let zen4 = zen3
            .replace("model\t\t: 1", "model\t\t: 17")
            .replace("sha_ni", "avx512f avx512bw avx512vl");
        let id = cpu_id(&zen4).expect("an id");
        assert!(
            id.contains("model 17") && id.ends_with("avx512f avx512bw avx512vl"),
            "{id}"
        );
        // No x86 fields (another architecture's /proc/cpuinfo, or none).
        assert_eq!(cpu_id("processor\t: 0\nBogoMIPS\t: 50.00\n"), None);
        assert_eq!(cpu_id(""), None);
        // Old manifests have no `cpu_id`; new ones round-trip it.
        let old: Machine = serde_json::from_str(
            r#"{"hostname":"h","os":"l","cpus":2,"cpu_model":"c","memory_bytes":null}"#,
        )
        .expect("an old machine record");
        assert_eq!(
            (old.cpu_id.as_deref(), old.cpu_text().as_str()),
            (None, "c")
        );
        let new = Machine {
            cpu_id: cpu_id(zen3),
            ..old
        };
        let back: Machine =
            serde_json::from_str(&serde_json::to_string(&new).expect("json")).expect("read");
        assert_eq!(back.cpu_id, new.cpu_id);
        assert!(back.cpu_text().starts_with("c (AuthenticAMD family 25"));
    }
}
