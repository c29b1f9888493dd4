//! ATO, Adjusting alpha Towards Optimum (Wen et al. 2017, eq. 7, 10, 11,
//! Algorithm 1), a path-following method in the manner of Karasuyama &
//! Takeuchi (2009).
//!
//! The problem holds `S ∪ R ∪ T` with `alpha_T = 0`. Each step moves along
//!
//! ```text
//!   Δalpha_T = η (C 1 - alpha_T),   Δalpha_R = -η alpha_R          (eq. 7)
//! ```
//!
//! while the free SVs `M` stay optimal (`f_i = b` for `i ∈ M`) and the
//! equality constraint holds, which fixes `Δalpha_M` and `Δb` through
//!
//! ```text
//!   [ 0    y_M^T  ] [ -Δb      ]     [ y_T^T Δalpha_T + y_R^T Δalpha_R ]
//!   [ y_M  Q_{MM} ] [ Δalpha_M ] = - [ Q_{MT} Δalpha_T + Q_{MR} Δalpha_R ]   (eq. 10)
//! ```
//!
//! (LU, or the pseudo-inverse when singular). The step `η` is the first
//! breakpoint (eq. 11): a free SV reaching 0 or `C` (it leaves `M`), a
//! bounded row whose `f_i` reaches `b` (it joins `M`), or a joining row `t`
//! whose `f_t` reaches `b` (it stops rising and joins `M`); `η = 1` ends
//! the path (`alpha_R = 0`, the remaining `alpha_T = C`). A joining row
//! already optimal at 0 (`y_t (f_t - b) >= 0`) joins at 0 at once. The loop
//! ends when `R` is empty; SMO takes it from there.
//!
//! Simplifications, stated: with no free SV the equality constraint cannot
//! be kept along the path and is restored at the end by the MIR adjustment;
//! after `max_events` breakpoints (default `10 (|T| + |R|) + 100`) the path is
//! cut: the remaining `alpha_R` drop to 0 and the adjustment restores the
//! equality. Either way the seed is feasible and SMO reaches the optimum.

use std::collections::HashMap;

use faer::linalg::solvers::Solve;
use faer::Mat;

use super::adjust::restore_equality;
use super::linalg::pinv_solve;
use super::round::{indicators, Round, SeedContext, Seeder};
use crate::svm::error::SvmError;

/// The ATO seeder.
#[derive(Clone, Copy, Debug, Default)]
pub struct AtoSeeder {
    /// Breakpoints before the path is cut (`None`: `10 (|T| + |R|) + 100`).
    pub max_events: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// In the next training set (`S`, or a joining row that has settled).
    Member,
    /// A joining row whose alpha is rising.
    Rising,
    /// A leaving row whose alpha is falling.
    Falling,
    /// A leaving row at 0, gone.
    Gone,
}

enum Event {
    End,
    LeaveM(usize),
    JoinM(usize),
}

struct Path<'c, 'k> {
    ctx: &'c SeedContext<'k>,
    rows: Vec<usize>,
    cols: HashMap<usize, Vec<f64>>,
}

impl Path<'_, '_> {
    /// Column `u` of `Q` over the union (`y_v y_u K(x_v, x_u)`), cached.
    fn col(&mut self, u: usize) -> &[f64] {
        let (ctx, rows) = (self.ctx, &self.rows);
        self.cols.entry(u).or_insert_with(|| {
            let ru = rows[u];
            rows.iter()
                .map(|&rv| f64::from(ctx.y[rv] * ctx.y[ru]) * ctx.kd.eval(rv, ru))
                .collect()
        })
    }
}

fn solve_m(sys: &Mat<f64>, rhs: &[f64]) -> Vec<f64> {
    let m = rhs.len();
    let b = Mat::from_fn(m, 1, |i, _| rhs[i]);
    let x = sys.partial_piv_lu().solve(&b);
    let out: Vec<f64> = (0..m).map(|i| x[(i, 0)]).collect();
    let resid = (0..m)
        .map(|i| ((0..m).map(|j| sys[(i, j)] * out[j]).sum::<f64>() - rhs[i]).abs())
        .fold(0.0f64, f64::max);
    let scale = rhs.iter().fold(1.0f64, |a, v| a.max(v.abs()));
    if out.iter().all(|v| v.is_finite()) && resid <= 1e-8 * scale {
        out
    } else {
        pinv_solve(sys, rhs)
    }
}

impl Seeder for AtoSeeder {
    fn seed(&self, round: &Round<'_>) -> Result<Vec<f64>, SvmError> {
        let Round { ctx, prev, tr } = *round;
        let n = ctx.kd.ds.n();
        let c = ctx.c;
        let (f_prev, mut b) = indicators(ctx, prev);
        let mut leaving = vec![false; n];
        for &r in tr.removed {
            leaving[r] = true;
        }
        // The union S ∪ R ∪ T, with alpha, f and a role per row.
        let mut rows: Vec<usize> = prev.rows.to_vec();
        rows.extend_from_slice(tr.added);
        let np = prev.rows.len();
        let mut alpha: Vec<f64> = prev.alpha.to_vec();
        alpha.resize(rows.len(), 0.0);
        let mut f = f_prev;
        let svs: Vec<usize> = (0..np).filter(|&k| prev.alpha[k] > 0.0).collect();
        for &t in tr.added {
            let s: f64 = svs
                .iter()
                .map(|&k| {
                    let j = prev.rows[k];
                    f64::from(ctx.y[j]) * prev.alpha[k] * ctx.kd.eval(j, t)
                })
                .sum();
            f.push(s - f64::from(ctx.y[t]));
        }
        let y: Vec<f64> = rows.iter().map(|&r| f64::from(ctx.y[r])).collect();
        let mut role: Vec<Role> = (0..rows.len())
            .map(|u| {
                if u >= np {
                    if y[u] * (f[u] - b) >= 0.0 {
                        Role::Member
                    } else {
                        Role::Rising
                    }
                } else if leaving[rows[u]] {
                    if alpha[u] > 0.0 {
                        Role::Falling
                    } else {
                        Role::Gone
                    }
                } else {
                    Role::Member
                }
            })
            .collect();
        let is_free = |a: f64| a > 0.0 && a < c;
        let mut m_set: Vec<usize> = (0..rows.len())
            .filter(|&u| role[u] == Role::Member && is_free(alpha[u]))
            .collect();
        let mut path = Path {
            ctx,
            rows,
            cols: HashMap::new(),
        };
        let nu = path.rows.len();
        let max_events = self
            .max_events
            .unwrap_or(10 * (tr.added.len() + tr.removed.len()) + 100);
        let mut events = 0;
        while events < max_events {
            let act: Vec<usize> = (0..nu)
                .filter(|&u| matches!(role[u], Role::Rising | Role::Falling))
                .collect();
            if !act.iter().any(|&u| role[u] == Role::Falling) {
                break;
            }
            let d: Vec<f64> = act
                .iter()
                .map(|&u| {
                    if role[u] == Role::Rising {
                        c - alpha[u]
                    } else {
                        -alpha[u]
                    }
                })
                .collect();
            // e_v = sum_u Q_vu d_u over the moving rows.
            let mut e = vec![0.0; nu];
            for (&u, &du) in act.iter().zip(&d) {
                let col = path.col(u);
                for (ev, &q) in e.iter_mut().zip(col) {
                    *ev += q * du;
                }
            }
            let yd: f64 = act.iter().zip(&d).map(|(&u, &du)| y[u] * du).sum();
            // eq. 10 for (-Δb, Δalpha_M).
            let mm = m_set.len();
            let mut sys = Mat::<f64>::zeros(mm + 1, mm + 1);
            for (j, &uj) in m_set.iter().enumerate() {
                sys[(0, j + 1)] = y[uj];
                sys[(j + 1, 0)] = y[uj];
                let col = path.col(uj).to_vec();
                for (i, &ui) in m_set.iter().enumerate() {
                    sys[(i + 1, j + 1)] = col[ui];
                }
            }
            let mut rhs = vec![-yd];
            rhs.extend(m_set.iter().map(|&u| -e[u]));
            let x = if mm > 0 {
                solve_m(&sys, &rhs)
            } else {
                vec![0.0]
            };
            let db = -x[0];
            let da: Vec<f64> = x[1..].to_vec();
            // Δf_v = y_v (sum_{j in M} Q_vj Δalpha_j + e_v) for the non-free rows.
            let mut df = e.clone();
            for (&uj, &daj) in m_set.iter().zip(&da) {
                if daj != 0.0 {
                    let col = path.col(uj);
                    for (v, &q) in df.iter_mut().zip(col) {
                        *v += q * daj;
                    }
                }
            }
            for (v, dv) in df.iter_mut().enumerate() {
                *dv *= y[v];
            }
            // eq. 11: the first breakpoint.
            let (mut eta, mut ev) = (1.0, Event::End);
            for (&u, &dau) in m_set.iter().zip(&da) {
                let s = if dau > 1e-15 {
                    (c - alpha[u]) / dau
                } else if dau < -1e-15 {
                    -alpha[u] / dau
                } else {
                    continue;
                };
                if s < eta {
                    (eta, ev) = (s.max(0.0), Event::LeaveM(u));
                }
            }
            let in_m = {
                let mut v = vec![false; nu];
                for &u in &m_set {
                    v[u] = true;
                }
                v
            };
            for v in 0..nu {
                if in_m[v] || matches!(role[v], Role::Falling | Role::Gone) {
                    continue;
                }
                let g = f[v] - b;
                let dg = df[v] - db;
                // f_v - b moves toward 0 (a bounded row about to violate its
                // condition, or a rising row about to become free).
                let s = if g * dg < 0.0 {
                    -g / dg
                } else if g == 0.0 {
                    let violates = role[v] == Role::Rising
                        || (alpha[v] <= 0.0 && y[v] * dg < 0.0)
                        || (alpha[v] >= c && y[v] * dg > 0.0);
                    if violates {
                        0.0
                    } else {
                        continue;
                    }
                } else {
                    continue;
                };
                if s < eta {
                    (eta, ev) = (s, Event::JoinM(v));
                }
            }
            // Move.
            for (&u, &dau) in m_set.iter().zip(&da) {
                alpha[u] = (alpha[u] + eta * dau).clamp(0.0, c);
            }
            for (&u, &du) in act.iter().zip(&d) {
                alpha[u] = (alpha[u] + eta * du).clamp(0.0, c);
            }
            for v in 0..nu {
                f[v] += eta * df[v];
            }
            b += eta * db;
            events += 1;
            match ev {
                Event::End => {
                    for &u in &act {
                        if role[u] == Role::Falling {
                            alpha[u] = 0.0;
                            role[u] = Role::Gone;
                        } else {
                            alpha[u] = c;
                            role[u] = Role::Member;
                        }
                    }
                }
                Event::LeaveM(u) => {
                    alpha[u] = if alpha[u] > 0.5 * c { c } else { 0.0 };
                    m_set.retain(|&w| w != u);
                }
                Event::JoinM(v) => {
                    role[v] = Role::Member;
                    if !m_set.contains(&v) {
                        m_set.push(v);
                    }
                }
            }
        }
        // Next round's alphas, in its row order.
        let mut a_row = vec![f64::NAN; n];
        for u in 0..nu {
            if matches!(role[u], Role::Member | Role::Rising) {
                a_row[path.rows[u]] = alpha[u];
            }
        }
        let mut out: Vec<f64> = tr
            .next_rows
            .iter()
            .map(|&r| if a_row[r].is_nan() { 0.0 } else { a_row[r] })
            .collect();
        let mut is_t = vec![false; n];
        for &t in tr.added {
            is_t[t] = true;
        }
        let t_pos: Vec<usize> = (0..out.len()).filter(|&p| is_t[tr.next_rows[p]]).collect();
        let y_next: Vec<i8> = tr.next_rows.iter().map(|&r| ctx.y[r]).collect();
        restore_equality(&mut out, &y_next, c, &t_pos);
        Ok(out)
    }
}
