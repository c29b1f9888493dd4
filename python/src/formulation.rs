//! LIBSVM's other formulations (nu-SVC, one-class, epsilon-SVR, nu-SVR;
//! `cvbench_engine::api::formulation`) for `cvbench.NuSVC`, `SVR`, `NuSVR`
//! and `OneClassSVM`: one fit returning the model in C-SVC's one-vs-one
//! arrays (`FormulationFit::ovo_model`), so prediction is
//! [`crate::decision`]'s, the same as `SVC`'s.

use cvbench_engine::api::formulation::{fit_formulation_with, SvmType};
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation_seeded, libsvm_folds, FormulationCvOptions,
};
use cvbench_engine::api::strategies::{CacheMode, SeedingMethod};
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::cancellable::run;
use crate::convert::{dataset, folds, test_rows, training_inputs, value_error, Csr, Spec};
use crate::{i64s, matrix};

/// The formulation by its LIBSVM name (`svm_type` in a model file) with
/// its own parameter: nu for `nu_svc`, `one_class` and `nu_svr`, epsilon
/// for `epsilon_svr`.
pub(crate) fn svm_type(name: &str, value: f64) -> PyResult<SvmType> {
    Ok(match name {
        "nu_svc" => SvmType::NuSvc { nu: value },
        "one_class" => SvmType::OneClass { nu: value },
        "epsilon_svr" => SvmType::EpsilonSvr { p: value },
        "nu_svr" => SvmType::NuSvr { nu: value },
        other => {
            return Err(value_error(format!(
                "formulation {other:?} is not one of 'nu_svc', 'one_class', 'epsilon_svr', 'nu_svr'"
            )))
        }
    })
}

/// What [`fit_formulation_arrays`] returns: labels, support vectors per
/// class, support-vector rows, `sv_coef` (`nr_class - 1` × `n_sv`), rho,
/// each solve's iterations, the lines `svm-train` prints, and nu-SVC's
/// Platt `(probA, probB)` where the fit trained them.
type FormulationOut<'py> = (
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Bound<'py, numpy::PyArray2<f64>>,
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Vec<String>,
    Option<(Vec<f64>, Vec<f64>)>,
);

/// Train formulation `kind` (with nu or epsilon `value`; `spec`'s C,
/// kernel, tolerance, cache, shrinking and iteration cap) on `X` and `y`
/// (the targets for regression; ignored by one-class), the rows in their
/// given order, as `svm-train -s 1..4` does; with `spec`'s probability
/// seed, also its `-b 1` model (`srand(seed)` before the internal CVs'
/// shuffles).
#[pyfunction]
#[pyo3(name = "fit_formulation", signature = (dense, csr, y, spec, kind, value))]
fn fit_formulation_arrays<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    kind: &str,
    value: f64,
) -> PyResult<FormulationOut<'py>> {
    let (ds, spec) = training_inputs(dense, csr, y, spec)?;
    let svm_type = svm_type(kind, value)?;
    let f = run(py, || {
        fit_formulation_with(&ds, &spec.params, svm_type, spec.probability)
    })?;
    let m = f.ovo_model();
    let total = m.total_sv();
    let coef: Vec<f64> = m.sv_coef.iter().flatten().copied().collect();
    Ok((
        m.labels.clone().into_pyarray(py),
        i64s(m.nr_sv.iter().copied()).into_pyarray(py),
        i64s(m.sv_rows.iter().copied()).into_pyarray(py),
        matrix(py, m.sv_coef.len(), total, coef)?,
        m.rho.clone().into_pyarray(py),
        f.solves
            .iter()
            .map(|s| s.iterations as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py),
        f.lines.clone(),
        m.prob.clone(),
    ))
}

/// The test rows of the `k` folds `svm-train -s N -v k` uses for
/// formulation `kind` on `(X, y)` (stratified for nu-SVC, one shuffle
/// otherwise; `k` lowered to the number of rows there), fold after fold.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, kind, value, k))]
fn formulation_folds<'py>(
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    kind: &str,
    value: f64,
    k: usize,
) -> PyResult<Vec<Vec<usize>>> {
    let ds = dataset(dense, csr, y.as_slice()?.to_vec())?;
    let f = libsvm_folds(&ds, k, svm_type(kind, value)?).map_err(|e| value_error(e.to_string()))?;
    Ok(test_rows(&f))
}

/// What [`cross_validate_formulation_arrays`] returns: every row's
/// held-out prediction, each fold's SMO iterations, and the run's
/// wall-clock seconds.
type FormulationCvOut<'py> = (
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    f64,
);

/// k-fold CV of formulation `kind` (nu or epsilon `value`; `spec`'s C,
/// kernel, tolerance, cache (the run's whole budget), shrinking, iteration
/// cap, threads and solver) on the test folds `test` (a partition of the
/// rows), in one call: the rounds in parallel on one shared kernel cache
/// (`cache` `shared`) or each solve's own (`per_solve`), the same numbers
/// either way; `seeding` `none` (svm-train's rounds), `sir` or
/// `sir_two_chains` (each round from the previous one's solution, exact to
/// the tolerance: the engine's `cross_validate_formulation_seeded`).
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, kind, value, test, cache, seeding="none"))]
#[allow(clippy::too_many_arguments)]
fn cross_validate_formulation_arrays<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    kind: &str,
    value: f64,
    test: Vec<Vec<usize>>,
    cache: &str,
    seeding: &str,
) -> PyResult<FormulationCvOut<'py>> {
    let (ds, spec) = training_inputs(dense, csr, y, spec)?;
    let svm_type = svm_type(kind, value)?;
    let cache = CacheMode::parse(cache).ok_or_else(|| {
        value_error(format!(
            "cache must be one of {}, got {cache:?}",
            CacheMode::names()
        ))
    })?;
    let opts = FormulationCvOptions {
        cache,
        threads: spec.threads,
    };
    let seeding = SeedingMethod::parse(seeding).ok_or_else(|| {
        value_error(format!(
            "seeding must be 'none', 'sir' or 'sir_two_chains' for {kind}, got {seeding:?}"
        ))
    })?;
    let f = folds(ds.n(), test);
    let cv = run(py, || {
        cross_validate_formulation_seeded(&ds, &f, &spec.params, svm_type, opts, seeding)
    })?;
    let iters: Vec<i64> = cv
        .result
        .rounds
        .iter()
        .map(|r| r.solves.iter().map(|s| s.iterations as i64).sum())
        .collect();
    Ok((
        cv.result.predictions.clone().into_pyarray(py),
        iters.into_pyarray(py),
        cv.result.wall_s,
    ))
}

/// Add this module's functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fit_formulation_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(formulation_folds, m)?)?;
    m.add_function(wrap_pyfunction!(cross_validate_formulation_arrays, m)?)
}
