//! The cross-validation of nu-SVC, one-class, epsilon-SVR and nu-SVR
//! (`api::formulation_cv`) gives the same numbers on any thread count and
//! with either kernel cache: every held-out prediction to the bit, every
//! round's solves (iterations, objective, rho, support vectors) and the
//! summary. Synthetic data (always runs); on heart_scale and housing_scale
//! too where `CVBENCH_DATA_DIR` has them.

use cvbench_engine::api::data::{read_libsvm, Dataset};
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation, libsvm_folds, FormulationCv, FormulationCvOptions,
};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::CacheMode;

/// Two noisy classes (labels ±1) with a smooth real target beside them.
fn synthetic(n: usize, regression: bool) -> Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let t = i as f64 * 0.618_033_988_7;
        let x = vec![(t * 7.1).sin(), (t * 3.3).cos(), (t * 1.7).sin() * 0.5];
        let target = x[0] * 2.0 + x[1] * x[2] + 0.1 * (t * 11.0).sin();
        y.push(if regression {
            target
        } else if target > 0.0 {
            1.0
        } else {
            -1.0
        });
        rows.push(x);
    }
    Dataset::from_dense_rows("synthetic-formulation-cv", &rows, y)
}

/// A solve's numbers: iterations, objective and rho (as bits), nSV, nBSV.
type SolveNumbers = (u64, u64, u64, usize, usize);

/// The run's numbers that may not depend on threads or cache: the
/// predictions (as bits), each round's solves, the printed lines.
type RunNumbers = (Vec<u64>, Vec<Vec<SolveNumbers>>, Vec<String>);

/// [`RunNumbers`] of a run.
fn numbers(cv: &FormulationCv) -> RunNumbers {
    let preds = cv.result.predictions.iter().map(|p| p.to_bits()).collect();
    let rounds = cv
        .result
        .rounds
        .iter()
        .map(|r| {
            r.solves
                .iter()
                .map(|s| {
                    (
                        s.iterations,
                        s.objective.to_bits(),
                        s.rho.to_bits(),
                        s.n_sv,
                        s.n_bsv,
                    )
                })
                .collect()
        })
        .collect();
    (preds, rounds, cv.lines())
}

/// Every formulation on `ds` (classification labels for nu-SVC and
/// one-class, real targets for the SVRs) with 1 and 2 threads, shared and
/// per-solve caches: the same numbers.
fn same_on_any_threads(ds: &Dataset, types: &[SvmType], params: &SvmParams, k: usize) {
    for &t in types {
        let folds = libsvm_folds(ds, k, t).unwrap();
        let run = |cache, threads| {
            let opts = FormulationCvOptions { cache, threads };
            cross_validate_formulation(ds, &folds, params, t, opts).unwrap()
        };
        let base = run(CacheMode::Shared, 1);
        assert_eq!(base.result.predictions.len(), ds.n());
        assert!(base.result.predictions.iter().all(|p| p.is_finite()));
        assert_eq!(base.result.rounds.len(), folds.k());
        for (cache, threads) in [
            (CacheMode::Shared, 2),
            (CacheMode::PerSolve, 1),
            (CacheMode::PerSolve, 2),
        ] {
            let other = run(cache, threads);
            assert_eq!(
                numbers(&other),
                numbers(&base),
                "{} on {}: {cache} cache, {threads} threads",
                t.name(),
                ds.name
            );
            assert_eq!(other.summary, base.summary);
        }
    }
}

#[test]
fn classes_and_one_class_are_the_same_on_any_thread_count() {
    let ds = synthetic(240, false);
    let types = [SvmType::NuSvc { nu: 0.4 }, SvmType::OneClass { nu: 0.3 }];
    same_on_any_threads(&ds, &types, &SvmParams::rbf(1.0, 0.5), 5);
}

#[test]
fn regressions_are_the_same_on_any_thread_count() {
    let ds = synthetic(240, true);
    let types = [SvmType::EpsilonSvr { p: 0.1 }, SvmType::NuSvr { nu: 0.5 }];
    same_on_any_threads(&ds, &types, &SvmParams::rbf(4.0, 0.5), 10);
}

#[test]
fn folds_are_stratified_for_nu_svc_only() {
    let ds = synthetic(103, false);
    let nu = libsvm_folds(&ds, 5, SvmType::NuSvc { nu: 0.5 }).unwrap();
    let one = libsvm_folds(&ds, 5, SvmType::OneClass { nu: 0.5 }).unwrap();
    nu.validate().unwrap();
    one.validate().unwrap();
    // One shuffle cut at i l / k: folds of 20 and 21 rows in LIBSVM's layout.
    let sizes: Vec<usize> = one.folds.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![20, 21, 20, 21, 21]);
    assert_ne!(nu, one);
}

#[test]
fn real_data_is_the_same_on_any_thread_count() {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let read = |name: &str| {
        let p = dir.join(format!("{name}.xz"));
        p.is_file().then(|| read_libsvm(&p, None).unwrap())
    };
    let (Some(heart), Some(housing)) = (read("heart_scale"), read("housing_scale")) else {
        println!("SKIPPED: heart_scale or housing_scale not found");
        return;
    };
    let params = |d: usize| SvmParams::libsvm_defaults(d);
    let classes = [SvmType::NuSvc { nu: 0.5 }, SvmType::OneClass { nu: 0.5 }];
    same_on_any_threads(&heart, &classes, &params(13), 5);
    let regressions = [SvmType::EpsilonSvr { p: 0.1 }, SvmType::NuSvr { nu: 0.5 }];
    same_on_any_threads(&housing, &regressions, &params(13), 10);
}
