//! The registry of experiment kinds: the one list the runner, the report and
//! the command line derive the kinds from. Apart from the traits (in the
//! parent module) so that no kind's import of them runs in a loop.

use super::Kind;

/// Every experiment kind the harness knows, in the report's order.
pub fn kinds() -> Vec<&'static dyn Kind> {
    vec![
        &super::treecv::TreecvKind,
        &super::progressive::kind::ProgressiveKind,
        &super::svm_cv::SvmCvKind,
        &super::svm_grid::SvmGridKind,
    ]
}

/// The kind named `name`, if there is one.
pub fn kind_named(name: &str) -> Option<&'static dyn Kind> {
    kinds().into_iter().find(|k| k.name() == name)
}
