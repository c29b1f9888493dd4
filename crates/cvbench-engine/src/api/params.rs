//! A solve's parameters: kernel, C, tolerance, cache, solver; LIBSVM's
//! default gamma and number printing; class weights; the default cache
//! size; the thread pools every call runs on.

/// The parameters of a solve and its kernel; the kernel's view of a
/// dataset (rows, norms, sample weights).
pub use crate::svm::{KernelData, KernelKind, SvmParams};

/// `svm-train`'s default gamma (1 / features), a given gamma or that
/// default, whether a gamma is the default; a parameter printed as
/// `svm-train` prints it.
pub use crate::svm::{default_gamma, fmt_param, gamma_or_default, is_default_gamma};

/// Class weights (`-wi`), their check, a class's C with its weight.
pub use crate::svm::multiclass::{check_weights, weighted_c, ClassWeight};

/// The default kernel-cache size for `n` rows (LIBSVM's 100 MB, or the
/// whole matrix where memory allows).
pub use crate::svm::cache::budget::default_cache_mb;

/// A grid's default budget in MB for its gamma blocks: 2,048 MB within half
/// this machine's available memory (at least 100) where `on_this_machine`
/// (`cvbench grid --memory-mb`'s and GridSearchSVC's default), else the
/// fixed 2,048 MB (the harness's, so that a stored run's budget does not
/// depend on the machine). No number depends on it.
pub fn grid_memory_mb(on_this_machine: bool) -> f64 {
    use crate::svm::cache::budget;
    match on_this_machine {
        true => budget::default_grid_memory_mb(),
        false => budget::GRID_MEMORY_MB,
    }
}

/// A thread pool of `threads` threads; run a call on a new one.
pub use crate::svm::cv::pool::{build as thread_pool, with_threads};
