"""cvbench.SVC: scikit-learn's SVC signature and conventions on cvbench's
one-vs-one C-SVC (LIBSVM's algorithm; the same solver as ``cvbench svm``)."""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import _ovr_decision_function
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _native
from ._fitted import FittedSVM, _validate_data
from ._params import check_decision_shape, class_weights, encode_classes, kernel_x, resolve_gamma, spec, threads


class OneVsOneSVM(FittedSVM, ClassifierMixin, BaseEstimator):
    """What SVC and NuSVC share once fitted: LIBSVM's one-vs-one model as
    scikit-learn's arrays (``_set_fitted``), and the decision function,
    votes and ``coef_`` computed from them (the library's
    ``decision_values``). A subclass's ``fit`` trains and calls
    ``_set_fitted``; ``_threads()`` are the prediction's threads."""

    def _set_fitted(self, X, classes, gamma, nr_sv, sv_rows, sv_coef, rho, iters, prob=None):
        """scikit-learn's fitted attributes from the library's arrays
        (``sv_rows``: the support vectors' rows of X, class by class)."""
        self.classes_ = classes
        self._sparse = sp.issparse(X)
        self._gamma = gamma
        self.shape_fit_ = X.shape
        self.support_ = sv_rows.astype(np.int32)
        self.support_vectors_ = self._fitted_rows(X, self.support_)
        self.n_support_ = nr_sv.astype(np.int32)
        self._dual_coef_ = sv_coef
        self._intercept_ = -rho
        self.n_iter_ = iters.astype(np.int32)
        self.fit_status_ = 0
        binary = len(classes) == 2
        dual = -sv_coef if binary else sv_coef
        self.dual_coef_ = sp.csr_matrix(dual) if self._sparse else dual
        self.intercept_ = rho.copy() if binary else -rho
        self._prob = prob

    def _primal(self):
        """``coef_``: one row per class pair, in one-vs-one order ((0, 1),
        (0, 2), ..., (1, 2), ...), signed for the pair's first class (two
        classes: one row signed for ``classes_[1]``), as scikit-learn's."""
        if len(self.classes_) == 2:
            return self.dual_coef_ @ self.support_vectors_
        return self._one_vs_one_coef()

    def _one_vs_one_coef(self):
        """Pair (i, j): class i's support vectors with their coefficients in
        row j - 1 of sv_coef, class j's with theirs in row i (LIBSVM's
        layout; scikit-learn's _one_vs_one_coef); sparse rows stay sparse."""
        sv = self.support_vectors_
        start = np.concatenate([[0], np.cumsum(self.n_support_)])
        rows = []
        k = len(self.classes_)
        for i in range(k):
            si = slice(start[i], start[i + 1])
            for j in range(i + 1, k):
                sj = slice(start[j], start[j + 1])
                rows.append(self._dual_coef_[j - 1, si] @ sv[si] + self._dual_coef_[i, sj] @ sv[sj])
        if sp.issparse(sv):
            return sp.vstack([sp.csr_matrix(r).reshape(1, -1) for r in rows]).tocsr()
        return np.vstack([np.asarray(r).ravel() for r in rows])

    def _model(self):
        """The fitted arrays as the native functions take them."""
        return self._model_arrays(range(len(self.classes_)), self.n_support_, self._prob)

    def decision_function(self, X):
        """Decision values: (n,) signed for ``classes_[1]`` with two
        classes; (n, n_classes) with ``ovr``; (n, pairs) with ``ovo``."""
        dec, _ = self._raw_decision(X)
        k = len(self.classes_)
        if k == 2:
            return -dec.ravel()
        if self.decision_function_shape == "ovr":
            return _ovr_decision_function(dec < 0, -dec, k)
        return dec

    def predict(self, X):
        """Class labels by LIBSVM's one-vs-one vote (``break_ties``: argmax
        of the ``ovr`` decision function)."""
        k = len(self.classes_) if hasattr(self, "classes_") else 0
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError("break ties are not supported when decision_function_shape is 'ovo'")
        if self.break_ties and self.decision_function_shape == "ovr" and k > 2:
            return self.classes_[np.argmax(self.decision_function(X), axis=1)]
        _, votes = self._raw_decision(X)
        return self.classes_[votes.astype(np.intp)]


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
        check_decision_shape(self.decision_function_shape)
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C")
        classes, y_enc = encode_classes(y)
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
        empty = np.empty(0, dtype=np.float64)
        self.probA_ = np.asarray(prob[0]) if prob else empty
        self.probB_ = np.asarray(prob[1]) if prob else empty
        return self

    def _probability_seed(self):
        """The ``srand`` seed of the probability model's shuffles (None:
        no probability model; 1: glibc's default, svm-train's)."""
        if not self.probability:
            return None
        rs = self.random_state
        if rs is None:
            return 1
        if isinstance(rs, numbers.Integral) and not isinstance(rs, bool):
            if not 0 <= rs < 2**32:
                raise ValueError(f"random_state must be None, an int in [0, 2**32) or a RandomState, got {rs!r}")
            return int(rs)
        return int(check_random_state(rs).randint(np.iinfo(np.int32).max))

    def _check_proba(self):
        if not self.probability:
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Class probabilities (n, n_classes), columns in ``classes_``
        order: LIBSVM's ``svm-predict -b 1`` (pairwise Platt sigmoids
        coupled by Wu, Lin and Weng's method). Needs ``probability=True``
        at fit."""
        check_is_fitted(self)
        if self._prob is None:
            raise NotFittedError("predict_proba is not available when fitted with probability=False")
        dense, csr = self._rows(X)
        return _native.probabilities(dense, csr, self._model(), self._threads())

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """The log of ``predict_proba``."""
        return np.log(self.predict_proba(X))
