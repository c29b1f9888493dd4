"""cvbench.GridSearchSVC: GridSearchCV(SVC(), param_grid) over C and gamma,
every point's k-fold CV run by cvbench's grid engine (gamma blocks, C-path
warm starts, Newton steps, threads) for two classes, or one shared kernel
cache per gamma for more."""

import time

import numpy as np
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import ParameterGrid, check_cv
from sklearn.utils import check_X_y
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _native
from ._params import folds, native_x, positive, resolve_gamma, spec
from ._svc import SVC

GRID_KEYS = ("C", "gamma")


class GridSearchSVC(ClassifierMixin, BaseEstimator):
    """A drop-in for ``GridSearchCV(SVC(**svc_params), param_grid, cv=cv)``
    over ``C`` and ``gamma``: ``cv_results_`` has GridSearchCV's keys and
    row order, ``best_params_``, ``best_score_``, ``best_index_`` and
    (``refit=True``) ``best_estimator_`` are GridSearchCV's.

    ``cv``: an int (scikit-learn's ``StratifiedKFold``, as GridSearchCV),
    a splitter or a list of (train, test) pairs whose test sets partition
    the rows. ``reuse``: the grid engine's reuse (``cvbench grid --reuse``:
    ``all``, ``none`` or a ``+``-list of ``gamma``, ``cpath``, ``newton``,
    ``threads``, ``folds``). The exact levels (``none``, ``gamma``,
    ``threads``, ``gamma+threads``: no warm start) fit every (point, fold)
    in scikit-learn's row order, so every score is GridSearchCV's on the
    same folds, bit for bit; the warm-start levels (``all``, ``cpath``,
    ``newton``, ``folds``), faster, run two classes in LIBSVM's CV order,
    each fold's score within one held-out row of GridSearchCV's. ``svc_params``: the other SVC parameters
    (``kernel``, ``degree``, ``coef0``, ``tol``, ``cache_size``,
    ``shrinking``, ``max_iter``; and ``C``/``gamma`` where the grid has none).
    """

    def __init__(self, param_grid, *, cv=5, reuse="all", n_jobs=None, refit=True, svc_params=None):
        self.param_grid = param_grid
        self.cv = cv
        self.reuse = reuse
        self.n_jobs = n_jobs
        self.refit = refit
        self.svc_params = svc_params

    def _base(self):
        base = SVC().get_params()
        extra = dict(self.svc_params or {})
        unknown = set(extra) - set(base)
        if unknown:
            raise ValueError(f"svc_params: unknown SVC parameters {sorted(unknown)}")
        base.update(extra)
        return base

    def fit(self, X, y):
        """Cross-validate every point of the grid and refit the best."""
        X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C")
        check_classification_targets(y)
        classes, y_enc = np.unique(y, return_inverse=True)
        base = self._base()
        if base["class_weight"] is not None:
            raise ValueError("svc_params: class_weight is not supported by GridSearchSVC")
        candidates = list(ParameterGrid(self.param_grid))
        for p in candidates:
            bad = set(p) - set(GRID_KEYS)
            if bad:
                raise ValueError(
                    f"param_grid: only {GRID_KEYS} can vary, got {sorted(bad)} (put fixed SVC parameters in svc_params)"
                )
        points = [
            (float(p.get("C", base["C"])), resolve_gamma(p.get("gamma", base["gamma"]), X))
            for p in candidates
        ]
        splitter = check_cv(self.cv, y, classifier=True)
        tests = folds(splitter.split(X, y), X.shape[0])
        args = spec(
            C=1.0, kernel=base["kernel"], gamma=1.0, degree=base["degree"], coef0=base["coef0"],
            tol=base["tol"], cache_size=base["cache_size"], shrinking=base["shrinking"],
            max_iter=base["max_iter"], n_jobs=self.n_jobs, solver=base["solver"],
        )
        for c, _ in points:
            positive("C", c)
        dense, csr = native_x(X)
        t0 = time.perf_counter()
        correct, n_test, _iters, seconds = _native.grid(
            dense, csr, y_enc.astype(np.float64), args, points, tests, str(self.reuse)
        )
        self._search_time = time.perf_counter() - t0
        self.cv_results_ = self._results(candidates, correct / n_test, seconds)
        self.best_index_ = int(self.cv_results_["rank_test_score"].argmin())
        self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        self.best_params_ = candidates[self.best_index_]
        self.n_splits_ = len(tests)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        if self.refit:
            params = {**base, **self.best_params_, "n_jobs": self.n_jobs}
            t0 = time.perf_counter()
            self.best_estimator_ = SVC(**params).fit(X, y)
            self.refit_time_ = time.perf_counter() - t0
        return self

    @staticmethod
    def _results(candidates, scores, seconds):
        n, k = scores.shape
        res = {
            "mean_fit_time": seconds.mean(axis=1),
            "std_fit_time": seconds.std(axis=1),
            "mean_score_time": np.zeros(n),
            "std_score_time": np.zeros(n),
        }
        for name in sorted({key for p in candidates for key in p}):
            col = np.ma.MaskedArray(np.empty(n, dtype=object), mask=True)
            for i, p in enumerate(candidates):
                if name in p:
                    col[i] = p[name]
            res[f"param_{name}"] = col
        res["params"] = candidates
        for f in range(k):
            res[f"split{f}_test_score"] = scores[:, f]
        mean = scores.mean(axis=1)
        res["mean_test_score"] = mean
        res["std_test_score"] = scores.std(axis=1)
        res["rank_test_score"] = rankdata(-mean, method="min").astype(np.int32)
        return res

    def predict(self, X):
        """The best estimator's predictions."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def decision_function(self, X):
        """The best estimator's decision function."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)
