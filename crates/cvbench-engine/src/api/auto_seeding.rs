//! `auto`, the seeding choice of [`super::CvMethod::parse_for`] (and the
//! default of the Python package's `cross_validate_svc`): one rule, from
//! what this project measured, that names a concrete preset of
//! [`SeedingMethod`] for a dataset.
//!
//! The rule: [`SeedingMethod::Sir`] (Wen et al.'s chain with Single
//! Instance Replacement) on two classes without class weights,
//! [`SeedingMethod::None`] (`svm-train -v`'s rounds from zero) otherwise.
//!
//! Why: on two classes SIR's chain was the fastest exact-within-tolerance
//! CV measured at k = 10 (`experiments/svm/README.md`: 3.82x the unseeded
//! rounds on a9a and 3.15x on w8a with per-solve caches on one thread;
//! README's Python table: 5.3x on a9a with the shared cache on 2 threads);
//! the one binary set measured slower is MNIST-5k scaled (0.78x with
//! per-solve caches, 0.95x with the shared cache: most of its rows are
//! support vectors, so seeding saves iterations, not kernel values).
//! Seeding runs on two classes without class
//! weights only (more classes are refused), and per-pair seeding was slower
//! than the unseeded shared cache on letter
//! (`experiments/engine/logs/2026-11-27-multiclass-cv.md`: tree 108.6 s and SIR 101.7 s
//! against 81.9 s). A seeded round reaches LIBSVM's optimum within the
//! stopping tolerance, not its iterations: its accuracy is `svm-train -v`'s
//! within one held-out row per fold; `none` gives it bit for bit.

use crate::data::Dataset;
use crate::svm::multiclass::is_multiclass;
use crate::svm::SeedingMethod;

/// The name that asks for the automatic choice.
pub(crate) const AUTO_SEEDING: &str = "auto";

/// The preset `auto` stands for on `ds` (see the module's rule):
/// `class_weights` says whether the CV weighs the classes.
pub(crate) fn auto_seeding(ds: &Dataset, class_weights: bool) -> SeedingMethod {
    if is_multiclass(ds) || class_weights {
        SeedingMethod::None
    } else {
        SeedingMethod::Sir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One zero feature per row, labels `y`.
    pub(super) fn labels(y: &[f64]) -> Dataset {
        Dataset::from_dense_rows("t", &vec![vec![0.0]; y.len()], y.to_vec())
    }

    #[test]
    fn sir_on_two_classes_unweighted_none_otherwise() {
        let two = labels(&[1.0, -1.0, 1.0]);
        assert_eq!(auto_seeding(&two, false), SeedingMethod::Sir);
        assert_eq!(auto_seeding(&two, true), SeedingMethod::None);
        assert_eq!(
            auto_seeding(&labels(&[1.0, 2.0, 3.0]), false),
            SeedingMethod::None
        );
        assert!(
            SeedingMethod::parse(AUTO_SEEDING).is_none(),
            "auto must not shadow a preset"
        );
    }
}

#[cfg(test)]
mod parse_tests {
    use super::super::{CvMethod, SvcSpec};
    use super::*;
    use crate::svm::multiclass::ClassWeight;
    use crate::svm::SvmParams;

    #[test]
    fn auto_resolves_per_dataset_and_unknown_names_list_it() {
        let ds = super::tests::labels;
        let (two, three) = (ds(&[1.0, -1.0]), ds(&[1.0, 2.0, 3.0]));
        let spec = SvcSpec::new(SvmParams::linear(1.0));
        let weighted = SvcSpec {
            weights: vec![ClassWeight {
                label: 1,
                weight: 2.0,
            }],
            ..spec.clone()
        };
        let label = |ds: &Dataset, spec: &SvcSpec, seeder: Option<&str>| {
            CvMethod::parse_for(ds, spec, "auto", None, seeder, "shared")
                .unwrap()
                .label()
        };
        assert_eq!(label(&two, &spec, None), "sir");
        assert_eq!(label(&three, &spec, None), "none");
        assert_eq!(label(&two, &weighted, None), "none");
        assert_eq!(label(&two, &spec, Some("carry")), "chain+carry");
        let e = CvMethod::parse_for(&two, &spec, "fast", None, None, "shared").unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown seeding method `fast`: use auto, none, ato"),
            "{e}"
        );
        // The CLI's names alone: no `auto` there.
        assert!(CvMethod::parse("auto", None, None, "shared").is_err());
    }
}
