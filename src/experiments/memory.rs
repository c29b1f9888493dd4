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
//!
//! The binary keeps freed heap memory resident within a cell
//! (`cli::memory::keep_freed_memory`: the solvers free and allocate kernel
//! columns by the thousand). Across cells that memory would pile up: what
//! an earlier, larger cell freed stayed resident, in the next cell's mark
//! and in the process's footprint, above the run's memory budget (a9a's
//! 24k one training under a 2,000 MB budget marked 4,392 MB after the CV
//! cells, 1,940 MB alone). So [`PeakWatch::start`] first hands the freed
//! memory back to the system (glibc's `malloc_trim`), outside the cell's
//! timing: each cell starts from the memory the run holds live.

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
    /// Hand the memory freed by earlier cells back to the system, then
    /// reset the process's high-water mark of resident memory.
    pub fn start() -> PeakWatch {
        release_freed_memory();
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

/// Return the heap memory freed so far to the operating system (every
/// arena, whole free pages inside the heaps too). A no-op where the C
/// library is not glibc.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own
    // heaps to the system; it touches no live allocation.
    unsafe {
        libc::malloc_trim(0);
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

    /// The process's resident memory now (`VmRSS`), in MB; `None` where it
    /// cannot be read.
    fn resident_mb() -> Option<f64> {
        status_kb(Path::new(STATUS), "VmRSS:").map(|kb| kb / 1024.0)
    }

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

    /// Memory freed in small blocks, which the binary's allocator settings
    /// keep resident, goes back to the system at the next watch's start:
    /// 384 MB in 64 KB blocks written, 360 MB of them freed between live
    /// ones, leave the resident set at least 256 MB lower after
    /// [`release_freed_memory`].
    #[test]
    fn freed_small_blocks_go_back_to_the_system_before_a_cell() {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: as in the binary's `keep_freed_memory`: allocator
        // parameters only (keep the heap's free top resident).
        unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        }
        let mut blocks: Vec<Vec<u8>> = (0..6144).map(|i| vec![i as u8 | 1; 64 << 10]).collect();
        std::hint::black_box(&blocks);
        // One block in 16 stays live, as a cache's columns outlive others:
        // no heap is wholly free, so none goes back by itself.
        let mut i = 0;
        blocks.retain(|_| {
            i += 1;
            i % 16 == 0
        });
        std::hint::black_box(&blocks);
        let Some(kept) = resident_mb() else {
            return; // no /proc: nothing to check
        };
        release_freed_memory();
        let after = resident_mb().unwrap();
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(after + 256.0 <= kept, "resident {kept} MB -> {after} MB");
        }
        drop(blocks);
    }
}
