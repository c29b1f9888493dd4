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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the runner and the report ask of a kind comes from the kind:
    /// each names its key parts and the columns its records must carry
    /// (before, `svm_grid` fell through to none and its stored runs were
    /// never checked).
    #[test]
    fn every_kind_names_its_key_parts_and_required_columns() {
        for k in kinds() {
            assert!(!k.key_parts().is_empty(), "{}", k.name());
            assert!(!k.required_columns().is_empty(), "{}", k.name());
        }
        let grid = kind_named("svm_grid").unwrap();
        assert!(grid.required_columns().contains(&"iterations"));
        assert!(kind_named("treecv").unwrap().cost_unit().is_some());
    }

    /// The provenance check reads the commits that touched a kind's
    /// sources: a path that does not exist (a folder moved, say into the
    /// engine crate) would hide every later change to that code.
    #[test]
    fn every_kind_s_sources_exist() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for k in kinds() {
            assert!(!k.sources().is_empty(), "{}", k.name());
            for s in k.sources() {
                assert!(
                    root.join(s).exists(),
                    "{}: source {s} does not exist",
                    k.name()
                );
            }
        }
    }
}
