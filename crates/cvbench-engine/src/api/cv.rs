//! Cross-validation below [`super::cross_validate`]: folds (LIBSVM's,
//! stratified, leave-one-out, explicit) and the one check of a CV's fold
//! count, the binary CV (baseline, seeded, batched, first rounds), the
//! one-vs-one CV (plain and seeded), and their results.

/// Folds and glibc's `rand()` they are drawn with (the folds checked
/// against their dataset: [`Folds::check_for`]); LIBSVM's warning when
/// `-v K` asks for more folds than rows.
pub use crate::{
    svm::cv::folds::FOLDS_OVER_DATA_WARNING,
    svm::{Folds, GlibcRand},
};

/// The binary CV: the baseline's rounds ([`CvOptions`]), seeded rounds,
/// a strategy's run (and its first rounds only), their results.
pub use crate::{
    svm::cv::cross_validate as cross_validate_rounds,
    svm::{
        run_cv, run_cv_first_rounds, seeded_cross_validate, CvOptions, CvResult, CvRound,
        SeededCvResult, SeededOptions,
    },
};

/// Whether a fold's rounds are degenerate (most held-out rows on the
/// boundary).
pub use crate::svm::cv::rounds::is_degenerate;

/// The one-vs-one CV (plain and seeded), its options and result.
pub use crate::svm::multiclass::{
    cross_validate_ovo, cross_validate_ovo_seeded, OvoCvOptions, OvoCvResult,
};
