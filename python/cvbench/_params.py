"""Argument checks and conversions shared by SVC, cross_validate_svc and
GridSearchSVC (one place for each rule)."""

import numbers

import joblib

import numpy as np
import scipy.sparse as sp
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets

from . import _native

KERNELS = ("linear", "poly", "rbf", "sigmoid", "precomputed")
PRECOMPUTED = "precomputed"
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1


def native_x(X):
    """(dense, csr) arguments of the native functions for validated X:
    a C-contiguous float64 array, or CSR parts with sorted indices (SciPy's
    own int32 or int64 index arrays). Input already in that layout is
    passed as it is (no copy here); the library makes the one copy into its
    row format (docs/python.md)."""
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        return None, (
            np.ascontiguousarray(X.data, dtype=np.float64),
            np.ascontiguousarray(X.indices),
            np.ascontiguousarray(X.indptr),
            int(X.shape[1]),
        )
    return np.ascontiguousarray(X, dtype=np.float64), None


def kernel_x(kernel, X, *, training):
    """(dense, csr) of validated X as the library reads it for ``kernel``:
    ``native_x(X)``, or for ``'precomputed'`` LIBSVM's rows (``svm-train
    -t 4``): column 0 the row's serial number (1..n for a training set,
    0 for rows to predict), then the row's kernel values. A training Gram
    matrix must be square and dense (scikit-learn's checks and
    messages)."""
    if kernel != PRECOMPUTED:
        return native_x(X)
    if sp.issparse(X):
        raise TypeError("Sparse precomputed kernels are not supported.")  # scikit-learn's too
    K = np.asarray(X, dtype=np.float64)
    if training:
        check_gram(K)
    first = np.arange(1, K.shape[0] + 1, dtype=np.float64) if training else np.zeros(K.shape[0])
    return np.ascontiguousarray(np.column_stack([first, K])), None


def check_gram(K):
    """A training Gram matrix is square (scikit-learn's check and message)."""
    if K.shape[0] != K.shape[1]:
        raise ValueError(
            f"Precomputed matrix must be a square matrix. Input is a {K.shape[0]}x{K.shape[1]} matrix."
        )


def pairwise_split(kernel, X, train, test=None):
    """The rows of a fold as scikit-learn's ``_safe_split`` takes them:
    ``X[train]`` (``X[test]``), or for a precomputed kernel
    ``K[train][:, train]`` (``K[test][:, train]``)."""
    if kernel != PRECOMPUTED:
        return X[train] if test is None else X[test]
    check_gram(X)
    rows = train if test is None else test
    return X[rows][:, train]


def threads(n_jobs):
    """Our threads for scikit-learn's ``n_jobs``, by scikit-learn's
    convention (its glossary, joblib's ``effective_n_jobs``): ``None`` is 1
    unless a ``joblib.parallel_config(n_jobs=...)`` context says otherwise,
    -1 every core joblib counts (CPU affinity and cgroup limits included),
    -2 all but one, ``n`` > 0 ``n`` threads."""
    if n_jobs is not None and (
        isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0
    ):
        raise ValueError(f"n_jobs must be None or a non-zero integer, got {n_jobs!r}")
    return max(1, int(joblib.effective_n_jobs(None if n_jobs is None else int(n_jobs))))


def resolve_gamma(gamma, X):
    """The kernel's gamma as scikit-learn's SVC computes it."""
    n_features = X.shape[1]
    if isinstance(gamma, str):
        if gamma == "scale":
            if sp.issparse(X):
                var = X.multiply(X).mean() - X.mean() ** 2
            else:
                var = X.var()
            return 1.0 / (n_features * var) if var != 0 else 1.0
        if gamma == "auto":
            return 1.0 / n_features
        raise ValueError(f"gamma must be 'scale', 'auto' or a float >= 0, got {gamma!r}")
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real) or not gamma >= 0:
        raise ValueError(f"gamma must be 'scale', 'auto' or a float >= 0, got {gamma!r}")
    return float(gamma)


def positive(name, value):
    """A finite number > 0, or a ValueError naming the parameter."""
    kind = numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind) or not value > 0 or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")


def spec(*, C, kernel, gamma, degree, coef0, tol, cache_size, shrinking, max_iter,
         weights=(), n_jobs=None, sorted_classes=True, probability=None, solver="smo"):
    """The parameters the native functions take, checked (``probability``:
    None, or the ``srand`` seed of the probability model's shuffles)."""
    positive("C", C)
    positive("tol", tol)
    positive("cache_size", cache_size)
    if kernel not in KERNELS:
        raise ValueError(
            f"kernel must be one of {KERNELS} (callable kernels are not supported), got {kernel!r}"
        )
    if isinstance(degree, bool) or not isinstance(degree, numbers.Integral) or not 0 <= degree <= INT32_MAX:
        raise ValueError(f"degree must be an integer in [0, 2**31 - 1] (LIBSVM's int), got {degree!r}")
    if isinstance(coef0, bool) or not isinstance(coef0, numbers.Real) or not np.isfinite(coef0):
        raise ValueError(f"coef0 must be a finite number, got {coef0!r}")
    if (isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter == 0
            or not -1 <= max_iter <= INT64_MAX):
        raise ValueError(f"max_iter must be -1 (no limit) or an integer in [1, 2**63 - 1], got {max_iter!r}")
    if solver not in _native.SOLVERS:
        raise ValueError(f"solver must be one of {tuple(_native.SOLVERS)}, got {solver!r}")
    return {
        "kernel": kernel,
        "c": float(C),
        "gamma": float(gamma),
        "degree": int(degree),
        "coef0": float(coef0),
        "tol": float(tol),
        "cache_mb": float(cache_size),
        "shrinking": bool(shrinking),
        "max_iter": int(max_iter),
        "weights": list(weights),
        "threads": threads(n_jobs),
        "sorted": bool(sorted_classes),
        "probability": probability,
        "solver": solver,
    }


def check_decision_shape(shape):
    """``decision_function_shape`` is scikit-learn's ``ovr`` or ``ovo``."""
    if shape not in ("ovr", "ovo"):
        raise ValueError(f"decision_function_shape must be 'ovr' or 'ovo', got {shape!r}")


def encode_classes(y):
    """(sorted classes, each label's class index) of classification
    targets, at least two classes (scikit-learn's checks and message)."""
    check_classification_targets(y)
    classes, y_enc = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class")
    return classes, y_enc


def nu_value(nu):
    """nu, a number in (0, 1] (LIBSVM's ``-n``), or a ValueError."""
    if isinstance(nu, bool) or not isinstance(nu, numbers.Real) or not 0 < nu <= 1:
        raise ValueError(f"nu must be a number in (0, 1], got {nu!r}")
    return float(nu)


def epsilon_value(epsilon):
    """epsilon-SVR's epsilon, a finite number >= 0 (LIBSVM's ``-p``), or a
    ValueError."""
    if (isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or not epsilon >= 0
            or not np.isfinite(epsilon)):
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon!r}")
    return float(epsilon)


#: Why the formulations take no sample weights (yet).
NO_SAMPLE_WEIGHT = "the library's nu-SVC, one-class and SVR solvers take no per-sample weights yet"

def check_not_estimator(what, obj):
    """``what`` (GridSearchSVC's ``param_grid`` or ``svc_params``) given
    an estimator is a ValueError saying where the estimator goes
    (``GridSearchSVC(param_grid, estimator=...)``)."""
    from sklearn.base import BaseEstimator

    if isinstance(obj, BaseEstimator):
        raise ValueError(
            f"{what} got the estimator {type(obj).__name__}: GridSearchSVC takes the grid first and "
            f"the estimator by name, GridSearchSVC(param_grid, estimator={type(obj).__name__}())"
        )


def refuse(name, value, why):
    """A parameter the library cannot honour (its default None): a
    ValueError saying why where it is given."""
    if value is not None:
        raise ValueError(f"{name} is not supported: {why} (leave it None)")


def class_weights(class_weight, classes, y_encoded):
    """(class index, factor) pairs for the encoded labels, and the array
    scikit-learn stores as ``class_weight_``; a bad factor is a ValueError
    naming the user's label (``class_weight[7] = -2.0: ...``)."""
    if class_weight is not None and not (class_weight == "balanced" or isinstance(class_weight, dict)):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
    if isinstance(class_weight, dict):
        for label, w in class_weight.items():
            if isinstance(w, bool) or not isinstance(w, numbers.Real) or not (np.isfinite(w) and w > 0):
                raise ValueError(
                    f"class_weight[{label!r}] = {w!r}: a class weight must be a finite number > 0 (it multiplies C)"
                )
    cw = compute_class_weight(class_weight, classes=classes, y=classes[y_encoded])
    pairs = [(i, float(w)) for i, w in enumerate(cw) if w != 1.0] if class_weight is not None else []
    return pairs, cw


def check_cv_arg(cv):
    """``cv`` as scikit-learn's ``check_cv`` accepts it (an int >= 2, a
    splitter, an iterable of (train, test) pairs), else a clear error."""
    if isinstance(cv, (bool, np.bool_)):
        raise ValueError(f"cv must be an int >= 2, a cross-validation splitter or an iterable of (train, test) pairs, got {cv!r}")
    if isinstance(cv, numbers.Integral):
        if cv < 2:
            raise ValueError(f"cv must be >= 2 folds, got {cv}")
        return int(cv)
    if not isinstance(cv, (str, bytes)) and (hasattr(cv, "split") or hasattr(cv, "__iter__")):
        return cv
    raise ValueError(
        "Expected cv as an integer, cross-validation object (from sklearn.model_selection) "
        f"or an iterable of (train, test) pairs. Got {cv!r}."
    )


def folds(cv_splits, n):
    """Test folds of (train, test) pairs that partition the rows, each
    train set the complement of its test set."""
    tests = []
    seen = np.zeros(n, dtype=bool)
    for i, (train, test) in enumerate(cv_splits):
        test = np.asarray(test, dtype=np.int64).ravel()
        train = np.asarray(train, dtype=np.int64).ravel()
        if test.size and (test.min() < 0 or test.max() >= n):
            raise ValueError(f"cv split {i}: a test index is outside 0..{n - 1}")
        if seen[test].any() or len(np.unique(test)) != len(test):
            raise ValueError(
                f"cv split {i}: a row is in two test folds; the folds must partition the rows (use KFold-like splitters)"
            )
        seen[test] = True
        rest = np.setdiff1d(np.arange(n), test)
        if not np.array_equal(np.sort(train), rest):
            raise ValueError(
                f"cv split {i}: the training rows must be every row not in the test fold"
            )
        tests.append([int(t) for t in test])
    if len(tests) < 2 or not seen.all():
        raise ValueError("cv: the test folds must cover every row, in at least 2 folds")
    return tests
