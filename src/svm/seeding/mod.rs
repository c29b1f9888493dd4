//! Alpha seeding for SVM k-fold cross-validation (Wen et al., AAAI 2017).
//!
//! Round `h` trains on every fold but fold `h`. Going from round `h` to round
//! `h + 1`, the training set loses `R` (fold `h + 1`) and gains `T` (fold
//! `h`); the `k - 2` shared folds `S` keep their rows. A [`Seeder`] takes the
//! previous round's optimum (alphas, gradient) and `R`, `T`, and returns
//! initial alphas for the next training set (`S ∪ T`, in the next round's
//! row order) that satisfy the box `0 <= alpha_i <= C` and the equality
//! `sum_i y_i alpha_i = 0`. SMO then runs from there to the same stopping
//! rule as the baseline, so every method reaches the baseline's optimum.
//!
//! One file per method, each named for it:
//! - [`zero`]: the baseline (every round from `alpha = 0`, LIBSVM's `-v`).
//! - [`ato`]: Adjusting alpha Towards Optimum (path following, eq. 7, 10, 11).
//! - [`mir`]: Multiple Instance Replacement (least squares, eq. 17, 18).
//! - [`sir`]: Single Instance Replacement (kernel nearest same-label row).
//! - [`avg`]: DeCoste & Wagstaff 2000 (leave-one-out only).
//! - [`top`]: Lee et al. 2004 (leave-one-out only).
//! - [`adjust`]: the box clip and uniform shift that restore the equality
//!   constraint (MIR's "AdjustAlpha", also used by SIR and AVG).
//! - [`linalg`]: the dense solves (faer) that ATO and MIR need.
//! - [`gradient`]: the seed's `G` and `G_bar`, updated from the previous round.
//!
//! The round orders (the paper's chain and our TreeCV-ordered `tree`) live
//! in [`crate::svm::seeded_cv`].

pub mod adjust;
pub mod ato;
pub mod avg;
pub mod gradient;
pub mod linalg;
pub mod mir;
pub mod sir;
pub mod top;
pub mod zero;

use super::kernel::KernelData;
use super::SvmError;

/// The alpha-seeding methods (and round orders) of a seeded CV run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeedingMethod {
    /// No seeding: every round from `alpha = 0` (the baseline).
    None,
    /// Adjusting alpha Towards Optimum (Wen et al.).
    Ato,
    /// Multiple Instance Replacement (Wen et al.).
    Mir,
    /// Single Instance Replacement (Wen et al.).
    Sir,
    /// Uniform redistribution over the free SVs (DeCoste & Wagstaff), LOOCV only.
    Avg,
    /// Redistribution to the most similar rows (Lee et al.), LOOCV only.
    Top,
    /// Beyond the paper: rounds in TreeCV's recursion order, children warm
    /// started from their parent's optimum with the returning rows at 0.
    Tree,
}

impl SeedingMethod {
    /// Every method, in the order tables list them.
    pub const ALL: [SeedingMethod; 7] = [
        SeedingMethod::None,
        SeedingMethod::Ato,
        SeedingMethod::Mir,
        SeedingMethod::Sir,
        SeedingMethod::Avg,
        SeedingMethod::Top,
        SeedingMethod::Tree,
    ];

    /// The name used on the command line and in outputs.
    pub fn as_str(self) -> &'static str {
        match self {
            SeedingMethod::None => "none",
            SeedingMethod::Ato => "ato",
            SeedingMethod::Mir => "mir",
            SeedingMethod::Sir => "sir",
            SeedingMethod::Avg => "avg",
            SeedingMethod::Top => "top",
            SeedingMethod::Tree => "tree",
        }
    }

    /// Parse a name (case-insensitive).
    pub fn parse(s: &str) -> Option<SeedingMethod> {
        let s = s.to_ascii_lowercase();
        SeedingMethod::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// AVG and TOP are defined for leave-one-out only (k = n).
    pub fn loocv_only(self) -> bool {
        matches!(self, SeedingMethod::Avg | SeedingMethod::Top)
    }

    /// Whether the method seeds from the previous round (a chain of rounds).
    pub fn is_chain(self) -> bool {
        matches!(
            self,
            SeedingMethod::Ato | SeedingMethod::Mir | SeedingMethod::Sir
        )
    }

    /// Check that the method applies to `k` folds of `n` rows.
    pub fn check_k(self, k: usize, n: usize) -> Result<(), SvmError> {
        if self.loocv_only() && k != n {
            return Err(SvmError::InvalidParam(format!(
                "seeding method {} is defined for leave-one-out only (k = n = {n}), got k = {k}; use sir, mir, ato or tree for k-fold",
                self.as_str()
            )));
        }
        Ok(())
    }
}

/// What every seeder may use: the kernel, the labels, the box and a seed.
pub struct SeedContext<'a> {
    /// The kernel over the whole dataset.
    pub kd: &'a KernelData<'a>,
    /// `±1` of every dataset row, one fixed convention for all rounds (the
    /// seeders only need `y_i y_j` and the sign of `sum y_i alpha_i`, both
    /// invariant under a global flip, so the solver's per-round label order
    /// does not matter).
    pub y: &'a [i8],
    /// The box constraint `C`.
    pub c: f64,
    /// Seed of the random choices (SIR's fallback pick).
    pub seed: u64,
}

/// The previous round's optimum, indexed by dataset row.
pub struct Previous<'a> {
    /// The previous training rows (dataset indices).
    pub rows: &'a [usize],
    /// The optimal alpha of each of `rows`.
    pub alpha: &'a [f64],
    /// The gradient `G = Q alpha - e` of each of `rows`.
    pub gradient: &'a [f64],
}

/// One step of the chain: which rows leave, which come in, the new row order.
pub struct Transition<'a> {
    /// `R`: rows of the previous training set that leave.
    pub removed: &'a [usize],
    /// `T`: rows that join.
    pub added: &'a [usize],
    /// The next round's training rows, in the order the solver receives them.
    pub next_rows: &'a [usize],
}

/// What a seeder is given for one round: the shared context, the previous
/// round's optimum and the step to the next round.
#[derive(Clone, Copy)]
pub struct Round<'a> {
    /// Kernel, labels, box and seed.
    pub ctx: &'a SeedContext<'a>,
    /// The previous round's optimum.
    pub prev: &'a Previous<'a>,
    /// Which rows leave and join, and the next round's row order.
    pub tr: &'a Transition<'a>,
}

/// An alpha-seeding method: initial alphas for the next round.
pub trait Seeder: Sync {
    /// Feasible initial alphas aligned with `round.tr.next_rows`.
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError>;
}

/// The seeder of a chain method (`None` for the methods that are round
/// orders or full-model redistributions rather than chain seeders).
pub fn chain_seeder(m: SeedingMethod) -> Option<Box<dyn Seeder>> {
    match m {
        SeedingMethod::None => Some(Box::new(zero::ZeroSeeder)),
        SeedingMethod::Ato => Some(Box::new(ato::AtoSeeder::default())),
        SeedingMethod::Mir => Some(Box::new(mir::MirSeeder)),
        SeedingMethod::Sir => Some(Box::new(sir::SirSeeder)),
        _ => None,
    }
}

/// A dense map from dataset row to a value of the previous round (NaN where
/// the row was not in the previous training set).
pub(crate) fn by_row(n: usize, rows: &[usize], vals: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; n];
    for (&r, &v) in rows.iter().zip(vals) {
        out[r] = v;
    }
    out
}

/// The previous alphas carried over to `next_rows` (0 for rows that were not
/// in the previous training set), plus the map from row to position.
pub(crate) fn carry_over(n: usize, prev: &Previous<'_>, next_rows: &[usize]) -> Vec<f64> {
    let a = by_row(n, prev.rows, prev.alpha);
    next_rows
        .iter()
        .map(|&r| if a[r].is_nan() { 0.0 } else { a[r] })
        .collect()
}

/// What every seeder starts from: the previous alphas carried over to the
/// next round's rows (joining rows at 0), the previous alphas by dataset
/// row, the next rows' labels and the positions of the joining rows.
pub(crate) struct Draft {
    /// Alphas over `next_rows` (shared rows keep theirs, joining rows 0).
    pub alpha: Vec<f64>,
    /// The previous alpha of every dataset row (NaN outside the previous set).
    pub prev_alpha: Vec<f64>,
    /// `±1` of the next rows.
    pub y_next: Vec<i8>,
    /// Positions in `next_rows` of the joining rows `T`, in `T`'s order.
    pub t_pos: Vec<usize>,
}

impl Draft {
    /// Set up the draft of a transition; errors if a joining row is not in
    /// the next training set.
    pub(crate) fn new(
        ctx: &SeedContext<'_>,
        prev: &Previous<'_>,
        tr: &Transition<'_>,
    ) -> Result<Draft, SvmError> {
        let n = ctx.kd.ds.n();
        let mut pos = vec![usize::MAX; n];
        for (p, &r) in tr.next_rows.iter().enumerate() {
            pos[r] = p;
        }
        let t_pos: Vec<usize> = tr.added.iter().map(|&t| pos[t]).collect();
        if t_pos.contains(&usize::MAX) {
            return Err(SvmError::InvalidParam(
                "seeding: a joining row is not in the next training set".into(),
            ));
        }
        Ok(Draft {
            alpha: carry_over(n, prev, tr.next_rows),
            prev_alpha: by_row(n, prev.rows, prev.alpha),
            y_next: tr.next_rows.iter().map(|&r| ctx.y[r]).collect(),
            t_pos,
        })
    }

    /// Clip to the box and restore `sum y_i alpha_i = 0`, shifting the rows
    /// at positions `prefer` first (see [`adjust::restore_equality`]).
    pub(crate) fn finish(mut self, c: f64, prefer: &[usize]) -> Vec<f64> {
        adjust::restore_equality(&mut self.alpha, &self.y_next, c, prefer);
        self.alpha
    }
}

/// The optimality indicators `f_i = y_i G_i` of the previous rows and the
/// bias `b` (mean of `f` over the free SVs, else the midpoint of the
/// feasible interval, as LIBSVM computes `rho`).
pub(crate) fn indicators(ctx: &SeedContext<'_>, prev: &Previous<'_>) -> (Vec<f64>, f64) {
    let f: Vec<f64> = prev
        .rows
        .iter()
        .zip(prev.gradient)
        .map(|(&r, &g)| f64::from(ctx.y[r]) * g)
        .collect();
    let (mut sum, mut cnt) = (0.0, 0usize);
    let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
    for (k, &r) in prev.rows.iter().enumerate() {
        let a = prev.alpha[k];
        let yf = f[k];
        if a > 0.0 && a < ctx.c {
            sum += yf;
            cnt += 1;
        } else {
            // LIBSVM: at the upper bound with y = +1, or at 0 with y = -1,
            // y G is a lower bound of rho; otherwise an upper bound.
            let upper_side = (a >= ctx.c) == (ctx.y[r] > 0);
            if upper_side {
                lb = lb.max(yf);
            } else {
                ub = ub.min(yf);
            }
        }
    }
    let b = if cnt > 0 {
        sum / cnt as f64
    } else if ub.is_finite() && lb.is_finite() {
        (ub + lb) / 2.0
    } else {
        0.0
    };
    (f, b)
}

#[cfg(test)]
mod tests;
