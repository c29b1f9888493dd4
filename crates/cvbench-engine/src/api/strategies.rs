//! The strategy registries: every name a command line, a config or the
//! Python package may give for how a solve or a CV runs, with their
//! parsers, lists and checks.

/// Solver kinds (SMO, batched), seeding methods, round orders, seeders,
/// cache modes, and one CV's strategy (order, seeder, cache, threads).
pub use crate::svm::{CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SolverKind};

/// Check that a round order and seeder fit `k` folds of `n` rows.
pub use crate::svm::cv::strategy::check_axes;

/// Whether a strategy seeds (any order but the plain one).
pub use crate::svm::multiclass::seeds;

/// Kernel names (`-t`'s order), a kernel's code by name, a kernel's check.
pub use crate::svm::kernel::kind::{check_kernel, kernel_code_of_name, KERNEL_NAMES};
