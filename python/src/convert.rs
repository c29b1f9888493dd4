//! NumPy / SciPy arrays in, the library's types out: a [`Dataset`] from a
//! dense C-contiguous `float64` matrix or the parts of a CSR matrix, the
//! SVC parameters, a model rebuilt from the fitted arrays, folds.

use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::{Dataset, Features};
use cvbench_engine::api::params::{ClassWeight, KernelKind, SvmParams};
use cvbench_engine::api::strategies::SolverKind;
use cvbench_engine::api::training::MultiModel;
use cvbench_engine::api::ClassOrder;
use cvbench_engine::api::SvcSpec;
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The parts of a SciPy CSR matrix as SciPy holds them: data (`float64`),
/// indices and indptr (`int32` or `int64`, each read once into the
/// library's type), number of columns.
pub type Csr<'py> = (PyReadonlyArray1<'py, f64>, Index<'py>, Index<'py>, usize);

/// A SciPy index array: `int32` or `int64` (SciPy picks the width).
#[derive(FromPyObject)]
pub enum Index<'py> {
    /// 32-bit indices.
    I32(PyReadonlyArray1<'py, i32>),
    /// 64-bit indices.
    I64(PyReadonlyArray1<'py, i64>),
}

impl Index<'_> {
    /// The indices converted in one pass into `T` (`u32` column indices,
    /// `usize` row pointers); a negative or too large one is an error
    /// naming `what`.
    fn to_vec<T: TryFrom<i64>>(&self, what: &str) -> PyResult<Vec<T>> {
        fn conv<T: TryFrom<i64>, I: Copy + Into<i64>>(v: &[I], what: &str) -> PyResult<Vec<T>> {
            v.iter()
                .map(|&x| {
                    let x: i64 = x.into();
                    T::try_from(x).map_err(|_| {
                        value_error(format!(
                            "malformed CSR matrix ({what} entry {x} out of range)"
                        ))
                    })
                })
                .collect()
        }
        match self {
            Index::I32(a) => conv(a.as_slice()?, what),
            Index::I64(a) => conv(a.as_slice()?, what),
        }
    }
}

/// A `ValueError` with `msg`.
pub fn value_error(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// Features from exactly one of a dense matrix and a CSR matrix's parts,
/// with labels `y` (empty for prediction: zeros).
pub fn dataset(
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<Csr<'_>>,
    y: Vec<f64>,
) -> PyResult<Dataset> {
    let (n, x) = match (dense, csr) {
        (Some(a), None) => {
            let shape = a.shape();
            let values = a
                .as_slice()
                .map_err(|_| value_error("X must be a C-contiguous float64 array"))?
                .to_vec();
            (
                shape[0],
                Features::Dense {
                    d: shape[1],
                    values,
                },
            )
        }
        (None, Some((data, indices, indptr, d))) => {
            let indptr: Vec<usize> = indptr.to_vec("indptr")?;
            let indices: Vec<u32> = indices.to_vec("indices")?;
            let values = data.as_slice()?.to_vec();
            check_csr(&indptr, &indices, values.len(), d)?;
            (
                indptr.len() - 1,
                Features::Sparse {
                    d,
                    indptr,
                    indices,
                    values,
                },
            )
        }
        _ => return Err(value_error("give X either dense or as CSR parts")),
    };
    let y = if y.is_empty() { vec![0.0; n] } else { y };
    if y.len() != n {
        return Err(value_error(format!(
            "X has {n} rows but y has {} labels",
            y.len()
        )));
    }
    Ok(Dataset {
        name: "python".into(),
        x,
        y,
        index_base: cvbench_engine::api::data::IndexBase::One,
    })
}

/// A CSR matrix's parts describe a valid matrix with sorted indices.
fn check_csr(indptr: &[usize], indices: &[u32], nnz: usize, d: usize) -> PyResult<()> {
    if indptr.is_empty() || indptr[0] != 0 || *indptr.last().unwrap() != nnz || indices.len() != nnz
    {
        return Err(value_error(
            "malformed CSR matrix (indptr does not match the data)",
        ));
    }
    for w in indptr.windows(2) {
        if w[0] > w[1] {
            return Err(value_error("malformed CSR matrix (indptr decreases)"));
        }
        let row = &indices[w[0]..w[1]];
        if row.windows(2).any(|p| p[0] >= p[1]) || row.iter().any(|&j| j as usize >= d) {
            return Err(value_error(
                "CSR indices must be sorted, unique and below the number of columns",
            ));
        }
    }
    Ok(())
}

/// scikit-learn's name of LIBSVM's precomputed kernel (`-t 4`).
pub const PRECOMPUTED: &str = "precomputed";

/// `ds` as the kernel `kernel` reads it: for the precomputed kernel the
/// Python layer passes LIBSVM's rows (column 0 the serial number or
/// anything, then the kernel values), so the dataset is numbered from 0
/// (`IndexBase::Zero`: column `j` is feature `j`); other kernels' data as
/// given.
pub fn for_kernel(mut ds: Dataset, kernel: &str) -> Dataset {
    if kernel == PRECOMPUTED {
        ds.index_base = cvbench_engine::api::data::IndexBase::Zero;
    }
    ds
}

/// A training set for `kernel` ([`for_kernel`]), its precomputed rows'
/// serial numbers checked as `svm-train -t 4` checks them (a `ValueError`
/// naming the row, 0-based as the Python layer numbers rows).
pub fn training_set(ds: Dataset, kernel: &str) -> PyResult<Dataset> {
    use cvbench_engine::api::errors::SvmError;
    use cvbench_engine::api::training::check_training_features;
    let ds = for_kernel(ds, kernel);
    if kernel == PRECOMPUTED {
        match check_training_features(&ds, KernelKind::Precomputed) {
            Err(SvmError::Precomputed(e)) => {
                return Err(value_error(format!("precomputed kernel: {e}")))
            }
            Err(e) => return Err(value_error(e.to_string())),
            Ok(()) => {}
        }
    }
    Ok(ds)
}

/// The training set and the fit's parameters of a native call's
/// arguments (features, targets, [`Spec`]): every fit, CV and grid starts
/// so.
pub fn training_inputs(
    dense: Option<PyReadonlyArray2<'_, f64>>,
    csr: Option<Csr<'_>>,
    y: PyReadonlyArray1<'_, f64>,
    spec: Spec,
) -> PyResult<(Dataset, SvcSpec)> {
    let ds = training_set(dataset(dense, csr, y.as_slice()?.to_vec())?, &spec.kernel)?;
    Ok((ds, spec.to_spec()?))
}

/// The kernel from scikit-learn's names and values.
pub fn kernel(name: &str, gamma: f64, degree: i32, coef0: f64) -> PyResult<KernelKind> {
    Ok(match name {
        "linear" => KernelKind::Linear,
        "rbf" => KernelKind::Rbf { gamma },
        "poly" => KernelKind::Poly {
            gamma,
            degree,
            coef0,
        },
        "sigmoid" => KernelKind::Sigmoid { gamma, coef0 },
        PRECOMPUTED => KernelKind::Precomputed,
        other => {
            return Err(value_error(format!(
                "kernel {other:?} is not one of 'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'"
            )))
        }
    })
}

/// The parameters of a fit, CV or grid, as the Python layer passes them
/// (a dict with these keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Spec {
    /// `linear`, `poly`, `rbf`, `sigmoid` or `precomputed`.
    pub kernel: String,
    /// C.
    pub c: f64,
    /// The kernel's gamma (resolved by the caller).
    pub gamma: f64,
    /// The polynomial degree.
    pub degree: i32,
    /// coef0.
    pub coef0: f64,
    /// Stopping tolerance.
    pub tol: f64,
    /// Kernel cache in MB.
    pub cache_mb: f64,
    /// Shrinking heuristic.
    pub shrinking: bool,
    /// Iteration cap (<= 0: none).
    pub max_iter: i64,
    /// Class weights as (integer label, factor).
    pub weights: Vec<(i32, f64)>,
    /// Threads.
    pub threads: usize,
    /// Classes in ascending order (scikit-learn) rather than LIBSVM's.
    pub sorted: bool,
    /// `Some(seed)`: also the probability model (see
    /// [`SvcSpec::probability`]).
    pub probability: Option<u32>,
    /// The solver's name (`SolverKind`'s registry).
    pub solver: String,
}

impl Spec {
    /// The library's [`SvcSpec`].
    pub fn to_spec(&self) -> PyResult<SvcSpec> {
        Ok(SvcSpec {
            params: SvmParams {
                kernel: kernel(&self.kernel, self.gamma, self.degree, self.coef0)?,
                c: self.c,
                eps: self.tol,
                cache_mb: self.cache_mb,
                shrinking: self.shrinking,
                max_iter: u64::try_from(self.max_iter).ok().filter(|&m| m > 0),
                solver: SolverKind::parse(&self.solver).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "solver must be one of {}, got {:?}",
                        SolverKind::names(),
                        self.solver
                    ))
                })?,
            },
            weights: self
                .weights
                .iter()
                .map(|&(label, weight)| ClassWeight { label, weight })
                .collect(),
            threads: self.threads.max(1),
            order: if self.sorted {
                ClassOrder::Sorted
            } else {
                ClassOrder::Libsvm
            },
            probability: self.probability,
        })
    }
}

/// A model's fitted arrays, as the Python layer passes them (a dict with
/// these keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct ModelArgs<'py> {
    /// The support vectors, dense ...
    pub sv_dense: Option<PyReadonlyArray2<'py, f64>>,
    /// ... or as CSR parts.
    pub sv_csr: Option<Csr<'py>>,
    /// Class labels (what the vote returns).
    pub labels: Vec<f64>,
    /// Support vectors per class.
    pub nr_sv: Vec<usize>,
    /// `nr_class - 1` rows of one coefficient per support vector.
    pub sv_coef: PyReadonlyArray2<'py, f64>,
    /// Each pair's rho.
    pub rho: Vec<f64>,
    /// `linear`, `poly`, `rbf`, `sigmoid` or `precomputed` (the support
    /// vectors are then LIBSVM's `0:serial` rows: one column).
    pub kernel: String,
    /// The kernel's gamma.
    pub gamma: f64,
    /// The polynomial degree.
    pub degree: i32,
    /// coef0.
    pub coef0: f64,
    /// Platt's `(probA, probB)` of each pair, where the model has them.
    pub prob: Option<(Vec<f64>, Vec<f64>)>,
}

impl ModelArgs<'_> {
    /// The model, checked for consistent shapes.
    pub fn into_model(self) -> PyResult<MultiModel> {
        let kernel = kernel(&self.kernel, self.gamma, self.degree, self.coef0)?;
        let sv = for_kernel(
            dataset(self.sv_dense, self.sv_csr, Vec::new())?,
            &self.kernel,
        );
        let (labels, nr_sv, rho) = (self.labels, self.nr_sv, self.rho);
        let k = labels.len();
        let total: usize = nr_sv.iter().sum();
        let shape = self.sv_coef.shape();
        let pairs = k * k.saturating_sub(1) / 2;
        if k < 2
            || nr_sv.len() != k
            || total != sv.n()
            || shape != [k - 1, total]
            || rho.len() != pairs
            || self
                .prob
                .as_ref()
                .is_some_and(|(a, b)| a.len() != pairs || b.len() != pairs)
        {
            return Err(value_error(
                "the fitted arrays do not describe a model (refit it)",
            ));
        }
        let flat = self
            .sv_coef
            .as_slice()
            .map_err(|_| value_error("dual_coef_ must be C-contiguous"))?;
        Ok(MultiModel {
            kernel,
            labels,
            nr_sv,
            sv,
            sv_rows: Vec::new(),
            sv_coef: (0..k - 1)
                .map(|i| flat[i * total..(i + 1) * total].to_vec())
                .collect(),
            rho,
            prob: self.prob,
        })
    }
}

/// Folds from the test rows of each fold (a partition of `0..n`).
pub fn folds(n: usize, test: Vec<Vec<usize>>) -> Folds {
    Folds {
        n,
        folds: test,
        kind: "explicit".into(),
    }
}

/// Each fold's test rows, fold after fold (as the Python layer takes them).
pub fn test_rows(f: &Folds) -> Vec<Vec<usize>> {
    (0..f.k()).map(|h| f.test_rows(h).to_vec()).collect()
}
