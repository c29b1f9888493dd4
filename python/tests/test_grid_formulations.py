"""GridSearchSVC for NuSVC, SVR, NuSVR and OneClassSVM (issue 56, "Python")
against scikit-learn's GridSearchCV with the same estimator and folds: the
same best_params_, cv_results_ within 1e-6 (the same LIBSVM solver; on
contiguous folds each training sees scikit-learn's row order), scikit-learn's
scorers computed from the formulation grid's held-out predictions, and
scikit-learn's errors for bad grids. cross_validate_svm's regression
scorers too."""

import numpy as np
import pytest
import sklearn.svm as sk
from sklearn.datasets import load_diabetes, load_iris, make_regression
from sklearn.metrics import make_scorer, max_error
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import check_estimator

import cvbench
from conftest import load_libsvm

RTOL = 1e-6
SVR_GRID = {"C": [1.0, 8.0, 64.0], "gamma": [0.1, 0.5, 2.0], "epsilon": [0.1, 0.5]}


def scaled(X):
    return MinMaxScaler((-1, 1)).fit_transform(X)


@pytest.fixture(scope="module")
def synthetic():
    X, y = make_regression(n_samples=240, n_features=6, n_informative=4, noise=8.0, random_state=5)
    return scaled(X), y / 40.0


@pytest.fixture(scope="module")
def housing():
    X, y = load_libsvm("housing_scale")
    return X, y


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return scaled(X), y / 100.0


@pytest.fixture(scope="module")
def iris_shuffled():
    X, y = load_iris(return_X_y=True)
    order = np.random.RandomState(0).permutation(len(y))
    return scaled(X)[order], y[order]


def both(ours_est, theirs_est, grid, X, y, cv, **kw):
    ours = cvbench.GridSearchSVC(grid, estimator=ours_est, cv=cv, **kw).fit(X, y)
    theirs = GridSearchCV(theirs_est, grid, cv=cv, scoring=kw.get("scoring")).fit(X, y)
    return ours, theirs


def assert_same_search(ours, theirs, rtol=RTOL):
    assert ours.best_params_ == theirs.best_params_
    assert ours.best_index_ == theirs.best_index_
    a, b = ours.cv_results_, theirs.cv_results_
    np.testing.assert_allclose(a["mean_test_score"], b["mean_test_score"], rtol=rtol, atol=1e-12)
    for f in range(ours.n_splits_):
        np.testing.assert_allclose(a[f"split{f}_test_score"], b[f"split{f}_test_score"], rtol=rtol,
                                   atol=1e-12)
    np.testing.assert_array_equal(a["rank_test_score"], b["rank_test_score"])
    assert set(b) <= set(a) and set(a) - set(b) == {"reuse"}
    assert ours.best_score_ == pytest.approx(theirs.best_score_, rel=rtol)


@pytest.mark.parametrize("data", ["housing", "synthetic"])
def test_svr_grid_equals_grid_search_cv(data, request):
    X, y = request.getfixturevalue(data)
    ours, theirs = both(cvbench.SVR(), sk.SVR(), SVR_GRID, X, y, KFold(5), n_jobs=2)
    assert_same_search(ours, theirs)
    assert all(r == "gamma+threads" for r in ours.cv_results_["reuse"])
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)
    assert ours.score(X, y) == pytest.approx(theirs.score(X, y), rel=1e-9)


def test_nu_svr_grid_equals_grid_search_cv(diabetes):
    X, y = diabetes
    grid = {"C": [0.5, 4.0], "gamma": [0.2, 1.0], "nu": [0.25, 0.5]}
    ours, theirs = both(cvbench.NuSVR(), sk.NuSVR(), grid, X, y, KFold(4))
    assert_same_search(ours, theirs)


def test_nu_svc_grid_chooses_as_grid_search_cv(iris_shuffled):
    # Contiguous folds of shuffled rows; LIBSVM groups a training's rows by
    # class in first-appearance order, scikit-learn by sorted label: the same
    # optimum within tol, the same votes here.
    X, y = iris_shuffled
    grid = {"gamma": [0.1, 1.0], "nu": [0.1, 0.3, 0.5]}
    ours, theirs = both(cvbench.NuSVC(), sk.NuSVC(), grid, X, y, KFold(5))
    assert_same_search(ours, theirs)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


def test_one_class_grid_with_a_scorer(iris_shuffled):
    X, y = iris_shuffled
    inlier = np.where(y == 0, 1, -1)
    grid = {"gamma": [0.1, 1.0], "nu": [0.2, 0.5]}
    ours, theirs = both(cvbench.OneClassSVM(), sk.OneClassSVM(), grid, X, inlier, KFold(5),
                        scoring="accuracy")
    assert_same_search(ours, theirs)
    np.testing.assert_allclose(ours.score_samples(X), theirs.score_samples(X), rtol=1e-9)


@pytest.mark.parametrize("scoring", ["neg_mean_squared_error", "neg_mean_absolute_error", "r2",
                                     "neg_root_mean_squared_error", make_scorer(max_error)])
def test_scoring_strings_and_callables(synthetic, scoring):
    X, y = synthetic
    ours, theirs = both(cvbench.SVR(), sk.SVR(), SVR_GRID, X, y, KFold(5), scoring=scoring)
    assert_same_search(ours, theirs)
    assert all(r == "gamma+threads" for r in ours.cv_results_["reuse"])


def test_plain_callable_scorer_gets_the_held_out_predictions(synthetic):
    X, y = synthetic

    def neg_mse(est, X_test, y_test):
        return -float(np.mean((est.predict(X_test) - y_test) ** 2))

    ours, theirs = both(cvbench.SVR(), sk.SVR(), SVR_GRID, X, y, KFold(5), scoring=neg_mse)
    assert_same_search(ours, theirs)


def test_a_scorer_that_needs_the_model_runs_plain_fits(iris_shuffled):
    X, y = iris_shuffled
    binary = (y == 1).astype(int)
    grid = {"gamma": [0.5], "nu": [0.3, 0.5]}
    ours, theirs = both(cvbench.NuSVC(), sk.NuSVC(), grid, X, binary, StratifiedKFold(3),
                        scoring="roc_auc")
    assert all(r.startswith("plain fits") for r in ours.cv_results_["reuse"])
    assert_same_search(ours, theirs, rtol=1e-6)


def test_gamma_scale_is_computed_on_each_training_fold(synthetic):
    X, y = synthetic
    X = X * np.linspace(1, 5, X.shape[1])  # a gamma='scale' that differs from fold to fold
    grid = {"C": [1.0, 10.0], "epsilon": [0.1, 0.3]}
    ours, theirs = both(cvbench.SVR(), sk.SVR(), grid, X, y, KFold(5), n_jobs=2)
    assert all("gamma='scale'" in r for r in ours.cv_results_["reuse"])
    assert_same_search(ours, theirs)


def test_shuffled_folds_choose_the_same(housing):
    # Non-contiguous test folds: each training sees its rows in fold order,
    # another order than scikit-learn's ascending one: the same optimum
    # within tol.
    X, y = housing
    cv = KFold(5, shuffle=True, random_state=1)
    ours, theirs = both(cvbench.SVR(), sk.SVR(), SVR_GRID, X, y, cv)
    assert ours.best_params_ == theirs.best_params_
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"], theirs.cv_results_["mean_test_score"],
                               rtol=1e-3)


@pytest.mark.parametrize("reuse", ["none", "gamma", "threads"])
def test_reuse_levels_and_threads_change_no_number(synthetic, reuse):
    X, y = synthetic
    a = cvbench.GridSearchSVC(SVR_GRID, estimator=cvbench.SVR(), cv=KFold(4), n_jobs=2).fit(X, y)
    b = cvbench.GridSearchSVC(SVR_GRID, estimator=cvbench.SVR(), cv=KFold(4), reuse=reuse).fit(X, y)
    np.testing.assert_array_equal(a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"])


@pytest.mark.parametrize("reuse", ["all", "gamma+cpath+threads", "cpath"])
def test_svr_warm_starts_are_the_exact_grid_to_the_tolerance(housing, reuse):
    # Warm starts along C and epsilon (cvbench grid -s 3 --reuse cpath):
    # every score within the stopping tolerance of the exact grid's (which
    # is GridSearchCV's), the same choice, the same numbers on 1 and 2
    # threads, and fewer SMO iterations in all.
    X, y = housing
    grid = {"C": [1.0, 4.0, 16.0], "gamma": [0.25, 1.0], "epsilon": [0.5, 1.0, 2.0]}
    exact = cvbench.GridSearchSVC(grid, estimator=cvbench.SVR(), cv=KFold(5)).fit(X, y)
    warm = [cvbench.GridSearchSVC(grid, estimator=cvbench.SVR(), cv=KFold(5), reuse=reuse, n_jobs=j).fit(X, y)
            for j in (1, 2)]
    np.testing.assert_array_equal(warm[0].cv_results_["mean_test_score"], warm[1].cv_results_["mean_test_score"])
    # R^2 near zero at the worst points: an absolute bound there.
    np.testing.assert_allclose(warm[0].cv_results_["mean_test_score"], exact.cv_results_["mean_test_score"],
                               rtol=1e-3, atol=1e-4)
    assert warm[0].best_params_ == exact.best_params_
    assert all(r == reuse for r in warm[0].cv_results_["reuse"])
    assert not np.array_equal(warm[0].cv_results_["mean_test_score"], exact.cv_results_["mean_test_score"]), \
        "the warm starts changed no number: were they used?"


def sklearn_error(estimator, grid, X, y):
    with pytest.raises(Exception) as theirs:
        GridSearchCV(estimator, grid, cv=KFold(3)).fit(X, y)
    return theirs.type, str(theirs.value)


@pytest.mark.parametrize("grid", [{"C": 1.0}, {"C": []}, {"bogus": [1]}, {"C": [1.0], "nu": [0.5]}, "C",
                                  ({"C": [1.0]},), [{"C": [1.0]}, {"epsilon": 0.1}]])
def test_bad_grids_are_scikit_learns_errors(synthetic, grid):
    X, y = synthetic
    kind, message = sklearn_error(sk.SVR(), grid, X, y)
    with pytest.raises(kind) as ours:
        cvbench.GridSearchSVC(grid, estimator=cvbench.SVR(), cv=KFold(3)).fit(X, y)
    assert str(ours.value) == message.replace("GridSearchCV", "GridSearchSVC")


def test_other_refusals(synthetic):
    X, y = synthetic
    with pytest.raises(ValueError, match="exact levels"):
        cvbench.GridSearchSVC(SVR_GRID, estimator=cvbench.SVR(), reuse="gamma+newton").fit(X, y)
    with pytest.raises(ValueError, match="SVR's grid only"):
        cvbench.GridSearchSVC({"nu": [0.3, 0.5]}, estimator=cvbench.NuSVR(), reuse="cpath").fit(X, y)
    with pytest.raises(ValueError, match="sample_weight"):
        cvbench.GridSearchSVC(SVR_GRID, estimator=cvbench.SVR()).fit(X, y, sample_weight=np.ones(len(y)))
    with pytest.raises(ValueError, match="precomputed"):
        cvbench.GridSearchSVC({"C": [1.0]}, estimator=cvbench.SVR(kernel="precomputed")).fit(X @ X.T, y)
    with pytest.raises(ValueError, match="GridSearchCV"):
        cvbench.GridSearchSVC({"C": [1.0]}, estimator=sk.SVR()).fit(X, y)
    with pytest.raises(TypeError, match="score"):  # scikit-learn's: OneClassSVM has no score
        cvbench.GridSearchSVC({"nu": [0.5]}, estimator=cvbench.OneClassSVM()).fit(X)


def test_the_search_is_the_estimators_type(synthetic):
    from sklearn.base import is_classifier, is_regressor

    assert is_regressor(cvbench.GridSearchSVC(SVR_GRID, estimator=cvbench.SVR()))
    assert is_classifier(cvbench.GridSearchSVC({"nu": [0.5]}, estimator=cvbench.NuSVC()))
    assert is_classifier(cvbench.GridSearchSVC({"C": [1.0]}))
    # An int cv: KFold for a regressor (GridSearchCV's check_cv), so the same folds.
    X, y = synthetic
    ours, theirs = both(cvbench.SVR(), sk.SVR(), {"C": [1.0, 4.0], "gamma": [0.5]}, X, y, 3)
    assert_same_search(ours, theirs)


def test_grid_search_of_svr_passes_check_estimator():
    check_estimator(cvbench.GridSearchSVC({"C": [1.0, 4.0], "gamma": [0.5]}, estimator=cvbench.SVR(), cv=3))


@pytest.mark.parametrize("scoring", ["neg_mean_absolute_error", make_scorer(max_error),
                                     {"mse": "neg_mean_squared_error", "r2": "r2"}])
def test_cross_validate_svm_takes_scikit_learns_regression_scorers(diabetes, scoring):
    X, y = diabetes
    params = dict(C=4.0, gamma=0.5, epsilon=0.1)
    ours = cvbench.cross_validate_svm(cvbench.SVR(**params), X, y, cv=KFold(5), scoring=scoring)
    theirs = cross_validate(sk.SVR(**params), X, y, cv=KFold(5), scoring=scoring)
    keys = [k for k in theirs if k.startswith("test_")]
    assert keys and all(k in ours for k in keys)
    for k in keys:
        np.testing.assert_allclose(ours[k], theirs[k], rtol=RTOL)


def test_cv_as_train_test_pairs(synthetic):
    X, y = synthetic
    pairs = list(KFold(4).split(X))
    ours, theirs = both(cvbench.SVR(), sk.SVR(), {"C": [1.0, 4.0], "gamma": [0.5], "epsilon": [0.1]}, X, y,
                        pairs)
    assert_same_search(ours, theirs)
