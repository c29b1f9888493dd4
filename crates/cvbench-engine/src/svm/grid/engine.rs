//! Solving every (C, gamma) point of a grid with k-fold CV, reusing work.
//!
//! Reuse, each switchable ([`Reuse`]):
//! - **gamma blocks**: the squared distances ([`crate::svm::kernel::distances`]) are
//!   computed once; each gamma fills the whole kernel matrix (one `exp` per
//!   entry of one triangle, the other mirrored) into a
//!   [`SharedKernelCache`] that holds it whole and that every C and fold of that
//!   gamma reads; held-out rows are predicted from the same values with an
//!   error bound, and from LIBSVM's prediction kernel where the bound
//!   leaves a label unsure ([`predict_rows`]). Bit-identical to computing
//!   from scratch (tested), so the rates are exactly those of `svm-train
//!   -v`. Used only when
//!   [`crate::svm::kernel::distances::bytes_needed`] fits the memory budget.
//! - **C path**: at a fixed gamma and fold, the points are solved in
//!   increasing C, each warm started from the previous optimum scaled by
//!   `t = C'/C`: `alpha' = t alpha`, `G' = t (G + e) - e`, `G_bar' = t G_bar`
//!   (exact in exact arithmetic; no kernel evaluation), then SMO to the
//!   usual stopping rule. Reaches the same optimum within the stopping
//!   tolerance, so a held-out row near the boundary may flip.
//! - **Newton steps** ([`super::newton`]): each solve runs SMO in rounds
//!   with an active-set Newton step on the free variables between them;
//!   the last round meets LIBSVM's stopping rule. Cuts the large-C points'
//!   millions of iterations to thousands.
//! - **fold seeding**: each point runs the seeded CV of
//!   [`crate::svm::cv::seeded`] (alpha seeding across folds). Exclusive with
//!   the two above (the seeded CV builds its own kernel cache).
//! - **threads**: independent solves (folds, chains) on the current rayon
//!   pool. Each solve is single-threaded and results are collected in a
//!   fixed order, so every number except the seconds is the same for any
//!   thread count.
//!
//! Points are processed in units (all points of one gamma, or a chunk of
//! points; gammas largest first, as many at a time as there are threads and
//! memory for, by [`super::schedule`]), and each finished unit is handed to
//! a sink, its points in the caller's order, so a caller can stream results
//! (and resume after a kill).

use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::newton::{train_newton, Warm};
use super::reuse::Reuse;
use super::schedule::run_in_order;
use super::warm::scale_warm;
use crate::data::Dataset;
use crate::svm::cache::SharedKernelCache;
use crate::svm::cv::folds::Folds;
use crate::svm::cv::rounds::{
    is_degenerate, near_boundary, predict_rows, predict_rows_with_label_sums,
};
use crate::svm::cv::seeded::SeededOptions;
use crate::svm::cv::seeded_cross_validate;
use crate::svm::kernel::distances::{bytes_needed, Distances};
use crate::svm::kernel::fold_order::{distances, fill_kernel, FoldOrder};
use crate::svm::kernel::{KernelData, KernelKind};
use crate::svm::model::solution::{check_finite_features, train_seeded, TrainOutput};
use crate::svm::seeding::SeedingMethod;
use crate::svm::{error::SvmError, model::params::SvmParams};

/// One fold of one grid point.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FoldStat {
    /// The held-out fold.
    pub fold: usize,
    /// Held-out rows.
    pub n_test: usize,
    /// Correctly predicted held-out rows.
    pub correct: usize,
    /// SMO iterations of the fold's solve.
    pub iterations: u64,
    /// Kernel evaluations of the solve (diagonal and columns it computed).
    pub kernel_evals: u64,
    /// Wall-clock seconds of the solve and the prediction.
    pub seconds: f64,
    /// Whether the solve started from a warm start.
    pub warm: bool,
    /// Newton steps on the free set ([`super::newton`]; 0 without).
    #[serde(default)]
    pub newton_steps: u64,
}

/// One grid point's cross-validation.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PointResult {
    /// C.
    pub c: f64,
    /// gamma (ignored by a linear kernel).
    pub gamma: f64,
    /// Correct held-out predictions over all folds.
    pub correct: usize,
    /// Rows.
    pub n: usize,
    /// Per fold, in fold order.
    pub folds: Vec<FoldStat>,
    /// Iterations of solves that are not rounds (the seeded CV's tree nodes).
    pub extra_iterations: u64,
    /// Kernel evaluations outside the rounds' solves (tree nodes, seeders).
    pub extra_kernel_evals: u64,
}

impl PointResult {
    /// `100 * correct / n`.
    pub fn accuracy_pct(&self) -> f64 {
        100.0 * self.correct as f64 / self.n as f64
    }

    /// SMO iterations of every solve of this point.
    pub fn iterations(&self) -> u64 {
        self.folds.iter().map(|f| f.iterations).sum::<u64>() + self.extra_iterations
    }

    /// Kernel evaluations of every solve of this point.
    pub fn kernel_evals(&self) -> u64 {
        self.folds.iter().map(|f| f.kernel_evals).sum::<u64>() + self.extra_kernel_evals
    }

    /// Seconds summed over folds (CPU-like: parallel folds add up).
    pub fn seconds(&self) -> f64 {
        self.folds.iter().map(|f| f.seconds).sum()
    }
}

/// Whole-grid costs outside the per-point solves.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridCost {
    /// Whether gamma blocks were used (asked for and within the budget).
    pub gamma_blocks_used: bool,
    /// Why gamma blocks were not used when asked for.
    pub gamma_blocks_note: Option<String>,
    /// Row pairs whose distances were computed (once).
    pub distance_pairs: u64,
    /// Kernel values filled from distances (`n^2` per gamma).
    pub kernel_fills: u64,
    /// Seconds spent on distances and kernel fills.
    pub block_seconds: f64,
    /// Wall-clock seconds of the whole run.
    pub wall_seconds: f64,
}

/// Settings of a grid run.
#[derive(Clone, Debug)]
pub struct GridOptions {
    /// Which reuse is on.
    pub reuse: Reuse,
    /// Memory budget in MB for the gamma blocks.
    pub memory_mb: f64,
    /// Seed of the seeders' random choices (fold seeding only).
    pub seed: u64,
    /// Distance blocks of this dataset computed earlier (by
    /// [`Distances::new`] on it, or, faster to read, by
    /// [`crate::svm::kernel::fold_order::distances`] with the same folds), reused instead of computed:
    /// a caller that runs a grid in parts shares them across the parts.
    pub distances: Option<Arc<Distances>>,
}

/// Cross-validate every point `(C, gamma)` of `points` with `folds`, the
/// other settings from `base` (its kernel decides RBF or linear). `sink`
/// receives each finished point as `(index into points, result)`, unit by
/// unit, in increasing index within a unit, on the calling thread. Returns
/// the whole-grid costs.
pub fn run_grid(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[(f64, f64)],
    opts: &GridOptions,
    sink: &mut dyn FnMut(usize, PointResult) -> Result<(), SvmError>,
) -> Result<GridCost, SvmError> {
    let t0 = Instant::now();
    opts.reuse.check().map_err(SvmError::InvalidParam)?;
    folds.check_for(ds)?;
    check_finite_features(ds)?;
    for &(c, g) in points {
        params_at(base, c, g).validate()?;
    }
    let rbf = matches!(base.kernel, KernelKind::Rbf { .. });
    let mut cost = GridCost::default();
    let ctx = Ctx {
        ds,
        folds,
        base,
        reuse: &opts.reuse,
    };

    if let Some(method) = opts.reuse.fold_seeding {
        let chunk = if opts.reuse.threads {
            rayon::current_num_threads().max(1) * 2
        } else {
            1
        };
        let idx: Vec<usize> = (0..points.len()).collect();
        for unit in idx.chunks(chunk) {
            let run = |&i: &usize| ctx.seeded_point(points[i], method, opts.seed);
            let res: Vec<Result<PointResult, SvmError>> = if opts.reuse.threads {
                unit.par_iter().map(run).collect()
            } else {
                unit.iter().map(run).collect()
            };
            for (&i, r) in unit.iter().zip(res) {
                sink(i, r?)?;
            }
        }
        cost.wall_seconds = t0.elapsed().as_secs_f64();
        return Ok(cost);
    }

    // From here on the rows are in fold order (the same solves, read from
    // contiguous memory); distances a caller passed in may be in another
    // order, which `fill_kernel` maps.
    let order = FoldOrder::new(ds, folds);
    let ctx = Ctx {
        ds: &order.ds,
        folds: &order.folds,
        ..ctx
    };
    // Units: the points of one gamma, in order of first appearance.
    let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
    for (i, &(_, g)) in points.iter().enumerate() {
        let key = if rbf { g.to_bits() } else { 0 };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(i),
            None => groups.push((key, vec![i])),
        }
    }

    let n = ds.n();
    let budget = opts.memory_mb * (1u64 << 20) as f64;
    let blocks_fit = bytes_needed(n, 1) <= budget;
    let dist = if opts.reuse.gamma_blocks && rbf && blocks_fit && !points.is_empty() {
        cost.gamma_blocks_used = true;
        match opts.distances.as_ref().filter(|d| d.n == n) {
            Some(d) => Some(Arc::clone(d)),
            None => {
                let tb = Instant::now();
                let d = distances(&order, base.kernel, opts.reuse.threads);
                cost.distance_pairs = d.pairs;
                cost.block_seconds += tb.elapsed().as_secs_f64();
                Some(Arc::new(d))
            }
        }
    } else {
        if opts.reuse.gamma_blocks {
            cost.gamma_blocks_note = Some(if !rbf {
                "linear kernel: no gamma".into()
            } else {
                format!(
                    "{n} rows need {:.0} MB for the distance blocks, more than the budget of {} MB",
                    bytes_needed(n, 1) / (1u64 << 20) as f64,
                    opts.memory_mb
                )
            });
        }
        None
    };

    // With threads, several gammas at a time (each with its own kernel
    // matrix, as many as fit the budget beside the distances), so that long
    // chains of different gammas share the cores.
    let mut width = if opts.reuse.threads {
        rayon::current_num_threads().clamp(1, 4)
    } else {
        1
    };
    while dist.is_some() && width > 1 && bytes_needed(n, width) > budget {
        width -= 1;
    }
    // Finished gammas' matrix buffers, for the next gammas to fill (a fresh
    // n x n buffer per gamma would be paged in anew).
    let spare: std::sync::Mutex<Vec<Vec<f32>>> = std::sync::Mutex::new(Vec::new());
    let one_group = |members: &Vec<usize>| -> Result<GroupDone, SvmError> {
        let gamma = points[members[0]].1;
        let params = params_at(base, points[members[0]].0, gamma);
        let kd = KernelData::new(ctx.ds, params.kernel);
        let tb = Instant::now();
        let shared = dist.as_ref().map(|d| {
            let buf = spare
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .pop()
                .unwrap_or_default();
            fill_kernel(d, gamma, &order.perm, opts.reuse.threads, buf)
        });
        let (fills, fill_s) = if shared.is_some() {
            ((n as u64) * (n as u64), tb.elapsed().as_secs_f64())
        } else {
            (0, 0.0)
        };
        let unit = Unit {
            kd: &kd,
            shared: shared.as_ref(),
            gamma,
        };
        let results = if opts.reuse.c_path {
            ctx.c_path_unit(&unit, points, members)?
        } else {
            ctx.independent_unit(&unit, points, members)?
        };
        if let Some(m) = shared.and_then(SharedKernelCache::into_matrix) {
            spare.lock().unwrap_or_else(|e| e.into_inner()).push(m);
        }
        Ok((results, fills, fill_s))
    };
    // The largest gammas first: they have the most support vectors and the
    // longest solves, and started last they would leave a core idle.
    let mut by_cost: Vec<usize> = (0..groups.len()).collect();
    by_cost.sort_by(|&a, &b| {
        let gamma = |g: usize| points[groups[g].1[0]].1;
        gamma(b).total_cmp(&gamma(a)).then(a.cmp(&b))
    });
    let job = |j: usize| one_group(&groups[by_cost[j]].1);
    run_in_order(groups.len(), width, &job, &mut |_, done| {
        let (results, fills, fill_s) = done;
        cost.kernel_fills += fills;
        cost.block_seconds += fill_s;
        for (i, r) in results {
            sink(i, r)?;
        }
        Ok(())
    })?;
    cost.wall_seconds = t0.elapsed().as_secs_f64();
    Ok(cost)
}

/// A gamma group's points, kernel values filled and seconds spent filling.
type GroupDone = (Vec<(usize, PointResult)>, u64, f64);

/// `base` with C and (for every kernel but the linear one) gamma set.
pub fn params_at(base: &SvmParams, c: f64, gamma: f64) -> SvmParams {
    let mut p = base.clone();
    p.c = c;
    p.kernel = p.kernel.with_gamma(gamma);
    p
}

struct Ctx<'a> {
    ds: &'a Dataset,
    folds: &'a Folds,
    base: &'a SvmParams,
    reuse: &'a Reuse,
}

struct Unit<'a, 'k> {
    kd: &'a KernelData<'k>,
    /// The whole kernel matrix of this gamma (gamma blocks), or none.
    shared: Option<&'a SharedKernelCache>,
    gamma: f64,
}

impl Ctx<'_> {
    /// One fold's solve (from `warm` if given) and prediction.
    fn solve_fold(
        &self,
        u: &Unit<'_, '_>,
        h: usize,
        train_rows: &[usize],
        params: &SvmParams,
        warm: Option<&Warm>,
    ) -> Result<(FoldStat, TrainOutput), SvmError> {
        let t = Instant::now();
        let (out, newton_steps) = if self.reuse.newton {
            let (o, ns) = train_newton(u.kd, train_rows, params, warm.cloned(), u.shared)?;
            (o, ns.steps)
        } else {
            let w = warm.map(|(a, g)| {
                (
                    a.as_slice(),
                    g.as_ref().map(|(g, gb)| (g.as_slice(), gb.as_slice())),
                )
            });
            (
                train_seeded(u.kd, train_rows, &params.check()?, w, u.shared)?,
                0,
            )
        };
        let test = self.folds.test_rows(h);
        let (mut labels, _, sums) =
            predict_rows_with_label_sums(u.kd, &out.model, test, None, u.shared);
        let (mut out, mut extra) = (out, (0u64, 0u64));
        // A warm-started or Newton solve reaches the optimum within LIBSVM's
        // tolerance by another path: a held-out row whose decision value is
        // within `eps` of 0 may get the other label. Where that is true of
        // so many rows that the labels are the path's rather than the
        // model's (a degenerate problem: on madelon at gamma = 2^-1 the
        // kernel is nearly the identity and every decision value is about
        // 1e-16), the fold is solved again by LIBSVM's own path.
        if warm.is_some() || self.reuse.newton {
            let near = near_boundary(&out.model, &sums, params.eps);
            if is_degenerate(near, test.len()) {
                let cold = train_seeded(u.kd, train_rows, &params.check()?, None, u.shared)?;
                extra = (out.stats.iterations, out.stats.kernel_evals);
                labels = predict_rows(u.kd, &cold.model, test, None, u.shared).0;
                out = cold;
            }
        }
        let correct = test
            .iter()
            .zip(&labels)
            .filter(|&(&r, &l)| l == self.ds.y[r])
            .count();
        Ok((
            FoldStat {
                fold: h,
                n_test: test.len(),
                correct,
                iterations: out.stats.iterations + extra.0,
                kernel_evals: out.stats.kernel_evals + extra.1,
                seconds: t.elapsed().as_secs_f64(),
                warm: warm.is_some(),
                newton_steps,
            },
            out,
        ))
    }

    fn point(&self, c: f64, gamma: f64, folds: Vec<FoldStat>) -> PointResult {
        PointResult {
            c,
            gamma,
            correct: folds.iter().map(|f| f.correct).sum(),
            n: self.ds.n(),
            folds,
            extra_iterations: 0,
            extra_kernel_evals: 0,
        }
    }

    /// Every (point, fold) of the unit from `alpha = 0`.
    fn independent_unit(
        &self,
        u: &Unit<'_, '_>,
        points: &[(f64, f64)],
        members: &[usize],
    ) -> Result<Vec<(usize, PointResult)>, SvmError> {
        let k = self.folds.k();
        let tasks: Vec<(usize, usize)> = members
            .iter()
            .flat_map(|&i| (0..k).map(move |h| (i, h)))
            .collect();
        let run = |&(i, h): &(usize, usize)| -> Result<FoldStat, SvmError> {
            let params = params_at(self.base, points[i].0, u.gamma);
            let rows = self.folds.train_rows(h);
            Ok(self.solve_fold(u, h, &rows, &params, None)?.0)
        };
        let stats: Vec<Result<FoldStat, SvmError>> = if self.reuse.threads {
            tasks.par_iter().map(run).collect()
        } else {
            tasks.iter().map(run).collect()
        };
        let mut it = stats.into_iter();
        let mut out = Vec::with_capacity(members.len());
        for &i in members {
            let fs: Vec<FoldStat> = it.by_ref().take(k).collect::<Result<_, _>>()?;
            out.push((i, self.point(points[i].0, u.gamma, fs)));
        }
        Ok(out)
    }

    /// Per fold, the unit's points in increasing C, each warm started from
    /// the previous one's scaled optimum.
    fn c_path_unit(
        &self,
        u: &Unit<'_, '_>,
        points: &[(f64, f64)],
        members: &[usize],
    ) -> Result<Vec<(usize, PointResult)>, SvmError> {
        let mut order: Vec<usize> = members.to_vec();
        order.sort_by(|&a, &b| points[a].0.total_cmp(&points[b].0).then(a.cmp(&b)));
        let k = self.folds.k();
        let chain = |h: usize| -> Result<Vec<FoldStat>, SvmError> {
            let rows = self.folds.train_rows(h);
            let mut prev: Option<(f64, TrainOutput)> = None;
            let mut out = Vec::with_capacity(order.len());
            for &i in &order {
                let c = points[i].0;
                let params = params_at(self.base, c, u.gamma);
                let warm = prev.as_ref().and_then(|(c0, p)| scale_warm(p, *c0, c));
                let (st, sol) = self.solve_fold(u, h, &rows, &params, warm.as_ref())?;
                out.push(st);
                prev = Some((c, sol));
            }
            Ok(out)
        };
        let chains: Vec<Result<Vec<FoldStat>, SvmError>> = if self.reuse.threads {
            (0..k).into_par_iter().map(chain).collect()
        } else {
            (0..k).map(chain).collect()
        };
        let chains: Vec<Vec<FoldStat>> = chains.into_iter().collect::<Result<_, _>>()?;
        let mut out: Vec<(usize, PointResult)> = order
            .iter()
            .enumerate()
            .map(|(pos, &i)| {
                let fs = chains.iter().map(|ch| ch[pos].clone()).collect();
                (i, self.point(points[i].0, u.gamma, fs))
            })
            .collect();
        out.sort_by_key(|(i, _)| *i);
        Ok(out)
    }

    /// One point by the seeded CV.
    fn seeded_point(
        &self,
        (c, gamma): (f64, f64),
        method: SeedingMethod,
        seed: u64,
    ) -> Result<PointResult, SvmError> {
        let params = params_at(self.base, c, gamma);
        let r = seeded_cross_validate(
            self.ds,
            self.folds,
            &params,
            &SeededOptions {
                method,
                shared_cache_mb: None,
                parallel: false,
                seed,
            },
        )?;
        let folds: Vec<FoldStat> =
            r.cv.rounds
                .iter()
                .map(|rd| FoldStat {
                    fold: rd.fold,
                    n_test: rd.n_test,
                    correct: rd.correct,
                    iterations: rd.stats.iterations,
                    kernel_evals: rd.stats.kernel_evals,
                    seconds: rd.seed_s
                        + rd.stats.timings.init_s
                        + rd.stats.timings.train_s
                        + rd.stats.timings.predict_s,
                    warm: rd.seed_s > 0.0,
                    newton_steps: 0,
                })
                .collect();
        let mut p = self.point(c, gamma, folds);
        p.extra_iterations = r.extra.iter().map(|e| e.stats.iterations).sum();
        p.extra_kernel_evals = r.extra.iter().map(|e| e.stats.kernel_evals).sum::<u64>()
            + r.cv
                .total_kernel_evals
                .saturating_sub(r.cv.rounds.iter().map(|x| x.stats.kernel_evals).sum());
        Ok(p)
    }
}
