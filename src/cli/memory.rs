//! Process-wide allocator settings for the binary.

/// Keep freed heap memory in the process instead of returning it to the
/// operating system at every `free` of the heap's top.
///
/// glibc's `malloc` gives the top of the heap back once more than 128 KB of
/// it is free. The SVM solvers allocate and free kernel columns by the
/// thousand (one per-solve cache per fold, per grid point, per Newton
/// round), so the same pages were returned and faulted in again and again:
/// measured on this project's machine, `cvbench grid svmguide1.scale` (110
/// points, 5 folds, 2 threads) took 296,000 minor page faults and 0.43 s of
/// system time, against 45,000 and 0.09 s with the threshold raised (wall
/// time 2.42 s against 2.32 s). The price is that the resident size stays at
/// its peak until the process ends. A no-op where the C library is not glibc.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}
