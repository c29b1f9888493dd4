//! nu-SVC's cross-validation checks nu's feasibility as svm-train does:
//! once, on the whole data (`svm_check_parameter`), never per fold
//! (`svm_train` does not check it), so a round whose training classes
//! make nu infeasible still trains; nu infeasible on the whole data is
//! refused.

use cvbench_engine::api::cv::Folds;
use cvbench_engine::api::data::Dataset;
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{cross_validate_formulation, FormulationCvOptions};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::CacheMode;

/// Ten rows of each class (`+1` first), two features.
fn two_classes() -> Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..20 {
        let t = i as f64;
        let c = if i < 10 { 1.0 } else { -1.0 };
        rows.push(vec![c + 0.3 * (t * 1.3).sin(), 0.5 * (t * 0.7).cos()]);
        y.push(c);
    }
    Dataset::from_dense_rows("nu-feasibility", &rows, y)
}

fn opts() -> FormulationCvOptions {
    FormulationCvOptions {
        cache: CacheMode::Shared,
        threads: 1,
    }
}

#[test]
fn a_fold_with_nu_infeasible_still_trains() {
    let ds = two_classes();
    // nu = 1 is feasible on the whole data (1 * 20 / 2 <= 10) but not on
    // round 0's training rows (8 of class +1, 10 of -1: 9 > 8).
    let folds = Folds {
        n: 20,
        folds: vec![vec![0, 1], (2..20).collect()],
        kind: "constructed".into(),
    };
    let cv = cross_validate_formulation(
        &ds,
        &folds,
        &SvmParams::rbf(1.0, 0.5),
        SvmType::NuSvc { nu: 1.0 },
        opts(),
    )
    .expect("svm-train trains every fold");
    assert_eq!(cv.result.rounds.len(), 2);
    assert!(cv
        .result
        .predictions
        .iter()
        .all(|p| *p == 1.0 || *p == -1.0));
}

#[test]
fn nu_infeasible_on_the_whole_data_is_refused() {
    let mut ds = two_classes();
    ds.y[10] = 1.0; // 11 of +1, 9 of -1: 1 * 20 / 2 > 9
    let folds = Folds {
        n: 20,
        folds: vec![(0..10).collect(), (10..20).collect()],
        kind: "constructed".into(),
    };
    let e = cross_validate_formulation(
        &ds,
        &folds,
        &SvmParams::rbf(1.0, 0.5),
        SvmType::NuSvc { nu: 1.0 },
        opts(),
    )
    .expect_err("infeasible");
    assert!(e.to_string().contains("infeasible"), "{e}");
}
