"""What cvbench's one-vs-one classifiers (SVC, NuSVC) share: LIBSVM's
one-vs-one model as scikit-learn's arrays, the fit's checks of X and the
labels, the decision function, votes and ``coef_`` computed from the
arrays, and the probability model (Platt's, ``svm-train -b 1``)."""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import _ovr_decision_function
from sklearn.utils.validation import check_is_fitted

from . import _native
from ._fitted import FittedSVM, _validate_data
from ._params import check_decision_shape, encode_classes


class OneVsOneSVM(FittedSVM, ClassifierMixin, BaseEstimator):
    """What SVC and NuSVC share: the fit's checks (``_labelled``),
    LIBSVM's one-vs-one model as scikit-learn's arrays (``_set_fitted``),
    the decision function, votes and ``coef_`` computed from them (the
    library's ``decision_values``), and the probability model
    (``_probability_seed``, ``predict_proba``). A subclass's ``fit``
    checks, trains and calls ``_set_fitted``; ``_threads()`` are the
    prediction's threads."""

    def _labelled(self, X, y):
        """X and y checked as scikit-learn's classifiers check them: (X,
        sorted classes, each label's class index)."""
        check_decision_shape(self.decision_function_shape)
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C")
        classes, y_enc = encode_classes(y)
        return X, classes, y_enc

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
        empty = np.empty(0, dtype=np.float64)
        self.probA_ = np.asarray(prob[0]) if prob else empty
        self.probB_ = np.asarray(prob[1]) if prob else empty

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

    def _probability_seed(self):
        """The ``srand`` seed of the probability model's shuffles (None:
        no probability model; 1: glibc's default, svm-train's)."""
        if not self.probability or self.probability == "deprecated":
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
        if not self.probability or self.probability == "deprecated":
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
