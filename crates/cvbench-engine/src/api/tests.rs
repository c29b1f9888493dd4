//! The face's own tests: fit, predict, CV and grid against the solver.

use super::*;
use crate::svm::{CacheMode, RoundOrder, SeederKind, SeedingMethod};

fn blobs() -> Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..30 {
        let t = i as f64 * 0.37;
        let c = (i % 3) as f64;
        rows.push(vec![c * 2.0 + t.sin(), c - t.cos()]);
        y.push(c);
    }
    Dataset::from_dense_rows("api-synthetic", &rows, y)
}

#[test]
fn fit_predict_cv_and_grid_agree_with_the_solver() {
    let ds = blobs();
    let mut spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
    spec.order = ClassOrder::Sorted;
    let f = fit(&ds, &spec).unwrap();
    assert_eq!(f.model.labels, vec![0.0, 1.0, 2.0]);
    assert_eq!(f.iterations.len(), 3);
    let p = predict(&f.model, &ds, 2).unwrap();
    let right = p.iter().zip(&ds.y).filter(|(a, b)| a == b).count();
    assert!(right >= 27, "{right}");
    let folds = Folds::libsvm(&ds, 5).unwrap();
    let cv = cross_validate(&ds, &folds, &spec, &CvMethod::default()).unwrap();
    let g = grid(&ds, &folds, &spec, &[(1.0, 0.5)], &Reuse::all()).unwrap();
    let cv_right: usize = cv.folds.iter().map(|f| f.correct).sum();
    assert_eq!(g[0].correct, cv_right);
}

#[test]
fn probabilities_need_a_probability_fit_and_sum_to_one() {
    let ds = blobs();
    let mut spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
    let plain = fit(&ds, &spec).unwrap();
    assert!(plain.model.prob.is_none());
    assert!(probabilities(&plain.model, &ds, 1).is_err());
    spec.probability = Some(1);
    let f = fit(&ds, &spec).unwrap();
    let (a, b) = f.model.prob.as_ref().unwrap();
    assert_eq!((a.len(), b.len()), (3, 3));
    let p = probabilities(&f.model, &ds, 2).unwrap();
    assert_eq!(p.len(), 3 * ds.n());
    for row in p.chunks(3) {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{row:?}");
    }
    // Another seed, other shuffles: other sigmoids.
    spec.probability = Some(7);
    assert_ne!(fit(&ds, &spec).unwrap().model.prob, f.model.prob);
}

#[test]
fn cv_methods_are_the_cli_names_and_seeding_is_exact_to_tolerance() {
    let m = CvMethod::parse("tree", None, None, "shared").unwrap();
    assert_eq!((m.order, m.seeder), (RoundOrder::Tree, SeederKind::Carry));
    let m = CvMethod::parse("none", None, Some("sir"), "per_solve").unwrap();
    assert_eq!((m.order, m.seeder), (RoundOrder::Chain, SeederKind::Sir));
    assert_eq!(m.cache, CacheMode::PerSolve);
    let m = CvMethod::parse("sir", Some("two_chains"), None, "shared").unwrap();
    assert_eq!(
        (m.order, m.seeder),
        (RoundOrder::TwoChains, SeederKind::Sir)
    );
    let e = CvMethod::parse("fast", None, None, "shared").unwrap_err();
    assert!(e.to_string().contains(&SeedingMethod::names()), "{e}");
    let e = CvMethod::parse("none", Some("up"), None, "shared").unwrap_err();
    assert!(e.to_string().contains("round order `up`"), "{e}");

    // Two classes: every seeding reaches the same folds' accuracy
    // within one row per fold; more classes: seeding is refused.
    let mut ds = blobs();
    let folds = Folds::libsvm(&ds, 5).unwrap();
    let spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
    let multi = cross_validate(
        &ds,
        &folds,
        &spec,
        &CvMethod::parse("tree", None, None, "shared").unwrap(),
    );
    assert!(multi.unwrap_err().to_string().contains("two classes"));
    for y in ds.y.iter_mut() {
        *y = if *y == 0.0 { 1.0 } else { -1.0 };
    }
    let base = cross_validate(&ds, &folds, &spec, &CvMethod::default()).unwrap();
    for name in ["tree", "sir", "ato"] {
        let m = CvMethod::parse(name, None, None, "per_solve").unwrap();
        let r = cross_validate(&ds, &folds, &spec, &m).unwrap();
        for (a, b) in r.folds.iter().zip(&base.folds) {
            assert!(a.correct.abs_diff(b.correct) <= 1, "{name}");
        }
    }
}

#[test]
fn bad_threads_and_labels_are_errors() {
    let mut ds = blobs();
    let mut spec = SvcSpec::new(SvmParams::rbf(1.0, 0.5));
    spec.threads = 0;
    assert!(fit(&ds, &spec).is_err());
    spec.threads = 1;
    ds.y[0] = f64::NAN;
    assert!(fit(&ds, &spec).is_err());
}
