//! What one solve of the C-SVC dual gives back: [`SolveOutput`] (the
//! alphas, the gradient and `G_bar` in the caller's row order) with its
//! [`SolveStats`] (iterations, cache and kernel counters, shrinking, the
//! objective, `rho`, the support vectors) and [`Timings`]. Both solvers
//! ([`crate::svm::smo`] and [`crate::svm::batched`]) return these.

/// Counters of one solve.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SolveStats {
    /// SMO iterations (LIBSVM's `#iter`).
    pub iterations: u64,
    /// Whether the iteration limit stopped the solver before convergence.
    pub hit_max_iter: bool,
    /// Working sets the batched solver went through (its outer iterations;
    /// 0 for the SMO, whose working sets are its iterations' pairs).
    #[serde(default)]
    pub working_sets: u64,
    /// Kernel values this solve computed beyond its column cache (the
    /// diagonal included), whole columns taken from a shared cache aside;
    /// with a cache shared by parallel solves, also those read from a
    /// column it happened to hold (so the same count on any thread count).
    pub kernel_evals: u64,
    /// `Q` column requests answered entirely from the local cache.
    pub cache_hits: u64,
    /// `Q` column requests that needed entries filled.
    pub cache_misses: u64,
    /// Column fills taken from whole columns of the shared cross-fold
    /// cache (requests for at least half its rows; the cache counts the
    /// columns' values once each).
    pub shared_hits: u64,
    /// Shrinking passes that removed at least one variable.
    pub shrink_events: u64,
    /// Variables removed by shrinking, summed over passes.
    pub shrunk_vars: u64,
    /// Gradient reconstructions that had work to do.
    pub reconstructions: u64,
    /// Reconstructions with fewer than half of the active variables free,
    /// where LIBSVM prints "WARNING: using -h 0 may be faster".
    #[serde(default)]
    pub h0_warnings: u64,
    /// What `svm-train` prints during this solve, in order: `.` each
    /// shrinking check, `*` each return to the whole set (the unshrink and
    /// each time the active set is optimal),
    /// `W` each "WARNING: using -h 0 may be faster" (empty for the batched
    /// solver, which prints nothing there).
    #[serde(default)]
    pub progress: String,
    /// Dual objective value at exit (`1/2 a^T Q a - e^T a`).
    pub objective: f64,
    /// Bias: the decision function is `sum_i y_i a_i K(x_i, x) - rho`.
    pub rho: f64,
    /// Number of support vectors (`a_i > 0`).
    pub n_sv: usize,
    /// Number of bounded support vectors (`a_i = C_i`).
    pub n_bsv: usize,
    /// Maximal KKT violation `m(a) - M(a)` at exit, over all variables.
    pub kkt_violation: f64,
    /// Timings.
    pub timings: Timings,
}

/// Wall-clock seconds of the phases of a solve (and of prediction, filled by
/// the caller that predicts).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Timings {
    /// Set-up: class grouping, `QD`, gradient initialisation (warm start).
    pub init_s: f64,
    /// The SMO loop and `rho`.
    pub train_s: f64,
    /// Prediction of the held-out rows (0 when not predicting).
    pub predict_s: f64,
}

/// What a solve returns, in the order of the rows given to
/// [`crate::svm::smo::solve`].
#[derive(Clone, Debug)]
pub struct SolveOutput {
    /// The optimal (unsigned) alphas.
    pub alpha: Vec<f64>,
    /// The final gradient `G = Q a - e`.
    pub gradient: Vec<f64>,
    /// The final `G_bar = sum_{a_j = C_j} C_j Q_j` (LIBSVM's `G_bar`).
    pub g_bar: Vec<f64>,
    /// Counters, objective, rho, timings.
    pub stats: SolveStats,
}
