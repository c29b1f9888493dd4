//! Rayon pools of a given size: the SVM's parallel CVs run their jobs on
//! exactly the threads they were asked for. The one place that builds a
//! pool ([`build`]); [`with_threads`] runs one call on a new one.

use rayon::ThreadPool;

use crate::svm::error::SvmError;

/// A new rayon pool of `threads` threads (`0`: rayon's default, one per
/// core), for a caller that keeps it across calls; a pool that cannot be
/// started is an [`SvmError::InvalidParam`] naming the count.
pub fn build(threads: usize) -> Result<ThreadPool, SvmError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SvmError::InvalidParam(format!("cannot start {threads} threads: {e}")))
}

/// Run `f` on a new rayon pool of `threads` threads (see [`build`]).
pub fn with_threads<T: Send>(
    threads: usize,
    f: impl FnOnce() -> Result<T, SvmError> + Send,
) -> Result<T, SvmError> {
    build(threads)?.install(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_have_the_threads_asked_for() {
        assert_eq!(build(3).unwrap().current_num_threads(), 3);
        let n = with_threads(2, || Ok(rayon::current_num_threads())).unwrap();
        assert_eq!(n, 2);
    }
}
