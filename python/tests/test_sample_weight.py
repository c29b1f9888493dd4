"""SVC.fit(X, y, sample_weight) as scikit-learn's: a per-sample factor on C
(rows with weight <= 0 left out, NaN an error), and the same in
cross_validate_svc and GridSearchSVC through fit_params."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.svm import SVC as SkSVC

import cvbench


def _weights(n, seed=0, zeros=False):
    r = np.random.RandomState(seed)
    w = r.uniform(0.1, 3.0, n)
    if zeros:
        w[::7] = 0.0
        w[3::11] = -1.0
    return w


@pytest.mark.parametrize("data", ["binary", "iris"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("zeros", [False, True])
def test_sample_weight_equals_scikit_learn(data, sparse, zeros, request):
    X, y = request.getfixturevalue(data)
    if sparse:
        X = sp.csr_matrix(X)
    w = _weights(X.shape[0], zeros=zeros)
    params = dict(C=2.0, gamma=0.3)
    ours = cvbench.SVC(**params).fit(X, y, sample_weight=w)
    theirs = SkSVC(**params).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    # Weights change the model (a test that would pass without them would not).
    plain = cvbench.SVC(**params).fit(X, y)
    assert not np.allclose(plain.decision_function(X), ours.decision_function(X))


def test_sample_weight_nan_or_bad_length_is_a_value_error(binary):
    X, y = binary
    w = np.ones(X.shape[0])
    w[5] = np.nan
    with pytest.raises(ValueError, match="NaN|finite"):
        cvbench.SVC().fit(X, y, sample_weight=w)
    with pytest.raises(ValueError):
        cvbench.SVC().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="positive weight"):
        cvbench.SVC().fit(X, y, sample_weight=np.where(y == y[0], 0.0, 1.0))


def test_cross_validate_and_grid_take_sample_weight_as_fit_params(binary):
    X, y = binary
    w = _weights(X.shape[0], seed=3)
    cv = KFold(5, shuffle=True, random_state=0)
    ours = cvbench.cross_validate_svc(X, y, C=2.0, gamma=0.3, cv=cv, fit_params={"sample_weight": w})
    theirs = cross_val_score(SkSVC(C=2.0, gamma=0.3), X, y, cv=cv, params={"sample_weight": w})
    np.testing.assert_array_equal(ours["test_score"], theirs)
    grid = {"C": [0.5, 2.0], "gamma": [0.3]}
    g = cvbench.GridSearchSVC(grid, cv=cv).fit(X, y, sample_weight=w)
    t = GridSearchCV(SkSVC(), grid, cv=cv).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(g.cv_results_["mean_test_score"], t.cv_results_["mean_test_score"])
    assert all(r.startswith("plain fits: sample_weight") for r in g.cv_results_["reuse"])
    np.testing.assert_array_equal(g.predict(X), t.predict(X))
    with pytest.raises(TypeError, match="sample_weight only"):
        cvbench.cross_validate_svc(X, y, cv=cv, fit_params={"bogus": 1})
