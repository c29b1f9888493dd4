//! Process-wide allocator settings for the binary, and its allocator.

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
/// its peak until the run's next cell hands it back
/// (`experiments::memory::release_freed_memory`).
///
/// One heap (arena) for every thread: with glibc's default of one per
/// thread, memory one thread freed was kept in its arena while another
/// thread's next solve or timed repeat took fresh pages from its own, so
/// the resident size grew past the kernel cache budget. Measured here on
/// a9a's 12k rows drawn from its training and test rows, exact 10-fold CV
/// with a 150 MB budget, 2 threads, 3 timed runs: 422 MB peak with an arena
/// per thread, 202 MB with one, wall time the same (`farm-bench`, A/B
/// median 0.979, range 0.876-1.062); under a 2,000 MB budget the 48,842-row
/// CV reached 2,548 MB. A no-op where the C library is not glibc.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The binary's allocator: the system's, except that an allocation the
/// system refuses ends the process with a clear message and exit code 2
/// instead of Rust's abort ("memory allocation of N bytes failed", SIGABRT).
/// The message is written with `write(2)` and the process ends with
/// `_exit(2)`: neither allocates nor runs code that might.
pub struct ClearOutOfMemory;

impl ClearOutOfMemory {
    /// Report a refused allocation of `size` bytes and end the process.
    fn refused(size: usize) -> ! {
        let mut msg = [0u8; 256];
        let text = out_of_memory_text(size, &mut msg);
        // SAFETY: writes `text` to standard error, then ends the process
        // without unwinding or running destructors.
        unsafe {
            libc::write(2, text.as_ptr().cast(), text.len());
            libc::_exit(2);
        }
    }
}

/// The out-of-memory message for `size` bytes, formatted into `buf`
/// without allocating.
fn out_of_memory_text(size: usize, buf: &mut [u8; 256]) -> &[u8] {
    use std::io::Write;
    let mut cur = std::io::Cursor::new(&mut buf[..]);
    let _ = writeln!(
        cur,
        "error: out of memory: the system refused {size} bytes; give the run less to hold \
         (a smaller -m / --memory-mb, fewer threads, or a smaller dataset) or more memory"
    );
    let end = cur.position() as usize;
    &buf[..end]
}

// SAFETY: every call is forwarded to the system allocator unchanged; only
// a null result (a refused allocation) is turned into an exit.
unsafe impl std::alloc::GlobalAlloc for ClearOutOfMemory {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() {
            Self::refused(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() {
            Self::refused(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            Self::refused(new_size);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_out_of_memory_message_names_the_size_and_the_fix() {
        let mut buf = [0u8; 256];
        let t = String::from_utf8(super::out_of_memory_text(34_359_738_368, &mut buf).to_vec())
            .unwrap();
        assert!(t.contains("34359738368 bytes") && t.contains("-m"), "{t}");
        assert!(t.ends_with('\n'));
    }
}
