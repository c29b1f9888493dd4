"""Plain per-fold fits: ``SVC(**params).fit(X[train], y[train])`` (or any
of cvbench's SVMs) scored on ``X[test]``, every (candidate, fold) a job on our threads (the native fit
and prediction release the GIL). This is scikit-learn's own procedure
(``cross_val_score``, ``GridSearchCV``), used where the engine's shared
paths do not apply: a gamma or class weights that depend on the training
rows (``gamma='scale'``, ``class_weight='balanced'``), a scorer other than
accuracy, or SVC parameters other than C and gamma varying. Only the
training rows reach a fit."""

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.metrics import check_scoring

from ._params import pairwise_split, threads
from ._svc import SVC


def fold_dependent(params):
    """Why ``params`` need each training fold's own fit settings (None
    where one setting serves every fold)."""
    if params.get("gamma", "scale") == "scale" and params.get("kernel", "rbf") not in ("linear", "precomputed"):
        return "gamma='scale' is computed on each training fold"
    if isinstance(params.get("class_weight"), str):
        return "class_weight='balanced' is computed on each training fold"
    return None


SAMPLE_WEIGHT_REASON = "sample_weight scales each training row's C in its fold's fit"


def sample_weight_of(fit_params, n):
    """The ``sample_weight`` of ``fit_params`` (the only fit parameter an
    SVC takes) as an array of ``n`` values, or None."""
    fit_params = dict(fit_params or {})
    sw = fit_params.pop("sample_weight", None)
    if fit_params:
        raise TypeError(
            f"fit parameters {sorted(fit_params)} are not SVC.fit's: it takes sample_weight only"
        )
    if sw is None:
        return None
    sw = np.asarray(sw, dtype=np.float64)
    if sw.shape != (n,):
        raise ValueError(f"sample_weight has shape {sw.shape}, expected ({n},): one weight per sample")
    return sw


def _svc(params):
    """A single-threaded, quiet SVC of ``params`` (one fold's fit)."""
    return SVC(**{**params, "n_jobs": 1, "verbose": False})


def fit_and_score(X, y, candidates, splits, *, scoring=None, n_jobs=None, sample_weight=None,
                  weighted_scores=False, make=_svc):
    """Each candidate's model (``make(params)``, default an SVC;
    ``candidates``: its full parameter dicts) fitted on each split's
    training rows and scored on its test rows: (scores, fit seconds, score
    seconds, SMO iterations), each a candidates x folds array (y None: an
    unsupervised model, fitted and scored without targets). ``sample_weight``: each training
    row's weight in its fit, and with ``weighted_scores`` each test row's in
    its score (``GridSearchCV`` routes ``sample_weight`` to its scorer;
    ``cross_val_score(params=...)`` to the fit only)."""
    splits = [(np.asarray(tr), np.asarray(te)) for tr, te in splits]
    jobs = [(i, f) for i in range(len(candidates)) for f in range(len(splits))]
    shape = (len(candidates), len(splits))
    scores, fit_s, score_s, iters = (np.zeros(shape) for _ in range(4))

    def one(job):
        i, f = job
        train, test = splits[f]
        est = make(candidates[i])
        X_train, X_test = pairwise_split(est.kernel, X, train), pairwise_split(est.kernel, X, train, test)
        y_train, y_test = (None, None) if y is None else (y[train], y[test])
        t0 = time.perf_counter()
        if sample_weight is None:
            est.fit(X_train, y_train)
        else:
            est.fit(X_train, y_train, sample_weight=sample_weight[train])
        t1 = time.perf_counter()
        scorer = check_scoring(est, scoring)
        if weighted_scores and sample_weight is not None:
            score = scorer(est, X_test, y_test, sample_weight=sample_weight[test])
        else:
            score = scorer(est, X_test, y_test)
        t2 = time.perf_counter()
        return job, score, t1 - t0, t2 - t1, int(np.sum(est.n_iter_))

    with ThreadPoolExecutor(max_workers=min(threads(n_jobs), max(1, len(jobs)))) as pool:
        for (i, f), score, t_fit, t_score, n_iter in pool.map(one, jobs):
            scores[i, f], fit_s[i, f], score_s[i, f], iters[i, f] = score, t_fit, t_score, n_iter
    return scores, fit_s, score_s, iters
