//! epsilon-SVR, nu-SVR, one-class and nu-SVC on the batched working-set solver
//! (`--solver batched`) against the LIBSVM-identical SMO: the same dual, stopped by the same rule
//! (`m(a) - M(a) < eps`), so the objective, rho and the predictions agree
//! to what the tolerance allows, on any thread count bit for bit. Synthetic
//! data always (labelled synthetic); housing_scale where
//! `CVBENCH_DATA_DIR` holds it.

use std::path::Path;

use cvbench_engine::data::read::libsvm::read_libsvm;
use cvbench_engine::data::Dataset;
use cvbench_engine::svm::cv::strategy::SolverKind;
use cvbench_engine::svm::formulation::nu_svc::{train_nu_svc, NuSvcFit};
use cvbench_engine::svm::formulation::{train_one_function, FunctionFit};
use cvbench_engine::svm::model::params::SvmType;
use cvbench_engine::svm::SvmParams;

fn features(n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| (0..5).map(|j| ((i * 5 + j) as f64 * 0.731).sin()).collect())
        .collect()
}

fn synthetic(n: usize) -> Dataset {
    let rows = features(n);
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
    let (c, vars) = match t {
        SvmType::OneClass { .. } => (1.0, 1),
        SvmType::NuSvr { .. } | SvmType::EpsilonSvr { .. } => (params.c, 2),
        _ => (params.c, 1),
    };
    let bound = 2.0 * params.eps * c * (vars * ds.n()) as f64;
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
    agree(&ds, SvmParams::rbf(4.0, 0.5), SvmType::NuSvr { nu: 0.5 });
    agree(&ds, SvmParams::linear(1.0), SvmType::NuSvr { nu: 0.2 });
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
    agree(&ds, SvmParams::rbf(16.0, 0.5), SvmType::NuSvr { nu: 0.4 });
}

/// Three classes (synthetic) from the regression set's features.
fn synthetic_classes(n: usize) -> Dataset {
    let y = synthetic(n)
        .y
        .iter()
        .map(|&v| {
            if v < -0.5 {
                1.0
            } else if v < 0.8 {
                2.0
            } else {
                3.0
            }
        })
        .collect();
    Dataset::from_dense_rows("synthetic-classes", &features(n), y)
}

fn nu_svc(ds: &Dataset, params: &SvmParams, nu: f64, threads: usize) -> NuSvcFit {
    let rows: Vec<usize> = (0..ds.n()).collect();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| train_nu_svc(ds, &rows, params, nu).unwrap())
}

/// nu-SVC's batched pairs against the SMO's: each pair's `C = 1/r`, rho
/// and objective (all scaled by `r`, as LIBSVM scales them) within the
/// tolerance, the decision values close and the labels the same but for
/// rows on the margin; the same bits on 1 and 2 threads.
fn nu_svc_agrees(ds: &Dataset, params: SvmParams, nu: f64) {
    let smo = nu_svc(ds, &params, nu, 2);
    let batched_params = SvmParams {
        solver: SolverKind::Batched,
        ..params.clone()
    };
    let b = nu_svc(ds, &batched_params, nu, 2);
    for (k, (ps, pb)) in smo.ovo.pairs.iter().zip(&b.ovo.pairs).enumerate() {
        let (cs, cb) = (smo.c[k], b.c[k]);
        println!(
            "{} pair {k}: C = 1/r {cb} / {cs}, rho {} / {}, objective {} / {}, iterations {} / {}",
            ds.name,
            pb.stats.rho,
            ps.stats.rho,
            pb.stats.objective,
            ps.stats.objective,
            pb.stats.iterations,
            ps.stats.iterations
        );
        assert!(
            (cs - cb).abs() <= 1e-2 * cs,
            "pair {k}: C {cb} against {cs}"
        );
        assert!(
            (ps.stats.rho - pb.stats.rho).abs() <= 1e-2 * (1.0 + ps.stats.rho.abs()),
            "pair {k}: rho {} against {}",
            pb.stats.rho,
            ps.stats.rho
        );
        let o = ps.stats.objective;
        assert!(
            (o - pb.stats.objective).abs() <= 1e-2 * (1.0 + o.abs()),
            "pair {k}: objective {} against {o}",
            pb.stats.objective
        );
    }
    let mut differ = 0;
    for r in 0..ds.n() {
        let (a, c) = (
            smo.ovo.model.decision_values(ds.row(r)),
            b.ovo.model.decision_values(ds.row(r)),
        );
        for (x, z) in a.iter().zip(&c) {
            assert!(
                (x - z).abs() <= 2e-2 * (1.0 + x.abs()),
                "{}: row {r}: {z} against {x}",
                ds.name
            );
        }
        if smo.ovo.model.predict(ds.row(r)) != b.ovo.model.predict(ds.row(r)) {
            differ += 1;
        }
    }
    assert!(
        differ * 100 <= ds.n(),
        "{}: {differ} labels differ",
        ds.name
    );
    let one = nu_svc(ds, &batched_params, nu, 1);
    for (p1, p2) in one.ovo.pairs.iter().zip(&b.ovo.pairs) {
        assert_eq!(p1.coef, p2.coef, "{}: 1 and 2 threads", ds.name);
    }
}

#[test]
fn batched_nu_svc_reaches_the_smos_optimum() {
    // Pairs of about 1,000 rows: working sets (512) smaller than the problem.
    let ds = synthetic_classes(1500);
    nu_svc_agrees(&ds, SvmParams::rbf(1.0, 0.5), 0.3);
    nu_svc_agrees(&ds, SvmParams::linear(1.0), 0.15);
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED (heart_scale): CVBENCH_DATA_DIR is not set");
        return;
    };
    let path = Path::new(&dir).join("heart_scale.xz");
    if !path.is_file() {
        println!("SKIPPED: {} not found", path.display());
        return;
    }
    let ds = read_libsvm(&path, None).unwrap();
    nu_svc_agrees(&ds, SvmParams::rbf(1.0, 1.0 / 13.0), 0.5);
    nu_svc_agrees(&ds, SvmParams::rbf(1.0, 2.0), 0.2);
}
