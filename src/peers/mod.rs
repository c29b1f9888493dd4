//! External programs our numbers are checked against. They sit beside the
//! solver layer, not in it: `svm` never runs a subprocess.
//!
//! - [`libsvm`]: LIBSVM's `svm-train` / `svm-predict` on exactly our folds.
//! - [`grid`]: LIBSVM's `grid.py` (`svm-grid`), timed, its rates and choice parsed.
//! - [`onedal`]: Intel's scikit-learn-intelex (oneDAL) SVC, one fit or a CV on our folds.
//! - [`libsvm_formulation`]: `svm-train -s 1..4` (its `-v k` summary parsed).
//! - [`onedal_formulation`]: oneDAL's SVR, NuSVR and NuSVC, one fit or a CV on our folds.

pub mod grid;
pub mod libsvm;
pub mod libsvm_formulation;
pub mod onedal;
pub mod onedal_formulation;
