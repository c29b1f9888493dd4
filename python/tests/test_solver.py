"""The batched working-set solver from Python (``solver="batched"``): the
same optimum as the SMO's to the tolerance, a clear error for a bad name."""

import numpy as np
import pytest

import cvbench


def overlapping(n=1500, d=5, seed=3):
    rng = np.random.RandomState(seed)
    y = np.where(rng.rand(n) < 0.4, -1.0, 1.0)
    X = rng.randn(n, d) + 0.6 * y[:, None] * (np.arange(d) < 2)
    return X, y


def test_batched_fit_agrees_with_the_smo():
    X, y = overlapping()
    smo = cvbench.SVC(C=1.0, gamma=0.5).fit(X, y)
    bat = cvbench.SVC(C=1.0, gamma=0.5, solver="batched").fit(X, y)
    flips = int(np.sum(smo.predict(X) != bat.predict(X)))
    assert flips <= 2, flips
    assert abs(smo.intercept_[0] - bat.intercept_[0]) < 1e-2
    df = np.abs(smo.decision_function(X) - bat.decision_function(X))
    assert df.max() < 2e-2, df.max()


def test_batched_cv_and_grid_run():
    X, y = overlapping(600)
    a = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, seeding="none")["test_score"]
    b = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, solver="batched")["test_score"]
    # Within one held-out row per fold.
    assert np.all(np.abs(a - b) * (len(y) / 5) <= 1.0 + 1e-9), (a, b)
    g = cvbench.GridSearchSVC({"C": [0.5, 2.0]}, cv=3, svc_params={"gamma": 0.5, "solver": "batched"}).fit(X, y)
    assert g.best_params_["C"] in (0.5, 2.0)


def test_a_bad_solver_name_is_a_value_error_naming_the_choices():
    X, y = overlapping(50)
    with pytest.raises(ValueError, match="smo.*batched"):
        cvbench.SVC(solver="thunder").fit(X, y)
