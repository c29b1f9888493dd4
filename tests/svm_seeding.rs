//! Alpha seeding (Wen et al. 2017): every method reaches the baseline's
//! optimum in every round (objective within 1e-3 relative, at most one
//! held-out row flipped per fold), on generated data and, when
//! `CVBENCH_DATA_DIR` holds it, on heart_scale; SIR needs fewer SMO
//! iterations than the baseline at k = 10.
//!
//! The shared cache's and the threads' tests are in `svm_seeding_cache.rs`,
//! the round orders' in `svm_seeding_orders.rs`.

use crate::common;

use std::path::PathBuf;

use common::seeding::{assert_same_optimum, blobs, heart, run};
use cvbench_engine::api::cv::{seeded_cross_validate, Folds, SeededCvResult, SeededOptions};
use cvbench_engine::api::data::read_libsvm;
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::SeedingMethod;

#[test]
fn every_method_reaches_the_baseline_optimum_k_fold() {
    let ds = blobs(150, 4, 11, 0.8);
    let p = SvmParams::rbf(2.0, 0.5);
    for k in [3, 5, 10] {
        let folds = Folds::libsvm(&ds, k).expect("folds");
        let base = run(&ds, &folds, &p, SeedingMethod::None, false);
        for m in [
            SeedingMethod::Ato,
            SeedingMethod::Mir,
            SeedingMethod::Sir,
            SeedingMethod::Tree,
        ] {
            let got = run(&ds, &folds, &p, m, false);
            assert_same_optimum(&base, &got, &format!("{} k={k}", m.as_str()));
            assert!(got.cv.rounds.iter().skip(1).all(|r| r.seed_s >= 0.0));
        }
    }
}

#[test]
fn loocv_methods_reach_the_baseline_optimum() {
    let ds = blobs(40, 3, 5, 0.7);
    let p = SvmParams::rbf(4.0, 0.5);
    let folds = Folds::loocv(ds.n());
    let base = run(&ds, &folds, &p, SeedingMethod::None, false);
    for &m in SeedingMethod::ALL {
        let got = run(&ds, &folds, &p, m, false);
        assert_same_optimum(&base, &got, &format!("{} loocv", m.as_str()));
        // A removed non-SV leaves the full model optimal: no iteration.
        if m.loocv_only() {
            assert_eq!(got.extra.len(), 1, "one full-data solve");
            assert!(
                got.total_iterations() < base.total_iterations(),
                "{} saves iterations",
                m.as_str()
            );
        }
    }
}

#[test]
fn avg_and_top_are_refused_for_k_fold() {
    let ds = blobs(30, 2, 1, 1.0);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    for m in [SeedingMethod::Avg, SeedingMethod::Top] {
        let err = seeded_cross_validate(
            &ds,
            &folds,
            &SvmParams::rbf(1.0, 0.5),
            &SeededOptions {
                method: m,
                shared_cache_mb: None,
                parallel: false,
                seed: 1,
            },
        )
        .expect_err("k-fold AVG/TOP");
        assert!(err.to_string().contains("leave-one-out"), "{err}");
    }
}

#[test]
fn heart_scale_seeding_is_exact_and_sir_saves_iterations() {
    let Some(ds) = heart() else { return };
    for (c, g) in [(1.0, 1.0 / 13.0), (2182.0, 0.2)] {
        let p = SvmParams::rbf(c, g);
        let folds = Folds::libsvm(&ds, 10).expect("folds");
        let base = run(&ds, &folds, &p, SeedingMethod::None, false);
        for m in [
            SeedingMethod::Ato,
            SeedingMethod::Mir,
            SeedingMethod::Sir,
            SeedingMethod::Tree,
        ] {
            let got = run(&ds, &folds, &p, m, false);
            assert_same_optimum(&base, &got, &format!("heart {} C={c}", m.as_str()));
            if m == SeedingMethod::Sir {
                assert!(
                    got.total_iterations() < base.total_iterations(),
                    "SIR {} vs baseline {} iterations (C = {c})",
                    got.total_iterations(),
                    base.total_iterations()
                );
            }
        }
    }
}

#[test]
fn svm_command_prints_total_iterations_and_matches_svm_train_v() {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return;
    };
    let file = PathBuf::from(dir).join("heart_scale.xz");
    if !file.is_file() {
        println!("SKIPPED: heart_scale.xz not found");
        return;
    }
    let run = |seeding: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cvbench"))
            .args([
                "svm",
                file.to_str().unwrap_or_default(),
                "-v",
                "10",
                "--libsvm-folds",
                "--seeding",
                seeding,
                "--stats",
            ])
            .output()
            .expect("run cvbench");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    // Our own lines (`Total #iter`, `Seeding`) come with --stats only.
    let line = |text: &str, start: &str| {
        text.lines()
            .map(|l| l.trim_start_matches("[stats] "))
            .find(|l| l.starts_with(start))
            .unwrap_or_default()
            .to_string()
    };
    let base = run("none");
    let iters = |t: &str| -> u64 {
        line(t, "Total #iter = ")
            .trim_start_matches("Total #iter = ")
            .parse()
            .unwrap_or(0)
    };
    for m in ["sir", "mir", "ato", "tree"] {
        let got = run(m);
        assert_eq!(
            line(&got, "Cross Validation Accuracy"),
            line(&base, "Cross Validation Accuracy"),
            "{m}"
        );
        assert!(line(&got, "Seeding = ").contains(m), "{got}");
        assert!(iters(&got) > 0);
    }
    assert!(
        iters(&run("sir")) < iters(&base),
        "SIR saves iterations on heart_scale at k = 10"
    );
    // The baseline's line is svm-train -v 10's (LIBSVM folds).
    if cvbench::peers::libsvm::available() {
        let (_tmp, plain) = write_plain(&file);
        let out = std::process::Command::new("svm-train")
            .args(["-v", "10", "-q"])
            .arg(&plain)
            .output()
            .expect("svm-train");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(
            line(&text, "Cross Validation Accuracy"),
            line(&base, "Cross Validation Accuracy")
        );
    } else {
        println!(
            "SKIPPED (svm-train part): {}",
            cvbench::peers::libsvm::SKIPPED_NO_SVM_TRAIN
        );
    }
}

/// heart_scale decompressed into a temporary LibSVM file (removed with the `TempDir`).
fn write_plain(xz: &std::path::Path) -> (tempfile::TempDir, PathBuf) {
    let ds = read_libsvm(xz, None).expect("heart_scale");
    let dir = tempfile::tempdir().expect("temp dir");
    let p = dir.path().join("heart_scale");
    let rows: Vec<usize> = (0..ds.n()).collect();
    cvbench::peers::libsvm::write_rows(&ds, &rows, &p).expect("write");
    (dir, p)
}

/// Every meaningful combination of the four axes (round order, seeder,
/// cache, threads) reaches the baseline's optimum, and the thread count
/// changes no number: the same iterations, objectives and predictions, bit
/// for bit, for either cache.
#[test]
fn every_axis_combination_is_exact_and_threads_change_nothing() {
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(90, 4, 11, 0.6);
    let p = SvmParams::rbf(2.0, 0.5);
    let folds = Folds::stratified(&ds, 6, 3).expect("folds");
    let base = run(&ds, &folds, &p, SeedingMethod::None, false);
    let mut combos = 0;
    for &order in RoundOrder::ALL {
        for &seeder in SeederKind::ALL {
            if !seeder.orders().contains(&order) || seeder.loocv_only() {
                continue;
            }
            for &cache in CacheMode::ALL {
                let mut reference: Option<SeededCvResult> = None;
                for threads in [1, 2, 3] {
                    let s = CvStrategy {
                        order,
                        seeder,
                        cache,
                        threads,
                    };
                    let got = run_cv(&ds, &folds, &p, &s, 7)
                        .unwrap_or_else(|e| panic!("{} failed: {e}", s.label()));
                    assert_same_optimum(&base, &got, &s.label());
                    match &reference {
                        None => reference = Some(got),
                        Some(r) => {
                            assert_eq!(r.cv.predictions, got.cv.predictions, "{}", s.label());
                            for (a, b) in r.cv.rounds.iter().zip(&got.cv.rounds) {
                                assert_eq!(a.stats.iterations, b.stats.iterations);
                                assert_eq!(
                                    a.stats.objective.to_bits(),
                                    b.stats.objective.to_bits()
                                );
                                assert_eq!(a.stats.rho.to_bits(), b.stats.rho.to_bits());
                            }
                        }
                    }
                    combos += 1;
                }
            }
        }
    }
    // per_round+zero, chain+{carry, ato, mir, sir},
    // two_chains+{carry, ato, mir, sir}, full_model+carry, tree+carry.
    assert_eq!(combos, 11 * 6);
    // Meaningless combinations are errors, not silent fallbacks.
    let bad = CvStrategy {
        order: RoundOrder::Tree,
        seeder: SeederKind::Sir,
        cache: CacheMode::PerSolve,
        threads: 1,
    };
    assert!(run_cv(&ds, &folds, &p, &bad, 7).is_err());
}

/// Wen et al.'s first-rounds estimate: a run of the first R rounds holds
/// exactly the whole run's first R rounds (same iterations, objective and
/// held-out counts; a chain seeds round h from round h - 1, AVG from the
/// full model), its accuracy is over their held-out rows, and the orders
/// whose cost is not in proportion to their rounds refuse it.
#[test]
fn first_rounds_are_the_whole_runs_first_rounds() {
    use cvbench_engine::api::cv::{run_cv, run_cv_first_rounds};
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy};
    let ds = blobs(40, 3, 11, 0.8);
    let folds = Folds::loocv(ds.n());
    let p = SvmParams::rbf(1.0, 0.5);
    for m in [SeedingMethod::None, SeedingMethod::Sir, SeedingMethod::Avg] {
        let s = CvStrategy::of(m, CacheMode::PerSolve, 1);
        let whole = run_cv(&ds, &folds, &p, &s, 7).unwrap();
        let first = run_cv_first_rounds(&ds, &folds, &p, &s, 7, 9).unwrap();
        assert_eq!(first.cv.rounds.len(), 9, "{m}");
        for (a, b) in first.cv.rounds.iter().zip(&whole.cv.rounds) {
            assert_eq!(a.fold, b.fold, "{m}");
            assert_eq!(
                a.stats.iterations, b.stats.iterations,
                "{m} round {}",
                a.fold
            );
            assert_eq!(a.stats.objective, b.stats.objective, "{m} round {}", a.fold);
            assert_eq!(a.correct, b.correct, "{m} round {}", a.fold);
        }
        let correct: usize = whole.cv.rounds[..9].iter().map(|r| r.correct).sum();
        assert_eq!(first.cv.correct, correct);
        assert_eq!(first.cv.accuracy_pct, 100.0 * correct as f64 / 9.0, "{m}");
        assert!(first.cv.predictions[9..].iter().all(|v| v.is_nan()));
        // Asking for more rounds than there are runs them all.
        let all = run_cv_first_rounds(&ds, &folds, &p, &s, 7, 1000).unwrap();
        assert_eq!(all.cv.accuracy_pct, whole.cv.accuracy_pct, "{m}");
        assert_eq!(all.cv.rounds.len(), ds.n());
    }
    for m in [SeedingMethod::Tree, SeedingMethod::SirTwoChains] {
        let s = CvStrategy::of(m, CacheMode::PerSolve, 1);
        let e = run_cv_first_rounds(&ds, &folds, &p, &s, 7, 9).unwrap_err();
        assert!(
            e.to_string().contains("cannot run only its first rounds"),
            "{e}"
        );
    }
    let s = CvStrategy::of(SeedingMethod::Sir, CacheMode::PerSolve, 1);
    assert!(run_cv_first_rounds(&ds, &folds, &p, &s, 7, 0).is_err());
}
