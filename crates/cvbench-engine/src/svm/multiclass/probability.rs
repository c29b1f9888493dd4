//! LIBSVM's probability estimates for C-SVC (`svm-train -b 1`): per class
//! pair, decision values from an internal 5-fold CV on a `rand()` shuffle
//! (`svm_binary_svc_probability`), Platt's sigmoid fitted to them by
//! Newton's method with backtracking (`sigmoid_train`, Lin, Lin & Weng
//! 2007); at prediction, the pairs' sigmoids coupled into class
//! probabilities (`multiclass_probability`, method 2 of Wu, Lin & Weng
//! 2004). Every operation in LIBSVM 3.24's order, so that `probA`, `probB`
//! and the probabilities are `svm-train`'s and `svm-predict -b 1`'s. The
//! internal CV trains the caller's formulation (`svm_train` on the
//! sub-problem): C-SVC here ([`pair_probability`]), nu-SVC through
//! [`pair_probability_with`] and its own solve.

use crate::data::Row;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::GlibcRand;
use crate::svm::error::SvmError;
use crate::svm::kernel::{k_function, KernelData};
use crate::svm::model::params::CheckedParams;
use crate::svm::smo::solve_input::SolveInput;
use crate::svm::smo::solve_stats::SolveStats;

/// Folds of the internal cross-validation of each pair.
pub const PROB_FOLDS: usize = 5;

/// The shuffle of `l` rows that `svm_binary_svc_probability` draws from
/// `rand()` (`j = i + rand() % (l - i)`, swap).
pub fn shuffle(l: usize, rng: &mut GlibcRand) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..l).collect();
    for i in 0..l {
        let j = i + (rng.next_i32() % (l - i) as i32) as usize;
        perm.swap(i, j);
    }
    perm
}

/// One solve of a pair's internal cross-validation (`svm-train` prints its
/// lines and its `Total nSV`).
#[derive(Clone, Debug)]
pub struct InnerFit {
    /// The solve's counters, objective and rho.
    pub stats: SolveStats,
    /// `nu`, printed where both classes' C are equal (C-SVC).
    pub nu: Option<f64>,
    /// `C = 1/r`, printed by `solve_nu_svc` (nu-SVC; `None` for C-SVC).
    pub c: Option<f64>,
}

/// One sub-problem's solve for [`pair_probability_with`]: each row's
/// signed coefficient (`y_k alpha_k`, as the sub-model's `sv_coef`) and
/// the solve's printed numbers (its `stats.rho` the sub-model's rho).
pub type InnerSolve = (Vec<f64>, InnerFit);

/// What the probability fit of one pair gives.
#[derive(Clone, Debug)]
pub struct PairProbability {
    /// Platt's `A` (`probA`).
    pub a: f64,
    /// Platt's `B` (`probB`).
    pub b: f64,
    /// The internal CV's solves, in order.
    pub inner: Vec<InnerFit>,
    /// `sigmoid_train`'s messages (line search failure, iteration limit).
    pub notes: Vec<String>,
}

/// The internal 5-fold CV of one pair's problem (`rows` with `y = ±1`,
/// `C+ = cp`, `C- = cn`) on the shuffle `perm`, and the sigmoid fitted to
/// its decision values (`svm_binary_svc_probability`).
#[allow(clippy::too_many_arguments)]
pub fn pair_probability(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    (cp, cn): (f64, f64),
    params: &CheckedParams,
    shared: Option<&SharedKernelCache>,
    perm: &[usize],
) -> Result<PairProbability, SvmError> {
    pair_probability_with(kd, rows, y, perm, |srows, sy| {
        let out = params.solver.solve(SolveInput {
            kd,
            rows: srows,
            y: sy,
            c_pos: cp,
            c_neg: cn,
            eps: params.eps,
            shrinking: params.shrinking,
            cache_mb: params.cache_mb,
            max_iter: params.max_iter,
            alpha0: None,
            grad0: None,
            shared,
        })?;
        let sum_alpha: f64 = out.alpha.iter().sum();
        let nu = (cp == cn).then(|| sum_alpha / (cp * srows.len() as f64));
        let coef = out
            .alpha
            .iter()
            .zip(sy)
            .map(|(&a, &s)| f64::from(s) * a)
            .collect();
        Ok((
            coef,
            InnerFit {
                stats: out.stats,
                nu,
                c: None,
            },
        ))
    })
}

/// [`pair_probability`] with the sub-problems solved by `solve` (given
/// the sub-problem's dataset rows and `±1` labels, `+1` rows first): the
/// internal CV, its decision values (`svm_predict_values` of the
/// sub-model, its support vectors in row order) and the sigmoid.
pub fn pair_probability_with(
    kd: &KernelData<'_>,
    rows: &[u32],
    y: &[i8],
    perm: &[usize],
    mut solve: impl FnMut(&[u32], &[i8]) -> Result<InnerSolve, SvmError>,
) -> Result<PairProbability, SvmError> {
    let l = rows.len();
    let mut dec = vec![0.0; l];
    let mut inner = Vec::new();
    for f in 0..PROB_FOLDS {
        let (begin, end) = (f * l / PROB_FOLDS, (f + 1) * l / PROB_FOLDS);
        let sub: Vec<usize> = perm[..begin].iter().chain(&perm[end..]).copied().collect();
        let p_count = sub.iter().filter(|&&k| y[k] > 0).count();
        let n_count = sub.len() - p_count;
        let fixed = match (p_count, n_count) {
            (0, 0) => Some(0.0),
            (_, 0) => Some(1.0),
            (0, _) => Some(-1.0),
            _ => None,
        };
        if let Some(v) = fixed {
            for &k in &perm[begin..end] {
                dec[k] = v;
            }
            continue;
        }
        // svm_train on the sub-problem: +1 first (LIBSVM 3.24 swaps a
        // -1, +1 order), rows stable within a class.
        let order: Vec<usize> = sub
            .iter()
            .copied()
            .filter(|&k| y[k] > 0)
            .chain(sub.iter().copied().filter(|&k| y[k] < 0))
            .collect();
        let srows: Vec<u32> = order.iter().map(|&k| rows[k]).collect();
        let sy: Vec<i8> = order.iter().map(|&k| y[k]).collect();
        let (coef, fit) = solve(&srows, &sy)?;
        let svs: Vec<(usize, f64)> = coef
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0.0)
            .map(|(s, &c)| (srows[s] as usize, c))
            .collect();
        let rho = fit.stats.rho;
        for &k in &perm[begin..end] {
            let x = kd.ds.row(rows[k] as usize);
            let mut sum = 0.0;
            for &(r, c) in &svs {
                sum += c * k_function(kd.kind, x, kd.ds.row(r));
            }
            dec[k] = sum - rho;
        }
        inner.push(fit);
    }
    let labels: Vec<f64> = y.iter().map(|&v| f64::from(v)).collect();
    let (a, b, notes) = sigmoid_train(&dec, &labels);
    Ok(PairProbability { a, b, inner, notes })
}

/// Platt's sigmoid fitted to decision values and `±1` labels, as LIBSVM's
/// `sigmoid_train`; with its messages.
pub fn sigmoid_train(dec: &[f64], labels: &[f64]) -> (f64, f64, Vec<String>) {
    let l = dec.len();
    let prior1 = labels.iter().filter(|&&v| v > 0.0).count() as f64;
    let prior0 = l as f64 - prior1;
    let (max_iter, min_step, sigma, eps) = (100, 1e-10, 1e-12, 1e-5);
    let hi = (prior1 + 1.0) / (prior1 + 2.0);
    let lo = 1.0 / (prior0 + 2.0);
    let t: Vec<f64> = labels
        .iter()
        .map(|&v| if v > 0.0 { hi } else { lo })
        .collect();
    let (mut a, mut b) = (0.0, ((prior0 + 1.0) / (prior1 + 1.0)).ln());
    let f = |a: f64, b: f64| {
        let mut v = 0.0;
        for i in 0..l {
            let z = dec[i] * a + b;
            if z >= 0.0 {
                v += t[i] * z + (1.0 + (-z).exp()).ln();
            } else {
                v += (t[i] - 1.0) * z + (1.0 + z.exp()).ln();
            }
        }
        v
    };
    let mut fval = f(a, b);
    let mut notes = Vec::new();
    let mut iter = 0;
    while iter < max_iter {
        let (mut h11, mut h22, mut h21, mut g1, mut g2) = (sigma, sigma, 0.0, 0.0, 0.0);
        for i in 0..l {
            let z = dec[i] * a + b;
            let (p, q) = if z >= 0.0 {
                ((-z).exp() / (1.0 + (-z).exp()), 1.0 / (1.0 + (-z).exp()))
            } else {
                (1.0 / (1.0 + z.exp()), z.exp() / (1.0 + z.exp()))
            };
            let d2 = p * q;
            h11 += dec[i] * dec[i] * d2;
            h22 += d2;
            h21 += dec[i] * d2;
            let d1 = t[i] - p;
            g1 += dec[i] * d1;
            g2 += d1;
        }
        if g1.abs() < eps && g2.abs() < eps {
            break;
        }
        let det = h11 * h22 - h21 * h21;
        let da = -(h22 * g1 - h21 * g2) / det;
        let db = -(-h21 * g1 + h11 * g2) / det;
        let gd = g1 * da + g2 * db;
        let mut step = 1.0;
        while step >= min_step {
            let (na, nb) = (a + step * da, b + step * db);
            let nf = f(na, nb);
            if nf < fval + 0.0001 * step * gd {
                (a, b, fval) = (na, nb, nf);
                break;
            }
            step /= 2.0;
        }
        if step < min_step {
            notes.push("Line search fails in two-class probability estimates".into());
            break;
        }
        iter += 1;
    }
    if iter >= max_iter {
        notes.push("Reaching maximal iterations in two-class probability estimates".into());
    }
    (a, b, notes)
}

/// `P(y = +1 | f)` of Platt's sigmoid (LIBSVM's `sigmoid_predict`).
pub fn sigmoid_predict(dec: f64, a: f64, b: f64) -> f64 {
    let z = dec * a + b;
    if z >= 0.0 {
        (-z).exp() / (1.0 + (-z).exp())
    } else {
        1.0 / (1.0 + z.exp())
    }
}

/// Class probabilities from pairwise ones `r[i][j]` (LIBSVM's
/// `multiclass_probability`, method 2 of Wu, Lin & Weng).
pub fn multiclass_probability(r: &[Vec<f64>]) -> Vec<f64> {
    let k = r.len();
    let max_iter = 100.max(k);
    let eps = 0.005 / k as f64;
    let mut p = vec![1.0 / k as f64; k];
    let mut q = vec![vec![0.0; k]; k];
    for t in 0..k {
        for j in 0..t {
            q[t][t] += r[j][t] * r[j][t];
            q[t][j] = q[j][t];
        }
        for j in t + 1..k {
            q[t][t] += r[j][t] * r[j][t];
            q[t][j] = -r[j][t] * r[t][j];
        }
    }
    let mut qp = vec![0.0; k];
    for _ in 0..max_iter {
        let mut pqp = 0.0;
        for t in 0..k {
            qp[t] = 0.0;
            for j in 0..k {
                qp[t] += q[t][j] * p[j];
            }
            pqp += p[t] * qp[t];
        }
        let max_error = qp
            .iter()
            .map(|&v| (v - pqp).abs())
            .fold(0.0f64, |m, e| if e > m { e } else { m });
        if max_error < eps {
            break;
        }
        for t in 0..k {
            let diff = (-qp[t] + pqp) / q[t][t];
            p[t] += diff;
            pqp = (pqp + diff * (diff * q[t][t] + 2.0 * qp[t])) / (1.0 + diff) / (1.0 + diff);
            for j in 0..k {
                qp[j] = (qp[j] + diff * q[t][j]) / (1.0 + diff);
                p[j] /= 1.0 + diff;
            }
        }
    }
    p
}

impl super::MultiModel {
    /// The label and class probabilities of `x` (LIBSVM's
    /// `svm_predict_probability`); `None` for a model without `probA` /
    /// `probB`. (Index loops: LIBSVM's formulas, term for term.)
    #[allow(clippy::needless_range_loop)]
    pub fn predict_probability(&self, x: Row<'_>) -> Option<(f64, Vec<f64>)> {
        let (pa, pb) = self.prob.as_ref()?;
        let k = self.nr_class();
        let dec = self.decision_values(x);
        let min_prob = 1e-7;
        let mut r = vec![vec![0.0; k]; k];
        let mut p = 0;
        for i in 0..k {
            for j in i + 1..k {
                r[i][j] = sigmoid_predict(dec[p], pa[p], pb[p])
                    .max(min_prob)
                    .min(1.0 - min_prob);
                r[j][i] = 1.0 - r[i][j];
                p += 1;
            }
        }
        let probs = if k == 2 {
            vec![r[0][1], r[1][0]]
        } else {
            multiclass_probability(&r)
        };
        let mut best = 0;
        for c in 1..k {
            if probs[c] > probs[best] {
                best = c;
            }
        }
        Some((self.labels[best], probs))
    }
}
