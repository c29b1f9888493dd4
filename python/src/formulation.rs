//! LIBSVM's other formulations (nu-SVC, one-class, epsilon-SVR, nu-SVR;
//! `cvbench_engine::api::formulation`) for `cvbench.NuSVC`, `SVR`, `NuSVR`
//! and `OneClassSVM`: one fit returning the model in C-SVC's one-vs-one
//! arrays (`FormulationFit::ovo_model`), so prediction is
//! [`crate::decision`]'s, the same as `SVC`'s.

use cvbench_engine::api::formulation::{fit_formulation, SvmType};
use numpy::{IntoPyArray, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::cancellable::run;
use crate::convert::{dataset, value_error, Csr, Spec};
use crate::{i64s, matrix};

/// The formulation by its LIBSVM name (`svm_type` in a model file) with
/// its own parameter: nu for `nu_svc`, `one_class` and `nu_svr`, epsilon
/// for `epsilon_svr`.
fn svm_type(name: &str, value: f64) -> PyResult<SvmType> {
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
/// each solve's iterations, and the lines `svm-train` prints.
type FormulationOut<'py> = (
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Bound<'py, numpy::PyArray2<f64>>,
    Bound<'py, numpy::PyArray1<f64>>,
    Bound<'py, numpy::PyArray1<i64>>,
    Vec<String>,
);

/// Train formulation `kind` (with nu or epsilon `value`; `spec`'s C,
/// kernel, tolerance, cache, shrinking and iteration cap) on `X` and `y`
/// (the targets for regression; ignored by one-class), the rows in their
/// given order, as `svm-train -s 1..4` does.
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
    let ds = dataset(dense, csr, y.as_slice()?.to_vec())?;
    let params = spec.to_spec()?.params;
    let svm_type = svm_type(kind, value)?;
    let f = run(py, || fit_formulation(&ds, &params, svm_type))?;
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
    ))
}

/// Add this module's function to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fit_formulation_arrays, m)?)
}
