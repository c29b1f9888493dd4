"""cvbench.cross_validate_svc: exact k-fold CV of a C-SVC (every fold and
class pair a parallel solve on one shared kernel cache; plain per-fold fits
where each fold needs its own gamma or class weights)."""

import warnings

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_X_y
from sklearn.utils.multiclass import check_classification_targets

from . import _native
from ._params import check_cv_arg, class_weights, folds, kernel_x, resolve_gamma, spec
from ._perfold import SAMPLE_WEIGHT_REASON, fit_and_score, fold_dependent, sample_weight_of


def _labels(y, class_weight):
    """The labels the library sees: numeric labels as they are (so LIBSVM's
    folds are svm-train's), others (or with class weights) as the index of
    their sorted class."""
    classes, y_enc = np.unique(y, return_inverse=True)
    if class_weight is None and np.issubdtype(np.asarray(y).dtype, np.number):
        return classes, y_enc, np.ascontiguousarray(y, dtype=np.float64)
    return classes, y_enc, y_enc.astype(np.float64)


def cross_validate_svc(X, y, *, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                       tol=1e-3, cache_size=None, class_weight=None, shrinking=True,
                       max_iter=-1, cv=10, seeding="auto", order=None, seeder=None,
                       cache="shared", n_jobs=None, solver="smo", fit_params=None):
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
    ``cache_size`` MB in all (default None: the whole kernel matrix where it
    fits in half the available memory, at least 100 MB, as ``cvbench svm
    -v``'s default ``-m``; it changes no number). Returns a dict of per-fold arrays:
    ``test_score`` (accuracy), ``n_iter`` (SMO iterations of the fold's
    class pairs; the tree order's inner nodes belong to no fold),
    ``fit_time`` (seconds), and ``seeding``, the name of the preset that ran
    (``order+seeder`` where the overrides make none).

    ``gamma='scale'`` (non-linear kernels) and ``class_weight='balanced'``
    depend on the training rows, so each fold gets its own, computed on its
    training rows only, as ``cross_val_score(SVC(...))`` does: the shared
    kernel cache and the seeding need one gamma for all folds, so such a CV
    runs plain per-fold fits instead (each ``SVC.fit(X[train], y[train])``,
    scikit-learn's row order, the folds in parallel on ``n_jobs`` threads),
    ``seeding`` is then ``"per_fold"`` (a ``UserWarning`` where another
    seeding was asked for), and every score is scikit-learn's on the same
    folds. ``n_jobs``: threads, scikit-learn's convention (None: 1 unless a
    ``joblib.parallel_config`` context sets it; -1: every core).
    ``fit_params``: ``{"sample_weight": w}`` (as scikit-learn's
    ``cross_validate``): each fold's fit weights its training rows' C by
    ``w[train]`` (plain per-fold fits; the scores are unweighted).
    """
    for arg in (X, y):
        if isinstance(arg, BaseEstimator):
            raise ValueError(
                f"cross_validate_svc takes X and y (C-SVC's parameters as keywords), got a "
                f"{type(arg).__name__}: cross-validate an estimator with "
                "cvbench.cross_validate_svm(estimator, X, y)"
            )
    X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C")
    check_classification_targets(y)
    if cache_size is None:
        cache_size = _native.default_cache_mb(X.shape[0])
    classes, y_enc, y_native = _labels(y, class_weight)
    if len(classes) < 2:
        raise ValueError(f"The number of classes has to be greater than one; got {len(classes)} class")
    weights, _ = class_weights(class_weight, classes, y_enc)
    cv = check_cv_arg(cv)
    names = {"seeding": seeding, "order": order, "seeder": seeder, "cache": cache}
    for name, value in names.items():
        if not (isinstance(value, str) or (value is None and name in ("order", "seeder"))):
            raise ValueError(f"{name} must be a name (a str), got {value!r}")
    params = dict(C=C, kernel=kernel, degree=degree, gamma=gamma, coef0=coef0, tol=tol,
                  cache_size=cache_size, class_weight=class_weight, shrinking=shrinking,
                  max_iter=max_iter, solver=solver)
    dense, csr = kernel_x(kernel, X, training=True)
    sample_weight = sample_weight_of(fit_params, X.shape[0])
    reason = SAMPLE_WEIGHT_REASON if sample_weight is not None else fold_dependent(params)
    if reason is not None:
        return _per_fold(X, y, dense, csr, y_native, params, cv, reason, seeding, order, seeder, cache,
                         n_jobs, sample_weight)
    args = spec(C=C, kernel=kernel, gamma=resolve_gamma(gamma, X), degree=degree, coef0=coef0,
                tol=tol, cache_size=cache_size, shrinking=shrinking, max_iter=max_iter,
                weights=weights, n_jobs=n_jobs, sorted_classes=False, solver=solver)
    if isinstance(cv, int):
        k, tests = cv, None
    else:
        splits = cv.split(X, y) if hasattr(cv, "split") else cv
        k, tests = 0, folds(splits, X.shape[0])
    n_test, correct, n_iter, seconds, _pred, ran = _native.cross_validate(
        dense, csr, y_native, args, k, tests, seeding, order, seeder, cache
    )
    return {
        "test_score": correct / n_test,
        "n_iter": n_iter,
        "fit_time": seconds,
        "seeding": ran,
    }


def _per_fold(X, y, dense, csr, y_native, params, cv, reason, seeding, order, seeder, cache, n_jobs,
              sample_weight=None):
    """The CV as plain per-fold fits on the same folds (LIBSVM's for an
    int ``cv``): each fold's gamma / class weights from its training rows."""
    args = spec(C=params["C"], kernel=params["kernel"], gamma=1.0, degree=params["degree"],
                coef0=params["coef0"], tol=params["tol"], cache_size=params["cache_size"],
                shrinking=params["shrinking"], max_iter=params["max_iter"], n_jobs=n_jobs,
                solver=params["solver"])  # the checks, before any fit
    _native.cv_method(dense, csr, y_native, args, seeding, order, seeder, cache)  # the names' checks
    if seeding not in ("auto", "none") or order is not None or seeder is not None:
        warnings.warn(
            f"cross_validate_svc: {reason}, so the folds are plain per-fold fits; "
            f"seeding={seeding!r} (order={order!r}, seeder={seeder!r}) needs one gamma for all folds and is not used",
            UserWarning, stacklevel=3,
        )
    if isinstance(cv, int):
        tests = _native.libsvm_folds(dense, csr, y_native, cv)
    else:
        splits = cv.split(X, y) if hasattr(cv, "split") else cv
        tests = folds(splits, X.shape[0])
    everything = np.arange(X.shape[0])
    splits = [(np.setdiff1d(everything, t), np.asarray(t, dtype=np.intp)) for t in tests]
    scores, fit_s, _score_s, iters = fit_and_score(X, y, [params], splits, n_jobs=n_jobs,
                                                   sample_weight=sample_weight)
    return {
        "test_score": scores[0],
        "n_iter": iters[0].astype(np.int64),
        "fit_time": fit_s[0],
        "seeding": "per_fold",
    }
