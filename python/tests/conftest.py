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
