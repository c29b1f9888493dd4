"""cvbench.NuSVC, SVR, NuSVR and OneClassSVM against scikit-learn's
estimators of the same names (both LIBSVM's algorithms, iteration for
iteration), on real data: fitted on a training part, compared on the rows
held out (which never reach a fit: gamma='scale' is computed on the
training rows), and scikit-learn's own estimator checks.

Tolerance: support_ and predicted classes exactly; decision values, dual
coefficients and intercepts to 1e-6 relative. Both sides run the same SMO
steps to the same optimum, but not the same floating-point sums: the
library caches the kernel matrix in f32 as LIBSVM's ``Qfloat`` and computes
a decision value from blocks of dot products (``x.x + y.y - 2 x.y`` for
RBF), scikit-learn's libsvm one kernel value at a time in doubles, so the
last digits of a solution (and, over many steps, of the path to it) may
differ; 1e-6 is far above that and far below any real difference.

nu-SVC's nu is a binary fraction here (0.5, 0.25, 0.125, ...): scikit-learn's
libsvm (changed for sample weights) starts ``solve_nu_svc`` from ``sum_i nu
C_i`` added up row by row, LIBSVM (and the library, bit-exact with
``svm-train``) from ``nu l``; for a nu such as 0.2 the two differ in the last
bits, the SMO paths part and end at two points each within ``tol`` of the
optimum (on iris with nu=0.2, linear: 24 against 29 iterations, dual
coefficients 3% apart), with a binary fraction both sums are exact.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import svm as sk
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import cvbench
from conftest import load_libsvm
from cvbench._params import NO_SAMPLE_WEIGHT

RTOL, ATOL = 1e-6, 1e-9


def split(X, y, seed=0):
    """Training and held-out rows (held-out rows never reach a fit)."""
    return train_test_split(X, y, test_size=0.3, random_state=seed)


def dense(m):
    return m.toarray() if sp.issparse(m) else np.asarray(m)


def assert_same(ours, theirs, X_test):
    """Fitted arrays equal; decisions and predictions on held-out rows."""
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    np.testing.assert_allclose(dense(ours.dual_coef_), dense(theirs.dual_coef_), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(dense(ours.support_vectors_), dense(theirs.support_vectors_))
    assert ours.fit_status_ == theirs.fit_status_ == 0
    assert ours.shape_fit_ == theirs.shape_fit_
    if hasattr(theirs, "decision_function"):
        np.testing.assert_allclose(ours.decision_function(X_test), theirs.decision_function(X_test),
                                   rtol=RTOL, atol=ATOL)
    if isinstance(ours, cvbench.NuSVC):
        np.testing.assert_array_equal(ours.classes_, theirs.classes_)
        np.testing.assert_array_equal(ours.n_iter_, theirs.n_iter_)
        np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
    elif isinstance(ours, cvbench.OneClassSVM):
        assert ours.n_iter_ == theirs.n_iter_
        np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test))
        assert ours.predict(X_test).dtype == theirs.predict(X_test).dtype
        np.testing.assert_allclose(ours.offset_, theirs.offset_, rtol=RTOL)
        np.testing.assert_allclose(ours.score_samples(X_test), theirs.score_samples(X_test),
                                   rtol=RTOL, atol=ATOL)
    else:
        assert ours.n_iter_ == theirs.n_iter_
        np.testing.assert_allclose(ours.predict(X_test), theirs.predict(X_test), rtol=RTOL, atol=ATOL)


def scaled(X):
    return MinMaxScaler((-1, 1)).fit_transform(X)


@pytest.fixture(scope="module")
def iris_data():
    X, y = load_iris(return_X_y=True)
    return scaled(X), y


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return scaled(X), y


NU_SVC_CASES = [
    dict(),
    dict(nu=0.25, gamma=0.5),
    dict(nu=0.375, kernel="linear"),
    dict(nu=0.125, kernel="poly", degree=2, gamma="auto", coef0=1.0),
    dict(nu=0.25, kernel="sigmoid", gamma=0.05, coef0=-0.5),
    dict(nu=0.3125, shrinking=False, decision_function_shape="ovo"),
    dict(nu=0.25, break_ties=True),
]


@pytest.mark.parametrize("params", NU_SVC_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_nu_svc_equals_scikit_learn_on_iris(params, sparse, iris_data):
    X_train, X_test, y_train, _ = split(*iris_data)
    if sparse:
        X_train, X_test = sp.csr_matrix(X_train), sp.csr_matrix(X_test)
    ours = cvbench.NuSVC(**params).fit(X_train, y_train)
    theirs = sk.NuSVC(**params).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


@pytest.mark.parametrize("params", [dict(nu=0.125), dict(nu=0.0625, gamma=2.0)])
def test_nu_svc_equals_scikit_learn_on_glass(params):
    X, y = load_libsvm("glass.scale")
    X_train, X_test, y_train, _ = split(X, y)
    ours = cvbench.NuSVC(**params).fit(X_train, y_train)
    theirs = sk.NuSVC(**params).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


def test_nu_svc_binary_and_string_labels():
    X, y = load_breast_cancer(return_X_y=True)
    y = np.array(["malignant", "benign"])[y]
    X_train, X_test, y_train, _ = split(scaled(X), y)
    ours = cvbench.NuSVC(nu=0.375).fit(X_train, y_train)
    theirs = sk.NuSVC(nu=0.375).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


REGRESSION_CASES = [
    dict(),
    dict(C=10.0, gamma=0.5),
    dict(kernel="linear", C=0.5),
    dict(kernel="poly", degree=2, gamma="auto", coef0=1.0, C=3.0),
    dict(shrinking=False, tol=1e-4, C=2.0),
]


@pytest.mark.parametrize("params", REGRESSION_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_svr_equals_scikit_learn_on_diabetes(params, sparse, diabetes):
    X, y = diabetes
    y = (y - y.mean()) / y.std()
    X_train, X_test, y_train, _ = split(X, y)
    if sparse:
        X_train, X_test = sp.csr_matrix(X_train), sp.csr_matrix(X_test)
    ours = cvbench.SVR(epsilon=0.2, **params).fit(X_train, y_train)
    theirs = sk.SVR(epsilon=0.2, **params).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


@pytest.mark.parametrize("params", REGRESSION_CASES)
def test_nu_svr_equals_scikit_learn_on_diabetes(params, diabetes):
    X, y = diabetes
    X_train, X_test, y_train, _ = split(X, y)
    ours = cvbench.NuSVR(nu=0.4, **params).fit(X_train, y_train)
    theirs = sk.NuSVR(nu=0.4, **params).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


@pytest.mark.parametrize("cls,params", [(cvbench.SVR, dict(C=4.0, epsilon=0.5)), (cvbench.NuSVR, dict(nu=0.3))])
def test_regression_equals_scikit_learn_on_housing(cls, params):
    X, y = load_libsvm("housing_scale")
    X_train, X_test, y_train, _ = split(X, y)
    ours = cls(**params).fit(X_train, y_train)
    theirs = getattr(sk, cls.__name__)(**params).fit(X_train, y_train)
    assert_same(ours, theirs, X_test)


@pytest.mark.parametrize("params", [dict(), dict(nu=0.1, gamma=0.5), dict(nu=0.3, kernel="linear"),
                                    dict(nu=0.2, kernel="poly", degree=3, coef0=1.0)])
@pytest.mark.parametrize("sparse", [False, True])
def test_one_class_equals_scikit_learn_on_breast_cancer(params, sparse):
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, _, _ = split(scaled(X), y)
    if sparse:
        X_train, X_test = sp.csr_matrix(X_train), sp.csr_matrix(X_test)
    ours = cvbench.OneClassSVM(**params).fit(X_train)
    theirs = sk.OneClassSVM(**params).fit(X_train)
    assert_same(ours, theirs, X_test)


def test_linear_coef_equals_scikit_learn(diabetes, iris_data):
    X, y = diabetes
    for cls, kw in [("SVR", {}), ("NuSVR", {}), ("OneClassSVM", dict(nu=0.3))]:
        ours = getattr(cvbench, cls)(kernel="linear", **kw).fit(X, y)
        theirs = getattr(sk, cls)(kernel="linear", **kw).fit(X, y)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=RTOL, atol=ATOL)
    X, y = iris_data
    ours = cvbench.NuSVC(kernel="linear", nu=0.25).fit(X, y)
    theirs = sk.NuSVC(kernel="linear", nu=0.25).fit(X, y)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=RTOL, atol=ATOL)
    with pytest.raises(AttributeError):
        cvbench.SVR().fit(X, y.astype(float)).coef_


def test_unsupported_parameters_are_clear_errors(iris_data):
    X, y = iris_data
    with pytest.raises(ValueError, match="class_weight"):
        cvbench.NuSVC(class_weight="balanced").fit(X, y)
    for est, args in [(cvbench.NuSVC(), (X, y)), (cvbench.SVR(), (X, y)), (cvbench.NuSVR(), (X, y)),
                      (cvbench.OneClassSVM(), (X,))]:
        with pytest.raises(ValueError, match="sample_weight"):
            est.fit(*args, sample_weight=np.ones(len(X)))
        with pytest.raises(ValueError, match="square"):  # a precomputed kernel takes a Gram matrix
            type(est)(kernel="precomputed").fit(*args)
    for bad in [0.0, 1.5, -0.1, "half"]:
        with pytest.raises(ValueError, match="nu"):
            cvbench.NuSVR(nu=bad).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        cvbench.SVR(epsilon=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="infeasible"):
        cvbench.NuSVC(nu=0.99).fit(X[:60], y[:60])


def test_grid_says_where_the_formulations_go(iris_data):
    X, y = iris_data
    with pytest.raises(ValueError, match="cross_validate_svm"):
        cvbench.cross_validate_svc(cvbench.SVR(), X)
    with pytest.raises(ValueError, match=r"estimator=NuSVC\(\)"):
        cvbench.GridSearchSVC(cvbench.NuSVC()).fit(X, y)
    with pytest.raises(ValueError, match="estimator=cvbench.SVR"):
        cvbench.GridSearchSVC({"nu": [0.2, 0.5]}).fit(X, y)
    with pytest.raises(ValueError, match=r"unknown SVC parameters \['epsilon'\]"):
        cvbench.GridSearchSVC({"C": [1.0]}, svc_params={"epsilon": 0.1}).fit(X, y)
    with pytest.raises(ValueError, match="svc_params is SVC's"):
        cvbench.GridSearchSVC({"nu": [0.5]}, estimator=cvbench.NuSVC(), svc_params={"tol": 0.1}).fit(X, y)


def test_verbose_prints_libsvm_lines(diabetes, capsys):
    X, y = diabetes
    cvbench.SVR(verbose=True).fit(X, y)
    out = capsys.readouterr().out
    assert out.startswith("[LibSVM]") and "optimization finished" in out and "nSV = " in out


def _expected_failed_checks(estimator):
    why = f"sample_weight is not supported ({NO_SAMPLE_WEIGHT}): a ValueError"
    checks = {
        name: why
        for name in [
            "check_sample_weights_pandas_series",
            "check_sample_weights_not_an_array",
            "check_sample_weights_list",
            "check_sample_weights_shape",
            "check_sample_weights_not_overwritten",
            "check_sample_weight_equivalence_on_dense_data",
            "check_sample_weight_equivalence_on_sparse_data",
            "check_all_zero_sample_weights_error",
        ]
    }
    if isinstance(estimator, cvbench.NuSVC):
        checks["check_class_weight_classifiers"] = (
            "class_weight is refused (LIBSVM's nu-SVC ignores it, as scikit-learn's NuSVC)"
        )
    return checks


@parametrize_with_checks(
    [cvbench.NuSVC(), cvbench.SVR(), cvbench.NuSVR(), cvbench.OneClassSVM()],
    expected_failed_checks=_expected_failed_checks,
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
