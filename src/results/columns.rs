//! What a record column's name says about its values: the one registry of
//! the columns that may differ between two runs of the same config.
//!
//! Every column of a run's records is the same on any thread count, shard
//! split and repeated run, except
//! - **timing** columns ([`is_timing`]): `seconds` (the core column) and
//!   every name ending in `_s` (seconds of some part of the work);
//! - **scheduling** columns ([`is_scheduled`]): names ending in
//!   [`SCHED_SUFFIX`], counters that depend on how parallel work
//!   interleaves (e.g. kernel values a shared cache computed twice);
//! - **memory** columns ([`is_memory`]): names ending in [`RSS_SUFFIX`],
//!   the resident memory a process was measured to reach (issue 58's
//!   `peak_rss_mb`), which depends on the allocator, the threads and the
//!   machine.
//!
//! `timing_repeats` (how many times a cell was timed) is the same too,
//! unless its config says why cells may be timed fewer times
//! (`timed_fewer_because`: a cell whose first run takes two minutes or more
//! is then timed once) or sets `min_timed_seconds` (a short cell timed until
//! its runs total that long): then the timings decide it.
//!
//! A kind that adds a column of either sort names it so; the tests that
//! compare runs ([`is_reproducible`]) and `make slurm-check` read this file's
//! rules, nothing else.

/// The suffix of a counter that depends on scheduling.
pub const SCHED_SUFFIX: &str = "_sched";

/// The suffix of a measured memory column (MB of resident memory).
pub const RSS_SUFFIX: &str = "_rss_mb";

/// The suffix of a timing column (seconds).
pub const SECONDS_SUFFIX: &str = "_s";

/// The core timing column ([`super::rows::Core::seconds`]).
pub const SECONDS: &str = "seconds";

/// Whether column `name` holds a time (seconds).
pub fn is_timing(name: &str) -> bool {
    name == SECONDS || name.ends_with(SECONDS_SUFFIX)
}

/// Whether column `name` is a counter that depends on scheduling.
pub fn is_scheduled(name: &str) -> bool {
    name.ends_with(SCHED_SUFFIX)
}

/// Whether column `name` holds measured resident memory.
pub fn is_memory(name: &str) -> bool {
    name.ends_with(RSS_SUFFIX)
}

/// Whether column `name` must be the same on any thread count, shard split
/// and repeated run: neither timing, nor scheduling, nor measured memory.
pub fn is_reproducible(name: &str) -> bool {
    !is_timing(name) && !is_scheduled(name) && !is_memory(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_and_scheduling_columns_are_named_so() {
        for t in ["seconds", "train_s", "wall_median_s", "cell_wall_s"] {
            assert!(is_timing(t) && !is_reproducible(t), "{t}");
        }
        assert!(is_scheduled("shared_extra_kernel_evals_sched"));
        assert!(!is_reproducible("shared_extra_kernel_evals_sched"));
        assert!(is_memory("peak_rss_mb") && !is_reproducible("peak_rss_mb"));
        // A budget is a setting, not a measurement.
        assert!(is_reproducible("cache_mb"));
        for r in [
            "kernel_evals",
            "shared_kernel_evals",
            "shared_hits",
            "seconds_per_row_count",
            "timing_repeats",
        ] {
            assert!(is_reproducible(r), "{r}");
        }
    }
}
