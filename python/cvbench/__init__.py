"""cvbench for Python: a scikit-learn-compatible SVC on cvbench's
LIBSVM-identical SMO, exact k-fold cross-validation and grid search, and
TreeCV and k-fold CV of the incremental learners.

The work is done by the Rust library (``cvbench._native``); this package
validates arguments the scikit-learn way and lays the results out as
scikit-learn does.
"""

from ._svc import SVC
from ._cv import cross_validate_svc
from ._grid import GridSearchSVC
from ._incremental import LEARNERS, kfold, treecv

__all__ = ["SVC", "cross_validate_svc", "GridSearchSVC", "treecv", "kfold", "LEARNERS"]
