"""cvbench.SVC against scikit-learn's SVC (both LIBSVM's algorithm) and
scikit-learn's own estimator checks."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC as SkSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

import cvbench

CASES = [
    dict(),
    dict(C=10.0, gamma=0.5),
    dict(kernel="linear", C=0.5),
    dict(kernel="poly", degree=2, gamma="auto", coef0=1.0),
    dict(kernel="sigmoid", gamma=0.05, coef0=-0.5),
    dict(C=3.0, class_weight="balanced"),
]


def assert_same(ours, theirs, X):
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               rtol=1e-6, atol=1e-9)
    dual = lambda m: m.dual_coef_.toarray() if sp.issparse(m.dual_coef_) else m.dual_coef_
    np.testing.assert_allclose(dual(ours), dual(theirs), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("params", CASES)
@pytest.mark.parametrize("data", ["binary", "iris", "four_classes"])
@pytest.mark.parametrize("sparse", [False, True])
def test_equals_scikit_learn(params, data, sparse, request):
    X, y = request.getfixturevalue(data)
    if sparse:
        X = sp.csr_matrix(X)
    ours = cvbench.SVC(**params).fit(X, y)
    theirs = SkSVC(**params).fit(X, y)
    assert_same(ours, theirs, X)


def test_ovo_shape_and_break_ties(four_classes):
    X, y = four_classes
    for kw in [dict(decision_function_shape="ovo"), dict(break_ties=True)]:
        ours, theirs = cvbench.SVC(**kw).fit(X, y), SkSVC(**kw).fit(X, y)
        np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                                   rtol=1e-6, atol=1e-9)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_bad_arguments_are_value_errors(iris):
    X, y = iris
    for kw in [dict(C=0.0), dict(kernel="precomputed"), dict(gamma=-1.0), dict(tol=-1),
               dict(class_weight="heavy"), dict(n_jobs=0)]:
        with pytest.raises(ValueError):
            cvbench.SVC(**kw).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        cvbench.SVC().fit(X, y).predict(X[:, :2])


def _expected_failed_checks(estimator):
    # scikit-learn expects the same two checks to fail for its own SVC
    # (sklearn.utils._test_common.instance_generator): LIBSVM's weights
    # scale C per sample, which is not the same as repeating samples.
    why = "sample_weight is not equivalent to removing/repeating samples (as scikit-learn's SVC)"
    return {
        "check_sample_weight_equivalence_on_dense_data": why,
        "check_sample_weight_equivalence_on_sparse_data": why,
    }


@parametrize_with_checks(
    [cvbench.SVC(), cvbench.SVC(probability=True)], expected_failed_checks=_expected_failed_checks
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
