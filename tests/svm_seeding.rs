//! Alpha seeding (Wen et al. 2017): every method reaches the baseline's
//! optimum in every round (objective within 1e-3 relative, at most one
//! held-out row flipped per fold), on generated data and, when
//! `CVBENCH_DATA_DIR` holds it, on heart_scale; SIR needs fewer SMO
//! iterations than the baseline at k = 10.

use std::path::PathBuf;

use cvbench::data::{read_libsvm, Dataset};
use cvbench::svm::folds::Folds;
use cvbench::svm::{
    seeded_cross_validate, SeededCvResult, SeededOptions, SeedingMethod, SvmParams,
};
use rand::RngExt;

/// Two overlapping Gaussian blobs (synthetic).
fn blobs(n: usize, d: usize, seed: u64, sep: f64) -> Dataset {
    let mut rng = cvbench::seed::rng(seed);
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let label = if i % 3 == 0 { 1.0 } else { -1.0 };
        let row: Vec<f64> = (0..d)
            .map(|j| rng.random_range(-1.0..1.0) + if j == 0 { sep * label } else { 0.0 })
            .collect();
        rows.push(row);
        y.push(label);
    }
    Dataset::from_dense_rows("synthetic-blobs", &rows, y)
}

fn heart() -> Option<Dataset> {
    let Some(dir) = std::env::var_os("CVBENCH_DATA_DIR") else {
        println!("SKIPPED: CVBENCH_DATA_DIR is not set");
        return None;
    };
    let dir = PathBuf::from(dir);
    let p = [dir.join("heart_scale.xz"), dir.join("heart_scale")]
        .into_iter()
        .find(|p| p.is_file());
    match p {
        Some(p) => Some(read_libsvm(&p, None).expect("readable heart_scale")),
        None => {
            println!("SKIPPED: heart_scale not in {}", dir.display());
            None
        }
    }
}

fn run(ds: &Dataset, folds: &Folds, p: &SvmParams, m: SeedingMethod, par: bool) -> SeededCvResult {
    seeded_cross_validate(
        ds,
        folds,
        p,
        &SeededOptions {
            method: m,
            shared_cache_mb: if par { Some(64.0) } else { None },
            parallel: par,
            seed: 7,
        },
    )
    .unwrap_or_else(|e| panic!("{} failed: {e}", m.as_str()))
}

/// Every round of `got` against the baseline `base`: objective within 1e-3
/// relative, same iteration-independent outcome, at most one flip per fold.
fn assert_same_optimum(base: &SeededCvResult, got: &SeededCvResult, what: &str) {
    assert_eq!(base.cv.rounds.len(), got.cv.rounds.len());
    for (b, g) in base.cv.rounds.iter().zip(&got.cv.rounds) {
        let (ob, og) = (b.stats.objective, g.stats.objective);
        assert!(
            (ob - og).abs() <= 1e-3 * ob.abs().max(1e-12),
            "{what}: fold {} objective {og} vs baseline {ob}",
            b.fold
        );
        assert_eq!(b.n_train, g.n_train);
    }
    let flips_per_fold = |h: usize| got.cv.rounds[h].correct.abs_diff(base.cv.rounds[h].correct);
    for h in 0..base.cv.rounds.len() {
        assert!(
            flips_per_fold(h) <= 1,
            "{what}: fold {h} changed by more than one row"
        );
    }
    let flipped = base
        .cv
        .predictions
        .iter()
        .zip(&got.cv.predictions)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        flipped <= base.cv.rounds.len(),
        "{what}: {flipped} predictions flipped"
    );
}

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

/// Parallel solves change no number, with or without a shared cache. A
/// shared cache may change a seeded round's iterations against per-solve
/// caches (its gradient sums are the cache's single-precision values), never
/// the optimum or more than one held-out row per fold.
#[test]
fn parallel_solves_change_no_number_and_the_cache_no_optimum() {
    let ds = blobs(120, 3, 3, 0.6);
    let p = SvmParams::rbf(1.0, 0.7);
    let folds = Folds::libsvm(&ds, 6).expect("folds");
    let with = |m: SeedingMethod, shared: Option<f64>, parallel: bool| {
        seeded_cross_validate(
            &ds,
            &folds,
            &p,
            &SeededOptions {
                method: m,
                shared_cache_mb: shared,
                parallel,
                seed: 7,
            },
        )
        .expect("cv")
    };
    let key = |r: &SeededCvResult| {
        r.cv.rounds
            .iter()
            .map(|x| (x.stats.iterations, x.stats.objective.to_bits(), x.correct))
            .collect::<Vec<_>>()
    };
    for m in [SeedingMethod::Sir, SeedingMethod::Tree] {
        let per_solve = with(m, None, false);
        for shared in [None, Some(64.0)] {
            let a = with(m, shared, false);
            let b = with(m, shared, true);
            assert_eq!(key(&a), key(&b), "{} {shared:?}", m.as_str());
            assert_eq!(a.cv.predictions, b.cv.predictions);
            assert_same_optimum(&per_solve, &b, m.as_str());
        }
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
    use cvbench::svm::{run_cv, CacheMode, CvStrategy, RoundOrder, SeederKind};
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

/// A chain runs one solve at a time, so what its shared cache holds follows
/// from the inputs alone, and its seeds' gradients and held-out sums read the
/// columns the cache holds even when it cannot hold them all: fewer kernel
/// values computed in blocks than with per-solve caches, the same optimum,
/// and the same numbers, bit for bit, on 1, 2 or 3 threads. (Two chains
/// share their cache at once, so theirs is not read that way.) Fails if the
/// chain's cache is not declared settled: its blocks then compute as many
/// values as with per-solve caches.
#[test]
fn a_chain_reads_a_partial_shared_cache_and_threads_change_nothing() {
    use cvbench::svm::{run_cv, CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(240, 30, 9, 0.2);
    let mut p = SvmParams::rbf(2.0, 0.03);
    // About 60 of the 240 columns fit in the shared cache's 3/4.
    p.cache_mb = 60.0 * (240.0 * 4.0 + 64.0) / 0.75 / f64::from(1u32 << 20);
    // LIBSVM's folds, in an order that is not already fold order.
    let folds = Folds::libsvm(&ds, 6).expect("folds");
    let strategy = |order, cache, threads| CvStrategy {
        order,
        seeder: SeederKind::Sir,
        cache,
        threads,
    };
    let base = run_cv(
        &ds,
        &folds,
        &p,
        &CvStrategy {
            order: RoundOrder::PerRound,
            seeder: SeederKind::Zero,
            cache: CacheMode::PerSolve,
            threads: 1,
        },
        7,
    )
    .expect("baseline");
    let per_solve = run_cv(
        &ds,
        &folds,
        &p,
        &strategy(RoundOrder::Chain, CacheMode::PerSolve, 1),
        7,
    )
    .unwrap();
    let mut reference: Option<SeededCvResult> = None;
    for threads in [1, 2, 3] {
        let got = run_cv(
            &ds,
            &folds,
            &p,
            &strategy(RoundOrder::Chain, CacheMode::Shared, threads),
            7,
        )
        .unwrap();
        assert_same_optimum(&base, &got, "chain+sir, shared");
        assert!(
            got.cv.block_kernel_evals < per_solve.cv.block_kernel_evals,
            "{} block values with the settled shared cache, {} with per-solve caches",
            got.cv.block_kernel_evals,
            per_solve.cv.block_kernel_evals
        );
        match &reference {
            None => reference = Some(got),
            Some(r) => {
                assert_eq!(r.cv.predictions, got.cv.predictions);
                assert_eq!(r.cv.block_kernel_evals, got.cv.block_kernel_evals);
                for (a, b) in r.cv.rounds.iter().zip(&got.cv.rounds) {
                    assert_eq!(a.stats.iterations, b.stats.iterations);
                    assert_eq!(a.stats.objective.to_bits(), b.stats.objective.to_bits());
                }
            }
        }
    }
}

/// On data with many non-zeros per row, prediction with a shared cache reads
/// the support vectors' cached columns instead of computing kernel values:
/// fewer kernel values computed, the same labels (and every other number) as
/// with per-solve caches, on any thread count.
#[test]
fn prediction_from_the_shared_cache_changes_no_label() {
    use cvbench::svm::{run_cv, CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(160, 40, 5, 0.15);
    let p = SvmParams::rbf(2.0, 0.02);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    for (order, seeder) in [
        (RoundOrder::PerRound, SeederKind::Zero),
        (RoundOrder::Tree, SeederKind::Carry),
    ] {
        let mut got = Vec::new();
        for (cache, threads) in [
            (CacheMode::PerSolve, 1),
            (CacheMode::Shared, 1),
            (CacheMode::Shared, 2),
        ] {
            let s = CvStrategy {
                order,
                seeder,
                cache,
                threads,
            };
            got.push(run_cv(&ds, &folds, &p, &s, 7).expect("cv"));
        }
        let [per_solve, shared, shared2] = &got[..] else {
            unreachable!()
        };
        for other in [shared, shared2] {
            assert_eq!(per_solve.cv.predictions, other.cv.predictions);
            assert_eq!(per_solve.cv.correct, other.cv.correct);
            assert!(
                other.cv.block_kernel_evals < per_solve.cv.block_kernel_evals,
                "{:?}: {} block values with the shared cache, {} without",
                order,
                other.cv.block_kernel_evals,
                per_solve.cv.block_kernel_evals
            );
        }
        assert!(
            per_solve.cv.correct < ds.n(),
            "a problem with errors to flip"
        );
    }
}

/// A kernel close to the identity (gamma so large that every off-diagonal
/// value is about 1e-15): every held-out decision value is of the order of
/// rounding, so a warm start's labels would be rounding noise. Every
/// warm-started round is found degenerate and solved again from zero, so
/// each order predicts exactly what the per-round baseline (LIBSVM's path)
/// predicts, and says so in `cold_resolve`; the baseline never re-solves.
#[test]
fn warm_rounds_on_a_near_identity_kernel_are_solved_again_from_zero() {
    use cvbench::svm::{run_cv, CacheMode, CvStrategy, RoundOrder, SeederKind};
    // Balanced classes, so that `rho` is 0 up to rounding.
    let mut rng = cvbench::seed::rng(11);
    let rows: Vec<Vec<f64>> = (0..150)
        .map(|_| (0..50).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let y = (0..150)
        .map(|i| if i % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    let ds = Dataset::from_dense_rows("synthetic-near-identity", &rows, y);
    let p = SvmParams::rbf(10.0, 2.0);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    let strategy = |order, seeder| CvStrategy {
        order,
        seeder,
        cache: CacheMode::PerSolve,
        threads: 1,
    };
    let base = run_cv(
        &ds,
        &folds,
        &p,
        &strategy(RoundOrder::PerRound, SeederKind::Zero),
        7,
    )
    .expect("baseline");
    assert!(base.cv.rounds.iter().all(|r| !r.cold_resolve));
    for (order, seeder, warm_rounds) in [
        (RoundOrder::Chain, SeederKind::Sir, 4),
        (RoundOrder::TwoChains, SeederKind::Sir, 3),
        (RoundOrder::Tree, SeederKind::Carry, 5),
        (RoundOrder::FullModel, SeederKind::Carry, 5),
    ] {
        let got = run_cv(&ds, &folds, &p, &strategy(order, seeder), 7).expect("seeded");
        let resolved = got.cv.rounds.iter().filter(|r| r.cold_resolve).count();
        assert_eq!(resolved, warm_rounds, "{order:?}: rounds solved again");
        // A re-solved round's seconds include the discarded warm solve's.
        for r in &got.cv.rounds {
            let t = &r.stats.timings;
            assert_eq!(r.cold_resolve, r.discarded_s > 0.0, "{order:?}");
            assert!(t.init_s + t.train_s + t.predict_s >= r.discarded_s);
        }
        assert_eq!(got.cv.predictions, base.cv.predictions, "{order:?}");
        for (a, b) in got.cv.rounds.iter().zip(&base.cv.rounds) {
            assert_eq!(
                a.stats.objective, b.stats.objective,
                "{order:?} fold {}",
                a.fold
            );
            assert!(a.stats.iterations >= b.stats.iterations);
        }
    }
    // A kernel that is exactly the identity (every off-diagonal value
    // underflows to 0) with C = 1, as madelon's at the paper setting: on
    // balanced training folds every alpha ends exactly at C and every
    // gradient exactly at 0, so the arithmetic is exact on any path (any
    // CPU, any SIMD width): the warm rounds are kept, and still predict
    // exactly what the baseline predicts, in fewer iterations. (With C = 10
    // the alphas end free at 1 up to rounding, rho is rounding noise, and the
    // guard solves the rounds again, as the C = 10 cases above check.)
    let p = SvmParams::rbf(1.0, 1e4);
    let base = run_cv(
        &ds,
        &folds,
        &p,
        &strategy(RoundOrder::PerRound, SeederKind::Zero),
        7,
    )
    .expect("baseline");
    for (order, seeder) in [
        (RoundOrder::Chain, SeederKind::Sir),
        (RoundOrder::Tree, SeederKind::Carry),
    ] {
        for cache in [CacheMode::PerSolve, CacheMode::Shared] {
            let s = CvStrategy {
                cache,
                ..strategy(order, seeder)
            };
            let got = run_cv(&ds, &folds, &p, &s, 7).expect("seeded");
            assert_eq!(
                got.cv.predictions, base.cv.predictions,
                "{order:?} {cache:?}"
            );
            assert!(
                got.cv.rounds.iter().all(|r| !r.cold_resolve),
                "{order:?} {cache:?}: an exact identity is not degenerate"
            );
            assert_eq!(
                got.cv.predictions, base.cv.predictions,
                "{order:?} {cache:?}"
            );
            assert!(got.cv.total_iterations < base.cv.total_iterations);
        }
    }
}

/// Two chains: rounds `0` and `ceil(k/2)` start from `alpha = 0` (the
/// baseline's solves, iteration for iteration), every other round is seeded
/// from the round before it in its half (fewer iterations than the
/// baseline's in total), and the halves' split does not depend on threads.
#[test]
fn two_chains_start_each_half_from_zero_and_seed_the_rest() {
    use cvbench::svm::{run_cv, CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(120, 4, 5, 0.6);
    let p = SvmParams::rbf(2.0, 0.5);
    let folds = Folds::stratified(&ds, 7, 3).expect("folds");
    let base = run(&ds, &folds, &p, SeedingMethod::None, false);
    for threads in [1, 2] {
        let s = CvStrategy {
            order: RoundOrder::TwoChains,
            seeder: SeederKind::Sir,
            cache: CacheMode::PerSolve,
            threads,
        };
        let got = run_cv(&ds, &folds, &p, &s, 7).expect("two chains");
        assert_same_optimum(&base, &got, "two_chains");
        let seeded: Vec<usize> = got
            .cv
            .rounds
            .iter()
            .filter(|r| r.seed_s > 0.0)
            .map(|r| r.fold)
            .collect();
        assert_eq!(seeded, [1, 2, 3, 5, 6], "threads {threads}");
        for h in [0, 4] {
            assert_eq!(
                got.cv.rounds[h].stats.iterations, base.cv.rounds[h].stats.iterations,
                "round {h} is a solve from zero"
            );
        }
        assert!(got.cv.total_iterations < base.cv.total_iterations);
        assert!(got.parallel == (threads > 1));
    }
}

/// Every method's prediction of a row is that of the row's own round, put
/// back in the caller's row order (the run works on the rows in fold order):
/// the unseeded run's predictions equal training each round by hand on its
/// rows and predicting its held-out rows with LIBSVM's prediction kernel.
#[test]
fn predictions_come_back_in_the_callers_row_order() {
    use cvbench::svm::{run_cv, train, CacheMode, CvStrategy, RoundOrder, SeederKind};
    let ds = blobs(120, 6, 4, 0.4);
    let p = SvmParams::rbf(1.0, 0.3);
    let folds = Folds::libsvm(&ds, 5).expect("folds");
    assert!(
        folds.folds.concat() != (0..ds.n()).collect::<Vec<_>>(),
        "LIBSVM's folds are shuffled"
    );
    let mut expected = vec![f64::NAN; ds.n()];
    for h in 0..folds.k() {
        let out = train(&ds, &folds.train_rows(h), &p, None).expect("train");
        for &r in folds.test_rows(h) {
            expected[r] = out.model.predict(ds.row(r));
        }
    }
    for cache in [CacheMode::PerSolve, CacheMode::Shared] {
        let s = CvStrategy {
            order: RoundOrder::PerRound,
            seeder: SeederKind::Zero,
            cache,
            threads: 2,
        };
        let got = run_cv(&ds, &folds, &p, &s, 7).expect("cv");
        assert_eq!(got.cv.predictions, expected, "{cache:?}");
    }
}

/// Wen et al.'s first-rounds estimate: a run of the first R rounds holds
/// exactly the whole run's first R rounds (same iterations, objective and
/// held-out counts; a chain seeds round h from round h - 1, AVG from the
/// full model), its accuracy is over their held-out rows, and the orders
/// whose cost is not in proportion to their rounds refuse it.
#[test]
fn first_rounds_are_the_whole_runs_first_rounds() {
    use cvbench::svm::{run_cv, run_cv_first_rounds, CacheMode, CvStrategy};
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
