"""SVC(probability=True): LIBSVM's -b 1 probability model, against
svm-predict -b 1 and scikit-learn's conventions."""

import os
import shutil
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
from sklearn.exceptions import NotFittedError

import cvbench


@pytest.mark.parametrize("data", ["binary", "iris", "four_classes"])
@pytest.mark.parametrize("sparse", [False, True])
def test_probabilities_sum_to_one_in_class_order(data, sparse, request):
    X, y = request.getfixturevalue(data)
    if sparse:
        X = sp.csr_matrix(X)
    m = cvbench.SVC(probability=True).fit(X, y)
    p = m.predict_proba(X)
    k = len(m.classes_)
    assert p.shape == (X.shape[0], k)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-9)
    assert ((p > 0) & (p < 1)).all()
    assert m.probA_.shape == m.probB_.shape == (k * (k - 1) // 2,)
    np.testing.assert_allclose(np.exp(m.predict_log_proba(X)), p, rtol=1e-12)
    # Mostly the class that wins the vote (Platt's sigmoids are fitted on CV values).
    agree = (m.classes_[p.argmax(axis=1)] == m.predict(X)).mean()
    assert agree > 0.9, agree


@pytest.mark.skipif(shutil.which("svm-train") is None, reason="svm-train (libsvm-tools) absent: SKIPPED")
@pytest.mark.parametrize("data", ["binary", "iris"])
def test_equal_svm_predict_b1_to_its_printed_digits(data, request, tmp_path):
    # Rows grouped by ascending class (the classes' first appearance is
    # their sorted order), so svm-train's class order is scikit-learn's.
    # Features at 8 significant digits: the model file's support vectors
    # (svm-train writes them with %.8g) are then ours, bit for bit.
    X, y = request.getfixturevalue(data)
    order = np.argsort(y, kind="stable")
    X, y = np.vectorize(lambda v: float("%.8g" % v))(X[order]), y[order]
    train = os.path.join(tmp_path, "train")
    dump_svmlight_file(X, y, train, zero_based=False)
    model, out = os.path.join(tmp_path, "model"), os.path.join(tmp_path, "out")
    subprocess.run(["svm-train", "-q", "-b", "1", "-c", "4", "-g", "0.25", train, model], check=True)
    subprocess.run(["svm-predict", "-b", "1", train, model, out], check=True, capture_output=True)
    with open(out) as f:
        lines = f.read().split("\n")
    header = lines[0].split()
    assert header[0] == "labels" and [float(v) for v in header[1:]] == sorted(set(y))
    rows = [line.split() for line in lines[1:] if line]
    m = cvbench.SVC(C=4.0, gamma=0.25, probability=True).fit(X, y)
    p = m.predict_proba(X)
    ours = [["%g" % v for v in row] for row in p]
    assert ours == [row[1:] for row in rows]
    assert [float(r[0]) for r in rows] == list(m.classes_[p.argmax(axis=1)])
    with open(model) as f:
        text = f.read()
    prob_a = [float(v) for v in text.split("probA ")[1].split("\n")[0].split()]
    np.testing.assert_allclose(m.probA_, prob_a, rtol=1e-6)


def test_random_state_seeds_the_shuffle(iris):
    X, y = iris
    a = cvbench.SVC(probability=True).fit(X, y)
    b = cvbench.SVC(probability=True, random_state=1).fit(X, y)
    c = cvbench.SVC(probability=True, random_state=5).fit(X, y)
    np.testing.assert_array_equal(a.probA_, b.probA_)  # None: svm-train's srand(1) state
    assert not np.array_equal(a.probA_, c.probA_)
    np.testing.assert_array_equal(a.decision_function(X), c.decision_function(X))
    with pytest.raises(ValueError, match="random_state"):
        cvbench.SVC(probability=True, random_state=-3).fit(X, y)


def test_predict_proba_only_with_probability(iris):
    X, y = iris
    m = cvbench.SVC().fit(X, y)
    assert not hasattr(m, "predict_proba") and not hasattr(m, "predict_log_proba")
    with pytest.raises(AttributeError, match="predict_proba"):
        m.predict_proba(X)
    assert m.probA_.shape == (0,)
    m.set_params(probability=True)  # switched on after a fit without it
    with pytest.raises(NotFittedError, match="fitted with probability=False"):
        m.predict_proba(X)
