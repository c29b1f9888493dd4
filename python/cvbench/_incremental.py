"""cvbench.treecv and cvbench.kfold: TreeCV (Joulani, Gyorgy, Szepesvari
2015) and standard k-fold CV of the incremental learners (PEGASOS, LSQSGD,
ridge), with the work counters the harness records."""

import keyword
import numbers

import numpy as np
from sklearn.utils import check_random_state, check_X_y
from sklearn.utils.multiclass import check_classification_targets

from . import _native
from ._params import native_x, threads

#: Each learner's name and its hyper-parameter keys (the library's registry).
LEARNERS = {name: tuple(keys) for name, keys in _native.LEARNERS.items()}


def treecv(X, y, *, learner="pegasos", k=10, order="fixed", shuffle=False, random_state=0,
           strategy="copy", n_jobs=None, **learner_params):
    """TreeCV's k-fold CV estimate of ``learner`` on ``(X, y)``.

    ``learner``: a name of ``cvbench.LEARNERS`` (``pegasos``, a binary
    classifier scored by misclassification; ``lsqsgd`` and ``ridge``,
    regressors scored by squared error); ``learner_params``: its
    hyper-parameters, the keys of a treecv config's ``[[learners]]`` table
    (``lambda``, written ``lambda_`` as a Python keyword argument;
    ``project``; ``step``; ``radius``), unset keys at the library's defaults.
    The rows are cut into ``k`` contiguous chunks whose sizes differ by at
    most one, the first ``n % k`` one larger (scikit-learn's ``KFold(k)``
    folds), after a shuffle seeded by ``random_state`` when ``shuffle``.
    ``order``: ``fixed`` feeds each training phase's points in chunk order,
    ``randomized`` in an order drawn from ``random_state`` and the phase.
    ``random_state``: an int >= 0 (the library's seed), or None / a NumPy
    ``RandomState`` that draws one (scikit-learn's ``check_random_state``).
    ``strategy``: how TreeCV keeps its models (``copy``, ``save_revert``,
    ``parallel``: the two branches on ``n_jobs`` threads); the estimate does
    not depend on it. PEGASOS's labels may be of any type with two classes:
    ``classes_[0]`` is -1 and ``classes_[1]`` is +1 (sorted, as
    scikit-learn's).

    Returns a dict: ``estimate`` (the mean over chunks of the learner's mean
    loss on the chunk, trained on every other chunk), ``loss``, ``learner``
    (its name with its hyper-parameters), ``updates`` (points fed to a
    learner, one per point per model update), ``passes`` (updates / n),
    ``copies`` (model copies), ``peak_models`` (most models alive at once;
    for ``strategy="parallel"``, and for ``kfold`` with ``n_jobs > 1``, ``k``,
    what a schedule running every branch at once holds, for any ``n_jobs``),
    ``fit_time`` (seconds) and ``chunks`` (each chunk's rows).
    """
    return _run(X, y, learner, learner_params, strategy, k, order, shuffle, random_state, n_jobs)


def kfold(X, y, *, learner="pegasos", k=10, order="fixed", shuffle=False, random_state=0,
          n_jobs=None, **learner_params):
    """Standard k-fold CV of ``learner`` on ``(X, y)``: for each chunk, a
    fresh model trained on every other chunk (in chunk order), its mean loss
    on the chunk; the folds run in parallel with ``n_jobs`` > 1 (the same
    numbers). Arguments and result as :func:`treecv`'s (no ``strategy``).
    For ridge, whose model does not depend on the order of its points, the
    estimate is TreeCV's (to rounding)."""
    return _run(X, y, learner, learner_params, None, k, order, shuffle, random_state, n_jobs)


def _params(learner_params):
    """(key, value) pairs for the library: a trailing underscore dropped
    from a Python keyword (``lambda_``), values numbers or bools."""
    out = []
    for key, value in learner_params.items():
        if key.endswith("_") and keyword.iskeyword(key[:-1]):
            key = key[:-1]
        if isinstance(value, (bool, np.bool_)):
            value = bool(value)
        elif isinstance(value, numbers.Real):
            value = float(value)
        else:
            raise ValueError(f"learner parameter {key} must be a number or a bool, got {value!r}")
        out.append((key, value))
    return out


def _run(X, y, learner, learner_params, strategy, k, order, shuffle, random_state, n_jobs):
    if not isinstance(learner, str):
        raise ValueError(f"learner must be a name (one of {tuple(LEARNERS)}), got {learner!r}")
    params = _params(learner_params)
    name, loss, binary = _native.learner(learner, params)
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0:
        raise ValueError(f"k must be an integer in 2..=n, got {k!r}")
    for what, value in (("order", order), ("strategy", strategy)):
        if not (isinstance(value, str) or (value is None and what == "strategy")):
            raise ValueError(f"{what} must be a name (a str), got {value!r}")
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be an integer >= 0, got {random_state!r}")
        seed = int(random_state)
    else:
        seed = int(check_random_state(random_state).randint(np.iinfo(np.int32).max))
    if binary:
        X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C")
        check_classification_targets(y)
        classes, y_enc = np.unique(y, return_inverse=True)
        if len(classes) != 2:
            raise ValueError(
                f"{learner} is a binary classifier: y must have 2 classes, got {len(classes)}"
            )
        y_native = np.where(y_enc == 1, 1.0, -1.0)
    else:
        X, y = check_X_y(X, y, accept_sparse="csr", dtype=np.float64, order="C", y_numeric=True)
        y_native = np.ascontiguousarray(y, dtype=np.float64)
    dense, csr = native_x(X)
    estimate, updates, copies, peak, seconds, chunks = _native.incremental_cv(
        dense, csr, y_native, learner, params, strategy, int(k), order, bool(shuffle), seed,
        threads(n_jobs),
    )
    return {
        "estimate": estimate,
        "loss": loss,
        "learner": name,
        "updates": updates,
        "passes": updates / X.shape[0],
        "copies": copies,
        "peak_models": peak,
        "fit_time": seconds,
        "chunks": chunks,
    }
