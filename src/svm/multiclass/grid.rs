//! A (C, gamma) grid of one-vs-one cross-validations (`cvbench grid` on
//! more than two classes): every point's rate is `svm-train -c C -g G -v K`'s
//! on LIBSVM's folds. The points of one gamma share one kernel cache keyed
//! by row ([`ovo_shared_cache`]): a column computed for one pair serves
//! every pair, fold and C of that gamma.

use std::time::Instant;

use super::cv::{cv_with, ovo_shared_cache};
use crate::data::Dataset;
use crate::svm::folds::Folds;
use crate::svm::grid::engine::params_at;
use crate::svm::grid::{FoldStat, PointResult};
use crate::svm::kernel::KernelData;
use crate::svm::solution::check_finite_features;
use crate::svm::{SvmError, SvmParams};

/// Cross-validate each `(C, gamma)` of `points` (gamma ignored by the
/// linear kernel; the polynomial and sigmoid kernels keep `base`'s degree
/// and coef0) and hand each result to `sink` with its index, gamma by gamma
/// in order of first appearance. The gamma's shared cache gets `memory_mb`.
pub fn run_grid_ovo(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[(f64, f64)],
    memory_mb: f64,
    sink: &mut dyn FnMut(usize, PointResult) -> Result<(), SvmError>,
) -> Result<(), SvmError> {
    folds.validate()?;
    check_finite_features(ds)?;
    let checked: Vec<_> = points
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
    for (_, ks) in gammas {
        let kd = KernelData::new(ds, checked[ks[0]].kernel);
        let shared = ovo_shared_cache(ds.n(), memory_mb);
        for k in ks {
            let t0 = Instant::now();
            let res = cv_with(&kd, folds, &checked[k], &[], Some(&shared), None)?;
            let seconds = t0.elapsed().as_secs_f64() / folds.k() as f64;
            let fold_stats = res
                .folds
                .iter()
                .enumerate()
                .map(|(h, f)| {
                    let test = folds.test_rows(h);
                    FoldStat {
                        fold: h,
                        n_test: test.len(),
                        correct: test
                            .iter()
                            .filter(|&&r| res.predictions[r] == ds.y[r])
                            .count(),
                        iterations: f.pairs.iter().map(|p| p.stats.iterations).sum(),
                        kernel_evals: f.pairs.iter().map(|p| p.stats.kernel_evals).sum(),
                        seconds,
                        warm: false,
                        newton_steps: 0,
                    }
                })
                .collect();
            sink(
                k,
                PointResult {
                    c: points[k].0,
                    gamma: points[k].1,
                    correct: res.correct,
                    n: ds.n(),
                    folds: fold_stats,
                    extra_iterations: 0,
                    extra_kernel_evals: res.shared_evals,
                },
            )?;
        }
    }
    Ok(())
}
