//! What a seeder works with: the shared context, the previous round's
//! optimum, the step to the next round ([`Round`]), the [`Seeder`] trait,
//! and the starting point every seeder shares ([`Draft`]).

use crate::svm::cache::SharedKernelCache;
use crate::svm::error::SvmError;
use crate::svm::kernel::KernelData;

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
    /// The kernel cache shared by every solve of the run, if any: the
    /// gradient sums read it ([`super::gradient`]).
    pub shared: Option<&'a SharedKernelCache>,
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
        super::adjust::restore_equality(&mut self.alpha, &self.y_next, c, prefer);
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
