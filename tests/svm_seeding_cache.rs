//! Alpha seeding with a shared kernel cache and on several threads: the
//! thread count changes no number, and a shared cache no optimum; a chain
//! reads a partial shared cache, and prediction reads the support vectors'
//! cached columns.

use crate::common;

use common::seeding::{assert_same_optimum, blobs};
use cvbench_engine::api::cv::{seeded_cross_validate, Folds, SeededCvResult, SeededOptions};
use cvbench_engine::api::params::SvmParams;
use cvbench_engine::api::strategies::SeedingMethod;

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
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
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
    use cvbench_engine::api::cv::run_cv;
    use cvbench_engine::api::strategies::{CacheMode, CvStrategy, RoundOrder, SeederKind};
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
