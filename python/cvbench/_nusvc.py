"""cvbench.NuSVC: scikit-learn's NuSVC signature and conventions on the
library's nu-SVC (LIBSVM's ``solve_nu_svc``, one-vs-one, ``svm-train -s
1``), with SVC's fitted arrays and decision function."""

import numpy as np

from ._fitted import fit_formulation
from ._one_vs_one import OneVsOneSVM
from ._params import NO_SAMPLE_WEIGHT, nu_value, pairwise_split, refuse


class NuSVC(OneVsOneSVM):
    """Nu-Support Vector Classification with scikit-learn's ``NuSVC``
    interface: LIBSVM's nu-SVC (``svm-train -s 1 -n nu``), the classes in
    sorted order as scikit-learn's, one-vs-one pairs; fitted attributes,
    decision function and votes as ``cvbench.SVC``'s. ``verbose=True``
    prints LIBSVM's lines of the training.

    ``probability=True``: ``fit`` also trains LIBSVM's probability model
    (``svm-train -s 1 -b 1``: per class pair, Platt's sigmoid fitted to
    the decision values of an internal 5-fold CV of nu-SVC trainings),
    giving ``predict_proba``, ``predict_log_proba``, ``probA_`` and
    ``probB_``, as ``cvbench.SVC(probability=True)``: the shuffles drawn
    from glibc's ``rand()``, from its default state with
    ``random_state=None`` (svm-train's, so the probabilities are
    ``svm-predict -b 1``'s), after ``srand(n)`` with an int ``n``.

    Not supported (a ``ValueError`` where set): ``class_weight`` (LIBSVM's
    nu-SVC ignores it, and so does scikit-learn's) and ``sample_weight``.
    ``random_state`` only seeds the probability model. The class pairs
    are solved in parallel on the library's threads; every number is the
    same as on one.
    """

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.nu = nu
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Fit the model on X (dense or sparse) and labels y."""
        seed = self._probability_seed()
        refuse("class_weight", self.class_weight, "LIBSVM's nu-SVC ignores class weights")
        refuse("sample_weight", sample_weight, NO_SAMPLE_WEIGHT)
        nu = nu_value(self.nu)
        X, classes, y_enc = self._labelled(X, y)
        # The rows grouped by sorted class, each class's in its own order:
        # LIBSVM groups by first appearance, scikit-learn's libsvm (and
        # cvbench.SVC) by sorted label.
        order = np.argsort(y_enc, kind="stable")
        X_fit = pairwise_split(self.kernel, X, order)  # a Gram matrix: its columns too
        gamma, nr_sv, sv_rows, sv_coef, rho, iters, prob = fit_formulation(
            self, X_fit, y_enc[order], "nu_svc", nu, probability=seed
        )
        # The probability model (probA_, probB_, predict_proba) is
        # OneVsOneSVM's, as SVC's.
        self._set_fitted(X, classes, gamma, nr_sv, order[sv_rows], sv_coef, rho, iters, prob)
        self.class_weight_ = np.ones(len(classes))
        return self
