"""SVC(kernel='linear').coef_ has scikit-learn's one row per class pair
(one-vs-one order) for more than two classes (issue 54, item 6)."""

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import load_libsvm
from sklearn.svm import SVC as SkSVC

import cvbench


def _check(X, y, pairs):
    ours = cvbench.SVC(kernel="linear", C=2.0).fit(X, y)
    theirs = SkSVC(kernel="linear", C=2.0).fit(X, y)
    assert ours.coef_.shape == theirs.coef_.shape == (pairs, X.shape[1])
    # Sparse after a sparse fit, dense after a dense one, as scikit-learn's.
    assert sp.issparse(ours.coef_) == sp.issparse(theirs.coef_) == sp.issparse(X)
    dense = lambda a: a.toarray() if sp.issparse(a) else a  # noqa: E731
    np.testing.assert_allclose(dense(ours.coef_), dense(theirs.coef_), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
def test_linear_coef_has_one_row_per_class_pair_iris(iris, sparse):
    X, y = iris
    _check(sp.csr_matrix(X) if sparse else X, y, 3)


def test_linear_coef_has_one_row_per_class_pair_four_string_classes(four_classes):
    X, y = four_classes
    _check(X, y, 6)


def test_linear_coef_has_one_row_per_class_pair_glass():
    X, y = load_libsvm("glass.scale")
    _check(X, y, 15)


def test_linear_coef_binary_is_one_row(binary):
    X, y = binary
    _check(X, y, 1)


@pytest.mark.parametrize("sparse", [False, True])
def test_linear_coef_binary_sparse_fit_is_sparse(binary, sparse):
    X, y = binary
    _check(sp.csr_matrix(X) if sparse else X, y, 1)


def test_coef_is_read_only(iris):
    X, y = iris
    coef = cvbench.SVC(kernel="linear").fit(X, y).coef_
    with pytest.raises(ValueError):
        coef[0, 0] = 1.0
