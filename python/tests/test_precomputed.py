"""kernel='precomputed' (LIBSVM's -t 4) against scikit-learn's, on real
Gram matrices (iris, breast cancer; linear and RBF): fit(K_train, y) with
K_train n x n, predict(K_test) with K_test m x n_train; cross-validation
slicing K[train][:, train] as scikit-learn's cross_validate does (the
pairwise tag). Tolerance as test_formulations.py's."""

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.base import clone
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate, train_test_split
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks

import cvbench
from test_formulations import _expected_failed_checks as _formulation_failures

RTOL, ATOL = 1e-6, 1e-9


def grams(X, kind):
    """(kernel function of two row sets)."""
    if kind == "linear":
        return lambda A, B: A @ B.T
    return lambda A, B: rbf_kernel(A, B, gamma=0.5)


def dense(m):
    return m.toarray() if hasattr(m, "toarray") else np.asarray(m)


@pytest.mark.parametrize("data", ["iris", "binary"])
@pytest.mark.parametrize("kind", ["linear", "rbf"])
@pytest.mark.parametrize("name,params", [
    ("SVC", dict(C=2.0)),
    ("NuSVC", dict(nu=0.25)),
    ("SVR", dict(C=2.0, epsilon=0.125)),
    ("NuSVR", dict(nu=0.5)),
])
def test_fit_predict_equal_scikit_learn(data, kind, name, params, request):
    X, y = request.getfixturevalue(data)
    y = y.astype(float) if name in ("SVR", "NuSVR") else y
    if name == "NuSVC" and data == "binary":
        params = dict(nu=0.125)
    X_tr, X_te, y_tr, _ = train_test_split(X, y, test_size=0.3, random_state=0)
    k = grams(X, kind)
    K_tr, K_te = k(X_tr, X_tr), k(X_te, X_tr)
    ours = getattr(cvbench, name)(kernel="precomputed", **params).fit(K_tr, y_tr)
    theirs = getattr(sk, name)(kernel="precomputed", **params).fit(K_tr, y_tr)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    assert ours.support_vectors_.shape == theirs.support_vectors_.shape == (0, 0)
    np.testing.assert_allclose(dense(ours.dual_coef_), dense(theirs.dual_coef_), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=RTOL, atol=ATOL)
    if hasattr(theirs, "decision_function"):
        np.testing.assert_allclose(ours.decision_function(K_te), theirs.decision_function(K_te),
                                   rtol=RTOL, atol=ATOL)
    if name in ("SVR", "NuSVR"):
        np.testing.assert_allclose(ours.predict(K_te), theirs.predict(K_te), rtol=RTOL, atol=ATOL)
    else:
        np.testing.assert_array_equal(ours.predict(K_te), theirs.predict(K_te))


def test_one_class_equals_scikit_learn(iris):
    X, _ = iris
    K = grams(X, "rbf")(X, X)
    ours = cvbench.OneClassSVM(kernel="precomputed", nu=0.25).fit(K[:100, :100])
    theirs = sk.OneClassSVM(kernel="precomputed", nu=0.25).fit(K[:100, :100])
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_allclose(ours.decision_function(K[100:, :100]), theirs.decision_function(K[100:, :100]),
                               rtol=RTOL, atol=ATOL)


def test_tags_are_scikit_learns():
    for name in ("SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM"):
        ours, theirs = get_tags(getattr(cvbench, name)(kernel="precomputed")), get_tags(
            getattr(sk, name)(kernel="precomputed"))
        assert ours.input_tags.pairwise and theirs.input_tags.pairwise
        assert ours.input_tags.sparse == theirs.input_tags.sparse is False
        assert not get_tags(getattr(cvbench, name)()).input_tags.pairwise


@pytest.mark.parametrize("kind", ["linear", "rbf"])
def test_cross_validation_slices_the_gram_matrix(binary, kind):
    X, y = binary
    K = grams(X, kind)(X, X)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    theirs = cross_validate(sk.SVC(kernel="precomputed", C=2.0), K, y, cv=cv)["test_score"]
    # scikit-learn's cross_validate with cvbench's SVC: the pairwise tag slices K.
    sk_cv_ours = cross_validate(cvbench.SVC(kernel="precomputed", C=2.0), K, y, cv=cv)["test_score"]
    np.testing.assert_array_equal(sk_cv_ours, theirs)
    for seeding in ("none", "auto"):
        ours = cvbench.cross_validate_svc(K, y, kernel="precomputed", C=2.0, cv=cv, seeding=seeding)
        if seeding == "none":
            np.testing.assert_array_equal(ours["test_score"], theirs)
        else:  # seeded rounds: each fold within one held-out row
            assert np.all(np.abs(ours["test_score"] - theirs) <= 1.0 / 100)
    # The same CV as the kernel computed by the library.
    if kind == "rbf":
        direct = cvbench.cross_validate_svc(X, y, C=2.0, gamma=0.5, cv=cv, seeding="none")
        np.testing.assert_array_equal(direct["test_score"], theirs)


def test_cross_validate_svm_precomputed_regression(binary):
    X, _ = binary
    y = X[:, 0] * 3.0 + np.sin(X[:, 1])
    Xr = X[:, 2:]
    K = grams(Xr, "rbf")(Xr, Xr)
    cv = KFold(5)
    ours = cvbench.cross_validate_svm(cvbench.SVR(kernel="precomputed", epsilon=0.125), K, y, cv=cv)
    theirs = cross_validate(sk.SVR(kernel="precomputed", epsilon=0.125), K, y, cv=cv)
    np.testing.assert_allclose(ours["test_score"], theirs["test_score"], rtol=RTOL)
    # and with the per-fold path (clone per fold), the same slicing
    via_sklearn = cross_validate(clone(cvbench.SVR(kernel="precomputed", epsilon=0.125)), K, y, cv=cv)
    np.testing.assert_allclose(via_sklearn["test_score"], theirs["test_score"], rtol=RTOL)


def test_shapes_are_checked(iris):
    X, y = iris
    K = X @ X.T
    with pytest.raises(ValueError, match="square"):
        cvbench.SVC(kernel="precomputed").fit(K[:, :100], y)
    m = cvbench.SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError):
        m.predict(K[:, :100])
    with pytest.raises(ValueError, match="precomputed"):
        cvbench.GridSearchSVC({"C": [1.0]}, svc_params={"kernel": "precomputed"}).fit(K, y)


#: Checks that scikit-learn's own estimator of the same name fails with
#: kernel='precomputed' (nu infeasible on the checks' small Gram matrices;
#: the outlier checks pass a non-square X), by the same error here.
SKLEARN_FAILS_TOO = {
    "NuSVC": ["check_dont_overwrite_parameters", "check_f_contiguous_array_estimator",
              "check_methods_sample_order_invariance", "check_methods_subset_invariance",
              "check_fit2d_1feature", "check_dict_unchanged", "check_fit2d_predict1d"],
    "OneClassSVM": ["check_outliers_fit_predict", "check_outliers_train"],
}


def _expected_failed_checks(estimator):
    name = type(estimator).__name__
    checks = {} if name == "SVC" else _formulation_failures(estimator)
    for check in SKLEARN_FAILS_TOO.get(name, []):
        checks[check] = f"scikit-learn's {name}(kernel='precomputed') fails it too"
    return checks


@parametrize_with_checks(
    [getattr(cvbench, name)(kernel="precomputed") for name in ("SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM")],
    expected_failed_checks=_expected_failed_checks,
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
