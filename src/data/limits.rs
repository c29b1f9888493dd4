//! Size limits: sizes that come from inputs (a config's `n` and `d`, a
//! LibSVM file's largest feature index) are checked against what they can
//! mean and against this machine's memory before anything is allocated, so
//! that a typo gives an error, not an abort or a panic.

use super::DataError;
use std::sync::OnceLock;

/// The most features a dataset may have: 2^27 (134,217,728). A dense weight
/// vector of that width takes 1 GiB; the widest public LibSVM datasets
/// (kdd2010, about 30 million features) fit well below it.
pub const MAX_FEATURES: usize = 1 << 27;

/// This machine's physical memory in bytes (`MemTotal` of `/proc/meminfo`;
/// 16 GiB where that is not available).
pub fn memory_bytes() -> u64 {
    static MEM: OnceLock<u64> = OnceLock::new();
    *MEM.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(16 << 30, |kb| kb.saturating_mul(1024))
    })
}

fn gib(bytes: u128) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// Check that `count` values of `elem_bytes` bytes each (for `what`) fit in
/// this machine's memory; the error says how much was asked for.
pub fn check_alloc(what: &str, count: u128, elem_bytes: u128) -> Result<(), DataError> {
    let bytes = count.saturating_mul(elem_bytes);
    let mem = u128::from(memory_bytes());
    if bytes > mem {
        return Err(DataError::Invalid(format!(
            "{what} needs {} of memory, more than this machine has ({}): use a smaller size",
            gib(bytes),
            gib(mem)
        )));
    }
    Ok(())
}

/// Check a feature count against [`MAX_FEATURES`].
pub fn check_features(what: &str, d: usize) -> Result<(), DataError> {
    if d > MAX_FEATURES {
        return Err(DataError::Invalid(format!(
            "{what}: {d} features is more than cvbench supports ({MAX_FEATURES})"
        )));
    }
    Ok(())
}

/// Check an `n × d` dense f64 matrix (for `what`): `d` within
/// [`MAX_FEATURES`] and the values within this machine's memory.
pub fn check_dense(what: &str, n: usize, d: usize) -> Result<(), DataError> {
    check_features(what, d)?;
    check_alloc(
        &format!("{what} ({n} × {d} dense values)"),
        n as u128 * d as u128,
        8,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_reject_what_cannot_fit() {
        assert!(memory_bytes() > 1 << 20);
        check_dense("x", 1000, 54).unwrap();
        let e = check_dense("x", 1 << 32, 54).unwrap_err().to_string();
        assert!(
            e.contains("GiB") && e.contains("more than this machine"),
            "{e}"
        );
        let e = check_dense("x", 10, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("more than cvbench supports"), "{e}");
        assert!(check_alloc("y", u128::MAX, 8).is_err());
    }
}
