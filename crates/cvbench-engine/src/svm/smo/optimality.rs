//! The pieces of the C-SVC dual that every solver of it shares (the
//! LIBSVM-identical SMO, [`crate::svm::smo`], and the batched working-set solver,
//! [`crate::svm::batched`]), each written once:
//!
//! - the **two-variable update** with clipping to the box (LIBSVM §4.1.3,
//!   and §6 of Fan, Chen & Lin for a non-positive `a_ij`), [`pair_step`];
//! - **rho** (LIBSVM eq. (4.12)-(4.13)): the mean of `y_i G_i` over the free
//!   variables, else the midpoint of the feasible interval, [`rho`];
//! - the **maximal KKT violation** `m(a) - M(a)` (LIBSVM eq. (4.8)),
//!   [`kkt_violation`];
//! - the **objective** `1/2 a^T Q a - e^T a = 1/2 sum_i a_i (G_i - 1)`,
//!   [`objective`].
//!
//! Variables carry a bound status ([`LOWER`], [`UPPER`], [`FREE`]) beside
//! their gradient `G = Q a - e`.

pub(crate) use crate::svm::smo::rows::{FREE, LOWER, UPPER};

/// `a_ij` below or at 0 is replaced by this (LIBSVM's `TAU`).
pub const TAU: f64 = 1e-12;

/// One side of a two-variable step: the variable's alpha, gradient, label,
/// `Q_ii` and upper bound.
#[derive(Clone, Copy, Debug)]
pub struct PairVar {
    /// Current `a`.
    pub alpha: f64,
    /// Current `G`.
    pub g: f64,
    /// Label `±1`.
    pub y: i8,
    /// `Q_ii`.
    pub qd: f64,
    /// Upper bound `C_i`.
    pub c: f64,
}

/// LIBSVM's update of `(a_i, a_j)` given `Q_ij` (signed, `y_i y_j K_ij`):
/// the unconstrained step along the feasible direction, clipped to the box
/// keeping `y_i a_i + y_j a_j` fixed. Returns the new `(a_i, a_j)`.
#[inline]
pub fn pair_step(i: PairVar, j: PairVar, qij: f64) -> (f64, f64) {
    let (ci, cj) = (i.c, j.c);
    let (mut ai, mut aj) = (i.alpha, j.alpha);
    if i.y != j.y {
        let mut quad = i.qd + j.qd + 2.0 * qij;
        if quad <= 0.0 {
            quad = TAU;
        }
        let delta = (-i.g - j.g) / quad;
        let diff = ai - aj;
        ai += delta;
        aj += delta;
        if diff > 0.0 {
            if aj < 0.0 {
                aj = 0.0;
                ai = diff;
            }
        } else if ai < 0.0 {
            ai = 0.0;
            aj = -diff;
        }
        if diff > ci - cj {
            if ai > ci {
                ai = ci;
                aj = ci - diff;
            }
        } else if aj > cj {
            aj = cj;
            ai = cj + diff;
        }
    } else {
        let mut quad = i.qd + j.qd - 2.0 * qij;
        if quad <= 0.0 {
            quad = TAU;
        }
        let delta = (i.g - j.g) / quad;
        let sum = ai + aj;
        ai -= delta;
        aj += delta;
        if sum > ci {
            if ai > ci {
                ai = ci;
                aj = sum - ci;
            }
        } else if aj < 0.0 {
            aj = 0.0;
            ai = sum;
        }
        if sum > cj {
            if aj > cj {
                aj = cj;
                ai = sum - cj;
            }
        } else if ai < 0.0 {
            ai = 0.0;
            aj = sum;
        }
    }
    (ai, aj)
}

/// The bound status of `alpha` in `[0, c]`.
#[inline(always)]
pub fn status_of(alpha: f64, c: f64) -> u8 {
    if alpha >= c {
        UPPER
    } else if alpha <= 0.0 {
        LOWER
    } else {
        FREE
    }
}

/// LIBSVM eq. (4.12)-(4.13) over the given variables.
pub fn rho(y: &[i8], g: &[f64], status: &[u8]) -> f64 {
    let mut nr_free = 0usize;
    let (mut ub, mut lb, mut sum_free) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
    for ((&yi, &gi), &st) in y.iter().zip(g).zip(status) {
        let yg = f64::from(yi) * gi;
        match st {
            UPPER => {
                if yi == -1 {
                    ub = ub.min(yg);
                } else {
                    lb = lb.max(yg);
                }
            }
            LOWER => {
                if yi == 1 {
                    ub = ub.min(yg);
                } else {
                    lb = lb.max(yg);
                }
            }
            _ => {
                nr_free += 1;
                sum_free += yg;
            }
        }
    }
    if nr_free > 0 {
        sum_free / nr_free as f64
    } else {
        (ub + lb) / 2.0
    }
}

/// `m(a) - M(a)` over the given variables (0 when `I_up` or `I_low` is
/// empty): `m = max { -y_t G_t : t in I_up }`, `M = min { -y_t G_t : t in
/// I_low }`.
pub fn kkt_violation(y: &[i8], g: &[f64], status: &[u8]) -> f64 {
    let (mut m_up, mut m_low) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for ((&yt, &gt), &st) in y.iter().zip(g).zip(status) {
        let ygt = -f64::from(yt) * gt;
        if in_up(yt, st) {
            m_up = m_up.max(ygt);
        }
        if in_low(yt, st) {
            m_low = m_low.max(-ygt);
        }
    }
    if m_up == f64::NEG_INFINITY || m_low == f64::NEG_INFINITY {
        0.0
    } else {
        (m_up + m_low).max(0.0)
    }
}

/// Whether a variable is in `I_up` (its `y_t a_t` can grow).
#[inline(always)]
pub fn in_up(y: i8, status: u8) -> bool {
    (y == 1 && status != UPPER) || (y == -1 && status != LOWER)
}

/// Whether a variable is in `I_low` (its `y_t a_t` can shrink).
#[inline(always)]
pub fn in_low(y: i8, status: u8) -> bool {
    (y == 1 && status != LOWER) || (y == -1 && status != UPPER)
}

/// `1/2 a^T Q a + p^T a`, from `G = Q a + p`: `1/2 sum_i a_i (G_i + p_i)`
/// (LIBSVM's `Solver::Solve` for any formulation).
pub fn objective_with_linear_term(alpha: &[f64], g: &[f64], p: &[f64]) -> f64 {
    let mut v = 0.0;
    for ((&a, &gi), &pi) in alpha.iter().zip(g).zip(p) {
        v += a * (gi + pi);
    }
    v / 2.0
}

/// `1/2 a^T Q a - e^T a`, from `G = Q a - e`: `1/2 sum_i a_i (G_i - 1)`.
pub fn objective(alpha: &[f64], g: &[f64]) -> f64 {
    let mut v = 0.0;
    for (&a, &gi) in alpha.iter().zip(g) {
        v += a * (gi - 1.0);
    }
    v / 2.0
}
