//! How much memory a run takes for its kernel cache when the user does not
//! say (`svm-train -m` not given).
//!
//! svm-train's default is 100 MB whatever the data. The cache changes no
//! number (the same solves, the same bits), only the time: a
//! cross-validation whose shared cache holds the whole kernel matrix
//! computes each value once for every fold and class pair. So the default
//! is the whole matrix where it fits in half the memory the system has
//! available, and never less than svm-train's 100 MB.

/// svm-train's default `-m`, the least the default gives.
pub const LIBSVM_CACHE_MB: f64 = 100.0;

/// The share of the available memory the default may take.
const SHARE_OF_AVAILABLE: f64 = 0.5;

/// The memory the system has available in MB (Linux's `MemAvailable`);
/// `None` where it cannot be read.
pub fn available_mb() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available_kb(&text).map(|kb| kb / 1024.0)
}

/// `MemAvailable` in kB from the text of `/proc/meminfo`.
fn parse_mem_available_kb(text: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The cache in MB that holds the whole single-precision kernel matrix of
/// `n` rows within the 3/4 a cross-validation gives its shared cache, plus
/// svm-train's default for the solves' own caches.
pub fn whole_matrix_mb(n: usize) -> f64 {
    let matrix = (n as f64) * (n as f64) * 4.0 / (1u64 << 20) as f64;
    matrix / 0.75 + LIBSVM_CACHE_MB
}

/// The default kernel cache in MB for `n` training rows with `available`
/// MB of memory: [`whole_matrix_mb`] within half of `available`, never
/// below [`LIBSVM_CACHE_MB`] (svm-train's default where `available` is
/// unknown).
pub fn default_cache_mb_with(n: usize, available: Option<f64>) -> f64 {
    match available {
        Some(mb) => whole_matrix_mb(n)
            .min(mb * SHARE_OF_AVAILABLE)
            .max(LIBSVM_CACHE_MB),
        None => LIBSVM_CACHE_MB,
    }
}

/// [`default_cache_mb_with`] on this machine's available memory.
pub fn default_cache_mb(n: usize) -> f64 {
    default_cache_mb_with(n, available_mb())
}

/// The memory budget of a grid's gamma blocks (the kernel matrices and
/// held-out blocks of the gammas computed at once) where neither the user
/// nor a config gives one: the harness's fixed default, so that a stored
/// run's budget does not depend on the machine.
pub const GRID_MEMORY_MB: f64 = 2048.0;

/// A grid's budget for `available` MB of memory: [`GRID_MEMORY_MB`] within
/// half of `available`, never below [`LIBSVM_CACHE_MB`] ([`GRID_MEMORY_MB`]
/// where `available` is unknown).
pub fn default_grid_memory_mb_with(available: Option<f64>) -> f64 {
    match available {
        Some(mb) => GRID_MEMORY_MB
            .min(mb * SHARE_OF_AVAILABLE)
            .max(LIBSVM_CACHE_MB),
        None => GRID_MEMORY_MB,
    }
}

/// The default budget of `cvbench grid --memory-mb` and Python's
/// `GridSearchSVC`: [`default_grid_memory_mb_with`] on this machine's
/// available memory.
pub fn default_grid_memory_mb() -> f64 {
    default_grid_memory_mb_with(available_mb())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cache_holds_the_matrix_within_half_the_free_memory() {
        // letter: 15,000 rows, an 858 MB matrix.
        let letter = default_cache_mb_with(15_000, Some(20_000.0));
        assert!(letter > 858.0 / 0.75 && letter < 1300.0, "{letter}");
        // Little memory: half of it, yet never below svm-train's 100 MB.
        assert_eq!(default_cache_mb_with(15_000, Some(1000.0)), 500.0);
        assert_eq!(default_cache_mb_with(15_000, Some(100.0)), 100.0);
        assert_eq!(
            default_cache_mb_with(10, Some(20_000.0)),
            whole_matrix_mb(10)
        );
        assert!(whole_matrix_mb(10) >= LIBSVM_CACHE_MB);
        assert_eq!(default_cache_mb_with(15_000, None), LIBSVM_CACHE_MB);
        // A grid: 2,048 MB within half the free memory, at least 100 MB.
        assert_eq!(default_grid_memory_mb_with(Some(20_000.0)), GRID_MEMORY_MB);
        assert_eq!(default_grid_memory_mb_with(Some(1000.0)), 500.0);
        assert_eq!(default_grid_memory_mb_with(Some(50.0)), LIBSVM_CACHE_MB);
        assert_eq!(default_grid_memory_mb_with(None), GRID_MEMORY_MB);
        let text = "MemTotal:       24000000 kB\nMemAvailable:   2048000 kB\n";
        assert_eq!(parse_mem_available_kb(text), Some(2_048_000.0));
    }
}
