//! Alpha-seeded cross-validation of nu-SVC, one-class and nu-SVR
//! (`api::formulation_cv::cross_validate_formulation_seeded`, `sir` and
//! `sir_two_chains`) against the unseeded run (svm-train's numbers) on the
//! same folds: synthetic data (always runs), and housing_scale, heart_scale
//! and the multi-class glass.scale and vowel.scale where `CVBENCH_DATA_DIR`
//! has them.
//!
//! What is tested, and why it holds:
//! - every round's (pair's) objective within `eps C m` of the unseeded
//!   one's, `m` the number of variables and `C` their bound, both in the
//!   solver's own (unscaled) problem. Both solves stop when the violation
//!   `m(a) - M(a)` is below `eps` (`Solver`), or within each label
//!   (`Solver_NU`), on all variables (the solver unshrinks before it
//!   stops). For the convex `f` and `d = a - a_opt`, which sums to zero
//!   (within each label for `Solver_NU`), `f(a) - f* <= grad f(a)^T d <=
//!   eps sum_i |d_i| <= eps C m`. Both objectives lie in `[f*, f* + eps C
//!   m]` (the same `f32` kernel), so they differ by at most that. The
//!   objective is compared unscaled: nu-SVC prints `f / r^2`, and
//!   `r = 1 / C_printed`, so `f = obj / C_printed^2`; one-class `m = l`,
//!   `C = 1`; nu-SVR `m = 2l`, `C = C`; nu-SVC `m = l` of the pair, `C = 1`.
//! - the CV accuracy (nu-SVC, one-class) within 1 percentage point (5 on
//!   glass.scale at the default eps, where the unseeded accuracy itself
//!   moves that much with eps: see the test), the
//!   MSE within 1e-2 relative and the squared correlation within 1e-2 (an
//!   empirical check, not a theorem: the predictions of two eps-optimal
//!   models).
//! - fewer SMO iterations in all with `sir` on the real sets, printed on
//!   the synthetic ones.
//! - the same numbers, bit for bit, on 1 and 2 threads, and `none` the
//!   unseeded run bit for bit.

use cvbench_engine::api::data::{read_libsvm, Dataset};
use cvbench_engine::api::formulation::SvmType;
use cvbench_engine::api::formulation_cv::{
    cross_validate_formulation, cross_validate_formulation_seeded, libsvm_folds, CvSummary,
    FormulationCv, FormulationCvOptions,
};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::{CacheMode, SeedingMethod};

/// Three features, a smooth real target, and a class from its sign.
fn synthetic(n: usize, classes: bool) -> Dataset {
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let t = i as f64 * 0.618_033_988_7;
        let x = vec![(t * 7.1).sin(), (t * 3.3).cos(), (t * 1.7).sin() * 0.5];
        let v = x[0] * 2.0 + x[1] * x[2] + 0.3 * (t * 11.0).sin();
        y.push(if classes {
            if v > 0.2 {
                1.0
            } else if v < -0.8 {
                3.0
            } else {
                -1.0
            }
        } else {
            v
        });
        rows.push(x);
    }
    Dataset::from_dense_rows("synthetic-seeded", &rows, y)
}

fn opts(threads: usize) -> FormulationCvOptions {
    FormulationCvOptions {
        cache: CacheMode::Shared,
        threads,
    }
}

/// One solve's iterations, objective and rho (as bits), nSV.
type SolveBits = (u64, u64, u64, usize);

/// The numbers of a run that may not depend on threads: predictions (as
/// bits) and every solve's [`SolveBits`].
fn bits(cv: &FormulationCv) -> (Vec<u64>, Vec<SolveBits>) {
    let preds = cv.result.predictions.iter().map(|p| p.to_bits()).collect();
    let solves = cv
        .result
        .rounds
        .iter()
        .flat_map(|r| &r.solves)
        .map(|s| (s.iterations, s.objective.to_bits(), s.rho.to_bits(), s.n_sv))
        .collect();
    (preds, solves)
}

/// Each solve's unscaled objective and its bound `eps C m` (module doc).
fn objectives(cv: &FormulationCv, t: SvmType, params: &SvmParams) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for r in &cv.result.rounds {
        for (s, info) in r.solves.iter().zip(&r.infos) {
            let (f, m, c) = match t {
                SvmType::NuSvc { .. } => {
                    let c = info.expect("C = 1/r").1;
                    // The pair's rows: its nSV are among them; the pair's
                    // size is not in the stats, so bound by the round's.
                    (s.objective / (c * c), r.n_train, 1.0)
                }
                SvmType::OneClass { .. } => (s.objective, r.n_train, 1.0),
                _ => (s.objective, 2 * r.n_train, params.c),
            };
            out.push((f, params.eps * c * m as f64));
        }
    }
    out
}

/// Seeded against unseeded (see the module doc); `fewer`: assert fewer
/// iterations with `sir`; accuracies within `acc_pts` percentage points.
fn check(ds: &Dataset, params: &SvmParams, t: SvmType, k: usize, fewer: bool, acc_pts: f64) {
    let folds = libsvm_folds(ds, k, t).unwrap();
    let base = cross_validate_formulation(ds, &folds, params, t, opts(2)).unwrap();
    let none =
        cross_validate_formulation_seeded(ds, &folds, params, t, opts(2), SeedingMethod::None)
            .unwrap();
    assert_eq!(bits(&none), bits(&base), "seeding none is the unseeded run");
    let ob = objectives(&base, t, params);
    for method in [SeedingMethod::Sir, SeedingMethod::SirTwoChains] {
        let run = |threads| {
            cross_validate_formulation_seeded(ds, &folds, params, t, opts(threads), method).unwrap()
        };
        let seeded = run(1);
        assert_eq!(bits(&run(2)), bits(&seeded), "{method}: 1 and 2 threads");
        assert_eq!(seeded.result.rounds.len(), k);
        for (s, b) in seeded.result.rounds.iter().zip(&base.result.rounds) {
            assert_eq!(
                (s.fold, s.n_train, s.solves.len()),
                (b.fold, b.n_train, b.solves.len())
            );
        }
        let os = objectives(&seeded, t, params);
        for (q, (&(fs, bound), &(fb, _))) in os.iter().zip(&ob).enumerate() {
            assert!(
                (fs - fb).abs() <= bound,
                "{} {} {method} solve {q}: obj {fs} vs {fb}, bound {bound}",
                ds.name,
                t.name()
            );
        }
        match (seeded.summary, base.summary) {
            (
                CvSummary::Regression {
                    mse: ms,
                    squared_correlation: rs,
                },
                CvSummary::Regression {
                    mse: mb,
                    squared_correlation: rb,
                },
            ) => {
                assert!((ms - mb).abs() <= 1e-2 * mb, "{method}: MSE {ms} vs {mb}");
                assert!((rs - rb).abs() <= 1e-2, "{method}: r2 {rs} vs {rb}");
            }
            (s, b) => {
                let (a, b) = (s.accuracy_pct().unwrap(), b.accuracy_pct().unwrap());
                assert!((a - b).abs() <= acc_pts, "{method}: accuracy {a} vs {b}");
            }
        }
        let (it_s, it_b) = (
            seeded.result.total_iterations(),
            base.result.total_iterations(),
        );
        println!(
            "{} {} {method}: #iter {it_s} vs {it_b}, {:?} vs {:?}",
            ds.name,
            t.name(),
            seeded.summary.lines(),
            base.summary.lines()
        );
        if fewer && method == SeedingMethod::Sir {
            assert!(it_s < it_b, "{method}: {it_s} iterations vs {it_b}");
        }
    }
}

#[test]
fn seeded_nu_formulations_are_exact_to_the_tolerance_on_synthetic_data() {
    let reg = synthetic(300, false);
    check(
        &reg,
        &SvmParams::rbf(4.0, 0.5),
        SvmType::NuSvr { nu: 0.4 },
        5,
        false,
        1.0,
    );
    check(
        &reg,
        &SvmParams::rbf(1.0, 2.0),
        SvmType::OneClass { nu: 0.2 },
        10,
        false,
        1.0,
    );
    let cls = synthetic(300, true);
    check(
        &cls,
        &SvmParams::rbf(1.0, 1.0),
        SvmType::NuSvc { nu: 0.3 },
        5,
        false,
        1.0,
    );
}

/// `name` from `CVBENCH_DATA_DIR`, or `None` (the test prints SKIPPED).
fn real(name: &str) -> Option<Dataset> {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let p = std::path::Path::new(&dir).join(format!("{name}.xz"));
    if !p.is_file() {
        println!("SKIPPED: {name} not found");
        return None;
    }
    Some(read_libsvm(&p, None).unwrap())
}

#[test]
fn seeded_nu_svr_and_one_class_are_exact_to_the_tolerance_on_housing() {
    let Some(ds) = real("housing_scale") else {
        return;
    };
    let params = SvmParams::libsvm_defaults(13);
    check(&ds, &params, SvmType::NuSvr { nu: 0.5 }, 10, true, 1.0);
    check(
        &ds,
        &SvmParams::rbf(4.0, 0.5),
        SvmType::NuSvr { nu: 0.3 },
        5,
        true,
        1.0,
    );
    check(&ds, &params, SvmType::OneClass { nu: 0.5 }, 10, true, 1.0);
}

#[test]
fn seeded_nu_svc_and_one_class_are_exact_to_the_tolerance_on_heart() {
    let Some(ds) = real("heart_scale") else {
        return;
    };
    let params = SvmParams::libsvm_defaults(13);
    check(&ds, &params, SvmType::NuSvc { nu: 0.5 }, 10, true, 1.0);
    check(&ds, &params, SvmType::OneClass { nu: 0.1 }, 5, false, 1.0);
}

#[test]
fn seeded_nu_svc_is_exact_to_the_tolerance_on_multi_class_sets() {
    if let Some(ds) = real("glass.scale") {
        // Nearly separable pairs: the objectives (~1e-5) lie far below
        // what eps = 0.001 resolves (the bound ~2e-3), and the scaled
        // decision values (times 1/r) move with them: the unseeded CV
        // accuracy itself is 63.55% at eps 1e-3, 68.69% at 1e-4, 69.16%
        // at 1e-5 and 68.69% at 1e-7 (seeded: 59.81%, 67.29%, 68.69%,
        // 68.69%). At the default eps the accuracies are compared within
        // that spread (5 points), at eps 1e-5 within 1 point.
        let mut params = SvmParams::libsvm_defaults(9);
        check(&ds, &params, SvmType::NuSvc { nu: 0.2 }, 10, true, 5.0);
        params.eps = 1e-5;
        check(&ds, &params, SvmType::NuSvc { nu: 0.2 }, 10, true, 1.0);
    }
    if let Some(ds) = real("vowel.scale") {
        // nu 0.5 on vowel's 48 rows a class: some folds make a pair's nu
        // infeasible, and that pair starts from the fill (as unseeded).
        check(
            &ds,
            &SvmParams::libsvm_defaults(10),
            SvmType::NuSvc { nu: 0.5 },
            5,
            true,
            1.0,
        );
    }
}

/// Timings for experiments/engine/logs (run with `--release --ignored
/// --nocapture`): `SEED_SET` (a file in `CVBENCH_DATA_DIR`, default
/// a9a), `SEED_TYPE` (`nu_svc`, `one_class`, `epsilon_svr`, `nu_svr`),
/// `SEED_NU` / `SEED_P`, `SEED_ROWS` (the first rows only), `SEED_CACHE_MB`
/// (2000), `SEED_METHODS` (`none,sir_two_chains,sir`), 10 folds, 2
/// threads, LIBSVM's default C and gamma; the CV's wall time printed.
#[test]
#[ignore]
fn seeded_timing() {
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or(d.into());
    let Some(mut ds) = real(&var("SEED_SET", "a9a")) else {
        return;
    };
    if let Ok(rows) = std::env::var("SEED_ROWS") {
        let rows: Vec<usize> = (0..rows.parse::<usize>().unwrap().min(ds.n())).collect();
        ds = ds.subset(&rows, ds.name.clone());
    }
    let nu: f64 = var("SEED_NU", "0.5").parse().unwrap();
    let p: f64 = var("SEED_P", "0.1").parse().unwrap();
    let t = match var("SEED_TYPE", "nu_svc").as_str() {
        "nu_svc" => SvmType::NuSvc { nu },
        "one_class" => SvmType::OneClass { nu },
        "nu_svr" => SvmType::NuSvr { nu },
        _ => SvmType::EpsilonSvr { p },
    };
    let mut params = SvmParams::libsvm_defaults(ds.d());
    params.cache_mb = var("SEED_CACHE_MB", "2000").parse().unwrap();
    let folds = libsvm_folds(&ds, 10, t).unwrap();
    for name in var("SEED_METHODS", "none,sir_two_chains,sir").split(',') {
        let m = SeedingMethod::parse(name).unwrap();
        let cv = cross_validate_formulation_seeded(&ds, &folds, &params, t, opts(2), m).unwrap();
        let solves = cv.result.rounds.iter().flat_map(|r| &r.solves);
        let init_s: f64 = solves.clone().map(|s| s.timings.init_s).sum();
        let train_s: f64 = solves.map(|s| s.timings.train_s).sum();
        println!(
            "{} ({} rows) {} {name}: wall {:.2}s (solves: init {init_s:.2}s, iterations {train_s:.2}s), #iter {}, kernel evals {}, {:?}",
            ds.name,
            ds.n(),
            t.name(),
            cv.result.wall_s,
            cv.result.total_iterations(),
            cv.result.kernel_evals,
            cv.summary.lines()
        );
    }
}
