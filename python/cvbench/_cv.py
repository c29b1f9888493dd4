"""cvbench.cross_validate_svc: exact k-fold CV of a C-SVC (every fold and
class pair a parallel solve on one shared kernel cache)."""

import numbers

import numpy as np
from sklearn.utils import check_X_y
from sklearn.utils.multiclass import check_classification_targets

from . import _native
from ._params import class_weights, folds, native_x, resolve_gamma, spec


def _labels(y, class_weight):
    """The labels the library sees: numeric labels as they are (so LIBSVM's
    folds are svm-train's), others (or with class weights) as the index of
    their sorted class."""
    classes, y_enc = np.unique(y, return_inverse=True)
    if class_weight is None and np.issubdtype(np.asarray(y).dtype, np.number):
        return classes, y_enc, np.ascontiguousarray(y, dtype=np.float64)
    return classes, y_enc, y_enc.astype(np.float64)


def cross_validate_svc(X, y, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                       tol=1e-3, cache_size=200, class_weight=None, shrinking=True,
                       max_iter=-1, cv=10, seeding="auto", order=None, seeder=None,
                       cache="shared", n_jobs=None, solver="smo"):
    """k-fold CV of ``SVC(C=..., gamma=..., ...)``.

    ``cv``: an int (LIBSVM's folds, those of ``svm-train -v cv``), a
    scikit-learn splitter, or a list of (train, test) index pairs whose test
    sets partition the rows. ``seeding``, ``order``, ``seeder``, ``cache``:
    ``cvbench svm -v``'s ``--seeding`` (a preset of a round order and a
    seeder: ``none`` is ``svm-train -v``'s rounds, bit for bit; ``tree``,
    ``sir``, ... seed each round from another, two classes without class
    weights, each round's optimum within the stopping tolerance, so each
    fold's accuracy within one held-out row of ``none``'s), or ``auto``, the
    default: ``sir`` on two classes without class weights, ``none``
    otherwise (the rule and the measurements behind it: docs/python.md),
    ``--order`` and ``--seeder`` (override the preset's) and ``--cache``
    (``shared``, the default, or ``per_solve``), with the same names (an
    unknown one is a ``ValueError`` listing them); the cache is
    ``cache_size`` MB in all. Returns a dict of per-fold arrays:
    ``test_score`` (accuracy), ``n_iter`` (SMO iterations of the fold's
    class pairs; the tree order's inner nodes belong to no fold),
    ``fit_time`` (seconds), and ``seeding``, the name of the preset that ran
    (``order+seeder`` where the overrides make none).
    """
    X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C")
    check_classification_targets(y)
    classes, y_enc, y_native = _labels(y, class_weight)
    if len(classes) < 2:
        raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class")
    weights, _ = class_weights(class_weight, classes, y_enc)
    args = spec(C=C, kernel=kernel, gamma=resolve_gamma(gamma, X), degree=degree, coef0=coef0,
                tol=tol, cache_size=cache_size, shrinking=shrinking, max_iter=max_iter,
                weights=weights, n_jobs=n_jobs, sorted_classes=False, solver=solver)
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        if cv < 2:
            raise ValueError(f"cv must be >= 2 folds, got {cv}")
        k, tests = int(cv), None
    else:
        splits = cv.split(X, y) if hasattr(cv, "split") else cv
        k, tests = 0, folds(splits, X.shape[0])
    dense, csr = native_x(X)
    names = {"seeding": seeding, "order": order, "seeder": seeder, "cache": cache}
    for name, value in names.items():
        if not (isinstance(value, str) or (value is None and name in ("order", "seeder"))):
            raise ValueError(f"{name} must be a name (a str), got {value!r}")
    n_test, correct, n_iter, seconds, _pred, ran = _native.cross_validate(
        dense, csr, y_native, args, k, tests, seeding, order, seeder, cache
    )
    return {
        "test_score": correct / n_test,
        "n_iter": n_iter,
        "fit_time": seconds,
        "seeding": ran,
    }
