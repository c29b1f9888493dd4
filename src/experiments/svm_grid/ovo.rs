//! `svm_grid` cells on a dataset with more than two classes: every grid
//! point is LIBSVM's one-vs-one CV (`svm-train -v k`'s rate, as grid.py
//! gets it) through [`run_grid_ovo`], whose points of one gamma share one
//! kernel cache by row (every pair, fold and C); the guide's test-set
//! accuracy trains LIBSVM's one-vs-one model ([`train_ovo`]). The reuse
//! levels' binary machinery (gamma blocks, C paths, seeded folds) does not
//! apply per pair, which the cell's note says.

use cvbench_engine::data::Dataset;
use cvbench_engine::svm::cv::folds::Folds;
use cvbench_engine::svm::grid::{GridCost, PointResult};
use cvbench_engine::svm::kernel::KernelData;
use cvbench_engine::svm::model::solution::check_finite_features;
use cvbench_engine::svm::multiclass::grid::run_grid_ovo;
use cvbench_engine::svm::multiclass::train_ovo;
use cvbench_engine::svm::{SvmError, SvmParams};
use std::time::Instant;

/// The note on a one-vs-one cell's row.
pub(super) const OVO_NOTE: &str = "one-vs-one (more than two classes): every point is LIBSVM's CV, the points of a gamma sharing one kernel cache by row across pairs, folds and C; the level's binary reuse does not apply per pair";

/// Cross-validate the `(C, gamma)` `values` one-vs-one on `folds` (in the
/// current rayon pool), each result handed to `sink` with its index; the
/// cost holds the wall seconds and [`OVO_NOTE`].
pub(super) fn solve_ovo(
    ds: &Dataset,
    folds: &Folds,
    base: &SvmParams,
    values: &[(f64, f64)],
    memory_mb: f64,
    sink: &mut dyn FnMut(usize, PointResult) -> Result<(), SvmError>,
) -> Result<GridCost, SvmError> {
    let t0 = Instant::now();
    run_grid_ovo(ds, folds, base, values, memory_mb, sink)?;
    Ok(GridCost {
        gamma_blocks_note: Some(OVO_NOTE.into()),
        wall_seconds: t0.elapsed().as_secs_f64(),
        ..GridCost::default()
    })
}

/// The held-out rows of `test` that LIBSVM's one-vs-one model trained on
/// all of `train` with `params` predicts right.
pub(super) fn ovo_correct(
    train: &Dataset,
    test: &Dataset,
    params: &SvmParams,
) -> Result<usize, SvmError> {
    let params = params.check()?;
    check_finite_features(train)?;
    let kd = KernelData::new(train, params.kernel);
    let all: Vec<usize> = (0..train.n()).collect();
    let mut fit = train_ovo(&kd, &all, &params, &[], None, None)?;
    kd.restore_features(&mut fit.model.sv);
    Ok((0..test.n())
        .filter(|&r| fit.model.predict(test.row(r)) == test.y[r])
        .count())
}
