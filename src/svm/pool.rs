//! A rayon pool of a given size for one call: the SVM's parallel CVs run
//! their jobs on exactly the threads they were asked for.

use super::SvmError;

/// Run `f` on a new rayon pool of `threads` threads (a pool that cannot be
/// started is an [`SvmError::InvalidParam`] naming the count).
pub fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> Result<T, SvmError> + Send,
) -> Result<T, SvmError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SvmError::InvalidParam(format!("cannot start {threads} threads: {e}")))?
        .install(f)
}
