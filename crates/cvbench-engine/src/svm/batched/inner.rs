//! The inner solver of the batched method: LIBSVM's SMO (WSS 3 of Fan, Chen
//! & Lin, the two-variable update of [`crate::svm::smo::optimality::pair_step`])
//! on the sub-problem of the working set `B`, every other variable fixed.
//!
//! The sub-problem is the dual restricted to `B`: its gradient is `G_B`
//! (the full problem's, which the fixed variables' terms are part of) and
//! its matrix `Q_BB`, read from the working set's kernel rows, so it lives
//! in a `q × q` block. It stops when its own violation falls below
//! `max(eps, 0.1 * its violation at the start)` (ThunderSVM's local
//! tolerance: solve the block well, not exactly, then look again at the
//! whole problem) or after `max_iter` steps.

use rayon::prelude::*;

use super::rows::RowLayout;
use crate::svm::cache::column::Column;
use crate::svm::formulation::solver_nu::nu_pivots;
use crate::svm::smo::optimality::{pair_step, status_of, PairVar, TAU, UPPER};
use crate::svm::smo::rows::LOWER;

/// The block's state: alphas, gradient, labels, bounds, status, `Q_ii` and
/// the unsigned kernel values `K_BB` (row-major `q × q`).
pub(super) struct Block {
    pub alpha: Vec<f64>,
    pub g: Vec<f64>,
    pub y: Vec<i8>,
    pub c: Vec<f64>,
    pub qd: Vec<f64>,
    status: Vec<u8>,
    k: Vec<f64>,
    q: usize,
}

impl Block {
    /// The block of working set `ws` (positions in the solve) from the
    /// solve's state and the working set's kernel rows (indexed as their
    /// layout says).
    pub fn new(
        ws: &[usize],
        (rows, layout): (&[Column], &RowLayout<'_>),
        alpha: &[f64],
        g: &[f64],
        y: &[i8],
        c: &[f64],
        qd: &[f64],
    ) -> Block {
        let q = ws.len();
        let mut k = vec![0.0; q * q];
        // Each row read at the set's entries in increasing order (forwards
        // through memory), the rows on the pool.
        let mut at: Vec<(usize, usize)> = ws
            .iter()
            .enumerate()
            .map(|(b, &t)| (layout.entry(t), b))
            .collect();
        at.sort_unstable();
        k.par_chunks_mut(q.max(1))
            .zip(rows.par_iter())
            .for_each(|(ka, r)| {
                for &(e, b) in &at {
                    ka[b] = f64::from(r[e]);
                }
            });
        let pick = |v: &[f64]| ws.iter().map(|&t| v[t]).collect::<Vec<f64>>();
        let alpha_b = pick(alpha);
        let c_b = pick(c);
        let status = alpha_b
            .iter()
            .zip(&c_b)
            .map(|(&a, &cc)| status_of(a, cc))
            .collect();
        Block {
            alpha: alpha_b,
            g: pick(g),
            y: ws.iter().map(|&t| y[t]).collect(),
            c: c_b,
            qd: pick(qd),
            status,
            k,
            q,
        }
    }

    /// WSS 3 on the block: `(i, j)` and the violation `m - M`, or `None`
    /// for `(i, j)` when no pair can move.
    fn select(&self) -> (Option<(usize, usize)>, f64) {
        let q = self.q;
        let (mut gmax, mut gmax_idx) = (f64::NEG_INFINITY, usize::MAX);
        for t in 0..q {
            let up = if self.y[t] == 1 {
                self.status[t] != UPPER
            } else {
                self.status[t] != LOWER
            };
            let v = -f64::from(self.y[t]) * self.g[t];
            if up && v >= gmax {
                gmax = v;
                gmax_idx = t;
            }
        }
        let mut gmax2 = f64::NEG_INFINITY;
        let (mut best, mut best_j) = (f64::INFINITY, usize::MAX);
        let i = gmax_idx;
        for t in 0..q {
            let low = if self.y[t] == 1 {
                self.status[t] != LOWER
            } else {
                self.status[t] != UPPER
            };
            if !low {
                continue;
            }
            let v = f64::from(self.y[t]) * self.g[t];
            if v >= gmax2 {
                gmax2 = v;
            }
            if i == usize::MAX {
                continue;
            }
            let b = gmax + v;
            if b > 0.0 {
                let mut a = self.qd[i] + self.qd[t] - 2.0 * self.k[i * q + t];
                if a <= 0.0 {
                    a = TAU;
                }
                let obj = -(b * b) / a;
                if obj <= best {
                    best = obj;
                    best_j = t;
                }
            }
        }
        let diff = gmax + gmax2;
        if i == usize::MAX || best_j == usize::MAX {
            (None, diff.max(0.0))
        } else {
            (Some((i, best_j)), diff)
        }
    }

    /// `Solver_NU`'s WSS on the block (the nu formulations: both variables
    /// of a step have one label): `ip`, `in` the largest `-G` of label `+1`
    /// and `G` of label `-1` in `I_up`, `j` the best second-order decrease
    /// among `I_low` paired with its label's; the gap `max(Gmaxp + Gmaxp2,
    /// Gmaxn + Gmaxn2)`.
    fn select_nu(&self) -> (Option<(usize, usize)>, f64) {
        let q = self.q;
        let ((gmaxp, gmaxp_idx), (gmaxn, gmaxn_idx)) = nu_pivots(&self.y, &self.g, &self.status);
        let (mut gmaxp2, mut gmaxn2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let (mut best, mut best_j) = (f64::INFINITY, usize::MAX);
        for t in 0..q {
            let (grad_diff, pivot) = if self.y[t] == 1 {
                if self.status[t] == LOWER {
                    continue;
                }
                gmaxp2 = gmaxp2.max(self.g[t]);
                (gmaxp + self.g[t], gmaxp_idx)
            } else {
                if self.status[t] == UPPER {
                    continue;
                }
                gmaxn2 = gmaxn2.max(-self.g[t]);
                (gmaxn - self.g[t], gmaxn_idx)
            };
            if grad_diff > 0.0 {
                // Same label, so Q_pt = K_pt.
                let mut a = self.qd[pivot] + self.qd[t] - 2.0 * self.k[pivot * q + t];
                if a <= 0.0 {
                    a = TAU;
                }
                let obj = -(grad_diff * grad_diff) / a;
                if obj <= best {
                    best = obj;
                    best_j = t;
                }
            }
        }
        let gap = (gmaxp + gmaxp2).max(gmaxn + gmaxn2);
        if best_j == usize::MAX {
            return (None, gap.max(0.0));
        }
        let i = if self.y[best_j] == 1 {
            gmaxp_idx
        } else {
            gmaxn_idx
        };
        (Some((i, best_j)), gap)
    }

    /// Run SMO on the block from its current state, with `Solver_NU`'s
    /// selection where `nu`. Returns the steps taken.
    pub fn solve(&mut self, eps: f64, max_iter: u64, nu: bool) -> u64 {
        let q = self.q;
        let mut local_eps = eps;
        let mut iter = 0u64;
        while iter < max_iter {
            let (pair, diff) = if nu { self.select_nu() } else { self.select() };
            if iter == 0 {
                local_eps = eps.max(0.1 * diff);
            }
            let Some((i, j)) = pair else { break };
            if diff < local_eps {
                break;
            }
            let (yi, yj) = (self.y[i], self.y[j]);
            let qij = f64::from(yi) * f64::from(yj) * self.k[i * q + j];
            let var = |t: usize| PairVar {
                alpha: self.alpha[t],
                g: self.g[t],
                y: self.y[t],
                qd: self.qd[t],
                c: self.c[t],
            };
            let (ai, aj) = pair_step(var(i), var(j), qij);
            let (dai, daj) = (ai - self.alpha[i], aj - self.alpha[j]);
            // G_t += Q_ti da_i + Q_tj da_j, Q_ts = y_t y_s K_ts.
            let (wi, wj) = (f64::from(yi) * dai, f64::from(yj) * daj);
            let (ki, kj) = (&self.k[i * q..(i + 1) * q], &self.k[j * q..(j + 1) * q]);
            for (t, g) in self.g.iter_mut().enumerate() {
                *g += f64::from(self.y[t]) * (ki[t] * wi + kj[t] * wj);
            }
            self.alpha[i] = ai;
            self.alpha[j] = aj;
            self.status[i] = status_of(ai, self.c[i]);
            self.status[j] = status_of(aj, self.c[j]);
            iter += 1;
        }
        iter
    }
}
