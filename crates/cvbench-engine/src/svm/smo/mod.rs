//! The LIBSVM-identical SMO solver and what every solver of the dual shares.
//!
//! Modules:
//! - `rows`: the per-iteration loops over the active rows (the WSS 3 scans
//!   that choose the working set, the gradient updates), split over the pool.
//!   The working set itself is chosen in `Solver::select_working_set` (this
//!   file), which runs those scans.
//! - `lanes`: the WSS 3 scans written branch-free over interleaved lanes.
//! - `general`: LIBSVM's `Solver::Solve` for any formulation (any `Q`, a
//!   linear term, labels and bounds per variable, `Solver_NU` on demand).
//! - `q_matrix`: the `Q` matrix as the solver reads it (LIBSVM's `QMatrix`).
//! - `solve_input`: what a solve is given and the checks every solver makes.
//! - `solve_stats`: what a solve gives back (alphas, gradient, [`SolveStats`],
//!   [`Timings`]).
//! - `optimality`: the dual's shared pieces (a variable's status, the pair
//!   update, `rho`, the objective, the KKT violation).
//! - `sample_weight`: per-row weights of C (scikit-learn's `sample_weight`).
//! - `train_log`: what `svm-train` prints of a solve.
//!
//! This module: the SMO solver of the C-SVC dual
//!
//! ```text
//!   min_a  f(a) = 1/2 a^T Q a - e^T a
//!   s.t.   y^T a = 0,   0 <= a_i <= C_i,      Q_ij = y_i y_j K(x_i, x_j)
//! ```
//!
//! as in Fan, Chen & Lin (JMLR 2005) and LIBSVM 3.24 (Chang & Lin 2011):
//!
//! - **Working set selection** (WSS 3 of Fan et al., LIBSVM §4.1.2):
//!   `i = argmax { -y_t G_t : t in I_up }`, then among `t in I_low` with
//!   `b_it = m(a) + y_t G_t > 0`, `j = argmin -b_it^2 / a_it`, where
//!   `a_it = K_ii + K_tt - 2 K_it` (or `tau = 1e-12` when not positive).
//!   Ties go to the later index, as in LIBSVM (`>=` / `<=` comparisons).
//! - **Stopping**: `m(a) - M(a) < eps` (LIBSVM eq. (4.8)).
//! - **Two-variable update** with clipping to the box (LIBSVM §4.1.3 and
//!   §6 of Fan et al. for non-PSD `a_ij`).
//! - **Shrinking** (LIBSVM §5.1): every `min(l, 1000)` iterations, variables
//!   at a bound whose gradient says they will stay there are removed from
//!   the active set; once `m - M <= 10 eps` the whole set is restored once
//!   (the "unshrink") with a **gradient reconstruction** (§5.2) from
//!   `G_bar_i = sum_{j at upper bound} C_j Q_ij`.
//! - **rho** (LIBSVM eq. (4.12)-(4.13)): the mean of `y_i G_i` over the free
//!   variables, else the midpoint of the feasible interval.
//! - **Warm start**: any feasible alpha; the gradient is rebuilt as
//!   `G = -e + sum_{a_j > 0} a_j Q_j` (and `G_bar`), which is the entry point
//!   of alpha-seeding methods.
//!
//! What a solve is given and the checks on it are in [`crate::svm::smo::solve_input`],
//! what it gives back in [`crate::svm::smo::solve_stats`] (both re-exported here).

pub mod general;
pub(super) mod lanes;
pub mod optimality;
pub mod q_matrix;
pub(crate) mod rows;
pub mod sample_weight;
pub mod solve_input;
pub mod solve_stats;
pub mod train_log;

use std::time::Instant;

use crate::cancel::Cancelled;
use crate::svm::cache::qmatrix::SvcQ;
use crate::svm::error::SvmError;
use crate::svm::smo::optimality::{pair_step, PairVar, TAU};
use crate::svm::smo::q_matrix::QMatrix;
use crate::svm::smo::sample_weight::row_bounds;
use crate::svm::smo::solve_input::check_input;

pub use crate::svm::smo::solve_input::{check_feasible, SolveInput};
pub use crate::svm::smo::solve_stats::{SolveOutput, SolveStats, Timings};

const INF: f64 = f64::INFINITY;

use crate::svm::smo::lanes::Pivot;
use crate::svm::smo::rows::{Rows, FREE, LOWER, UPPER};

/// The solver's state: LIBSVM's `Solver` (with `nu`, its `Solver_NU`,
/// [`crate::svm::formulation::solver_nu`]) over the active set
/// `0..active_size` of the variables in solver order, for any `Q` matrix
/// ([`QMatrix`]) and linear term `p` ([`general`]); the C-SVC dual is
/// `Q = SVC_Q`, `p = -e`.
pub(crate) struct Solver<Q: QMatrix> {
    pub(crate) active_size: usize,
    pub(crate) l: usize,
    pub(crate) y: Vec<i8>,
    pub(crate) g: Vec<f64>,
    pub(crate) status: Vec<u8>,
    pub(crate) alpha: Vec<f64>,
    pub(crate) active_set: Vec<u32>,
    pub(crate) g_bar: Vec<f64>,
    pub(crate) qd: Vec<f64>,
    /// The linear term `p` of the objective `1/2 a^T Q a + p^T a`.
    pub(crate) p: Vec<f64>,
    pub(crate) c_pos: f64,
    pub(crate) c_neg: f64,
    /// Each variable's C where given (rows with weights, a formulation's
    /// bounds; else `c_pos` / `c_neg`).
    pub(crate) c_rows: Option<Vec<f64>>,
    pub(crate) eps: f64,
    pub(crate) unshrink: bool,
    /// LIBSVM's `Solver_NU`: working sets, shrinking and rho within each
    /// label ([`crate::svm::formulation::solver_nu`]).
    pub(crate) nu: bool,
    /// `Solver_NU`'s `r` (set by its rho).
    pub(crate) r: f64,
    pub(crate) q: Q,
    pub(crate) stats: SolveStats,
}

/// Solve the C-SVC dual (see the module doc). Inputs are checked: bad input
/// gives an error, never a panic.
pub fn solve(inp: SolveInput<'_, '_>) -> Result<SolveOutput, SvmError> {
    crate::cancel::check()?;
    let t0 = Instant::now();
    let l = inp.rows.len();
    let alpha = check_input(&inp)?;
    let q = SvcQ::new(
        inp.kd,
        inp.rows.to_vec(),
        inp.y.to_vec(),
        inp.cache_mb,
        inp.shared,
    );
    let qd = q.diagonal();
    let mut s = Solver {
        active_size: l,
        l,
        y: inp.y.to_vec(),
        g: vec![-1.0; l], // G = p = -e at alpha = 0
        status: vec![LOWER; l],
        alpha,
        active_set: (0..l as u32).collect(),
        g_bar: vec![0.0; l],
        qd,
        p: vec![-1.0; l],
        c_pos: inp.c_pos,
        c_neg: inp.c_neg,
        c_rows: inp
            .kd
            .sample_weights()
            .map(|w| row_bounds(w, inp.rows, inp.y, inp.c_pos, inp.c_neg)),
        eps: inp.eps,
        unshrink: false,
        nu: false,
        r: 0.0,
        q,
        stats: SolveStats::default(),
    };
    for i in 0..l {
        s.update_alpha_status(i);
    }
    match (inp.alpha0, inp.grad0) {
        (Some(_), Some((g, gb))) => {
            s.g = g.to_vec();
            s.g_bar = gb.to_vec();
        }
        _ => s.init_gradient(),
    }
    s.stats.timings.init_s = t0.elapsed().as_secs_f64();

    let t1 = Instant::now();
    let max_iter = inp
        .max_iter
        .unwrap_or_else(|| (100u64.saturating_mul(l as u64)).max(10_000_000));
    s.run(max_iter, inp.shrinking)?;
    s.stats.rho = s.calculate_rho();
    s.stats.timings.train_s = t1.elapsed().as_secs_f64();
    Ok(s.finish())
}

impl<Q: QMatrix> Solver<Q> {
    #[inline(always)]
    pub(crate) fn c_of(&self, i: usize) -> f64 {
        if let Some(c) = &self.c_rows {
            c[i]
        } else if self.y[i] > 0 {
            self.c_pos
        } else {
            self.c_neg
        }
    }

    #[inline(always)]
    pub(crate) fn update_alpha_status(&mut self, i: usize) {
        self.status[i] = optimality::status_of(self.alpha[i], self.c_of(i));
    }

    /// `G = p + sum_{a_i > 0} a_i Q_i`, `G_bar = sum_{a_i = C_i} C_i Q_i`
    /// (`G` starts at `p`).
    pub(crate) fn init_gradient(&mut self) {
        let l = self.l;
        for i in 0..l {
            if self.status[i] == LOWER {
                continue;
            }
            let ai = self.alpha[i];
            let ci = self.c_of(i);
            let upper = self.status[i] == UPPER;
            let qi = self.q.get_q(i, l);
            for (g, &qv) in self.g.iter_mut().zip(qi) {
                *g += ai * f64::from(qv);
            }
            if upper {
                for (gb, &qv) in self.g_bar.iter_mut().zip(qi) {
                    *gb += ci * f64::from(qv);
                }
            }
        }
    }

    pub(crate) fn swap_index(&mut self, i: usize, j: usize) {
        self.q.swap_index(i, j);
        self.y.swap(i, j);
        if let Some(c) = &mut self.c_rows {
            c.swap(i, j);
        }
        self.g.swap(i, j);
        self.status.swap(i, j);
        self.alpha.swap(i, j);
        self.active_set.swap(i, j);
        self.g_bar.swap(i, j);
        self.qd.swap(i, j);
        self.p.swap(i, j);
    }

    /// LIBSVM §5.2: recompute `G` of the inactive variables from `G_bar` and
    /// the free variables, choosing the cheaper loop order.
    pub(crate) fn reconstruct_gradient(&mut self) {
        let (a, l) = (self.active_size, self.l);
        if a == l {
            return;
        }
        self.stats.reconstructions += 1;
        for j in a..l {
            self.g[j] = self.g_bar[j] + self.p[j];
        }
        let nr_free = (0..a).filter(|&j| self.status[j] == FREE).count();
        if 2 * nr_free < a {
            self.stats.h0_warnings += 1;
            self.stats.progress.push('W');
        }
        if nr_free * l > 2 * a * (l - a) {
            for i in a..l {
                let qi = self.q.get_q(i, a);
                let mut gi = self.g[i];
                for ((&st, &aj), &qv) in self.status[..a].iter().zip(&self.alpha[..a]).zip(qi) {
                    if st == FREE {
                        gi += aj * f64::from(qv);
                    }
                }
                self.g[i] = gi;
            }
        } else {
            for i in 0..a {
                if self.status[i] == FREE {
                    let ai = self.alpha[i];
                    let qi = self.q.get_q(i, l);
                    for (g, &qv) in self.g[a..l].iter_mut().zip(&qi[a..l]) {
                        *g += ai * f64::from(qv);
                    }
                }
            }
        }
    }

    /// WSS 3 (Fan et al. 2005, LIBSVM §4.1.2). Returns `None` at optimality.
    fn select_working_set(&mut self) -> Option<(usize, usize)> {
        if self.nu {
            return self.select_working_set_nu();
        }
        let n = self.active_size;
        let mut gmax2 = -INF;
        let mut gmin_idx = usize::MAX;

        // i = argmax { -y_t G_t : t in I_up(a) } (in pieces: `smo_rows`)
        let rows = Rows {
            y: &self.y,
            status: &self.status,
            g: &self.g,
        };
        let (gmax, gmax_idx) = rows::select_i(&rows, n);
        let i = gmax_idx;
        if i != usize::MAX {
            let qd_i = self.qd[i];
            let yi = f64::from(self.y[i]);
            let qi = self.q.get_q(i, n);
            let rows = Rows {
                y: &self.y,
                status: &self.status,
                g: &self.g,
            };
            // j = argmin { -b_it^2 / a_it : t in I_low(a), -y_t G_t < -y_i G_i }
            let pivot = Pivot {
                gmax,
                qd_i,
                yi,
                tau: TAU,
            };
            let s = rows::select_j(&rows, &self.qd, qi, n, &pivot);
            gmax2 = s.gmax2;
            gmin_idx = s.j;
        } else {
            // No i: still compute M(a) for the stopping test.
            for j in 0..n {
                if self.y[j] == 1 {
                    if self.status[j] != LOWER && self.g[j] >= gmax2 {
                        gmax2 = self.g[j];
                    }
                } else if self.status[j] != UPPER && -self.g[j] >= gmax2 {
                    gmax2 = -self.g[j];
                }
            }
        }
        // Stopping condition m(a) - M(a) < eps (LIBSVM eq. (4.8)).
        if gmax + gmax2 < self.eps || gmin_idx == usize::MAX {
            return None;
        }
        Some((gmax_idx, gmin_idx))
    }

    /// LIBSVM's `be_shrunk`: [`Self::be_shrunk_by`] with `(gmax1, gmax2,
    /// gmax2, gmax1)`.
    #[inline(always)]
    fn be_shrunk(&self, i: usize, gmax1: f64, gmax2: f64) -> bool {
        self.be_shrunk_by(i, [gmax1, gmax2, gmax2, gmax1])
    }

    /// Whether variable `i` may be shrunk: at its upper bound, when `-G_i`
    /// exceeds `t[0]` (label +1) or `t[1]` (label -1); at its lower bound,
    /// when `G_i` exceeds `t[2]` (+1) or `t[3]` (-1); free, never. LIBSVM's
    /// `Solver::be_shrunk` and `Solver_NU::be_shrunk` differ only in these
    /// four thresholds.
    #[inline(always)]
    pub(crate) fn be_shrunk_by(&self, i: usize, t: [f64; 4]) -> bool {
        let pos = self.y[i] == 1;
        match self.status[i] {
            UPPER => -self.g[i] > if pos { t[0] } else { t[1] },
            LOWER => self.g[i] > if pos { t[2] } else { t[3] },
            _ => false,
        }
    }

    /// LIBSVM §5.1: shrink the active set; unshrink once when close to optimal.
    fn do_shrinking(&mut self) {
        if self.nu {
            return self.do_shrinking_nu();
        }
        let mut gmax1 = -INF; // max { -y_i G_i : i in I_up }
        let mut gmax2 = -INF; // max {  y_i G_i : i in I_low }
        for i in 0..self.active_size {
            let gi = self.g[i];
            if self.y[i] == 1 {
                if self.status[i] != UPPER && -gi >= gmax1 {
                    gmax1 = -gi;
                }
                if self.status[i] != LOWER && gi >= gmax2 {
                    gmax2 = gi;
                }
            } else {
                if self.status[i] != UPPER && -gi >= gmax2 {
                    gmax2 = -gi;
                }
                if self.status[i] != LOWER && gi >= gmax1 {
                    gmax1 = gi;
                }
            }
        }
        if !self.unshrink && gmax1 + gmax2 <= self.eps * 10.0 {
            self.unshrink = true;
            self.reconstruct_gradient();
            self.active_size = self.l;
            self.stats.progress.push('*');
        }
        let before = self.active_size;
        let mut i = 0;
        while i < self.active_size {
            if self.be_shrunk(i, gmax1, gmax2) {
                self.active_size -= 1;
                while self.active_size > i {
                    if !self.be_shrunk(self.active_size, gmax1, gmax2) {
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

    /// The main SMO loop (LIBSVM `Solver::Solve`); stops early on a
    /// cancellation ([`crate::cancel::check`], every shrinking period).
    pub(crate) fn run(&mut self, max_iter: u64, shrinking: bool) -> Result<(), Cancelled> {
        let l = self.l;
        let mut iter: u64 = 0;
        let mut counter = l.min(1000) + 1;
        while iter < max_iter {
            counter -= 1;
            if counter == 0 {
                counter = l.min(1000);
                crate::cancel::check()?;
                if shrinking {
                    self.do_shrinking();
                }
                self.stats.progress.push('.');
            }
            let (i, j) = match self.select_working_set() {
                Some(p) => p,
                None => {
                    // Optimal on the active set: check the whole set.
                    self.reconstruct_gradient();
                    self.active_size = l;
                    self.stats.progress.push('*');
                    match self.select_working_set() {
                        Some(p) => {
                            counter = 1; // shrink in the next iteration
                            p
                        }
                        None => break,
                    }
                }
            };
            iter += 1;
            self.take_step(i, j);
        }
        if iter >= max_iter {
            self.stats.hit_max_iter = true;
            if self.active_size < l {
                self.reconstruct_gradient();
                self.active_size = l;
                self.stats.progress.push('*');
            }
        }
        self.stats.iterations = iter;
        Ok(())
    }

    /// Update `a_i`, `a_j` (LIBSVM §4.1.3 / §6), then `G` and `G_bar`.
    #[inline]
    fn take_step(&mut self, i: usize, j: usize) {
        let n = self.active_size;
        let l = self.l;
        let (ci, cj) = (self.c_of(i), self.c_of(j));
        let (old_ai, old_aj) = (self.alpha[i], self.alpha[j]);
        let (qd_i, qd_j) = (self.qd[i], self.qd[j]);
        let (yi, yj) = (self.y[i], self.y[j]);
        let (gi, gj) = (self.g[i], self.g[j]);
        let (qi, qj) = self.q.get_q2(i, j, n);
        let qij = f64::from(qi[j]);
        let (ai, aj) = pair_step(
            PairVar {
                alpha: old_ai,
                g: gi,
                y: yi,
                qd: qd_i,
                c: ci,
            },
            PairVar {
                alpha: old_aj,
                g: gj,
                y: yj,
                qd: qd_j,
                c: cj,
            },
            qij,
        );
        // G_k += Q_ik da_i + Q_jk da_j over the active set.
        let (dai, daj) = (ai - old_ai, aj - old_aj);
        rows::update_gradient(&mut self.g[..n], qi, qj, dai, daj);
        self.alpha[i] = ai;
        self.alpha[j] = aj;

        // Keep G_bar = sum_{a_k = C_k} C_k Q_k up to date.
        let ui = self.status[i] == UPPER;
        let uj = self.status[j] == UPPER;
        self.update_alpha_status(i);
        self.update_alpha_status(j);
        if ui != (self.status[i] == UPPER) {
            let qi = self.q.get_q(i, l);
            let s = if ui { -ci } else { ci };
            rows::add_scaled(&mut self.g_bar, qi, s);
        }
        if uj != (self.status[j] == UPPER) {
            let qj = self.q.get_q(j, l);
            let s = if uj { -cj } else { cj };
            rows::add_scaled(&mut self.g_bar, qj, s);
        }
    }

    /// LIBSVM eq. (4.12)-(4.13) over the active set (`Solver_NU`'s,
    /// which also sets `r`, with `nu`).
    pub(crate) fn calculate_rho(&mut self) -> f64 {
        if self.nu {
            return self.calculate_rho_nu();
        }
        let a = self.active_size;
        optimality::rho(&self.y[..a], &self.g[..a], &self.status[..a])
    }

    /// `m(a) - M(a)` over all variables (active set must be the whole set).
    fn kkt_violation(&self) -> f64 {
        optimality::kkt_violation(&self.y, &self.g, &self.status)
    }

    pub(crate) fn finish(mut self) -> SolveOutput {
        let l = self.l;
        // 1/2 sum_i a_i (G_i + p_i) (LIBSVM's, with p = -e for C-SVC).
        let mut v = 0.0;
        for ((&a, &gi), &pi) in self.alpha.iter().zip(&self.g).zip(&self.p) {
            v += a * (gi + pi);
        }
        self.stats.objective = v / 2.0;
        self.stats.kkt_violation = self.kkt_violation();
        let mut alpha = vec![0.0; l];
        let mut gradient = vec![0.0; l];
        let mut g_bar = vec![0.0; l];
        let (mut n_sv, mut n_bsv) = (0, 0);
        for i in 0..l {
            let k = self.active_set[i] as usize;
            alpha[k] = self.alpha[i];
            gradient[k] = self.g[i];
            g_bar[k] = self.g_bar[i];
            if self.alpha[i].abs() > 0.0 {
                n_sv += 1;
                if self.alpha[i].abs() >= self.c_of(i) {
                    n_bsv += 1;
                }
            }
        }
        self.stats.n_sv = n_sv;
        self.stats.n_bsv = n_bsv;
        let counts = self.q.counters();
        self.stats.kernel_evals = counts.kernel_evals;
        self.stats.shared_hits = counts.shared_hits;
        self.stats.cache_hits = counts.cache_hits;
        self.stats.cache_misses = counts.cache_misses;
        SolveOutput {
            alpha,
            gradient,
            g_bar,
            stats: self.stats,
        }
    }
}
