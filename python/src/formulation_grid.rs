//! The grid of LIBSVM's other formulations for `cvbench.GridSearchSVC`
//! (`cvbench_engine::api::formulation_grid`, `cvbench grid -s 1..4`'s
//! engine): every (C, gamma, nu or epsilon) point cross-validated on the
//! given test folds, the points of one gamma sharing one kernel cache, and
//! every row's held-out prediction handed back, from which the Python layer
//! computes scikit-learn's scores.

use cvbench_engine::api::formulation_grid::{
    run_formulation_grid, FormulationGridOptions, FormulationPoint,
};
use cvbench_engine::api::params::with_threads;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::cancellable::run;
use crate::convert::{folds, training_inputs, value_error, Csr, Spec, PRECOMPUTED};
use crate::formulation::svm_type;
use crate::matrix;

/// What [`formulation_grid`] returns, one row per point in the order given:
/// every row's held-out prediction (points × rows), the SMO iterations of
/// all the point's rounds, and its share of the wall-clock seconds.
type GridOut<'py> = (
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f64>>,
);

/// Cross-validate formulation `kind` at every `(C, gamma, value)` of
/// `points` (`value`: nu or epsilon) on the test folds `test` (a partition
/// of the rows; each round trains on the other folds' rows in fold order),
/// with `spec`'s kernel, tolerance, per-solve cache, shrinking, iteration
/// cap and threads. `shared_cache`: one kernel cache of `memory_mb` per
/// gamma for every point and fold of it (off: each solve its own cache);
/// the numbers are the same either way, and on any number of threads.
/// `warm_start` (epsilon-SVR only; the engine refuses it for the others):
/// within a gamma and a fold, each point starts from an earlier point's
/// solution (`cvbench grid -s 3 --reuse cpath`): every number exact to the
/// stopping tolerance, not bit for bit.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, kind, points, test, shared_cache, memory_mb, warm_start=false))]
#[allow(clippy::too_many_arguments)]
fn formulation_grid<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    kind: &str,
    points: Vec<(f64, f64, f64)>,
    test: Vec<Vec<usize>>,
    shared_cache: bool,
    memory_mb: f64,
    warm_start: bool,
) -> PyResult<GridOut<'py>> {
    if spec.kernel == PRECOMPUTED {
        return Err(value_error(
            "the grid takes no precomputed kernel (the Python layer refuses it)",
        ));
    }
    let (ds, spec) = training_inputs(dense, csr, y, spec)?;
    let points = points
        .iter()
        .map(|&(c, gamma, value)| {
            Ok(FormulationPoint {
                c,
                gamma,
                svm_type: svm_type(kind, value)?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let f = folds(ds.n(), test);
    let opts = FormulationGridOptions {
        memory_mb,
        shared_cache,
        warm_start,
    };
    let (n, m) = (ds.n(), points.len());
    let got = run(py, || {
        with_threads(spec.threads, || {
            let mut predictions = vec![0.0; m * n];
            let mut iterations = vec![0i64; m];
            let mut seconds = vec![0.0; m];
            run_formulation_grid(&ds, &f, &spec.params, &points, &opts, &mut |k, r| {
                predictions[k * n..(k + 1) * n].copy_from_slice(&r.predictions);
                iterations[k] = r.iterations as i64;
                seconds[k] = r.seconds;
                Ok(())
            })?;
            Ok((predictions, iterations, seconds))
        })
    })?;
    let (predictions, iterations, seconds) = got;
    Ok((
        matrix(py, m, n, predictions)?,
        iterations.into_pyarray(py),
        seconds.into_pyarray(py),
    ))
}

/// Add this module's function to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(formulation_grid, m)?)
}
