"""cvbench.cross_validate_svm: per-fold scores of NuSVC, SVR and NuSVR
equal scikit-learn's cross_validate on the same folds (one native call for
a numeric gamma; plain per-fold fits for gamma='scale', the held-out rows
never reaching a fit), svm-train -s 3 -v's mean squared error on its folds,
and the same numbers on any thread count.

Tolerance: accuracy exactly; r2 and mean squared error to 1e-6 relative,
for the reason test_formulations.py states (the same SMO steps, not the
same floating-point sums). KFold without shuffling: each round's training
rows are then in ascending order both in LIBSVM's round (the other folds
in fold order) and in scikit-learn's; nu a binary fraction (see
test_formulations.py)."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.datasets import dump_svmlight_file, load_diabetes
from sklearn.model_selection import KFold, PredefinedSplit, cross_validate
from sklearn.preprocessing import MinMaxScaler

import cvbench
from conftest import load_libsvm
from cvbench import _native
from cvbench._params import native_x

RTOL = 1e-6


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return MinMaxScaler((-1, 1)).fit_transform(X), y


def same_folds_as_kfold(n, k):
    """PredefinedSplit of KFold(k)'s folds: the same test sets."""
    ids = np.zeros(n, dtype=int)
    for f, (_, test) in enumerate(KFold(k).split(np.zeros(n))):
        ids[test] = f
    return PredefinedSplit(ids)


CASES = [
    ("SVR", dict(C=4.0, gamma=0.5, epsilon=0.125)),
    ("SVR", dict(C=1.0, kernel="linear", epsilon=0.5)),
    ("SVR", dict(C=2.0)),  # gamma='scale': per-fold fits
    ("NuSVR", dict(C=1.0, gamma=0.25, nu=0.5)),
    ("NuSVR", dict(nu=0.25)),
]


@pytest.mark.parametrize("name,params", CASES)
@pytest.mark.parametrize("splitter", ["kfold", "predefined"])
def test_regression_scores_equal_scikit_learn(diabetes, name, params, splitter):
    X, y = diabetes
    cv = KFold(5) if splitter == "kfold" else same_folds_as_kfold(len(y), 5)
    scoring = ["r2", "neg_mean_squared_error"]
    ours = cvbench.cross_validate_svm(getattr(cvbench, name)(**params), X, y, cv=cv, scoring=scoring)
    theirs = cross_validate(getattr(sk, name)(**params), X, y, cv=cv, scoring=scoring)
    for key in ("test_r2", "test_neg_mean_squared_error"):
        np.testing.assert_allclose(ours[key], theirs[key], rtol=RTOL, err_msg=key)
    assert (ours["n_iter"] > 0).all() and ours["fit_time"].shape == (5,)
    default = cvbench.cross_validate_svm(getattr(cvbench, name)(**params), X, y, cv=cv)
    np.testing.assert_array_equal(default["test_score"], ours["test_r2"])


@pytest.mark.parametrize("data,params", [
    ("iris", dict(nu=0.25, gamma=0.5)),
    ("iris", dict(nu=0.125, kernel="linear")),
    ("binary", dict(nu=0.25, gamma=0.125)),
    ("binary", dict(nu=0.125)),  # gamma='scale': per-fold fits
])
def test_nu_svc_accuracy_equals_scikit_learn(data, params, request):
    X, y = request.getfixturevalue(data)
    if data == "binary":  # LIBSVM groups classes by first appearance, scikit-learn sorted
        order = np.argsort(y, kind="stable")
        X, y = X[order], y[order]
    cv = KFold(5)
    ours = cvbench.cross_validate_svm(cvbench.NuSVC(**params), X, y, cv=cv)
    theirs = cross_validate(sk.NuSVC(**params), X, y, cv=cv)
    np.testing.assert_array_equal(ours["test_score"], theirs["test_score"])
    ours = cvbench.cross_validate_svm(cvbench.NuSVC(**params), X, y, cv=cv, scoring="balanced_accuracy")
    theirs = cross_validate(sk.NuSVC(**params), X, y, cv=cv, scoring="balanced_accuracy")
    np.testing.assert_array_equal(ours["test_score"], theirs["test_score"])


@pytest.mark.skipif(shutil.which("svm-train") is None, reason="svm-train (libsvm-tools) absent: SKIPPED")
@pytest.mark.parametrize("s,kind,params", [
    (3, "SVR", dict(C=4.0, gamma=0.5, epsilon=0.125)),
    (4, "NuSVR", dict(C=1.0, gamma=0.25, nu=0.5)),
])
def test_int_cv_gives_svm_train_mse(diabetes, s, kind, params, tmp_path):
    X, y = diabetes
    path = os.path.join(tmp_path, "data.libsvm")
    dump_svmlight_file(X, y, path, zero_based=False)
    value = ["-p", str(params["epsilon"])] if kind == "SVR" else ["-n", str(params["nu"])]
    out = subprocess.run(["svm-train", "-s", str(s), "-c", str(params["C"]), "-g", str(params["gamma"]),
                          *value, "-v", "5", path], capture_output=True, text=True, check=True).stdout
    expected = float(re.search(r"Cross Validation Mean squared error = ([0-9.e+-]+)", out).group(1))
    res = cvbench.cross_validate_svm(getattr(cvbench, kind)(**params), X, y, cv=5,
                                     scoring="neg_mean_squared_error")
    dense, csr = native_x(X)
    tests = _native.formulation_folds(dense, csr, y, "epsilon_svr", 0.1, 5)
    sizes = np.array([len(t) for t in tests])
    mse = -np.dot(res["test_score"], sizes) / len(y)
    assert "%g" % mse == "%g" % expected


def test_scale_gamma_is_each_training_folds(diabetes):
    # Fold 0's rows scaled up by 100: a gamma from every row would be
    # another one; fold 0's score must still be that of its training rows.
    X, y = diabetes
    cv = list(KFold(5).split(X))
    train0, test0 = cv[0]
    Xb = X.copy()
    Xb[test0] *= 100.0
    got = cvbench.cross_validate_svm(cvbench.SVR(), Xb, y, cv=cv)["test_score"][0]
    expected = sk.SVR().fit(X[train0], y[train0]).score(Xb[test0], y[test0])
    np.testing.assert_allclose(got, expected, rtol=RTOL)


@pytest.mark.parametrize("est", [cvbench.SVR(C=4.0, gamma=0.5), cvbench.NuSVR(gamma=0.25), cvbench.SVR()])
def test_threads_give_identical_results(diabetes, est):
    X, y = diabetes
    one = cvbench.cross_validate_svm(est, X, y, cv=10, n_jobs=1)
    two = cvbench.cross_validate_svm(est, X, y, cv=10, n_jobs=2)
    per_solve = cvbench.cross_validate_svm(est, X, y, cv=10, n_jobs=2, cache="per_solve")
    for other in (two, per_solve):
        np.testing.assert_array_equal(one["test_score"], other["test_score"])
        np.testing.assert_array_equal(one["n_iter"], other["n_iter"])


def test_svc_is_cross_validate_svcs(binary):
    X, y = binary
    ours = cvbench.cross_validate_svm(cvbench.SVC(C=4.0, gamma=0.25), X, y, cv=5)
    direct = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=5)
    np.testing.assert_array_equal(ours["test_score"], direct["test_score"])


def test_refusals_are_clear(iris):
    X, y = iris
    with pytest.raises(ValueError, match="OneClassSVM is unsupervised"):
        cvbench.cross_validate_svm(cvbench.OneClassSVM(), X)
    with pytest.raises(ValueError, match="cross_validate_svm"):
        cvbench.cross_validate_svc(cvbench.SVR(), X)
    with pytest.raises(ValueError, match="not computed here"):
        cvbench.cross_validate_svm(cvbench.SVR(), X, y.astype(float), scoring="roc_auc")
    with pytest.raises(ValueError, match="takes cvbench.SVC"):
        cvbench.cross_validate_svm(sk.SVR(), X, y)
    with pytest.raises(ValueError, match="class_weight"):
        cvbench.cross_validate_svm(cvbench.NuSVC(class_weight="balanced"), X, y)


def test_housing_scale_mse_equals_scikit_learn():
    X, y = load_libsvm("housing_scale")
    cv = KFold(5)
    params = dict(C=4.0, gamma=0.5, epsilon=0.125)
    ours = cvbench.cross_validate_svm(cvbench.SVR(**params), X, y, cv=cv, scoring="neg_mean_squared_error")
    theirs = cross_validate(sk.SVR(**params), X, y, cv=cv, scoring="neg_mean_squared_error")
    np.testing.assert_allclose(ours["test_score"], theirs["test_score"], rtol=RTOL)


@pytest.mark.skipif(shutil.which("svm-train") is None, reason="svm-train (libsvm-tools) absent: SKIPPED")
def test_nu_svc_int_cv_gives_svm_train_accuracy(binary, tmp_path):
    X, y = binary
    path = os.path.join(tmp_path, "data.libsvm")
    dump_svmlight_file(X, y, path, zero_based=False)
    out = subprocess.run(["svm-train", "-s", "1", "-n", "0.25", "-g", "0.25", "-v", "5", path],
                         capture_output=True, text=True, check=True).stdout
    expected = re.search(r"Cross Validation Accuracy = ([0-9.]+)%", out).group(1)
    res = cvbench.cross_validate_svm(cvbench.NuSVC(nu=0.25, gamma=0.25), X, y, cv=5)
    dense, csr = native_x(X)
    tests = _native.formulation_folds(dense, csr, y.astype(float), "nu_svc", 0.25, 5)
    sizes = np.array([len(t) for t in tests])
    assert "%g" % (100 * np.dot(res["test_score"], sizes) / len(y)) == expected


@pytest.mark.parametrize("seeding,solver", [("sir", "smo"), ("sir_two_chains", "smo"),
                                            ("none", "batched"), ("sir", "batched")])
def test_seeded_and_batched_cv_is_exact_to_the_tolerance(diabetes, seeding, solver):
    # The engine's seeded / batched CV: every fold's MSE within the solver's
    # tolerance of LIBSVM's rounds from zero, and the same numbers on any
    # thread count.
    X, y = diabetes
    est = cvbench.SVR(C=4.0, gamma=0.5, epsilon=0.125)
    plain = cvbench.cross_validate_svm(est, X, y, cv=5, scoring="neg_mean_squared_error")
    runs = [cvbench.cross_validate_svm(est, X, y, cv=5, scoring="neg_mean_squared_error",
                                       seeding=seeding, solver=solver, n_jobs=j) for j in (1, 2)]
    np.testing.assert_array_equal(runs[0]["test_score"], runs[1]["test_score"])
    np.testing.assert_allclose(runs[0]["test_score"], plain["test_score"], rtol=1e-2)
    if seeding != "none":
        assert runs[0]["n_iter"][1:].sum() < plain["n_iter"][1:].sum()


def test_seeding_and_solver_refusals_are_clear(diabetes):
    X, y = diabetes
    with pytest.raises(ValueError, match="gamma='scale' depends on each fold"):
        cvbench.cross_validate_svm(cvbench.SVR(), X, y, cv=5, seeding="sir")
    with pytest.raises(ValueError, match="seeding"):
        cvbench.cross_validate_svm(cvbench.SVR(gamma=0.5), X, y, cv=5, seeding="tree")
    with pytest.raises(ValueError, match="solver must be one of"):
        cvbench.cross_validate_svm(cvbench.NuSVR(gamma=0.5), X, y, cv=5, solver="thunder")
    with pytest.raises(ValueError, match="from its own parameters"):
        cvbench.cross_validate_svm(cvbench.SVC(gamma=0.5), X, (y > 150).astype(int), cv=5,
                                   seeding="sir")


@pytest.mark.parametrize("estimator", [
    lambda: cvbench.NuSVR(gamma=0.5, C=4.0, nu=0.4),
    lambda: cvbench.NuSVC(gamma=0.5, nu=0.3),
])
def test_the_batched_solver_reaches_the_smos_cv_for_the_nu_formulations(diabetes, estimator):
    # Solver_NU's two equality constraints on the batched solver: the same
    # optimum to tol, so the same held-out scores to what tol allows.
    X, y = diabetes
    est = estimator()
    if isinstance(est, cvbench.NuSVC):
        y = (y > np.median(y)).astype(int)
    smo = cvbench.cross_validate_svm(est, X, y, cv=5)
    batched = cvbench.cross_validate_svm(est, X, y, cv=5, solver="batched")
    np.testing.assert_allclose(batched["test_score"], smo["test_score"], rtol=2e-2, atol=1e-2)
    assert not np.array_equal(batched["n_iter"], smo["n_iter"])
