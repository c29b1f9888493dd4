"""Clear Python errors that name the parameter and its valid values
(issue 54, items 13 and 14)."""

import numpy as np
import pytest

import cvbench


def test_degree_out_of_int32_names_degree_and_its_range(iris):
    X, y = iris
    with pytest.raises(ValueError, match=r"degree must be an integer in \[0, 2\*\*31 - 1\]"):
        cvbench.SVC(kernel="poly", degree=2**31).fit(X, y)
    with pytest.raises(ValueError, match="degree"):
        cvbench.cross_validate_svc(X, y, kernel="poly", degree=-1)


def test_max_iter_out_of_int64_names_max_iter(iris):
    X, y = iris
    with pytest.raises(ValueError, match="max_iter"):
        cvbench.SVC(max_iter=2**64).fit(X, y)


@pytest.mark.parametrize("grid", [[], [{}][:0]])
def test_empty_grid_is_a_clear_value_error(iris, grid):
    X, y = iris
    with pytest.raises(ValueError, match="param_grid is empty"):
        cvbench.GridSearchSVC(grid).fit(X, y)


def test_grid_key_that_is_no_svc_parameter_is_named(iris):
    X, y = iris
    with pytest.raises(ValueError, match=r"\['bogus'\] are not SVC parameters"):
        cvbench.GridSearchSVC({"bogus": [1]}).fit(X, y)


@pytest.mark.parametrize("cv", [True, False, 2.5, "5"])
def test_bad_cv_is_a_clear_error_like_check_cv(iris, cv):
    X, y = iris
    with pytest.raises(ValueError, match=r"cv|Expected cv"):
        cvbench.cross_validate_svc(X, y, cv=cv)


def test_class_weight_error_names_the_users_label_and_parameter():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([7, 7, 9, 9])
    msg = r"class_weight\[7\] = -2\.0"
    with pytest.raises(ValueError, match=msg):
        cvbench.SVC(class_weight={7: -2.0}).fit(X, y)
    with pytest.raises(ValueError, match=msg):
        cvbench.cross_validate_svc(X, y, class_weight={7: -2.0}, cv=2)
    with pytest.raises(ValueError, match=r"class_weight\['b'\] = nan"):
        cvbench.SVC(class_weight={"b": float("nan")}).fit(X, np.array(list("aabb")))
