//! SMO with Newton steps on the free variables, for the slow large-C solves
//! of a grid.
//!
//! At large C, SMO spends millions of iterations on few free variables: the
//! free sub-problem is ill-conditioned and SMO's two-variable steps crawl
//! along it (on svmguide1 at C = 2^15, gamma = 2, about 120 free alphas
//! take 1.2 million iterations per fold). Here SMO runs in rounds of at most
//! `cap` iterations; after a round that did not converge, one **active-set
//! Newton step** solves the free sub-problem exactly (the equality-
//! constrained quadratic on the free set with the bounded alphas fixed, by
//! Cholesky of `Q_FF`), moves along it as far as the box allows (variables
//! that reach a bound leave the free set, and the step is repeated on the
//! rest), and SMO resumes from there. The objective decreases at every
//! step, so the rounds end; after [`MAX_ROUNDS`] rounds the last SMO run has
//! LIBSVM's iteration limit. The solve always **ends with an SMO run that
//! met LIBSVM's stopping rule**, so the result is an optimum within the
//! usual tolerance, as any warm start's: a held-out row near the boundary
//! may flip.
//!
//! Everything is sequential (faer with `Par::Seq`), so the result does not
//! depend on the thread count.

use faer::Par;

use super::cholesky::Factor;

use crate::svm::cache::SharedKernelCache;
use crate::svm::kernel::KernelData;
use crate::svm::model::solution::{train_seeded, TrainOutput};
use crate::svm::{error::SvmError, model::params::SvmParams};

/// A warm start: alpha, and `(G, G_bar)` when known.
pub type Warm = (Vec<f64>, Option<(Vec<f64>, Vec<f64>)>);

/// SMO rounds with a Newton step between them, before the last
/// (uncapped) SMO run.
pub const MAX_ROUNDS: usize = 40;

/// Newton steps between two SMO rounds.
pub const MAX_PASSES: usize = 100;

/// A Newton step may cost at most this many SMO rounds' flops (see
/// [`round_cap`]).
pub const FLOP_RATIO: f64 = 20.0;

/// Free sets larger than this get no Newton step (the Cholesky costs
/// `m^3 / 3`).
pub const MAX_FREE: usize = 2000;

/// Counters of the Newton steps of one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NewtonStats {
    /// Newton steps taken (each a solve with a Cholesky factor, fresh or
    /// with the rows of variables that left the free set deleted).
    pub steps: u64,
    /// SMO runs (rounds).
    pub rounds: u64,
    /// Kernel values computed (not read from the shared cache) for the
    /// Newton steps' `Q` columns.
    pub kernel_reads: u64,
}

/// SMO iterations of a round: `max(200, l / 4)` for `l` training rows.
pub fn round_cap(l: usize) -> u64 {
    (l as u64 / 4).max(200)
}

/// Train on `rows` from `warm` (or zero) by SMO rounds with Newton steps
/// between them (see the module doc). The returned statistics sum the
/// iterations, kernel evaluations and timings of every round.
pub fn train_newton(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &SvmParams,
    warm: Option<Warm>,
    shared: Option<&SharedKernelCache>,
) -> Result<(TrainOutput, NewtonStats), SvmError> {
    let cap = round_cap(rows.len());
    let mut ns = NewtonStats::default();
    let mut seed = warm;
    let mut iterations = 0u64;
    let mut kernel_evals = 0u64;
    let mut timings = crate::svm::smo::solve_stats::Timings::default();
    let mut give_up = false;
    for round in 0..=MAX_ROUNDS {
        let last = round == MAX_ROUNDS || give_up;
        let mut p = params.clone();
        if !last {
            p.max_iter = Some(match params.max_iter {
                Some(m) => cap.min(m.saturating_sub(iterations).max(1)),
                None => cap,
            });
        } else if let Some(m) = params.max_iter {
            p.max_iter = Some(m.saturating_sub(iterations).max(1));
        }
        let w = seed.as_ref().map(|(a, g)| {
            (
                a.as_slice(),
                g.as_ref().map(|(g, gb)| (g.as_slice(), gb.as_slice())),
            )
        });
        let mut out = train_seeded(kd, rows, &p.check()?, w, shared)?;
        ns.rounds += 1;
        iterations += out.stats.iterations;
        kernel_evals += out.stats.kernel_evals;
        timings.init_s += out.stats.timings.init_s;
        timings.train_s += out.stats.timings.train_s;
        let budget_left = params.max_iter.is_none_or(|m| iterations < m);
        if !out.stats.hit_max_iter || last || out.single_class || !budget_left {
            out.stats.iterations = iterations;
            out.stats.kernel_evals = kernel_evals + ns.kernel_reads;
            out.stats.timings.init_s = timings.init_s;
            out.stats.timings.train_s = timings.train_s;
            return Ok((out, ns));
        }
        let t = std::time::Instant::now();
        seed = Some(
            match newton_step(kd, rows, shared, params.c, params.eps, &out, &mut ns) {
                Some(a) => (a, None),
                None => {
                    // No Newton step applies: finish with SMO alone.
                    give_up = true;
                    (out.alpha, Some((out.gradient, out.g_bar)))
                }
            },
        );
        timings.train_s += t.elapsed().as_secs_f64();
    }
    unreachable!("the last round returns")
}

/// One active-set pass from the SMO round's `out` (at bound `c`): Newton
/// steps on the free set, a ratio test against the box (a variable that
/// reaches a bound leaves the set), and, after a full step, the bounded
/// variables that violate the optimality conditions by more than `eps`
/// (with the multiplier of the step) join the set, the most violating
/// first. Returns the improved alpha, or `None` when no step applies (fewer
/// than two or more than [`MAX_FREE`] free variables, a singular `Q_FF`, or
/// a result that would not be feasible).
fn newton_step(
    kd: &KernelData<'_>,
    rows: &[usize],
    shared: Option<&SharedKernelCache>,
    c: f64,
    eps: f64,
    out: &TrainOutput,
    ns: &mut NewtonStats,
) -> Option<Vec<f64>> {
    faer::set_global_parallelism(Par::Seq);
    let y = &out.y;
    let l = y.len();
    let mut alpha = out.alpha.clone();
    // The full gradient is brought up to date only before looking for
    // violators: `pending` holds the alpha changes (of the `touched`
    // variables) not yet in it.
    let mut g = out.gradient.clone();
    let mut pending: Vec<f64> = vec![0.0; l];
    let mut touched: Vec<usize> = Vec::new();
    let mut is_touched: Vec<bool> = vec![false; l];
    let mut free: Vec<usize> = (0..l).filter(|&i| alpha[i] > 0.0 && alpha[i] < c).collect();
    if !(2..=MAX_FREE).contains(&free.len()) {
        return None;
    }
    let mut cols = Columns::new(kd, rows, y, shared);
    let mut moved = false;
    let mut delta_hint = 0.0f64;
    let mut spent = 0.0f64;
    // The factor of the current free set, while it only shrinks.
    let mut fac: Option<Factor> = None;
    for _ in 0..MAX_PASSES {
        let m = free.len();
        if !(2..=MAX_FREE).contains(&m) {
            break;
        }
        let fresh = match fac.take() {
            Some(f) => f,
            None => {
                // A factorisation costs about m^3 / 3 flops; an SMO round
                // about `cap` iterations of O(l) each. Spend on them at
                // most FLOP_RATIO rounds' worth each and MAX_PASSES / 4 of
                // that per call, so that large free sets (where SMO is cheap
                // enough) are left to SMO. (Deleting a row from a factor
                // costs O(m^2) and is not counted.)
                let cost = (m as f64).powi(3) / 3.0;
                let round = round_cap(l) as f64 * l as f64;
                spent += cost;
                if cost > FLOP_RATIO * round || spent > FLOP_RATIO * round * (MAX_PASSES / 4) as f64
                {
                    break;
                }
                for &i in &free {
                    cols.ensure(i, ns);
                }
                // Q_FF (column-major, unregularised) and its Cholesky
                // factor with a ridge `delta I`: Q_FF is often singular to
                // single precision (close points, small gamma); the ridge,
                // raised until Cholesky succeeds, keeps the step a descent
                // direction (a proximal Newton step), and iterative
                // refinement against Q_FF removes most of its bias.
                let qf: Vec<f64> = free
                    .iter()
                    .flat_map(|&j| {
                        let col = cols.get(j);
                        free.iter().map(move |&i| col[i])
                    })
                    .collect();
                let mut delta = delta_hint / 100.0;
                loop {
                    if let Some(f) = Factor::new(qf.clone(), m, delta) {
                        break f;
                    }
                    delta = if delta < 1e-8 { 1e-7 } else { delta * 10.0 };
                    if delta > 1e-1 {
                        return (moved && feasible(&alpha, y, c)).then_some(alpha);
                    }
                }
            }
        };
        let f = fac.insert(fresh);
        let delta = f.delta;
        delta_hint = delta;
        ns.steps += 1;
        let yf: Vec<f64> = free.iter().map(|&i| f64::from(y[i])).collect();
        let x2 = f.solve(&yf);
        let yx2: f64 = yf.iter().zip(&x2).map(|(a, b)| a * b).sum();
        if yx2 == 0.0 || !yx2.is_finite() {
            break;
        }
        // The saddle system [Q y; y^T 0] [d; beta] = [rhs; 0] through the
        // factor: d = x1 - beta x2 with Q x1 = rhs, Q x2 = y_F.
        let saddle = |rhs: &[f64]| -> (Vec<f64>, f64) {
            let x1 = f.solve(rhs);
            let yx1: f64 = yf.iter().zip(&x1).map(|(a, b)| a * b).sum();
            let beta = yx1 / yx2;
            (
                x1.iter().zip(&x2).map(|(a, b)| a - beta * b).collect(),
                beta,
            )
        };
        // g of the free set: the stale g plus the pending changes.
        let mut gf: Vec<f64> = free.iter().map(|&i| g[i]).collect();
        for &t in &touched {
            let (pt, col) = (pending[t], cols.get(t));
            if pt != 0.0 {
                for (ga, &i) in gf.iter_mut().zip(&free) {
                    *ga += pt * col[i];
                }
            }
        }
        let (mut d, mut beta) = saddle(&gf.iter().map(|v| -v).collect::<Vec<_>>());
        if delta > 0.0 {
            for _ in 0..3 {
                let qd = f.q_mul(&d);
                let r: Vec<f64> = (0..m).map(|a| -(gf[a] + beta * yf[a] + qd[a])).collect();
                let (e, gam) = saddle(&r);
                for (db, eb) in d.iter_mut().zip(&e) {
                    *db += eb;
                }
                beta += gam;
            }
        }
        if d.iter().any(|v| !v.is_finite()) || !beta.is_finite() {
            break;
        }
        // Longest step in [0, 1] inside the box.
        let mut tau = 1.0f64;
        let mut hit: Option<usize> = None;
        for a in 0..m {
            let ai = alpha[free[a]];
            let lim = if d[a] < 0.0 {
                -ai / d[a]
            } else if d[a] > 0.0 {
                (c - ai) / d[a]
            } else {
                f64::INFINITY
            };
            if lim < tau {
                tau = lim;
                hit = Some(a);
            }
        }
        if tau > 0.0 {
            for a in 0..m {
                let i = free[a];
                let old = alpha[i];
                alpha[i] = (old + tau * d[a]).clamp(0.0, c);
                if !is_touched[i] {
                    is_touched[i] = true;
                    touched.push(i);
                }
                pending[i] += alpha[i] - old;
            }
            moved = true;
        }
        if let Some(h) = hit {
            let i = free[h];
            let old = alpha[i];
            alpha[i] = if d[h] < 0.0 { 0.0 } else { c };
            if !is_touched[i] {
                is_touched[i] = true;
                touched.push(i);
            }
            pending[i] += alpha[i] - old;
            free.remove(h);
            if let Some(f) = fac.as_mut() {
                if !f.delete(h) {
                    fac = None;
                }
            }
            continue;
        }
        fac = None;
        // A full step: the free set is optimal; bring g up to date and add
        // the bounded violators.
        for &t in &touched {
            let (pt, col) = (pending[t], cols.get(t));
            if pt != 0.0 {
                for (gj, &q) in g.iter_mut().zip(col) {
                    *gj += pt * q;
                }
            }
            pending[t] = 0.0;
            is_touched[t] = false;
        }
        touched.clear();
        let mut viol: Vec<(f64, usize)> = (0..l)
            .filter_map(|i| {
                let r = g[i] + beta * f64::from(y[i]);
                let v = if alpha[i] <= 0.0 {
                    -r
                } else if alpha[i] >= c {
                    r
                } else {
                    return None;
                };
                (v > 0.5 * eps).then_some((v, i))
            })
            .collect();
        if viol.is_empty() {
            break;
        }
        viol.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let add = (m / 4).max(8);
        free.extend(viol.iter().take(add).map(|&(_, i)| i));
        free.sort_unstable();
    }
    (moved && feasible(&alpha, y, c)).then_some(alpha)
}

/// `|sum_i y_i a_i|` small enough for the solver's check.
fn feasible(alpha: &[f64], y: &[i8], c: f64) -> bool {
    let sum: f64 = alpha.iter().zip(y).map(|(&a, &s)| f64::from(s) * a).sum();
    sum.abs() <= 1e-9 * c.max(1.0)
}

/// Signed `Q` columns over the training rows (`Q_ij = y_i y_j K_ij`), from
/// the shared cache's single-precision columns when it holds them (what
/// SMO reads), else computed and rounded to single precision.
struct Columns<'a, 'k> {
    kd: &'a KernelData<'k>,
    rows: &'a [usize],
    y: &'a [i8],
    shared: Option<&'a SharedKernelCache>,
    cols: Vec<Option<Vec<f64>>>,
}

impl<'a, 'k> Columns<'a, 'k> {
    fn new(
        kd: &'a KernelData<'k>,
        rows: &'a [usize],
        y: &'a [i8],
        shared: Option<&'a SharedKernelCache>,
    ) -> Self {
        Columns {
            kd,
            rows,
            y,
            shared,
            cols: vec![None; rows.len()],
        }
    }

    fn ensure(&mut self, i: usize, ns: &mut NewtonStats) {
        if self.cols[i].is_some() {
            return;
        }
        let (rows, y) = (self.rows, self.y);
        let yi = f64::from(y[i]);
        let col: Vec<f64> = match self.shared.and_then(|sh| sh.get(rows[i])) {
            Some(k) => rows
                .iter()
                .zip(y)
                .map(|(&r, &yj)| yi * f64::from(yj) * f64::from(k[r]))
                .collect(),
            None => {
                ns.kernel_reads += rows.len() as u64;
                rows.iter()
                    .zip(y)
                    .map(|(&r, &yj)| {
                        yi * f64::from(yj) * f64::from(self.kd.eval(rows[i], r) as f32)
                    })
                    .collect()
            }
        };
        self.cols[i] = Some(col);
    }

    fn get(&self, i: usize) -> &[f64] {
        self.cols[i].as_deref().expect("column ensured")
    }
}
