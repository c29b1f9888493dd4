//! TreeCV and standard k-fold CV of the incremental learners
//! (`cvbench_engine::api::incremental`): the learner by its registry name with
//! its hyper-parameters, the estimate and the work counters. The names
//! (learners and their keys, orders, strategies) come from the library's
//! registries as module constants.

use cvbench_engine::api::incremental::{
    self as inc, IncrementalError, IncrementalReport, IncrementalSpec, ParamValue,
};
use cvbench_engine::api::learners::{AnyLearner, LearnerType, Order, Strategy};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::{dataset, value_error, Csr};

/// A library error as a `ValueError` with its message.
fn err(e: IncrementalError) -> PyErr {
    value_error(e.to_string())
}

/// A hyper-parameter's value: a bool (`project`) or a number.
#[derive(FromPyObject)]
pub enum Param {
    /// A Python bool (tried first: a bool is also a number to Python).
    Flag(bool),
    /// A number.
    Number(f64),
}

/// The learner, checked by the library.
fn build(name: &str, params: Vec<(String, Param)>) -> PyResult<AnyLearner> {
    let params: Vec<(String, ParamValue)> = params
        .into_iter()
        .map(|(k, v)| {
            let v = match v {
                Param::Flag(b) => ParamValue::Flag(b),
                Param::Number(x) => ParamValue::Number(x),
            };
            (k, v)
        })
        .collect();
    inc::learner(name, &params).map_err(err)
}

/// The learner's name with its hyper-parameters, its loss and whether it
/// needs labels in {-1, +1}; a `ValueError` with the library's message for
/// an unknown learner, a key that does not apply or a bad value.
#[pyfunction]
#[pyo3(signature = (name, params))]
fn learner(name: &str, params: Vec<(String, Param)>) -> PyResult<(String, &'static str, bool)> {
    let l = build(name, params)?;
    Ok((l.name(), l.loss_name(), l.requires_binary_labels()))
}

/// Estimate, point-updates, model copies, peak live models, seconds, and
/// each chunk's rows.
type CvOut<'py> = (f64, u64, u64, u64, f64, Vec<Bound<'py, PyArray1<i64>>>);

/// TreeCV with `strategy` (a name of `STRATEGIES`), or standard k-fold CV
/// when `strategy` is None, of the learner `name` with `params` on `X`
/// (dense or CSR parts) and `y`.
#[pyfunction]
#[pyo3(signature = (dense, csr, y, name, params, strategy, k, order, shuffle, seed, threads))]
#[allow(clippy::too_many_arguments)]
fn incremental_cv<'py>(
    py: Python<'py>,
    dense: Option<PyReadonlyArray2<'py, f64>>,
    csr: Option<Csr<'py>>,
    y: PyReadonlyArray1<'py, f64>,
    name: &str,
    params: Vec<(String, Param)>,
    strategy: Option<&str>,
    k: usize,
    order: &str,
    shuffle: bool,
    seed: u64,
    threads: usize,
) -> PyResult<CvOut<'py>> {
    let l = build(name, params)?;
    let strategy = strategy.map(inc::parse_strategy).transpose().map_err(err)?;
    let spec = IncrementalSpec {
        k,
        order: inc::parse_order(order).map_err(err)?,
        shuffle,
        seed,
        threads: threads.max(1),
    };
    let ds = dataset(dense, csr, y.as_slice()?.to_vec())?;
    let r: IncrementalReport = py
        .detach(|| match strategy {
            Some(s) => inc::treecv(&ds, &l, &spec, s),
            None => inc::kfold(&ds, &l, &spec),
        })
        .map_err(err)?;
    let chunks = r
        .chunks
        .into_iter()
        .map(|c| {
            c.into_iter()
                .map(|i| i as i64)
                .collect::<Vec<_>>()
                .into_pyarray(py)
        })
        .collect();
    Ok((
        r.estimate,
        r.work.updates,
        r.work.copies,
        r.work.peak_models,
        r.seconds,
        chunks,
    ))
}

/// Add the functions and the registries' names: `LEARNERS` (each learner's
/// name → its hyper-parameter keys), `ORDERS`, `STRATEGIES`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(learner, m)?)?;
    m.add_function(wrap_pyfunction!(incremental_cv, m)?)?;
    let learners = PyDict::new(m.py());
    for t in LearnerType::ALL {
        learners.set_item(t.as_str(), t.keys().to_vec())?;
    }
    m.add("LEARNERS", learners)?;
    let orders: Vec<&str> = Order::ALL.iter().map(|o| o.as_str()).collect();
    m.add("ORDERS", orders)?;
    let strategies: Vec<&str> = Strategy::ALL.iter().map(|s| s.as_str()).collect();
    m.add("STRATEGIES", strategies)?;
    Ok(())
}
