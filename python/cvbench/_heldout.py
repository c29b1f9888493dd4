"""Scores of held-out predictions: scikit-learn's scorers (a name, a scorer
object, a callable, or None for the estimator's own ``score``) applied to a
stand-in of the fitted model whose ``predict`` returns the library's
held-out predictions of a fold's rows. So every score that scikit-learn
computes from a model's ``predict`` (r2, the mean squared and absolute
errors, accuracy, ..., a ``make_scorer`` of a metric, a callable that calls
``predict``) is computed as scikit-learn computes it, from the predictions of
the one CV that ran, with no second fit. A scorer that needs more than
``predict`` (``decision_function``, ``predict_proba``, the model's
attributes) raises an ``AttributeError`` (the caller then fits per fold)."""

import time

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, OutlierMixin, RegressorMixin
from sklearn.metrics import check_scoring


class _HeldOut(BaseEstimator):
    """A fold's fitted model as far as its predictions go: ``predict``
    returns them (for exactly as many rows), ``classes_`` a classifier's
    classes; it has nothing else (an ``AttributeError``)."""

    def __init__(self, predictions=None, classes=None):
        self.predictions = predictions
        self.classes = classes

    @property
    def classes_(self):
        """A classifier's classes (sorted, scikit-learn's)."""
        if self.classes is None:
            raise AttributeError("classes_: only a classifier's held-out predictions have classes")
        return self.classes

    def predict(self, X):
        """The held-out predictions of X's rows."""
        n = X.shape[0] if hasattr(X, "shape") else len(X)
        if n != len(self.predictions):
            raise ValueError(f"the held-out predictions are of {len(self.predictions)} rows, got {n}")
        return self.predictions


class _Regressor(RegressorMixin, _HeldOut):
    """A regressor's held-out predictions (``score``: r2)."""


class _Classifier(ClassifierMixin, _HeldOut):
    """A classifier's (``score``: accuracy)."""


class _Outliers(OutlierMixin, _HeldOut):
    """A one-class SVM's (+1 / -1; no ``score``)."""


_STAND_INS = {"regressor": _Regressor, "classifier": _Classifier, "outlier_detector": _Outliers}


def scorers(estimator, scoring):
    """{output key: scorer} for ``scoring`` as ``cross_validate`` names
    them: None (the estimator's own ``score``), a name or a callable:
    ``test_score``; a list or tuple of names: ``test_<name>`` each; a dict
    of name to scorer: ``test_<name>``. scikit-learn's errors for an
    unknown name or an estimator without ``score``."""
    if scoring is None or isinstance(scoring, str) or callable(scoring):
        return {"test_score": check_scoring(estimator, scoring)}
    if isinstance(scoring, (list, tuple, set)) and scoring:
        return {f"test_{name}": check_scoring(estimator, name) for name in scoring}
    if isinstance(scoring, dict) and scoring:
        return {f"test_{name}": check_scoring(estimator, s) for name, s in scoring.items()}
    raise ValueError(
        "scoring must be None, a scorer's name, a callable, a list of names or a dict of scorers, "
        f"got {scoring!r}"
    )


def fold_scores(named, kind, X, y, predictions, tests, classes=None):
    """Each scorer of ``named`` ({key: scorer}) on each fold: the scorer
    given the stand-in of ``kind`` (``estimator_type``: ``regressor``,
    ``classifier``, ``outlier_detector``) holding the fold's held-out
    ``predictions``, the fold's rows of X and its targets (None where y is).
    Returns ({key: scores per fold}, seconds of scoring per fold); an
    ``AttributeError`` where a scorer wants more than ``predict``."""
    stand_in = _STAND_INS[kind]
    out = {key: np.zeros(len(tests)) for key in named}
    seconds = np.zeros(len(tests))
    for f, test in enumerate(tests):
        test = np.asarray(test, dtype=np.intp)
        t0 = time.perf_counter()
        model = stand_in(predictions[test], classes)
        y_test = None if y is None else y[test]
        for key, scorer in named.items():
            out[key][f] = scorer(model, X[test], y_test)
        seconds[f] = time.perf_counter() - t0
    return out, seconds
