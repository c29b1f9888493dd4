"""What cvbench's SVMs share once fitted (SVC, NuSVC, SVR, NuSVR,
OneClassSVM): the rows to predict checked and laid out as the support
vectors are, the fitted arrays as the native functions take them, and the
decision values computed from them (the library's ``decision_values``, the
same kernel expansion for every formulation)."""

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from . import _native
from ._params import PRECOMPUTED, kernel_x, native_x, resolve_gamma, spec, threads

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data
except ImportError:  # pragma: no cover - older scikit-learn

    def _validate_data(est, *args, **kwargs):
        return est._validate_data(*args, **kwargs)


class FittedSVM:
    """Mixin of a fitted SVM kept as scikit-learn's arrays
    (``support_vectors_``, ``_dual_coef_``: LIBSVM's ``sv_coef``,
    ``_intercept_``: ``-rho``, ``_gamma``, ``_sparse``); a subclass says
    what its model is to the library (``_model``) and its threads
    (``_threads``, default: scikit-learn's ``n_jobs=None``)."""

    def _threads(self):
        return threads(None)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # scikit-learn's SVMs: a precomputed kernel takes a dense Gram
        # matrix, which cross_validate slices as K[train][:, train].
        tags.input_tags.pairwise = self.kernel == PRECOMPUTED
        tags.input_tags.sparse = self.kernel != PRECOMPUTED
        return tags

    def _fitted_rows(self, X, sv_rows):
        """``support_vectors_``: the support vectors' rows of X, or for a
        precomputed kernel none (a 0 x 0 array, as scikit-learn's)."""
        if self.kernel == PRECOMPUTED:
            return np.empty((0, 0), dtype=np.float64)
        return X[sv_rows]

    @property
    def coef_(self):
        """Primal weights (linear kernel only; ``_primal``), as
        scikit-learn's: a CSR matrix after a fit on sparse data, and
        read-only."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        check_is_fitted(self)
        coef = self._primal()
        if sp.issparse(coef):
            coef = sp.csr_matrix(coef)
            coef.data.flags.writeable = False
        else:
            coef = np.asarray(coef)
            coef.flags.writeable = False
        return coef

    def _primal(self):
        """The primal weights: one decision function's, ``dual_coef_``
        times the support vectors (a classifier overrides it per pair)."""
        return self.dual_coef_ @ self.support_vectors_

    def _rows(self, X):
        """(dense, csr) of X checked against the fit (its number of
        features), dense or CSR as the support vectors are."""
        check_is_fitted(self)
        X = _validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C", reset=False)
        if self.kernel == PRECOMPUTED:
            if X.shape[1] != self.shape_fit_[0]:
                raise ValueError(
                    f"X.shape[1] = {X.shape[1]} should be equal to {self.shape_fit_[0]}, "
                    "the number of samples at training time"
                )
            return kernel_x(PRECOMPUTED, X, training=False)
        if self._sparse and not sp.issparse(X):
            X = sp.csr_matrix(X)
        elif not self._sparse and sp.issparse(X):
            X = X.toarray()
        return native_x(X)

    def _model_arrays(self, labels, nr_sv, prob=None):
        """The fitted arrays as the native functions take them, with the
        model's ``labels`` (what the vote returns) and support vectors per
        class ``nr_sv``."""
        if self.kernel == PRECOMPUTED:
            # LIBSVM's support vectors of a precomputed kernel: 0:serial,
            # the column of its kernel values in a row to predict.
            sv_dense, sv_csr = (self.support_.astype(np.float64) + 1.0).reshape(-1, 1), None
        else:
            sv_dense, sv_csr = native_x(self.support_vectors_)
        return {
            "sv_dense": sv_dense,
            "sv_csr": sv_csr,
            "labels": [float(v) for v in labels],
            "nr_sv": [int(c) for c in nr_sv],
            "sv_coef": np.ascontiguousarray(self._dual_coef_),
            "rho": [float(-b) for b in self._intercept_],
            "kernel": self.kernel,
            "gamma": self._gamma,
            "degree": int(self.degree),
            "coef0": float(self.coef0),
            "prob": prob,
        }

    def _raw_decision(self, X):
        """Each pair's decision value (rows x pairs, LIBSVM's sign) and the
        vote of every row of X."""
        dense, csr = self._rows(X)
        return _native.decision(dense, csr, self._model(), self._threads())


def fit_formulation(est, X, y, kind, value, C=1.0, probability=None):
    """Train LIBSVM's formulation ``kind`` (``nu_svc``, ``one_class``,
    ``epsilon_svr``, ``nu_svr``; ``value`` its nu or epsilon) with ``est``'s
    kernel, tolerance, cache, shrinking and iteration cap on validated X and
    y, the rows in their given order, as ``svm-train -s 1..4``
    (``verbose``: its lines printed, as scikit-learn's ``[LibSVM]``).
    Returns gamma (``'scale'``: from X, the training rows only) and the
    library's arrays: support vectors per class, their rows of X, sv_coef,
    rho, each solve's iterations, and Platt's ``(probA, probB)`` (None
    unless ``probability``, the ``srand`` seed of nu-SVC's ``-b 1`` model).
    A precomputed kernel's X is the training rows' Gram matrix
    (``kernel_x``)."""
    gamma = resolve_gamma(est.gamma, X)
    args = spec(
        C=C, kernel=est.kernel, gamma=gamma, degree=est.degree, coef0=est.coef0, tol=est.tol,
        cache_size=est.cache_size, shrinking=est.shrinking, max_iter=est.max_iter,
        probability=probability,
    )
    dense, csr = kernel_x(est.kernel, X, training=True)
    y = np.ascontiguousarray(y, dtype=np.float64)
    _labels, nr_sv, sv_rows, sv_coef, rho, iters, log, prob = _native.fit_formulation(
        dense, csr, y, args, kind, float(value)
    )
    if est.verbose:
        print("[LibSVM]" + "\n".join(log), flush=True)
    return gamma, nr_sv, sv_rows, sv_coef, rho, iters, prob
