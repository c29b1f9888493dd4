//! The strategy seam of SVM k-fold cross-validation: four independent axes,
//! each with one registry that the config, the command line and the
//! renderers derive their names from.
//!
//! - [`RoundOrder`]: in which order the rounds are solved and what each one
//!   starts from (every round from zero, a chain, the full model, TreeCV's
//!   tree);
//! - [`SeederKind`]: how a round's initial alphas are built from the solve
//!   it follows (zero, carry, ATO, MIR, SIR, AVG, TOP);
//! - [`CacheMode`]: one kernel cache per solve, or one shared by every solve
//!   of the run, within one memory budget (`-m`);
//! - threads: the size of the rayon pool the run uses.
//!
//! [`SeedingMethod`] names the paper's methods as presets of the first two
//! axes (`sir` = chain + SIR, `tree` = tree + carry, ...). Adding a round
//! order or a seeder is one variant here (and its arm in
//! `crate::svm::cv::seeded::Run::rounds` or [`SeederKind::make`]).

use crate::svm::error::SvmError;
use crate::svm::kernel::matrix;
use crate::svm::seeding::{ato, avg, carry, mir, sir, top, zero, Seeder};

/// Defines a closed set of named values: the enum, `ALL` in table order,
/// `as_str`, `parse` (case-insensitive) and `names` (for help and errors).
macro_rules! named_registry {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl $name {
            /// Every value, in the order tables list them.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The name in configs, on the command line and in outputs.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $s),+
                }
            }

            /// Parse a name (case-insensitive).
            pub fn parse(s: &str) -> Option<$name> {
                let s = s.to_ascii_lowercase();
                Self::ALL.iter().copied().find(|v| v.as_str() == s)
            }

            /// Every name, comma-separated (for help and error texts).
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_registry! {
    /// Which solver of the C-SVC dual trains (`--solver`): LIBSVM's SMO,
    /// iteration for iteration as `svm-train` (the default), or the batched
    /// working-set solver (LIBSVM's optimum to the stopping tolerance, with
    /// its kernel rows as blocks: [`crate::svm::batched`]).
    SolverKind {
        /// The LIBSVM-identical SMO ([`crate::svm::smo`]).
        Smo = "smo",
        /// The batched working-set solver ([`crate::svm::batched`]).
        Batched = "batched",
    }
}

impl SolverKind {
    /// Solve one C-SVC dual with this solver.
    pub fn solve(
        self,
        inp: crate::svm::smo::solve_input::SolveInput<'_, '_>,
    ) -> Result<crate::svm::smo::solve_stats::SolveOutput, SvmError> {
        match self {
            SolverKind::Smo => crate::svm::smo::solve(inp),
            SolverKind::Batched => crate::svm::batched::solve(inp),
        }
    }

    /// Whether the solver takes a training set's rows grouped by class, as
    /// LIBSVM's `svm_group_classes` orders them (the SMO: svm-train's
    /// iterations depend on the order); the batched solver takes them in
    /// the caller's order, whose runs of consecutive dataset rows (all of
    /// them in one training, two in a CV round) its rows read from a shared
    /// kernel cache without gathering.
    pub fn groups_classes(self) -> bool {
        self == SolverKind::Smo
    }

    /// How a whole kernel matrix computed for this solver is made: the SMO
    /// reads svm-train's bits, the batched solver matrix products.
    pub fn matrix_values(self) -> crate::svm::kernel::matrix::MatrixValues {
        match self {
            SolverKind::Smo => crate::svm::kernel::matrix::MatrixValues::Libsvm,
            SolverKind::Batched => crate::svm::kernel::matrix::MatrixValues::Products,
        }
    }
}

named_registry! {
    /// The order in which the rounds of a k-fold CV are solved.
    RoundOrder {
        /// Every round on its own, from `alpha = 0` (LIBSVM's `-v`); rounds
        /// run in parallel with more than one thread.
        PerRound = "per_round",
        /// Wen et al.'s chain: round `h` seeded from round `h - 1`
        /// (sequential; its kernel blocks and columns use the threads).
        Chain = "chain",
        /// The chain cut in two halves (rounds `0..ceil(k/2)` and the rest),
        /// each half a chain whose first round starts from `alpha = 0`; the
        /// halves run at the same time with more than one thread. One more
        /// solve from zero than the chain, in exchange for two independent
        /// sequences (the split is fixed, so the results do not depend on
        /// the thread count).
        TwoChains = "two_chains",
        /// One SVM on all rows, every round seeded from it (parallel rounds).
        FullModel = "full_model",
        /// TreeCV's recursion over the folds, children seeded from their
        /// parent (parallel subtrees).
        Tree = "tree",
    }
}

named_registry! {
    /// How a round's initial alphas are built from the solve it follows.
    SeederKind {
        /// `alpha = 0` (no seeding).
        Zero = "zero",
        /// The previous alphas of the rows that stay, joining rows at 0,
        /// the equality restored (TreeCV's warm start).
        Carry = "carry",
        /// Adjusting alpha Towards Optimum (Wen et al., eq. 7, 10, 11).
        Ato = "ato",
        /// Multiple Instance Replacement (Wen et al., eq. 15-18).
        Mir = "mir",
        /// Single Instance Replacement (Wen et al., Algorithm 3).
        Sir = "sir",
        /// DeCoste & Wagstaff's redistribution (leave-one-out only).
        Avg = "avg",
        /// Lee et al.'s redistribution to the most similar rows (leave-one-out only).
        Top = "top",
    }
}

named_registry! {
    /// Where the kernel values of a run are cached.
    CacheMode {
        /// One LIBSVM column cache per solve, of the whole budget (as
        /// `svm-train` per fold).
        PerSolve = "per_solve",
        /// One cache of whole kernel columns shared by every solve of the
        /// run, keyed by dataset row, plus a small column cache per running
        /// solve: together within the budget.
        Shared = "shared",
    }
}

named_registry! {
    /// The paper's methods (and ours) as presets of a round order and a
    /// seeder: the names of `--seeding` and of an `svm_cv` config's
    /// seeded `methods`.
    SeedingMethod {
        /// No seeding: every round from `alpha = 0` (the baseline).
        None = "none",
        /// Chain + ATO (Wen et al.).
        Ato = "ato",
        /// Chain + MIR (Wen et al.).
        Mir = "mir",
        /// Chain + SIR (Wen et al.).
        Sir = "sir",
        /// Beyond the paper: two chains + SIR (Wen et al.'s seeder, the
        /// chain cut in two halves that run at the same time).
        SirTwoChains = "sir_two_chains",
        /// Full model + AVG (DeCoste & Wagstaff), LOOCV only.
        Avg = "avg",
        /// Full model + TOP (Lee et al.), LOOCV only.
        Top = "top",
        /// Beyond the paper: tree + carry.
        Tree = "tree",
    }
}

impl SeedingMethod {
    /// The round order and seeder of this preset.
    pub fn axes(self) -> (RoundOrder, SeederKind) {
        match self {
            SeedingMethod::None => (RoundOrder::PerRound, SeederKind::Zero),
            SeedingMethod::Ato => (RoundOrder::Chain, SeederKind::Ato),
            SeedingMethod::Mir => (RoundOrder::Chain, SeederKind::Mir),
            SeedingMethod::Sir => (RoundOrder::Chain, SeederKind::Sir),
            SeedingMethod::SirTwoChains => (RoundOrder::TwoChains, SeederKind::Sir),
            SeedingMethod::Avg => (RoundOrder::FullModel, SeederKind::Avg),
            SeedingMethod::Top => (RoundOrder::FullModel, SeederKind::Top),
            SeedingMethod::Tree => (RoundOrder::Tree, SeederKind::Carry),
        }
    }

    /// The preset of a round order and seeder, if there is one.
    pub fn of(order: RoundOrder, seeder: SeederKind) -> Option<SeedingMethod> {
        SeedingMethod::ALL
            .iter()
            .copied()
            .find(|m| m.axes() == (order, seeder))
    }

    /// AVG and TOP are defined for leave-one-out only (k = n).
    pub fn loocv_only(self) -> bool {
        self.axes().1.loocv_only()
    }

    /// Whether the method seeds from the previous round (a chain of rounds).
    pub fn is_chain(self) -> bool {
        self.axes().0 == RoundOrder::Chain
    }

    /// Check that the method applies to `k` folds of `n` rows.
    pub fn check_k(self, k: usize, n: usize) -> Result<(), SvmError> {
        let (order, seeder) = self.axes();
        check_axes(order, seeder, k, n)
    }
}

impl RoundOrder {
    /// Whether a run of this order's first rounds costs in proportion to
    /// them, so that they estimate the whole run ([`crate::svm::cv::seeded::run_cv_first_rounds`]):
    /// every order but the tree (whose upper nodes serve all its rounds)
    /// and the two chains (whose second chain starts half-way).
    pub fn runs_first_rounds(self) -> bool {
        !matches!(self, RoundOrder::Tree | RoundOrder::TwoChains)
    }
}

impl SeederKind {
    /// The seeder's implementation.
    pub fn make(self) -> Box<dyn Seeder> {
        match self {
            SeederKind::Zero => Box::new(zero::ZeroSeeder),
            SeederKind::Carry => Box::new(carry::CarrySeeder),
            SeederKind::Ato => Box::new(ato::AtoSeeder::default()),
            SeederKind::Mir => Box::new(mir::MirSeeder),
            SeederKind::Sir => Box::new(sir::SirSeeder),
            SeederKind::Avg => Box::new(avg::AvgSeeder),
            SeederKind::Top => Box::new(top::TopSeeder),
        }
    }

    /// AVG and TOP are defined for leave-one-out only.
    pub fn loocv_only(self) -> bool {
        matches!(self, SeederKind::Avg | SeederKind::Top)
    }

    /// The round orders this seeder is meaningful with.
    pub fn orders(self) -> &'static [RoundOrder] {
        match self {
            SeederKind::Zero => &[RoundOrder::PerRound],
            SeederKind::Carry => &[
                RoundOrder::Chain,
                RoundOrder::TwoChains,
                RoundOrder::FullModel,
                RoundOrder::Tree,
            ],
            SeederKind::Ato | SeederKind::Mir | SeederKind::Sir => {
                &[RoundOrder::Chain, RoundOrder::TwoChains]
            }
            SeederKind::Avg | SeederKind::Top => &[RoundOrder::FullModel],
        }
    }
}

/// Check that a round order and a seeder go together for `k` folds of `n`
/// rows.
pub fn check_axes(
    order: RoundOrder,
    seeder: SeederKind,
    k: usize,
    n: usize,
) -> Result<(), SvmError> {
    if !seeder.orders().contains(&order) {
        let with: Vec<&str> = seeder.orders().iter().map(|o| o.as_str()).collect();
        return Err(SvmError::InvalidParam(format!(
            "seeder {seeder} does not go with round order {order}: use it with {}",
            with.join(" or ")
        )));
    }
    if seeder.loocv_only() && k != n {
        return Err(SvmError::InvalidParam(format!(
            "seeder {seeder} is defined for leave-one-out only (k = n = {n}), got k = {k}; use sir, mir, ato or tree for k-fold"
        )));
    }
    Ok(())
}

/// A complete choice on the four axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CvStrategy {
    /// The round order.
    pub order: RoundOrder,
    /// The seeder.
    pub seeder: SeederKind,
    /// The kernel cache.
    pub cache: CacheMode,
    /// Threads of the run's rayon pool (1: everything on the calling thread).
    pub threads: usize,
}

impl CvStrategy {
    /// The strategy of a preset with a cache mode and thread count.
    pub fn of(method: SeedingMethod, cache: CacheMode, threads: usize) -> CvStrategy {
        let (order, seeder) = method.axes();
        CvStrategy {
            order,
            seeder,
            cache,
            threads: threads.max(1),
        }
    }

    /// The strategy of a preset whose axes `order` and `seeder` may
    /// override (`cvbench svm --seeding/--order/--seeder`): a seeder alone
    /// goes with the preset's order where it can, else with its first
    /// meaningful one; an order replaces whatever the rest gave.
    pub fn with_overrides(
        method: SeedingMethod,
        order: Option<RoundOrder>,
        seeder: Option<SeederKind>,
        cache: CacheMode,
        threads: usize,
    ) -> CvStrategy {
        let mut s = CvStrategy::of(method, cache, threads);
        if let Some(k) = seeder {
            s.seeder = k;
            if !k.orders().contains(&s.order) {
                s.order = k.orders()[0];
            }
        }
        if let Some(o) = order {
            s.order = o;
        }
        s
    }

    /// The preset this strategy's order and seeder make, if any.
    pub fn method(&self) -> Option<SeedingMethod> {
        SeedingMethod::of(self.order, self.seeder)
    }

    /// A label for outputs: the preset's name, else `order+seeder`.
    pub fn label(&self) -> String {
        match self.method() {
            Some(m) => m.as_str().to_string(),
            None => format!("{}+{}", self.order, self.seeder),
        }
    }

    /// The memory budget of `total_mb` split between the shared cache (3/4)
    /// and the column caches of the solves that can run at once (the rest):
    /// `(shared MB or None, MB per solve)`.
    pub fn cache_split(&self, total_mb: f64) -> (Option<f64>, f64) {
        match self.cache {
            CacheMode::PerSolve => (None, total_mb),
            CacheMode::Shared => (
                Some(total_mb * 0.75),
                total_mb * 0.25 / self.concurrent() as f64,
            ),
        }
    }

    /// [`CvStrategy::cache_split`] with the whole matrix first: where the
    /// `n x n` kernel matrix takes at most [`matrix::WHOLE_SHARE`] of
    /// `total_mb`, the shared cache gets what the matrix needs (every solve
    /// then reads it without a kernel evaluation) and each of the solves
    /// that run at once an equal part of the rest; else the 3/4 rule. The
    /// whole run stays within `total_mb` either way, and the numbers do not
    /// depend on it (a cached value is the value computed).
    pub fn cache_split_whole_first(&self, n: usize, total_mb: f64) -> (Option<f64>, f64) {
        let split = self.cache_split(total_mb);
        if split.0.is_none() {
            return split;
        }
        match matrix::whole_matrix_mb(n, total_mb) {
            Some(need) => (
                Some(need),
                (total_mb - need) / self.concurrent().max(1) as f64,
            ),
            None => split,
        }
    }

    /// How many solves run at once: one in a chain, up to two with two
    /// chains, else one per thread.
    pub fn concurrent(&self) -> usize {
        match self.order {
            RoundOrder::Chain => 1,
            RoundOrder::TwoChains => self.threads.clamp(1, 2),
            _ => self.threads.max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_matrix_is_shared_first_within_the_budget() {
        let s = CvStrategy {
            order: RoundOrder::PerRound,
            seeder: SeederKind::Zero,
            cache: CacheMode::Shared,
            threads: 2,
        };
        // cadata (20,640 rows): 1,626 MB of matrix fits 2,000 MB (the rest
        // split between two solves); 1,500 MB would not hold it (3/4 rule).
        let (shared, per_solve) = s.cache_split_whole_first(20_640, 2000.0);
        let shared = shared.expect("a shared cache");
        assert!((1620.0..1630.0).contains(&shared), "{shared}");
        assert!((shared + 2.0 * per_solve - 2000.0).abs() < 1e-9);
        assert_eq!(
            s.cache_split_whole_first(20_640, 1500.0),
            s.cache_split(1500.0)
        );
        // MNIST-20k (1,526 MB) in 2,000 MB: the whole matrix, where the 3/4
        // rule gave the shared cache 1,500 MB, a column cache.
        assert!(s.cache_split_whole_first(20_000, 2000.0).0.unwrap() > 1500.0);
        let per = CvStrategy {
            cache: CacheMode::PerSolve,
            ..s
        };
        assert_eq!(per.cache_split_whole_first(100, 2000.0), (None, 2000.0));
    }

    #[test]
    fn every_name_parses_back_and_presets_are_valid_axes() {
        for o in RoundOrder::ALL {
            assert_eq!(RoundOrder::parse(o.as_str()), Some(*o));
        }
        for s in SeederKind::ALL {
            assert_eq!(SeederKind::parse(&s.as_str().to_uppercase()), Some(*s));
            assert!(!s.orders().is_empty());
        }
        for m in SeedingMethod::ALL {
            let (o, s) = m.axes();
            assert!(s.orders().contains(&o), "{m}");
            assert_eq!(SeedingMethod::of(o, s), Some(*m));
        }
        assert_eq!(CacheMode::parse("shared"), Some(CacheMode::Shared));
        assert_eq!(SeedingMethod::parse("nope"), None);
    }

    #[test]
    fn meaningless_combinations_are_refused() {
        assert!(check_axes(RoundOrder::Tree, SeederKind::Sir, 10, 100).is_err());
        assert!(check_axes(RoundOrder::PerRound, SeederKind::Sir, 10, 100).is_err());
        assert!(check_axes(RoundOrder::FullModel, SeederKind::Top, 10, 100).is_err());
        assert!(check_axes(RoundOrder::FullModel, SeederKind::Top, 100, 100).is_ok());
        assert!(check_axes(RoundOrder::Chain, SeederKind::Carry, 10, 100).is_ok());
    }

    #[test]
    fn one_memory_budget() {
        let s = CvStrategy::of(SeedingMethod::None, CacheMode::Shared, 2);
        let (sh, local) = s.cache_split(2000.0);
        assert_eq!(sh, Some(1500.0));
        assert_eq!(local, 250.0);
        assert!(sh.unwrap() + 2.0 * local <= 2000.0);
        let p = CvStrategy::of(SeedingMethod::Sir, CacheMode::PerSolve, 2);
        assert_eq!(p.cache_split(100.0), (None, 100.0));
        assert_eq!(p.label(), "sir");
    }
}
