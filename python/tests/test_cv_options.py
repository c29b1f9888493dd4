"""cross_validate_svc's seeding, order, seeder and cache: cvbench svm -v's
names, its exactness rules and its refusals."""

import numpy as np
import pytest

import cvbench


@pytest.mark.parametrize("kw", [
    dict(seeding="tree"), dict(seeding="sir"), dict(seeding="ato", cache="per_solve"),
    dict(seeder="carry", order="tree"), dict(seeding="sir", order="two_chains"),
])
def test_seeded_cv_is_the_baseline_within_one_row_per_fold(binary, kw):
    X, y = binary
    base = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=10, seeding="none")
    seeded = cvbench.cross_validate_svc(X, y, C=4.0, gamma=0.25, cv=10, n_jobs=2, **kw)
    # At most one held-out row per fold flips (LIBSVM's folds: n // 10 rows or more).
    one_row = 1.0 / (len(y) // 10)
    assert np.all(np.abs(seeded["test_score"] - base["test_score"]) <= one_row + 1e-12)
    assert len(seeded["n_iter"]) == 10


def test_cache_changes_no_number(iris):
    X, y = iris
    a = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, cache="shared", n_jobs=2)
    b = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, cache="per_solve")
    np.testing.assert_array_equal(a["test_score"], b["test_score"])
    np.testing.assert_array_equal(a["n_iter"], b["n_iter"])


def test_default_cache_holds_the_matrix_and_changes_no_number(iris):
    # The default cache_size (None) is sized from the data and the free
    # memory, as cvbench svm -v's -m: at least LIBSVM's 100 MB.
    from cvbench import _native
    assert _native.default_cache_mb(150) >= 100.0
    assert _native.default_cache_mb(40000) > _native.default_cache_mb(150)
    X, y = iris
    a = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5)
    b = cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, cache_size=1)
    np.testing.assert_array_equal(a["test_score"], b["test_score"])
    np.testing.assert_array_equal(a["n_iter"], b["n_iter"])


def test_unknown_names_list_the_known_ones(binary):
    X, y = binary
    with pytest.raises(ValueError, match=r"unknown seeding method `fast`: use auto, none, .*tree"):
        cvbench.cross_validate_svc(X, y, seeding="fast")
    with pytest.raises(ValueError, match=r"unknown round order `up`: use per_round"):
        cvbench.cross_validate_svc(X, y, order="up")
    with pytest.raises(ValueError, match=r"unknown cache `big`: use per_solve, shared"):
        cvbench.cross_validate_svc(X, y, cache="big")
    with pytest.raises(ValueError, match="seeding must be a name"):
        cvbench.cross_validate_svc(X, y, seeding=None)
    with pytest.raises(ValueError, match="does not go with round order"):
        cvbench.cross_validate_svc(X, y, gamma=0.5, seeder="sir", order="tree")


def test_seeding_more_classes_is_refused_with_the_way_out(iris):
    X, y = iris
    with pytest.raises(ValueError, match="two classes .*use seeding none"):
        cvbench.cross_validate_svc(X, y, gamma=0.5, cv=5, seeding="tree")
