"""gamma='scale' (and class_weight='balanced') depend on the training rows:
GridSearchSVC and cross_validate_svc compute them on each training fold, as
GridSearchCV(SVC()) and cross_val_score(SVC()) do, so the held-out rows
never reach a fit and every score is scikit-learn's (issue 54, items 4
and 5)."""

import warnings

import numpy as np
import pytest
from conftest import load_libsvm
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_score
from sklearn.svm import SVC as SkSVC

import cvbench
from cvbench import _native
from cvbench._params import native_x


def _same_scores(ours, theirs, k):
    for key in [f"split{f}_test_score" for f in range(k)] + ["mean_test_score", "rank_test_score"]:
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key], err_msg=key)


@pytest.mark.parametrize("reuse", ["none", "all", "gamma+threads"])
def test_grid_scale_gamma_is_each_training_folds(spread, reuse):
    X, y = spread
    grid = {"C": [1, 10]}
    ours = cvbench.GridSearchSVC(grid, cv=KFold(5), reuse=reuse, n_jobs=2).fit(X, y)
    theirs = GridSearchCV(SkSVC(), grid, cv=KFold(5)).fit(X, y)
    np.testing.assert_array_equal(theirs.cv_results_["mean_test_score"], [0.68, 0.69])
    _same_scores(ours, theirs, 5)
    # The engine's shared paths need one gamma for all folds: said per candidate.
    assert all(r.startswith("plain fits: gamma='scale'") for r in ours.cv_results_["reuse"])
    # The refit computes gamma on every row, as scikit-learn's.
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_grid_numeric_gamma_still_runs_on_the_engine(spread):
    X, y = spread
    ours = cvbench.GridSearchSVC({"C": [1, 10], "gamma": [0.1]}, cv=KFold(5), reuse="none").fit(X, y)
    assert list(ours.cv_results_["reuse"]) == ["none", "none"]


def test_grid_scale_gamma_heart_scale_equals_grid_search_cv():
    X, y = load_libsvm("heart_scale")
    cv = StratifiedKFold(5)
    ours = cvbench.GridSearchSVC({"C": [2.0]}, cv=cv).fit(X, y)
    theirs = GridSearchCV(SkSVC(), {"C": [2.0]}, cv=cv).fit(X, y)
    _same_scores(ours, theirs, 5)


def test_cv_scale_gamma_uses_only_training_rows(spread):
    X, y = spread
    res = cvbench.cross_validate_svc(X, y, cv=KFold(5), seeding="none")
    theirs = cross_val_score(SkSVC(), X, y, cv=KFold(5))
    np.testing.assert_array_equal(theirs, [0.55, 0.725, 0.75, 0.675, 0.7])
    np.testing.assert_array_equal(res["test_score"], theirs)
    assert res["seeding"] == "per_fold" and (res["n_iter"] > 0).all()


def test_cv_held_out_rows_do_not_change_their_folds_model(spread):
    # Fold 0's rows scaled up by 100: a gamma from every row would be
    # another one; fold 0's model must still be the one of its training
    # rows alone.
    X, y = spread
    cv = list(KFold(5).split(X))
    train0, test0 = cv[0]
    Xb = X.copy()
    Xb[test0] *= 100.0
    got = cvbench.cross_validate_svc(Xb, y, cv=cv)["test_score"][0]
    assert got == SkSVC().fit(X[train0], y[train0]).score(Xb[test0], y[test0])


def test_cv_scale_gamma_on_libsvm_folds_fits_each_training_fold(spread):
    X, y = spread
    res = cvbench.cross_validate_svc(X, y, cv=5)
    dense, csr = native_x(np.ascontiguousarray(X, dtype=np.float64))
    tests = _native.libsvm_folds(dense, csr, y.astype(np.float64), 5)
    for f, test in enumerate(tests):
        train = np.setdiff1d(np.arange(len(y)), test)
        assert res["test_score"][f] == SkSVC().fit(X[train], y[train]).score(X[test], y[test])


def test_cv_balanced_class_weight_is_each_training_folds(spread):
    X, y = spread
    ours = cvbench.cross_validate_svc(X, y, gamma=0.1, class_weight="balanced", cv=KFold(5))
    theirs = cross_val_score(SkSVC(gamma=0.1, class_weight="balanced"), X, y, cv=KFold(5))
    np.testing.assert_array_equal(ours["test_score"], theirs)


def test_cv_seeding_asked_with_scale_gamma_warns(spread):
    X, y = spread
    with pytest.warns(UserWarning, match="gamma='scale'.*seeding='sir'"):
        res = cvbench.cross_validate_svc(X, y, cv=KFold(5), seeding="sir")
    assert res["seeding"] == "per_fold"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cvbench.cross_validate_svc(X, y, cv=KFold(5))  # auto: no warning


def test_sparse_scale_gamma_cv_and_grid_equal_scikit_learn(four_classes):
    import scipy.sparse as sp

    X, y = four_classes
    Xs = sp.csr_matrix(X)
    cv = StratifiedKFold(4, shuffle=True, random_state=1)
    ours = cvbench.cross_validate_svc(Xs, y, C=2.0, cv=cv, n_jobs=2)
    np.testing.assert_array_equal(ours["test_score"], cross_val_score(SkSVC(C=2.0), Xs, y, cv=cv))
    grid = {"C": [0.5, 4.0]}
    _same_scores(cvbench.GridSearchSVC(grid, cv=cv).fit(Xs, y), GridSearchCV(SkSVC(), grid, cv=cv).fit(Xs, y), 4)
