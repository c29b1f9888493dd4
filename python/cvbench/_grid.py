"""cvbench.GridSearchSVC: GridSearchCV(SVC(), param_grid) whose (C, gamma)
points run on cvbench's grid engine (gamma blocks, C-path warm starts,
Newton steps, threads) for two classes, or one shared kernel cache per gamma
for more; GridSearchCV(NuSVC() / SVR() / NuSVR() / OneClassSVM(), ...) on
the formulation grid (``_grid_formulations``); the candidates the engines
cannot share work for run as plain per-fold fits (``_perfold``)."""

import time

import numpy as np
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.metrics import check_scoring
from sklearn.model_selection import ParameterGrid, check_cv
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _grid_formulations as formulations
from . import _native
from ._params import check_not_estimator, folds, native_x, positive, resolve_gamma, spec
from ._perfold import SAMPLE_WEIGHT_REASON, fit_and_score, fold_dependent, sample_weight_of
from ._svc import SVC, _validate_data

#: The grid axes the engine shares work across.
ENGINE_KEYS = ("C", "gamma")


def _same(a, b):
    """Whether two parameter values are the same setting."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return a is b


def _has(attr):
    """``available_if`` check: the refitted model (or, before fit, an SVC
    of the base parameters) has ``attr``, as GridSearchCV's delegation."""

    def check(self):
        if not self.refit:
            raise AttributeError(
                f"This GridSearchSVC instance was initialized with refit=False. {attr} is "
                "available only after refitting on the best parameters."
            )
        est = getattr(self, "best_estimator_", None)
        if est is None:
            est = self._template()
        getattr(est, attr)
        return True

    return check


class GridSearchSVC(ClassifierMixin, BaseEstimator):
    """A drop-in for ``GridSearchCV(SVC(**svc_params), param_grid, cv=cv,
    scoring=scoring, refit=refit, verbose=verbose)``: ``cv_results_`` has
    GridSearchCV's keys and row order (and one more, ``reuse``: what ran
    each candidate), ``best_params_``, ``best_score_``, ``best_index_``,
    ``best_estimator_``, ``scorer_``, ``n_splits_`` and ``refit_time_`` are
    GridSearchCV's; ``predict``, ``predict_proba``, ``predict_log_proba``,
    ``decision_function`` and ``score`` are the refitted model's.

    ``param_grid``: a dict or a list of dicts of any SVC parameters. The
    candidates whose only varying parameters are ``C`` and ``gamma``, with
    one gamma for every fold (not ``'scale'``, which scikit-learn computes on
    each training fold), no class weights and accuracy as the score run on
    the grid engine with ``reuse``; the others (another kernel, degree, ...
    varying, ``gamma='scale'``, ``class_weight``, another ``scoring``) as
    plain per-fold fits (``SVC.fit(X[train], y[train])``, scikit-learn's own
    procedure, on ``n_jobs`` threads). ``cv_results_["reuse"]`` says which,
    per candidate (``plain fits: <why>`` for the latter).

    ``cv``: an int (scikit-learn's ``StratifiedKFold``, as GridSearchCV),
    a splitter or a list of (train, test) pairs whose test sets partition
    the rows. ``reuse``: the grid engine's reuse (``cvbench grid --reuse``:
    ``all``, ``none`` or a ``+``-list of ``gamma``, ``cpath``, ``newton``,
    ``threads``, ``folds``; default ``gamma+threads``, exact). The exact levels (``none``, ``gamma``,
    ``threads``, ``gamma+threads``: no warm start) fit every (point, fold)
    in scikit-learn's row order, so every score is GridSearchCV's on the
    same folds, bit for bit (as are the plain fits'); the warm-start levels
    (``all``, ``cpath``, ``newton``, ``folds``), faster, run two classes in
    LIBSVM's CV order, each fold's score within one held-out row of
    GridSearchCV's. ``scoring``: None (accuracy) or one scikit-learn scorer
    (a name or a callable). ``refit``: True, False or a callable of
    ``cv_results_`` returning the best index (GridSearchCV's).
    ``verbose``: > 0 prints the number of fits, > 1 each fit's score.
    ``n_jobs``: threads, scikit-learn's convention (None: 1 unless a
    ``joblib.parallel_config`` context sets it; -1: every core).
    ``svc_params``: the fixed SVC parameters.

    ``estimator``: None (an ``SVC`` of ``svc_params``), a ``cvbench.SVC``
    (its parameters the fixed ones), or a ``cvbench.NuSVC``, ``SVR``,
    ``NuSVR`` or ``OneClassSVM`` (``GridSearchCV(estimator, param_grid)``;
    ``param_grid`` then of its parameters: ``C``, ``gamma``, ``epsilon``
    for SVR, ``nu`` for the nu ones). The latter's candidates whose only
    varying parameters are those axes, with one gamma for every fold, run
    on the formulation grid (``cvbench grid -s 1..4``'s engine: one kernel
    cache per gamma for every point and fold, the trainings on ``n_jobs``
    threads; ``reuse``: ``gamma+threads``, ``gamma``, ``threads`` or
    ``none``, the same numbers each; for SVR also ``cpath`` and ``all``,
    ``gamma+cpath+threads``: within a gamma and a fold each point starts
    from an earlier point's solution, along epsilon as it is and along C
    scaled, every score within the
    stopping tolerance instead of bit for bit), every training LIBSVM's
    ``svm-train -s N`` on the fold's training rows in fold order (for
    contiguous folds, ``KFold``'s, scikit-learn's order); the held-out
    predictions it returns are scored by scikit-learn's scorer
    (``scoring`` None: the estimator's ``score``, R^2 for the regressors,
    accuracy for NuSVC; a name or a callable that needs only ``predict``;
    another runs plain fits). ``cv`` an int: ``KFold`` for the regressors
    and OneClassSVM, ``StratifiedKFold`` for NuSVC (``check_cv``). The
    other candidates (``gamma='scale'``, computed on each training fold,
    other parameters varying) are plain per-fold fits of
    ``clone(estimator).set_params(**params)``. The search is then
    scikit-learn's type of estimator (a regressor for SVR). Not supported
    yet: ``sample_weight`` (the formulations take none), a precomputed
    kernel; no scaling is done (scale inside the folds with scikit-learn's
    ``Pipeline`` in ``GridSearchCV`` where that is wanted).
    """

    def __init__(self, param_grid, *, estimator=None, cv=5, reuse="gamma+threads", scoring=None,
                 n_jobs=None, refit=True, verbose=0, svc_params=None):
        self.param_grid = param_grid
        self.estimator = estimator
        self.cv = cv
        self.reuse = reuse
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.verbose = verbose
        self.svc_params = svc_params

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        if formulations.formulation(self.estimator) is not None:
            # The estimator's type, as GridSearchCV's tags delegate it.
            inner = self.estimator.__sklearn_tags__()
            tags.estimator_type = inner.estimator_type
            tags.target_tags = inner.target_tags
            tags.classifier_tags = inner.classifier_tags
            tags.regressor_tags = inner.regressor_tags
        return tags

    def _formulation(self):
        """The estimator of another formulation than C-SVC, or None (an
        SVC); anything else is a ValueError."""
        est = self.estimator
        if est is None or type(est) is SVC:
            return None
        if formulations.formulation(est) is None:
            raise ValueError(
                "GridSearchSVC's estimator is a cvbench SVC, NuSVC, SVR, NuSVR or OneClassSVM, got "
                f"{est!r}; any other estimator: scikit-learn's GridSearchCV"
            )
        if self.svc_params is not None:
            raise ValueError("svc_params is SVC's: set the estimator's parameters on it instead")
        return est

    def _template(self):
        """An unfitted model of the base parameters."""
        est = self._formulation()
        return SVC(**self._base()) if est is None else clone(est)

    def _base(self):
        base = SVC().get_params()
        if self.estimator is not None:
            if self.svc_params is not None:
                raise ValueError("give the fixed SVC parameters on the estimator or in svc_params, not both")
            base.update(self.estimator.get_params())
        extra = self.svc_params
        check_not_estimator("GridSearchSVC's svc_params", extra)
        extra = dict(self.svc_params or {})
        unknown = set(extra) - set(base)
        if unknown:
            raise ValueError(f"svc_params: unknown SVC parameters {sorted(unknown)}")
        base.update(extra)
        base["n_jobs"] = self.n_jobs
        return base

    def _candidates(self, base):
        check_not_estimator("GridSearchSVC's param_grid", self.param_grid)
        formulations.check_grid_type(self.param_grid)
        candidates = list(ParameterGrid(self.param_grid))
        if not candidates:
            raise ValueError("param_grid is empty: there is no candidate to evaluate")
        for p in candidates:
            if {**base, **p}.get("kernel") == "precomputed":
                raise ValueError(
                    "GridSearchSVC takes no kernel='precomputed' yet; use scikit-learn's GridSearchCV "
                    "with cvbench.SVC(kernel='precomputed')"
                )
            bad = set(p) - set(base)
            if bad:
                raise ValueError(
                    f"param_grid: {sorted(bad)} are not SVC parameters (valid: {sorted(base)}); "
                    "nu and epsilon are NuSVC's, SVR's, NuSVR's, OneClassSVM's: pass "
                    "estimator=cvbench.SVR() (or the other)"
                )
        return candidates

    def _route(self, base, candidates, binary, weighted=False):
        """Per candidate: None (the grid engine) or why it runs as plain
        per-fold fits."""
        accuracy = self.scoring is None or self.scoring == "accuracy"
        out = []
        for p in candidates:
            full = {**base, **p}
            why = SAMPLE_WEIGHT_REASON if weighted else fold_dependent(full)
            differ = sorted(key for key in p if key not in ENGINE_KEYS and not _same(p[key], base[key]))
            if why is None and differ:
                why = f"{differ} vary (the engine shares C and gamma only)"
            if why is None and full["class_weight"] is not None:
                why = "class weights (the engine's grid has none)"
            if why is None and not accuracy:
                why = f"scoring={self.scoring!r} (the engine counts correct rows)"
            if why is None and full["break_ties"] and not binary:
                why = "break_ties (the engine votes one-vs-one)"
            out.append(why)
        return out

    def fit(self, X, y=None, **fit_params):
        """Cross-validate every candidate of the grid and refit the best.
        ``fit_params``: ``sample_weight`` (as ``GridSearchCV.fit``): each
        fold's fit weights its training rows' C and its score its test rows
        (as ``GridSearchCV`` routes it), the refit all rows'; such candidates
        run as plain per-fold fits (SVC only)."""
        if not (isinstance(self.refit, bool) or callable(self.refit)):
            raise ValueError(f"refit must be True, False or a callable, got {self.refit!r}")
        est = self._formulation()
        if est is None:
            X, y, candidates, k, scores, fit_s, score_s, reuse, refit = self._search_svc(X, y, fit_params)
        else:
            X, y, candidates, k, scores, fit_s, score_s, reuse, refit = self._search_formulation(
                est, X, y, fit_params)
        if self.verbose > 1:
            for i, p in enumerate(candidates):
                shown = ";".join(f"{key}={v}" for key, v in sorted(p.items()))
                for f in range(k):
                    print(f"[CV {f + 1}/{k}] END {shown}; score={scores[i, f]:.3f} "
                          f"total time={fit_s[i, f] + score_s[i, f]:.1f}s")
        self.cv_results_ = self._results(candidates, scores, fit_s, score_s, reuse)
        self.multimetric_ = False
        if callable(self.refit):
            self.best_index_ = int(self.refit(self.cv_results_))
        else:
            self.best_index_ = int(self.cv_results_["rank_test_score"].argmin())
            self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        self.best_params_ = candidates[self.best_index_]
        self.n_splits_ = k
        if self.refit:
            t0 = time.perf_counter()
            self.best_estimator_ = refit(self.best_params_)
            self.refit_time_ = time.perf_counter() - t0
        return self

    def _announce(self, k, candidates):
        if self.verbose > 0:
            print(f"Fitting {k} folds for each of {len(candidates)} candidates, totalling "
                  f"{k * len(candidates)} fits")

    def _search_formulation(self, est, X, y, fit_params):
        """The search of a NuSVC, SVR, NuSVR or OneClassSVM
        (``_grid_formulations``)."""
        kind = formulations.estimator_type(est)
        if kind == "outlier_detector" and y is None:
            X = _validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C")
        else:
            X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C",
                                  y_numeric=kind == "regressor")
        sample_weight = sample_weight_of(fit_params, X.shape[0])
        if kind == "classifier":
            check_classification_targets(y)
            self.classes_ = np.unique(y)
        candidates = formulations.candidates(est, self.param_grid)
        self.scorer_ = check_scoring(est, self.scoring)
        splitter = check_cv(self.cv, y, classifier=kind == "classifier")
        tests = folds(splitter.split(X, y), X.shape[0])
        self._announce(len(tests), candidates)
        t0 = time.perf_counter()
        scores, fit_s, score_s, reuse = formulations.search(
            est, X, y, candidates, tests, self.scorer_, n_jobs=self.n_jobs, reuse=self.reuse,
            sample_weight=sample_weight,
        )
        self._search_time = time.perf_counter() - t0

        def refit(best):
            return clone(est).set_params(**best).fit(X, y)

        return X, y, candidates, len(tests), scores, fit_s, score_s, reuse, refit

    def _search_svc(self, X, y, fit_params):
        """The search of an SVC: the grid engine and plain per-fold fits."""
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C")
        sample_weight = sample_weight_of(fit_params, X.shape[0])
        check_classification_targets(y)
        classes, y_enc = np.unique(y, return_inverse=True)
        base = self._base()
        candidates = self._candidates(base)
        self.scorer_ = check_scoring(SVC(), self.scoring)
        splitter = check_cv(self.cv, y, classifier=True)
        tests = folds(splitter.split(X, y), X.shape[0])
        k = len(tests)
        everything = np.arange(X.shape[0])
        splits = [(np.setdiff1d(everything, t), np.asarray(t, dtype=np.intp)) for t in tests]
        self._announce(k, candidates)
        route = self._route(base, candidates, len(classes) == 2, sample_weight is not None)
        n = len(candidates)
        scores, fit_s, score_s = np.zeros((n, k)), np.zeros((n, k)), np.zeros((n, k))
        engine = [i for i, why in enumerate(route) if why is None]
        plain = [i for i, why in enumerate(route) if why is not None]
        t0 = time.perf_counter()
        if engine:
            got = self._engine(X, y_enc, base, [candidates[i] for i in engine], tests)
            scores[engine], fit_s[engine] = got
        if plain:
            full = [{**base, **candidates[i]} for i in plain]
            s, f_s, sc_s, _ = fit_and_score(X, y, full, splits, scoring=self.scoring, n_jobs=self.n_jobs,
                                            sample_weight=sample_weight, weighted_scores=True)
            scores[plain], fit_s[plain], score_s[plain] = s, f_s, sc_s
        self._search_time = time.perf_counter() - t0
        reuse = [str(self.reuse) if why is None else f"plain fits: {why}" for why in route]
        self.classes_ = classes

        def refit(best):
            return SVC(**{**base, **best}).fit(X, y, sample_weight=sample_weight)

        return X, y, candidates, k, scores, fit_s, score_s, reuse, refit

    def _engine(self, X, y_enc, base, candidates, tests):
        """The (C, gamma) candidates on the grid engine: scores and seconds
        (candidates x folds)."""
        points = [
            (float(p.get("C", base["C"])), resolve_gamma(p.get("gamma", base["gamma"]), X))
            for p in candidates
        ]
        for c, _ in points:
            positive("C", c)
        args = spec(
            C=1.0, kernel=base["kernel"], gamma=1.0, degree=base["degree"], coef0=base["coef0"],
            tol=base["tol"], cache_size=base["cache_size"], shrinking=base["shrinking"],
            max_iter=base["max_iter"], n_jobs=self.n_jobs, solver=base["solver"],
        )
        dense, csr = native_x(X)
        correct, n_test, _iters, seconds = _native.grid(
            dense, csr, y_enc.astype(np.float64), args, points, tests, str(self.reuse)
        )
        return correct / n_test, seconds

    @staticmethod
    def _results(candidates, scores, fit_s, score_s, reuse):
        n, k = scores.shape
        res = {
            "mean_fit_time": fit_s.mean(axis=1),
            "std_fit_time": fit_s.std(axis=1),
            "mean_score_time": score_s.mean(axis=1),
            "std_score_time": score_s.std(axis=1),
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
        res["reuse"] = np.array(reuse, dtype=object)
        return res

    def _best(self):
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_

    def predict(self, X):
        """The refitted model's predictions."""
        return self._best().predict(X)

    @available_if(_has("decision_function"))
    def decision_function(self, X):
        """The refitted model's decision function."""
        return self._best().decision_function(X)

    @available_if(_has("predict_proba"))
    def predict_proba(self, X):
        """The refitted model's class probabilities (``probability=True`` in
        ``svc_params`` or the grid)."""
        return self._best().predict_proba(X)

    @available_if(_has("predict_log_proba"))
    def predict_log_proba(self, X):
        """The log of the refitted model's class probabilities."""
        return self._best().predict_log_proba(X)

    @available_if(_has("score_samples"))
    def score_samples(self, X):
        """The refitted OneClassSVM's ``score_samples``."""
        return self._best().score_samples(X)

    def score(self, X, y=None):
        """The refitted model's score by ``scoring`` (by default the
        estimator's: accuracy, R^2 for a regressor)."""
        return self.scorer_(self._best(), X, y)
