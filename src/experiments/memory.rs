//! Peak resident memory of a cell (issue 58): the process's high-water
//! mark of resident memory (`VmHWM`) while the cell ran.
//!
//! Linux resets the mark when `5` is written to `/proc/self/clear_refs`;
//! [`PeakWatch::start`] does so before the cell, and [`PeakWatch::peak_mb`]
//! reads `VmHWM` from `/proc/self/status` after it. The figure is the
//! whole process's: the run's loaded datasets are in it, so it bounds the
//! cell's own memory from above. Where the mark cannot be reset (another
//! system, a kernel that refuses the write) there is no figure at all,
//! never the process's lifetime peak passed off as the cell's.

use std::path::Path;

/// Where the kernel resets the high-water mark.
const CLEAR_REFS: &str = "/proc/self/clear_refs";
/// Where it reports it.
const STATUS: &str = "/proc/self/status";

/// A cell's memory watch: the high-water mark reset at its start.
#[derive(Clone, Copy, Debug)]
pub struct PeakWatch {
    reset: bool,
}

impl PeakWatch {
    /// Reset the process's high-water mark of resident memory.
    pub fn start() -> PeakWatch {
        PeakWatch {
            reset: std::fs::write(CLEAR_REFS, "5").is_ok(),
        }
    }

    /// The peak resident memory since [`PeakWatch::start`], in MB (2^20
    /// bytes); `None` where the mark could not be reset or read.
    pub fn peak_mb(&self) -> Option<f64> {
        if !self.reset {
            return None;
        }
        status_kb(Path::new(STATUS), "VmHWM:").map(|kb| kb / 1024.0)
    }
}

/// The value in kB of the `field` line of a `/proc/<pid>/status` file.
fn status_kb(path: &Path, field: &str) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    parse_status_kb(&text, field)
}

/// The value in kB of the `field` line (`VmHWM:   123456 kB`) of a status text.
fn parse_status_kb(text: &str, field: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let mut parts = line[field.len()..].split_whitespace();
    let v: f64 = parts.next()?.parse().ok()?;
    (parts.next() == Some("kB")).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_high_water_mark_line() {
        let text = "Name:\tcvbench\nVmPeak:\t  999 kB\nVmHWM:\t  204800 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_status_kb(text, "VmHWM:"), Some(204800.0));
        assert_eq!(parse_status_kb(text, "VmSwap:"), None);
        assert_eq!(parse_status_kb("VmHWM:\t12 MB\n", "VmHWM:"), None);
    }

    /// A watch sees memory touched after its start: 64 MB written raise
    /// the peak by about that much (where Linux lets the mark be reset).
    #[test]
    fn a_watch_sees_memory_touched_after_it() {
        let w = PeakWatch::start();
        let Some(before) = w.peak_mb() else {
            return; // not Linux, or the reset is refused: no figure
        };
        let v = vec![1u8; 64 << 20];
        std::hint::black_box(&v);
        let after = w.peak_mb().unwrap();
        assert!(after >= before + 60.0, "{before} -> {after}");
        drop(v);
        // A new watch starts from the current resident set, below the peak.
        let again = PeakWatch::start().peak_mb().unwrap();
        assert!(again < after, "{again} vs {after}");
    }
}
