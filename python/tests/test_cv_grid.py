"""cross_validate_svc against svm-train -v and scikit-learn; GridSearchSVC
against GridSearchCV on the same folds."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_score
from sklearn.svm import SVC as SkSVC

import cvbench


@pytest.mark.skipif(shutil.which("svm-train") is None, reason="svm-train (libsvm-tools) absent: SKIPPED")
@pytest.mark.parametrize("data,k", [("binary", 10), ("iris", 5)])
def test_libsvm_folds_give_svm_train_accuracy(data, k, request, tmp_path):
    X, y = request.getfixturevalue(data)
    y = np.where(y == 0, -1, y) if data == "binary" else y
    path = os.path.join(tmp_path, "data.libsvm")
    dump_svmlight_file(X, y, path, zero_based=False)
    out = subprocess.run(["svm-train", "-c", "4", "-g", "0.25", "-v", str(k), path],
                         capture_output=True, text=True, check=True).stdout
    expected = re.search(r"Cross Validation Accuracy = ([0-9.]+)%", out).group(1)
    res = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=k, seeding="none")
    assert len(res["test_score"]) == k and (res["n_iter"] > 0).all()
    # svm-train prints 100 * correct / n; the folds' accuracies weighted by size give it.
    sizes = _libsvm_fold_sizes(y, k)
    assert "%g" % (100 * np.dot(res["test_score"], sizes) / len(y)) == expected


def _libsvm_fold_sizes(y, k):
    """Fold sizes of LIBSVM's stratified folds (per class, an even split)."""
    sizes = np.zeros(k, dtype=int)
    for c in np.unique(y):
        m = int((y == c).sum())
        for i in range(k):
            sizes[i] += (i + 1) * m // k - i * m // k
    return sizes


@pytest.mark.parametrize("sparse", [False, True])
def test_explicit_folds_equal_scikit_learn(iris, sparse):
    X, y = iris
    Xs = sp.csr_matrix(X) if sparse else X
    cv = list(StratifiedKFold(5, shuffle=True, random_state=1).split(X, y))
    ours = cvbench.cross_validate_svc(Xs, y, C=2.0, gamma=0.5, cv=cv, n_jobs=2)
    theirs = cross_val_score(SkSVC(C=2.0, gamma=0.5), Xs, y, cv=cv)
    np.testing.assert_allclose(ours["test_score"], theirs, atol=1.0 / 30 + 1e-12)


def test_folds_must_partition(iris):
    X, y = iris
    with pytest.raises(ValueError, match="partition|cover"):
        cvbench.cross_validate_svc(X, y, cv=[(np.arange(100), np.arange(100, 150))])


@pytest.mark.parametrize("data", ["binary", "iris"])
def test_grid_equals_grid_search_cv(data, request):
    X, y = request.getfixturevalue(data)
    grid = {"C": [0.25, 1.0, 4.0, 16.0], "gamma": [0.03125, 0.125, 0.5, 2.0]}
    cv = KFold(5, shuffle=True, random_state=0)
    ours = cvbench.GridSearchSVC(grid, cv=cv, n_jobs=2).fit(X, y)
    theirs = GridSearchCV(SkSVC(), grid, cv=cv).fit(X, y)
    assert ours.best_params_ == theirs.best_params_
    # GridSearchCV's keys, and "reuse" (what ran each candidate).
    assert [k for k in ours.cv_results_ if k != "reuse"] == [k for k in theirs.cv_results_ if "train" not in k]
    assert ours.cv_results_["params"] == theirs.cv_results_["params"]
    # The default reuse is an exact level: every score is GridSearchCV's.
    assert set(ours.cv_results_["reuse"]) == {"gamma+threads"}
    for f in range(5):
        key = f"split{f}_test_score"
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key])
    # The warm-start levels, opt-in: one held-out row per fold at most.
    warm = cvbench.GridSearchSVC(grid, cv=cv, n_jobs=2, reuse="all").fit(X, y)
    for f, (_, test) in enumerate(cv.split(X, y)):
        key = f"split{f}_test_score"
        n_test = len(test)
        np.testing.assert_allclose(warm.cv_results_[key], theirs.cv_results_[key],
                                   atol=1.0 / n_test + 1e-12)
    assert ours.best_estimator_.score(X, y) == theirs.best_estimator_.score(X, y)
