//! Training a one-vs-one C-SVC as LIBSVM's `svm_train` does: one binary
//! problem per class pair `i < j` on the rows of classes `i` (`y = +1`) and
//! `j` (`y = -1`) in grouped order, with `C_i` and `C_j` weighted, solved by
//! the same SMO ([`crate::svm::smo`]); the pairs' solutions are laid out as
//! LIBSVM's model ([`MultiModel`]).

use rayon::prelude::*;

use super::groups::{weighted_c, ClassWeight, Groups};
use super::model::MultiModel;
use super::probability::{pair_probability, shuffle, PairProbability};
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::GlibcRand;
use crate::svm::error::SvmError;
use crate::svm::grid::newton::Warm;
use crate::svm::kernel::KernelData;
use crate::svm::model::params::CheckedParams;
use crate::svm::smo::solve_input::SolveInput;
use crate::svm::smo::solve_stats::{SolveOutput, SolveStats};

/// The solution of one class pair's problem.
#[derive(Clone, Debug)]
pub struct PairFit {
    /// The pair's classes `(i, j)`, `i < j`, in the labels' order.
    pub classes: (usize, usize),
    /// The solve's counters, objective and rho.
    pub stats: SolveStats,
    /// `sum(alpha) / (C l)`, which `svm-train` prints only where the two
    /// classes' C are equal (`None` otherwise).
    pub nu: Option<f64>,
    /// `y_k alpha_k` of the pair's rows: class `i`'s, then class `j`'s, in
    /// grouped order.
    pub coef: Vec<f64>,
    /// The probability fit (`-b 1`), made before the pair's solve.
    pub prob: Option<PairProbability>,
    /// Seconds its seeder took (0 for a solve from `alpha = 0`).
    pub seed_s: f64,
}

/// What [`train_ovo`] returns.
#[derive(Clone, Debug)]
pub struct OvoFit {
    /// The model.
    pub model: MultiModel,
    /// Each pair's solution, in LIBSVM's pair order.
    pub pairs: Vec<PairFit>,
    /// `svm-train`'s warnings for weights whose label is not in the
    /// training rows, in the order it prints them.
    pub warnings: Vec<String>,
}

impl OvoFit {
    /// SMO iterations of all pairs.
    pub fn iterations(&self) -> u64 {
        self.pairs.iter().map(|p| p.stats.iterations).sum()
    }

    /// Kernel evaluations of all pairs' solves.
    pub fn kernel_evals(&self) -> u64 {
        self.pairs.iter().map(|p| p.stats.kernel_evals).sum()
    }
}

/// The shuffles of the pairs' internal CVs for probability estimates, in
/// the order `svm-train` draws them from `rand()` (pair after pair).
pub fn probability_shuffles(groups: &Groups, rng: &mut GlibcRand) -> Vec<Vec<usize>> {
    groups
        .pairs()
        .into_iter()
        .map(|(i, j)| shuffle(groups.count[i] + groups.count[j], rng))
        .collect()
}

/// Solve the problem of class pair `(i, j)` of `groups` with the classes'
/// C `wc`; with `perm` (its internal CV's shuffle), fit its probability
/// sigmoid first (`-b 1`).
#[allow(clippy::too_many_arguments)]
pub fn solve_pair(
    kd: &KernelData<'_>,
    groups: &Groups,
    wc: &[f64],
    ij: (usize, usize),
    params: &CheckedParams,
    shared: Option<&SharedKernelCache>,
    perm: Option<&[usize]>,
) -> Result<PairFit, SvmError> {
    solve_pair_from(kd, groups, wc, ij, params, shared, perm, None).map(|(fit, _)| fit)
}

/// [`solve_pair`] from a feasible start `warm` (the pair's unsigned alphas
/// in its row order, class `i`'s then class `j`'s, with their `G` and
/// `G_bar` when known; `None`: from `alpha = 0`, LIBSVM's path), returning
/// the solver's output too (for the next warm start).
#[allow(clippy::too_many_arguments)]
pub fn solve_pair_from(
    kd: &KernelData<'_>,
    groups: &Groups,
    wc: &[f64],
    ij: (usize, usize),
    params: &CheckedParams,
    shared: Option<&SharedKernelCache>,
    perm: Option<&[usize]>,
    warm: Option<&Warm>,
) -> Result<(PairFit, SolveOutput), SvmError> {
    solve_pair_at(kd, groups, wc, ij, params, shared, perm, warm, None)
}

/// [`solve_pair_from`] where `kd` (and `shared`) may be of a subset of the
/// rows `groups` numbers: `at[r]` is row `r`'s row in `kd` (`None`: the
/// same rows). The pair's rows are the same rows in the same order with
/// the same features, so the solve is the same, value for value
/// ([`super::pair_blocks`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_pair_at(
    kd: &KernelData<'_>,
    groups: &Groups,
    wc: &[f64],
    (i, j): (usize, usize),
    params: &CheckedParams,
    shared: Option<&SharedKernelCache>,
    perm: Option<&[usize]>,
    warm: Option<&Warm>,
    at: Option<&[u32]>,
) -> Result<(PairFit, SolveOutput), SvmError> {
    let (ri, rj) = (groups.class_rows(i), groups.class_rows(j));
    let rows: Vec<u32> = ri
        .iter()
        .chain(rj)
        .map(|&r| at.map_or(r as u32, |at| at[r]))
        .collect();
    let y: Vec<i8> = std::iter::repeat_n(1i8, ri.len())
        .chain(std::iter::repeat_n(-1i8, rj.len()))
        .collect();
    let (c_pos, c_neg) = (wc[i], wc[j]);
    let prob = match perm {
        Some(perm) => Some(pair_probability(
            kd,
            &rows,
            &y,
            (c_pos, c_neg),
            params,
            shared,
            perm,
        )?),
        None => None,
    };
    let out = params.solver.solve(SolveInput {
        kd,
        rows: &rows,
        y: &y,
        c_pos,
        c_neg,
        eps: params.eps,
        shrinking: params.shrinking,
        cache_mb: params.cache_mb,
        max_iter: params.max_iter,
        alpha0: warm.map(|(a, _)| a.as_slice()),
        grad0: warm
            .and_then(|(_, g)| g.as_ref())
            .map(|(g, gb)| (g.as_slice(), gb.as_slice())),
        shared,
    })?;
    let sum_alpha: f64 = out.alpha.iter().sum();
    let nu = (c_pos == c_neg).then(|| sum_alpha / (c_pos * rows.len() as f64));
    let coef = out
        .alpha
        .iter()
        .zip(&y)
        .map(|(&a, &s)| f64::from(s) * a)
        .collect();
    Ok((
        PairFit {
            classes: (i, j),
            stats: out.stats.clone(),
            nu,
            coef,
            prob,
            seed_s: 0.0,
        },
        out,
    ))
}

/// Lay the pairs' solutions out as LIBSVM's model: a row is a support
/// vector when its coefficient is non-zero in any of its pairs; support
/// vectors grouped by class; pair `(i, j)`'s coefficients of class `i` in
/// column `j - 1`, of class `j` in column `i` (0 where a support vector of
/// that class is not one of this pair).
pub fn assemble(kd: &KernelData<'_>, groups: &Groups, pairs: &[PairFit]) -> MultiModel {
    let k = groups.nr_class();
    let mut nonzero = vec![false; groups.rows.len()];
    for p in pairs {
        let (i, j) = p.classes;
        let (si, sj, ci) = (groups.start[i], groups.start[j], groups.count[i]);
        for (t, &c) in p.coef.iter().enumerate() {
            if c != 0.0 {
                let at = if t < ci { si + t } else { sj + t - ci };
                nonzero[at] = true;
            }
        }
    }
    let nr_sv: Vec<usize> = (0..k)
        .map(|c| {
            let s = groups.start[c];
            nonzero[s..s + groups.count[c]]
                .iter()
                .filter(|&&b| b)
                .count()
        })
        .collect();
    let mut nz_start = vec![0usize; k];
    for c in 1..k {
        nz_start[c] = nz_start[c - 1] + nr_sv[c - 1];
    }
    let total: usize = nr_sv.iter().sum();
    let mut sv_coef = vec![vec![0.0; total]; k.saturating_sub(1)];
    for p in pairs {
        let (i, j) = p.classes;
        let (si, sj, ci) = (groups.start[i], groups.start[j], groups.count[i]);
        let mut q = nz_start[i];
        for t in 0..ci {
            if nonzero[si + t] {
                sv_coef[j - 1][q] = p.coef[t];
                q += 1;
            }
        }
        let mut q = nz_start[j];
        for t in 0..groups.count[j] {
            if nonzero[sj + t] {
                sv_coef[i][q] = p.coef[ci + t];
                q += 1;
            }
        }
    }
    let sv_rows: Vec<usize> = groups
        .rows
        .iter()
        .zip(&nonzero)
        .filter(|(_, &nz)| nz)
        .map(|(&r, _)| r)
        .collect();
    MultiModel {
        kernel: kd.kind,
        labels: groups.labels.clone(),
        nr_sv,
        sv: kd.ds.subset(&sv_rows, format!("{}-sv", kd.ds.name)),
        sv_rows,
        sv_coef,
        rho: pairs.iter().map(|p| p.stats.rho).collect(),
        prob: pairs
            .iter()
            .map(|p| p.prob.as_ref().map(|q| (q.a, q.b)))
            .collect::<Option<(Vec<f64>, Vec<f64>)>>()
            .filter(|_| !pairs.is_empty()),
    }
}

/// Train a one-vs-one C-SVC on `rows` of `kd`'s data (features assumed
/// finite), the pairs solved as parallel jobs of the current rayon pool
/// (each solve is the same whatever the thread count). With `prob_rng`
/// (`rand()`'s state), also probability estimates (`-b 1`).
pub fn train_ovo(
    kd: &KernelData<'_>,
    rows: &[usize],
    params: &CheckedParams,
    weights: &[ClassWeight],
    shared: Option<&SharedKernelCache>,
    prob_rng: Option<&mut GlibcRand>,
) -> Result<OvoFit, SvmError> {
    crate::svm::smo::solve_input::check_train_rows(rows, kd.ds.n())?;
    // Every row trained on, no cache given and the matrix within 3/4 of
    // -m: the matrix at once for every pair, each solve's own cache the
    // rest (the SMO's: the same solves, the same bits; the batched
    // solver's: matrix products, its optimum to the tolerance).
    if shared.is_none() && rows.len() == kd.ds.n() {
        let values = params.solver.matrix_values();
        if let Some(sh) = crate::svm::kernel::matrix::prefilled(kd, params.cache_mb, values) {
            let local = params.with_cache_mb(params.cache_mb * 0.25)?;
            return train_ovo(kd, rows, &local, weights, Some(&sh), prob_rng);
        }
    }
    let groups = Groups::new(&kd.ds, rows)?;
    let (wc, warnings) = weighted_c(params.c, &groups.labels, weights);
    let perms = prob_rng.map(|rng| probability_shuffles(&groups, rng));
    let pairs = groups
        .pairs()
        .into_par_iter()
        .enumerate()
        .map(|(p, ij)| {
            let perm = perms.as_ref().map(|v| v[p].as_slice());
            solve_pair(kd, &groups, &wc, ij, params, shared, perm)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let model = assemble(kd, &groups, &pairs);
    Ok(OvoFit {
        model,
        pairs,
        warnings,
    })
}
