"""cvbench.SVC: scikit-learn's SVC signature and conventions on cvbench's
one-vs-one C-SVC (LIBSVM's algorithm; the same solver as ``cvbench svm``)."""

import numpy as np
from sklearn.utils.validation import _check_sample_weight

from . import _native
from ._fitted import _validate_data
from ._one_vs_one import OneVsOneSVM
from ._params import class_weights, kernel_x, resolve_gamma, spec, threads

__all__ = ["SVC", "OneVsOneSVM", "_validate_data"]


class SVC(OneVsOneSVM):
    """C-Support Vector Classification with scikit-learn's ``SVC`` interface.

    Parameters and fitted attributes are scikit-learn's (classes sorted,
    the binary decision function signed for ``classes_[1]``, one-vs-one
    pairs for more classes). ``n_jobs``: the threads of fit and prediction,
    scikit-learn's convention (None: 1 unless a ``joblib.parallel_config``
    context sets it; -1: every core). ``verbose=True`` prints LIBSVM's
    lines of the training (each class pair's ``optimization finished,
    #iter``, ``nu``, ``obj``/``rho``, ``nSV``/``nBSV``, then ``Total nSV``)
    from the engine's counters, as scikit-learn's ``SVC(verbose=True)``.

    ``probability=True``: ``fit`` also trains LIBSVM's probability model
    (``svm-train -b 1``: per class pair, Platt's sigmoid on the decision
    values of an internal 5-fold CV), giving ``predict_proba``,
    ``predict_log_proba``, ``probA_`` and ``probB_``. The internal CV's
    shuffle is drawn from glibc's ``rand()``: with ``random_state=None``
    from its default state, as ``svm-train`` (which never seeds it), so the
    probabilities equal ``svm-predict -b 1``'s on the same model; an int
    ``n`` seeds it with ``srand(n)``; a ``RandomState`` draws that int.

    ``solver``: ``"smo"`` (the default) is LIBSVM's SMO, iteration for
    iteration as ``svm-train``; ``"batched"`` solves the same problem with
    working sets of hundreds of variables and their kernel rows as blocks
    (``cvbench svm --solver batched``): LIBSVM's optimum to ``tol``, faster
    on large sets.
    """

    def __init__(
        self,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
        n_jobs=None,
        solver="smo",
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.solver = solver

    def _threads(self):
        return threads(self.n_jobs)

    def fit(self, X, y, sample_weight=None):
        """Fit the model on X (dense or sparse) and labels y. ``sample_weight``
        (as scikit-learn's): per-sample factors on C; samples with a weight
        <= 0 are left out of the fit, a NaN or infinite weight is an error."""
        X, classes, y_enc = self._labelled(X, y)
        weights, self.class_weight_ = class_weights(self.class_weight, classes, y_enc)
        gamma = resolve_gamma(self.gamma, X)
        args = spec(
            C=self.C, kernel=self.kernel, gamma=gamma, degree=self.degree, coef0=self.coef0,
            tol=self.tol, cache_size=self.cache_size, shrinking=self.shrinking,
            max_iter=self.max_iter, weights=weights, n_jobs=self.n_jobs,
            probability=self._probability_seed(), solver=self.solver,
        )
        dense, csr = kernel_x(self.kernel, X, training=True)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if not np.all(np.isfinite(sample_weight)):
                raise ValueError("sample_weight must be finite (no NaN or infinity)")
            for k, c in enumerate(classes):
                if not np.any(sample_weight[y_enc == k] > 0):
                    raise ValueError(
                        f"every sample of class {c!r} has sample_weight <= 0: a class needs "
                        "at least one sample with a positive weight"
                    )
        labels, nr_sv, sv_rows, sv_coef, rho, iters, _warnings, prob, log = _native.fit(
            dense, csr, y_enc.astype(np.float64), args, sample_weight
        )
        if self.verbose:
            # LIBSVM's info lines, as scikit-learn's SVC(verbose=True) prints
            # them (its progress dots aside: the engine reports no such thing).
            print("[LibSVM]" + "\n".join(log), flush=True)
        if not np.array_equal(labels, np.arange(len(classes))):  # pragma: no cover
            raise RuntimeError("cvbench: class order is not the sorted one")
        self._set_fitted(X, classes, gamma, nr_sv, sv_rows, sv_coef, rho, iters, prob)
        return self
