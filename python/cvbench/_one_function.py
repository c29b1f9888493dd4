"""cvbench.SVR, NuSVR and OneClassSVM: scikit-learn's signatures and
conventions on LIBSVM's formulations of one decision function
(``svm-train -s 3``, ``-s 4``, ``-s 2``), the model kept as scikit-learn's
arrays and its decision value ``sum_i dual_coef_i K(sv_i, x) +
intercept_`` computed by the library from them."""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OutlierMixin, RegressorMixin

from ._fitted import FittedSVM, _validate_data, fit_formulation
from ._params import NO_SAMPLE_WEIGHT, epsilon_value, nu_value, refuse


class OneFunctionSVM(FittedSVM, BaseEstimator):
    """What SVR, NuSVR and OneClassSVM share: the fit of formulation
    ``_kind`` and scikit-learn's fitted attributes (``support_``,
    ``support_vectors_``, ``dual_coef_`` (1 x n_SV), ``intercept_``
    (``-rho``), ``n_support_``, ``n_iter_``, ``fit_status_``,
    ``shape_fit_``), and the decision function from them."""

    def _fit(self, X, y, value, C, sample_weight):
        refuse("sample_weight", sample_weight, NO_SAMPLE_WEIGHT)
        gamma, _nr_sv, sv_rows, sv_coef, rho, iters, _prob = fit_formulation(self, X, y, self._kind, value, C)
        self._sparse = sp.issparse(X)
        self._gamma = gamma
        self.shape_fit_ = X.shape
        self.support_ = sv_rows.astype(np.int32)
        self.support_vectors_ = self._fitted_rows(X, self.support_)
        self.n_support_ = np.array([len(sv_rows)], dtype=np.int32)
        self._dual_coef_ = sv_coef
        self.dual_coef_ = sp.csr_matrix(sv_coef) if self._sparse else sv_coef
        self._intercept_ = -rho
        self.intercept_ = -rho
        self.n_iter_ = int(iters[0])
        self.fit_status_ = 0
        return self

    def _model(self):
        """The model to the library: one pair, every support vector in its
        first class (``FormulationFit::ovo_model``'s layout)."""
        return self._model_arrays([1.0, -1.0], [len(self.support_), 0])

    def _decision(self, X):
        """The decision function of each row of X, (n,)."""
        dec, _ = self._raw_decision(X)
        return dec.ravel()


class _Regressor(RegressorMixin, OneFunctionSVM):
    """SVR and NuSVR: ``predict`` is the decision function."""

    def _fit_regression(self, X, y, value, sample_weight):
        X, y = _validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, order="C", y_numeric=True)
        return self._fit(X, y, value, self.C, sample_weight)

    def predict(self, X):
        """The predicted value of each row of X, (n,)."""
        return self._decision(X)


class SVR(_Regressor):
    """Epsilon-Support Vector Regression with scikit-learn's ``SVR``
    interface: LIBSVM's epsilon-SVR (``svm-train -s 3 -p epsilon``).
    ``sample_weight`` is not supported (a ``ValueError``)."""

    _kind = "epsilon_svr"

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, C=1.0,
                 epsilon=0.1, shrinking=True, cache_size=200, verbose=False, max_iter=-1):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit the model on X (dense or sparse) and targets y."""
        return self._fit_regression(X, y, epsilon_value(self.epsilon), sample_weight)


class NuSVR(_Regressor):
    """Nu-Support Vector Regression with scikit-learn's ``NuSVR``
    interface: LIBSVM's nu-SVR (``svm-train -s 4 -n nu``).
    ``sample_weight`` is not supported (a ``ValueError``)."""

    _kind = "nu_svr"

    def __init__(self, *, nu=0.5, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0,
                 shrinking=True, tol=1e-3, cache_size=200, verbose=False, max_iter=-1):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit the model on X (dense or sparse) and targets y."""
        return self._fit_regression(X, y, nu_value(self.nu), sample_weight)


class OneClassSVM(OutlierMixin, OneFunctionSVM):
    """Unsupervised outlier detection with scikit-learn's ``OneClassSVM``
    interface: LIBSVM's one-class SVM (``svm-train -s 2 -n nu``).
    ``predict``: +1 (inlier, decision value > 0) or -1; ``score_samples``:
    the decision function plus ``offset_`` (rho). ``sample_weight`` is not
    supported (a ``ValueError``)."""

    _kind = "one_class"

    def __init__(self, *, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3, nu=0.5,
                 shrinking=True, cache_size=200, verbose=False, max_iter=-1):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def fit(self, X, y=None, sample_weight=None):
        """Detect the soft boundary of the rows of X (dense or sparse);
        ``y`` is ignored."""
        nu = nu_value(self.nu)
        X = _validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C")
        self._fit(X, np.zeros(X.shape[0]), nu, 1.0, sample_weight)
        self.offset_ = -self._intercept_
        return self

    def decision_function(self, X):
        """The signed distance to the boundary (n,): positive for an
        inlier; ``score_samples(X) - offset_``."""
        return self._decision(X)

    def score_samples(self, X):
        """The decision function plus ``offset_``: the kernel expansion
        without rho, (n,)."""
        return self.decision_function(X) + self.offset_

    def predict(self, X):
        """+1 for an inlier (decision value > 0), -1 for an outlier."""
        _, votes = self._raw_decision(X)
        return votes.astype(np.intp)
