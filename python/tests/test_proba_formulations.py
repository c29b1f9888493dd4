"""NuSVC(probability=True): LIBSVM's -b 1 probability model of nu-SVC
(svm-train -s 1 -b 1), against svm-predict -b 1 and scikit-learn's
conventions, seeded as cvbench.SVC(probability=True) (test_proba.py).
scikit-learn's NuSVC shuffles the internal CV with its own generator, so
its probabilities are not LIBSVM's: svm-train's are the reference."""

import os
import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

import cvbench
from test_formulations import _expected_failed_checks as _formulation_failed_checks


@pytest.mark.parametrize("data", ["binary", "iris", "four_classes"])
@pytest.mark.parametrize("sparse", [False, True])
def test_probabilities_sum_to_one_in_class_order(data, sparse, request):
    X, y = request.getfixturevalue(data)
    if sparse:
        X = sp.csr_matrix(X)
    m = cvbench.NuSVC(nu=0.3, probability=True).fit(X, y)
    p = m.predict_proba(X)
    k = len(m.classes_)
    assert p.shape == (X.shape[0], k)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-9)
    assert ((p > 0) & (p < 1)).all()
    assert m.probA_.shape == m.probB_.shape == (k * (k - 1) // 2,)
    np.testing.assert_allclose(np.exp(m.predict_log_proba(X)), p, rtol=1e-12)
    agree = (m.classes_[p.argmax(axis=1)] == m.predict(X)).mean()
    assert agree > 0.85, agree
    # The probability model changes no decision value.
    plain = cvbench.NuSVC(nu=0.3).fit(X, y)
    np.testing.assert_array_equal(m.decision_function(X), plain.decision_function(X))


@pytest.mark.skipif(shutil.which("svm-train") is None, reason="svm-train (libsvm-tools) absent: SKIPPED")
@pytest.mark.parametrize("data", ["binary", "iris"])
@pytest.mark.parametrize("nu", [0.5, 0.2])
def test_equal_svm_predict_b1_to_its_printed_digits(data, nu, request, tmp_path):
    # As test_proba.py's: rows grouped by ascending class, features at 8
    # significant digits (what svm-train writes of the support vectors).
    X, y = request.getfixturevalue(data)
    order = np.argsort(y, kind="stable")
    X, y = np.vectorize(lambda v: float("%.8g" % v))(X[order]), y[order]
    train = os.path.join(tmp_path, "train")
    dump_svmlight_file(X, y, train, zero_based=False)
    model, out = os.path.join(tmp_path, "model"), os.path.join(tmp_path, "out")
    subprocess.run(["svm-train", "-q", "-s", "1", "-n", str(nu), "-b", "1", "-g", "0.25", train, model], check=True)
    subprocess.run(["svm-predict", "-b", "1", train, model, out], check=True, capture_output=True)
    with open(out) as f:
        lines = f.read().split("\n")
    header = lines[0].split()
    assert header[0] == "labels" and [float(v) for v in header[1:]] == sorted(set(y))
    rows = [line.split() for line in lines[1:] if line]
    nu32 = float(np.float32(nu))  # svm-train reads -n with strtof
    m = cvbench.NuSVC(nu=nu32, gamma=0.25, probability=True).fit(X, y)
    p = m.predict_proba(X)
    assert [["%g" % v for v in row] for row in p] == [row[1:] for row in rows]
    assert [float(r[0]) for r in rows] == list(m.classes_[p.argmax(axis=1)])
    with open(model) as f:
        text = f.read()
    for key, ours in [("probA", m.probA_), ("probB", m.probB_)]:
        theirs = [float(v) for v in text.split(key + " ")[1].split("\n")[0].split()]
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_random_state_seeds_the_shuffle(iris):
    X, y = iris
    a = cvbench.NuSVC(probability=True).fit(X, y)
    b = cvbench.NuSVC(probability=True, random_state=1).fit(X, y)
    c = cvbench.NuSVC(probability=True, random_state=5).fit(X, y)
    np.testing.assert_array_equal(a.probA_, b.probA_)  # None: svm-train's srand(1) state
    assert not np.array_equal(a.probA_, c.probA_)
    np.testing.assert_array_equal(a.decision_function(X), c.decision_function(X))
    with pytest.raises(ValueError, match="random_state"):
        cvbench.NuSVC(probability=True, random_state=-3).fit(X, y)


@pytest.mark.parametrize("off", [False, "deprecated"])
def test_predict_proba_only_with_probability(iris, off):
    X, y = iris
    m = cvbench.NuSVC(probability=off).fit(X, y)
    assert not hasattr(m, "predict_proba") and not hasattr(m, "predict_log_proba")
    with pytest.raises(AttributeError, match="predict_proba"):
        m.predict_proba(X)
    assert m.probA_.shape == (0,)
    m.set_params(probability=True)  # switched on after a fit without it
    with pytest.raises(NotFittedError, match="fitted with probability=False"):
        m.predict_proba(X)


def _expected_failed_checks(estimator):
    checks = _formulation_failed_checks(estimator)
    checks["check_classifiers_train"] = (
        "predict_proba's argmax is not always the vote: Platt's sigmoids are fitted on an "
        "internal CV (scikit-learn's documentation says so of its own NuSVC); here 1 row in 200"
    )
    return checks


@parametrize_with_checks([cvbench.NuSVC(probability=True)], expected_failed_checks=_expected_failed_checks)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
