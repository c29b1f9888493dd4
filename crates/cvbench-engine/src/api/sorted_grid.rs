//! The grid's exact reuse levels in scikit-learn's row order
//! ([`super::ClassOrder::Sorted`]): each (point, fold) is a fit of
//! [`train_ovo`] — what [`super::fit`] runs, and scikit-learn's `SVC.fit`
//! on `X[train]` — on the fold's training rows grouped by ascending class,
//! each class's rows ascending, so every rate is `GridSearchCV`'s on the
//! same folds; the reuse is the exact levels' only: one kernel cache per
//! gamma (`gamma`) and (point, fold) fits as parallel jobs (`threads`).

use std::time::Instant;

use rayon::prelude::*;

use crate::data::Dataset;
use crate::svm::grid::engine::params_at;
use crate::svm::grid::{FoldStat, PointResult, Reuse};
use crate::svm::kernel::matrix;
use crate::svm::kernel::KernelData;
use crate::svm::model::solution::check_finite_features;
use crate::svm::multiclass::train_ovo;
use crate::svm::{Folds, SvmError, SvmParams};

/// Every `(C, gamma)` of `points` cross-validated on `folds` (results in
/// the order of `points`), in the current rayon pool; `reuse` must be exact.
pub(super) fn grid_sorted(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    points: &[(f64, f64)],
    reuse: &Reuse,
) -> Result<Vec<PointResult>, SvmError> {
    folds.validate()?;
    check_finite_features(ds)?;
    let checked: Vec<_> = points
        .iter()
        .map(|&(c, g)| params_at(base, c, g).check())
        .collect::<Result<_, _>>()?;
    let train: Vec<Vec<usize>> = (0..folds.k())
        .map(|h| {
            let mut rows = folds.train_rows(h);
            rows.sort_by(|&a, &b| ds.y[a].total_cmp(&ds.y[b]).then(a.cmp(&b)));
            rows
        })
        .collect();
    let mut out: Vec<Option<PointResult>> = vec![None; points.len()];
    let mut gammas: Vec<(u64, Vec<usize>)> = Vec::new();
    for (i, &(_, g)) in points.iter().enumerate() {
        match gammas.iter_mut().find(|(b, _)| *b == g.to_bits()) {
            Some((_, is)) => is.push(i),
            None => gammas.push((g.to_bits(), vec![i])),
        }
    }
    for (_, is) in gammas {
        let kd = KernelData::new(ds, checked[is[0]].kernel);
        let shared = reuse
            .gamma_blocks
            .then(|| matrix::shared_cache(&kd, base.cache_mb, base.solver.matrix_values()));
        let jobs: Vec<(usize, usize)> = is
            .iter()
            .flat_map(|&i| (0..folds.k()).map(move |h| (i, h)))
            .collect();
        let one = |&(i, h): &(usize, usize)| -> Result<FoldStat, SvmError> {
            let t0 = Instant::now();
            let fit = train_ovo(&kd, &train[h], &checked[i], &[], shared.as_ref(), None)?;
            let test = folds.test_rows(h);
            let correct = test
                .iter()
                .filter(|&&r| fit.model.predict(kd.ds.row(r)) == ds.y[r])
                .count();
            Ok(FoldStat {
                fold: h,
                n_test: test.len(),
                correct,
                iterations: fit.iterations(),
                kernel_evals: fit.kernel_evals(),
                seconds: t0.elapsed().as_secs_f64(),
                warm: false,
                newton_steps: 0,
            })
        };
        let stats: Vec<FoldStat> = if reuse.threads {
            jobs.par_iter().map(one).collect::<Result<_, _>>()?
        } else {
            jobs.iter().map(one).collect::<Result<_, _>>()?
        };
        for (&i, fs) in is.iter().zip(stats.chunks(folds.k())) {
            out[i] = Some(PointResult {
                c: points[i].0,
                gamma: points[i].1,
                correct: fs.iter().map(|f| f.correct).sum(),
                n: ds.n(),
                folds: fs.to_vec(),
                extra_iterations: 0,
                extra_kernel_evals: 0,
            });
        }
    }
    out.into_iter()
        .map(|r| r.ok_or_else(|| SvmError::InvalidParam("a grid point got no result".into())))
        .collect()
}
