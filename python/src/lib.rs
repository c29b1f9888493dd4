//! `cvbench._native`: the Python extension. It converts arrays
//! ([`convert`]) and calls `cvbench_engine::api`; the Python package `cvbench`
//! validates arguments the scikit-learn way. The GIL is released while the
//! library works; a fit, CV or grid stops on Ctrl-C with `KeyboardInterrupt`
//! ([`cancellable`]); every library error is a `ValueError` with its
//! message.

mod cancellable;
mod convert;
mod formulation;
mod formulation_grid;
mod incremental;

use cancellable::run;
use convert::{
    dataset, folds, for_kernel, test_rows, training_inputs, value_error, Csr, ModelArgs, Spec,
    PRECOMPUTED,
};
use cvbench_engine::api;
use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::errors::SvmError;
use cvbench_engine::api::grid_search::{FoldStat, Reuse};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// A library error as a `ValueError` with its message.
fn err(e: SvmError) -> PyErr {
    value_error(e.to_string())
}

/// What `fit` returns: labels, support vectors per class, support-vector
/// rows, `sv_coef` (`nr_class - 1` × `n_sv`), rho, each pair's iterations,
/// warnings, Platt's `(probA, probB)` where the fit trained them, and the
/// lines `svm-train` prints of the training ([`training_log`]).
type FitOut<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
    Option<(Vec<f64>, Vec<f64>)>,
    Vec<String>,
);

/// One solve's progress marks and lines as scikit-learn's LIBSVM prints
/// them (no `nu` line), from the engine's counters.
fn solve_lines(out: &mut Vec<String>, stats: &cvbench_engine::api::training::SolveStats) {
    use cvbench_engine::api::training::{progress_text, solve_lines, MAX_ITER_WARNING};
    if !stats.progress.is_empty() {
        out.push(progress_text(stats));
    }
    if stats.hit_max_iter {
        out.push(MAX_ITER_WARNING.into());
    }
    out.extend(solve_lines(stats, None));
}

/// What `svm-train` prints of a training (LIBSVM's info lines; scikit-learn's
/// `SVC(verbose=True)`): each pair's probability fits and solve, then
/// `Total nSV`.
fn training_log(f: &api::Fit) -> Vec<String> {
    let mut out = Vec::new();
    for p in &f.pairs {
        if let Some(prob) = &p.prob {
            for inner in &prob.inner {
                solve_lines(&mut out, &inner.stats);
                out.push(format!("Total nSV = {}", inner.stats.n_sv));
            }
            out.extend(prob.notes.iter().cloned());
        }
        solve_lines(&mut out, &p.stats);
    }
    out.push(format!("Total nSV = {}", f.model.total_sv()));
    out
}

fn i64s(v: impl IntoIterator<Item = usize>) -> Vec<i64> {
    v.into_iter().map(|x| x as i64).collect()
}

/// A `rows × cols` NumPy matrix of `values`, row after row.
fn matrix<T: numpy::Element>(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    values: Vec<T>,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    numpy::ndarray::Array2::from_shape_vec((rows, cols), values)
        .map(|a| a.into_pyarray(py))
        .map_err(|e| value_error(e.to_string()))
}

/// Train a C-SVC on `X` (dense or CSR parts) and labels `y`, with a
/// weight of C per row where `sample_weight` is given.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, sample_weight=None))]
fn fit<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<FitOut<'py>> {
    let (ds, spec) = training_inputs(dense, csr, y, spec)?;
    let w = match &sample_weight {
        Some(w) => Some(w.as_slice()?.to_vec()),
        None => None,
    };
    let f = run(py, || api::fit_weighted(&ds, &spec, w.as_deref()))?;
    let m = &f.model;
    let total = m.total_sv();
    let coef: Vec<f64> = m.sv_coef.iter().flatten().copied().collect();
    let coef = matrix(py, m.sv_coef.len(), total, coef)?;
    Ok((
        m.labels.clone().into_pyarray(py),
        i64s(m.nr_sv.iter().copied()).into_pyarray(py),
        i64s(m.sv_rows.iter().copied()).into_pyarray(py),
        coef,
        m.rho.clone().into_pyarray(py),
        f.iterations
            .iter()
            .map(|&i| i as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py),
        f.warnings.clone(),
        f.model.prob.clone(),
        training_log(&f),
    ))
}

/// Decision values (rows × pairs) and votes.
type DecisionOut<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>);

/// Each pair's decision value (LIBSVM's sign: positive votes for the
/// pair's first class) and the vote of every row of `X`, from a model's
/// fitted arrays; `labels` are what the vote returns.
#[pyfunction]
#[pyo3(signature = (dense, csr, model, threads))]
fn decision<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    model: ModelArgs<'py>,
    threads: usize,
) -> PyResult<DecisionOut<'py>> {
    let (ds, m) = data_and_model(dense, csr, model)?;
    let pairs = m.rho.len();
    let (dec, votes) = py
        .detach(|| {
            let dec = api::decision_values(&m, &ds, threads.max(1))?;
            let votes: Vec<f64> = dec.chunks(pairs).map(|d| m.vote(d)).collect();
            Ok::<_, SvmError>((dec, votes))
        })
        .map_err(err)?;
    Ok((matrix(py, ds.n(), pairs, dec)?, votes.into_pyarray(py)))
}

/// Every row's class probabilities (rows × classes, the model's class
/// order: `svm-predict -b 1`'s) from a model's fitted arrays with Platt's
/// `prob`.
#[pyfunction]
#[pyo3(signature = (dense, csr, model, threads))]
fn probabilities<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    model: ModelArgs<'py>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (ds, m) = data_and_model(dense, csr, model)?;
    let p = py
        .detach(|| api::probabilities(&m, &ds, threads.max(1)))
        .map_err(err)?;
    matrix(py, ds.n(), m.nr_class(), p)
}

/// The rows to predict and the model, with as many features.
fn data_and_model(
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<Csr<'_>>,
    model: ModelArgs<'_>,
) -> PyResult<(
    cvbench_engine::api::data::Dataset,
    cvbench_engine::api::training::MultiModel,
)> {
    let ds = for_kernel(dataset(dense, csr, Vec::new())?, &model.kernel);
    let m = model.into_model()?;
    // A precomputed kernel's rows hold kernel values, its support vectors
    // serial numbers: the Python layer checks the rows' width.
    if m.sv.d() != ds.d() && !m.kernel.is_precomputed() {
        return Err(value_error(format!(
            "X has {} features, but the model was fitted with {}",
            ds.d(),
            m.sv.d()
        )));
    }
    Ok((ds, m))
}

/// Folds: explicit test rows, or LIBSVM's `k` folds of the labels.
fn make_folds(
    ds: &cvbench_engine::api::data::Dataset,
    k: usize,
    test: Option<Vec<Vec<usize>>>,
) -> PyResult<Folds> {
    match test {
        Some(t) => Ok(folds(ds.n(), t)),
        None => Folds::libsvm(ds, k).map_err(err),
    }
}

/// The test rows of LIBSVM's `k` folds of `(X, y)` (`svm-train -v k`'s;
/// they depend on the labels only), fold after fold.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, k))]
fn libsvm_folds<'py>(
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    k: usize,
) -> PyResult<Vec<Vec<usize>>> {
    let ds = dataset(dense, csr, y.as_slice()?.to_vec())?;
    let f = Folds::libsvm(&ds, k).map_err(err)?;
    Ok(test_rows(&f))
}

/// The name of the CV method `seeding`, `order`, `seeder` and `cache`
/// make for `(X, y)` and `spec` (`CvMethod::parse_for`: `auto` resolved),
/// or the `ValueError` listing the known names.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, seeding, order, seeder, cache))]
#[allow(clippy::too_many_arguments)]
fn cv_method<'py>(
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    seeding: &str,
    order: Option<&str>,
    seeder: Option<&str>,
    cache: &str,
) -> PyResult<String> {
    let ds = for_kernel(dataset(dense, csr, y.as_slice()?.to_vec())?, &spec.kernel);
    let spec = spec.to_spec()?;
    let method =
        api::CvMethod::parse_for(&ds, &spec, seeding, order, seeder, cache).map_err(err)?;
    Ok(method.label())
}

/// Per-fold held-out rows, correct rows, iterations and seconds of a k-fold
/// CV, every row's prediction, and the name of the seeding that ran.
type CvOut<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    String,
);

/// k-fold CV: LIBSVM's `k` folds (`test` None) or explicit test folds, its
/// rounds run as `cvbench svm -v --seeding/--order/--seeder/--cache` say
/// (their names; `seeding` may also be `auto`: `CvMethod::parse_for`).
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, k, test, seeding, order, seeder, cache))]
#[allow(clippy::too_many_arguments)]
fn cross_validate<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    k: usize,
    test: Option<Vec<Vec<usize>>>,
    seeding: &str,
    order: Option<&str>,
    seeder: Option<&str>,
    cache: &str,
) -> PyResult<CvOut<'py>> {
    let (ds, spec) = training_inputs(dense, csr, y, spec)?;
    let method =
        api::CvMethod::parse_for(&ds, &spec, seeding, order, seeder, cache).map_err(err)?;
    let f = make_folds(&ds, k, test)?;
    let r = run(py, || api::cross_validate(&ds, &f, &spec, &method))?;
    let col = |g: fn(&api::FoldReport) -> usize| i64s(r.folds.iter().map(g)).into_pyarray(py);
    Ok((
        col(|f| f.n_test),
        col(|f| f.correct),
        col(|f| f.iterations as usize),
        r.folds
            .iter()
            .map(|f| f.seconds)
            .collect::<Vec<_>>()
            .into_pyarray(py),
        r.predictions.clone().into_pyarray(py),
        method.label(),
    ))
}

/// A (C, gamma) grid on explicit test folds: per point and fold, correct
/// rows, held-out rows, iterations and seconds (points × folds arrays).
#[pyfunction]
#[pyo3(signature = (dense, csr, y, spec, points, test, reuse))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn grid<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    spec: Spec,
    points: Vec<(f64, f64)>,
    test: Vec<Vec<usize>>,
    reuse: &str,
) -> PyResult<(
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<f64>>,
)> {
    if spec.kernel == PRECOMPUTED {
        return Err(value_error(
            "the grid takes no precomputed kernel (the Python layer refuses it)",
        ));
    }
    let ds = dataset(dense, csr, y.as_slice()?.to_vec())?;
    let spec = spec.to_spec()?;
    let reuse = Reuse::parse(reuse).map_err(value_error)?;
    let f = folds(ds.n(), test);
    let res = run(py, || api::grid(&ds, &f, &spec, &points, &reuse))?;
    // One points × folds matrix per statistic.
    let per_fold = |g: fn(&FoldStat) -> i64| {
        let v = res.iter().flat_map(|p| p.folds.iter().map(g)).collect();
        matrix(py, res.len(), f.k(), v)
    };
    let secs = res
        .iter()
        .flat_map(|p| p.folds.iter().map(|s| s.seconds))
        .collect();
    Ok((
        per_fold(|s| s.correct as i64)?,
        per_fold(|s| s.n_test as i64)?,
        per_fold(|s| s.iterations as i64)?,
        matrix(py, res.len(), f.k(), secs)?,
    ))
}

/// The kernel cache in MB a CV of `n` rows takes by default: the whole
/// kernel matrix within half the available memory, at least LIBSVM's
/// 100 MB (`cvbench svm -v`'s default `-m`).
#[pyfunction]
fn default_cache_mb(n: usize) -> f64 {
    cvbench_engine::api::params::default_cache_mb(n)
}

/// The memory budget in MB of a grid's gamma blocks by default: 2,048 MB
/// within half the available memory, at least 100 MB (`cvbench grid`'s
/// default `--memory-mb`).
#[pyfunction]
fn default_grid_memory_mb() -> f64 {
    cvbench_engine::api::params::grid_memory_mb(true)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(decision, m)?)?;
    m.add_function(wrap_pyfunction!(probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(cross_validate, m)?)?;
    m.add_function(wrap_pyfunction!(grid, m)?)?;
    m.add_function(wrap_pyfunction!(libsvm_folds, m)?)?;
    m.add_function(wrap_pyfunction!(cv_method, m)?)?;
    m.add_function(wrap_pyfunction!(default_cache_mb, m)?)?;
    m.add_function(wrap_pyfunction!(default_grid_memory_mb, m)?)?;
    // The solvers' names, from the library's registry.
    let solvers: Vec<&str> = cvbench_engine::api::strategies::SolverKind::ALL
        .iter()
        .map(|s| s.as_str())
        .collect();
    m.add("SOLVERS", solvers)?;
    formulation::register(m)?;
    formulation_grid::register(m)?;
    incremental::register(m)
}
