//! A (C, gamma) grid of one-vs-one cross-validations (`cvbench grid` on
//! more than two classes): every point's rate is `svm-train -c C -g G -v K`'s
//! on LIBSVM's folds. Reuse, as the binary grid's levels apply per class
//! pair ([`OvoGridOptions`]):
//! - **shared cache** (the `gamma` level): the points of one gamma share one
//!   kernel cache keyed by row ([`crate::svm::kernel::matrix::shared_cache`]): a column computed for
//!   one pair serves every pair, fold and C of that gamma. Exact (a cached
//!   value is the value the solve would compute).
//! - **C path** (`cpath`): a gamma's Cs are visited in increasing order and
//!   each (fold, pair) solve starts from the same (fold, pair)'s optimum at
//!   the previous C, scaled ([`scale_solution`](crate::svm::grid::warm::scale_solution), the binary grid's warm
//!   start). Reaches the same optimum within the stopping tolerance, so a
//!   held-out row near a boundary may get another vote.
//! - **threads**: the (fold, pair) solves of a point are jobs of the current
//!   rayon pool (off: one at a time); every number but the seconds is the
//!   same for any thread count.

use std::time::Instant;

use rayon::prelude::*;

use super::class_order::ClassOrder;
use super::cv::vote;
use super::groups::{weighted_c, Groups};
use super::train::{solve_pair_from, PairFit};
use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::grid::engine::params_at;
use crate::svm::grid::warm::{ray_solution, Optimum};
use crate::svm::grid::{FoldStat, PointResult, Reuse};
use crate::svm::kernel::{matrix, KernelData};
use crate::svm::model::params::CheckedParams;
use crate::svm::model::solution::check_finite_features;
use crate::svm::smo::solve_stats::SolveOutput;
use crate::svm::{error::SvmError, model::params::SvmParams};

/// Which reuse a one-vs-one grid applies (see the module's doc).
#[derive(Clone, Debug, PartialEq)]
pub struct OvoGridOptions {
    /// Budget in MB of each gamma's shared kernel cache.
    pub memory_mb: f64,
    /// One kernel cache per gamma shared by every pair, fold and C (off:
    /// each solve has its own `-m` cache, as LIBSVM's).
    pub shared_cache: bool,
    /// Warm start of each (fold, pair) along increasing C.
    pub c_path: bool,
    /// The (fold, pair) solves in parallel on the current rayon pool.
    pub threads: bool,
}

impl OvoGridOptions {
    /// Shared cache and threads, every solve from `alpha = 0` (exact).
    pub fn exact(memory_mb: f64) -> OvoGridOptions {
        OvoGridOptions {
            memory_mb,
            shared_cache: true,
            c_path: false,
            threads: true,
        }
    }

    /// The binary grid's reuse levels as they apply per class pair: `gamma`
    /// is the shared cache, `cpath` the C path, `threads` the threads;
    /// `newton` does not apply (the pairs are solved by LIBSVM's SMO alone).
    /// Fold seeding is refused (it is not built per pair in the grid).
    pub fn from_reuse(reuse: &Reuse, memory_mb: f64) -> Result<OvoGridOptions, SvmError> {
        if reuse.fold_seeding.is_some() {
            return Err(SvmError::InvalidParam(format!(
                "--reuse {}: fold seeding (`folds`) is not built for the one-vs-one grid (more than two classes); use none, all, or a list of gamma, cpath, threads",
                reuse.name()
            )));
        }
        Ok(OvoGridOptions {
            memory_mb,
            shared_cache: reuse.gamma_blocks,
            c_path: reuse.c_path,
            threads: reuse.threads,
        })
    }
}

/// Cross-validate each `(C, gamma)` of `points` (gamma ignored by the
/// linear kernel; the polynomial and sigmoid kernels keep `base`'s degree
/// and coef0) with every solve from `alpha = 0` ([`OvoGridOptions::exact`]).
pub fn run_grid_ovo(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[(f64, f64)],
    memory_mb: f64,
    sink: &mut dyn FnMut(usize, PointResult) -> Result<(), SvmError>,
) -> Result<(), SvmError> {
    run_grid_ovo_with(
        ds,
        folds,
        base,
        points,
        &OvoGridOptions::exact(memory_mb),
        sink,
    )
}

/// Cross-validate each `(C, gamma)` of `points` with the reuse of `opts`
/// and hand each result to `sink` with its index, gamma by gamma in order
/// of first appearance, a gamma's points in increasing index.
pub fn run_grid_ovo_with(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[(f64, f64)],
    opts: &OvoGridOptions,
    sink: &mut dyn FnMut(usize, PointResult) -> Result<(), SvmError>,
) -> Result<(), SvmError> {
    folds.check_for(ds)?;
    check_finite_features(ds)?;
    // The rows grouped by class: the same solves, cheaper reads
    // ([`ClassOrder`]; a point's results hold no row numbers).
    let order = ClassOrder::new(ds, folds);
    let folds = &order.folds(folds);
    let ds = &order.ds;
    let checked: Vec<CheckedParams> = points
        .iter()
        .map(|&(c, g)| params_at(base, c, g).check())
        .collect::<Result<_, _>>()?;
    let mut gammas: Vec<(u64, Vec<usize>)> = Vec::new();
    for (k, &(_, g)) in points.iter().enumerate() {
        match gammas.iter_mut().find(|(b, _)| *b == g.to_bits()) {
            Some((_, ks)) => ks.push(k),
            None => gammas.push((g.to_bits(), vec![k])),
        }
    }
    // Every fold's classes, and every (fold, pair) problem as one job.
    let groups: Vec<Groups> = (0..folds.k())
        .map(|h| Groups::new(ds, &folds.train_rows(h)))
        .collect::<Result<_, _>>()?;
    let jobs: Vec<(usize, (usize, usize))> = groups
        .iter()
        .enumerate()
        .flat_map(|(h, g)| g.pairs().into_iter().map(move |ij| (h, ij)))
        .collect();
    // Without threads, the solves one at a time (on a pool of one thread).
    let serial = if opts.threads {
        None
    } else {
        Some(crate::svm::cv::pool::build(1)?)
    };
    let path = Path {
        ds,
        folds,
        groups: &groups,
        jobs: &jobs,
        c_path: opts.c_path,
    };
    // Each gamma's matrix is written into the previous gamma's buffer (no
    // new gigabyte of pages to fault in and zero per gamma).
    let mut spare: Option<Vec<f32>> = None;
    for (_, ks) in gammas {
        let kd = KernelData::new(ds, checked[ks[0]].kernel);
        let reused = spare.take();
        let shared = opts.shared_cache.then(|| {
            let values = checked[ks[0]].solver.matrix_values();
            let fill = || matrix::shared_cache_into(&kd, opts.memory_mb, reused, values);
            match &serial {
                Some(pool) => pool.install(fill),
                None => fill(),
            }
        });
        let mut order = ks.clone();
        if opts.c_path {
            order.sort_by(|&a, &b| points[a].0.total_cmp(&points[b].0).then(a.cmp(&b)));
        }
        let mut states: Vec<Option<(f64, SolveOutput)>> = vec![None; jobs.len()];
        let mut results: Vec<(usize, PointResult)> = Vec::with_capacity(order.len());
        // The kernel matrix filled up front counts with the gamma's first point.
        let mut filled = shared.as_ref().map_or(0, |s| s.kernel_evals());
        for k in order {
            let mut step = || path.point(&kd, shared.as_ref(), &checked[k], &mut states);
            let mut r = match &serial {
                Some(pool) => pool.install(step),
                None => step(),
            }?;
            (r.c, r.gamma) = points[k];
            r.extra_kernel_evals += std::mem::take(&mut filled);
            results.push((k, r));
        }
        results.sort_by_key(|(k, _)| *k);
        for (k, r) in results {
            sink(k, r)?;
        }
        spare = shared.and_then(SharedKernelCache::into_matrix);
    }
    Ok(())
}

/// What one gamma's points share: the data, folds, each fold's classes and
/// the (fold, pair) jobs.
struct Path<'a> {
    ds: &'a Dataset,
    folds: &'a Folds,
    groups: &'a [Groups],
    jobs: &'a [(usize, (usize, usize))],
    c_path: bool,
}

impl Path<'_> {
    /// One point's CV: every (fold, pair) solve (warm started from `states`,
    /// the same job's last solve, with the C path; then updated), and each
    /// fold's vote.
    fn point(
        &self,
        kd: &KernelData<'_>,
        shared: Option<&SharedKernelCache>,
        params: &CheckedParams,
        states: &mut [Option<(f64, SolveOutput)>],
    ) -> Result<PointResult, SvmError> {
        let t0 = Instant::now();
        let shared_before = shared.map_or(0, |s| s.kernel_evals());
        let c = params.c;
        let solved = self
            .jobs
            .par_iter()
            .zip(states.par_iter_mut())
            .map(|(&(h, ij), state)| {
                let g = &self.groups[h];
                let wc = weighted_c(c, &g.labels, &[]).0;
                let warm = state.as_ref().and_then(|(c0, out)| {
                    let at = Optimum {
                        alpha: &out.alpha,
                        gradient: &out.gradient,
                        g_bar: &out.g_bar,
                        c: *c0,
                    };
                    ray_solution(at, c)
                });
                let (fit, out) =
                    solve_pair_from(kd, g, &wc, ij, params, shared, None, warm.as_ref())?;
                if self.c_path {
                    *state = Some((c, out));
                }
                Ok((fit, warm.is_some()))
            })
            .collect::<Result<Vec<(PairFit, bool)>, SvmError>>()?;
        let k = self.folds.k();
        let mut by_fold: Vec<Vec<PairFit>> = vec![Vec::new(); k];
        let mut warm = vec![false; k];
        for (&(h, _), (fit, w)) in self.jobs.iter().zip(solved) {
            by_fold[h].push(fit);
            warm[h] |= w;
        }
        let (fits, predictions, correct) = vote(
            kd,
            shared,
            self.folds,
            self.groups,
            by_fold,
            vec![Vec::new(); k],
        );
        let seconds = t0.elapsed().as_secs_f64() / k as f64;
        let fold_stats = fits
            .iter()
            .enumerate()
            .map(|(h, f)| {
                let test = self.folds.test_rows(h);
                FoldStat {
                    fold: h,
                    n_test: test.len(),
                    correct: test
                        .iter()
                        .filter(|&&r| predictions[r] == self.ds.y[r])
                        .count(),
                    iterations: f.pairs.iter().map(|p| p.stats.iterations).sum(),
                    kernel_evals: f.pairs.iter().map(|p| p.stats.kernel_evals).sum(),
                    seconds,
                    warm: warm[h],
                    newton_steps: 0,
                }
            })
            .collect();
        Ok(PointResult {
            c,
            gamma: 0.0,
            correct,
            n: self.ds.n(),
            folds: fold_stats,
            extra_iterations: 0,
            extra_kernel_evals: shared.map_or(0, |s| s.kernel_evals() - shared_before),
        })
    }
}
