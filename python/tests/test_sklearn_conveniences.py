"""What scikit-learn users expect of SVC and GridSearchSVC (issue 54,
item 23; item 18's n_jobs): verbose, check_estimator, refit delegation,
scoring, other SVC parameters as grid axes, scikit-learn's n_jobs."""

import re

import joblib
import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC as SkSVC
from sklearn.utils.estimator_checks import check_estimator

import cvbench
from cvbench._params import threads


def _libsvm_lines(text):
    """LIBSVM's info lines, without its progress dots and the [LibSVM] tag."""
    text = text.replace("[LibSVM]", "\n")
    lines = [ln.strip(".*") for ln in text.splitlines()]
    return [ln for ln in lines if ln]


@pytest.mark.parametrize("data", ["binary", "iris"])
def test_svc_verbose_prints_libsvms_lines_as_scikit_learn(data, request, capfd):
    X, y = request.getfixturevalue(data)
    SkSVC(C=2.0, verbose=True).fit(X, y)
    theirs = capfd.readouterr().out
    cvbench.SVC(C=2.0, verbose=True).fit(X, y)
    ours = capfd.readouterr().out
    assert _libsvm_lines(ours)[0].startswith("optimization finished, #iter = ")
    assert _libsvm_lines(ours)[-1].startswith("Total nSV = ")
    # Every line and progress mark (. and *) scikit-learn's LIBSVM prints;
    # its fork prints no nu line.
    assert ours.strip() == theirs.strip()


def test_svc_quiet_by_default(iris, capfd):
    X, y = iris
    cvbench.SVC().fit(X, y)
    assert capfd.readouterr().out == ""


@pytest.mark.parametrize("grid", [{"C": [1.0, 4.0]}, {"C": [1.0, 4.0], "gamma": [0.5, 2.0]}])
def test_grid_search_svc_passes_check_estimator(grid):
    # Plain per-fold fits (gamma='scale') and the grid engine (numeric gammas).
    check_estimator(cvbench.GridSearchSVC(grid, cv=3))


def test_grid_refit_delegates_predict_proba_and_decision_function(iris):
    X, y = iris
    grid = {"C": [0.5, 4.0], "gamma": [0.1, 1.0]}
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    svc = {"probability": True, "random_state": 0}
    ours = cvbench.GridSearchSVC(grid, cv=cv, reuse="gamma", svc_params=svc).fit(X, y)
    theirs = GridSearchCV(SkSVC(**svc), grid, cv=cv).fit(X, y)
    assert ours.best_params_ == theirs.best_params_
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=1e-9)
    assert ours.predict_proba(X).shape == (len(y), 3)
    np.testing.assert_allclose(ours.predict_proba(X).sum(axis=1), 1.0)
    assert ours.score(X, y) == theirs.score(X, y)


def test_grid_refit_false_has_no_predict_proba_but_best_params(iris):
    X, y = iris
    g = cvbench.GridSearchSVC({"C": [1.0, 2.0], "gamma": [0.5]}, refit=False).fit(X, y)
    assert not hasattr(g, "predict_proba") and not hasattr(g, "best_estimator_")
    assert g.best_params_ in g.cv_results_["params"]


def test_grid_callable_refit_picks_the_index(iris):
    X, y = iris
    # The callable picks the last candidate, the worse one.
    g = cvbench.GridSearchSVC({"C": [8.0, 0.001], "gamma": [0.5]}, refit=lambda r: len(r["params"]) - 1)
    g.fit(X, y)
    assert g.cv_results_["rank_test_score"][1] == 2
    assert g.best_index_ == 1 and g.best_params_ == {"C": 0.001, "gamma": 0.5}
    assert g.best_estimator_.C == 0.001 and not hasattr(g, "best_score_")


@pytest.mark.parametrize("scoring", ["balanced_accuracy", "f1_macro"])
def test_grid_scoring_equals_grid_search_cv(four_classes, scoring):
    X, y = four_classes
    grid = {"C": [0.5, 8.0], "gamma": [0.05, 0.5]}
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    ours = cvbench.GridSearchSVC(grid, cv=cv, scoring=scoring, n_jobs=2).fit(X, y)
    theirs = GridSearchCV(SkSVC(), grid, cv=cv, scoring=scoring).fit(X, y)
    for key in ["mean_test_score", "rank_test_score"] + [f"split{f}_test_score" for f in range(4)]:
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key], err_msg=key)
    assert ours.score(X, y) == theirs.score(X, y)


def test_grid_other_svc_parameters_as_axes_equal_grid_search_cv(iris):
    X, y = iris
    grid = [{"kernel": ["linear", "poly"], "C": [0.5, 4.0], "degree": [2, 3]},
            {"C": [1.0, 8.0], "gamma": [0.5], "class_weight": [None, "balanced"]}]
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    ours = cvbench.GridSearchSVC(grid, cv=cv, reuse="gamma+threads", n_jobs=2).fit(X, y)
    theirs = GridSearchCV(SkSVC(), grid, cv=cv).fit(X, y)
    assert ours.cv_results_["params"] == theirs.cv_results_["params"]
    for key in ["mean_test_score", "rank_test_score"] + [f"split{f}_test_score" for f in range(5)]:
        np.testing.assert_array_equal(ours.cv_results_[key], theirs.cv_results_[key], err_msg=key)
    assert ours.best_params_ == theirs.best_params_
    reuse = list(ours.cv_results_["reuse"])
    assert all(r.startswith("plain fits:") for r in reuse[:8])
    balanced = "plain fits: class_weight='balanced' is computed on each training fold"
    assert reuse[8:] == ["gamma+threads", balanced] * 2


def test_grid_verbose_says_how_many_fits(iris, capsys):
    X, y = iris
    cvbench.GridSearchSVC({"C": [1.0, 2.0], "gamma": [0.5]}, cv=3, verbose=2).fit(X, y)
    out = capsys.readouterr().out
    assert "Fitting 3 folds for each of 2 candidates, totalling 6 fits" in out
    assert len(re.findall(r"\[CV \d/3\] END", out)) == 6


def test_n_jobs_none_is_one_thread_unless_joblib_says_otherwise():
    assert threads(None) == 1
    assert threads(-1) == joblib.cpu_count()
    assert threads(3) == 3
    with joblib.parallel_config(n_jobs=2):
        assert threads(None) == 2
    with pytest.raises(ValueError, match="n_jobs"):
        threads(0)
