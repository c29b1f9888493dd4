"""cvbench.SVC: scikit-learn's SVC signature and conventions on cvbench's
one-vs-one C-SVC (LIBSVM's algorithm; the same solver as ``cvbench svm``)."""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import _ovr_decision_function, check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _native
from ._params import class_weights, native_x, resolve_gamma, spec, threads

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # pragma: no cover - older scikit-learn

    def _validate_data(est, *args, **kwargs):
        return est._validate_data(*args, **kwargs)


class SVC(ClassifierMixin, BaseEstimator):
    """C-Support Vector Classification with scikit-learn's ``SVC`` interface.

    Parameters and fitted attributes are scikit-learn's (classes sorted,
    the binary decision function signed for ``classes_[1]``, one-vs-one
    pairs for more classes). ``n_jobs`` bounds the threads of fit and
    prediction. ``probability=True`` is not supported yet (``fit`` raises
    ``NotImplementedError``).
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def fit(self, X, y):
        """Fit the model on X (dense or sparse) and labels y."""
        if self.probability:
            raise NotImplementedError(
                "probability=True (LIBSVM's -b 1, Platt scaling) is not implemented in cvbench yet; "
                "use probability=False"
            )
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(
                f"decision_function_shape must be 'ovr' or 'ovo', got {self.decision_function_shape!r}"
            )
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C")
        check_classification_targets(y)
        classes, y_enc = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"The number of classes has to be greater than one; got {len(classes)} class"
            )
        weights, self.class_weight_ = class_weights(self.class_weight, classes, y_enc)
        gamma = resolve_gamma(self.gamma, X)
        args = spec(
            C=self.C, kernel=self.kernel, gamma=gamma, degree=self.degree, coef0=self.coef0,
            tol=self.tol, cache_size=self.cache_size, shrinking=self.shrinking,
            max_iter=self.max_iter, weights=weights, n_jobs=self.n_jobs,
        )
        dense, csr = native_x(X)
        labels, nr_sv, sv_rows, sv_coef, rho, iters, _warnings = _native.fit(
            dense, csr, y_enc.astype(np.float64), args
        )
        if not np.array_equal(labels, np.arange(len(classes))):  # pragma: no cover
            raise RuntimeError("cvbench: class order is not the sorted one")
        self.classes_ = classes
        self._sparse = sp.issparse(X)
        self._gamma = gamma
        self.shape_fit_ = X.shape
        self.support_ = sv_rows.astype(np.int32)
        self.support_vectors_ = X[self.support_]
        self.n_support_ = nr_sv.astype(np.int32)
        self._dual_coef_ = sv_coef
        self._intercept_ = -rho
        self.n_iter_ = iters.astype(np.int32)
        self.fit_status_ = 0
        binary = len(classes) == 2
        dual = -sv_coef if binary else sv_coef
        self.dual_coef_ = sp.csr_matrix(dual) if self._sparse else dual
        self.intercept_ = rho.copy() if binary else -rho
        return self

    @property
    def coef_(self):
        """Primal weights (linear kernel only), as scikit-learn's SVC."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self)
        coef = self.dual_coef_ @ self.support_vectors_
        return coef.toarray() if sp.issparse(coef) else np.asarray(coef)

    def _raw_decision(self, X):
        check_is_fitted(self)
        X = _validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C", reset=False)
        if self._sparse and not sp.issparse(X):
            X = sp.csr_matrix(X)
        elif not self._sparse and sp.issparse(X):
            X = X.toarray()
        dense, csr = native_x(X)
        sv_dense, sv_csr = native_x(self.support_vectors_)
        k = len(self.classes_)
        return _native.decision(
            dense, csr, sv_dense, sv_csr,
            [float(i) for i in range(k)], [int(c) for c in self.n_support_],
            np.ascontiguousarray(self._dual_coef_), [float(-b) for b in self._intercept_],
            self.kernel, self._gamma, int(self.degree), float(self.coef0), threads(self.n_jobs),
        )

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
