"""GridSearchSVC's exact reuse levels give GridSearchCV's numbers on the
same folds, bit for bit (every (point, fold) fitted in scikit-learn's row
order); the other levels within one held-out row per fold."""

import lzma
import os

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC as SkSVC

import cvbench

GRID = {"C": [0.25, 1.0, 4.0, 16.0], "gamma": [0.03125, 0.125, 0.5, 2.0]}


@pytest.mark.parametrize("reuse", ["none", "gamma", "gamma+threads"])
@pytest.mark.parametrize("data", ["binary", "iris", "four_classes"])
def test_exact_reuse_levels_equal_grid_search_cv(data, reuse, request):
    X, y = request.getfixturevalue(data)
    cv = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    ours = cvbench.GridSearchSVC(GRID, cv=cv, reuse=reuse, n_jobs=2, refit=False).fit(X, y)
    theirs = GridSearchCV(SkSVC(), GRID, cv=cv, refit=False).fit(X, y)
    keys = [f"split{f}_test_score" for f in range(5)] + ["mean_test_score", "std_test_score",
                                                         "rank_test_score"]
    for key in keys:
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key], err_msg=key)
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_score_ == theirs.best_score_


@pytest.mark.parametrize("reuse", ["all", "cpath", "gamma+cpath+newton", "folds"])
def test_warm_start_levels_within_one_row_per_fold(binary, reuse):
    X, y = binary
    cv = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    ours = cvbench.GridSearchSVC(GRID, cv=cv, reuse=reuse, refit=False).fit(X, y)
    theirs = GridSearchCV(SkSVC(), GRID, cv=cv, refit=False).fit(X, y)
    for f, (_, test) in enumerate(cv):
        key = f"split{f}_test_score"
        np.testing.assert_allclose(ours.cv_results_[key], theirs.cv_results_[key],
                                   atol=1.0 / len(test) + 1e-12)


@pytest.mark.skipif(not os.path.exists(os.path.join(os.environ.get("CVBENCH_DATA_DIR", "data"), "svmguide1.xz")),
                    reason="svmguide1.xz not in CVBENCH_DATA_DIR: SKIPPED")
def test_exact_where_libsvm_order_flips_a_row():
    # 600 rows of svmguide1 scaled: at C = 2^15, gamma = 2^-3 a fit in
    # LIBSVM's CV order (the training folds concatenated) flips a held-out
    # row of fold 1 against scikit-learn's; in its row order it does not.
    with lzma.open(os.path.join(os.environ.get("CVBENCH_DATA_DIR", "data"), "svmguide1.xz")) as f:
        X, y = load_svmlight_file(f)
    X = X.toarray()
    lo, hi = X.min(axis=0), X.max(axis=0)
    X = -1.0 + 2.0 * (X - lo) / (hi - lo)
    rows = np.sort(np.random.default_rng(0).choice(len(y), 600, replace=False))
    X, y = X[rows], y[rows]
    cv = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    grid = {"C": [2.0 ** 11, 2.0 ** 15], "gamma": [2.0 ** -3, 2.0 ** 1]}
    libsvm_order = cvbench.cross_validate_svc(X, y, C=2.0 ** 15, gamma=2.0 ** -3, cv=cv,
                                              seeding="none")
    theirs = GridSearchCV(SkSVC(), grid, cv=cv, refit=False).fit(X, y)
    assert libsvm_order["test_score"][1] != theirs.cv_results_["split1_test_score"][2]
    ours = cvbench.GridSearchSVC(grid, cv=cv, reuse="gamma+threads", n_jobs=2, refit=False).fit(X, y)
    for f in range(5):
        key = f"split{f}_test_score"
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key], err_msg=key)
