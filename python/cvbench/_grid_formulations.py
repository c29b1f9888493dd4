"""GridSearchSVC's search of NuSVC, SVR, NuSVR and OneClassSVM: the
candidates whose only varying parameters are the formulation's grid axes
(C where it has one, gamma, and epsilon or nu) run on the library's
formulation grid (``cvbench grid -s 1..4``'s engine: one kernel cache per
gamma for every point and fold, the (point, fold) trainings on threads),
which hands back every row's held-out prediction; each fold's score is
then computed from them by scikit-learn's scorer (``_heldout``). The
others run as plain per-fold fits of the estimator (``_perfold``)."""

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import ParameterGrid
from sklearn.utils._param_validation import InvalidParameterError

from . import _native
from ._heldout import fold_scores
from ._nusvc import NuSVC
from ._one_function import SVR, NuSVR, OneClassSVM
from ._params import (
    NO_SAMPLE_WEIGHT,
    PRECOMPUTED,
    epsilon_value,
    native_x,
    nu_value,
    positive,
    refuse,
    resolve_gamma,
    spec,
)
from ._perfold import fit_and_score, fold_dependent

#: Per estimator: the library's formulation, its own parameter, and the
#: axes its grid shares work across (nu-SVC and one-class have no C).
FORMULATIONS = {
    NuSVC: ("nu_svc", "nu", ("gamma", "nu")),
    SVR: ("epsilon_svr", "epsilon", ("C", "gamma", "epsilon")),
    NuSVR: ("nu_svr", "nu", ("C", "gamma", "nu")),
    OneClassSVM: ("one_class", "nu", ("gamma", "nu")),
}

#: The exact reuse levels of the formulation grid (every number is
#: ``svm-train -s N -v``'s on the same folds).
LEVELS = ("gamma", "threads")

#: SVR's warm-start level (``cvbench grid -s 3 --reuse cpath``): within a
#: gamma and a fold each point starts from an earlier point's solution,
#: every number exact to the stopping tolerance, not bit for bit.
WARM = "cpath"


def formulation(estimator):
    """(kind, own parameter, grid axes) of a cvbench NuSVC, SVR, NuSVR or
    OneClassSVM, or None."""
    for cls, what in FORMULATIONS.items():
        if type(estimator) is cls:
            return what
    return None


def estimator_type(estimator):
    """scikit-learn's ``estimator_type`` of the estimator."""
    if isinstance(estimator, OneClassSVM):
        return "outlier_detector"
    return "classifier" if is_classifier(estimator) else "regressor"


def candidates(estimator, param_grid):
    """The grid's candidates as scikit-learn's ``ParameterGrid`` makes them
    (and its errors for a bad grid), each checked as ``GridSearchCV``
    checks it (``set_params`` on a clone: its error for a key that is no
    parameter of the estimator)."""
    check_grid_type(param_grid)
    grid = list(ParameterGrid(param_grid))
    if not grid:
        raise ValueError("param_grid is empty: there is no candidate to evaluate")
    for p in grid:
        est = clone(estimator).set_params(**p)
        if est.kernel == PRECOMPUTED:
            raise ValueError(
                "GridSearchSVC takes no kernel='precomputed' yet; use scikit-learn's GridSearchCV "
                f"with cvbench.{type(estimator).__name__}(kernel='precomputed')"
            )
    return grid


def check_grid_type(param_grid):
    """``param_grid`` is a dict or a list (scikit-learn's parameter
    validation of ``GridSearchCV``, its error and message)."""
    if not isinstance(param_grid, (dict, list)):
        raise InvalidParameterError(
            "The 'param_grid' parameter of GridSearchSVC must be an instance of 'dict' or an "
            f"instance of 'list'. Got {param_grid!r} instead."
        )


def _reuse(reuse, kind):
    """(shared kernel cache, threads on, warm starts) of ``reuse`` for the
    formulation grid of ``kind``: ``none``, or a ``+``-list of ``gamma``,
    ``threads`` and (SVR only) ``cpath``; ``all`` is every level that
    applies."""
    warm_ok = kind == "epsilon_svr"
    if reuse == "all":
        levels = set(LEVELS) | ({WARM} if warm_ok else set())
    else:
        levels = set() if reuse == "none" else set(str(reuse).split("+"))
    if not levels <= set(LEVELS) | {WARM}:
        raise ValueError(
            f"reuse={reuse!r}: the grid of NuSVC, SVR, NuSVR and OneClassSVM has the exact levels "
            "'none', 'gamma', 'threads' and 'gamma+threads', and for SVR the warm start 'cpath' "
            "(or 'all': gamma+cpath+threads)"
        )
    if WARM in levels and not warm_ok:
        raise ValueError(
            f"reuse={reuse!r}: the warm start 'cpath' is built for SVR's grid only (C and "
            "epsilon chains); use 'gamma+threads'"
        )
    return "gamma" in levels, "threads" in levels, WARM in levels


def route(estimator, grid, scoring_ok):
    """Per candidate: None (the formulation grid) or why it runs as plain
    per-fold fits."""
    _kind, _own, axes = formulation(estimator)
    base = estimator.get_params()
    out = []
    for p in grid:
        full = {**base, **p}
        why = fold_dependent(full)
        differ = sorted(key for key in p if key not in axes and not _same(p[key], base[key]))
        if why is None and differ:
            why = f"{differ} vary (the grid shares {', '.join(axes)} only)"
        if why is None and full.get("break_ties") and full.get("decision_function_shape") == "ovr":
            why = "break_ties (the grid votes one-vs-one)"
        if why is None and not scoring_ok:
            why = "the scorer needs the fitted model, not only its predictions"
        out.append(why)
    return out


def _same(a, b):
    """Whether two parameter values are the same setting."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return a is b


def engine(estimator, X, y_native, grid, tests, n_jobs, reuse):
    """The candidates ``grid`` on the formulation grid: every row's
    held-out prediction per candidate (candidates x rows; the library's
    labels for a classifier), and each candidate's seconds."""
    kind, own, _axes = formulation(estimator)
    base = estimator.get_params()
    shared, threaded, warm = _reuse(reuse, kind)
    check = nu_value if own == "nu" else epsilon_value
    points = []
    for p in grid:
        full = {**base, **p}
        c = float(full.get("C", 1.0))
        positive("C", c)
        points.append((c, resolve_gamma(full["gamma"], X), check(full[own])))
    args = spec(
        C=1.0, kernel=base["kernel"], gamma=1.0, degree=base["degree"], coef0=base["coef0"],
        tol=base["tol"], cache_size=base["cache_size"], shrinking=base["shrinking"],
        max_iter=base["max_iter"], n_jobs=n_jobs if threaded else 1,
    )
    dense, csr = native_x(X)
    pred, _iters, seconds = _native.formulation_grid(
        dense, csr, y_native, args, kind, points, tests, shared, _native.default_grid_memory_mb(),
        warm,
    )
    return pred, seconds


def search(estimator, X, y, grid, tests, scorer, *, n_jobs, reuse, sample_weight):
    """Scores, fit seconds and score seconds (candidates x folds) of every
    candidate, and per candidate what ran it."""
    refuse("sample_weight", sample_weight, NO_SAMPLE_WEIGHT)
    _reuse(reuse, formulation(estimator)[0])  # its error before any work
    kind = estimator_type(estimator)
    classes = None
    if kind == "classifier":
        classes, y_enc = np.unique(y, return_inverse=True)
        y_native = y_enc.astype(np.float64)
    else:
        y_native = np.zeros(X.shape[0]) if y is None else np.asarray(y, dtype=np.float64)
    y_native = np.ascontiguousarray(y_native)
    n, k = len(grid), len(tests)
    scores, fit_s, score_s = np.zeros((n, k)), np.zeros((n, k)), np.zeros((n, k))
    route_of = route(estimator, grid, True)
    on_engine = [i for i, why in enumerate(route_of) if why is None]
    if on_engine:
        engine_tests = tests
        if classes is not None:
            # Each test fold's rows by class, then in order: a training (the
            # other folds' rows in fold order, grouped by class in order of
            # first appearance, as LIBSVM groups them) then has its classes
            # sorted, as scikit-learn's, wherever the first of its folds has
            # every class; each class's rows stay in the folds' order.
            engine_tests = [sorted(t, key=lambda r: (y_native[r], r)) for t in tests]
        pred, seconds = engine(estimator, X, y_native, [grid[i] for i in on_engine], engine_tests,
                               n_jobs, reuse)
        try:
            for row, i in enumerate(on_engine):
                held = pred[row] if classes is None else classes[pred[row].astype(np.intp)]
                got, sc = fold_scores({"s": scorer}, kind, X, y, held, tests, classes)
                scores[i], score_s[i], fit_s[i] = got["s"], sc, seconds[row] / k
        except AttributeError:
            route_of = route(estimator, grid, False)
    plain = [i for i, why in enumerate(route_of) if why is not None]
    if plain:
        everything = np.arange(X.shape[0])
        splits = [(np.setdiff1d(everything, t), np.asarray(t, dtype=np.intp)) for t in tests]

        def make(params):
            return clone(estimator).set_params(**{**params, "verbose": False})

        s, f_s, sc_s, _ = fit_and_score(X, y, [grid[i] for i in plain], splits, scoring=scorer,
                                        n_jobs=n_jobs, make=make)
        scores[plain], fit_s[plain], score_s[plain] = s, f_s, sc_s
    labels = [str(reuse) if why is None else f"plain fits: {why}" for why in route_of]
    return scores, fit_s, score_s, labels
