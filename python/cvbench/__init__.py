"""cvbench for Python: scikit-learn-compatible SVC, NuSVC, SVR, NuSVR and
OneClassSVM on cvbench's LIBSVM-identical solvers (precomputed kernels
too), exact k-fold cross-validation of SVC, NuSVC, SVR and NuSVR, grid
search of all five, and
TreeCV and k-fold CV of the incremental learners.

The work is done by the Rust library (``cvbench._native``); this package
validates arguments the scikit-learn way and lays the results out as
scikit-learn does.
"""

from ._svc import SVC
from ._nusvc import NuSVC
from ._one_function import SVR, NuSVR, OneClassSVM
from ._cv import cross_validate_svc
from ._cv_svm import cross_validate_svm
from ._grid import GridSearchSVC
from ._incremental import LEARNERS, kfold, treecv

__all__ = ["SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM", "cross_validate_svc", "cross_validate_svm", "GridSearchSVC", "treecv", "kfold", "LEARNERS"]
