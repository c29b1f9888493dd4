"""Shared data for the tests: small generated sets and scikit-learn's
bundled iris and breast_cancer (no download)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, make_classification
from sklearn.preprocessing import MinMaxScaler


@pytest.fixture(scope="session")
def binary():
    X, y = load_breast_cancer(return_X_y=True)
    return MinMaxScaler((-1, 1)).fit_transform(X), y


@pytest.fixture(scope="session")
def iris():
    X, y = load_iris(return_X_y=True)
    return MinMaxScaler((-1, 1)).fit_transform(X), y


@pytest.fixture(scope="session")
def four_classes():
    X, y = make_classification(n_samples=240, n_features=8, n_informative=5, n_classes=4,
                               random_state=3)
    X[np.abs(X) < 0.6] = 0.0  # sparse-ish, for the CSR cases
    labels = np.array(["d", "a", "c", "b"])  # string labels, not in sorted order
    return X, labels[y]


def load_libsvm(name):
    """A LIBSVM-format set from CVBENCH_DATA_DIR (``name.xz``) as dense
    arrays, or the test skipped where it is absent."""
    import lzma
    import os

    from sklearn.datasets import load_svmlight_file

    path = os.path.join(os.environ.get("CVBENCH_DATA_DIR", "data"), f"{name}.xz")
    if not os.path.exists(path):
        pytest.skip(f"{name}.xz not in CVBENCH_DATA_DIR: SKIPPED")
    with lzma.open(path) as f:
        X, y = load_svmlight_file(f)
    return X.toarray(), y


@pytest.fixture(scope="session")
def spread():
    """Issue 54's set: 40 rows of 200 scaled up, so gamma='scale' on all
    rows and on a training fold differ."""
    r = np.random.RandomState(0)
    X = r.randn(200, 5)
    X[:40] *= 10
    y = (X[:, 0] + r.randn(200) > 0).astype(int)
    return X, y
