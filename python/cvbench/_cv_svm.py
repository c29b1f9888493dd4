"""cvbench.cross_validate_svm: exact k-fold CV of any of cvbench's SVMs,
given as an estimator, in the shape of scikit-learn's ``cross_validate``.
NuSVC, SVR and NuSVR run on the engine's ``cross_validate_formulation``
(one native call: the rounds in parallel on one shared kernel cache); SVC
is ``cross_validate_svc``'s. The scores come from the held-out
predictions, in one place (``_scores``)."""

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sklearn.base import clone
from sklearn.utils import check_X_y

from . import _native
from ._cv import cross_validate_svc
from ._heldout import fold_scores, scorers
from ._nusvc import NuSVC
from ._one_function import SVR, NuSVR, OneClassSVM
from ._params import (
    check_cv_arg,
    encode_classes,
    epsilon_value,
    folds,
    kernel_x,
    nu_value,
    pairwise_split,
    refuse,
    resolve_gamma,
    spec,
    threads,
)
from ._perfold import fold_dependent
from ._svc import SVC

#: The formulation of each estimator: the library's name and its own
#: parameter (nu or epsilon).
FORMULATIONS = ((NuSVC, "nu_svc", "nu"), (SVR, "epsilon_svr", "epsilon"), (NuSVR, "nu_svr", "nu"))


def _scores(named, kind, X, y, predictions, tests, classes):
    """Each scorer's per-fold scores of the held-out predictions
    (``_heldout.fold_scores``), and each fold's seconds of scoring; a
    scorer that needs the fitted model itself is a ValueError."""
    try:
        return fold_scores(named, kind, X, y, predictions, tests, classes)
    except AttributeError as e:
        raise ValueError(
            f"scoring {sorted(named)}: a scorer is not computed here, it needs more of the fitted "
            f"model than its predictions ({e}); cross_validate_svm scores the held-out predictions "
            "(r2, neg_mean_squared_error, neg_mean_absolute_error, accuracy, ..., or a callable "
            "that calls predict); any other scorer: scikit-learn's cross_validate with the estimator"
        ) from None


def cross_validate_svm(estimator, X, y=None, *, cv=10, scoring=None, n_jobs=None, cache="shared",
                       cache_size=None, seeding="none", solver="smo"):
    """k-fold CV of ``estimator`` (``cvbench.SVC``, ``NuSVC``, ``SVR`` or
    ``NuSVR``, its parameters as set) on ``(X, y)``, as scikit-learn's
    ``cross_validate(estimator, X, y, cv=cv, scoring=scoring)``.

    ``cv``: an int (``svm-train -v cv``'s folds: stratified for the
    classifiers, one shuffle for the regressors, as LIBSVM's), a
    scikit-learn splitter or a list of (train, test) index pairs whose
    test sets partition the rows. ``scoring``: None (the estimator's own
    score: r2 for SVR and NuSVR, accuracy for the classifiers), one
    scikit-learn scorer (a name such as ``r2``, ``neg_mean_squared_error``,
    ``neg_root_mean_squared_error``, ``neg_mean_absolute_error``,
    ``explained_variance``, ``accuracy``, ``balanced_accuracy``, ``f1``;
    or a callable ``scorer(estimator, X, y)``), a list of names or a dict
    of name to scorer, each computed as scikit-learn computes it from the
    held-out predictions of each fold (the callable is given a stand-in of
    the fold's model whose ``predict`` returns them; a scorer that needs
    ``decision_function``, ``predict_proba`` or the model's attributes is
    a ValueError). ``n_jobs``: threads (scikit-learn's convention);
    ``cache`` ``shared`` (one kernel cache for every round) or
    ``per_solve``, ``cache_size`` its MB in all (None: the whole kernel
    matrix where it fits in half the memory); neither changes a number.
    NuSVC, SVR and NuSVR: ``seeding`` ``"none"`` (LIBSVM's rounds from
    zero: ``svm-train -v``'s numbers bit for bit) or ``"sir"`` /
    ``"sir_two_chains"`` (``cvbench svm --seeding``: each round started
    from the previous one's solution made feasible, exact to ``tol``, not
    bit for bit), and ``solver`` ``"smo"`` or ``"batched"``
    (``cvbench svm --solver batched``, LIBSVM's optimum to ``tol``); the
    same engine call as ``cvbench svm -s 3 -v 10 --solver batched --seeding
    sir``, which on cadata_scale took 2.8 s against 7.1 s without the two
    flags (results/svr-cadata; not timed from Python). Both are refused where
    the folds are fitted one by one (``gamma='scale'``, below).

    Returns a dict of per-fold arrays: ``test_score`` (or ``test_<name>``
    per scorer of a list), ``fit_time``, ``score_time``, ``n_iter`` (each
    round's SMO iterations). NuSVC, SVR and NuSVR run as one native call
    (``svm-train -s 1/3/4 -v``'s rounds, in parallel on one shared kernel
    cache; ``fit_time`` is then the run's wall time shared equally among
    the folds). Each round trains on the other folds' rows in fold order,
    as LIBSVM does; where a splitter's test folds are not contiguous that
    is another order than scikit-learn's ascending one, which reaches the
    same optimum within ``tol``. ``gamma='scale'`` (non-linear kernels)
    depends on the training rows, so each fold is then a plain fit of
    ``clone(estimator)`` on its training rows (scikit-learn's order; the
    folds on ``n_jobs`` threads), the held-out rows never reaching a fit.
    ``kernel='precomputed'``: X is the n x n Gram matrix, sliced as
    scikit-learn slices it (``K[train][:, train]``).

    SVC: ``cross_validate_svc`` with the estimator's parameters (its
    dict, ``seeding`` included; ``scoring`` None or ``accuracy``).
    OneClassSVM is refused: it has no targets to score the held-out rows
    against.
    """
    if isinstance(estimator, OneClassSVM):
        raise ValueError(
            "cross_validate_svm: OneClassSVM is unsupervised, so there are no targets to score its "
            "held-out rows against; use scikit-learn's cross_validate with a scorer of your own "
            "(cvbench svm -s 2 -v prints svm-train's one-class accuracy)"
        )
    if isinstance(estimator, SVC):
        if (seeding, solver) != ("none", "smo"):
            raise ValueError(
                "cross_validate_svm: an SVC takes its seeding and solver from its own parameters "
                "(SVC(solver=...); cross_validate_svc(seeding=...)), not from these arguments"
            )
        return _svc(estimator, X, y, cv, scoring, n_jobs, cache, cache_size)
    match = [(kind, name) for cls, kind, name in FORMULATIONS if isinstance(estimator, cls)]
    if not match:
        raise ValueError(
            "cross_validate_svm takes cvbench.SVC, NuSVC, SVR or NuSVR, got "
            f"{type(estimator).__name__}"
        )
    kind, name = match[0]
    regression = kind != "nu_svc"
    params = estimator.get_params()
    value = nu_value(params["nu"]) if name == "nu" else epsilon_value(params["epsilon"])
    if not regression:
        refuse("class_weight", params["class_weight"], "LIBSVM's nu-SVC ignores class weights")
        if params["probability"] not in (False, "deprecated"):
            raise ValueError("probability=True is not supported: NuSVC has no probability model here")
    named = scorers(estimator, scoring)
    if y is None:
        raise ValueError(f"cross_validate_svm: {type(estimator).__name__} needs targets y")
    X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C", y_numeric=regression)
    if regression:
        y_native, decode = y, None
    else:
        classes, y_enc = encode_classes(y)
        y_native, decode = y_enc.astype(np.float64), classes
    y_native = np.ascontiguousarray(y_native, dtype=np.float64)
    kernel = params["kernel"]
    dense, csr = kernel_x(kernel, X, training=True)
    cv = check_cv_arg(cv)
    if isinstance(cv, int):
        tests = _native.formulation_folds(dense, csr, y_native, kind, value, cv)
    else:
        tests = folds(cv.split(X, y) if hasattr(cv, "split") else cv, X.shape[0])
    if cache_size is None:
        cache_size = _native.default_cache_mb(X.shape[0])
    if fold_dependent({"gamma": params["gamma"], "kernel": kernel}) is None:
        args = spec(C=params.get("C", 1.0), kernel=kernel, gamma=resolve_gamma(params["gamma"], X),
                    degree=params["degree"], coef0=params["coef0"], tol=params["tol"],
                    cache_size=cache_size, shrinking=params["shrinking"],
                    max_iter=params["max_iter"], n_jobs=n_jobs, solver=solver)
        pred, n_iter, wall_s = _native.cross_validate_formulation_arrays(
            dense, csr, y_native, args, kind, value, tests, cache, seeding)
        fit_time = np.full(len(tests), wall_s / len(tests))
    else:
        if (seeding, solver) != ("none", "smo"):
            raise ValueError(
                f"cross_validate_svm: seeding={seeding!r}, solver={solver!r} need one gamma for "
                "every fold, but gamma='scale' depends on each fold's training rows (each fold is "
                "then a plain fit): give gamma a number, or use seeding='none', solver='smo'"
            )
        pred, n_iter, fit_time = _per_fold(estimator, X, y_native, tests, n_jobs)
    if decode is not None:
        pred_out = decode[pred.astype(np.intp)]
    else:
        pred_out = pred
    kind_name = "regressor" if regression else "classifier"
    result, score_time = _scores(named, kind_name, X, y, pred_out, tests, decode)
    result.update(fit_time=fit_time, score_time=score_time, n_iter=np.asarray(n_iter, dtype=np.int64))
    return result


def _per_fold(estimator, X, y, tests, n_jobs):
    """Plain fits of ``clone(estimator)`` on each fold's training rows
    (ascending, as scikit-learn's), the folds on ``n_jobs`` threads (the
    native fit releases the GIL): every row's held-out prediction, each
    fold's iterations and fit seconds."""
    everything = np.arange(X.shape[0])
    splits = [(np.setdiff1d(everything, t), np.asarray(t, dtype=np.intp)) for t in tests]
    kernel = estimator.get_params()["kernel"]
    pred = np.zeros(X.shape[0])
    n_iter = np.zeros(len(tests), dtype=np.int64)
    fit_time = np.zeros(len(tests))

    def one(f):
        train, test = splits[f]
        est = clone(estimator).set_params(verbose=False)
        t0 = time.perf_counter()
        est.fit(pairwise_split(kernel, X, train), y[train])
        seconds = time.perf_counter() - t0
        return f, est.predict(pairwise_split(kernel, X, train, test)), int(np.sum(est.n_iter_)), seconds

    with ThreadPoolExecutor(max_workers=min(threads(n_jobs), len(splits))) as pool:
        for f, p, it, seconds in pool.map(one, range(len(splits))):
            pred[splits[f][1]] = p
            n_iter[f], fit_time[f] = it, seconds
    return pred, n_iter, fit_time


def _svc(estimator, X, y, cv, scoring, n_jobs, cache, cache_size):
    """An SVC's CV: ``cross_validate_svc`` with its parameters."""
    if scoring not in (None, "accuracy"):
        raise ValueError(
            f"scoring {scoring!r}: cross_validate_svm scores an SVC by accuracy only "
            "(cross_validate_svc); other scorers: scikit-learn's cross_validate"
        )
    p = estimator.get_params()
    keys = ("C", "kernel", "degree", "gamma", "coef0", "tol", "class_weight", "shrinking",
            "max_iter", "solver")
    return cross_validate_svc(
        X, y, **{k: p[k] for k in keys}, cv=cv, cache=cache, cache_size=cache_size,
        n_jobs=p["n_jobs"] if n_jobs is None else n_jobs,
    )
