//! LIBSVM's `Solver_NU`: the SMO of the nu formulations (nu-SVC, nu-SVR),
//! whose dual has a second equality constraint (`e^T a` fixed beside
//! `y^T a`), so that both variables of a working set must have the same
//! label. It is LIBSVM's `Solver` ([`crate::svm::smo`]) with three methods
//! replaced, as `Solver_NU` overrides them in svm.cpp:
//!
//! - `select_working_set`: WSS 3 within each label: `ip = argmax { -G_t :
//!   y_t = +1, t in I_up }`, `in = argmax { G_t : y_t = -1, t in I_up }`,
//!   then `j` the best second-order decrease among the `I_low` variables of
//!   either label (paired with `ip` or `in` by its label); stop when
//!   `max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2) < eps`;
//! - `do_shrinking` / `be_shrunk`: the bounds of the four label-and-side
//!   maxima (and no `*` mark at the unshrink, as LIBSVM prints none);
//! - `calculate_rho`: `r1`, `r2` per label (the mean gradient over its free
//!   variables, else the midpoint), `rho = (r1 - r2) / 2`, `r = (r1 + r2) /
//!   2`.

use crate::svm::smo::optimality::{in_low, in_up};
use crate::svm::smo::q_matrix::QMatrix;
use crate::svm::smo::rows::{LOWER, UPPER};
use crate::svm::smo::Solver;

const INF: f64 = f64::INFINITY;
const TAU: f64 = crate::svm::smo::optimality::TAU;
/// No index (LIBSVM's `-1`).
const NONE: usize = usize::MAX;

impl<Q: QMatrix> Solver<Q> {
    /// `Solver_NU::select_working_set`; `None` when optimal.
    pub(crate) fn select_working_set_nu(&mut self) -> Option<(usize, usize)> {
        let n = self.active_size;
        let ((gmaxp, gmaxp_idx), (gmaxn, gmaxn_idx)) =
            nu_pivots(&self.y[..n], &self.g[..n], &self.status[..n]);
        let (mut gmaxp2, mut gmaxn2) = (-INF, -INF);
        let mut gmin_idx = NONE;
        let mut obj_diff_min = INF;
        let (ip, in_) = (gmaxp_idx, gmaxn_idx);
        let empty: &[f32] = &[];
        // Column ip, then column in (LIBSVM's order of requests).
        let (q_ip, q_in): (&[f32], &[f32]) = match (ip != NONE, in_ != NONE) {
            (true, true) => self.q.get_q2(ip, in_, n),
            (true, false) => (self.q.get_q(ip, n), empty),
            (false, true) => (empty, self.q.get_q(in_, n)),
            (false, false) => (empty, empty),
        };
        let (y, g, st, qd) = (&self.y, &self.g, &self.status, &self.qd);
        for j in 0..n {
            let (grad_diff, q_pivot, pivot) = if y[j] == 1 {
                if st[j] == LOWER {
                    continue;
                }
                if g[j] >= gmaxp2 {
                    gmaxp2 = g[j];
                }
                (gmaxp + g[j], q_ip, ip)
            } else {
                if st[j] == UPPER {
                    continue;
                }
                if -g[j] >= gmaxn2 {
                    gmaxn2 = -g[j];
                }
                (gmaxn - g[j], q_in, in_)
            };
            if grad_diff > 0.0 {
                // A positive difference means the pivot exists (its max is
                // finite).
                let quad_coef = qd[pivot] + qd[j] - f64::from(2.0 * q_pivot[j]);
                let obj_diff = if quad_coef > 0.0 {
                    -(grad_diff * grad_diff) / quad_coef
                } else {
                    -(grad_diff * grad_diff) / TAU
                };
                if obj_diff <= obj_diff_min {
                    gmin_idx = j;
                    obj_diff_min = obj_diff;
                }
            }
        }
        let (a, b) = (gmaxp + gmaxp2, gmaxn + gmaxn2);
        let gap = if a < b { b } else { a }; // std::max(a, b)
        if gap < self.eps || gmin_idx == NONE {
            return None;
        }
        let out_i = if self.y[gmin_idx] == 1 {
            gmaxp_idx
        } else {
            gmaxn_idx
        };
        Some((out_i, gmin_idx))
    }

    /// `Solver_NU::be_shrunk`.
    #[inline(always)]
    fn be_shrunk_nu(&self, i: usize, gmax: [f64; 4]) -> bool {
        let [gmax1, gmax2, gmax3, gmax4] = gmax;
        self.be_shrunk_by(i, [gmax1, gmax4, gmax2, gmax3])
    }

    /// `Solver_NU::do_shrinking`.
    pub(crate) fn do_shrinking_nu(&mut self) {
        // max { -y_i G_i : y_i = +1, i in I_up }, max { y_i G_i : y_i = +1,
        // i in I_low }, max { -y_i G_i : y_i = -1, i in I_up }, max { y_i G_i
        // : y_i = -1, i in I_low }.
        let (mut gmax1, mut gmax2, mut gmax3, mut gmax4) = (-INF, -INF, -INF, -INF);
        for i in 0..self.active_size {
            let gi = self.g[i];
            if self.status[i] != UPPER {
                if self.y[i] == 1 {
                    if -gi > gmax1 {
                        gmax1 = -gi;
                    }
                } else if -gi > gmax4 {
                    gmax4 = -gi;
                }
            }
            if self.status[i] != LOWER {
                if self.y[i] == 1 {
                    if gi > gmax2 {
                        gmax2 = gi;
                    }
                } else if gi > gmax3 {
                    gmax3 = gi;
                }
            }
        }
        let (a, b) = (gmax1 + gmax2, gmax3 + gmax4);
        let gap = if a < b { b } else { a };
        if !self.unshrink && gap <= self.eps * 10.0 {
            self.unshrink = true;
            self.reconstruct_gradient();
            self.active_size = self.l;
        }
        let gmax = [gmax1, gmax2, gmax3, gmax4];
        let before = self.active_size;
        let mut i = 0;
        while i < self.active_size {
            if self.be_shrunk_nu(i, gmax) {
                self.active_size -= 1;
                while self.active_size > i {
                    if !self.be_shrunk_nu(self.active_size, gmax) {
                        self.swap_index(i, self.active_size);
                        break;
                    }
                    self.active_size -= 1;
                }
            }
            i += 1;
        }
        if self.active_size < before {
            self.stats.shrink_events += 1;
            self.stats.shrunk_vars += (before - self.active_size) as u64;
        }
    }

    /// `Solver_NU::calculate_rho`: returns rho and sets `r`.
    pub(crate) fn calculate_rho_nu(&mut self) -> f64 {
        let n = self.active_size;
        let (rho, r) = rho_and_r(&self.y[..n], &self.g[..n], &self.status[..n]);
        self.r = r;
        rho
    }
}

/// `Solver_NU::select_working_set`'s first pass over the given variables:
/// `(Gmaxp, ip)`, the largest `-G_t` of label `+1` in `I_up`, and `(Gmaxn,
/// in)`, the largest `G_t` of label `-1` in `I_up` (the last of equal ones;
/// `-inf` and `usize::MAX` where there is none).
pub(crate) fn nu_pivots(y: &[i8], g: &[f64], status: &[u8]) -> ((f64, usize), (f64, usize)) {
    let (mut gmaxp, mut gmaxp_idx) = (-INF, NONE);
    let (mut gmaxn, mut gmaxn_idx) = (-INF, NONE);
    for (t, ((&yt, &gt), &st)) in y.iter().zip(g).zip(status).enumerate() {
        if yt == 1 {
            if st != UPPER && -gt >= gmaxp {
                gmaxp = -gt;
                gmaxp_idx = t;
            }
        } else if st != LOWER && gt >= gmaxn {
            gmaxn = gt;
            gmaxn_idx = t;
        }
    }
    ((gmaxp, gmaxp_idx), (gmaxn, gmaxn_idx))
}

/// `Solver_NU::calculate_rho` over the given variables: `(rho, r)`, with
/// `r1`, `r2` per label (the mean gradient over its free variables, else
/// the midpoint of its bounds), `rho = (r1 - r2) / 2`, `r = (r1 + r2) / 2`.
pub(crate) fn rho_and_r(y: &[i8], g: &[f64], status: &[u8]) -> (f64, f64) {
    let (mut nr_free1, mut nr_free2) = (0usize, 0usize);
    let (mut ub1, mut ub2, mut lb1, mut lb2) = (INF, INF, -INF, -INF);
    let (mut sum_free1, mut sum_free2) = (0.0, 0.0);
    for ((&yi, &gi), &st) in y.iter().zip(g).zip(status) {
        let (nr_free, ub, lb, sum_free) = if yi == 1 {
            (&mut nr_free1, &mut ub1, &mut lb1, &mut sum_free1)
        } else {
            (&mut nr_free2, &mut ub2, &mut lb2, &mut sum_free2)
        };
        match st {
            UPPER => *lb = f64::max(*lb, gi),
            LOWER => *ub = f64::min(*ub, gi),
            _ => {
                *nr_free += 1;
                *sum_free += gi;
            }
        }
    }
    let r1 = if nr_free1 > 0 {
        sum_free1 / nr_free1 as f64
    } else {
        (ub1 + lb1) / 2.0
    };
    let r2 = if nr_free2 > 0 {
        sum_free2 / nr_free2 as f64
    } else {
        (ub2 + lb2) / 2.0
    };
    ((r1 - r2) / 2.0, (r1 + r2) / 2.0)
}

/// `Solver_NU`'s stopping gap over the given variables: the larger of the
/// two labels' `m(a) - M(a)` (`max(Gmaxp + Gmaxp2, Gmaxn + Gmaxn2)`; each
/// label's is 0 when its `I_up` or `I_low` is empty), so `< eps` is
/// `select_working_set`'s stop.
pub(crate) fn nu_violation(y: &[i8], g: &[f64], status: &[u8]) -> f64 {
    // [label +1, label -1] of max { -y G : I_up } and max { y G : I_low }.
    let (mut up, mut low) = ([-INF; 2], [-INF; 2]);
    for ((&yt, &gt), &st) in y.iter().zip(g).zip(status) {
        let s = usize::from(yt != 1);
        let f = -f64::from(yt) * gt;
        if in_up(yt, st) {
            up[s] = up[s].max(f);
        }
        if in_low(yt, st) {
            low[s] = low[s].max(-f);
        }
    }
    (0..2)
        .filter(|&s| up[s] > -INF && low[s] > -INF)
        .map(|s| (up[s] + low[s]).max(0.0))
        .fold(0.0, f64::max)
}
