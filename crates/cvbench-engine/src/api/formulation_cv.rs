//! `svm-train -s 1..4 -v K`: k-fold cross-validation of nu-SVC, one-class,
//! epsilon-SVR and nu-SVR on LIBSVM's folds ([`libsvm_folds`]), through one
//! verb, [`cross_validate_formulation`]: the rounds run in parallel on one
//! shared kernel cache (the same numbers on any thread count) and it
//! returns every row's held-out prediction, each round's training as
//! `svm-train` prints it, and `svm-train`'s summary ([`CvSummary`]: the
//! accuracy for `-s 1/2`, the mean squared error and squared correlation
//! coefficient for `-s 3/4`).

use crate::data::Dataset;
use crate::svm::cv::folds::GlibcRand;
use crate::svm::{Folds, SvmError};

/// The options of a run (cache, threads), each round's training, the
/// run's outcome and `svm-train`'s summary of it.
pub use crate::svm::cv::formulations::{
    CvSummary, FormulationCv, FormulationCvOptions, FormulationCvResult, FormulationRound,
};

/// Cross-validate `svm_type` (not C-SVC) with `params` on `folds` of `ds`
/// (`nu`, `p` used as given; `params.cache_mb` is the run's whole
/// kernel-cache budget), as `svm_cross_validation` does.
pub use crate::svm::cv::formulations::cross_validate_formulation;

/// [`cross_validate_formulation`] with the probability model (`svm-train
/// -s 1|3|4 -b 1 -v k`): the rounds one after another, their internal CVs
/// shuffled by `rng` (the `rand()` stream after the folds' draws, as
/// svm-train's); nu-SVC predicts by its probabilities (the accuracy can
/// differ from `-v` without `-b 1`, as svm-train's), the SVRs as without
/// (the same mean squared error). One-class is refused, as svm-train 3.24
/// refuses `-s 2 -b 1`.
pub use crate::svm::cv::probability_formulations::cross_validate_formulation_probability;

/// [`cross_validate_formulation`] with alpha seeding `method`: `none` is
/// it (svm-train's numbers bit for bit); for epsilon-SVR `sir` runs the
/// rounds as one chain, each round started from the previous round's
/// solution made feasible (the rows that left dropped, those that entered
/// at their guess under the previous model, the side in excess of
/// `sum (a - a*) = 0` scaled down), and `sir_two_chains` as two such chains
/// at once. Seeded rounds are exact to the stopping tolerance (late digits
/// of the predictions may differ from svm-train's). Seeding the nu
/// formulations and one-class is refused (not built: a nu start must keep
/// both equality constraints).
pub use crate::svm::cv::seeded_svr::cross_validate_formulation_seeded;

use super::formulation::SvmType;

/// The folds `svm-train -s N -v k` uses on `ds` (glibc's `rand()` in its
/// default state): stratified for nu-SVC (`k < n`), one shuffle cut in
/// `k` consecutive parts for one-class and the SVRs (`k` lowered to `n`).
pub fn libsvm_folds(ds: &Dataset, k: usize, svm_type: SvmType) -> Result<Folds, SvmError> {
    Folds::libsvm_of(
        ds,
        k,
        svm_type.is_classification(),
        &mut GlibcRand::default_seed(),
    )
}
