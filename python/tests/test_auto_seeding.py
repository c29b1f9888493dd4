"""cross_validate_svc's default seeding="auto": the preset it resolves to
per case (SIR on two classes without class weights, none otherwise), its
numbers those of the named preset, and its accuracy svm-train -v's within
one held-out row per fold (bit for bit where it resolves to none)."""

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import cvbench

needs_svm_train = pytest.mark.skipif(shutil.which("svm-train") is None,
                                     reason="svm-train (libsvm-tools) absent: SKIPPED")


def _svm_train_v(X, y, k, tmp_path):
    """svm-train -c 4 -g 0.25 -v k's printed accuracy (percent, as printed)."""
    path = os.path.join(tmp_path, "data.libsvm")
    dump_svmlight_file(X, y, path, zero_based=False)
    out = subprocess.run(["svm-train", "-c", "4", "-g", "0.25", "-v", str(k), path],
                         capture_output=True, text=True, check=True).stdout
    return re.search(r"Cross Validation Accuracy = ([0-9.]+)%", out).group(1)


def _fold_sizes(y, k):
    """Fold sizes of LIBSVM's stratified folds (per class, an even split)."""
    sizes = np.zeros(k, dtype=int)
    for c in np.unique(y):
        m = int((y == c).sum())
        for i in range(k):
            sizes[i] += (i + 1) * m // k - i * m // k
    return sizes


def test_auto_is_sir_on_two_classes_and_the_default(binary):
    X, y = binary
    auto = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=10)
    sir = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=10, seeding="sir")
    assert auto["seeding"] == "sir" and sir["seeding"] == "sir"
    np.testing.assert_array_equal(auto["test_score"], sir["test_score"])
    np.testing.assert_array_equal(auto["n_iter"], sir["n_iter"])


def test_auto_is_none_on_more_classes_and_with_class_weights(iris, binary):
    X, y = iris
    auto = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, seeding="auto")
    none = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, seeding="none")
    assert auto["seeding"] == "none"
    np.testing.assert_array_equal(auto["test_score"], none["test_score"])
    np.testing.assert_array_equal(auto["n_iter"], none["n_iter"])
    Xb, yb = binary
    weighted = cvbench.cross_validate_svc(Xb, yb, gamma=0.5, cv=5, class_weight={0: 2.0})
    assert weighted["seeding"] == "none"


def test_overrides_apply_to_the_resolved_preset(binary, iris):
    X, y = binary
    assert cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, seeder="carry")["seeding"] == "chain+carry"
    assert cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, order="two_chains")["seeding"] == "sir_two_chains"
    with pytest.raises(ValueError, match="two classes .*use seeding none"):
        cvbench.cross_validate_svc(*iris, gamma=0.5, cv=5, order="tree", seeder="carry")
    with pytest.raises(ValueError, match=r"unknown seeding method `fast`: use auto, none, "):
        cvbench.cross_validate_svc(X, y, seeding="fast")


@needs_svm_train
def test_auto_on_two_classes_is_svm_train_within_one_row_per_fold(binary, tmp_path):
    X, y01 = binary
    y = np.where(y01 == 0, -1, 1)
    k = 10
    expected = float(_svm_train_v(X, y, k, tmp_path))
    auto = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=k)
    none = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=k, seeding="none")
    sizes = _fold_sizes(y, k)
    # none is svm-train -v's accuracy as printed; auto each fold within one row of it.
    assert "%g" % (100 * np.dot(none["test_score"], sizes) / len(y)) == "%g" % expected
    flips = np.abs(auto["test_score"] - none["test_score"]) * sizes
    assert np.all(flips <= 1 + 1e-9), flips


@needs_svm_train
def test_auto_on_more_classes_is_svm_train_bit_for_bit(iris, tmp_path):
    X, y = iris
    expected = _svm_train_v(X, y, 5, tmp_path)
    auto = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=5)
    assert "%g" % (100 * np.dot(auto["test_score"], _fold_sizes(y, 5)) / len(y)) == expected
