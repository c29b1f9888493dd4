//! epsilon-SVR and one-class on the batched working-set solver
//! (`--solver batched`) against the LIBSVM-identical SMO: the same dual, stopped by the same rule
//! (`m(a) - M(a) < eps`), so the objective, rho and the predictions agree
//! to what the tolerance allows, on any thread count bit for bit. Synthetic
//! data always (labelled synthetic); housing_scale where
//! `CVBENCH_DATA_DIR` holds it.

use std::path::Path;

use cvbench_engine::data::read::libsvm::read_libsvm;
use cvbench_engine::data::Dataset;
use cvbench_engine::svm::cv::strategy::SolverKind;
use cvbench_engine::svm::formulation::{train_one_function, FunctionFit};
use cvbench_engine::svm::model::params::SvmType;
use cvbench_engine::svm::SvmParams;

fn synthetic(n: usize) -> Dataset {
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..5).map(|j| ((i * 5 + j) as f64 * 0.731).sin()).collect())
        .collect();
    let y: Vec<f64> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| 3.0 * r[0] - r[1] * r[2] + 0.3 * ((i as f64) * 1.37).cos())
        .collect();
    Dataset::from_dense_rows("synthetic-svr", &rows, y)
}

fn fit(ds: &Dataset, params: &SvmParams, t: SvmType, threads: usize) -> FunctionFit {
    let rows: Vec<usize> = (0..ds.n()).collect();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| train_one_function(ds, &rows, params, t).unwrap())
}

/// The batched optimum against the SMO's: objective within `eps` times the
/// problem's scale, rho within a few `eps`, every prediction close.
fn agree(ds: &Dataset, params: SvmParams, t: SvmType) {
    let smo = fit(ds, &params, t, 2);
    let batched_params = SvmParams {
        solver: SolverKind::Batched,
        ..params.clone()
    };
    let b = fit(ds, &batched_params, t, 2);
    let (os, ob) = (smo.stats.objective, b.stats.objective);
    // Both stop with a maximal violation below eps: each objective is
    // within eps * sum(C) of the optimum's (the dual gap bound of a
    // violation-eps point, C per variable; one-class's bounds are 1), so
    // they are within twice it.
    let c = if matches!(t, SvmType::OneClass { .. }) {
        1.0
    } else {
        params.c
    };
    let bound = 2.0 * params.eps * c * ds.n() as f64;
    println!(
        "{}: objective {ob} / {os}, iterations {} / {}, rho {} / {}",
        ds.name, b.stats.iterations, smo.stats.iterations, b.stats.rho, smo.stats.rho
    );
    assert!(
        (os - ob).abs() <= bound,
        "{}: objective {ob} against the SMO's {os} (bound {bound})",
        ds.name
    );
    assert!(
        (smo.stats.rho - b.stats.rho).abs() <= 4.0 * params.eps,
        "{}: rho {} against {}",
        ds.name,
        b.stats.rho,
        smo.stats.rho
    );
    for r in 0..ds.n() {
        let (a, c) = (
            smo.model.decision_value(ds.row(r)),
            b.model.decision_value(ds.row(r)),
        );
        assert!(
            (a - c).abs() <= 1e-2 * (1.0 + a.abs()),
            "{}: row {r}: {c} against {a}",
            ds.name
        );
    }
    // Any thread count: the same bits.
    let one = fit(ds, &batched_params, t, 1);
    assert_eq!(one.coef, b.coef, "{}: 1 and 2 threads", ds.name);
    assert_eq!(one.stats.objective.to_bits(), b.stats.objective.to_bits());
}

#[test]
fn batched_svr_and_one_class_reach_the_smos_optimum_on_synthetic_data() {
    let ds = synthetic(700);
    agree(
        &ds,
        SvmParams::rbf(4.0, 0.5),
        SvmType::EpsilonSvr { p: 0.1 },
    );
    agree(&ds, SvmParams::linear(1.0), SvmType::EpsilonSvr { p: 0.2 });
    agree(&ds, SvmParams::rbf(1.0, 0.5), SvmType::OneClass { nu: 0.3 });
    agree(
        &ds,
        SvmParams::rbf(1.0, 2.0),
        SvmType::OneClass { nu: 0.05 },
    );
}

#[test]
fn batched_svr_and_one_class_reach_the_smos_optimum_on_housing() {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return;
    };
    let path = Path::new(&dir).join("housing_scale.xz");
    if !path.is_file() {
        println!("SKIPPED: {} not found", path.display());
        return;
    }
    let ds = read_libsvm(&path, None).unwrap();
    let gamma = 1.0 / ds.d() as f64;
    agree(
        &ds,
        SvmParams::rbf(1.0, gamma),
        SvmType::EpsilonSvr { p: 0.1 },
    );
    agree(
        &ds,
        SvmParams::rbf(16.0, 0.5),
        SvmType::EpsilonSvr { p: 0.5 },
    );
    agree(
        &ds,
        SvmParams::rbf(1.0, gamma),
        SvmType::OneClass { nu: 0.5 },
    );
}

#[test]
fn batched_nu_svr_is_refused_with_a_reason() {
    let ds = synthetic(50);
    let params = SvmParams {
        solver: SolverKind::Batched,
        ..SvmParams::rbf(1.0, 0.5)
    };
    let rows: Vec<usize> = (0..ds.n()).collect();
    let Err(err) = train_one_function(&ds, &rows, &params, SvmType::NuSvr { nu: 0.5 }) else {
        panic!("batched nu-SVR should be refused");
    };
    assert!(err.to_string().contains("nu-SVR"), "{err}");
}
